//! The text content of every answer, rendered once, here: compact plain
//! text written for a model (`mcp.answer_format: "text"`, the default), or
//! the answer's compact JSON (`"json"`, for clients that parse the text).
//! `structuredContent` always carries the typed answer under the tool's
//! `outputSchema`; the text is what a model reads, so it leaves out what
//! only a program needs (hashes, timestamps, languages, the query echoed)
//! and names the project once.
//!
//! The renderer works from the answer's type ([`Answer`]): a page of
//! results (each a file with its matches, lines, uses, types, imports or
//! sections), one file's lines or outline, and the answers about the whole
//! index as `key: value` lines (`key_values`).

use std::fmt::Write;

mod code_lines;
mod entries;
mod key_values;

use code_lines::{common_indent, numbered};
pub use code_lines::{is_comment, span, spans, spans_text};
use entries::{entry, Doc, Item};
use key_values::{write_fields, Field, KeyValues};
use vibe_common::config::AnswerFormat;

use crate::answers::{
    Answer, Content, DocResult, FileAnswer, FileResult, Freshness, ImportsFound, Listed, MapMatches, NamedValue,
    Outline, Page, SymbolsFound, TextFound, TreeAnswer, Uses,
};

/// The text content of an answer in `format`. `project_named`: the call
/// named its project (`target`, or the project's endpoint), so an answer
/// from that one project does not name it again.
pub fn text(answer: &Answer, format: AnswerFormat, project_named: bool) -> String {
    match format {
        AnswerFormat::Json => serde_json::to_string(answer).unwrap_or_default(),
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

/// The plain-text rendering of an answer ([`text`]).
pub fn plain(answer: &Answer, project_named: bool) -> String {
    let mut out = String::new();
    let out_ = &mut out;
    match answer {
        Answer::Symbols(p) => page(out_, &PageHead::of(p, None), &p.results, project_named),
        Answer::Imports(p) => page(out_, &PageHead::of(p, None), &p.results, project_named),
        Answer::Documentation(p) => page(out_, &PageHead::of(p, None), &p.results, project_named),
        Answer::Text(p) => page(out_, &PageHead::of(p, p.more.first.map(|l| l.0)), &p.results, project_named),
        Answer::References(p) => {
            let mut head = PageHead::of(p, None);
            if !p.more.not_indexed.is_empty() {
                head.fields.push(("not_indexed", Field::List(p.more.not_indexed.clone())));
            }
            page(out_, &head, &p.results, project_named)
        }
        Answer::Tree(t @ TreeAnswer { results: Some(results), .. }) => {
            page(out_, &PageHead::of_map(t), results, project_named)
        }
        Answer::Content(f) => content(out_, f, project_named),
        Answer::Outline(f) => outline(out_, f, project_named),
        Answer::Sync(a) => write_fields(out_, "", &a.fields()),
        Answer::Projects(a) => write_fields(out_, "", &a.fields()),
        Answer::Stats(a) => write_fields(out_, "", &a.fields()),
        Answer::Tree(a) => write_fields(out_, "", &a.fields()),
        Answer::OverBudget(a) => write_fields(out_, "", &a.fields()),
    }
    out.truncate(out.trim_end().len());
    out
}

/// What a page says before its results: how many there are and where it
/// goes on, its note, and its other fields.
struct PageHead<'a> {
    total: u64,
    next_offset: Option<u64>,
    /// Where the page starts when its offset counts something else
    /// (`search_code_text` counts candidate files).
    first: Option<u64>,
    note: Option<&'a str>,
    fields: Vec<(&'static str, Field)>,
}

impl<'a> PageHead<'a> {
    fn of<R, X>(page: &'a Page<R, X>, first: Option<u64>) -> Self {
        PageHead { total: page.total, next_offset: page.next_offset, first, note: page.note.as_deref(), fields: vec![] }
    }

    fn of_map(tree: &'a TreeAnswer) -> Self {
        let shown = tree.results.as_ref().map_or(0, Vec::len) as u64;
        let text = |key, value: &Option<String>| value.clone().map(|v| (key, Field::Text(v)));
        PageHead {
            total: tree.total.unwrap_or(shown),
            next_offset: None,
            first: None,
            note: tree.note.as_deref(),
            fields: [text("target", &tree.target), text("path", &tree.path)].into_iter().flatten().collect(),
        }
    }
}

/// A page of search results: what is shown of how many, the project once
/// (unless the call named it), then each file.
fn page<R: Shows>(out: &mut String, head: &PageHead, results: &[R], project_named: bool) {
    let shown = results.len() as u64;
    let (total, next) = (head.total, head.next_offset);
    let first = head.first.unwrap_or_else(|| next.map_or(total.saturating_sub(shown), |n| n - shown.min(n)) + 1);
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
    note(out, head.note);
    let one_project = results.windows(2).all(|w| w[0].project() == w[1].project());
    if let (true, false, Some(r)) = (one_project, project_named, results.first()) {
        let _ = writeln!(out, "project: {}", r.project());
    }
    write_fields(out, "", &head.fields);
    for r in results {
        if !out.is_empty() {
            out.push('\n');
        }
        result(out, r, !one_project);
    }
}

/// What a result of a page shows beside its file: its lists of entries
/// (in this order: matches, lines holding words, uses, calls, types,
/// sections), its imports, and its other fields.
trait Shows: Listed {
    fn title(&self) -> Option<&str> {
        None
    }
    fn lists(&self) -> Vec<Vec<Item<'_>>>;
    fn imports(&self) -> Option<&[String]> {
        None
    }
    /// The named values the result's lines read, shown after them.
    fn values(&self) -> &[NamedValue] {
        &[]
    }
    /// The result's other fields, in the order the answer gives them.
    fn fields(&self) -> Vec<(&'static str, Field)>;
}

/// What matched in one file of a page ([`Shows`] of a [`FileResult`]).
trait Found {
    fn lists(&self) -> Vec<Vec<Item<'_>>>;
    fn imports(&self) -> Option<&[String]> {
        None
    }
    fn values(&self) -> &[NamedValue] {
        &[]
    }
    fn fields(&self) -> Vec<(&'static str, Field)>;
}

impl<M: Found> Shows for FileResult<M> {
    fn lists(&self) -> Vec<Vec<Item<'_>>> {
        self.found.lists()
    }
    fn imports(&self) -> Option<&[String]> {
        self.found.imports()
    }
    fn values(&self) -> &[NamedValue] {
        self.found.values()
    }
    fn fields(&self) -> Vec<(&'static str, Field)> {
        let mut fields = self.found.fields();
        fields.extend(same_content(&self.freshness));
        fields
    }
}

impl Found for SymbolsFound {
    fn lists(&self) -> Vec<Vec<Item<'_>>> {
        vec![self.matches.iter().map(Item::Definition).collect(), self.word_lines.iter().map(Item::Line).collect()]
    }
    fn fields(&self) -> Vec<(&'static str, Field)> {
        Field::count("more_matches", self.more_matches).into_iter().collect()
    }
}

impl Found for TextFound {
    fn lists(&self) -> Vec<Vec<Item<'_>>> {
        vec![self.matches.iter().map(Item::Line).collect()]
    }
    fn values(&self) -> &[NamedValue] {
        &self.values
    }
    fn fields(&self) -> Vec<(&'static str, Field)> {
        Field::count("more_matches", self.more_matches).into_iter().collect()
    }
}

impl Found for Uses {
    fn lists(&self) -> Vec<Vec<Item<'_>>> {
        vec![
            self.references.iter().flatten().map(Item::Use).collect(),
            self.calls.iter().flatten().map(Item::Call).collect(),
            self.types.iter().flatten().map(Item::Type).collect(),
        ]
    }
    fn fields(&self) -> Vec<(&'static str, Field)> {
        let counts =
            [Field::count("more_references", self.more_references), Field::count("more_calls", self.more_calls)];
        counts.into_iter().flatten().collect()
    }
}

impl Found for ImportsFound {
    fn lists(&self) -> Vec<Vec<Item<'_>>> {
        Vec::new()
    }
    fn imports(&self) -> Option<&[String]> {
        Some(&self.imports)
    }
    fn fields(&self) -> Vec<(&'static str, Field)> {
        Field::count("more_imports", self.more_imports).into_iter().collect()
    }
}

impl Found for MapMatches {
    fn lists(&self) -> Vec<Vec<Item<'_>>> {
        vec![self.matches.iter().map(Item::Mapped).collect()]
    }
    fn fields(&self) -> Vec<(&'static str, Field)> {
        Vec::new()
    }
}

impl Shows for DocResult {
    fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }
    fn lists(&self) -> Vec<Vec<Item<'_>>> {
        vec![self.sections.iter().map(Item::Section).collect()]
    }
    fn fields(&self) -> Vec<(&'static str, Field)> {
        let mut fields: Vec<(&'static str, Field)> = Vec::new();
        fields.extend(self.description.clone().map(|d| ("description", Field::Text(d))));
        fields.extend(Field::count("more_sections", self.more_sections));
        if !self.other_headings.is_empty() {
            fields.push(("other_headings", Field::List(self.other_headings.clone())));
        }
        fields.push(("headings_total", Field::Number(self.headings_total)));
        fields.extend(same_content(&self.freshness));
        fields
    }
}

/// The other files with the same content, when there are.
fn same_content(freshness: &Freshness) -> Option<(&'static str, Field)> {
    (!freshness.same_content.is_empty()).then(|| ("same_content", Field::List(freshness.same_content.clone())))
}

/// One file of a page: its path, then what matched in it. A file whose one
/// match is a definition says its lines on the path's line, as grep does:
/// `json/scanner.py:65-80 scan_once`.
fn result<R: Shows>(out: &mut String, r: &R, name_project: bool) {
    out.push_str(r.path());
    let bare_path = out.len();
    if name_project {
        let _ = write!(out, " (project {})", r.project());
    }
    out.push_str(disk_mark(r.freshness()));
    if let Some(title) = r.title() {
        let _ = write!(out, " — {title}");
    }
    let lists = r.lists();
    if let Some(definition) = only_definition(&lists).filter(|_| out.len() == bare_path) {
        let mut one = String::new();
        entry(&mut one, definition, "", 0, Doc::Gist);
        if let Some(rest) = one.strip_prefix('L') {
            let _ = write!(out, ":{rest}");
            rest_of_result(out, r);
            return;
        }
    }
    out.push('\n');
    for items in &lists {
        list(out, items);
    }
    rest_of_result(out, r);
}

/// A list of a result's entries. Text hits and uses with their line's
/// text say the definition they are in, once for a run of hits in it (a
/// context line stays in its hit's run; a hit in none ends it).
fn list(out: &mut String, items: &[Item]) {
    let mut inside: Option<&str> = None;
    let mut previous: Option<Item> = None;
    let margin = common_indent(items.iter().filter(|i| i.is_line_hit()).filter_map(|i| i.text()));
    for &item in items {
        let hit = item.is_line_hit() && item.text().is_some();
        if hit && !item.is_context() {
            let within = item.within();
            if within.is_some() && within != inside {
                let _ = writeln!(out, "  in {}:", within.unwrap_or_default());
            }
            inside = within;
        }
        let indent = if hit && inside.is_some() { "    " } else { "  " };
        // An overload's doc repeats the one said above it.
        let doc = if previous.is_some_and(|p| p.same_definition(item)) { Doc::Said } else { Doc::Gist };
        entry(out, item, indent, margin, doc);
        previous = Some(item);
    }
}

/// A result's imports and other fields, after its entries.
fn rest_of_result<R: Shows>(out: &mut String, r: &R) {
    entries::named_values(out, r.values(), "  ");
    if let Some(imports) = r.imports() {
        let _ = writeln!(out, "  imports: {}", imports.join(", "));
    }
    write_fields(out, "  ", &r.fields());
}

/// The result's one entry when it is a definition with its lines (not a
/// text hit or a use) and nothing else is listed.
fn only_definition<'a>(lists: &[Vec<Item<'a>>]) -> Option<Item<'a>> {
    let mut items = lists.iter().flatten();
    let first = *items.next()?;
    (items.next().is_none() && first.is_definition_with_lines()).then_some(first)
}

/// What a file's path says of it when it changed or went away on disk
/// since it was indexed; empty when it did not.
fn disk_mark(freshness: &Freshness) -> &'static str {
    match (freshness.stale == Some(true), freshness.deleted == Some(true)) {
        (true, true) => " [deleted on disk since indexed]",
        (true, false) => " [changed on disk since indexed]",
        _ => "",
    }
}

/// One file's first line: its path, its project (unless the call named
/// it) and what the disk says of it; then the answer's note.
fn file_head<B>(out: &mut String, file: &FileAnswer<B>, note_text: Option<&str>, project_named: bool) {
    let _ = write!(out, "{}", file.path);
    if let Some(root) = file.root.as_deref().filter(|_| !project_named) {
        let _ = write!(out, " (project {root})");
    }
    out.push_str(disk_mark(&file.freshness));
    out.push('\n');
    note(out, note_text);
}

/// A file's lines (`get_file_content`): which of how many, where the next
/// page starts, then the lines numbered (a part of one long line as it is).
fn content(out: &mut String, file: &FileAnswer<Content>, project_named: bool) {
    let c = &file.body;
    file_head(out, file, c.note.as_deref(), project_named);
    let start = c.start_line.map_or(1, |l| l.0);
    let mut fields: Vec<(&'static str, Field)> = Vec::new();
    match (c.total_lines, c.end_line) {
        (Some(total), Some(end)) => {
            let _ = writeln!(out, "lines {start}-{} of {total}", end.0);
        }
        _ => fields.extend(Field::count("total_lines", c.total_lines)),
    }
    fields.extend(Field::count("start_char", c.start_char.map(|l| l.0)));
    fields.extend(Field::count("end_char", c.end_char));
    fields.extend(Field::count("line_chars", c.line_chars));
    fields.extend(Field::count("next_start_line", c.next_start_line.map(|l| l.0)));
    fields.extend(Field::count("next_start_char", c.next_start_char.map(|l| l.0)));
    if !c.shortened_lines.is_empty() {
        fields.push(("shortened_lines", Field::List(c.shortened_lines.iter().map(|l| l.0.to_string()).collect())));
    }
    fields.extend(file.message.clone().map(|m| ("message", Field::Text(m))));
    write_fields(out, "", &fields);
    if c.start_char.is_some() {
        out.push_str(&c.content);
        out.push('\n');
    } else {
        numbered(out, &c.content, start);
    }
}

/// A file's outline (`get_file_ast`): what it holds in all, then its
/// elements, or the elements `symbol` names in full and their members.
fn outline(out: &mut String, file: &FileAnswer<Outline>, project_named: bool) {
    let o = &file.body;
    file_head(out, file, o.note.as_deref(), project_named);
    let text = |key, value: &Option<String>| value.clone().map(|v| (key, Field::Text(v)));
    let mut fields: Vec<(&'static str, Field)> = Vec::new();
    fields.extend(text("license", &o.license));
    fields.extend(text("header", &o.header));
    if let Some(fm) = &o.frontmatter {
        let inner = [text("title", &fm.title), text("description", &fm.description)].into_iter().flatten();
        let inner = inner.chain(Field::count("other_keys", fm.other_keys)).collect();
        fields.push(("frontmatter", Field::Object(inner)));
    }
    if let Some(imports) = &o.imports {
        let inner = vec![("total", Field::Number(imports.total)), ("first", Field::List(imports.first.clone()))];
        fields.push(("imports", Field::Object(inner)));
    }
    fields.extend(Field::count("links_total", o.links_total));
    fields.extend(Field::count("code_blocks_total", o.code_blocks_total));
    fields.extend(Field::count("total_elements", o.total_elements));
    fields.extend(text("symbol", &o.symbol));
    fields.extend(Field::count("total_members", o.total_members));
    fields.extend(Field::count("next_offset", o.next_offset));
    fields.extend(text("message", &file.message));
    write_fields(out, "", &fields);
    for (elements, title) in [(&o.matches, ""), (&o.elements, ""), (&o.members, "members:\n")] {
        if let Some(elements) = elements {
            out.push_str(title);
            for e in elements {
                entry(out, Item::Element(e), "  ", 0, Doc::Whole);
            }
        }
    }
}

/// The answer's note, first: what was cut or how it was found.
fn note(out: &mut String, note: Option<&str>) {
    if let Some(note) = note.filter(|n| !n.is_empty()) {
        let _ = writeln!(out, "note: {note}");
    }
}

/// Whitespace runs (newlines too) as one space.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod render_tests;
