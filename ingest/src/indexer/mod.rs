//! The indexer: `scan index`. Checks OpenSearch, installs templates, cleans up
//! orphans, then for each source streams changed files from the scanner into
//! bulk writes, deletes what left the disk and writes the project's meta
//! document.
//!
//! Readers never see an empty or half-built index: a project's first build and
//! every `--force` rebuild write a new generation of physical indices, and
//! the aliases readers use move to it in one atomic `_aliases` call at the end.
//! Incremental runs write through the live generation, file by file.
//!
//! Each source is indexed under its project's run lock ([`locked`]); what
//! OpenSearch refuses (a block, a timeout, a node gone) is told in words
//! ([`vibe_common::backend::refusal`]), once per run.

mod blocks;
mod bulk;
pub mod cleanup;
mod delegates;
pub mod documents;
pub mod format;
mod index_source;
mod locked;
mod named_values;
pub mod preview;
pub mod project_stats;
pub mod store;
pub mod tags;
pub mod written;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use std::future::Future;
use std::pin::Pin;

use futures_util::stream::{FuturesOrdered, StreamExt};
use thiserror::Error;
use vibe_common::backend::refusal::Refusal;
use vibe_common::backend::run_lock::LockOptions;
use vibe_common::backend::search::{Search, SearchError};
use vibe_common::backend::templates::{self, InstallAction};
use vibe_common::error_chain::BoxError;

use crate::scanner::{self, ScanReport, ScannedFile, SourceInfo};
pub use documents::Enrichment;
pub use locked::BusySource;
use locked::{index_locked, Locked};

#[derive(Debug, Error)]
pub enum IndexError {
    #[error("OpenSearch at {host} is not reachable. Start it, or fix {setting} (in a checkout of this repository, `bash tests/opensearch/start.sh start` runs a local node)")]
    Unreachable {
        host: String,
        /// Where the host came from: `VIBE_OPENSEARCH_URL`, else `opensearch.hosts in the config`.
        setting: &'static str,
        #[source]
        source: BoxError,
    },
    #[error(transparent)]
    Search(#[from] SearchError),
    /// OpenSearch refused the run (a block, a timeout, a node gone): the
    /// message says what it means and what to do. The cause's own answer is
    /// in the debug log.
    #[error("{refusal}")]
    Refused {
        refusal: Refusal,
        #[source]
        source: SearchError,
    },
    /// Another run took this run's project over (this run stopped renewing
    /// its lock for a whole lease): nothing of this run was published.
    #[error("{root}: another run took this project over while this run was stalled; nothing of this run was published. Run scan index again")]
    LockLost { root: String },
    /// A source could not be scanned; the scan error names the path.
    #[error(transparent)]
    Scan(#[from] scanner::ScanError),
    /// A task of a source's run failed (it panicked, or its enrichment failed).
    #[error("{path}")]
    Task {
        path: String,
        #[source]
        source: BoxError,
    },
}

/// Enrichment of a batch of changed files (LLM descriptions and tags), by relative path.
/// Called with no files, it returns the project summary (from the README)
/// under [`PROJECT_SUMMARY_KEY`].
pub type EnrichFn =
    Arc<dyn Fn(&SourceInfo, &[&ScannedFile]) -> anyhow::Result<HashMap<String, Enrichment>> + Send + Sync>;

/// Key of the project summary in the answer of an [`EnrichFn`] called with no files.
pub const PROJECT_SUMMARY_KEY: &str = "";

/// Options of one indexing run.
#[derive(Clone, Default)]
pub struct IndexOptions {
    /// Ignore stored hashes and rebuild every source into a new generation.
    pub force: bool,
    /// Show a progress bar (only when stderr is a terminal).
    pub progress: bool,
    /// Enrichment for changed files, by relative path (LLM descriptions and tags).
    pub enrich: Option<EnrichFn>,
    /// Write again the unchanged files an earlier enrichment left without a
    /// description, so that `enrich` describes them (`scan index` with an
    /// LLM; its dry run counts them). `scan watch` leaves them to it.
    pub describe_bare: bool,
    /// The owner identity's id (`vibe_common::config::Identity`) recorded
    /// as an owner of every project this run indexes. A run removes only
    /// projects it owns and no longer lists; empty = the behaviour before
    /// owners (remove every project not listed), for one-config tools and tests.
    pub owner: String,
    /// Where the owner writes from (host and config dir), recorded beside
    /// the owner id: the same id seen writing from another site is never
    /// removed ([`cleanup`]).
    pub site: Option<vibe_common::config::Site>,
    /// How the run takes each project's lock (lease, wait) and what it says about itself in it.
    pub lock: LockOptions,
    /// Where lines for the user go while the run goes on (waiting for
    /// another run, taking over a gone one's lock); the log when `None`.
    pub notice: Option<NoticeFn>,
    /// `scan.default_encoding` ([`crate::scanner::ScanOptions::default_encoding`]).
    pub default_encoding: Option<&'static encoding_rs::Encoding>,
}

/// Receives a line for the user.
pub type NoticeFn = Arc<dyn Fn(&str) + Send + Sync>;

/// What one source's indexing did.
#[derive(Debug, Default, Clone)]
pub struct SourceOutcome {
    pub name: String,
    pub root: PathBuf,
    pub rebuilt: bool,
    /// Why an existing project was rebuilt without `--force` (its index
    /// format is older than this build's).
    pub upgraded: Option<String>,
    /// Unchanged files written again to be described by the LLM (an earlier
    /// enrichment left them without a description).
    pub redescribed: usize,
    pub files_written: u64,
    pub ast_written: u64,
    pub deleted: u64,
    pub scan: ScanReport,
    pub errors: Vec<(String, String)>,
    /// Files OpenSearch refused to write, by refusal (told once, not per file).
    pub refused: BTreeMap<Refusal, u64>,
}

/// What a whole run did.
#[derive(Debug, Default, Clone)]
pub struct IndexReport {
    pub templates: Vec<InstallAction>,
    pub removed_projects: Vec<String>,
    /// Projects this config no longer lists that other configs still own:
    /// kept for them, this config's ownership dropped.
    pub released_projects: Vec<String>,
    /// Projects this identity owns but did not remove: `(root, why and what to do)`.
    pub refused_projects: Vec<(String, String)>,
    pub removed_indices: Vec<String>,
    pub sources: Vec<SourceOutcome>,
    /// Sources that could not be indexed at all: `(root, why)`.
    pub failed_sources: Vec<(String, String)>,
    /// Sources another run held for the whole wait: left to it.
    pub busy_sources: Vec<BusySource>,
    pub elapsed: Duration,
}

impl IndexReport {
    /// Record what a cleanup did.
    pub fn record_cleanup(&mut self, plan: &cleanup::Plan) {
        self.removed_projects.extend(plan.remove.iter().map(|p| p.root.clone()));
        self.released_projects.extend(plan.release.iter().map(|(p, _, _)| p.root.clone()));
        self.refused_projects.extend(plan.refused.iter().map(|r| (r.root.clone(), r.reason.clone())));
        self.removed_indices.extend(plan.indices.iter().cloned());
    }
    pub fn files_written(&self) -> u64 {
        self.sources.iter().map(|s| s.files_written).sum()
    }
    pub fn ast_written(&self) -> u64 {
        self.sources.iter().map(|s| s.ast_written).sum()
    }
    pub fn errors(&self) -> Vec<(String, String)> {
        self.failed_sources.iter().cloned().chain(self.sources.iter().flat_map(|s| s.errors.iter().cloned())).collect()
    }
    /// Files OpenSearch refused to write, by refusal, over every source.
    pub fn refusals(&self) -> BTreeMap<Refusal, u64> {
        let mut all = BTreeMap::new();
        for (refusal, files) in self.sources.iter().flat_map(|s| &s.refused) {
            *all.entry(refusal.clone()).or_default() += files;
        }
        all
    }
    /// Nothing was written or removed.
    pub fn up_to_date(&self) -> bool {
        self.sources.iter().all(|s| s.files_written == 0 && s.ast_written == 0 && s.deleted == 0 && !s.rebuilt)
            && self.removed_projects.is_empty()
    }
    /// ` (1 skipped: binary 1)`: of the files written, those whose text is
    /// not indexed, by reason; empty when none is.
    fn skipped_note(&self) -> String {
        let mut skipped: BTreeMap<crate::scanner::SkipReason, u64> = BTreeMap::new();
        for (reason, n) in self.sources.iter().flat_map(|s| &s.scan.skipped) {
            *skipped.entry(*reason).or_default() += n;
        }
        if skipped.is_empty() {
            return String::new();
        }
        let parts: Vec<String> = skipped.iter().map(|(r, n)| format!("{r} {n}")).collect();
        format!(" ({} skipped: {})", skipped.values().sum::<u64>(), parts.join(", "))
    }

    /// The closing line of `scan index`.
    pub fn summary(&self) -> String {
        if self.up_to_date() && self.errors().is_empty() && self.refusals().is_empty() && self.busy_sources.is_empty() {
            "Index is up to date — all files are already indexed and database is in sync".to_string()
        } else if self.sources.is_empty() && !self.busy_sources.is_empty() {
            "Nothing indexed: other runs are indexing these sources".to_string()
        } else {
            format!(
                "Indexing completed. Sources: {}, Files: {}{}, Analysis: {} (took {:.1}s)",
                self.sources.len(),
                self.files_written(),
                self.skipped_note(),
                self.ast_written(),
                self.elapsed.as_secs_f64()
            )
        }
    }
}

/// Check that OpenSearch answers, naming the host when it does not.
pub async fn check_backend(search: &Search) -> Result<String, IndexError> {
    search.ping().await.map_err(|e| {
        let source = match e {
            SearchError::Unreachable { source, .. } => source,
            other => other.into(),
        };
        let from_env = std::env::var(vibe_common::config::ENV_OPENSEARCH_URL).is_ok_and(|v| !v.trim().is_empty());
        let setting = if from_env { vibe_common::config::ENV_OPENSEARCH_URL } else { "opensearch.hosts in the config" };
        IndexError::Unreachable { host: search.host().to_string(), setting, source }
    })
}

/// Index `targets` (absolute roots); `configured` is every source in the
/// config, so that projects no longer there are removed. A refusal of
/// OpenSearch ends the run as [`IndexError::Refused`].
pub async fn run(
    search: &Search,
    targets: &[PathBuf],
    configured: &[PathBuf],
    opts: &IndexOptions,
) -> Result<IndexReport, IndexError> {
    run_all(search, targets, configured, opts).await.map_err(|e| match e {
        IndexError::Search(source) => match Refusal::of(search, &source) {
            Some(refusal) => IndexError::Refused { refusal, source },
            None => IndexError::Search(source),
        },
        other => other,
    })
}

/// Projects indexed at the same time by one run.
const PROJECTS_AT_ONCE: usize = 2;

async fn run_all(
    search: &Search,
    targets: &[PathBuf],
    configured: &[PathBuf],
    opts: &IndexOptions,
) -> Result<IndexReport, IndexError> {
    let start = Instant::now();
    check_backend(search).await?;
    if let Some(line) = blocks::lift_if_disk_is_fine(search).await? {
        locked::tell(opts, &line);
    }
    let mut report = IndexReport { templates: templates::install(search).await?, ..Default::default() };
    let me = cleanup::Me { id: &opts.owner, site: opts.site.as_ref(), override_sites: &[] };
    let known = cleanup::plan(search, configured, &me).await?;
    cleanup::apply(search, &known).await?;
    report.record_cleanup(&known);
    // Two projects at a time: one project's end (the last bulks, refresh,
    // flush and alias swap keep one core busy, the indexer idle) overlaps
    // the next one's scan. Outcomes come back in the targets' order.
    let mut roots = targets.iter();
    let mut running = FuturesOrdered::new();
    loop {
        while running.len() < PROJECTS_AT_ONCE {
            let Some(root) = roots.next() else { break };
            // Boxed with its type spelled out: as a closure's future in a
            // stream, `serve`'s spawned task lost its `Send` proof.
            let indexing: Pin<Box<dyn Future<Output = Result<Locked, IndexError>> + Send + '_>> =
                Box::pin(index_locked(search, root, opts));
            running.push_back(indexing);
        }
        let Some(outcome) = running.next().await else { break };
        // A source that cannot be read (gone, unreadable) is reported and the
        // run goes on with the others; a backend failure stops it.
        match outcome {
            Ok(Locked::Indexed(outcome)) => report.sources.push(outcome),
            Ok(Locked::Busy(busy)) => report.busy_sources.push(busy),
            Err(IndexError::Scan(e)) => report.failed_sources.push(e.report_line()),
            Err(e) => return Err(e),
        }
    }
    report.elapsed = start.elapsed();
    Ok(report)
}
