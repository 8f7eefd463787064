//! Indexing one source: plan where its documents go, stream the changed
//! files from the scanner into bulk writes, delete what left the disk, make
//! the writes visible and record the project's meta document and owners.

use std::collections::{HashMap, HashSet};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use vibe_common::backend::naming::project_hash;
use vibe_common::backend::search::Search;
use vibe_common::document::project_meta::ProjectMeta;

use vibe_common::backend::run_lock::RunLock;

use super::bulk::{BulkBatch, BulkOutcome};
use super::store::{Layout, MetaInfo};
use super::{documents, format, project_stats, store};
use super::{EnrichFn, IndexError, IndexOptions, SourceOutcome, PROJECT_SUMMARY_KEY};
use crate::scanner::in_flight::{InFlight, SlowFiles};
use crate::scanner::{self, ScanOptions, ScanReport, ScannedFile, SkipReason, SourceInfo};

/// Where one source's documents go.
struct Targets {
    files: String,
    ast: String,
    files_alias: String,
    ast_alias: String,
}

impl Targets {
    fn alias_of(&self, index: &str) -> String {
        if index == self.files {
            self.files_alias.clone()
        } else if index == self.ast {
            self.ast_alias.clone()
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

/// Scanned files waiting for the indexer; the scanner waits when it is full.
const SCAN_QUEUE_FILES: usize = 256;
/// Changed files are enriched and queued for the bulk writes this many at a time.
const FILES_PER_WRITE: usize = 64;

/// What the index holds of a source, and where this run writes.
pub(super) struct Plan {
    targets: Targets,
    /// Files whose two documents both carry their hash.
    pub stored: HashMap<String, String>,
    /// Paths stored in either index (a half-written file must be deletable too).
    pub stored_paths: HashSet<String>,
    /// A new generation is written (first build, `--force`, or a new index format).
    pub rebuild: bool,
    /// Why an existing index is rebuilt, when its format changed.
    pub upgraded: Option<String>,
    /// Unchanged files written again to be described (a run with enrichment
    /// over files an earlier one left without a description).
    pub redescribed: usize,
}

/// What the index holds of a project as its run starts: the layout of
/// every project's indices, and the project's meta document.
#[derive(Clone, Copy)]
pub(super) struct Stored<'a> {
    pub layout: &'a Layout,
    pub meta: Option<&'a MetaInfo>,
}

/// One source being indexed.
struct SourceRun<'a> {
    search: &'a Search,
    opts: &'a IndexOptions,
    hash: String,
    targets: Targets,
    progress: Option<indicatif::ProgressBar>,
    name: String,
}

/// Index one source. `lock` is its project's run lock (none only for a
/// root that cannot be read, which fails in the scanner): a run that lost it
/// publishes nothing.
pub(super) async fn index_source(
    search: &Search,
    known: Stored<'_>,
    root: &Path,
    opts: &IndexOptions,
    lock: Option<&RunLock>,
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
    let plan = plan_source(search, known, &info, &hash, opts).await?;
    let mut outcome = SourceOutcome {
        name: info.name.clone(),
        root: info.root.clone(),
        rebuilt: plan.rebuild,
        upgraded: plan.upgraded,
        redescribed: plan.redescribed,
        ..Default::default()
    };
    let details = (outcome.rebuilt && !details_loaded).then(|| load_details(&info.root));
    let progress = progress_bar(opts.progress, &info.name, &info.root);
    let in_flight = Arc::new(InFlight::default());
    let slow_files = SlowFiles::watch(in_flight.clone(), progress.clone(), info.name.clone());
    let scan_opts =
        ScanOptions { in_flight: Some(in_flight), default_encoding: opts.default_encoding, ..Default::default() };
    let (rx, scan_task) = start_scan(&info, plan.stored, scan_opts);
    let run = SourceRun { search, opts, hash, targets: plan.targets, progress, name: info.name.clone() };
    if outcome.rebuilt {
        store::create_generation(search, &run.targets.files, &run.targets.ast).await?;
    }
    let (seen, mut batch, mut bulk) = run.write_scanned(&info, rx).await?;
    tracing::debug!(source = %info.name, "scan finished");
    let scan = scan_task
        .await
        .map_err(|e| IndexError::Task { path: path.clone(), source: e.into() })?
        .map_err(IndexError::Scan)?;
    drop(slow_files);
    outcome.deleted = run.delete_gone(&plan.stored_paths, &seen, &mut batch, &mut bulk).await?;
    tracing::debug!(source = %info.name, "all documents sent");
    if lock.is_some_and(RunLock::is_lost) {
        return Err(IndexError::LockLost { root: path });
    }
    let old_generations = run.publish(outcome.rebuilt, &bulk).await?;
    // The old generation goes while the meta document is written.
    let drop_old = async { store::drop_generations(search, &old_generations).await.map_err(IndexError::from) };
    // Deletions are counted in `deleted`, not as writes.
    outcome.files_written = bulk.ok_for(&run.targets.files_alias).saturating_sub(outcome.deleted);
    outcome.ast_written = bulk.ok_for(&run.targets.ast_alias).saturating_sub(outcome.deleted);
    outcome.errors = scan.errors.clone();
    outcome.errors.extend(bulk.errors.iter().cloned());
    outcome.refused = bulk.refused.iter().map(|(refusal, ids)| (refusal.clone(), ids.len() as u64)).collect();
    outcome.scan = scan;
    let full_info = async {
        if details_loaded {
            return Ok(info);
        }
        details
            .unwrap_or_else(|| load_details(&info.root))
            .await
            .map_err(|e| IndexError::Task { path: path.clone(), source: e.into() })?
            .map_err(IndexError::Scan)
    };
    run.record_project(known.meta, &outcome, full_info, drop_old).await?;
    if let Some(p) = &run.progress {
        p.finish_and_clear();
    }
    tracing::debug!(source = %outcome.name, "meta document written");
    Ok(outcome)
}

/// Where a source's documents go, and what the index already holds of it. A
/// project built with another index format is rebuilt (new generation).
pub(super) async fn plan_source(
    search: &Search,
    known: Stored<'_>,
    info: &SourceInfo,
    hash: &str,
    opts: &IndexOptions,
) -> Result<Plan, IndexError> {
    let names = &search.names;
    let (files_alias, ast_alias) = (names.files_alias(hash), names.ast_alias(hash));
    let live_files = known.layout.target(&files_alias);
    let live_ast = known.layout.target(&ast_alias);
    let built_with = known.meta.map(|m| &m.index_format);
    let outdated = live_ast.is_some() && built_with.is_some_and(|f| f.as_deref() != Some(format::current()));
    let upgraded = (outdated && !opts.force).then(|| {
        format!(
            "{}: rebuilding, the index format changed ({} -> {})",
            info.name,
            built_with.cloned().flatten().unwrap_or_else(|| "unrecorded".into()),
            format::current()
        )
    });
    match (live_files, live_ast) {
        (Some(files), Some(ast)) if !opts.force && !outdated => {
            let (in_files, in_ast) = tokio::try_join!(
                store::stored_versions(search, &files_alias),
                store::stored_versions(search, &ast_alias)
            )?;
            let mut stored_paths: HashSet<String> = in_files.keys().cloned().collect();
            stored_paths.extend(in_ast.keys().cloned());
            let mut stored: HashMap<String, String> =
                in_ast.into_iter().filter(|(p, h)| in_files.get(p) == Some(h)).collect();
            let mut redescribed = 0;
            if opts.describe_bare {
                for path in store::undescribed(search, &ast_alias).await? {
                    redescribed += usize::from(stored.remove(&path).is_some());
                }
            }
            let targets = Targets { files, ast, files_alias, ast_alias };
            Ok(Plan { targets, stored, stored_paths, rebuild: false, upgraded, redescribed })
        }
        _ => {
            // Created once the scan has started.
            let generation = store::new_generation();
            let (files, ast) = (names.files_index(hash, &generation), names.ast_index(hash, &generation));
            let targets = Targets { files, ast, files_alias, ast_alias };
            let (stored, stored_paths) = (HashMap::new(), HashSet::new());
            Ok(Plan { targets, stored, stored_paths, rebuild: true, upgraded, redescribed: 0 })
        }
    }
}

type ScanTask = tokio::task::JoinHandle<Result<ScanReport, scanner::ScanError>>;

/// The scanner's test of a file unchanged since `stored` (path -> the
/// version its two documents carry): it is hashed, not parsed.
pub(super) fn unchanged_in(stored: Arc<HashMap<String, String>>) -> scanner::SkipFn {
    Arc::new(move |path: &str, version: &str| stored.get(path).is_some_and(|v| v == version))
}

/// Start the scanner on its own threads with `scan_opts`, keeping each
/// file's text and skipping the files `stored` with their current hash;
/// files reach the indexer through a bounded channel.
fn start_scan(
    info: &SourceInfo,
    stored: HashMap<String, String>,
    scan_opts: ScanOptions,
) -> (tokio::sync::mpsc::Receiver<ScannedFile>, ScanTask) {
    let scan_opts = ScanOptions { keep_content: true, skip: Some(unchanged_in(Arc::new(stored))), ..scan_opts };
    let (tx, rx) = tokio::sync::mpsc::channel::<ScannedFile>(SCAN_QUEUE_FILES);
    let scan_root = info.root.clone();
    let scan_task = tokio::task::spawn_blocking(move || {
        scanner::try_scan(&scan_root, &scan_opts, |f| {
            tx.blocking_send(f).map_err(|_| anyhow::anyhow!("indexer stopped"))
        })
    });
    (rx, scan_task)
}

impl SourceRun<'_> {
    fn phase(&self, message: &str) {
        if let Some(p) = &self.progress {
            p.set_message(format!("indexing {}: {message}", self.name));
        }
    }

    /// Write the documents of the changed files the scanner sends; returns
    /// every path seen, and the bulk writes still open.
    async fn write_scanned(
        &self,
        info: &SourceInfo,
        mut rx: tokio::sync::mpsc::Receiver<ScannedFile>,
    ) -> Result<(HashSet<String>, BulkBatch, BulkOutcome), IndexError> {
        let (search, targets, opts) = (self.search, &self.targets, self.opts);
        let mut seen: HashSet<String> = HashSet::new();
        let mut batch = BulkBatch::default();
        let mut bulk = BulkOutcome::default();
        let mut pending: Vec<ScannedFile> = Vec::new();
        let alias_of = |i: &str| targets.alias_of(i);
        while let Some(file) = rx.recv().await {
            seen.insert(file.rel_path.clone());
            if let Some(p) = &self.progress {
                p.inc(1);
            }
            if file.skipped == Some(SkipReason::Unchanged) || !documents::indexable(&file) {
                continue;
            }
            pending.push(file);
            if pending.len() >= FILES_PER_WRITE {
                write_files(search, info, targets, opts, &mut pending, &mut batch, &mut bulk).await?;
            }
            if batch.is_full() {
                batch.flush(search, &mut bulk, &alias_of).await?;
            }
        }
        write_files(search, info, targets, opts, &mut pending, &mut batch, &mut bulk).await?;
        Ok((seen, batch, bulk))
    }

    /// Delete the files stored but no longer on disk and send the last bulk
    /// writes; returns how many files were deleted.
    async fn delete_gone(
        &self,
        stored_paths: &HashSet<String>,
        seen: &HashSet<String>,
        batch: &mut BulkBatch,
        bulk: &mut BulkOutcome,
    ) -> Result<u64, IndexError> {
        self.phase("removing files no longer on disk");
        let alias_of = |i: &str| self.targets.alias_of(i);
        let mut deleted = 0;
        for gone in stored_paths.iter().filter(|p| !seen.contains(*p)) {
            batch.delete(&self.targets.files, gone);
            batch.delete(&self.targets.ast, gone);
            deleted += 1;
            if batch.is_full() {
                batch.flush(self.search, bulk, &alias_of).await?;
            }
        }
        batch.finish(self.search, bulk, &alias_of).await?;
        Ok(deleted)
    }

    /// Make the writes visible: a rebuilt project's aliases move to the new
    /// generation (the old ones are returned), an updated one is refreshed.
    async fn publish(&self, rebuilt: bool, bulk: &BulkOutcome) -> Result<Vec<String>, IndexError> {
        let targets = &self.targets;
        if rebuilt {
            self.phase("refreshing the new generation and switching readers to it");
            return Ok(store::swap_aliases(self.search, &self.hash, &targets.files, &targets.ast).await?);
        }
        if bulk.ok_total() > 0 {
            let indices = format!("{},{}", targets.files, targets.ast);
            self.search.post(&format!("/{indices}/_refresh"), &json!({})).await?;
            // Committed: a replica made later copies these writes as files.
            self.search.post(&format!("/{indices}/_flush"), &json!({})).await?;
        }
        Ok(Vec::new())
    }

    /// Write the meta document (statistics, license, README, owners) when
    /// something changed or it is missing, otherwise only record a new owner;
    /// `drop_old` runs meanwhile.
    async fn record_project(
        &self,
        meta: Option<&store::MetaInfo>,
        outcome: &SourceOutcome,
        full_info: impl std::future::Future<Output = Result<SourceInfo, IndexError>>,
        drop_old: impl std::future::Future<Output = Result<(), IndexError>>,
    ) -> Result<(), IndexError> {
        let (search, hash) = (self.search, self.hash.as_str());
        let changed = outcome.rebuilt || outcome.files_written + outcome.ast_written + outcome.deleted > 0;
        let (owners, writers, new_owner) = owners_with_me(meta, self.opts);
        if changed || meta.is_none() {
            self.phase("writing the project's statistics, license and README");
            let info = full_info.await?;
            let ownership = (owners.as_slice(), writers.as_slice());
            tokio::try_join!(write_meta(search, &info, hash, &self.targets, ownership, &self.opts.enrich), drop_old)?;
            if !owners.is_empty() && (new_owner || outcome.rebuilt) {
                store::tag_indices(search, hash, &owners).await?;
            }
        } else {
            if new_owner {
                store::set_owners(search, hash, &owners, &writers).await?;
            }
            drop_old.await?;
        }
        Ok(())
    }
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
        batch.index(&targets.ast, &file.rel_path, &documents::ast_doc(info, &file, enrichment.get(&file.rel_path)));
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
    let stats = project_stats::project_stats(search, &targets.ast_alias).await?;
    let mut summary = info.readme.as_ref().map(documents::readme_summary).unwrap_or_default();
    if let (Some(enrich), Some(_)) = (enrich, &info.readme) {
        let mut answer = enrich(info, &[])
            .map_err(|e| IndexError::Task { path: info.root.display().to_string(), source: e.into() })?;
        if let Some(llm) = answer.remove(PROJECT_SUMMARY_KEY).filter(|e| !e.description.is_empty()) {
            summary = llm.description;
        }
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_millis() as u64;
    let doc = ProjectMeta {
        root: info.root.to_string_lossy().into_owned(),
        name: info.name.clone(),
        hash: hash.to_string(),
        summary,
        license: info.license.clone(),
        readme: info.readme.clone(),
        stats,
        generation: store::generation_of(&targets.ast).unwrap_or_default().to_string(),
        index_format: format::current().to_string(),
        indexed_at: now,
        owners: owners.to_vec(),
        writers: writers.to_vec(),
    };
    let doc = serde_json::to_value(&doc).map_err(|e| IndexError::Task { path: doc.root.clone(), source: e.into() })?;
    search.put(&format!("/{}/_doc/{hash}?refresh=true", search.names.meta()), &doc).await?;
    Ok(())
}

/// The bars of the projects a run indexes at the same time, drawn together.
static BARS: std::sync::LazyLock<indicatif::MultiProgress> = std::sync::LazyLock::new(indicatif::MultiProgress::new);

/// A progress bar of files done out of the total, on a terminal only, one
/// line per project being indexed ([`BARS`]). The total comes from a quick
/// walk that reads no file.
fn progress_bar(enabled: bool, name: &str, root: &std::path::Path) -> Option<indicatif::ProgressBar> {
    if !enabled || !std::io::stderr().is_terminal() {
        return None;
    }
    let total = scanner::walk::builder(root, 1)
        .build()
        .flatten()
        .filter(|e| e.file_type().is_some_and(|t| !t.is_dir()))
        .count();
    let bar = BARS.add(indicatif::ProgressBar::new(total as u64));
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} files ({elapsed})")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(format!("indexing {name}: scan, parse and write"));
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}
