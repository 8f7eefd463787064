//! `vibe-analyzer scan watch`, and the watcher of `serve start --watch`.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use vibe_common::backend::search::Search;
use vibe_common::config::Config;

use super::{Ctx, ScanWatchArgs};
use vibe_ingest::watch::{self, WatchOptions};

pub fn run(ctx: &Ctx, args: ScanWatchArgs) -> anyhow::Result<()> {
    let opts = options(ctx, args.target.as_deref(), args.no_llm, "scan watch")?;
    let search = Search::new(&ctx.config.opensearch)?;
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(watch::run(&search, opts, vibe_common::signal::shutdown_signal(), |line| {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{line}");
        let _ = stdout.flush();
    }))?;
    eprintln!("watch: stopped");
    Ok(())
}

/// What `scan watch` (and `serve start --watch`) watch and how they index:
/// as `scan index` does (LLM enrichment when configured, unless `no_llm`),
/// under each project's run lock as `command`.
pub fn options(ctx: &Ctx, target: Option<&str>, no_llm: bool, command: &str) -> anyhow::Result<WatchOptions> {
    let targets = ctx.targets(target)?;
    let mut index = super::index::options(ctx, no_llm, command)?;
    // A batch that meets another run is retried; its line says so.
    index.notice = None;
    // The config may change while watching (`source add` in another shell):
    // read its sources again before every batch.
    let (dir, fallback) = (ctx.config_dir.clone(), ctx.config.sources.clone());
    let configured = Arc::new(move || -> Vec<PathBuf> {
        match Config::load_or_create(Some(&dir)) {
            Ok((config, _)) => config.sources,
            Err(_) => fallback.clone(),
        }
    });
    Ok(WatchOptions { targets, configured, index, debounce: watch::DEBOUNCE })
}
