//! Markdown extraction: frontmatter (read by hand, before parsing), headings
//! with a short preview of their section, links and fenced code block
//! languages. What to capture is data in `queries/markdown.scm` and
//! `queries/markdown_inline.scm`; this module only interprets the captures.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Parser, Query, QueryCursor};
use vibe_common::ast::{AstData, AstHeading, AstLink};

use super::engine::{self, line_range, text, ExtractError};
use super::languages::Language;

/// Capture names of the block query.
pub(crate) const CAPTURES: &[&str] = &["heading", "code.language", "inline"];
/// Capture names of the inline query.
const INLINE_CAPTURES: &[&str] = &["link.text", "link.url", "link.autolink"];
const INLINE_QUERY: &str = include_str!("../../queries/markdown_inline.scm");
/// Longest heading preview, in characters.
const PREVIEW_CHARS: usize = 160;

/// Compile the inline query once and check its captures.
pub(crate) fn inline_query() -> Result<&'static Query, ExtractError> {
    static QUERY: OnceLock<Result<Query, String>> = OnceLock::new();
    QUERY
        .get_or_init(|| {
            let q = Query::new(&tree_sitter_md::INLINE_LANGUAGE.into(), INLINE_QUERY).map_err(|e| e.to_string())?;
            if let Some(bad) = q.capture_names().iter().find(|c| !INLINE_CAPTURES.contains(c)) {
                return Err(format!("unknown capture @{bad} in markdown_inline.scm"));
            }
            Ok(q)
        })
        .as_ref()
        .map_err(|message| ExtractError::Query { lang: "Markdown", message: message.clone() })
}

pub fn extract(lang: &'static Language, source: &str) -> Result<AstData, ExtractError> {
    let (frontmatter, body) = split_frontmatter(source);
    let compiled = engine::compiled(lang)?;
    let tree = engine::parse(lang, &body)?;
    let bytes = body.as_bytes();
    let names = compiled.query.capture_names();
    let mut ast = AstData { frontmatter, ..Default::default() };
    let mut inline_texts: Vec<Node> = Vec::new();

    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(&compiled.query, tree.root_node(), bytes);
    while let Some(m) = matches.next() {
        for c in m.captures {
            match names[c.index as usize] {
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
    }
    ast.links = links(&inline_texts, &body)?;
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
    for line in lines {
        consumed += 1;
        let l = line.trim_end();
        if l == "---" || l == "..." {
            closed = true;
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            let key = k.trim();
            if !key.is_empty() && !key.starts_with(['#', ' ', '-']) && !k.starts_with(char::is_whitespace) {
                let value = v.trim().trim_matches(|c| c == '"' || c == '\'').to_string();
                map.insert(key.to_string(), value);
            }
        }
    }
    if !closed {
        return (None, src.to_string());
    }
    let rest: String = src.split_inclusive('\n').skip(consumed).collect();
    (Some(map), "\n".repeat(consumed) + &rest)
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
            '*' | '_' | '`' | '<' | '>' | '#' => {}
            ']' if chars.peek() == Some(&'(') => {
                for d in chars.by_ref() {
                    if d == ')' {
                        break;
                    }
                }
            }
            '[' | ']' | '!' => {}
            _ => out.push(c),
        }
    }
    out.split_whitespace()
        .filter(|w| !matches!(*w, "-" | "+"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn links(inlines: &[Node], body: &str) -> Result<Vec<AstLink>, ExtractError> {
    let query = inline_query()?;
    let names = query.capture_names();
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_md::INLINE_LANGUAGE.into())
        .map_err(|e| ExtractError::Grammar { lang: "Markdown", message: e.to_string() })?;
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
                    "link.url" => link.url = t.to_string(),
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
    }
}
