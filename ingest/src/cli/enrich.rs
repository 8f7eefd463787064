//! Where `scan index` gets its LLM enrichment from.

use super::Ctx;
use crate::indexer::EnrichFn;

/// The enrichment hook for `scan index`: none when `--no-llm` is given or no
/// Ollama host is configured.
pub fn for_index(ctx: &Ctx, no_llm: bool) -> anyhow::Result<Option<EnrichFn>> {
    if no_llm || ctx.config.ollama.is_empty() {
        return Ok(None);
    }
    anyhow::bail!(
        "{} Ollama host(s) are configured, but LLM enrichment is not available in this build yet; run with --no-llm",
        ctx.config.ollama.len()
    )
}

