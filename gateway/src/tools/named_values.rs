//! The named values the best match reads. The scanner records, in each
//! function's stored `show` (`reads`), the constants, statics, enum members
//! and upper-case names it reads; the answer shows the definition of each
//! under the match, `NAME = value  (path:line)`, so that a question about a
//! timeout, a retry delay or a cap is answered by the search that found
//! the function, wherever the value is defined. One search (`find_values`)
//! for every name: the match's own file first, then its directory, then
//! the rest of the project by path. A value whose definition the shown code
//! already holds is not said twice.

use vibe_common::backend::naming::project_hash;
use vibe_common::document::shown::Shown;
use vibe_common::text::summary::{cut, MAX_CODE_LINE_CHARS};

use super::excerpt;
use crate::answers::{FileResult, Line, NamedValue, SymbolMatch, SymbolsAnswer, SymbolsFound};
use crate::gateway::Gateway;

/// The stored template that finds constants, variables and fields by name.
pub const VALUES_TEMPLATE: &str = "find_values";

/// Files `find_values` fetches: a name defined in several files keeps the
/// nearest.
const FILES_FETCHED: u32 = 8;

/// Adds to the first result's matches that show code the definitions of
/// the named values each reads, within the answer budget.
pub async fn add(gw: &Gateway, answer: &mut SymbolsAnswer) {
    let room = excerpt::room_for_code(gw, answer);
    let Some(result) = answer.results.first_mut() else { return };
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
    use vibe_common::document::kinds::ElementKind;

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
