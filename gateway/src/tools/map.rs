//! `show_tree` with `symbols: true`: a map of what matters in a project or a
//! directory of it. The types and top-level functions defined there, ranked
//! by how many files use them (distinct files whose references name them,
//! in the whole scope, shared among all definitions of that name, methods
//! and fields too), grouped
//! by file, each with its one-line signature. Three searches of the stored
//! template `show_tree` (its `map` section): the names defined under the
//! path, the files that use them, the definitions of the best.

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use super::answer::hits;
use crate::budget::{escaped_len, RESERVE};
use crate::error::ToolError;
use crate::gateway::Gateway;

/// Names defined under the path that are ranked; past this many, the
/// scope's most used names are ranked instead.
const CANDIDATES: usize = 5000;
/// Used names read back, and definitions shown.
const USED_NAMES: usize = 300;
const SHOWN: usize = 30;

/// The ranked map of the definitions under `dir` (`""`: the whole scope).
pub async fn map(gw: &Gateway, index: &str, target: Option<String>, dir: &str) -> Result<Value, ToolError> {
    let prefix = (!dir.is_empty()).then(|| format!("{dir}/"));
    let run = |section: &str, extra: Value| {
        let mut p = json!({ "map": { section: true }, "prefix": prefix });
        if let (Value::Object(p), Value::Object(extra)) = (&mut p, extra) {
            p.extend(extra);
        }
        gw.backend().run("show_tree", index, p)
    };
    let defined = run("defined", json!({ "size": CANDIDATES + 1 })).await?;
    let buckets = |r: &Value, path: &str| r.pointer(path).and_then(Value::as_array).cloned().unwrap_or_default();
    let defined_names = buckets(&defined, "/aggregations/symbols/kept/names/buckets");
    let definitions: HashMap<String, u64> = defined_names
        .iter()
        .filter_map(|b| Some((b["key"].as_str()?.to_string(), b["doc_count"].as_u64().unwrap_or(1))))
        .collect();
    let all_names = definitions.len() > CANDIDATES;
    let names: Vec<&String> = if all_names { Vec::new() } else { definitions.keys().collect() };
    let uses = run(
        "uses",
        json!({ "size": USED_NAMES, "names": names, "all_names": all_names, "names_size": names.len().max(1) }),
    )
    .await?;
    // A name defined in several places (methods too: `close`) shares its uses among them.
    let everywhere: HashMap<String, u64> = buckets(&uses, "/aggregations/symbols/named/names/buckets")
        .iter()
        .filter_map(|b| Some((b["key"].as_str()?.to_string(), b["doc_count"].as_u64()?)))
        .collect();
    let mut ranked: Vec<(String, u64, f64)> = buckets(&uses, "/aggregations/references/named/names/buckets")
        .iter()
        .filter_map(|b| {
            let name = b["key"].as_str()?.to_string();
            let files = b["files"]["doc_count"].as_u64().unwrap_or(0);
            let here = definitions.get(&name).copied().or(all_names.then_some(1))?;
            let defs = everywhere.get(&name).copied().unwrap_or(here);
            let share = files as f64 / defs.max(1) as f64;
            Some((name, share.round() as u64, share))
        })
        .collect();
    ranked.sort_by(|a, b| b.2.total_cmp(&a.2).then(b.1.cmp(&a.1)).then(a.0.cmp(&b.0)));
    ranked.truncate(SHOWN);
    let top: Vec<&String> = ranked.iter().map(|(n, _, _)| n).collect();
    let found =
        if top.is_empty() { json!({}) } else { run("definitions", json!({ "size": 100, "names": top })).await? };
    let rank: HashMap<&str, (usize, u64)> =
        ranked.iter().enumerate().map(|(i, (n, files, _))| (n.as_str(), (i, *files))).collect();
    let mut results = grouped(&found, &rank);
    let dropped = fit(gw, &mut results);
    let shown: usize = results.iter().map(|r| r["matches"].as_array().map_or(0, Vec::len)).sum();
    let mut answer = json!({ "target": target, "total": results.len(), "truncated": false, "results": results });
    if !dir.is_empty() {
        answer["path"] = json!(dir);
    }
    answer["note"] = json!(if shown == 0 {
        format!(
            "no type or function defined under {} is used by another file",
            if dir.is_empty() { "the project" } else { dir }
        )
    } else {
        format!(
            "the {shown} types and functions used by the most files (used in N: files whose code names it, shared among the definitions of a name), most used first"
        )
    });
    if dropped > 0 {
        answer["truncated"] = json!(true);
        answer["note"] = json!(format!(
            "{}; {dropped} less used files left out to keep within the answer budget",
            answer["note"].as_str().unwrap_or_default()
        ));
    }
    Ok(answer)
}

/// Leave out the last (least used) files until the map fits the answer
/// budget; how many were left out.
fn fit(gw: &Gateway, results: &mut Vec<Value>) -> usize {
    let room = gw.answer_budget().saturating_sub(RESERVE + 300);
    let mut dropped = 0;
    while results.len() > 1 && escaped_len(&Value::Array(results.clone()).to_string()) > room {
        results.pop();
        dropped += 1;
    }
    dropped
}

/// A file's definitions on the map, each with its place in the ranking.
struct FileGroup {
    best: usize,
    file: Map<String, Value>,
    entries: Vec<(usize, Value)>,
}

/// The definitions found, grouped by file: files in the order of their
/// best-ranked definition, each file's definitions by rank.
fn grouped(found: &Value, rank: &HashMap<&str, (usize, u64)>) -> Vec<Value> {
    let mut files: Vec<FileGroup> = Vec::new();
    for hit in hits(found) {
        let mut entries: Vec<(usize, Value)> = Vec::new();
        for inner in hit["inner_hits"]["symbols"]["hits"]["hits"].as_array().into_iter().flatten() {
            let Some(Value::Object(mut e)) =
                inner["fields"]["symbols.show"][0].as_str().and_then(|s| serde_json::from_str::<Value>(s).ok())
            else {
                continue;
            };
            let Some(&(place, used_in)) = e.get("name").and_then(Value::as_str).and_then(|n| rank.get(n)) else {
                continue;
            };
            for key in ["code", "code_skip", "doc"] {
                e.remove(key);
            }
            e.insert("used_in".into(), json!(used_in));
            entries.push((place, Value::Object(e)));
        }
        if let Some(best) = entries.iter().map(|(p, _)| *p).min() {
            entries.sort_by_key(|(p, _)| *p);
            files.push(FileGroup { best, file: super::freshness::file_header(&super::answer::source(&hit)), entries });
        }
    }
    files.sort_by_key(|g| g.best);
    files
        .into_iter()
        .map(|FileGroup { mut file, entries, .. }| {
            file.insert("matches".into(), Value::Array(entries.into_iter().map(|(_, e)| e).collect()));
            Value::Object(file)
        })
        .collect()
}
