//! The tools: their definitions (name, description, input schema, hints) and
//! the dispatch of a normalized call to the code that runs it.

pub mod code;
pub mod docs;
pub mod files;
pub mod show;

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{json, Value};

use crate::backend::BackendError;
use crate::gateway::Gateway;
use crate::normalize::Args;
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
    /// A tool name that did not resolve (the message lists the tools).
    #[error("unknown tool {0:?}")]
    UnknownTool(String),
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
    match tool {
        "admin_sync" => admin_sync(gw).await,
        "get_file_content" => files::get(gw, files::Want::Content, args).await,
        "get_file_ast" => files::get(gw, files::Want::Ast, args).await,
        "show_projects" => show::projects(gw).await,
        "show_stats" => show::stats(gw, args).await,
        "show_tree" => show::tree(gw, args).await,
        "search_by_code_imports"
        | "search_by_code_functions"
        | "search_by_code_classes"
        | "search_by_code_variables" => code::search(gw, tool, args).await,
        "search_documentation" | "search_knowledge" => docs::search(gw, args).await,
        other => Err(ToolError::Invalid(format!("unknown tool {other:?}"))),
    }
}

async fn admin_sync(gw: &Gateway) -> Result<Value, ToolError> {
    match gw.start_sync().await {
        Ok(SyncStart::Started { .. }) => {
            Ok(json!({ "result": "Started", "message": "Indexing started. Projects are updating now." }))
        }
        Ok(SyncStart::AlreadyRunning { .. }) => {
            Ok(json!({ "result": "AlreadyRunning", "message": "Indexing is already running. Please wait." }))
        }
        Err(e) => Err(ToolError::Failed(format!("cannot start indexing: {e}"))),
    }
}

// ---------------------------------------------------------------------------
// Definitions
// ---------------------------------------------------------------------------

fn schema(properties: Value, required: &[&str]) -> Arc<JsonObject> {
    let mut s = json!({ "type": "object", "properties": properties });
    if !required.is_empty() {
        s["required"] = json!(required);
    }
    Arc::new(s.as_object().cloned().unwrap_or_default())
}

fn p_query(what: &str) -> Value {
    json!({ "type": "string", "description": what })
}

fn p_target() -> Value {
    json!({ "type": "string", "description": "Project name or path (optional; default: all projects)" })
}

fn p_limit() -> Value {
    json!({ "type": "integer", "description": "Number of results, 1-10 (default 3; use 10 for \"all\")", "default": 3, "minimum": 1, "maximum": 10 })
}

fn p_path() -> Value {
    json!({ "type": "string", "description": "File path relative to the project root, e.g. \"src/main.rs\" (a unique partial path is enough)" })
}

fn search_schema(what: &str) -> Arc<JsonObject> {
    schema(json!({ "query": p_query(what), "target": p_target(), "limit": p_limit() }), &["query"])
}

fn tool(name: &'static str, title: &str, description: &'static str, input: Arc<JsonObject>, read_only: bool) -> Tool {
    let annotations = if read_only {
        ToolAnnotations::with_title(title).read_only(true).destructive(false).idempotent(true).open_world(false)
    } else {
        ToolAnnotations::with_title(title).read_only(false).destructive(false).idempotent(true).open_world(false)
    };
    Tool::new(Cow::Borrowed(name), Cow::Borrowed(description), input).with_title(title).with_annotations(annotations)
}

/// Every tool, in listing order.
pub fn definitions() -> Vec<Tool> {
    let docs_description = "Search Markdown documentation and the knowledge base (legends, guidelines, rules, processes, characters). \
         The default tool for non-code questions: who is, what is, how does, rules, guides. Files marked `knowledge: true` rank first.";
    vec![
        tool(
            "admin_sync",
            "Re-index all projects",
            "Start an incremental re-index of all projects in the background. Call when the user says update, sync, reindex or refresh. No parameters.",
            schema(json!({}), &[]),
            false,
        ),
        tool(
            "get_file_content",
            "File content",
            "Return the contents of one file: {root, path, language, content}. Optional start_line/end_line return only those lines.",
            schema(
                json!({
                    "path": p_path(),
                    "target": p_target(),
                    "start_line": { "type": "integer", "description": "First line to return (1-based, optional)", "minimum": 1 },
                    "end_line": { "type": "integer", "description": "Last line to return (inclusive, optional)", "minimum": 1 },
                }),
                &["path"],
            ),
            true,
        ),
        tool(
            "get_file_ast",
            "File structure (AST)",
            "Return the AST of one file: imports, functions, classes, structs, enums, headings. Use for questions about a file's structure.",
            schema(json!({ "path": p_path(), "target": p_target() }), &["path"]),
            true,
        ),
        tool(
            "show_projects",
            "List projects",
            "List all indexed projects with their names and short descriptions. No parameters.",
            schema(json!({}), &[]),
            true,
        ),
        tool(
            "show_stats",
            "Project statistics",
            "Statistics of a project (or all): languages, files, lines of code, AST objects, size.",
            schema(json!({ "target": p_target() }), &[]),
            true,
        ),
        tool(
            "show_tree",
            "Project file tree",
            "The file and directory tree of a project (or of all projects).",
            schema(json!({ "target": p_target() }), &[]),
            true,
        ),
        tool(
            "search_by_code_imports",
            "Search imports",
            "Find imports and dependencies in code. For all imports use an empty query or \"*\".",
            search_schema("Module, package or library name; \"*\" lists all imports"),
            true,
        ),
        tool(
            "search_by_code_functions",
            "Search functions",
            "Find functions and methods in code by name or doc comment.",
            search_schema("Function or method name (or words of its doc comment)"),
            true,
        ),
        tool(
            "search_by_code_classes",
            "Search classes",
            "Find classes, structs, interfaces, traits and protocols by name or doc comment.",
            search_schema("Class, struct, interface or trait name"),
            true,
        ),
        tool(
            "search_by_code_variables",
            "Search variables",
            "Find variables, constants, static fields and enums by name or doc comment.",
            search_schema("Variable, constant or enum name"),
            true,
        ),
        tool("search_documentation", "Search documentation", docs_description, search_schema("The question or keywords, in any language"), true),
        tool(
            "search_knowledge",
            "Search knowledge base",
            "Alias of search_documentation (identical parameters and answer): the knowledge base, guidelines, standards, characters.",
            search_schema("The question or keywords, in any language"),
            true,
        ),
    ]
}

pub fn definition(name: &str) -> Option<Tool> {
    definitions().into_iter().find(|t| t.name == name)
}
