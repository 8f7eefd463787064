//! `vibe-analyzer scan index`: the full cycle into OpenSearch.

use std::sync::Arc;
use std::time::Duration;

use vibe_common::backend::run_lock::{LockOptions, Wait};
use vibe_common::backend::search::Search;

use super::{Ctx, PartialFailure, ProjectBusy, ScanIndexArgs, ScanPruneArgs};
use vibe_ingest::indexer::{self, IndexOptions, IndexReport};

/// The options every indexing run of this config shares (`scan index`,
/// `scan watch`): the enrichment, this config's id as the owner, and how
/// it takes each project's run lock (as `command`).
pub fn options(ctx: &Ctx, no_llm: bool, command: &str) -> anyhow::Result<IndexOptions> {
    let identity = ctx.identity()?;
    let os = &ctx.config.opensearch;
    let lock = LockOptions {
        lease: Duration::from_secs(os.lock_lease_secs),
        wait: Wait::UpTo(Duration::from_secs(os.lock_wait_secs)),
        command: command.to_string(),
        owner: identity.id.clone(),
        config_dir: ctx.config_dir.display().to_string(),
    };
    Ok(IndexOptions {
        enrich: super::enrich::for_index(ctx, no_llm)?,
        site: Some(identity.site()),
        owner: identity.id,
        lock,
        notice: Some(Arc::new(|line: &str| eprintln!("{line}"))),
        default_encoding: ctx.config.scan.default_encoding(),
        ..Default::default()
    })
}

pub fn run(ctx: &Ctx, args: ScanIndexArgs) -> anyhow::Result<()> {
    // With no sources, the run only removes what this config wrote (and
    // says so first).
    let prune_only = args.target.is_none() && ctx.config.sources.is_empty();
    if args.dry_run || prune_only {
        super::prune::run(ctx, ScanPruneArgs { dry_run: args.dry_run, project: Vec::new() })?;
    }
    if prune_only {
        return Ok(());
    }
    let (targets, gone) = ctx.present_targets(args.target.as_deref())?;
    if args.dry_run {
        let describe_bare = !args.no_llm && !ctx.config.ollama.is_empty();
        return dry_run(ctx, &targets, IndexOptions { force: args.force, describe_bare, ..Default::default() }, gone);
    }
    let search = Search::new(&ctx.config.opensearch)?;
    let mut opts = IndexOptions { force: args.force, progress: true, ..options(ctx, args.no_llm, "scan index")? };
    opts.describe_bare = opts.enrich.is_some();
    if args.wait {
        opts.lock.wait = Wait::UntilFree;
    }
    let runtime = tokio::runtime::Runtime::new()?;
    let report = runtime.block_on(indexer::run(&search, &targets, &ctx.config.sources, &opts))?;
    print_report(&report);
    if !report.busy_sources.is_empty() {
        return Err(ProjectBusy(report.busy_sources).into());
    }
    let refused: u64 = report.refusals().values().sum();
    let total: u64 = report.sources.iter().map(|s| s.scan.files_seen).sum();
    PartialFailure::check(report.errors().len() + refused as usize + gone, total as usize + gone)
}

/// What a run would write and remove in each source, written nowhere.
fn dry_run(ctx: &Ctx, targets: &[std::path::PathBuf], opts: IndexOptions, gone: usize) -> anyhow::Result<()> {
    let search = Search::new(&ctx.config.opensearch)?;
    let runtime = tokio::runtime::Runtime::new()?;
    let previews = runtime.block_on(indexer::preview::preview(&search, targets, &opts))?;
    let mut failed = 0;
    for preview in &previews {
        match preview {
            Ok(p) => println!("{}", p.line()),
            Err(e) => {
                failed += 1;
                let (path, message) = e.report_line();
                eprintln!("error: {path}: {message}");
            }
        }
    }
    PartialFailure::check(failed + gone, previews.len() + gone)
}

/// What a run did, on stderr, and its closing line on stdout.
fn print_report(report: &IndexReport) {
    for action in &report.templates {
        tracing::info!("{action}");
        if !matches!(action.action, vibe_common::backend::templates::Action::UpToDate) {
            eprintln!("{action}");
        }
    }
    for root in &report.removed_projects {
        eprintln!("Removed project no longer configured: {root}");
    }
    for root in &report.released_projects {
        eprintln!("Kept project no longer configured here, still indexed by another config: {root}");
    }
    for (root, why) in &report.refused_projects {
        eprintln!("Kept {root}: {why}");
    }
    for source in &report.sources {
        if let Some(line) = &source.upgraded {
            eprintln!("{line}");
        }
        if source.redescribed > 0 {
            let files = vibe_common::text::units::count(source.redescribed, "unchanged file", "unchanged files");
            eprintln!("{}: {files} without a description sent to the LLM again", source.name);
        }
        eprintln!("{}: {}", source.name, source.scan.summary());
        if source.deleted > 0 {
            let files = vibe_common::text::units::count(source.deleted as usize, "file", "files");
            eprintln!("{}: removed {files} no longer on disk", source.name);
        }
    }
    for (path, message) in &report.errors() {
        eprintln!("error: {path}: {message}");
    }
    for (refusal, files) in report.refusals() {
        eprintln!("error: {files} files were not written. {refusal}");
    }
    println!("{}", report.summary());
}
