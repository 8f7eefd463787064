//! `vibe-analyzer scan prune` (and `scan index --dry-run`, and `scan index`
//! with no sources): remove the projects this config's owner identity wrote
//! and no longer lists, after saying how many and which.

use std::path::PathBuf;

use vibe_common::backend::naming::project_hash;
use vibe_common::backend::search::Search;
use vibe_common::config::Identity;

use vibe_common::text::units::count;

use super::{Ctx, ScanPruneArgs};
use vibe_ingest::indexer::check_backend;
use vibe_ingest::indexer::cleanup::{self, Me, Plan};

pub fn run(ctx: &Ctx, args: ScanPruneArgs) -> anyhow::Result<()> {
    let identity = ctx.identity()?;
    let search = Search::new(&ctx.config.opensearch)?;
    let overrides: Vec<PathBuf> = args.project.iter().map(|p| p.canonicalize().unwrap_or_else(|_| p.clone())).collect();
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        check_backend(&search).await?;
        let site = identity.site();
        let me = Me { id: &identity.id, site: Some(&site), override_sites: &overrides };
        let plan = cleanup::plan(&search, &ctx.config.sources, &me).await?;
        check_overrides(ctx, &plan, &overrides)?;
        print_plan(ctx, &identity, &plan, args.dry_run);
        if !args.dry_run && !plan.is_empty() {
            cleanup::apply(&search, &plan).await?;
            println!(
                "Removed {}, released {}, removed {}",
                count(plan.remove.len(), "project", "projects"),
                plan.release.len(),
                count(plan.indices.len(), "leftover index", "leftover indices")
            );
        }
        Ok(())
    })
}

/// Every `--project` must be a project this identity owns and no longer lists.
fn check_overrides(ctx: &Ctx, plan: &Plan, overrides: &[PathBuf]) -> anyhow::Result<()> {
    for root in overrides {
        let hash = project_hash(root);
        if ctx.config.sources.iter().any(|s| project_hash(&s.canonicalize().unwrap_or_else(|_| s.clone())) == hash) {
            anyhow::bail!(
                "{} is a source of this config; remove it first with: {}",
                root.display(),
                ctx.command(&format!("source remove --target {}", root.display()))
            );
        }
        let planned = plan.remove.iter().chain(plan.release.iter().map(|(p, _, _)| p)).any(|p| p.hash == hash);
        if !planned {
            anyhow::bail!("{}: not an indexed project owned by this config's owner identity", root.display());
        }
    }
    Ok(())
}

/// What the cleanup removes (or would remove), releases and keeps.
pub fn print_plan(ctx: &Ctx, identity: &Identity, plan: &Plan, dry_run: bool) {
    let (remove, release) = if dry_run { ("Would remove", "Would release") } else { ("Removing", "Releasing") };
    println!("Owner identity: {} ({})", identity.id, identity.site());
    if ctx.config.sources.is_empty() {
        println!("This config lists no sources.");
    }
    if !plan.remove.is_empty() {
        println!(
            "{remove} {} this identity wrote and no longer lists:",
            count(plan.remove.len(), "project", "projects")
        );
        plan.remove.iter().for_each(|p| println!("  {}", p.root));
    }
    if !plan.release.is_empty() {
        let n = count(plan.release.len(), "project", "projects");
        println!("{release} {n} no longer listed here, kept for the other configs that index it:");
        plan.release
            .iter()
            .for_each(|(p, owners, _)| println!("  {} (still indexed by {})", p.root, owners.join(", ")));
    }
    if !plan.indices.is_empty() {
        println!(
            "{remove} {} of no project (left by a run that died):",
            count(plan.indices.len(), "leftover index", "leftover indices")
        );
        plan.indices.iter().for_each(|i| println!("  {i}"));
    }
    for refused in &plan.refused {
        println!("Kept {}: {}", refused.root, refused.reason);
    }
    if plan.is_empty() {
        println!("No project to remove.");
    }
}
