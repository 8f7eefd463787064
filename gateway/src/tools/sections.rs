//! The sections of a Markdown document, read with `pulldown-cmark`: each
//! heading and the text under it, as a model would read the rendered page.
//! Links and images are their text, entities are decoded, emphasis marks,
//! link reference definitions, footnote marks and frontmatter are no text;
//! the HTML a README writes (badges, centred logos, `<br>`, comments) is no
//! text either, while `Vec<T>` stays. Used by [`super::passages`].

use std::ops::Range;

use pulldown_cmark::{BrokenLink, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};

/// One section of a document: the text under a heading, up to the next one.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// 0 for the text before the first heading.
    pub level: u8,
    pub title: String,
    /// 1-based lines of the file: the heading's line to the section's last.
    pub start: usize,
    pub end: usize,
    /// The section's text: one entry per paragraph, list item, table row or
    /// line of code.
    pub text: Vec<String>,
}

/// The sections of a Markdown text; text before the first heading is a
/// section of level 0 when there is any.
pub fn sections(content: &str) -> Vec<Section> {
    let lines = LineIndex::of(content);
    // GFM: alerts (`> [!NOTE]`) are quotes of a kind, not text.
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_GFM;
    let body = frontmatter_end(content);
    let parser = Parser::new_with_broken_link_callback(&content[body..], options, Some(reference_without_definition));
    let before_headings = Section { start: lines.line_of(body), ..Section::before_headings() };
    let mut reader = Reader { sections: vec![before_headings], ..Reader::default() };
    for (event, at) in parser.into_offset_iter() {
        reader.read(event, at.start + body..at.end + body, &lines);
    }
    reader.close_section(lines.count());
    reader.sections.retain(|s| s.level > 0 || !s.text.is_empty());
    reader.sections
}

/// A reference whose definition is not in the document is a link (its text
/// only) when it is written as one: `[text][label]`, `[text][]`, or a
/// rustdoc intra-doc link (`` [`serde::Deserialize`] ``, `[Instant::now]`);
/// `a[0]` and `[x]` stay as written.
fn reference_without_definition<'a>(link: BrokenLink<'a>) -> Option<(CowStr<'a>, CowStr<'a>)> {
    let written_as_link = match link.link_type {
        LinkType::Shortcut => link.reference.contains('`') || link.reference.contains("::"),
        _ => true,
    };
    written_as_link.then_some((CowStr::Borrowed(""), CowStr::Borrowed("")))
}

impl Section {
    fn before_headings() -> Section {
        Section { level: 0, title: String::new(), start: 1, end: 0, text: Vec::new() }
    }
}

/// The state of one pass over a document's events.
#[derive(Default)]
struct Reader {
    sections: Vec<Section>,
    /// The text entry (or heading title) being read.
    entry: String,
    in_heading: bool,
    in_code_block: bool,
    /// Inside a `<style>` or `<script>` element of an HTML block.
    in_raw_element: bool,
    /// A tag was dropped: words on both sides of it stay apart (`a<br>b`).
    gap: bool,
}

impl Reader {
    fn read(&mut self, event: Event, at: Range<usize>, lines: &LineIndex) {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                let start = lines.line_of(at.start);
                self.close_section(start - 1);
                self.sections.push(Section {
                    level: level as u8,
                    title: String::new(),
                    start,
                    end: start,
                    text: Vec::new(),
                });
                self.in_heading = true;
            }
            Event::End(TagEnd::Heading(_)) => {
                let title = collapse(&std::mem::take(&mut self.entry));
                if let Some(section) = self.sections.last_mut() {
                    section.title = title;
                }
                self.in_heading = false;
            }
            Event::Start(Tag::CodeBlock(_)) => {
                self.flush();
                self.in_code_block = true;
            }
            Event::End(TagEnd::CodeBlock) => self.in_code_block = false,
            Event::Text(text) if self.in_code_block => self.code_lines(&text),
            Event::Text(text) | Event::Code(text) => self.push(&text),
            Event::InlineHtml(html) => self.inline_html(&html),
            Event::Html(html) => self.html_block_line(&html),
            Event::SoftBreak | Event::HardBreak => self.entry.push(' '),
            Event::Start(tag) if !is_inline(tag.to_end()) => self.flush(),
            Event::End(TagEnd::TableCell) => self.entry.push_str(" | "),
            Event::End(tag) if !is_inline(tag) => self.flush(),
            _ => {}
        }
    }

    /// Text, kept apart from the word before a dropped tag.
    fn push(&mut self, text: &str) {
        let apart = self.gap && self.entry.ends_with(char::is_alphanumeric) && text.starts_with(char::is_alphanumeric);
        if apart {
            self.entry.push(' ');
        }
        self.gap = false;
        self.entry.push_str(text);
    }

    /// An inline tag: an element a README writes is no text (and keeps the
    /// words around it apart); anything else (`<T>` of `Vec<T>`) is text.
    fn inline_html(&mut self, html: &str) {
        match markup(html.strip_prefix('<').unwrap_or(html)) {
            Some(Markup::Tag(_)) => self.gap = true,
            Some(Markup::Autolink(url, _)) => self.push(url),
            None => self.push(html),
        }
    }

    /// A line of an HTML block: its text, but nothing of a `<style>` or
    /// `<script>` element.
    fn html_block_line(&mut self, html: &str) {
        let lower = html.trim_start().to_ascii_lowercase();
        if lower.starts_with("<style") || lower.starts_with("<script") {
            self.in_raw_element = true;
        }
        if !self.in_raw_element {
            self.push(&without_markup(html));
        }
        if lower.contains("</style>") || lower.contains("</script>") {
            self.in_raw_element = false;
        }
    }

    /// Each line of code is an entry of its own, as written.
    fn code_lines(&mut self, code: &str) {
        let Some(section) = self.sections.last_mut() else { return };
        section.text.extend(code.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_string));
    }

    /// The entry read so far joins its section's text (or is its title).
    fn flush(&mut self) {
        if self.in_heading {
            return;
        }
        let entry = collapse(std::mem::take(&mut self.entry).trim_end_matches([' ', '|']));
        self.gap = false;
        if let (false, Some(section)) = (entry.is_empty(), self.sections.last_mut()) {
            section.text.push(entry);
        }
    }

    /// The open section ends at line `end` (1-based).
    fn close_section(&mut self, end: usize) {
        self.flush();
        if let Some(section) = self.sections.last_mut() {
            section.end = end.max(section.start);
        }
    }
}

/// An element within a line of text (emphasis, a link, a table cell), not
/// one that starts a new entry.
fn is_inline(tag: TagEnd) -> bool {
    matches!(
        tag,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
            | TagEnd::TableCell
    )
}

/// The byte offset of the text after a frontmatter block (`---` or `+++`
/// on the first line, up to the same line or `...`); 0 without one.
fn frontmatter_end(content: &str) -> usize {
    let mut lines = content.split_inclusive('\n');
    let Some(first) = lines.next() else { return 0 };
    let fence = first.trim_start_matches('\u{feff}').trim_end();
    if !matches!(fence, "---" | "+++") {
        return 0;
    }
    let mut offset = first.len();
    for line in lines {
        offset += line.len();
        let t = line.trim_end();
        if t == fence || (fence == "---" && t == "...") {
            return offset;
        }
    }
    0
}

/// Runs of white space as one space, trimmed.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The 1-based line of a byte offset.
struct LineIndex {
    starts: Vec<usize>,
    lines: usize,
}

impl LineIndex {
    fn of(content: &str) -> LineIndex {
        let starts = std::iter::once(0).chain(content.match_indices('\n').map(|(i, _)| i + 1)).collect();
        LineIndex { starts, lines: content.lines().count() }
    }

    fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|s| *s <= offset)
    }

    /// Lines of the text.
    fn count(&self) -> usize {
        self.lines
    }
}

/// HTML elements a README writes (badges, centred logos, footnote marks).
const HTML_TAGS: &[&str] = &[
    "a", "abbr", "b", "br", "center", "code", "dd", "details", "div", "dl", "dt", "em", "h1", "h2", "h3", "h4", "h5",
    "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "picture", "pre", "source", "span", "strong", "sub", "summary",
    "sup", "table", "tbody", "td", "th", "thead", "tr", "u", "ul",
];

/// What follows a `<` in HTML.
enum Markup<'a> {
    /// An HTML tag or comment of this many bytes after the `<` (to the end
    /// of the text when it does not close there): no text.
    Tag(usize),
    /// `<https://…>`: the URL, and the bytes after the `<` up to its `>`.
    Autolink(&'a str, usize),
}

/// The markup that starts after a `<` (`rest`), if it is one: a comment, a
/// tag of [`HTML_TAGS`] (`Vec<T>` and `Option<u8>` are no tags) or an autolink.
fn markup(rest: &str) -> Option<Markup<'_>> {
    let to_end = |from: usize, end: &str| rest[from..].find(end).map_or(rest.len(), |i| from + i + end.len());
    if rest.starts_with("!--") {
        return Some(Markup::Tag(to_end(3, "-->")));
    }
    let name_at = usize::from(rest.starts_with('/'));
    let name_len = rest[name_at..].find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len() - name_at);
    let name = &rest[name_at..name_at + name_len];
    let after = rest[name_at + name_len..].chars().next();
    if HTML_TAGS.contains(&name) && after.is_none_or(|c| c.is_whitespace() || matches!(c, '>' | '/')) {
        return Some(Markup::Tag(to_end(name_at + name_len, ">")));
    }
    let close = rest.find('>')?;
    let url = &rest[..close];
    let scheme = ["https://", "http://", "mailto:"].iter().any(|s| url.starts_with(s));
    (scheme && !url.contains([' ', '<'])).then_some(Markup::Autolink(url, close + 1))
}

/// The text of a block of HTML: its tags and comments dropped (words on
/// both sides of one kept apart), an autolink as its URL.
fn without_markup(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        rest = &rest[lt + 1..];
        match markup(rest) {
            Some(Markup::Tag(len)) => {
                rest = &rest[len..];
                if out.ends_with(char::is_alphanumeric) && rest.starts_with(char::is_alphanumeric) {
                    out.push(' ');
                }
            }
            Some(Markup::Autolink(url, len)) => {
                out.push_str(url);
                rest = &rest[len..];
            }
            None => out.push('<'),
        }
    }
    out.push_str(rest);
    out.replace('\n', " ")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) const DOC: &str = "---\ntitle: Release\nknowledge: true\n---\n# Release process\n\nHow we ship.\n\n## Versioning\n\nWe use semantic versioning. Each release bumps the minor number. Patches fix bugs only.\n\n```\n# not a heading\n```\n\nSteps\n-----\n\n1. Tag the **commit**.\n2. Publish the [package](https://x).\n";

    fn text(doc: &str) -> Vec<String> {
        sections(doc).into_iter().flat_map(|s| s.text).collect()
    }

    #[test]
    fn sections_of_a_document() {
        let s = sections(DOC);
        let titles: Vec<(&str, u8, usize, usize)> =
            s.iter().map(|s| (s.title.as_str(), s.level, s.start, s.end)).collect();
        assert_eq!(titles, [("Release process", 1, 5, 8), ("Versioning", 2, 9, 16), ("Steps", 2, 17, 21)]);
        assert_eq!(s[2].text, ["Tag the commit.", "Publish the package."]);
        assert!(s[1].text.iter().any(|t| t == "# not a heading"));
        // Text before the first heading, after the frontmatter.
        let s = sections("+++\nx = 1\n+++\nIntro line\nwrapped.\n\n# A\nbody");
        assert_eq!(
            (s[0].level, s[0].start, s[0].end, s[0].text.clone()),
            (0, 4, 6, vec!["Intro line wrapped.".into()])
        );
        assert_eq!((s[1].start, s[1].end), (7, 8));
        // A `---` further down is a rule, and `---` blocks after it are no frontmatter.
        let s = sections("# Changes\n\nAll of them.\n\n---\n## 2.0.1\n\n### Other\n\n- a fix\n\n---\n## 2.0.0\n");
        let titles: Vec<&str> = s.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["Changes", "2.0.1", "Other", "2.0.0"]);
        // A GitHub alert is a quote of a kind: its text, without the marker.
        assert_eq!(text("# x\n\n> [!WARNING]\n> Replaced by `cfg_select!`.\n"), ["Replaced by cfg_select!."]);
    }

    #[test]
    fn links_of_every_form_read_as_their_text_and_definitions_as_nothing() {
        let doc = "# Serde\n\nImplements [`serde::Deserialize`] and [Serialize][ser] for [SystemTime][].\n\
                   See ![the logo](logo.png) and the [guide](https://x.org/a_(b)).\n\
                   Read [^1] and a[0] in [brackets].\n\n[ser]: https://docs.rs/serde\n  [MSRV]: #msrv \"title\"\n\
                   [^1]: A footnote is text.\n";
        assert_eq!(
            text(doc),
            [
                "Implements serde::Deserialize and Serialize for SystemTime. See the logo and the guide. Read and a[0] in [brackets].",
                "A footnote is text."
            ]
        );
        // A badge whose link destination runs on to the next line.
        let badges = "# x\n\n[![Build](https://a/b%20c/badge.svg)](\nhttps://a/actions)\n[![Docs](https://d/badge.svg)](\nhttps://d) and text.\n";
        assert_eq!(text(badges), ["Build Docs and text."]);
    }

    #[test]
    fn html_and_entities_read_as_the_page_shows_them() {
        // HTML reads as its text; generics are no tags; an autolink is its URL.
        let html = "# x\n\n<p align=\"center\"><img src=\"logo.svg\" width=\"50%\"/></p>\n<!-- cargo-rdme start -->\n\
                    Use <b>Vec<T></b> or Option<u8>, see <https://docs.rs/x> and a<br>b <i>c</i>.\n";
        assert_eq!(text(html), ["Use Vec<T> or Option<u8>, see https://docs.rs/x and a b c."]);
        let inline = "# x\n\nUse <b>Vec<T></b> or Option<u8>, see <https://docs.rs/x> and a<br>b <i>c</i>.\n";
        assert_eq!(text(inline), ["Use Vec<T> or Option<u8>, see https://docs.rs/x and a b c."]);
        let style = "<style>\n.hidden { display: none; }\n</style>\n\n# rmcp\n\n<script>x()</script>\n\nText.\n";
        assert_eq!(text(style), ["Text."]);
        // A code span keeps its brackets, stars, underscores and angle brackets.
        let code = "# x\n\nCall `m[i][j]` with `**kwargs`, `__init__` and `<br>`, not **this**.\n";
        assert_eq!(text(code), ["Call m[i][j] with **kwargs, __init__ and <br>, not this."]);
        let entities = "# x\n\n2&times;2&ensp;&mdash; a&nbsp;b &lt;T&gt; &#169; `&amp;`\n";
        assert_eq!(text(entities), ["2×2 — a b <T> © &amp;"]);
    }

    #[test]
    fn empty_and_unfinished_documents() {
        assert_eq!(sections(""), []);
        assert_eq!(sections("---\ntitle: x\n---\n"), []);
        // A frontmatter never closed is text; a heading without a line break ends the file.
        assert_eq!(text("---\ntitle: x\n"), ["title: x"]);
        let s = sections("# A");
        assert_eq!((s[0].title.as_str(), s[0].start, s[0].end), ("A", 1, 1));
        let s = sections("\u{feff}---\na: 1\n---\n# B\r\ntext\r\n");
        assert_eq!(
            (s[0].title.as_str(), s[0].start, s[0].end, s[0].text.clone()),
            ("B", 4, 5, vec!["text".to_string()])
        );
    }

    #[test]
    fn tables_quotes_and_lists_are_entries_of_their_own() {
        let doc = "# x\n\n| a | b |\n|---|---|\n| 1 | **2** |\n\n> quoted\n> on\n\n- one\n  more\n- two\n";
        assert_eq!(text(doc), ["a | b", "1 | 2", "quoted on", "one more", "two"]);
    }
}
