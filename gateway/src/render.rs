//! The text content of every answer, rendered once, here: compact plain
//! text written for a model (`mcp.answer_format: "text"`, the default), or
//! the answer's compact JSON (`"json"`, for clients that parse the text).
//! `structuredContent` always carries the typed answer under the tool's
//! `outputSchema`; the text is what a model reads, so it leaves out what
//! only a program needs (hashes, timestamps, languages, the query echoed)
//! and names the project once.
//!
//! The renderer knows the answers by their fields, not by tool: a page of
//! `results` (each a file with its `matches`, `references`, `calls`,
//! `imports` or `sections`), one file's `content` or outline, a `tree`, and
//! anything else as `key: value` lines.

use std::fmt::Write;

mod code_lines;

use code_lines::{common_indent, element_code, numbered, shows_signature};
pub use code_lines::{is_comment, span, spans, spans_text};

use serde_json::{Map, Value};
use vibe_common::config::AnswerFormat;
use vibe_common::document::kinds::ElementKind;

/// The text content of an answer in `format`. `project_named`: the call
/// named its project (`target`, or the project's endpoint), so an answer
/// from that one project does not name it again.
pub fn text(answer: &Value, format: AnswerFormat, project_named: bool) -> String {
    match format {
        AnswerFormat::Json => answer.to_string(),
        AnswerFormat::Text => plain(answer, project_named),
    }
}

/// The text within `budget` bytes: whole lines, and a last line saying it
/// was cut (the structured answer is whole). The answers are shaped to the
/// budget as JSON, which the text rarely outgrows.
pub fn fit(text: String, budget: usize) -> String {
    if text.len() <= budget {
        return text;
    }
    const CUT: &str = "\n… (text cut to the answer budget; narrow the call for the rest)";
    let head = crate::budget::cut_bytes(&text, budget.saturating_sub(CUT.len()));
    let end = head.rfind('\n').unwrap_or(head.len());
    format!("{}{CUT}", &head[..end])
}

/// Fields a model does not need to read (`structuredContent` keeps them).
const UNREAD: &[&str] = &["hash", "indexed_at", "language", "query", "truncated", "direction", "root", "project"];

/// The plain-text rendering of an answer ([`text`]).
pub fn plain(answer: &Value, project_named: bool) -> String {
    let mut out = String::new();
    let Some(top) = answer.as_object() else {
        return scalar(answer);
    };
    if let Some(results) = top.get("results").and_then(Value::as_array) {
        page(&mut out, top, results, project_named);
    } else if top.contains_key("content") || top.contains_key("elements") || top.contains_key("symbol") {
        file(&mut out, top, project_named);
    } else {
        any_fields(&mut out, top, "", &[]);
    }
    out.truncate(out.trim_end().len());
    out
}

/// A page of search results: what is shown of how many, the project once
/// (unless the call named it), then each file.
fn page(out: &mut String, top: &Map<String, Value>, results: &[Value], project_named: bool) {
    let shown = results.len() as u64;
    let total = top.get("total").and_then(Value::as_u64).unwrap_or(shown);
    let next = top.get("next_offset").and_then(Value::as_u64);
    // A page says where it starts when its offset counts something else
    // (`search_code_text` counts candidate files).
    let first = top
        .get("first")
        .and_then(Value::as_u64)
        .unwrap_or_else(|| next.map_or(total.saturating_sub(shown), |n| n - shown.min(n)) + 1);
    // A page that shows everything says nothing of its count.
    let _ = match (shown, next) {
        (0, _) => writeln!(out, "no results"),
        (_, Some(n)) if first == 1 => {
            let more = total.saturating_sub(shown);
            writeln!(out, "{more} more result{}: offset={n}", if more == 1 { "" } else { "s" })
        }
        (_, Some(n)) => writeln!(out, "{first}-{} of {total} shown; offset={n} for more", first + shown - 1),
        _ if first > 1 => writeln!(out, "{first}-{} of {total} shown", first + shown - 1),
        _ => Ok(()),
    };
    note(out, top);
    let roots: Vec<&str> = results.iter().filter_map(|r| r["project"].as_str()).collect();
    let one_project = roots.windows(2).all(|w| w[0] == w[1]);
    if let (true, false, Some(root)) = (one_project, project_named, roots.first()) {
        let _ = writeln!(out, "project: {root}");
    }
    let skip = ["total", "next_offset", "note", "results", "total_exact", "first"];
    fields(out, top, "", &skip);
    for r in results.iter().filter_map(Value::as_object) {
        if !out.is_empty() {
            out.push('\n');
        }
        result(out, r, !one_project);
    }
}

/// The lists of a result that hold its matches, uses or sections.
const RESULT_LISTS: [&str; 6] = ["matches", "word_lines", "references", "calls", "types", "sections"];

/// One file of a page: its path, then what matched in it. A file whose one
/// match is a definition says its lines on the path's line, as grep does:
/// `json/scanner.py:65-80 scan_once`.
fn result(out: &mut String, r: &Map<String, Value>, name_project: bool) {
    out.push_str(r.get("path").and_then(Value::as_str).unwrap_or_default());
    let bare_path = out.len();
    if let (true, Some(root)) = (name_project, r.get("project").and_then(Value::as_str)) {
        let _ = write!(out, " (project {root})");
    }
    out.push_str(disk_mark(r));
    if let Some(title) = r.get("title").and_then(Value::as_str) {
        let _ = write!(out, " — {title}");
    }
    if let Some(definition) = only_definition(r).filter(|_| out.len() == bare_path) {
        let mut one = String::new();
        entry(&mut one, definition, "", 0, Doc::Gist);
        if let Some(rest) = one.strip_prefix('L') {
            let _ = write!(out, ":{rest}");
            rest_of_result(out, r);
            return;
        }
    }
    out.push('\n');
    for list in RESULT_LISTS {
        let mut inside: Option<&str> = None;
        let mut previous: Option<&Value> = None;
        let items = r.get(list).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        let margin = common_indent(items.iter().filter(|i| is_line_hit(i)).filter_map(|i| i["text"].as_str()));
        for item in items {
            // Text hits and uses with their line's text: the definition they
            // are in, once for a run of hits in it (a context line stays in
            // its hit's run; a hit in none ends it).
            let hit = is_line_hit(item) && item.get("text").is_some();
            if hit && item.get("context") != Some(&Value::Bool(true)) {
                let within = item.get("in").and_then(Value::as_str);
                if within.is_some() && within != inside {
                    let _ = writeln!(out, "  in {}:", within.unwrap_or_default());
                }
                inside = within;
            }
            let indent = if hit && inside.is_some() { "    " } else { "  " };
            // An overload's doc repeats the one said above it.
            let doc = if previous.is_some_and(|p| same_definition(p, item)) { Doc::Said } else { Doc::Gist };
            entry(out, item, indent, margin, doc);
            previous = Some(item);
        }
    }
    rest_of_result(out, r);
}

/// A result's imports and other fields, after its matches.
fn rest_of_result(out: &mut String, r: &Map<String, Value>) {
    if let Some(imports) = r.get("imports").and_then(Value::as_array) {
        let names: Vec<String> = imports.iter().map(scalar).collect();
        let _ = writeln!(out, "  imports: {}", names.join(", "));
    }
    let skip: Vec<&str> = ["path", "stale", "deleted", "title", "imports"].into_iter().chain(RESULT_LISTS).collect();
    fields(out, r, "  ", &skip);
}

/// The result's one match when it is a definition with its lines (not a
/// text hit or a use) and nothing else is listed.
fn only_definition(r: &Map<String, Value>) -> Option<&Value> {
    let mut items = RESULT_LISTS.iter().filter_map(|l| r.get(*l).and_then(Value::as_array)).flatten();
    let first = items.next()?;
    (items.next().is_none() && first.get("lines").is_some() && first.get("name").is_some()).then_some(first)
}

/// A matching line or a use (`line` and its `text`), not a definition.
fn is_line_hit(item: &Value) -> bool {
    item.get("line").is_some() && item.get("name").is_none() && item.get("lines").is_none()
}

/// Whether two matches are the same definition's overloads (name and owner).
fn same_definition(a: &Value, b: &Value) -> bool {
    a.get("name").is_some() && a.get("name") == b.get("name") && a.get("owner") == b.get("owner")
}

/// How much of an element's doc its entry shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Doc {
    /// All of it: the answer is about this element (`get_file_ast`).
    Whole,
    /// Its first [`DOC_CHARS`]: one result among others.
    Gist,
    /// None: an overload's doc, said just above it.
    Said,
}

/// One element, line or use: `L12-30 kind Owner.name: signature` (no kind
/// for a function or method), its `doc`, and its code as numbered lines; a
/// text hit or a use as `12: text` (`12 type: text` for a use that is not
/// a call; `12 in f` for a use without its text), `margin` bytes of its
/// indentation (those its neighbours share) taken off.
fn entry(out: &mut String, item: &Value, indent: &str, margin: usize, doc: Doc) {
    let Some(e) = item.as_object() else {
        let _ = writeln!(out, "{indent}{}", scalar(item));
        return;
    };
    let get = |k: &str| e.get(k).and_then(Value::as_str);
    if let (Some(line), true) = (e.get("line").and_then(Value::as_u64), is_line_hit(item)) {
        let sep = if e.get("context") == Some(&Value::Bool(true)) { '-' } else { ':' };
        // A use says its kind unless it is a call.
        let kind = get("kind").filter(|k| *k != "call").map_or(String::new(), |k| format!(" {k}"));
        let _ = match get("text") {
            Some(t) => writeln!(out, "{indent}{line}{kind}{sep} {}", t.get(margin..).unwrap_or(t.trim_start())),
            None => writeln!(out, "{indent}{line}{kind}{}", get("in").map_or(String::new(), |i| format!(" in {i}"))),
        };
        return;
    }
    let mut head = String::new();
    if let Some(lines) = get("lines").map(str::to_string).or_else(|| e.get("line").map(scalar)) {
        let _ = write!(head, "L{lines} ");
    }
    if let Some(heading) = get("heading") {
        let _ = write!(head, "# {heading} ");
    }
    // A function's or method's signature says what it is.
    let kind = get("kind").filter(|k| !ElementKind::parse(k).is_some_and(ElementKind::is_callable));
    for (k, v) in [("kind", kind), ("name", get("name"))] {
        if let Some(v) = v {
            if k == "name" {
                if let Some(owner) = get("owner") {
                    let _ = write!(head, "{owner}.");
                }
            }
            let _ = write!(head, "{v} ");
        }
    }
    if let Some(caller) = get("called_by") {
        head.truncate(head.trim_end().len());
        let _ = write!(head, ", called by {caller} ");
    }
    if let Some(inside) = get("in") {
        let _ = write!(head, "in {inside} ");
    }
    let mut head = head.trim_end().to_string();
    if let Some(depth) = e.get("depth").and_then(Value::as_u64) {
        let _ = write!(head, " (depth {depth})");
    }
    let code = get("code");
    let sig = get("signature").or(get("text")).filter(|s| !s.is_empty());
    // The signature is said once: by the code when its first lines show it.
    if let Some(sig) = sig.filter(|sig| !code.is_some_and(|c| shows_signature(c, sig))) {
        let _ = write!(head, ": {}", one_line(sig));
    }
    if let Some(files) = e.get("used_in").and_then(Value::as_u64) {
        let _ = write!(head, " — used in {}", vibe_common::text::units::count(files as usize, "file", "files"));
    }
    let _ = writeln!(out, "{indent}{head}");
    let deeper = format!("{indent}  ");
    // A doc the shown code holds (a docstring among lines chosen for words)
    // is not said twice.
    let shown_doc = |t: &str| code.is_some_and(|c| code_lines::shows_doc(c, t));
    if let Some(text) = get("doc").filter(|t| !t.is_empty() && doc != Doc::Said && !shown_doc(t)) {
        let max = if doc == Doc::Gist { DOC_CHARS } else { usize::MAX };
        let _ = writeln!(out, "{deeper}{}", at_most_words(&one_line(text), max));
    }
    if let Some(passage) = get("passage").filter(|t| !t.is_empty()) {
        let _ = writeln!(out, "{deeper}{}", one_line(passage));
    }
    if let Some(code) = code {
        element_code(out, code, e);
    }
    fields(out, e, &deeper, ENTRY_FIELDS);
}

/// The fields [`entry`] writes itself.
const ENTRY_FIELDS: &[&str] = &[
    "line",
    "text",
    "lines",
    "heading",
    "kind",
    "name",
    "owner",
    "in",
    "signature",
    "doc",
    "passage",
    "code",
    "code_lines",
    "code_skip",
    "depth",
    "extends",
    "used_in",
    "called_by",
];

/// What a file's path says of it when it changed or went away on disk
/// since it was indexed; empty when it did not.
fn disk_mark(file: &Map<String, Value>) -> &'static str {
    let flag = |k: &str| file.get(k) == Some(&Value::Bool(true));
    match (flag("stale"), flag("deleted")) {
        (true, true) => " [deleted on disk since indexed]",
        (true, false) => " [changed on disk since indexed]",
        _ => "",
    }
}

/// One file: its path and line range, then its numbered lines or its outline.
fn file(out: &mut String, top: &Map<String, Value>, project_named: bool) {
    let path = top.get("path").and_then(Value::as_str).unwrap_or_default();
    let root = top.get("root").and_then(Value::as_str).filter(|_| !project_named);
    let _ = write!(out, "{path}");
    if let Some(root) = root {
        let _ = write!(out, " (project {root})");
    }
    out.push_str(disk_mark(top));
    out.push('\n');
    note(out, top);
    let mut skip =
        vec!["path", "stale", "deleted", "note", "content", "elements", "matches", "members", "start_line", "end_line"];
    if let Some(content) = top.get("content").and_then(Value::as_str) {
        let start = top.get("start_line").and_then(Value::as_u64).unwrap_or(1);
        if let (Some(total), Some(end)) = (top.get("total_lines"), top.get("end_line")) {
            let _ = writeln!(out, "lines {start}-{} of {}", scalar(end), scalar(total));
            skip.push("total_lines");
        }
        fields(out, top, "", &skip);
        if top.get("start_char").is_some() {
            out.push_str(content);
            out.push('\n');
        } else {
            numbered(out, content, start);
        }
        return;
    }
    fields(out, top, "", &skip);
    for list in ["matches", "elements", "members"] {
        if let Some(items) = top.get(list).and_then(Value::as_array) {
            if list == "members" {
                out.push_str("members:\n");
            }
            for item in items {
                entry(out, item, "  ", 0, Doc::Whole);
            }
        }
    }
}

/// The answer's note, first: what was cut or how it was found.
fn note(out: &mut String, top: &Map<String, Value>) {
    if let Some(note) = top.get("note").and_then(Value::as_str).filter(|n| !n.is_empty()) {
        let _ = writeln!(out, "note: {note}");
    }
}

/// Every other field of a file or result as `key: value`, without the
/// [`UNREAD`] ones.
fn fields(out: &mut String, obj: &Map<String, Value>, indent: &str, skip: &[&str]) {
    let skip: Vec<&str> = skip.iter().chain(UNREAD).copied().collect();
    any_fields(out, obj, indent, &skip);
}

/// Every field not in `skip` as `key: value` (lists of scalars joined,
/// objects and lists of objects one per line).
fn any_fields(out: &mut String, obj: &Map<String, Value>, indent: &str, skip: &[&str]) {
    for (k, v) in obj {
        if skip.contains(&k.as_str()) || v.is_null() || v == &Value::Bool(false) {
            continue;
        }
        if k == "stale" || k == "deleted" || k.starts_with('_') {
            continue;
        }
        match v {
            Value::Object(inner) => {
                let _ = writeln!(out, "{indent}{k}:");
                any_fields(out, inner, &format!("{indent}  "), &[]);
            }
            Value::Array(items) if items.iter().any(Value::is_object) => {
                let _ = writeln!(out, "{indent}{k}:");
                for item in items {
                    let line = match item.as_object() {
                        Some(o) => inline(o),
                        None => scalar(item),
                    };
                    let _ = writeln!(out, "{indent}- {line}");
                }
            }
            Value::Array(items) => {
                let joined: Vec<String> = items.iter().map(scalar).collect();
                let _ = writeln!(out, "{indent}{k}: {}", joined.join(", "));
            }
            Value::String(s) if s.contains('\n') => {
                let _ = writeln!(out, "{indent}{k}:\n{s}");
            }
            _ => {
                let _ = writeln!(out, "{indent}{k}: {}", scalar(v));
            }
        }
    }
}

/// An object on one line: `key: value, key: value`.
fn inline(o: &Map<String, Value>) -> String {
    let parts: Vec<String> = o
        .iter()
        .filter(|(k, v)| !v.is_null() && !k.starts_with('_'))
        .map(|(k, v)| match v {
            Value::Object(inner) => format!("{k}: {{{}}}", inline(inner)),
            _ => format!("{k}: {}", scalar(v)),
        })
        .collect();
    parts.join(", ")
}

/// A value as text: strings bare, lists joined, everything else as JSON.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(scalar).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// Characters of a search result's doc summary a model reads (its gist;
/// `get_file_ast` with the symbol gives the whole doc).
const DOC_CHARS: usize = 100;

/// `text` cut after its last whole word within `max` characters, `…` said.
fn at_most_words(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    // One character more: a word ending at `max` is whole.
    let head: String = text.chars().take(max + 1).collect();
    // No space: the first `max` characters.
    let end = head.rfind(' ').unwrap_or_else(|| head.char_indices().nth(max).map_or(head.len(), |(i, _)| i));
    format!("{}…", head[..end].trim_end_matches([',', ';', ':']))
}

/// Whitespace runs (newlines too) as one space.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod render_tests;
