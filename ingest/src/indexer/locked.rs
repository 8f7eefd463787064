//! Each source is indexed under its project's run lock
//! ([`vibe_common::backend::run_lock`]): one run per project at a time, whichever
//! command, config or machine starts it. A run that meets another waits as
//! its options say, then leaves the project to it and names it
//! ([`BusySource`]). Once it holds the lock it reads what the index holds
//! afresh (the other run may have changed it while this one waited), removes
//! the generations no alias points at (no other run can be writing one now)
//! and indexes the source; the lock is released however that ends.

use std::path::Path;
use std::time::{Duration, Instant};

use vibe_common::backend::naming::project_hash;
use vibe_common::backend::run_lock::{self, Claim, Holder, RunLock, Wait};
use vibe_common::backend::search::Search;

use super::index_source::{index_source, Stored};
use super::store::{self, Layout};
use super::{IndexError, IndexOptions, SourceOutcome};

/// A source left to the run that holds its project.
#[derive(Debug, Clone)]
pub struct BusySource {
    pub root: String,
    pub holder: Holder,
    pub waited: Duration,
}

impl std::fmt::Display for BusySource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is being indexed by another run: {}. Waited {} s; rerun when it has finished, or pass --wait to \
             wait for it",
            self.root,
            self.holder.describe(),
            self.waited.as_secs()
        )
    }
}

/// What became of one source.
pub(super) enum Locked {
    Indexed(SourceOutcome),
    Busy(BusySource),
}

/// Index one source under its project's lock.
pub(super) async fn index_locked(search: &Search, root: &Path, opts: &IndexOptions) -> Result<Locked, IndexError> {
    // A root that cannot be resolved fails in the scanner, which names it.
    let Ok(canonical) = root.canonicalize() else {
        let layout = Layout::default();
        let stored = Stored { layout: &layout, meta: None };
        return index_source(search, stored, root, opts, None).await.map(Locked::Indexed);
    };
    let (hash, shown) = (project_hash(&canonical), canonical.display().to_string());
    let started = Instant::now();
    let claim = run_lock::claim(search, &hash, &shown, &opts.lock, |holder| {
        let until = match opts.lock.wait {
            Wait::UpTo(max) => format!("waiting up to {} s (--wait waits until it ends)", max.as_secs()),
            Wait::UntilFree => "waiting until it ends".to_string(),
        };
        tell(opts, &format!("{shown} is being indexed by another run: {}; {until}", holder.describe()));
    })
    .await?;
    let lock = match claim {
        Claim::Won(lock) => *lock,
        Claim::HeldBy(holder) => {
            return Ok(Locked::Busy(BusySource { root: shown, holder, waited: started.elapsed() }))
        }
    };
    if let Some(previous) = lock.took_over() {
        tell(opts, &format!("{shown}: took over the index lock of a run that is gone: {}", previous.describe()));
    }
    let outcome = index_claimed(search, root, &hash, opts, &lock).await;
    if let Err(e) = lock.release().await {
        tracing::warn!("{shown}: the index lock was not released ({e}); it ends with its lease");
    }
    outcome.map(Locked::Indexed)
}

/// Index a source whose lock this run holds.
async fn index_claimed(
    search: &Search,
    root: &Path,
    hash: &str,
    opts: &IndexOptions,
    lock: &RunLock,
) -> Result<SourceOutcome, IndexError> {
    let (layout, meta) = tokio::try_join!(Layout::read(search), store::meta_of(search, hash))?;
    let removed = store::remove_stale_generations(search, &layout, hash).await?;
    if !removed.is_empty() {
        tracing::info!("{}: removed generations no alias points at: {}", root.display(), removed.join(", "));
    }
    index_source(search, Stored { layout: &layout, meta: meta.as_ref() }, root, opts, Some(lock)).await
}

pub(super) fn tell(opts: &IndexOptions, line: &str) {
    match &opts.notice {
        Some(notice) => notice(line),
        None => tracing::info!("{line}"),
    }
}
