//! Signatures and names: the declaration text of a definition cut before its
//! body, and names and imports without their quotes.

use super::family::IdSet;

use tree_sitter::Node;

/// Longest signature kept; longer ones are cut with an ellipsis.
const MAX_SIGNATURE_CHARS: usize = 300;

/// The declaration cut before its body, on one line. Attributes and
/// decorators that lead the node (captured `@attribute`) are left out.
pub(crate) fn signature(node: Node, body: Option<Node>, source: &str, attributes: &IdSet) -> String {
    let start = after_leading_attributes(node, attributes);
    let end = match body {
        Some(b) if b.start_byte() > start => b.start_byte(),
        _ => node.end_byte(),
    };
    let raw = &source[start..end];
    // Without a body the first line is the declaration.
    let raw = if body.is_none() { raw.trim_start().lines().next().unwrap_or("") } else { raw };
    let mut sig = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    loop {
        let trimmed = sig.trim_end().trim_end_matches("=>").trim_end_matches(['{', '=', ':', ';']).trim_end();
        if trimmed.len() == sig.len() {
            break;
        }
        sig = trimmed.to_string();
    }
    vibe_common::text::summary::cut(&sig, MAX_SIGNATURE_CHARS)
}

/// Where a definition's text starts once leading attributes are skipped, also
/// those at the start of a `modifiers` node (keywords after them are kept).
fn after_leading_attributes(node: Node, attributes: &IdSet) -> usize {
    let mut start = node.start_byte();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if attributes.contains(&child.id()) {
            start = child.end_byte();
        } else if child.kind().contains("modifier") {
            let mut inner = child.walk();
            for m in child.children(&mut inner) {
                if attributes.contains(&m.id()) {
                    start = m.end_byte();
                } else {
                    return start;
                }
            }
        } else {
            return start;
        }
    }
    start
}

/// An import's text without surrounding quotes or angle brackets.
pub(crate) fn unquote(s: &str) -> String {
    let s = s.trim();
    for (open, close) in [('"', '"'), ('\'', '\''), ('`', '`'), ('<', '>')] {
        if let Some(inner) = s.strip_prefix(open).and_then(|r| r.strip_suffix(close)) {
            return inner.trim().to_string();
        }
    }
    s.to_string()
}

/// An element's bare name: unquoted (`'key'`), without a leading label
/// sigil (`:label` in Batch).
pub(crate) fn bare_name(s: &str) -> String {
    let s = unquote(s);
    match s.strip_prefix(':') {
        Some(rest) if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') => rest.to_string(),
        _ => s,
    }
}

/// A supertype as the index keeps it: the type's own name, without its
/// generic arguments, qualifiers, pointer or optional marks
/// (`java.util.Map<K, V>` is `Map`, `*io.Reader` is `Reader`, `Generic[T]`
/// is `Generic`, Kotlin's `Base()` is `Base`); `None` for what is no name
/// (Python's `metaclass=M`).
pub(crate) fn supertype_name(s: &str) -> Option<String> {
    // Generic arguments and calls left out, at any depth (`Outer<T>.Inner` is `Inner`).
    let mut depth = 0usize;
    let head: String = s
        .chars()
        .filter(|c| {
            match c {
                '<' | '[' | '(' | '{' => depth += 1,
                '>' | ']' | ')' | '}' => {
                    depth = depth.saturating_sub(1);
                    return false;
                }
                _ => {}
            }
            depth == 0
        })
        .collect();
    if head.contains('=') {
        return None;
    }
    let last = head.rsplit(['.', ':', '\\']).next().unwrap_or("");
    let name = last.trim().trim_matches(|c: char| matches!(c, '*' | '&' | '?' | '!' | '~' | '@' | '^'));
    let is_name = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    is_name.then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supertypes_are_bare_type_names() {
        assert_eq!(supertype_name("java.util.Map<K, V>").as_deref(), Some("Map"));
        assert_eq!(supertype_name("Outer<K, List<V>>.Inner").as_deref(), Some("Inner"));
        assert_eq!(supertype_name("*io.Reader").as_deref(), Some("Reader"));
        assert_eq!(supertype_name("Generic[T]").as_deref(), Some("Generic"));
        assert_eq!(supertype_name("Base()").as_deref(), Some("Base"));
        assert_eq!(supertype_name("std::fmt::Display").as_deref(), Some("Display"));
        assert_eq!(supertype_name(" Foo? ").as_deref(), Some("Foo"));
        assert_eq!(supertype_name("metaclass=ABCMeta"), None);
        assert_eq!(supertype_name("'str'"), None);
    }

    #[test]
    fn names_and_imports_lose_only_their_quotes() {
        assert_eq!(unquote("\"os\""), "os");
        assert_eq!(unquote("<stdio.h>"), "stdio.h");
        assert_eq!(
            unquote("System.Collections.Generic.Dictionary<string, int>"),
            "System.Collections.Generic.Dictionary<string, int>"
        );
        assert_eq!(bare_name(">="), ">=");
        assert_eq!(bare_name(":add"), "add");
        assert_eq!(bare_name("'key'"), "key");
    }
}
