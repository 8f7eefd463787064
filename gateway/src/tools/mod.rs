//! The dispatch of a normalized call to the code that runs it (the tools
//! themselves are declared in [`crate::registry`]).

pub mod code;
pub mod docs;
pub mod files;
pub mod references;
pub mod show;
pub mod text;

use serde_json::{json, Value};

use crate::backend::BackendError;
use crate::gateway::Gateway;
use crate::normalize::{Args, Resolution};
use crate::registry::{self, Run};
use crate::sync::SyncStart;
use crate::target::Scope;

/// Why a tool call failed; the message is what the client sees (`isError`).
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error(transparent)]
    Backend(#[from] BackendError),
    #[error("{0}")]
    Ambiguous(String),
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Failed(String),
    /// A tool name that did not resolve (the message lists the tools, or the
    /// two that fit equally well).
    #[error("unknown tool {0:?}")]
    UnknownTool(String, Resolution),
}

/// The index expression a scope searches (analysis documents).
pub fn scope_index(gw: &Gateway, scope: &Scope) -> String {
    let names = gw.backend().names();
    match scope.project() {
        Some(p) => names.analysis_alias(&p.hash),
        None => names.all_analysis(),
    }
}

/// The hits of a search response.
pub fn hits(response: &Value) -> Vec<Value> {
    response["hits"]["hits"].as_array().cloned().unwrap_or_default()
}

/// A search answer: the results of one page, how many there are in all
/// (`total`), and whether more follow (`truncated`, with the `next_offset`).
pub fn paged(query: &str, results: Vec<Value>, response: &Value, args: &Args) -> Value {
    let total = response["hits"]["total"]["value"].as_u64().unwrap_or(results.len() as u64);
    let end = args.offset as u64 + results.len() as u64;
    let mut answer = json!({ "query": query, "total": total, "truncated": total > end, "results": results });
    if total > end {
        answer["next_offset"] = json!(end);
    }
    answer
}

/// Runs a canonical tool with normalized arguments.
pub async fn call(gw: &Gateway, tool: &'static str, args: &Args) -> Result<Value, ToolError> {
    let Some(spec) = registry::spec(tool) else {
        return Err(ToolError::UnknownTool(tool.to_string(), Resolution::Unknown));
    };
    match spec.run {
        Run::AdminSync => admin_sync(gw).await,
        Run::FileContent => files::get(gw, files::Want::Content, args).await,
        Run::FileAst => files::get(gw, files::Want::Ast, args).await,
        Run::Projects => show::projects(gw).await,
        Run::Stats => show::stats(gw, args).await,
        Run::Tree => show::tree(gw, args).await,
        Run::Imports | Run::Symbols => code::search(gw, spec, args).await,
        Run::Documentation => docs::search(gw, args).await,
        Run::Text => text::search(gw, args).await,
        Run::References => references::find(gw, args).await,
    }
}

async fn admin_sync(gw: &Gateway) -> Result<Value, ToolError> {
    match gw.start_sync().await {
        Ok(SyncStart::Started { .. }) => {
            Ok(json!({ "result": "Started", "message": "Indexing started. Projects are updating now." }))
        }
        Ok(SyncStart::AlreadyRunning { since_secs, progress }) => {
            let mut answer = json!({
                "result": "AlreadyRunning",
                "message": format!("Indexing is already running (for {since_secs} s). Please wait; show_projects tells the outcome when it ends."),
                "running_secs": since_secs,
            });
            if let Some(p) = progress {
                answer["progress"] = json!(p);
            }
            Ok(answer)
        }
        Err(e) => Err(ToolError::Failed(format!("cannot start indexing: {e}"))),
    }
}

pub use crate::registry::{definition, definitions};
