//! The function a short best match hands its work to. Many a public
//! function or overload is one line that calls another in the same file
//! (`return new HashMap<>(capacity(expectedSize))`, `return
//! _getmembers(object, predicate, getattr)`): the line that answers a
//! question about it is in that callee. So when the best match's shown
//! definitions are short and call a function or method the same file
//! defines, the answer carries the first such callee too, right after the
//! match that calls it (`called_by` names its caller): whole when short,
//! else the lines a question's words point to, or its first and last lines
//! for a name.

use regex::Regex;
use serde_json::{json, Map, Value};
use std::sync::LazyLock;
use vibe_common::naming::project_hash;

use super::answer::stored_at;
use super::excerpt::{self, Show};
use crate::gateway::Gateway;

/// A definition of at most this many lines, shown whole, may delegate.
pub const DELEGATE_LINES: u64 = 12;
/// A callee of at most this many lines is shown whole.
pub const CALLEE_WHOLE_LINES: u64 = 25;
/// Of a longer callee found by its caller's name: its first and last lines
/// (where the result is set up and returned).
const CALLEE_HEAD_LINES: u64 = 10;
const CALLEE_TAIL_LINES: u64 = 6;

/// Words that take parentheses but call nothing.
const NOT_CALLS: [&str; 14] = [
    "if", "for", "while", "switch", "return", "catch", "function", "def", "fn", "func", "elif", "sizeof", "typeof",
    "match",
];

static CALL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"([A-Za-z_$][A-Za-z0-9_$]*)\s*\(").expect("valid regex"));

/// Whether a call whose name starts `line` at `at` may be of a function of
/// this file or of the object's own method: a bare name, or one on `self`,
/// `this` or `cls` (`x.format(` calls another type's method, looked for
/// elsewhere).
fn own_call(line: &str, at: usize) -> bool {
    let before = &line[..at];
    match before.strip_suffix('.') {
        Some(receiver) => ["self", "this", "cls"].iter().any(|r| {
            receiver.strip_suffix(r).is_some_and(|rest| !rest.ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        }),
        None => !before.ends_with([':', '>']),
    }
}

/// The stored template that finds a file's functions and methods by name.
pub const DEFINITIONS_TEMPLATE: &str = "find_definitions";

/// Adds the callee of the first result's short definitions (see the module doc).
pub async fn follow(gw: &Gateway, answer: &mut Value, show: Show<'_>) {
    let room = excerpt::room_for_code(gw, answer);
    let Some(result) = answer["results"].get_mut(0).filter(|r| excerpt::readable(r)) else { return };
    let called = calls_of_short_matches(result);
    if called.is_empty() {
        return;
    }
    let names: Vec<&str> = called.iter().map(|(_, n)| n.as_str()).collect();
    let defined = definitions(gw, result, &names).await;
    let shown: Vec<&str> =
        result["matches"].as_array().into_iter().flatten().filter_map(|m| m["lines"].as_str()).collect();
    let first = called.iter().find_map(|(i, name)| {
        let new = |d: &&Value| d["lines"].as_str().is_some_and(|l| !shown.contains(&l));
        let d = defined.iter().filter(new).find(|d| d["name"] == name.as_str())?;
        Some((*i, d.clone()))
    });
    let Some((caller, callee)) = first else { return };
    let Some(mut m) = callee_match(gw, result, callee, show, room).await else { return };
    if let Some(matches) = result["matches"].as_array_mut() {
        m["called_by"] = matches[caller]["name"].clone();
        matches.insert(caller + 1, m);
    }
}

/// The functions and methods named `names` that the result's file defines,
/// as the index shows them (name, kind, owner, lines, signature, their
/// first lines): one search of doc values, nothing of the file is read.
async fn definitions(gw: &Gateway, result: &Value, names: &[&str]) -> Vec<Value> {
    let (Some(root), Some(path)) = (result["project"].as_str(), result["path"].as_str()) else { return vec![] };
    let index = gw.backend().names().ast_alias(&project_hash(std::path::Path::new(root)));
    let params = crate::params::definitions(path, names, DEFINITIONS_FETCHED);
    let Ok(response) = gw.backend().run(DEFINITIONS_TEMPLATE, &index, params).await else { return vec![] };
    let inner = &response["hits"]["hits"][0]["inner_hits"]["symbols"]["hits"]["hits"];
    inner.as_array().into_iter().flatten().map(super::code::shown).filter(|d| d.is_object()).collect()
}

/// Definitions fetched for the names a short match calls.
const DEFINITIONS_FETCHED: u32 = 10;

/// The names the result's short matches with code call, in order, each
/// with the index of the (first) match that calls it; not their own names.
fn calls_of_short_matches(result: &Value) -> Vec<(usize, String)> {
    let mut called: Vec<(usize, String)> = Vec::new();
    let matches = result["matches"].as_array().map(Vec::as_slice).unwrap_or_default();
    for (i, m) in matches.iter().enumerate() {
        let (Some(code), Some((start, end))) = (m["code"].as_str(), m["lines"].as_str().and_then(crate::render::span))
        else {
            continue;
        };
        // A function or method hands work on; a type's code declares its members.
        if end - start + 1 > DELEGATE_LINES || !matches!(m["kind"].as_str(), Some("function" | "method") | None) {
            continue;
        }
        let own = m["name"].as_str().unwrap_or_default();
        for line in code.lines().filter(|l| !crate::render::is_comment(l)) {
            for c in CALL.captures_iter(line) {
                let name = &c[1];
                if !own_call(line, c.get(1).map_or(0, |m| m.start())) {
                    continue;
                }
                if name != own && !NOT_CALLS.contains(&name) && !called.iter().any(|(_, n)| n == name) {
                    called.push((i, name.to_string()));
                }
            }
        }
    }
    called
}

/// The callee as a match: its name, kind, owner, lines, signature and the
/// lines to show of it: the index's first lines when they are all of it,
/// else lines read from the file.
async fn callee_match(gw: &Gateway, result: &Value, d: Value, show: Show<'_>, room: usize) -> Option<Value> {
    let (start, end) = d["lines"].as_str().and_then(crate::render::span)?;
    let mut m = Map::new();
    for key in ["name", "kind", "owner", "lines", "signature"] {
        if !d[key].is_null() {
            m.insert(key.into(), d[key].clone());
        }
    }
    let stored = d["code"].as_str().unwrap_or_default();
    let skipped = d["code_skip"].as_str().and_then(crate::render::span).map_or(0, |(a, b)| b + 1 - a);
    if !stored.is_empty() && end + 1 - start <= stored.lines().count() as u64 + skipped {
        m.insert("code".into(), json!(excerpt::within(stored.to_string(), room)));
        if let Some(skip) = d.get("code_skip").filter(|s| s.is_string()) {
            m.insert("code_skip".into(), skip.clone());
        }
        return Some(Value::Object(m));
    }
    let content = excerpt::file_text(gw, stored_at(gw, result)).await?;
    let lines: Vec<&str> = content.lines().collect();
    let end = end.min(lines.len() as u64);
    if start == 0 || start > end {
        return None;
    }
    let spans = callee_spans(&lines, (start, end), show);
    let text: Vec<&str> = spans.iter().flat_map(|&(a, b)| lines[a as usize - 1..b as usize].iter().copied()).collect();
    let code = excerpt::within(text.join("\n"), room);
    if code.is_empty() {
        return None;
    }
    if spans != [(start, end)] {
        m.insert("code_lines".into(), json!(crate::render::spans_text(&spans, code.lines().count() as u64)));
    }
    m.insert("code".into(), json!(code));
    Some(Value::Object(m))
}

/// The lines of a callee read from its file: all of a short one; of a long
/// one those a question's words point to, or its first and last lines.
fn callee_spans(lines: &[&str], (start, end): (u64, u64), show: Show<'_>) -> Vec<(u64, u64)> {
    if end - start < CALLEE_WHOLE_LINES {
        return vec![(start, end)];
    }
    let spans = match show {
        Show::Window(query) => excerpt::window_spans(lines, (start, end), query),
        Show::Lines(words) => excerpt::holding_spans(lines, (start, end), words),
        Show::Start => vec![],
    };
    if spans.is_empty() {
        vec![(start, start + CALLEE_HEAD_LINES - 1), (end + 1 - CALLEE_TAIL_LINES, end)]
    } else {
        spans
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_calls_are_bare_or_on_self() {
        let line = "throw new Bounds(badIndex(i), other.format(x), this.init(), self.f(), myself.g(), A::h(), p->q())";
        let calls: Vec<&str> = CALL
            .captures_iter(line)
            .filter(|c| own_call(line, c.get(1).unwrap().start()))
            .map(|c| c.get(1).unwrap().as_str())
            .collect();
        assert_eq!(calls, ["Bounds", "badIndex", "init", "f"]);
    }

    #[test]
    fn a_short_match_names_what_it_calls() {
        let result = json!({ "matches": [
            { "name": "getmembers", "lines": "592-595",
              "code": "def getmembers(object, predicate=None):\n    # if (x) getmembers(y)\n    return _getmembers(object, predicate, getattr)" },
            { "name": "long", "lines": "1-40", "code": "def long():\n    helper(1)" },
            { "name": "Shape", "kind": "class", "lines": "1-3", "code": "class Shape {\n  constructor(w) {}\n}" },
            { "name": "Foo", "lines": "10-12", "code": "Foo() {\n    if (x) { other.start(); }\n    this.init();\n}" },
        ]});
        let called: Vec<(usize, String)> = calls_of_short_matches(&result);
        assert_eq!(called, vec![(0, "_getmembers".to_string()), (3, "init".to_string())]);
    }
}
