//! What every search tool's answer is made of: the index a scope searches,
//! the hits of a response, and a page of results. Uses no tool.

use serde_json::{json, Value};

use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::target::Scope;

/// The index expression a scope searches (AST documents).
pub fn scope_index(gw: &Gateway, scope: &Scope) -> String {
    let names = gw.backend().names();
    match scope.project() {
        Some(p) => names.ast_alias(&p.hash),
        None => names.all_ast(),
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
