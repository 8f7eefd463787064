//! `get_file_ast`'s answer: the file's outline. Each element (function,
//! class, struct, enum, interface, variable, heading), in file order, gives
//! its name, kind, owner, line range, a signature cut to
//! [`SIGNATURE_CHARS`] and its doc summary; imports are a count and the
//! first [`FIRST_IMPORTS`]. The elements that fit the answer budget come
//! first, `offset` (the answer's `next_offset`) gives the next page.
//! `symbol` (a name or `Owner.name`) gives the elements of that name in
//! full (signature, whole doc comment) with their members' outline.

use serde_json::{json, Map, Value};
use vibe_common::document::kinds::ElementKind;

use crate::budget::{first_sentence, json_len, shorten, RESERVE};
use crate::normalize::Args;
use crate::tool_error::ToolError;

/// Signatures in an outline are cut to about this many characters.
pub const SIGNATURE_CHARS: usize = 120;
/// Doc summaries (first sentence) are cut to about this many characters.
pub const DOC_CHARS: usize = 160;
/// Imports listed by name (the rest are counted).
pub const FIRST_IMPORTS: usize = 10;
/// Frontmatter keys an outline keeps.
pub const FRONTMATTER_KEYS: &[&str] = &["title", "description"];

/// The lists of code elements, in the order their kinds are told.
const LISTS: &[&str] = &["classes", "interfaces", "structs", "enums", "functions", "variables"];

pub fn answer(s: &Value, args: &Args, budget: usize) -> Result<Value, ToolError> {
    let ast = &s["ast"];
    let mut answer = json!({ "root": s["root"], "path": s["path"], "language": s["language"] });
    let elements = elements(ast);
    if let Some(symbol) = args.symbol.as_deref().filter(|q| !q.trim().is_empty()) {
        return symbol_answer(answer, &elements, symbol, args.offset as usize, budget, s);
    }
    if let Some(license) = ast["license"].as_str() {
        answer["license"] = json!(license);
    }
    if let Some(header) = ast["header_comments"].as_array().and_then(|h| h.first()).and_then(Value::as_str) {
        answer["header"] = json!(first_sentence(header, DOC_CHARS));
    }
    if let Some(fm) = frontmatter(&ast["frontmatter"]) {
        answer["frontmatter"] = fm;
    }
    let imports = ast["imports"].as_array().cloned().unwrap_or_default();
    if !imports.is_empty() {
        let first: Vec<Value> = imports.iter().take(FIRST_IMPORTS).cloned().collect();
        answer["imports"] = json!({ "total": imports.len(), "first": first });
    }
    for (list, key) in [("links", "links_total"), ("code_blocks", "code_blocks_total")] {
        if let Some(n) = ast[list].as_array().map(Vec::len).filter(|n| *n > 0) {
            answer[key] = json!(n);
        }
    }
    let total = elements.len();
    let offset = (args.offset as usize).min(total);
    answer["total_elements"] = json!(total);
    let page = outline_page(&elements[offset..], budget.saturating_sub(json_len(&answer) + RESERVE));
    let next = offset + page.len();
    answer["elements"] = Value::Array(page);
    answer["truncated"] = json!(next < total);
    if next < total {
        answer["next_offset"] = json!(next);
        answer["note"] = json!(format!(
            "elements {}-{next} of {total} (the answer budget is {budget} bytes): offset {next} goes on; symbol gives one element in full",
            offset + 1
        ));
    }
    Ok(answer)
}

/// Every element of the AST in file order: code elements (with their kind)
/// and Markdown headings (kind `heading`).
fn elements(ast: &Value) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for list in LISTS {
        for e in ast[*list].as_array().into_iter().flatten() {
            let mut e = e.clone();
            if e["kind"].as_str().is_none_or(str::is_empty) {
                e["kind"] = json!(default_kind(list));
            }
            out.push(e);
        }
    }
    for h in ast["headings"].as_array().into_iter().flatten() {
        out.push(json!({ "name": h["title"], "kind": "heading", "level": h["level"], "line": h["line"] }));
    }
    out.sort_by_key(|e| (e["line"]["start"].as_u64().unwrap_or(u64::MAX), e["line"]["end"].as_u64().unwrap_or(0)));
    out
}

fn default_kind(list: &str) -> &'static str {
    let kind = ElementKind::ALL.into_iter().find(|k| k.list() == list).unwrap_or(ElementKind::Variable);
    kind.name()
}

/// `312-380` (or `12` for one line).
fn lines(e: &Value) -> Option<String> {
    let (start, end) = (e["line"]["start"].as_u64()?, e["line"]["end"].as_u64().unwrap_or(0));
    Some(if end > start { format!("{start}-{end}") } else { start.to_string() })
}

/// A signature on one line, whitespace collapsed.
fn one_line(signature: &str) -> String {
    signature.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The doc comments of an element, joined.
fn doc(e: &Value) -> String {
    let comments: Vec<&str> = e["comments"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    comments.join("\n\n")
}

/// `{name, kind, owner?, level?, lines, signature?, doc?}`, short.
/// The outline entries of `items`, from the first, while they fit in
/// `room` bytes (at least one, so a page always moves on).
fn outline_page<'a>(items: impl IntoIterator<Item = &'a Value>, room: usize) -> Vec<Value> {
    let mut used = 0;
    let mut page = Vec::new();
    for item in items {
        let entry = outline_entry(item);
        let size = json_len(&entry) + 1;
        if used + size > room && !page.is_empty() {
            break;
        }
        used += size;
        page.push(entry);
    }
    page
}

fn outline_entry(e: &Value) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), e["name"].clone());
    out.insert("kind".into(), e["kind"].clone());
    if let Some(owner) = e["owner"].as_str().filter(|o| !o.is_empty()) {
        out.insert("owner".into(), json!(owner));
    }
    if !e["level"].is_null() {
        out.insert("level".into(), e["level"].clone());
    }
    if let Some(l) = lines(e) {
        out.insert("lines".into(), json!(l));
    }
    if let Some(sig) = e["signature"].as_str().filter(|s| !s.trim().is_empty()) {
        out.insert("signature".into(), json!(shorten(&one_line(sig), SIGNATURE_CHARS)));
    }
    let d = doc(e);
    if !d.trim().is_empty() {
        out.insert("doc".into(), json!(first_sentence(&d, DOC_CHARS)));
    }
    Value::Object(out)
}

/// `Owner.name` of an element (its name when it has no owner).
fn qualified(e: &Value) -> String {
    let name = e["name"].as_str().unwrap_or_default();
    match e["owner"].as_str().filter(|o| !o.is_empty()) {
        Some(owner) => format!("{owner}.{name}"),
        None => name.to_string(),
    }
}

/// The elements a symbol names: `Owner.name` (or a tail of it) exactly,
/// then the bare name, then either ignoring case.
fn find<'a>(elements: &'a [Value], symbol: &str) -> Vec<&'a Value> {
    let wanted = symbol.trim().replace("::", ".").replace('#', ".");
    for ignore_case in [false, true] {
        let same = |a: &str, b: &str| if ignore_case { a.eq_ignore_ascii_case(b) } else { a == b };
        let found: Vec<&Value> = elements
            .iter()
            .filter(|e| {
                let q = qualified(e);
                let name = e["name"].as_str().unwrap_or_default();
                same(&q, &wanted)
                    || (q.len() > wanted.len()
                        && q.as_bytes()[q.len() - wanted.len() - 1] == b'.'
                        && same(&q[q.len() - wanted.len()..], &wanted))
                    || same(name, &wanted)
            })
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// One element in full, with its members' outline (paged by `offset`).
fn symbol_answer(
    mut answer: Value,
    elements: &[Value],
    symbol: &str,
    offset: usize,
    budget: usize,
    source: &Value,
) -> Result<Value, ToolError> {
    let found = find(elements, symbol);
    if found.is_empty() {
        let names: Vec<String> = elements.iter().take(30).map(qualified).collect();
        let more = elements.len().saturating_sub(names.len());
        return Err(ToolError::Invalid(format!(
            "no element named {symbol:?} in {}; its elements: {}{}",
            source["path"].as_str().unwrap_or_default(),
            names.join(", "),
            if more > 0 { format!(" … and {more} more (the outline lists them)") } else { String::new() }
        )));
    }
    answer["symbol"] = json!(symbol);
    let owners: Vec<String> = found.iter().map(|e| qualified(e)).collect();
    let members: Vec<&Value> =
        elements.iter().filter(|e| e["owner"].as_str().is_some_and(|o| owners.iter().any(|q| q == o))).collect();
    let mut matches: Vec<Value> = found.iter().map(|e| full_entry(e)).collect();
    // Docs longer than half the budget are cut (the file's lines hold them whole).
    let doc_room = budget / 2 / matches.len().max(1);
    let mut cut_docs = false;
    for m in &mut matches {
        if let Some(d) = m["doc"].as_str().filter(|d| d.len() > doc_room) {
            m["doc"] = json!(format!("{}…", crate::budget::cut_bytes(d, doc_room)));
            cut_docs = true;
        }
    }
    answer["matches"] = json!(matches);
    let mut notes = Vec::new();
    if cut_docs {
        notes.push(
            "a doc comment is cut to the answer budget: get_file_content of the element's lines has it whole"
                .to_string(),
        );
    }
    if !members.is_empty() {
        let offset = offset.min(members.len());
        answer["total_members"] = json!(members.len());
        let page = outline_page(members[offset..].iter().copied(), budget.saturating_sub(json_len(&answer) + RESERVE));
        let next = offset + page.len();
        answer["members"] = Value::Array(page);
        answer["truncated"] = json!(next < members.len());
        if next < members.len() {
            answer["next_offset"] = json!(next);
            notes.push(format!("members {}-{next} of {}: offset {next} goes on", offset + 1, members.len()));
        }
    }
    if !notes.is_empty() {
        answer["note"] = json!(notes.join("; "));
    }
    Ok(answer)
}

/// `{name, kind, owner?, lines, signature, doc?}`, whole.
fn full_entry(e: &Value) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), e["name"].clone());
    out.insert("kind".into(), e["kind"].clone());
    if let Some(owner) = e["owner"].as_str().filter(|o| !o.is_empty()) {
        out.insert("owner".into(), json!(owner));
    }
    if let Some(l) = lines(e) {
        out.insert("lines".into(), json!(l));
    }
    if let Some(sig) = e["signature"].as_str() {
        out.insert("signature".into(), json!(sig));
    }
    let d = doc(e);
    if !d.trim().is_empty() {
        out.insert("doc".into(), json!(d));
    }
    Value::Object(out)
}

/// The frontmatter's title and description (the rest is counted).
pub fn frontmatter(fm: &Value) -> Option<Value> {
    let map = fm.as_object()?;
    let mut out = Map::new();
    for key in FRONTMATTER_KEYS {
        if let Some(v) = map.get(*key) {
            out.insert((*key).into(), json!(shorten(v.as_str().unwrap_or_default(), 300)));
        }
    }
    let other = map.len() - out.len();
    if other > 0 {
        out.insert("other_keys".into(), json!(other));
    }
    Some(Value::Object(out))
}
