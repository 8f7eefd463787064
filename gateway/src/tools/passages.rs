//! The part of a Markdown document that matched a question: its sections
//! (read from the stored text: ATX and setext headings, fenced code left
//! alone, frontmatter skipped), each scored by the query's words in its
//! heading and text, and the sentence of the best section that holds most
//! of them, quoted. Used by `search_documentation`; uses no tool.

use crate::budget::{cut_chars, shorten};
use crate::template_params::{analyze, is_cjk};

/// Characters of a quoted passage.
pub const PASSAGE_CHARS: usize = 240;

/// One section of a document: the text under a heading, up to the next one.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// 0 for the text before the first heading.
    pub level: u8,
    pub title: String,
    /// 1-based lines of the file: the heading's line to the section's last.
    pub start: usize,
    pub end: usize,
    /// The section's text, one entry per line (Markdown marks stripped).
    pub text: Vec<String>,
}

/// What to look for: the query's words (their prefix for long ones, lower
/// case) and the two-character runs of its CJK text.
pub fn terms(query: &str) -> Vec<String> {
    let a = analyze(query);
    let mut out: Vec<String> = a.words.iter().map(|w| w.prefix.clone().unwrap_or_else(|| w.word.clone())).collect();
    let mut run: Vec<char> = Vec::new();
    for c in query.chars().chain(std::iter::once(' ')) {
        if is_cjk(c) {
            run.push(c);
            continue;
        }
        if run.len() == 1 {
            out.push(run[0].to_string());
        }
        for pair in run.windows(2) {
            out.push(pair.iter().collect());
        }
        run.clear();
    }
    out.sort();
    out.dedup();
    out
}

/// The sections of a Markdown text. A paragraph's lines are one text entry.
pub fn sections(content: &str) -> Vec<Section> {
    let lines: Vec<&str> = content.lines().collect();
    let mut i = frontmatter_end(&lines);
    let mut out = vec![Section { level: 0, title: String::new(), start: i + 1, end: i, text: Vec::new() }];
    let mut fence: Option<&str> = None;
    // The previous line was prose that the next one may continue.
    let mut in_paragraph = false;
    // A link's destination runs on from the previous line (`[text](` then the URL).
    let mut open_destination = false;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let mut prose = false;
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            } else {
                push_text(&mut out, line, false, &mut false);
            }
        } else if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
        } else if let Some((level, title)) = atx(line) {
            out.push(Section { level, title, start: i + 1, end: i + 1, text: Vec::new() });
        } else if let Some(level) = lines.get(i + 1).and_then(|next| setext(line, next)) {
            out.push(Section { level, title: plain(line.trim()), start: i + 1, end: i + 2, text: Vec::new() });
            i += 1;
        } else if !trimmed.is_empty() {
            let item = starts_item(trimmed);
            push_text(&mut out, line, in_paragraph && !item, &mut open_destination);
            prose = !trimmed.starts_with('|') && !is_link_definition(line);
        }
        in_paragraph = prose;
        open_destination &= prose;
        if let Some(last) = out.last_mut() {
            last.end = i + 1;
        }
        i += 1;
    }
    out.retain(|s| s.level > 0 || !s.text.is_empty());
    out
}

/// A list item, a quote or a table row: a new text entry.
fn starts_item(t: &str) -> bool {
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    (t.starts_with(['-', '*', '+']) && t.chars().nth(1).is_none_or(|c| c == ' '))
        || t.starts_with(['>', '|'])
        || (digits > 0 && (t[digits..].starts_with(". ") || t[digits..].starts_with(") ")))
}

fn push_text(out: &mut [Section], line: &str, continues: bool, open_destination: &mut bool) {
    let text = plain_line(line.trim(), open_destination);
    let Some(last) = out.last_mut() else { return };
    if text.is_empty() {
        return;
    }
    match last.text.last_mut() {
        Some(prev) if continues => {
            prev.push(' ');
            prev.push_str(&text);
        }
        _ => last.text.push(text),
    }
}

/// The index of the first line after a `---` frontmatter block (0 without one).
fn frontmatter_end(lines: &[&str]) -> usize {
    if lines.first().map(|l| l.trim_start_matches('\u{feff}').trim_end()) != Some("---") {
        return 0;
    }
    lines.iter().skip(1).position(|l| matches!(l.trim_end(), "---" | "...")).map_or(0, |p| p + 2)
}

/// `## Title ##` → (2, "Title").
fn atx(line: &str) -> Option<(u8, String)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let t = &line[indent..];
    let hashes = t.len() - t.trim_start_matches('#').len();
    if indent > 3 || !(1..=6).contains(&hashes) {
        return None;
    }
    let rest = &t[hashes..];
    if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
        return None;
    }
    let title = rest.trim().trim_end_matches('#').trim_end();
    Some((hashes as u8, plain(title)))
}

/// A setext heading: a text line over `===` (1) or `---` (2).
fn setext(line: &str, next: &str) -> Option<u8> {
    let t = line.trim();
    let n = next.trim();
    if t.is_empty() || t.starts_with(['-', '*', '>', '#', '|']) || line.starts_with("    ") || n.is_empty() {
        return None;
    }
    if n.chars().all(|c| c == '=') {
        Some(1)
    } else if n.len() >= 2 && n.chars().all(|c| c == '-') {
        Some(2)
    } else {
        None
    }
}

/// A line without list and quote marks, emphasis, code marks or link
/// targets and labels (`[text](url)`, `[text][label]`, `[text]`, `![alt](src)`
/// are their text; a code span's text stays as written); a link reference
/// definition (`[label]: url`) is no text.
fn plain(line: &str) -> String {
    plain_line(line, &mut false)
}

/// [`plain`] of a line of prose, where a link's destination may have been
/// opened on the line before (`[text](` then the URL): `open_destination`
/// says so on the way in and whether this line leaves one open on the way out.
fn plain_line(line: &str, open_destination: &mut bool) -> String {
    let mut line = line;
    if *open_destination {
        let (closed, rest) = after_close(line, 1);
        *open_destination = !closed;
        line = rest;
    }
    if is_link_definition(line) {
        return String::new();
    }
    let mut t = line.trim_start_matches(['>', ' ']);
    for marker in ["- ", "* ", "+ "] {
        if let Some(rest) = t.strip_prefix(marker) {
            t = rest;
        }
    }
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && t[digits..].starts_with(". ") {
        t = &t[digits + 2..];
    }
    let mut out = String::with_capacity(t.len());
    let mut rest = t;
    // Inside a code span (`a[0]`, `**kwargs`, `<br>`) the text is as written.
    let mut in_code = false;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '`' => in_code = !in_code,
            _ if in_code => out.push(c),
            '*' => {}
            '_' if !out.ends_with(char::is_alphanumeric) => {}
            '!' if rest.starts_with('[') => {}
            ']' if rest.starts_with('(') => {
                let (closed, after) = after_close(rest, 0);
                *open_destination = !closed;
                rest = after;
            }
            ']' if rest.starts_with('[') => rest = after_close_of(rest, '[', ']', 0).1,
            ']' | '[' => {}
            '<' => match markup(rest) {
                Some(Markup::Tag(len)) => {
                    rest = &rest[len..];
                    // A tag between two words (`a<br>b`) keeps them apart.
                    if out.ends_with(char::is_alphanumeric) && rest.starts_with(char::is_alphanumeric) {
                        out.push(' ');
                    }
                }
                Some(Markup::Autolink(url, len)) => {
                    out.push_str(url);
                    rest = &rest[len..];
                }
                None => out.push(c),
            },
            _ => out.push(c),
        }
    }
    out.trim().to_string()
}

/// HTML elements a README writes (badges, centred logos, footnote marks).
const HTML_TAGS: &[&str] = &[
    "a", "abbr", "b", "br", "center", "code", "dd", "details", "div", "dl", "dt", "em", "h1", "h2", "h3", "h4", "h5",
    "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "picture", "pre", "source", "span", "strong", "sub", "summary",
    "sup", "table", "tbody", "td", "th", "thead", "tr", "u", "ul",
];

/// What follows a `<` in prose.
enum Markup<'a> {
    /// An HTML tag or comment of this many bytes after the `<` (to the end
    /// of the line when it does not close there): no text.
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
    let after = rest[name_at + name_len..].chars().next();
    if HTML_TAGS.contains(&&rest[name_at..name_at + name_len]) && after.is_none_or(|c| matches!(c, ' ' | '>' | '/')) {
        return Some(Markup::Tag(to_end(name_at + name_len, ">")));
    }
    let close = rest.find('>')?;
    let url = &rest[..close];
    let scheme = ["https://", "http://", "mailto:"].iter().any(|s| url.starts_with(s));
    (scheme && !url.contains([' ', '<'])).then_some(Markup::Autolink(url, close + 1))
}

/// What follows the `)` that closes a link destination (`depth` of them
/// already open before `text`), and whether it closed in `text`.
fn after_close(text: &str, depth: usize) -> (bool, &str) {
    after_close_of(text, '(', ')', depth)
}

/// What follows the `close` that ends a bracketed part (`(url)`, `[label]`,
/// nested brackets included; `depth` of them open before `text`), and
/// whether it ended in `text`.
fn after_close_of(text: &str, open: char, close: char, depth: usize) -> (bool, &str) {
    let mut depth = depth;
    for (i, c) in text.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return (true, &text[i + c.len_utf8()..]);
            }
        }
    }
    (false, "")
}

/// `[label]: destination`, indented at most three spaces (CommonMark's link
/// reference definition); a footnote (`[^1]: text`) is text.
fn is_link_definition(line: &str) -> bool {
    let t = line.trim_start_matches(' ');
    if line.len() - t.len() > 3 || !t.starts_with('[') || t.starts_with("[^") {
        return false;
    }
    t.find("]:").is_some_and(|end| end > 1 && !t[1..end].contains(['[', ']']))
}

/// How many of the terms a text holds.
pub fn hits(text: &str, terms: &[String]) -> usize {
    let lower = text.to_lowercase();
    terms.iter().filter(|t| lower.contains(t.as_str())).count()
}

/// A section's score: its heading's terms count thrice, its text's once.
pub fn score(s: &Section, terms: &[String]) -> usize {
    3 * hits(&s.title, terms) + hits(&s.text.join(" "), terms)
}

/// The sentences of a section's text, in order, with the index of their line.
fn sentences(s: &Section) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in s.text.iter().enumerate() {
        let mut start = 0;
        for (i, c) in line.char_indices() {
            let end = i + c.len_utf8();
            let next = line[end..].chars().next();
            let closes = matches!(c, '。' | '！' | '？') || (matches!(c, '.' | '!' | '?') && next == Some(' '));
            if closes {
                out.push((n, line[start..end].trim().to_string()));
                start = end;
            }
        }
        if !line[start..].trim().is_empty() {
            out.push((n, line[start..].trim().to_string()));
        }
    }
    out
}

/// The passage of a section that holds most of the terms: its best
/// sentence and the ones after it on its line, up to [`PASSAGE_CHARS`]; a long
/// sentence is cut around its first term. Without any term in the text,
/// the section's first sentences.
pub fn passage(s: &Section, terms: &[String]) -> String {
    let units = sentences(s);
    if units.is_empty() {
        return String::new();
    }
    let best = (0..units.len()).rev().max_by_key(|i| hits(&units[*i].1, terms)).unwrap_or(0);
    let (line, unit) = &units[best];
    if unit.chars().count() > PASSAGE_CHARS {
        return window(unit, terms);
    }
    let mut out = unit.clone();
    for (_, next) in units[best + 1..].iter().take_while(|(l, _)| l == line) {
        if out.chars().count() + 1 + next.chars().count() > PASSAGE_CHARS {
            break;
        }
        out.push(' ');
        out.push_str(next);
    }
    out
}

/// About [`PASSAGE_CHARS`] characters of a long sentence from a little
/// before its first term.
fn window(unit: &str, terms: &[String]) -> String {
    let lower = unit.to_lowercase();
    // Lower case keeps the characters (a byte offset may move): count characters.
    let first = terms.iter().filter_map(|t| lower.find(t.as_str())).min().unwrap_or(0);
    let at_char = lower[..first].chars().count().saturating_sub(40);
    let from = unit.char_indices().nth(at_char).map_or(0, |(i, _)| i);
    let from = if at_char == 0 { 0 } else { unit[from..].find(' ').map_or(from, |s| from + s + 1) };
    let (head, _) = cut_chars(&unit[from..], PASSAGE_CHARS);
    let body = shorten(head, PASSAGE_CHARS);
    let body = if head.len() < unit.len() - from && !body.ends_with('…') { format!("{body}…") } else { body };
    if from > 0 {
        format!("…{body}")
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\ntitle: Release\nknowledge: true\n---\n# Release process\n\nHow we ship.\n\n## Versioning\n\nWe use semantic versioning. Each release bumps the minor number. Patches fix bugs only.\n\n```\n# not a heading\n```\n\nSteps\n-----\n\n1. Tag the **commit**.\n2. Publish the [package](https://x).\n";

    #[test]
    fn sections_of_a_document() {
        let s = sections(DOC);
        let titles: Vec<(&str, u8, usize, usize)> =
            s.iter().map(|s| (s.title.as_str(), s.level, s.start, s.end)).collect();
        assert_eq!(titles, [("Release process", 1, 5, 8), ("Versioning", 2, 9, 16), ("Steps", 2, 17, 21)]);
        assert_eq!(s[2].text, ["Tag the commit.", "Publish the package."]);
        assert!(s[1].text.iter().any(|t| t == "# not a heading"));
    }

    #[test]
    fn links_of_every_form_read_as_their_text_and_definitions_as_nothing() {
        let doc = "# Serde\n\nImplements [`serde::Deserialize`] and [Serialize][ser] for [SystemTime][].\n\
                   See ![the logo](logo.png) and the [guide](https://x.org/a_(b)).\n\
                   Read [^1] and a[0].\n\n[ser]: https://docs.rs/serde\n  [MSRV]: #msrv \"title\"\n\
                   [^1]: A footnote is text.\n";
        let s = sections(doc);
        assert_eq!(
            s[0].text,
            [
                "Implements serde::Deserialize and Serialize for SystemTime. See the logo and the guide. Read ^1 and a0.",
                "^1: A footnote is text."
            ]
        );
        // HTML reads as its text; generics are no tags; an autolink is its URL.
        let html = "# x\n\n<p align=\"center\"><img src=\"logo.svg\" width=\"50%\"/></p>\n<!-- cargo-rdme start -->\n\
                    Use <b>Vec<T></b> or Option<u8>, see <https://docs.rs/x> and a<br>b <i>c</i>.\n";
        assert_eq!(sections(html)[0].text, ["Use Vec<T> or Option<u8>, see https://docs.rs/x and a b c."]);
        // A code span keeps its brackets, stars, underscores and angle brackets.
        let code = "# x\n\nCall `m[i][j]` with `**kwargs`, `__init__` and `<br>`, not **this**.\n";
        assert_eq!(sections(code)[0].text, ["Call m[i][j] with **kwargs, __init__ and <br>, not this."]);
        // A badge whose link destination runs on to the next line.
        let badges = "# x\n\n[![Build](https://a/b%20c/badge.svg)](\nhttps://a/actions)\n[![Docs](https://d/badge.svg)](\nhttps://d) and text.\n";
        assert_eq!(sections(badges)[0].text, ["Build Docs and text."]);
        assert!(is_link_definition("[Rust 1.65]: https://blog.rust-lang.org/"));
        assert!(!is_link_definition("    [x]: indented four: code"));
        assert!(!is_link_definition("[dependencies]"));
        assert!(!is_link_definition("[]: empty label"));
    }

    #[test]
    fn the_passage_is_the_sentence_that_matched() {
        let s = sections(DOC);
        let t = terms("how to publish a package");
        let best = s.iter().max_by_key(|s| score(s, &t)).unwrap();
        assert_eq!(best.title, "Steps");
        assert_eq!(passage(best, &t), "Publish the package.");
        let t = terms("patches");
        assert_eq!(passage(&s[1], &t), "Patches fix bugs only.");
        // A long sentence is cut around the match, at words.
        let long = Section {
            level: 1,
            title: "x".into(),
            start: 1,
            end: 1,
            text: vec![format!("{} the needle is here {}", "word ".repeat(100), "tail ".repeat(100))],
        };
        let p = passage(&long, &terms("needle"));
        assert!(p.starts_with('…') && p.ends_with('…') && p.contains("the needle is here"), "{p}");
        assert!(p.chars().count() <= PASSAGE_CHARS + 2, "{}", p.chars().count());
    }

    #[test]
    fn cjk_and_cyrillic_terms() {
        assert!(terms("兹兹科什是谁").contains(&"科什".to_string()));
        let t = terms("Кто мечтает о тёплых носках?");
        assert!(t.iter().any(|w| "носках".starts_with(w.as_str())), "{t:?}");
    }
}
