//! The indexer: `scan index`. Checks OpenSearch, installs templates, cleans up
//! orphans, then for each source streams changed files from the scanner into
//! bulk writes, deletes what left the disk and writes the project's meta
//! document.
//!
//! Readers never see an empty or half-built index: a project's first build and
//! every `--force` rebuild write a new generation of physical indices, and
//! the aliases readers use move to it in one atomic `_aliases` call at the end.
//! Incremental runs write through the live generation, file by file.

mod bulk;
pub mod cleanup;
pub mod documents;
pub mod format;
pub mod stats;
pub mod store;
pub mod tags;

use std::collections::{HashMap, HashSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use thiserror::Error;
use vibe_common::error::BoxError;
use vibe_common::naming::project_hash;
use vibe_common::search::{Search, SearchError};
use vibe_common::templates::{self, InstallAction};

use crate::scanner::{self, ScanOptions, ScanReport, ScannedFile, SkipReason, SourceInfo};
use bulk::{BulkBatch, BulkOutcome};
pub use documents::Enrichment;

#[derive(Debug, Error)]
pub enum IndexError {
    #[error("OpenSearch at {host} is not reachable. Start it (bash tests/opensearch/start.sh, or docker compose -f docker/opensearch/docker-compose.yml up -d) or fix opensearch.hosts in the config")]
    Unreachable {
        host: String,
        #[source]
        source: BoxError,
    },
    #[error(transparent)]
    Search(#[from] SearchError),
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
    /// The owner identity's id (`vibe_common::config::Identity`) recorded
    /// as an owner of every project this run indexes. A run removes only
    /// projects it owns and no longer lists; empty = the behaviour before
    /// owners (remove every project not listed), for one-config tools and tests.
    pub owner: String,
    /// Where the owner writes from (host and config dir), recorded beside
    /// the owner id: the same id seen writing from another site is never
    /// removed ([`cleanup`]).
    pub site: Option<vibe_common::config::Site>,
}

/// What one source's indexing did.
#[derive(Debug, Default, Clone)]
pub struct SourceOutcome {
    pub name: String,
    pub root: PathBuf,
    pub rebuilt: bool,
    /// Why an existing project was rebuilt without `--force` (its index
    /// format is older than this build's).
    pub upgraded: Option<String>,
    pub files_written: u64,
    pub analysis_written: u64,
    pub deleted: u64,
    pub scan: ScanReport,
    pub errors: Vec<(String, String)>,
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
    pub fn analysis_written(&self) -> u64 {
        self.sources.iter().map(|s| s.analysis_written).sum()
    }
    pub fn errors(&self) -> Vec<(String, String)> {
        self.failed_sources.iter().cloned().chain(self.sources.iter().flat_map(|s| s.errors.iter().cloned())).collect()
    }
    /// Nothing was written or removed.
    pub fn up_to_date(&self) -> bool {
        self.sources.iter().all(|s| s.files_written == 0 && s.analysis_written == 0 && s.deleted == 0 && !s.rebuilt)
            && self.removed_projects.is_empty()
    }
    /// The closing line of `scan index`.
    pub fn summary(&self) -> String {
        if self.up_to_date() && self.errors().is_empty() {
            "Index is up to date — all files are already indexed and database is in sync".to_string()
        } else {
            format!(
                "Indexing completed. Sources: {}, Files: {}, Analysis: {} (took {:.1}s)",
                self.sources.len(),
                self.files_written(),
                self.analysis_written(),
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
        IndexError::Unreachable { host: search.host().to_string(), source }
    })
}

/// Index `targets` (absolute roots); `configured` is every source in the
/// config, so that projects no longer there are removed.
pub async fn run(
    search: &Search,
    targets: &[PathBuf],
    configured: &[PathBuf],
    opts: &IndexOptions,
) -> Result<IndexReport, IndexError> {
    let start = Instant::now();
    check_backend(search).await?;
    let mut report = IndexReport { templates: templates::install(search).await?, ..Default::default() };
    let me = cleanup::Me { id: &opts.owner, site: opts.site.as_ref(), override_sites: &[] };
    let known = cleanup::plan(search, configured, &me).await?;
    cleanup::apply(search, &known).await?;
    report.record_cleanup(&known);
    for root in targets {
        // A source that cannot be read (gone, unreadable) is reported and the
        // run goes on with the others; a backend failure stops it.
        match index_source(search, &known, root, opts).await {
            Ok(outcome) => report.sources.push(outcome),
            Err(IndexError::Scan(e)) => report.failed_sources.push(e.report_line()),
            Err(e) => return Err(e),
        }
    }
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Where one source's documents go.
struct Targets {
    files: String,
    analysis: String,
    files_alias: String,
    analysis_alias: String,
}

impl Targets {
    fn alias_of(&self, index: &str) -> String {
        if index == self.files {
            self.files_alias.clone()
        } else if index == self.analysis {
            self.analysis_alias.clone()
        } else {
            index.to_string()
        }
    }
}

/// A source's README and license, read on a blocking thread.
fn load_details(root: &std::path::Path) -> tokio::task::JoinHandle<Result<SourceInfo, scanner::ScanError>> {
    let root = root.to_path_buf();
    tokio::task::spawn_blocking(move || SourceInfo::load(None, &root))
}

async fn index_source(
    search: &Search,
    known: &cleanup::Plan,
    root: &Path,
    opts: &IndexOptions,
) -> Result<SourceOutcome, IndexError> {
    let path = root.display().to_string();
    // README and license detection (askalono: ~0.1 s) only run when needed:
    // for enrichment (up front), or for the meta document (in the background
    // during a rebuild's scan; after the scan of an incremental run that
    // changed something; never on a no-op run).
    let load = if opts.enrich.is_some() { SourceInfo::load } else { SourceInfo::bare };
    let info = load(None, root).map_err(IndexError::Scan)?;
    let details_loaded = opts.enrich.is_some();
    let hash = project_hash(&info.root);
    let names = &search.names;
    let (files_alias, analysis_alias) = (names.files_alias(&hash), names.analysis_alias(&hash));
    let live_files = known.layout.target(&files_alias);
    let live_analysis = known.layout.target(&analysis_alias);
    let mut outcome = SourceOutcome { name: info.name.clone(), root: info.root.clone(), ..Default::default() };
    // A project built with another index format is rebuilt (new generation).
    let built_with = known.meta.get(&hash).map(|m| &m.index_format);
    let outdated = live_analysis.is_some() && built_with.is_some_and(|f| f.as_deref() != Some(format::current()));
    if outdated && !opts.force {
        outcome.upgraded = Some(format!(
            "{}: rebuilding, the index format changed ({} -> {})",
            info.name,
            built_with.cloned().flatten().unwrap_or_else(|| "unrecorded".into()),
            format::current()
        ));
    }

    // `stored`: files whose two documents both carry their hash; `stored_paths`:
    // paths stored in either index (a half-written file must be deletable too).
    let (targets, stored, stored_paths) = match (live_files, live_analysis) {
        (Some(files), Some(analysis)) if !opts.force && !outdated => {
            let (in_files, in_analysis) = tokio::try_join!(
                store::stored_hashes(search, &files_alias),
                store::stored_hashes(search, &analysis_alias)
            )?;
            let mut stored_paths: HashSet<String> = in_files.keys().cloned().collect();
            stored_paths.extend(in_analysis.keys().cloned());
            let stored: HashMap<String, String> =
                in_analysis.into_iter().filter(|(p, h)| in_files.get(p) == Some(h)).collect();
            (Targets { files, analysis, files_alias, analysis_alias }, stored, stored_paths)
        }
        _ => {
            // Created below, while the scan starts.
            let generation = store::new_generation();
            let (files, analysis) = (names.files_index(&hash, &generation), names.analysis_index(&hash, &generation));
            outcome.rebuilt = true;
            (Targets { files, analysis, files_alias, analysis_alias }, HashMap::new(), HashSet::new())
        }
    };
    let mut details = (outcome.rebuilt && !details_loaded).then(|| load_details(&info.root));

    let progress = progress_bar(opts.progress, &info.name, &info.root);
    let stored = Arc::new(stored);
    let skip_stored = stored.clone();
    let scan_opts = ScanOptions {
        keep_content: true,
        skip: Some(Arc::new(move |path: &str, hash: &str| skip_stored.get(path).is_some_and(|h| h == hash))),
        ..Default::default()
    };

    // The scanner runs on its own threads; files reach this task through a bounded channel.
    let (tx, mut rx) = tokio::sync::mpsc::channel::<ScannedFile>(256);
    let scan_root = info.root.clone();
    let scan_task = tokio::task::spawn_blocking(move || {
        scanner::try_scan(&scan_root, &scan_opts, |f| {
            tx.blocking_send(f).map_err(|_| anyhow::anyhow!("indexer stopped"))
        })
    });

    if outcome.rebuilt {
        store::create_generation(search, &targets.files, &targets.analysis).await?;
    }

    let mut seen: HashSet<String> = HashSet::new();
    let mut batch = BulkBatch::default();
    let mut bulk = BulkOutcome::default();
    let mut pending: Vec<ScannedFile> = Vec::new();
    let alias_of = |i: &str| targets.alias_of(i);
    while let Some(file) = rx.recv().await {
        seen.insert(file.rel_path.clone());
        if let Some(p) = &progress {
            p.inc(1);
        }
        if file.skipped == Some(SkipReason::Unchanged) || !documents::indexable(&file) {
            continue;
        }
        pending.push(file);
        if pending.len() >= 64 {
            write_files(search, &info, &targets, opts, &mut pending, &mut batch, &mut bulk).await?;
        }
        if batch.is_full() {
            batch.flush(search, &mut bulk, &alias_of).await?;
        }
    }
    write_files(search, &info, &targets, opts, &mut pending, &mut batch, &mut bulk).await?;
    tracing::debug!(source = %info.name, "scan finished");
    let scan = scan_task
        .await
        .map_err(|e| IndexError::Task { path: path.clone(), source: e.into() })?
        .map_err(IndexError::Scan)?;

    let phase = |message: &str| {
        if let Some(p) = &progress {
            p.set_message(format!("indexing {}: {message}", info.name));
        }
    };
    phase("removing files no longer on disk");
    for gone in stored_paths.iter().filter(|p| !seen.contains(*p)) {
        batch.delete(&targets.files, gone);
        batch.delete(&targets.analysis, gone);
        outcome.deleted += 1;
        if batch.is_full() {
            batch.flush(search, &mut bulk, &alias_of).await?;
        }
    }
    batch.finish(search, &mut bulk, &alias_of).await?;

    tracing::debug!(source = %info.name, "all documents sent");
    let mut old_generations = Vec::new();
    if outcome.rebuilt {
        phase("refreshing the new generation and switching readers to it");
        old_generations = store::swap_aliases(search, &hash, &targets.files, &targets.analysis).await?;
    } else if bulk.ok_total() > 0 {
        search.post(&format!("/{},{}/_refresh", targets.files, targets.analysis), &json!({})).await?;
    }
    // The old generation goes while the meta document is written.
    let drop_old = async { store::drop_generations(search, &old_generations).await.map_err(IndexError::from) };
    // Deletions are counted in `deleted`, not as writes.
    outcome.files_written = bulk.ok_for(&targets.files_alias).saturating_sub(outcome.deleted);
    outcome.analysis_written = bulk.ok_for(&targets.analysis_alias).saturating_sub(outcome.deleted);
    outcome.errors = scan.errors.clone();
    outcome.errors.extend(bulk.errors.iter().cloned());
    outcome.scan = scan;

    let changed = outcome.rebuilt || outcome.files_written + outcome.analysis_written + outcome.deleted > 0;
    let meta = known.meta.get(&hash);
    let meta_missing = meta.is_none();
    let (owners, writers, new_owner) = owners_with_me(meta, opts);
    if changed || meta_missing {
        phase("writing the project's statistics, license and README");
        let info = if details_loaded {
            info
        } else {
            details
                .take()
                .unwrap_or_else(|| load_details(&info.root))
                .await
                .map_err(|e| IndexError::Task { path: path.clone(), source: e.into() })?
                .map_err(IndexError::Scan)?
        };
        let ownership = (owners.as_slice(), writers.as_slice());
        tokio::try_join!(write_meta(search, &info, &hash, &targets, ownership, &opts.enrich), drop_old)?;
        if !owners.is_empty() && (new_owner || outcome.rebuilt) {
            store::tag_indices(search, &hash, &owners).await?;
        }
    } else {
        if new_owner {
            store::set_owners(search, &hash, &owners, &writers).await?;
        }
        drop_old.await?;
    }
    if let Some(p) = progress {
        p.finish_and_clear();
    }
    tracing::debug!(source = %outcome.name, "meta document written");
    Ok(outcome)
}

/// A project's owners and writers with this run's owner (and site) added
/// (a shared project has several), and whether that added anything.
fn owners_with_me(meta: Option<&store::MetaInfo>, opts: &IndexOptions) -> (Vec<String>, Vec<store::Writer>, bool) {
    let mut owners = meta.map(|m| m.owners.clone()).unwrap_or_default();
    let mut writers = meta.map(|m| m.writers.clone()).unwrap_or_default();
    if opts.owner.is_empty() {
        return (owners, writers, false);
    }
    let new_owner = !owners.contains(&opts.owner);
    if new_owner {
        owners.push(opts.owner.clone());
    }
    let me = opts.site.as_ref().map(|site| store::Writer { id: opts.owner.clone(), site: site.clone() });
    let new_writer = me.as_ref().is_some_and(|me| !writers.contains(me));
    writers.extend(me.filter(|_| new_writer));
    (owners, writers, new_owner || new_writer)
}

/// Enrich (when configured) and queue the documents of pending files.
async fn write_files(
    search: &Search,
    info: &SourceInfo,
    targets: &Targets,
    opts: &IndexOptions,
    pending: &mut Vec<ScannedFile>,
    batch: &mut BulkBatch,
    bulk: &mut BulkOutcome,
) -> Result<(), IndexError> {
    if pending.is_empty() {
        return Ok(());
    }
    let enrichment = match &opts.enrich {
        Some(enrich) if pending.iter().any(|f| f.ast.is_some()) => {
            let refs: Vec<&ScannedFile> = pending.iter().filter(|f| f.ast.is_some()).collect();
            enrich(info, &refs)
                .map_err(|e| IndexError::Task { path: info.root.display().to_string(), source: e.into() })?
        }
        _ => HashMap::new(),
    };
    for file in pending.drain(..) {
        batch.index(&targets.files, &file.rel_path, &documents::content_doc(info, &file));
        batch.index(
            &targets.analysis,
            &file.rel_path,
            &documents::analysis_doc(info, &file, enrichment.get(&file.rel_path)),
        );
        if batch.is_full() {
            batch.flush(search, bulk, &|i| targets.alias_of(i)).await?;
        }
    }
    Ok(())
}

async fn write_meta(
    search: &Search,
    info: &SourceInfo,
    hash: &str,
    targets: &Targets,
    (owners, writers): (&[String], &[store::Writer]),
    enrich: &Option<EnrichFn>,
) -> Result<(), IndexError> {
    let stats = stats::project_stats(search, &targets.analysis_alias).await?;
    let mut summary = info.readme.as_ref().map(|r| documents::readme_summary(&r.content)).unwrap_or_default();
    if let (Some(enrich), Some(_)) = (enrich, &info.readme) {
        let mut answer = enrich(info, &[])
            .map_err(|e| IndexError::Task { path: info.root.display().to_string(), source: e.into() })?;
        if let Some(llm) = answer.remove(PROJECT_SUMMARY_KEY).filter(|e| !e.description.is_empty()) {
            summary = llm.description;
        }
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_millis() as u64;
    let doc = json!({
        "root": info.root.to_string_lossy(),
        "name": info.name,
        "hash": hash,
        "summary": summary,
        "license": info.license,
        "readme": info.readme,
        "stats": stats,
        "generation": store::generation_of(&targets.analysis),
        "index_format": format::current(),
        "indexed_at": now,
        "owners": owners,
        "writers": writers,
    });
    search.put(&format!("/{}/_doc/{hash}?refresh=true", search.names.meta()), &doc).await?;
    Ok(())
}

/// A progress bar of files done out of the total, on a terminal only. The
/// total comes from a quick walk that reads no file.
fn progress_bar(enabled: bool, name: &str, root: &std::path::Path) -> Option<indicatif::ProgressBar> {
    if !enabled || !std::io::stderr().is_terminal() {
        return None;
    }
    let total = scanner::walk::builder(root, 1)
        .build()
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| !t.is_dir()))
        .count();
    let bar = indicatif::ProgressBar::new(total as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} files ({elapsed})")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(format!("indexing {name}: scan, parse and write"));
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}
