//! What every search tool's answer is made of: the index a scope searches,
//! the hits of a response, and a page of results. Uses no tool.

use serde_json::{json, Value};

use vibe_common::document::shown::Shown;

use crate::answers::{IndexedFile, Page};
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::search_hits::{Hit, Response};
use crate::target::Scope;

/// The index expression a scope searches (AST documents).
pub fn scope_index(gw: &Gateway, scope: &Scope) -> String {
    let names = gw.backend().names();
    match scope.project() {
        Some(p) => names.ast_alias(&p.hash),
        None => names.all_ast(),
    }
}

/// A search answer: the results of one page, how many there are in all
/// (`total`), and whether more follow (`truncated`, with the `next_offset`).
pub fn paged<R, X: Default>(query: &str, results: Vec<R>, response: &Response, args: &Args) -> Page<R, X> {
    let total = response.total().unwrap_or(results.len() as u64);
    let end = args.offset as u64 + results.len() as u64;
    Page {
        query: query.to_string(),
        total,
        truncated: total > end,
        next_offset: (total > end).then_some(end),
        note: None,
        results,
        more: X::default(),
    }
}

/// What a hit holds of its document: its `_source`, and the fields a
/// template reads from doc values instead (`fields`, a list each: the
/// first value; `indexed_at` as epoch milliseconds), by their last name
/// (`references.line` is `line`). The searches that answer many files read
/// doc values only and never load a file's `_source`.
pub fn source(hit: &Hit) -> Value {
    let mut out = match &hit.source {
        Value::Object(o) => o.clone(),
        _ => serde_json::Map::new(),
    };
    for (key, values) in &hit.fields {
        let Some(first) = values.get(0) else { continue };
        let name = key.rsplit('.').next().unwrap_or(key);
        let value = match (name, first) {
            ("indexed_at" | "size" | "mtime" | "line", Value::String(s)) => {
                s.parse::<u64>().map_or(first.clone(), |n| json!(n))
            }
            _ => first.clone(),
        };
        out.insert(name.to_string(), value);
    }
    Value::Object(out)
}

/// What the index recorded of a hit's file ([`source`]).
pub fn indexed_file(hit: &Hit) -> IndexedFile {
    IndexedFile::of(&source(hit))
}

/// Where a hit's `_source` (its `root`) or a result's (its `project`, the
/// root) file text is stored: the project's files alias and the path, the
/// document id. A `_source`'s `project` is the project's name: `root` first.
pub fn stored_at(gw: &Gateway, result: &Value) -> (String, String) {
    let root = result["root"].as_str().or(result["project"].as_str()).unwrap_or_default();
    stored_file(gw, root, result["path"].as_str().unwrap_or_default())
}

/// Where the text of the file `path` of the project at `root` is stored.
pub fn stored_file(gw: &Gateway, root: &str, path: &str) -> (String, String) {
    let index =
        gw.backend().names().files_alias(&vibe_common::backend::naming::project_hash(std::path::Path::new(root)));
    (index, path.to_string())
}

/// What an inner hit shows of its definition: `symbols.show`, read from
/// doc values ([`vibe_common::document::shown`]); `None` when it is
/// missing or unreadable.
pub(crate) fn shown(inner: &Hit) -> Option<Shown<'static>> {
    vibe_common::document::shown::read(inner.values("symbols.show").first()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hit_reads_its_source_and_its_doc_values_alike() {
        let hit: Hit = serde_json::from_value(json!({ "_source": { "path": "a.py" }, "fields": {
            "root": ["/p"], "indexed_at": ["1700000000000"], "references.line": [12], "size": [40] } }))
        .unwrap();
        assert_eq!(
            source(&hit),
            json!({ "path": "a.py", "root": "/p", "indexed_at": 1_700_000_000_000u64, "line": 12, "size": 40 })
        );
        let bare: Hit = serde_json::from_value(json!({ "_source": { "path": "b" } })).unwrap();
        assert_eq!(source(&bare), json!({ "path": "b" }));
    }
}
