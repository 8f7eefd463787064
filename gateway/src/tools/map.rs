//! `show_tree` with `symbols: true`: a map of what matters in a project or a
//! directory of it. The types and top-level functions defined there, ranked
//! by how many other files use them, grouped by file, each with its
//! one-line signature. A file uses a definition when its references name it
//! and it can reach the definition: it lives in the same directory, or its
//! imports name the defining module (`from .events import`, `import
//! fileinput`) or package (`import com.google.common.base.*`, `"net/http"`).
//! So `x.close()` in a file that never imports `fileinput` is no use of
//! `fileinput.close`, and `re.match` counts fully although many methods are
//! called `match`. Four searches of the stored template `show_tree` (its
//! `map` section): the names defined under the path; the files that name
//! them (a first ranking, which picks the candidates); the candidates'
//! definitions; and the files that use each candidate (a `filters`
//! aggregation, one filter per definition).

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::answers::{FileResult, MapDefinition, MapMatches, NoMore, TreeAnswer, TypeLink};
use crate::budget::{escaped_len, RESERVE};
use crate::gateway::Gateway;
use crate::search_hits::Response;
use crate::template_params::TemplateParams;
use crate::tool_error::ToolError;

/// Names defined under the path that are ranked; past this many, the
/// scope's most used names are ranked instead.
const CANDIDATES: usize = 5000;
/// Used names read back by the first ranking.
const USED_NAMES: usize = 300;
/// Names of the first ranking whose definitions are counted exactly: the
/// best by files shared among a name's definitions, and the best by files
/// alone (a name many methods share, `match`, ranks low in the first).
const POOL: usize = 100;
/// Definitions shown.
const SHOWN: usize = 30;

/// One definition on the way to the map: its file, what it shows, and the
/// files that use it.
struct Entry {
    name: String,
    path: String,
    file: FileResult<NoMore>,
    shown: TypeLink,
    first: f64,
    /// Files that use it, shared among the scope's definitions of its name
    /// (types and top-level functions): 122 `StreamReader` classes, each
    /// in its own codec module of one directory, share the files of that
    /// directory.
    used_in: f64,
}

/// The params of one of the map's four searches: the section of the stored
/// template `show_tree` (`map.defined`, `map.uses`, `map.definitions`,
/// `map.reach`), the directory, and the section's own.
#[derive(Serialize)]
struct MapSearch<'a> {
    map: BTreeMap<&'static str, bool>,
    prefix: Option<&'a str>,
    #[serde(flatten)]
    params: MapParams<'a>,
}

impl TemplateParams for MapSearch<'_> {}

/// A section's own params (each section reads some of them).
#[derive(Serialize, Default)]
struct MapParams<'a> {
    #[serde(skip_serializing_if = "is_zero")]
    size: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    names: Vec<&'a String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    all_names: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    names_size: Option<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    candidates: Vec<ReachCandidate<'a>>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One definition whose users `map.reach` counts: files whose references
/// name it and that share its directory or import its module or package.
#[derive(Serialize)]
struct ReachCandidate<'a> {
    key: String,
    name: &'a str,
    path: &'a str,
    same_dir: String,
    module: Option<&'a str>,
    package: Option<String>,
}

/// The ranked map of the definitions under `dir` (`""`: the whole scope).
pub async fn map(gw: &Gateway, index: &str, target: Option<String>, dir: &str) -> Result<TreeAnswer, ToolError> {
    let prefix = (!dir.is_empty()).then(|| format!("{dir}/"));
    let run = |section: &'static str, params| {
        let map = BTreeMap::from([(section, true)]);
        gw.backend().run("show_tree", index, MapSearch { map, prefix: prefix.as_deref(), params })
    };
    let defined = run("defined", MapParams { size: CANDIDATES + 1, ..MapParams::default() }).await?;
    let definitions = counts(&defined, "symbols/kept/names");
    let all_names = definitions.len() > CANDIDATES;
    let names: Vec<&String> = if all_names { Vec::new() } else { definitions.keys().collect() };
    let uses_params =
        MapParams { size: USED_NAMES, names_size: Some(names.len().max(1)), all_names, names, ..MapParams::default() };
    let uses = run("uses", uses_params).await?;
    let first = first_ranking(&uses, &definitions, all_names);
    let pool: Vec<&String> = first.keys().collect();
    let (mut entries, copies) = if pool.is_empty() {
        (Vec::new(), HashMap::new())
    } else {
        let found = run("definitions", MapParams { size: 300, names: pool, ..MapParams::default() }).await?;
        (entries(&found, &first), counts(&found, "everywhere/symbols/kept/names"))
    };
    if !entries.is_empty() {
        let counted = run("reach", MapParams { candidates: reach_params(&entries), ..MapParams::default() }).await?;
        let reach = counts(&counted, "reach");
        for (i, e) in entries.iter_mut().enumerate() {
            let files = reach.get(&i.to_string()).copied().unwrap_or(0);
            e.used_in = files as f64 / copies.get(&e.name).copied().unwrap_or(1).max(1) as f64;
        }
    }
    entries.retain(|e| e.used_in >= 0.5);
    entries.sort_by(|a, b| b.used_in.total_cmp(&a.used_in).then(b.first.total_cmp(&a.first)).then(a.name.cmp(&b.name)));
    entries.truncate(SHOWN);
    let mut results = grouped(entries);
    let dropped = fit(gw, &mut results);
    Ok(answer(target, dir, results, dropped))
}

/// A terms aggregation's buckets (at `path` in the aggregations) as key ->
/// document count.
fn counts(r: &Response, path: &str) -> HashMap<String, u64> {
    r.buckets(path).into_iter().map(|b| (b.key, b.doc_count)).collect()
}

/// The candidates of the first ranking, by name, with their score there:
/// files that name them, shared among all definitions of the name in the
/// scope (methods too). The [`POOL`] best by that share and the [`POOL`]
/// best by files alone.
fn first_ranking(uses: &Response, definitions: &HashMap<String, u64>, all_names: bool) -> HashMap<String, f64> {
    let everywhere = counts(uses, "symbols/named/names");
    let mut ranked: Vec<(String, u64, f64)> = uses
        .buckets("references/named/names")
        .into_iter()
        .filter_map(|b| {
            let name = b.key;
            let files = b.files.map_or(0, |f| f.doc_count);
            let here = definitions.get(&name).copied().or(all_names.then_some(1))?;
            let defs = everywhere.get(&name).copied().unwrap_or(here);
            Some((name, files, files as f64 / defs.max(1) as f64))
        })
        .collect();
    let mut pool: HashMap<String, f64> = HashMap::new();
    ranked.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
    pool.extend(ranked.iter().take(POOL).map(|(n, _, s)| (n.clone(), *s)));
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    pool.extend(ranked.iter().take(POOL).map(|(n, _, s)| (n.clone(), *s)));
    pool
}

/// Each candidate definition found under the path: its file and what a map
/// shows of it (no code or doc).
fn entries(found: &Response, first: &HashMap<String, f64>) -> Vec<Entry> {
    let mut out = Vec::new();
    for hit in found.hits() {
        let file = super::stale_marks::file_result(&super::answer::indexed_file(hit), NoMore {});
        for inner in hit.inner("symbols") {
            let Some(shown) = super::answer::shown(inner).as_ref().map(TypeLink::from) else {
                continue;
            };
            let Some(&score) = first.get(&shown.head.name) else { continue };
            let (name, path) = (shown.head.name.clone(), file.path.clone());
            out.push(Entry { name, path, file: file.clone(), shown, first: score, used_in: 0.0 });
        }
    }
    out
}

/// The `reach` section's filter of each entry: the files other than its own
/// whose references name it and that share its directory or import its
/// module (the file's stem, or its directory's for `__init__`, `index`,
/// `mod`) or its package (the last two directories of its path).
fn reach_params(entries: &[Entry]) -> Vec<ReachCandidate<'_>> {
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let (dir, file) = e.path.rsplit_once('/').unwrap_or(("", e.path.as_str()));
            let stem = file.split('.').next().unwrap_or(file);
            let dirs: Vec<&str> = dir.split('/').filter(|d| !d.is_empty()).collect();
            let module = match stem {
                "__init__" | "index" | "mod" | "lib" => dirs.last().copied().unwrap_or(""),
                _ => stem,
            };
            let package = dirs[dirs.len().saturating_sub(2)..].join(" ");
            let same_dir = if dir.is_empty() { "[^/]*".to_string() } else { format!("{}/[^/]*", regexp_literal(dir)) };
            ReachCandidate {
                key: i.to_string(),
                name: &e.name,
                path: &e.path,
                same_dir,
                module: (!module.is_empty()).then_some(module),
                package: (!package.is_empty()).then(|| package.clone()),
            }
        })
        .collect()
}

/// `text` as a Lucene regular expression that matches only itself.
fn regexp_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        if !(c.is_alphanumeric() || c == '_' || c == '/') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The answer, with a note that says what `used_in` counts and what was left out.
fn answer(target: Option<String>, dir: &str, results: Vec<FileResult<MapMatches>>, dropped: usize) -> TreeAnswer {
    let shown: usize = results.iter().map(|r| r.found.matches.len()).sum();
    let mut note = if shown == 0 {
        format!(
            "no type or function defined under {} is used by another file",
            if dir.is_empty() { "the project" } else { dir }
        )
    } else {
        format!(
            "the {shown} types and functions used by the most files (used in N: other files that name it and share its directory or import its module or package, shared among the definitions of its name), most used first"
        )
    };
    if dropped > 0 {
        note.push_str(&format!("; {dropped} less used files left out to keep within the answer budget"));
    }
    TreeAnswer {
        target,
        path: (!dir.is_empty()).then(|| dir.to_string()),
        total: Some(results.len() as u64),
        results: Some(results),
        truncated: dropped > 0,
        note: Some(note),
        ..TreeAnswer::default()
    }
}

/// Leave out the last (least used) files until the map fits the answer
/// budget; how many were left out.
fn fit(gw: &Gateway, results: &mut Vec<FileResult<MapMatches>>) -> usize {
    let room = gw.answer_budget().saturating_sub(RESERVE + 300);
    let sizes: Vec<usize> =
        results.iter().map(|r| escaped_len(&serde_json::to_string(r).unwrap_or_default()) + 1).collect();
    let mut total: usize = sizes.iter().sum::<usize>() + 1;
    let mut dropped = 0;
    while results.len() > 1 && total > room {
        results.pop();
        total -= sizes[results.len()];
        dropped += 1;
    }
    dropped
}

/// The entries (already in rank order) grouped by file: files in the order
/// of their best-ranked definition, each file's definitions by rank.
fn grouped(entries: Vec<Entry>) -> Vec<FileResult<MapMatches>> {
    let mut files: Vec<FileResult<MapMatches>> = Vec::new();
    for Entry { path, file, shown, used_in, .. } in entries {
        let TypeLink { head, .. } = shown;
        let definition = MapDefinition { head, used_in: used_in.round() as u64 };
        match files.iter_mut().find(|f| f.path == path) {
            Some(f) => f.found.matches.push(definition),
            None => files.push(file.with(MapMatches { matches: vec![definition] })),
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::template_params::tests::unread_params;

    #[test]
    fn every_param_of_the_four_searches_is_read_by_show_tree() {
        let (name, path) = ("Parser".to_string(), "src/parse.py".to_string());
        let candidate = ReachCandidate {
            key: "0".into(),
            name: &name,
            path: &path,
            same_dir: "src/[^/]*".into(),
            module: Some("parse"),
            package: Some("src".into()),
        };
        let sections = [
            ("defined", MapParams { size: 10, ..MapParams::default() }),
            (
                "uses",
                MapParams {
                    size: 10,
                    names: vec![&name],
                    all_names: true,
                    names_size: Some(1),
                    ..MapParams::default()
                },
            ),
            ("definitions", MapParams { size: 10, names: vec![&name], ..MapParams::default() }),
            ("reach", MapParams { candidates: vec![candidate], ..MapParams::default() }),
        ];
        for (section, params) in sections {
            let search = MapSearch { map: BTreeMap::from([(section, true)]), prefix: Some("src/"), params };
            assert_eq!(unread_params("show_tree", &search), Vec::<String>::new(), "{section}");
        }
    }
}
