//! Deterministic search tags, so that search works without an LLM:
//! identifiers split into words, doc-comment words and path segments, plus the
//! AST's multilingual category tags. LLM tags are added beside these, never
//! instead of them.

use std::collections::HashSet;

use vibe_common::document::ast::AstData;
use vibe_common::text::identifier::split_identifier;

/// Most deterministic tags (derived from the AST and the path) kept per
/// file; the LLM's are bounded apart (`analyzer::repair::MAX_LLM_TAGS`).
const MAX_DERIVED_TAGS: usize = 256;

/// Words too common in code or prose to be worth a tag (a query's question
/// words are the gateway's `QUESTION_STOP_WORDS`).
const TAG_STOP_WORDS: &[&str] = &[
    "and",
    "are",
    "async",
    "await",
    "bool",
    "but",
    "class",
    "const",
    "def",
    "for",
    "from",
    "func",
    "function",
    "has",
    "impl",
    "int",
    "into",
    "its",
    "let",
    "mut",
    "new",
    "not",
    "pub",
    "public",
    "private",
    "protected",
    "return",
    "returns",
    "self",
    "static",
    "str",
    "string",
    "that",
    "the",
    "this",
    "true",
    "false",
    "type",
    "use",
    "var",
    "void",
    "was",
    "will",
    "with",
    "you",
    "your",
    "fn",
    "struct",
    "enum",
    "interface",
    "final",
];

fn keep(word: &str) -> bool {
    word.chars().count() >= 3 && !word.chars().all(|c| c.is_numeric()) && !TAG_STOP_WORDS.contains(&word)
}

/// The deterministic tags of one file.
pub fn deterministic_tags(path: &str, ast: Option<&AstData>) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    let mut push = |t: String, tags: &mut Vec<String>| {
        if tags.len() < MAX_DERIVED_TAGS && !seen.contains(&t) {
            seen.insert(t.clone());
            tags.push(t);
        }
    };
    if let Some(ast) = ast {
        for t in &ast.tags {
            push(t.clone(), &mut tags);
        }
        let mut comment_words: Vec<&str> = Vec::new();
        for e in ast.elements() {
            if tags.len() >= MAX_DERIVED_TAGS {
                return tags; // full: nothing more would be kept (a big file has thousands of signatures)
            }
            for token in e.signature.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                for w in split_identifier(token) {
                    if keep(&w) {
                        push(w, &mut tags);
                    }
                }
            }
            comment_words.extend(e.comments.iter().map(String::as_str));
        }
        for heading in &ast.headings {
            comment_words.push(&heading.title);
        }
        for imp in &ast.imports {
            for w in split_identifier(imp) {
                if keep(&w) {
                    push(w, &mut tags);
                }
            }
        }
        comment_words.extend(ast.header_comments.iter().map(String::as_str));
        for text in comment_words {
            if tags.len() >= MAX_DERIVED_TAGS {
                return tags;
            }
            for w in text.split(|c: char| !c.is_alphanumeric()) {
                let w = w.to_lowercase();
                if w.chars().count() >= 4 && keep(&w) {
                    push(w, &mut tags);
                }
            }
        }
    }
    for segment in path.split('/') {
        let stem = segment.rsplit_once('.').map_or(segment, |(s, _)| s);
        for w in split_identifier(stem) {
            if keep(&w) {
                push(w, &mut tags);
            }
        }
    }
    tags
}

#[cfg(test)]
mod tests {
    use super::*;
    use vibe_common::document::ast::AstElement;

    #[test]
    fn tags_cover_identifiers_comments_and_path() {
        let ast = AstData {
            functions: vec![AstElement {
                signature: "pub fn calculate_total(items: &[OrderItem]) -> f64".into(),
                comments: vec!["Calculates the order amount with discounts".into()],
                ..Default::default()
            }],
            ..Default::default()
        }
        .with_tags();
        let tags = deterministic_tags("src/billing/orderService.rs", Some(&ast));
        for t in [
            "functions",
            "функции",
            "函数",
            "calculate",
            "total",
            "order",
            "item",
            "calculates",
            "discounts",
            "billing",
            "service",
        ] {
            assert!(tags.iter().any(|x| x == t), "missing {t} in {tags:?}");
        }
        assert!(!tags.iter().any(|x| x == "pub" || x == "fn"));
    }

    #[test]
    fn tags_stop_at_the_cap_in_signature_order() {
        // Words of letters only: `handle_qaa`, `handle_qab`, ...
        let word = |i: usize| format!("q{}{}", (b'a' + (i / 26 % 26) as u8) as char, (b'a' + (i % 26) as u8) as char);
        let functions = (0..600)
            .map(|i| AstElement { signature: format!("fn handle_{}()", word(i)), ..Default::default() })
            .collect();
        let tags = deterministic_tags("src/lib.rs", Some(&AstData { functions, ..Default::default() }));
        assert_eq!(tags.len(), MAX_DERIVED_TAGS);
        assert_eq!(tags[..3], ["handle", "qaa", "qab"]);
        assert_eq!(tags[MAX_DERIVED_TAGS - 1], word(MAX_DERIVED_TAGS - 2));
    }
}
