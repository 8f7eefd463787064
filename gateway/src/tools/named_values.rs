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
use crate::answers::{FileResult, Line, NamedValue, SymbolMatch, SymbolsAnswer, SymbolsFound, TextFound};
use crate::gateway::Gateway;

/// The stored template that finds constants, variables and fields by name.
pub const VALUES_TEMPLATE: &str = "find_values";

/// Files `find_values` fetches: a name defined in several files keeps the
/// nearest.
const FILES_FETCHED: u32 = 8;

/// Named values a text search's answer shows at most, over all its files.
const TEXT_VALUES: usize = 4;

/// Files of a text search's answer whose matching lines are read for names.
const TEXT_FILES_READ: usize = 3;

/// The stored template that finds where fields and options get defaults.
pub const DEFAULTS_TEMPLATE: &str = "find_defaults";

/// Adds to the first result's matches that show code the definitions of
/// the named values each reads, and to a field or option declared without
/// a value the line that gives it its default ([`add_defaults`]), within
/// the answer budget.
pub async fn add(gw: &Gateway, answer: &mut SymbolsAnswer) {
    let room = excerpt::room_for_code(gw, answer);
    let Some(first) = answer.results.first_mut() else { return };
    let used = add_defaults(gw, first, room).await;
    let room = room.saturating_sub(used);
    let (project, near) = (first.project.clone(), first.path.clone());
    // The matches that show code in the best result's project: the best
    // match, its callee, a short function of another result.
    let names: Vec<String> = wanted(answer.results.iter().filter(|r| r.project == project));
    if names.is_empty() {
        return;
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let found = definitions(gw, (&project, &near), &names).await;
    let mut used = 0;
    for result in answer.results.iter_mut().filter(|r| r.project == project) {
        for m in result.found.matches.iter_mut().filter(|m| m.code.is_some()) {
            for name in m.reads.clone() {
                let Some(value) = found.iter().find(|v| v.name == name) else { continue };
                let value = seen_from(value, &near, &result.path);
                if shows(m, &value) {
                    continue;
                }
                used += value_cost(&value);
                if used > room {
                    return;
                }
                m.values.push(value);
            }
        }
    }
}

/// A value found near `near` as the file at `path` says it: no path when
/// it is that file's own.
fn seen_from(value: &NamedValue, near: &str, path: &str) -> NamedValue {
    let home = value.path.as_deref().unwrap_or(near);
    NamedValue { path: (home != path).then(|| home.to_string()), ..value.clone() }
}

/// Adds to a text search's files the definitions of the named values
/// their matching lines read (`retry_base_seconds: int =
/// DEFAULT_RETRY_BASE_SECONDS` gets `value L40: DEFAULT_RETRY_BASE_SECONDS
/// = 5`), unless a shown line holds the definition: one `find_values`
/// search per project, nearest definition first, at most [`TEXT_VALUES`].
pub async fn add_to_text(gw: &Gateway, results: &mut [FileResult<TextFound>]) {
    let read = results.len().min(TEXT_FILES_READ);
    // Per project: the first file that reads a name, and the names.
    let mut projects: Vec<(String, String, Vec<String>)> = Vec::new();
    for r in &results[..read] {
        let names = r.found.matches.iter().filter(|l| l.context != Some(true)).flat_map(|l| value_names(&l.text));
        for name in names {
            if !projects.iter().any(|(p, _, _)| *p == r.project) {
                projects.push((r.project.clone(), r.path.clone(), Vec::new()));
            }
            let (_, _, wanted) = projects.iter_mut().find(|(p, _, _)| *p == r.project).expect("pushed above");
            if !wanted.iter().any(|w| w == name) {
                wanted.push(name.to_string());
            }
        }
    }
    let mut shown = 0;
    for (project, near, names) in &projects {
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        for value in definitions(gw, (project, near), &names).await {
            let home = value.path.as_deref().unwrap_or(near);
            let said = results.iter().any(|r| r.project == *project && r.path == home && holds_line(r, value.line.0));
            let reader = results[..read].iter_mut().find(|r| r.project == *project && reads(r, &value.name));
            let wanted = !said && shown < TEXT_VALUES && !opens_a_table(&value.text);
            let Some(reader) = reader.filter(|_| wanted) else { continue };
            reader.found.values.push(seen_from(&value, near, &reader.path));
            shown += 1;
        }
    }
}

/// Whether a file's shown lines (hits or context) include line `n`.
fn holds_line(r: &FileResult<TextFound>, n: u64) -> bool {
    r.found.matches.iter().any(|l| l.line.0 == n)
}

/// Whether a file's matching lines read `name`.
fn reads(r: &FileResult<TextFound>, name: &str) -> bool {
    r.found.matches.iter().filter(|l| l.context != Some(true)).any(|l| value_names(&l.text).contains(&name))
}

/// The names in a line of code, outside its string literals, that look
/// like named values: upper case (`MAX_RETRIES`, `TTL`), `kName`,
/// `defaultName` / `DefaultName`.
fn value_names(line: &str) -> Vec<&str> {
    static NAMES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(concat!(
            r#""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`|"#,
            r"\b(?:[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]|[A-Z]{3,}[0-9]*|k[A-Z][A-Za-z0-9]+|[dD]efault[A-Z][A-Za-z0-9_]*)\b",
        ))
        .expect("a valid regex")
    });
    let quoted = |m: &regex::Match| m.as_str().starts_with(['"', '\'', '`']);
    NAMES.find_iter(line).filter(|m| !quoted(m)).map(|m| m.as_str()).collect()
}

/// Whether a value's line opens a collection it does not close (`ENV_DOCS
/// = {` and its first entry): a table, not a value.
fn opens_a_table(text: &str) -> bool {
    let opened = text.matches(['{', '[']).count();
    opened > 0 && opened > text.matches(['}', ']']).count()
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
fn wanted<'a>(results: impl Iterator<Item = &'a FileResult<SymbolsFound>>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let shown = results.flat_map(|r| &r.found.matches).filter(|m| m.code.is_some());
    for name in shown.flat_map(|m| &m.reads) {
        if !names.contains(name) {
            names.push(name.clone());
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
async fn definitions(gw: &Gateway, (project, near): (&str, &str), names: &[&str]) -> Vec<NamedValue> {
    let index = gw.backend().names().ast_alias(&project_hash(std::path::Path::new(project)));
    let params = crate::template_params::values(names, near, FILES_FETCHED);
    let Ok(response) = gw.backend().run(VALUES_TEMPLATE, &index, params).await else { return vec![] };
    let mut out: Vec<NamedValue> = Vec::new();
    for hit in response.hits() {
        let path = hit.source_text("path").unwrap_or_default();
        let elsewhere = (path != near).then(|| path.to_string());
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
    fn names_of_values_in_a_line_of_code() {
        let line = r#"return float(os.environ.get("SPOOLCTL_TEST_REAP_THRESHOLD", REAP_THRESHOLD)) + kTimeout"#;
        assert_eq!(value_names(line), ["REAP_THRESHOLD", "kTimeout"]);
        assert_eq!(value_names("config.AckWait = defaultAckWait // ack 'ACK_X'"), ["defaultAckWait"]);
        assert_eq!(value_names("wait := min(TTL, Max_x, max_retries, HTTP2)"), ["TTL", "HTTP2"]);
        assert_eq!(value_names(r#"s = "a \" B_C" + D_E"#), ["D_E"]);
    }

    #[test]
    fn a_collection_left_open_is_a_table() {
        assert!(opens_a_table(r#"ENV_DOCS = { "SPOOLCTL_DB": "queue database path","#));
        assert!(!opens_a_table("LIMITS = {\"max\": 5}"));
        assert!(!opens_a_table("HEARTBEAT_INTERVAL = 5.0"));
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
