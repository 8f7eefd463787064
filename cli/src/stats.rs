//! `vibe-analyzer stats info|tree`: read back from OpenSearch, never from disk.

use std::time::Instant;

use serde_json::{json, Value};
use vibe_common::backend::naming::project_hash;
use vibe_common::backend::projects::{self, Project};
use vibe_common::backend::search::Search;
use vibe_common::text::file_tree::render_tree;
use vibe_common::text::units::human_size;

use super::{Ctx, StatsCommand};
use vibe_common::document::project_meta::ProjectMeta;
use vibe_ingest::indexer::project_stats::project_stats;
use vibe_ingest::scanner::{SourceStats, OTHER_LANGUAGE};

const RULE_WIDTH: usize = 79;

pub fn run(ctx: &Ctx, cmd: StatsCommand) -> anyhow::Result<()> {
    let search = Search::new(&ctx.config.opensearch)?;
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        vibe_ingest::indexer::check_backend(&search).await?;
        match cmd {
            StatsCommand::Info(args) => match args.target {
                Some(t) => info(&search, &t, &ctx.command("scan index")).await,
                None => list_projects(&search, &ctx.command("scan index")).await,
            },
            StatsCommand::Tree(args) => tree(&search, &args.target, &ctx.command("scan index")).await,
        }
    })
}

/// The meta index's search response for every indexed project (empty when
/// nothing is indexed yet).
async fn meta_hits(search: &Search) -> anyhow::Result<Value> {
    let body = json!({ "size": 1000, "_source": ["root", "name", "hash", "summary", "stats.files", "stats.lines", "owners"], "sort": [{ "name": "asc" }] });
    Ok(search.post(&format!("/{}/_search?ignore_unavailable=true", search.names.meta()), &body).await?)
}

/// Resolve a target among indexed projects: a path on disk (the project it
/// was indexed from), else as [`projects::find`] reads names and paths. The
/// error lists the indexed projects.
/// The indexed project `target` names; `index`: the command that indexes.
async fn resolve(search: &Search, target: &str, index: &str) -> anyhow::Result<Project> {
    let all = projects::projects_of(&meta_hits(search).await?);
    let on_disk = std::path::Path::new(target).canonicalize().ok().map(|p| project_hash(&p));
    let found =
        all.iter().find(|p| on_disk.as_deref() == Some(p.hash.as_str())).or_else(|| projects::find(&all, target));
    if let Some(p) = found {
        return Ok(p.clone());
    }
    if all.is_empty() {
        anyhow::bail!("unknown project {target:?}: nothing is indexed yet (run: {index})")
    }
    let known: Vec<String> = all.iter().map(|p| format!("  {} ({})", p.name, p.root)).collect();
    anyhow::bail!("unknown or ambiguous project {target:?}. Indexed projects:\n{}", known.join("\n"))
}

async fn list_projects(search: &Search, index: &str) -> anyhow::Result<()> {
    let start = Instant::now();
    let hits = meta_hits(search).await?;
    let all: Vec<ProjectMeta> = hits["hits"]["hits"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|h| ProjectMeta::from_source(&h["_source"]))
        .collect();
    if all.is_empty() {
        println!("No indexed projects. Add a source and run: {index}");
        return Ok(());
    }
    println!("Indexed projects:");
    for p in &all {
        println!("- {} ({}): {} files, {} lines", p.name, p.root, p.stats.files, p.stats.lines);
        if let Some(s) = p.summary() {
            println!("  {s}");
        }
        if let Some(owners) = owners_line(p) {
            println!("  {owners}");
        }
    }
    println!("Stats generated in {:.1}s", start.elapsed().as_secs_f64());
    Ok(())
}

async fn info(search: &Search, target: &str, index: &str) -> anyhow::Result<()> {
    let start = Instant::now();
    let project = resolve(search, target, index).await?;
    let stats = project_stats(search, &search.names.ast_alias(&project.hash)).await?;
    print!("{}", stats_table(&stats));
    let meta = search.get_opt(&format!("/{}/_doc/{}", search.names.meta(), project.hash)).await?;
    let meta = meta.map(|m| ProjectMeta::from_source(&m["_source"]));
    if let Some(owners) = meta.as_ref().and_then(owners_line) {
        println!("{owners}");
    }
    println!("Stats generated in {:.1}s", start.elapsed().as_secs_f64());
    Ok(())
}

/// `Indexed by: <config id>, ...` (the `id` of each config that indexes
/// the project), when recorded.
fn owners_line(meta: &ProjectMeta) -> Option<String> {
    (!meta.owners.is_empty()).then(|| format!("Indexed by: {}", meta.owners.join(", ")))
}

/// The `stats info` table: languages by lines, then Other, then Total.
pub fn stats_table(stats: &SourceStats) -> String {
    let rule = "━".repeat(RULE_WIDTH);
    let row = |name: &str, files: u64, lines: u64, ast: Option<u64>, size: u64| {
        let ast = ast.map(|a| a.to_string()).unwrap_or_default();
        format!("{name:<20}{files:>11}{lines:>16}{ast:>16}{:>16}\n", human_size(size))
    };
    let mut out = format!(
        "{rule}\n{:<20}{:>11}{:>16}{:>16}{:>16}\n{rule}\n",
        "Language", "Files", "Lines", "AST Objects", "Size"
    );
    for l in stats.languages.iter().filter(|l| l.language != OTHER_LANGUAGE) {
        out += &row(&l.language, l.files, l.lines, Some(l.ast_objects), l.size);
    }
    if let Some(other) = stats.languages.iter().find(|l| l.language == OTHER_LANGUAGE) {
        out += &format!("{rule}\n");
        out += &row(OTHER_LANGUAGE, other.files, other.lines, None, other.size);
    }
    out += &format!("{rule}\n");
    out += &row("Total", stats.files, stats.lines, Some(stats.ast_objects), stats.total_size);
    out += &format!("{rule}\n");
    out
}

async fn tree(search: &Search, target: &str, index: &str) -> anyhow::Result<()> {
    let start = Instant::now();
    let project = resolve(search, target, index).await?;
    let alias = search.names.ast_alias(&project.hash);
    let hits = vibe_ingest::indexer::store::scroll_all(
        search,
        &alias,
        vibe_ingest::indexer::store::Missing::IsAnError,
        json!({ "_source": false }),
    )
    .await?;
    let paths: Vec<String> = hits.iter().filter_map(|h| h["_id"].as_str().map(str::to_string)).collect();
    let tree = render_tree(&project.name, paths.iter().map(String::as_str));
    print!("{}", tree.text);
    println!("\n{} directories, {} files", tree.dirs, tree.files);
    println!("Found {} directories, {} files in {:.1}s", tree.dirs, tree.files, start.elapsed().as_secs_f64());
    Ok(())
}
