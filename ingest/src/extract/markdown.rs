//! Markdown extraction: frontmatter (read by hand, before parsing), headings
//! with a short preview of their section, links (inline, autolinks and
//! reference links resolved through their `[label]: url` definitions) and
//! fenced code block languages. What to capture is data in
//! `queries/markdown.scm` and `queries/markdown_inline.scm`; this module only
//! interprets the captures.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, OnceLock};

use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Parser, Query, QueryCursor};
use vibe_common::document::ast::{AstData, AstHeading, AstLink};

use super::compiled::{self, ExtractError};
use super::compiled::{line_range, text};
use super::grammars::Language;

/// Capture names of the inline query.
const INLINE_CAPTURES: &[&str] = &["link.text", "link.url", "link.autolink", "link.label"];
const INLINE_QUERY: &str = include_str!("../../queries/markdown_inline.scm");
/// Longest heading preview, in characters.
const PREVIEW_CHARS: usize = 160;

/// Compile the inline query once and check its captures.
pub(crate) fn inline_query() -> Result<&'static Query, ExtractError> {
    static QUERY: OnceLock<Result<Query, Arc<ExtractError>>> = OnceLock::new();
    QUERY
        .get_or_init(|| {
            let q = Query::new(&tree_sitter_md::INLINE_LANGUAGE.into(), INLINE_QUERY)
                .map_err(|e| ExtractError::Query { lang: "Markdown inline", source: e.into() })?;
            if let Some(bad) = q.capture_names().iter().find(|c| !INLINE_CAPTURES.contains(c)) {
                return Err(ExtractError::UnknownCapture { lang: "Markdown inline", capture: bad.to_string() }.into());
            }
            Ok(q)
        })
        .as_ref()
        .map_err(|e| ExtractError::Cached(e.clone()))
}

pub fn extract(lang: &'static Language, source: &str) -> Result<AstData, ExtractError> {
    let (frontmatter, body) = split_frontmatter(source);
    let compiled = compiled::compiled(lang)?;
    let tree = compiled::parse(lang, &body)?;
    let bytes = body.as_bytes();
    let names = compiled.query.capture_names();
    let mut ast = AstData { frontmatter, ..Default::default() };
    let mut inline_texts: Vec<Node> = Vec::new();
    // Link reference definitions, by normalized label; the first one wins.
    let mut references: HashMap<String, String> = HashMap::new();

    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(&compiled.query, tree.root_node(), bytes);
    while let Some(m) = matches.next() {
        let (mut label, mut url) = (None, None);
        for c in m.captures {
            match names[c.index as usize] {
                "reference.label" => label = Some(normalize_label(text(c.node, bytes))),
                "reference.url" => url = Some(unbracket(text(c.node, bytes))),
                "heading" => ast.headings.push(heading(c.node, bytes)),
                "code.language" => {
                    let l = text(c.node, bytes).trim().to_lowercase();
                    if !l.is_empty() && !ast.code_blocks.contains(&l) {
                        ast.code_blocks.push(l);
                    }
                }
                "inline" => inline_texts.push(c.node),
                _ => {}
            }
        }
        if let (Some(label), Some(url)) = (label, url) {
            if !label.is_empty() {
                references.entry(label).or_insert(url);
            }
        }
    }
    ast.links = links(&inline_texts, &body, &references)?;
    Ok(ast)
}

/// Split off a `---` YAML frontmatter block. The body keeps its line numbers:
/// the frontmatter lines are replaced by empty lines.
fn split_frontmatter(source: &str) -> (Option<BTreeMap<String, String>>, String) {
    let src = source.strip_prefix('\u{feff}').unwrap_or(source);
    let mut lines = src.split_inclusive('\n');
    if lines.next().map(|l| l.trim_end()) != Some("---") {
        return (None, src.to_string());
    }
    let mut map = BTreeMap::new();
    let mut consumed = 1;
    let mut closed = false;
    // The key whose value is empty so far: a block list (`- item` lines) may follow.
    let mut open_key: Option<String> = None;
    let mut items: Vec<String> = Vec::new();
    for line in lines {
        consumed += 1;
        let l = line.trim_end();
        if l == "---" || l == "..." {
            closed = true;
            break;
        }
        let item = l.trim_start();
        if let (Some(_), Some(value)) =
            (&open_key, item.strip_prefix('-').filter(|v| v.is_empty() || v.starts_with(' ')))
        {
            items.push(unquote_yaml(value.trim()));
            continue;
        }
        if let Some((k, v)) = l.split_once(':') {
            let key = k.trim();
            if !key.is_empty() && !key.starts_with(['#', ' ', '-']) && !k.starts_with(char::is_whitespace) {
                close_list(&mut map, &mut open_key, &mut items);
                let v = v.trim();
                let value = match v.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
                    Some(flow) => split_flow_list(flow).join(", "),
                    None => unquote_yaml(v),
                };
                if value.is_empty() {
                    open_key = Some(key.to_string());
                }
                map.insert(key.to_string(), value);
            }
        }
    }
    close_list(&mut map, &mut open_key, &mut items);
    if !closed {
        return (None, src.to_string());
    }
    let rest: String = src.split_inclusive('\n').skip(consumed).collect();
    (Some(map), "\n".repeat(consumed) + &rest)
}

/// Store the block list gathered for `open_key` as its items joined by ", ".
fn close_list(map: &mut BTreeMap<String, String>, open_key: &mut Option<String>, items: &mut Vec<String>) {
    if let Some(key) = open_key.take() {
        let list: Vec<String> = items.drain(..).filter(|i| !i.is_empty()).collect();
        if !list.is_empty() {
            map.insert(key, list.join(", "));
        }
    }
}

/// The items of a YAML flow list (`a, "b, c", 'd'`), unquoted.
fn split_flow_list(flow: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut cur, mut quote) = (String::new(), None);
    for c in flow.chars() {
        match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                cur.push(c);
            }
            (Some(q), _) if c == q => {
                quote = None;
                cur.push(c);
            }
            (None, ',') => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out.iter().map(|i| unquote_yaml(i.trim())).filter(|i| !i.is_empty()).collect()
}

/// A YAML scalar without its surrounding quotes.
fn unquote_yaml(v: &str) -> String {
    v.trim().trim_matches(|c| c == '"' || c == '\'').to_string()
}

fn heading(node: Node, bytes: &[u8]) -> AstHeading {
    let mut level = 1;
    let mut title = String::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            k if k.starts_with("atx_h") && k.ends_with("_marker") => {
                level = k.as_bytes()[5].saturating_sub(b'0');
            }
            "setext_h2_underline" => level = 2,
            "inline" | "paragraph" => title = plain_text(text(child, bytes)),
            _ => {}
        }
    }
    AstHeading { level, title, preview: preview(node, bytes), line: Some(line_range(node)) }
}

/// The first prose block after a heading, without formatting.
fn preview(heading: Node, bytes: &[u8]) -> String {
    let mut next = heading.next_named_sibling();
    while let Some(n) = next {
        match n.kind() {
            "paragraph" | "list" | "block_quote" => {
                let p = plain_text(text(n, bytes));
                return if p.chars().count() > PREVIEW_CHARS {
                    p.chars().take(PREVIEW_CHARS).collect::<String>().trim_end().to_string() + "…"
                } else {
                    p
                };
            }
            "section" | "atx_heading" | "setext_heading" => break,
            _ => next = n.next_named_sibling(),
        }
    }
    String::new()
}

/// Markdown text without emphasis, code marks, list markers or link targets.
fn plain_text(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut chars = md.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // An underscore inside a word (`snake_case`) is text, not emphasis.
            '_' if out.ends_with(|p: char| p.is_alphanumeric())
                && chars.peek().is_some_and(|n| n.is_alphanumeric()) =>
            {
                out.push(c)
            }
            '*' | '_' | '`' | '<' | '>' | '#' => {}
            // `[text](url)` and `[text][label]`: the target is no text.
            ']' if chars.peek() == Some(&'(') => {
                for d in chars.by_ref() {
                    if d == ')' {
                        break;
                    }
                }
            }
            ']' if chars.peek() == Some(&'[') => {
                for d in chars.by_ref() {
                    if d == ']' {
                        break;
                    }
                }
            }
            '[' | ']' | '!' => {}
            _ => out.push(c),
        }
    }
    out.split_whitespace().filter(|w| !matches!(*w, "-" | "+")).collect::<Vec<_>>().join(" ")
}

/// A link label as matched against definitions: without its brackets,
/// case-folded, inner whitespace collapsed (CommonMark).
fn normalize_label(label: &str) -> String {
    let inner = label.trim().strip_prefix('[').and_then(|l| l.strip_suffix(']')).unwrap_or(label);
    inner.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// A link destination without the angle brackets of `<url>`.
fn unbracket(url: &str) -> String {
    let url = url.trim();
    url.strip_prefix('<').and_then(|u| u.strip_suffix('>')).unwrap_or(url).to_string()
}

/// Links of the inline texts. A reference link (`[text][label]`,
/// `[label][]`, `[label]`) takes its URL from its definition; without one it
/// is plain text.
fn links(inlines: &[Node], body: &str, references: &HashMap<String, String>) -> Result<Vec<AstLink>, ExtractError> {
    let query = inline_query()?;
    let names = query.capture_names();
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_md::INLINE_LANGUAGE.into())
        .map_err(|source| ExtractError::Grammar { lang: "Markdown", source })?;
    let mut out: Vec<AstLink> = Vec::new();
    for node in inlines {
        let src = &body[node.start_byte()..node.end_byte()];
        let Some(tree) = parser.parse(src, None) else { continue };
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(query, tree.root_node(), src.as_bytes());
        while let Some(m) = matches.next() {
            let mut link = AstLink::default();
            for c in m.captures {
                let t = text(c.node, src.as_bytes()).trim();
                match names[c.index as usize] {
                    "link.text" => link.text = plain_text(t),
                    "link.url" => link.url = unbracket(t),
                    "link.label" => link.url = references.get(&normalize_label(t)).cloned().unwrap_or_default(),
                    "link.autolink" => {
                        link.url = t.trim_matches(|c| c == '<' || c == '>').to_string();
                        link.text = link.url.clone();
                    }
                    _ => {}
                }
            }
            if !link.url.is_empty() && !out.contains(&link) {
                out.push(link);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_is_read_and_blanked() {
        let (fm, body) = split_frontmatter("---\ntitle: Hello\nknowledge: true\n---\n# Top\n");
        let fm = fm.unwrap();
        assert_eq!(fm["title"], "Hello");
        assert_eq!(fm["knowledge"], "true");
        assert_eq!(body, "\n\n\n\n# Top\n");
    }

    #[test]
    fn unclosed_frontmatter_is_plain_text() {
        let (fm, body) = split_frontmatter("---\ntitle: x\n");
        assert!(fm.is_none());
        assert_eq!(body, "---\ntitle: x\n");
    }

    #[test]
    fn plain_text_drops_formatting() {
        assert_eq!(plain_text("**Bold** and `code` and [a link](x.md)"), "Bold and code and a link");
        assert_eq!(plain_text("the [guide][g], the [Manual][] and [spec]."), "the guide, the Manual and spec.");
        assert_eq!(plain_text("`serde_as` and _emphasis_"), "serde_as and emphasis");
    }

    #[test]
    fn frontmatter_lists_are_joined() {
        let (fm, _) = split_frontmatter("---\ntags:\n  - alpha\n  - \"beta\"\nflow: [a, 'b, c', \"d\"]\nempty: []\nnested:\n  key: value\ntitle: T\n---\n");
        let fm = fm.unwrap();
        assert_eq!(fm["tags"], "alpha, beta");
        assert_eq!(fm["flow"], "a, b, c, d");
        assert_eq!(fm["empty"], "");
        assert_eq!(fm["nested"], "");
        assert_eq!(fm["title"], "T");
    }

    #[test]
    fn labels_are_normalized() {
        assert_eq!(normalize_label("[Foo  Bar]"), "foo bar");
        assert_eq!(normalize_label("spec"), "spec");
        assert_eq!(unbracket("<https://x.org>"), "https://x.org");
    }
}
