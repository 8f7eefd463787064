//! `get_file_ast`'s answer: the file's outline. Each element (function,
//! class, struct, enum, interface, variable, heading), in file order, gives
//! its name, kind, owner, line range, a signature cut to
//! [`SIGNATURE_CHARS`] and its doc summary; imports are a count and the
//! first [`FIRST_IMPORTS`]. The elements that fit the answer budget come
//! first, `offset` (the answer's `next_offset`) gives the next page.
//! `symbol` (a name or `Owner.name`) gives the elements of that name in
//! full (signature, whole doc comment) with their members' outline.

use serde::Deserialize;
use vibe_common::document::ast::{AstData, LineRange};

use crate::answers::{FileAnswer, Frontmatter, ImportsShown, IndexedFile, Outline, OutlineElement};
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

/// An element of the file as the outline tells it: a code element, or a
/// Markdown heading (kind `heading`, with its level).
struct Item {
    name: String,
    kind: String,
    owner: Option<String>,
    level: Option<u64>,
    line: Option<LineRange>,
    signature: String,
    /// The doc comments, joined.
    doc: String,
}

/// What an outline reads of an AST document's `_source`: its `ast`, as the
/// type the indexer writes (empty when it does not read as one).
#[derive(Deserialize, Default)]
#[serde(default)]
pub struct AstSource {
    pub ast: AstData,
}

pub fn answer(ast: &AstData, file: &IndexedFile, args: &Args, budget: usize) -> Result<FileAnswer<Outline>, ToolError> {
    let mut answer = FileAnswer::of(file, Outline::default());
    let elements = elements(ast);
    if let Some(symbol) = args.symbol.as_deref().filter(|q| !q.trim().is_empty()) {
        symbol_answer(&mut answer, &elements, symbol, args.offset as usize, budget)?;
        return Ok(answer);
    }
    let outline = &mut answer.body;
    outline.license = ast.license.clone();
    outline.header = ast.header_comments.first().map(|h| first_sentence(h, DOC_CHARS));
    outline.frontmatter = ast.frontmatter.as_ref().map(frontmatter);
    if !ast.imports.is_empty() {
        let first = ast.imports.iter().take(FIRST_IMPORTS).cloned().collect();
        outline.imports = Some(ImportsShown { total: ast.imports.len() as u64, first });
    }
    outline.links_total = Some(ast.links.len() as u64).filter(|n| *n > 0);
    outline.code_blocks_total = Some(ast.code_blocks.len() as u64).filter(|n| *n > 0);
    let total = elements.len();
    let offset = (args.offset as usize).min(total);
    outline.total_elements = Some(total as u64);
    let page = outline_page(&elements[offset..], budget.saturating_sub(json_len(&answer) + RESERVE));
    let next = offset + page.len();
    let outline = &mut answer.body;
    outline.elements = Some(page);
    outline.truncated = Some(next < total);
    if next < total {
        outline.next_offset = Some(next as u64);
        outline.note = Some(format!(
            "elements {}-{next} of {total} (the answer budget is {budget} bytes): offset {next} goes on; symbol gives one element in full",
            offset + 1
        ));
    }
    Ok(answer)
}

/// Every element of the AST in file order: code elements and Markdown
/// headings.
fn elements(ast: &AstData) -> Vec<Item> {
    // Kinds are told classes first (the order of equal line ranges).
    let lists = [&ast.classes, &ast.interfaces, &ast.structs, &ast.enums, &ast.functions, &ast.variables];
    let mut out: Vec<Item> = lists
        .into_iter()
        .flatten()
        .map(|e| Item {
            name: e.name.clone(),
            kind: e.kind.name().to_string(),
            owner: e.owner.clone().filter(|o| !o.is_empty()),
            level: None,
            line: e.line,
            signature: e.signature.clone(),
            doc: e.comments.join("\n\n"),
        })
        .collect();
    out.extend(ast.headings.iter().map(|h| Item {
        name: h.title.clone(),
        kind: "heading".into(),
        owner: None,
        level: Some(u64::from(h.level)),
        line: h.line,
        signature: String::new(),
        doc: String::new(),
    }));
    out.sort_by_key(|e| (e.line.map_or(u32::MAX, |l| l.start), e.line.map_or(0, |l| l.end)));
    out
}

/// `312-380` (or `12` for one line).
fn lines(e: &Item) -> Option<String> {
    let l = e.line?;
    Some(if l.end > l.start { format!("{}-{}", l.start, l.end) } else { l.start.to_string() })
}

/// A signature on one line, whitespace collapsed.
fn one_line(signature: &str) -> String {
    signature.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The outline entries of `items`, from the first, while they fit in
/// `room` bytes (at least one, so a page always moves on).
fn outline_page<'a>(items: impl IntoIterator<Item = &'a Item>, room: usize) -> Vec<OutlineElement> {
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

/// `{name, kind, owner?, level?, lines, signature?, doc?}`, short.
fn outline_entry(e: &Item) -> OutlineElement {
    OutlineElement {
        name: e.name.clone(),
        kind: e.kind.clone(),
        owner: e.owner.clone(),
        level: e.level,
        lines: lines(e),
        signature: Some(&e.signature).filter(|s| !s.trim().is_empty()).map(|s| shorten(&one_line(s), SIGNATURE_CHARS)),
        doc: Some(&e.doc).filter(|d| !d.trim().is_empty()).map(|d| first_sentence(d, DOC_CHARS)),
        ..OutlineElement::default()
    }
}

/// `Owner.name` of an element (its name when it has no owner).
fn qualified(e: &Item) -> String {
    match &e.owner {
        Some(owner) => format!("{owner}.{}", e.name),
        None => e.name.clone(),
    }
}

/// The elements a symbol names: `Owner.name` (or a tail of it) exactly,
/// then the bare name, then either ignoring case.
fn find<'a>(elements: &'a [Item], symbol: &str) -> Vec<&'a Item> {
    let wanted = symbol.trim().replace("::", ".").replace('#', ".");
    for ignore_case in [false, true] {
        let same = |a: &str, b: &str| if ignore_case { a.eq_ignore_ascii_case(b) } else { a == b };
        let found: Vec<&Item> = elements
            .iter()
            .filter(|e| {
                let q = qualified(e);
                let name = e.name.as_str();
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
    answer: &mut FileAnswer<Outline>,
    elements: &[Item],
    symbol: &str,
    offset: usize,
    budget: usize,
) -> Result<(), ToolError> {
    let found = find(elements, symbol);
    if found.is_empty() {
        let names: Vec<String> = elements.iter().take(30).map(qualified).collect();
        let more = elements.len().saturating_sub(names.len());
        return Err(ToolError::Invalid(format!(
            "no element named {symbol:?} in {}; its elements: {}{}",
            answer.path,
            names.join(", "),
            if more > 0 { format!(" … and {more} more (the outline lists them)") } else { String::new() }
        )));
    }
    answer.body.symbol = Some(symbol.to_string());
    let owners: Vec<String> = found.iter().map(|e| qualified(e)).collect();
    let members: Vec<&Item> =
        elements.iter().filter(|e| e.owner.as_ref().is_some_and(|o| owners.iter().any(|q| q == o))).collect();
    let mut matches: Vec<OutlineElement> = found.iter().map(|e| full_entry(e)).collect();
    // Docs longer than half the budget are cut (the file's lines hold them whole).
    let doc_room = budget / 2 / matches.len().max(1);
    let mut notes = Vec::new();
    for doc in matches.iter_mut().filter_map(|m| m.doc.as_mut()).filter(|d| d.len() > doc_room) {
        *doc = format!("{}…", crate::budget::cut_bytes(doc, doc_room));
        if notes.is_empty() {
            notes.push(
                "a doc comment is cut to the answer budget: get_file_content of the element's lines has it whole"
                    .to_string(),
            );
        }
    }
    answer.body.matches = Some(matches);
    if !members.is_empty() {
        let offset = offset.min(members.len());
        answer.body.total_members = Some(members.len() as u64);
        let page = outline_page(members[offset..].iter().copied(), budget.saturating_sub(json_len(&*answer) + RESERVE));
        let next = offset + page.len();
        let outline = &mut answer.body;
        outline.members = Some(page);
        outline.truncated = Some(next < members.len());
        if next < members.len() {
            outline.next_offset = Some(next as u64);
            notes.push(format!("members {}-{next} of {}: offset {next} goes on", offset + 1, members.len()));
        }
    }
    answer.body.note = (!notes.is_empty()).then(|| notes.join("; "));
    Ok(())
}

/// `{name, kind, owner?, lines, signature, doc?}`, whole.
fn full_entry(e: &Item) -> OutlineElement {
    OutlineElement {
        name: e.name.clone(),
        kind: e.kind.clone(),
        owner: e.owner.clone(),
        lines: lines(e),
        signature: (e.kind != "heading").then(|| e.signature.clone()),
        doc: Some(&e.doc).filter(|d| !d.trim().is_empty()).cloned(),
        ..OutlineElement::default()
    }
}

/// The frontmatter's title and description (the rest is counted).
pub fn frontmatter(fm: &std::collections::BTreeMap<String, String>) -> Frontmatter {
    let kept = |key: &str| FRONTMATTER_KEYS.contains(&key).then(|| fm.get(key)).flatten().map(|v| shorten(v, 300));
    let other = fm.keys().filter(|k| !FRONTMATTER_KEYS.contains(&k.as_str())).count();
    Frontmatter {
        title: kept("title"),
        description: kept("description"),
        other_keys: Some(other as u64).filter(|n| *n > 0),
    }
}
