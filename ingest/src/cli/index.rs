//! `vibe-analyzer scan index`: the full cycle into OpenSearch.

use vibe_common::search::Search;

use super::{Ctx, PartialFailure, ScanIndexArgs, ScanPruneArgs};
use crate::indexer::{self, IndexOptions};

/// The options every indexing run of this config shares (`scan index`,
/// `scan watch`): the enrichment, and this config's id as the owner.
pub fn options(ctx: &Ctx, no_llm: bool) -> anyhow::Result<IndexOptions> {
    let identity = ctx.identity()?;
    Ok(IndexOptions {
        enrich: super::enrich::for_index(ctx, no_llm)?,
        site: Some(identity.site()),
        owner: identity.id,
        ..Default::default()
    })
}

pub fn run(ctx: &Ctx, args: ScanIndexArgs) -> anyhow::Result<()> {
    // A dry run lists what would be removed; with no sources, the run only
    // removes what this config wrote (and says so first).
    let prune_only = args.target.is_none() && ctx.config.sources.is_empty();
    if args.dry_run || prune_only {
        return super::prune::run(ctx, ScanPruneArgs { dry_run: args.dry_run, project: Vec::new() });
    }
    let targets = ctx.targets(args.target.as_deref())?;
    let search = Search::new(&ctx.config.opensearch)?;
    let opts = IndexOptions { force: args.force, progress: true, ..options(ctx, args.no_llm)? };
    let runtime = tokio::runtime::Runtime::new()?;
    let report = runtime.block_on(indexer::run(&search, &targets, &ctx.config.sources, &opts))?;
    for action in &report.templates {
        tracing::info!("{action}");
        if !matches!(action.action, vibe_common::templates::Action::UpToDate) {
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
        eprintln!("{}: {}", source.name, source.scan.summary());
        if source.deleted > 0 {
            eprintln!("{}: removed {} files no longer on disk", source.name, source.deleted);
        }
    }
    let errors = report.errors();
    for (path, message) in &errors {
        eprintln!("error: {path}: {message}");
    }
    println!("{}", report.summary());
    let total: u64 = report.sources.iter().map(|s| s.scan.files_seen).sum();
    PartialFailure::check(errors.len(), total as usize)
}
