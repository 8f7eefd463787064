//! Where `scan index` gets its LLM enrichment from.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use vibe_common::config::OllamaHost;
use vibe_common::error_chain::chain;

use super::Ctx;
use vibe_ingest::analyzer::{block_on_sync, Analyzer, ClusterOptions, ClusterReport, FileInput};
use vibe_ingest::indexer::{EnrichFn, Enrichment, PROJECT_SUMMARY_KEY};

/// The enrichment hook for `scan index`: none when `--no-llm` is given or no
/// model host is configured. Otherwise every host is checked first (reachable,
/// model installed, warm-up); a host that fails stops the run with a message
/// that suggests `--no-llm`.
pub fn for_index(ctx: &Ctx, no_llm: bool) -> anyhow::Result<Option<EnrichFn>> {
    if no_llm || ctx.config.ollama.is_empty() {
        return Ok(None);
    }
    let hosts = ctx.config.ollama.clone();
    check_hosts(&hosts).map_err(|e| {
        anyhow::anyhow!(
            "{e:#}\nStart the host(s) or fix the \"ollama\" section of {}, or run with --no-llm to index without LLM enrichment",
            ctx.config_path.display()
        )
    })?;
    Ok(Some(index_hook(hosts, ClusterOptions::default())))
}

/// The health checks of every host (from synchronous code).
pub fn check_hosts(hosts: &[OllamaHost]) -> anyhow::Result<()> {
    let analyzer = Analyzer::new(hosts)?;
    block_on_sync(analyzer.check())?;
    Ok(())
}

/// The hook itself, without health checks. It may run inside the indexer's
/// tokio runtime; with no files it answers the project summary under
/// [`PROJECT_SUMMARY_KEY`]. Totals over the run are printed to stderr when
/// the hook is dropped.
pub fn index_hook(hosts: Vec<OllamaHost>, options: ClusterOptions) -> EnrichFn {
    let totals = Arc::new(Totals::default());
    Arc::new(move |info, files| {
        // The HTTP clients belong to the runtime they run on: one analyzer per call.
        let analyzer = Analyzer::new(&hosts)?.with_options(options.clone());
        if files.is_empty() {
            let Some(readme) = &info.readme else {
                return Ok(HashMap::new());
            };
            return match block_on_sync(analyzer.summarize(&info.name, &readme.content)) {
                Ok(summary) => {
                    let entry = Enrichment { description: summary, tags: Vec::new() };
                    Ok(HashMap::from([(PROJECT_SUMMARY_KEY.to_string(), entry)]))
                }
                Err(e) => {
                    // The README's own first paragraph stays the summary.
                    eprintln!("{}: no LLM project summary, the README's is kept ({})", info.name, chain(&e));
                    Ok(HashMap::new())
                }
            };
        }
        let inputs: Vec<FileInput> = files.iter().filter_map(|f| FileInput::from_scanned(f)).collect();
        let result = block_on_sync(analyzer.enrich(&info.name, inputs));
        let mut report = totals.report.lock().unwrap_or_else(|p| p.into_inner());
        match result {
            Ok((map, r)) => {
                report.merge(&r);
                Ok(map)
            }
            Err(e) => {
                if let Some(r) = e.report() {
                    report.merge(r);
                }
                Err(e).with_context(|| format!("LLM enrichment of {}", info.name))
            }
        }
    })
}

/// Per-host counts over a whole `scan index` run.
#[derive(Default)]
struct Totals {
    report: Mutex<ClusterReport>,
}

impl Drop for Totals {
    fn drop(&mut self) {
        let report = self.report.get_mut().unwrap_or_else(|p| p.into_inner());
        if report.files > 0 {
            eprintln!("{report}");
        }
    }
}
