//! The four code searches: imports, functions, classes (+ structs and
//! interfaces), variables (+ enums). Each file in the answer carries only its
//! matching elements (the nested `inner_hits` of the stored template).

use serde_json::{json, Map, Value};

use super::{scope_index, ToolError};
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::params;

/// The element lists a code search reports, per tool.
pub fn kinds(tool: &str) -> &'static [&'static str] {
    match tool {
        "search_by_code_functions" => &["functions"],
        "search_by_code_classes" => &["classes", "structs", "interfaces"],
        "search_by_code_variables" => &["variables", "enums"],
        "search_by_code_imports" => &["imports"],
        _ => &[],
    }
}

pub async fn search(gw: &Gateway, tool: &'static str, args: &Args) -> Result<Value, ToolError> {
    let scope = gw.resolve(args.target.as_deref()).await?;
    let index = scope_index(gw, &scope);
    let p = params::code(tool, &args.query, args.limit);
    let all = p["all"].as_bool().unwrap_or(false);
    let response = gw.backend().run(tool, &index, p).await?;
    let results: Vec<Value> = hits(&response)
        .iter()
        .map(|hit| {
            let mut out = file_header(hit);
            if tool == "search_by_code_imports" {
                out.insert("imports".into(), json!(matching_imports(hit, all)));
            } else {
                for kind in kinds(tool) {
                    out.insert((*kind).into(), json!(elements(hit, kind)));
                }
            }
            Value::Object(out)
        })
        .collect();
    let mut answer = json!({ "query": args.query, "results": results });
    if let Some(note) = scope.note() {
        answer["note"] = json!(note);
    }
    Ok(answer)
}

pub fn hits(response: &Value) -> Vec<Value> {
    response["hits"]["hits"].as_array().cloned().unwrap_or_default()
}

fn file_header(hit: &Value) -> Map<String, Value> {
    let s = &hit["_source"];
    let mut out = Map::new();
    out.insert("project".into(), s["root"].clone());
    out.insert("path".into(), s["path"].clone());
    out.insert("language".into(), s["language"].clone());
    out.insert("header_comments".into(), array_or_empty(&s["ast"]["header_comments"]));
    out
}

fn array_or_empty(v: &Value) -> Value {
    if v.is_array() {
        v.clone()
    } else {
        json!([])
    }
}

/// Relative score below which an inner hit is fuzzy noise next to the best one.
const INNER_SCORE_CUTOFF: f64 = 0.3;

/// The matching elements of one kind: `{signature, comments, owner?, line?}`.
fn elements(hit: &Value, kind: &str) -> Vec<Value> {
    let inner = hit["inner_hits"][kind]["hits"]["hits"].as_array().cloned().unwrap_or_default();
    let best = inner.iter().filter_map(|h| h["_score"].as_f64()).fold(0.0_f64, f64::max);
    inner
        .iter()
        .filter(|h| match h["_score"].as_f64() {
            Some(score) if best > 0.0 => score >= best * INNER_SCORE_CUTOFF,
            _ => true,
        })
        .map(|h| {
            let s = &h["_source"];
            let mut e = Map::new();
            e.insert("signature".into(), s["signature"].clone());
            e.insert("comments".into(), array_or_empty(&s["comments"]));
            for extra in ["owner", "line"] {
                if !s[extra].is_null() {
                    e.insert(extra.into(), s[extra].clone());
                }
            }
            Value::Object(e)
        })
        .collect()
}

/// The imports that matched (highlighted values), or all of them when listing.
fn matching_imports(hit: &Value, all: bool) -> Vec<Value> {
    let source = hit["_source"]["ast"]["imports"].as_array().cloned().unwrap_or_default();
    if all {
        return source;
    }
    match hit["highlight"]["ast.imports"].as_array() {
        Some(h) if !h.is_empty() => h.clone(),
        _ => source,
    }
}
