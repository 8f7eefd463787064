//! The named values the best match reads. The scanner records, in each
//! function's stored `show` (`reads`), the constants, statics, enum members
//! and upper-case names it reads; the answer shows the definition of each
//! under the match, `NAME = value  (path:line)`, so that a question about a
//! timeout, a retry delay or a cap is answered by the search that found
//! the function, wherever the value is defined. One search (`find_values`)
//! for every name: the match's own file first, then its directory, then
//! the rest of the project by path. A value whose definition the shown code
//! already holds is not said twice. A field or option declared without a
//! value (`lingerMs?: number`) gets the line that gives it its default
//! (`opts?.lingerMs ?? 5`, the scanner's `default` references), nearest
//! first.

use vibe_common::backend::naming::project_hash;
use vibe_common::document::kinds::ElementKind;
use vibe_common::document::shown::Shown;
use vibe_common::text::summary::{cut, MAX_CODE_LINE_CHARS};

use super::answer::stored_file;
use super::excerpt;
use crate::answers::{FileResult, Line, NamedValue, SymbolMatch, SymbolsAnswer, SymbolsFound};
use crate::gateway::Gateway;

/// The stored template that finds constants, variables and fields by name.
pub const VALUES_TEMPLATE: &str = "find_values";

/// Files `find_values` fetches: a name defined in several files keeps the
/// nearest.
const FILES_FETCHED: u32 = 8;

/// The stored template that finds where fields and options get defaults.
pub const DEFAULTS_TEMPLATE: &str = "find_defaults";

/// Adds to the first result's matches that show code the definitions of
/// the named values each reads, and to a field or option declared without
/// a value the line that gives it its default ([`add_defaults`]), within
/// the answer budget.
pub async fn add(gw: &Gateway, answer: &mut SymbolsAnswer) {
    let room = excerpt::room_for_code(gw, answer);
    let Some(result) = answer.results.first_mut() else { return };
    let used = add_defaults(gw, result, room).await;
    let room = room.saturating_sub(used);
    let names = wanted(&result.found.matches);
    if names.is_empty() {
        return;
    }
    let found = definitions(gw, result, &names).await;
    let mut used = 0;
    for m in result.found.matches.iter_mut().filter(|m| m.code.is_some()) {
        for name in m.reads.clone() {
            let Some(value) = found.iter().find(|v| v.name == name) else { continue };
            if shows(m, value) {
                continue;
            }
            used += value_cost(value);
            if used > room {
                return;
            }
            m.values.push(value.clone());
        }
    }
}

/// Gives each match that shows a field, option or variable declared
/// without a value (`lingerMs?: number`, `max_attempts: int`) the nearest
/// line that gives it a literal when it is missing (`opts?.lingerMs ?? 5`,
/// `kwargs.get("max_attempts", 20)`): one `find_defaults` search and one
/// read of the files found. The bytes it took.
async fn add_defaults(gw: &Gateway, result: &mut FileResult<SymbolsFound>, room: usize) -> usize {
    let mut names: Vec<&str> = Vec::new();
    for m in result.found.matches.iter().filter(|m| declared_without_value(m)) {
        if !names.contains(&m.head.name.as_str()) {
            names.push(&m.head.name);
        }
    }
    if names.is_empty() {
        return 0;
    }
    let found = defaults(gw, result, &names).await;
    let mut used = 0;
    for m in result.found.matches.iter_mut().filter(|m| declared_without_value(m)) {
        let Some(value) = found.iter().find(|v| v.name == m.head.name) else { continue };
        if m.values.iter().any(|v| v.name == value.name) || used + value_cost(value) > room {
            continue;
        }
        used += value_cost(value);
        m.values.push(value.clone());
    }
    used
}

/// Whether a match shows a field or variable whose shown line gives it no
/// value.
fn declared_without_value(m: &SymbolMatch) -> bool {
    let value =
        ElementKind::parse(&m.head.kind).is_some_and(|k| matches!(k, ElementKind::Field | ElementKind::Variable));
    let first = m.code.as_deref().and_then(|c| c.lines().map(str::trim).find(|l| !l.is_empty()));
    value && first.is_some_and(|l| !l.contains('=') && !l.contains("<-"))
}

/// The nearest default of each name ([`DEFAULTS_TEMPLATE`]), its line read
/// from its file (one read of every file found).
async fn defaults(gw: &Gateway, result: &FileResult<SymbolsFound>, names: &[&str]) -> Vec<NamedValue> {
    let index = gw.backend().names().ast_alias(&project_hash(std::path::Path::new(&result.project)));
    let params = crate::template_params::values(names, &result.path, FILES_FETCHED);
    let Ok(response) = gw.backend().run(DEFAULTS_TEMPLATE, &index, params).await else { return vec![] };
    let mut nearest: Vec<(String, String, u64)> = Vec::new();
    for hit in response.hits() {
        let path = hit.source_text("path").unwrap_or_default();
        for entry in hit.inner("references") {
            let name = entry.values("references.name").first().and_then(|v| v.as_str()).unwrap_or_default();
            let line = entry.values("references.line").first().and_then(|v| v.as_u64()).unwrap_or(0);
            if line > 0 && !nearest.iter().any(|(n, _, _)| n == name) {
                nearest.push((name.to_string(), path.to_string(), line));
            }
        }
    }
    let mut paths: Vec<String> = Vec::new();
    for (_, path, _) in &nearest {
        if !paths.contains(path) {
            paths.push(path.clone());
        }
    }
    let files: Vec<(String, String)> = paths.iter().map(|p| stored_file(gw, &result.project, p)).collect();
    let Ok(texts) = gw.backend().contents(&files).await else { return vec![] };
    let line_of = |path: &str, n: u64| {
        let text = texts[paths.iter().position(|p| p == path)?].as_deref()?;
        Some(cut(text.lines().nth(n as usize - 1)?.trim(), MAX_CODE_LINE_CHARS))
    };
    let named = |(name, path, line): (String, String, u64)| {
        let text = line_of(&path, line)?;
        Some(NamedValue { name, text, path: (path != result.path).then_some(path), line: Line(line) })
    };
    nearest.into_iter().filter_map(named).collect()
}

/// The names the matches that show code read, each once, in order.
fn wanted(matches: &[SymbolMatch]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for name in matches.iter().filter(|m| m.code.is_some()).flat_map(|m| &m.reads) {
        if !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    names
}

/// Whether the match's shown lines hold the value's definition (a value of
/// its own file within the lines its code shows).
fn shows(m: &SymbolMatch, value: &NamedValue) -> bool {
    if value.path.is_some() {
        return false;
    }
    let spans = match (m.code_lines.as_deref(), m.head.lines.as_deref()) {
        (Some(shown), _) => crate::render::spans(shown),
        (None, Some(lines)) => crate::render::span(lines).into_iter().collect(),
        _ => vec![],
    };
    spans.iter().any(|&(a, b)| a <= value.line.0 && value.line.0 <= b)
}

/// Bytes a value takes in the answer, as JSON and as text.
fn value_cost(v: &NamedValue) -> usize {
    v.name.len() + v.text.len() + v.path.as_deref().map_or(0, str::len) + 48
}

/// The nearest definition of each name: one search, files in the order
/// the template ranks them (the result's own file, its directory, the
/// rest by path), the first definition of a name kept.
async fn definitions(gw: &Gateway, result: &FileResult<SymbolsFound>, names: &[&str]) -> Vec<NamedValue> {
    let index = gw.backend().names().ast_alias(&project_hash(std::path::Path::new(&result.project)));
    let params = crate::template_params::values(names, &result.path, FILES_FETCHED);
    let Ok(response) = gw.backend().run(VALUES_TEMPLATE, &index, params).await else { return vec![] };
    let mut out: Vec<NamedValue> = Vec::new();
    for hit in response.hits() {
        let path = hit.source_text("path").unwrap_or_default();
        let elsewhere = (path != result.path).then(|| path.to_string());
        for shown in hit.inner("symbols").iter().filter_map(super::answer::shown) {
            if out.iter().any(|v| v.name == shown.name) {
                continue;
            }
            if let Some(value) = named_value(&shown, elsewhere.clone()) {
                out.push(value);
            }
        }
    }
    out
}

/// A value's definition as one line: its first line of code (with the
/// next when the first opens a bracket or ends in `=`), cut to a code
/// line's width; `None` without stored code or lines.
fn named_value(shown: &Shown, path: Option<String>) -> Option<NamedValue> {
    let line = shown.lines.as_deref().and_then(crate::render::span)?.0;
    let code = shown.code.as_deref().filter(|c| !c.trim().is_empty()).unwrap_or(&shown.signature);
    let mut lines = code.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut text = lines.next()?.to_string();
    if text.ends_with(['(', '[', '{', '=']) {
        if let Some(next) = lines.next() {
            text = format!("{text} {next}");
        }
    }
    Some(NamedValue { name: shown.name.to_string(), text: cut(&text, MAX_CODE_LINE_CHARS), path, line: Line(line) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    fn value(name: &str, code: &str, lines: &str) -> Shown<'static> {
        Shown {
            name: Cow::Owned(name.into()),
            kind: ElementKind::Constant,
            owner: None,
            lines: Some(lines.into()),
            signature: String::new(),
            doc: None,
            code: Some(code.into()),
            code_skip: None,
            calls: vec![],
            reads: vec![],
        }
    }

    #[test]
    fn a_value_is_its_first_line_or_two_when_it_opens_a_bracket() {
        let v = named_value(&value("PI_APPROX", "PI_APPROX = 3.14159", "6"), None).unwrap();
        assert_eq!((v.text.as_str(), v.line.0, v.path), ("PI_APPROX = 3.14159", 6, None));
        let v = named_value(&value("LIMITS", "LIMITS = {\n    \"max\": 5,\n}", "3-5"), Some("c.py".into())).unwrap();
        assert_eq!((v.text.as_str(), v.path.as_deref()), ("LIMITS = { \"max\": 5,", Some("c.py")));
    }

    #[test]
    fn a_value_the_shown_lines_hold_is_not_said_twice() {
        let m: SymbolMatch = serde_json::from_value(serde_json::json!({
            "name": "f", "kind": "function", "lines": "10-20", "signature": null, "code": "def f():",
            "code_lines": "10-12,18-20"
        }))
        .unwrap();
        let at = |line, path: Option<&str>| NamedValue {
            name: "X".into(),
            text: "X = 1".into(),
            path: path.map(Into::into),
            line: Line(line),
        };
        assert!(shows(&m, &at(11, None)));
        assert!(!shows(&m, &at(15, None)), "between the shown spans");
        assert!(!shows(&m, &at(11, Some("other.py"))), "another file's line 11");
        assert!(!shows(&m, &at(3, None)));
    }
}
