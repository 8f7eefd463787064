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
use vibe_common::ast::{AstData, AstElement};

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

/// Adds the callee of the first result's short definitions (see the module doc).
pub async fn follow(gw: &Gateway, answer: &mut Value, show: Show<'_>) {
    let room = excerpt::room_for_code(gw, answer);
    let Some(result) = answer["results"].get_mut(0).filter(|r| excerpt::readable(r)) else { return };
    let called = calls_of_short_matches(result);
    if called.is_empty() {
        return;
    }
    let (Some(content), Some(ast)) = excerpt::text_and_outline(gw, result).await else { return };
    let Some((caller, callee)) = called.iter().find_map(|(i, name)| Some((*i, defined(&ast, name, result)?))) else {
        return;
    };
    let lines: Vec<&str> = content.lines().collect();
    let Some(mut m) = callee_match(callee, &lines, show, room) else { return };
    if let Some(matches) = result["matches"].as_array_mut() {
        m["called_by"] = matches[caller]["name"].clone();
        matches.insert(caller + 1, m);
    }
}

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
                if name != own && !NOT_CALLS.contains(&name) && !called.iter().any(|(_, n)| n == name) {
                    called.push((i, name.to_string()));
                }
            }
        }
    }
    called
}

/// The function or method `name` the file defines, not one the result
/// already shows.
fn defined<'a>(ast: &'a AstData, name: &str, result: &Value) -> Option<&'a AstElement> {
    let shown: Vec<&str> =
        result["matches"].as_array().into_iter().flatten().filter_map(|m| m["lines"].as_str()).collect();
    ast.elements().find(|e| {
        matches!(e.kind.as_str(), "function" | "method")
            && e.name == name
            && e.line.is_some_and(|l| !shown.contains(&lines_text(l.start, l.end).as_str()))
    })
}

fn lines_text(start: u32, end: u32) -> String {
    if start == end {
        start.to_string()
    } else {
        format!("{start}-{end}")
    }
}

/// The callee as a match: its name, kind, owner, lines, signature and the
/// lines to show of it.
fn callee_match(e: &AstElement, lines: &[&str], show: Show<'_>, room: usize) -> Option<Value> {
    let l = e.line?;
    let (start, end) = (l.start as u64, (l.end as u64).min(lines.len() as u64));
    if start == 0 || start > end {
        return None;
    }
    let spans = if end - start < CALLEE_WHOLE_LINES {
        vec![(start, end)]
    } else {
        match show {
            Show::Window(query) => excerpt::window_spans(lines, (start, end), query),
            Show::Lines(words) => excerpt::holding_spans(lines, (start, end), words),
            Show::Start => vec![],
        }
    };
    let spans = if spans.is_empty() {
        vec![(start, start + CALLEE_HEAD_LINES - 1), (end + 1 - CALLEE_TAIL_LINES, end)]
    } else {
        spans
    };
    let text: Vec<&str> = spans.iter().flat_map(|&(a, b)| lines[a as usize - 1..b as usize].iter().copied()).collect();
    let code = excerpt::within(text.join("\n"), room);
    if code.is_empty() {
        return None;
    }
    let mut m = Map::new();
    m.insert("name".into(), json!(e.name));
    m.insert("kind".into(), json!(e.kind));
    if let Some(owner) = &e.owner {
        m.insert("owner".into(), json!(owner));
    }
    m.insert("lines".into(), json!(lines_text(l.start, l.end)));
    m.insert("signature".into(), json!(e.signature));
    if spans != [(start, end)] {
        m.insert("code_lines".into(), json!(crate::render::spans_text(&spans, code.lines().count() as u64)));
    }
    m.insert("code".into(), json!(code));
    Some(Value::Object(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_match_names_what_it_calls() {
        let result = json!({ "matches": [
            { "name": "getmembers", "lines": "592-595",
              "code": "def getmembers(object, predicate=None):\n    # if (x) getmembers(y)\n    return _getmembers(object, predicate, getattr)" },
            { "name": "long", "lines": "1-40", "code": "def long():\n    helper(1)" },
            { "name": "Shape", "kind": "class", "lines": "1-3", "code": "class Shape {\n  constructor(w) {}\n}" },
            { "name": "Foo", "lines": "10-12", "code": "Foo() {\n    if (x) { init(); }\n    init();\n}" },
        ]});
        let called: Vec<(usize, String)> = calls_of_short_matches(&result);
        assert_eq!(called, vec![(0, "_getmembers".to_string()), (3, "init".to_string())]);
    }
}
