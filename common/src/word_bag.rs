//! A file's words for search by meaning (issue 23).
//!
//! Each AST document carries `words`: the file's tokens (identifiers as
//! written, words of comments and strings), each at most [`MAX_REPEATS`]
//! times, in order of first use, with a space at each word boundary inside
//! an identifier ([`spaced_words`]). The analyzer `vibe_about` stems the
//! words; BM25 over this field is the
//! whole-file signal of `search_code_symbols`' word ranking. Repeats are
//! capped because BM25's term frequency saturates anyway, and the bag stays
//! far smaller than the text (one file's text is already stored once, in the
//! files index).

use std::collections::HashMap;

use crate::ast::{AstData, LineRange};
use crate::identifier::{joined_pairs, spaced_words};

/// Times one token may appear in the bag.
pub const MAX_REPEATS: u32 = 3;
/// Longest token kept, in characters (longer ones are data, not words).
pub const MAX_TOKEN_CHARS: usize = 64;
/// Largest bag, in bytes.
pub const MAX_BAG_BYTES: usize = 64 * 1024;

/// Largest word bag of one definition's body (its own lines), in bytes.
pub const MAX_BODY_BYTES: usize = 1024;

/// The word bag of each element's own lines, in [`AstData::elements`] order
/// (empty for an element without lines), at most [`MAX_BODY_BYTES`] each:
/// the `symbols.body` the word ranking reads. Computed with the grams, on
/// the scanner's threads.
pub fn element_bodies(ast: &AstData, text: &str) -> Vec<String> {
    let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
    ast.elements()
        .map(|e| {
            e.line.map_or_else(String::new, |range| word_bag_within(lines_text(text, &starts, range), MAX_BODY_BYTES))
        })
        .collect()
}

/// The text of lines `range` (1-based, inclusive), given where each line starts.
fn lines_text<'a>(text: &'a str, starts: &[usize], range: LineRange) -> &'a str {
    let from = starts.get(range.start.saturating_sub(1) as usize).copied().unwrap_or(text.len());
    let to = starts.get(range.end as usize).copied().unwrap_or(text.len()).max(from);
    &text[from..to]
}

/// The bag of `text`: tokens (runs of letters, digits and `_`) that hold a
/// letter, each at most [`MAX_REPEATS`] times, separated by spaces, at most
/// [`MAX_BAG_BYTES`] bytes. Each identifier of several words is followed by
/// its [`joined_pairs`] (`retry_delay retrydelay`), each also at most
/// [`MAX_REPEATS`] times: the analyzer splits the identifier, and a
/// question's compound word ("hexdump", "filename") finds it through them.
pub fn word_bag(text: &str) -> String {
    word_bag_within(text, MAX_BAG_BYTES)
}

/// [`word_bag`] of at most `max_bytes` bytes (a definition's body), counted
/// as the words are written: the spaces [`spaced_words`] adds do not count,
/// so a bag holds the same words as before the spacing.
pub fn word_bag_within(text: &str, max_bytes: usize) -> String {
    // Each token's count and its joined pairs, split once (not again at
    // each repeat).
    let mut seen: HashMap<&str, (u32, Vec<String>)> = HashMap::new();
    let mut bag = Bag { text: String::with_capacity(text.len().min(max_bytes) / 2), written: 0, max_bytes };
    let tokens = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty() && t.chars().any(char::is_alphabetic) && t.chars().count() <= MAX_TOKEN_CHARS);
    let mut pair_counts: HashMap<String, u32> = HashMap::new();
    for token in tokens {
        let (n, pairs) = seen.entry(token).or_insert_with(|| {
            let one_word = token.chars().all(char::is_lowercase);
            (0, if one_word { Vec::new() } else { joined_pairs(token) })
        });
        if *n >= MAX_REPEATS {
            continue;
        }
        if !bag.push(token) {
            break;
        }
        *n += 1;
        for pair in pairs.iter() {
            let m = match pair_counts.get_mut(pair.as_str()) {
                Some(m) => m,
                None => pair_counts.entry(pair.clone()).or_insert(0),
            };
            if *m < MAX_REPEATS && bag.push(pair) {
                *m += 1;
            }
        }
    }
    bag.text
}

/// A bag under construction: its text, spaced, and its size as written.
struct Bag {
    text: String,
    written: usize,
    max_bytes: usize,
}

impl Bag {
    /// Appends `word`, spaced at its word boundaries, when it fits.
    fn push(&mut self, word: &str) -> bool {
        let sep = usize::from(!self.text.is_empty());
        if self.written + word.len() + sep > self.max_bytes {
            return false;
        }
        if sep == 1 {
            self.text.push(' ');
        }
        self.text.push_str(&spaced_words(word));
        self.written += word.len() + sep;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_kept_as_written_and_capped() {
        let text = "def retry_delay(n):\n    # Compute the delay: 2 ** n\n    return n * n * n * n + retryDelay";
        assert_eq!(word_bag(text), "def retry_delay retrydelay n Compute the delay n return n retry Delay retrydelay");
        assert_eq!(word_bag("x x x x x"), "x x x");
    }

    #[test]
    fn each_element_gets_the_words_of_its_own_lines() {
        use crate::ast::AstElement;
        let text = "def a():\n    return alpha\n\ndef b():\n    return beta\n";
        let element = |name: &str, start, end| AstElement {
            name: name.into(),
            line: Some(LineRange { start, end }),
            ..Default::default()
        };
        let ast = AstData {
            functions: vec![element("a", 1, 2), element("b", 4, 5), AstElement::default()],
            ..Default::default()
        };
        assert_eq!(element_bodies(&ast, text), vec!["def a return alpha", "def b return beta", ""]);
    }

    #[test]
    fn numbers_and_data_are_left_out_and_the_bag_is_bounded() {
        assert_eq!(word_bag("0x1F 42 v2 ключ 键"), "0x 1F v 2 ключ 键");
        assert_eq!(word_bag(&"a".repeat(65)), "");
        let big: String = (0..40_000).map(|i| format!("w{i} ")).collect();
        assert!(word_bag(&big).replace(' ', "").len() <= MAX_BAG_BYTES);
        // The spaces inside identifiers do not count: as many words fit as written.
        let tokens: Vec<String> = (0..40_000).map(|i| format!("v{i}")).collect();
        let fit = tokens
            .iter()
            .scan(0usize, |n, t| {
                *n += t.len() + usize::from(*n > 0);
                Some(*n)
            })
            .take_while(|n| *n <= MAX_BAG_BYTES)
            .count();
        assert_eq!(word_bag(&tokens.join(" ")).matches("v ").count(), fit);
    }
}
