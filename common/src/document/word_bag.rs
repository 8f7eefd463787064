//! A file's words for search by meaning (issue 23).
//!
//! Each AST document carries `words`: the file's tokens (identifiers as
//! written, words of comments and strings), each at most [`MAX_REPEATS`]
//! times (a definition's body: [`MAX_BODY_REPEATS`]), in order of first
//! use, with a space at each word boundary inside an identifier
//! ([`spaced_words`]). The analyzer `vibe_about` stems the words; BM25 over
//! this field is the whole-file signal of `search_code_symbols`' word
//! ranking. Repeats are capped because BM25's term frequency saturates
//! anyway, and the bag stays far smaller than the text (one file's text is
//! already stored once, in the files index).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::document::ast::{AstData, LineRange};
use crate::text::identifier::{joined_pairs, push_spaced_words};

/// Times one token may appear in a file's bag. BM25's term frequency
/// saturates: a third copy of each word over a whole file was 2.1 M of the
/// 5.2 M tokens of `words` in `throughput.sh`'s corpus, and left both concept
/// sets where they were (issue 33; bench/RESULTS-history.md, in git at d91b8e0).
pub const MAX_REPEATS: u32 = 2;
/// Times one token may appear in a definition's body bag: a short text,
/// where two instead of three lost 0.017 MRR on the dev set's pooled look-ups.
pub const MAX_BODY_REPEATS: u32 = 3;
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
    file_bags(Some(ast), text).1
}

/// The file's bag ([`word_bag`]) and its elements' ([`element_bodies`]),
/// the text split into tokens once for all of them.
pub fn file_bags(ast: Option<&AstData>, text: &str) -> (String, Vec<String>) {
    let lexicon = Lexicon::new(text);
    let mut counts = Counts::default();
    let words = lexicon.bag(&lexicon.tokens, FILE, &mut counts);
    let Some(ast) = ast else { return (words, Vec::new()) };
    let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let bodies = ast
        .elements()
        .map(|e| {
            e.line.map_or_else(String::new, |range| {
                let (from, to) = lines_span(text, &starts, range);
                let first = lexicon.tokens.partition_point(|t| (t.0 as usize) < from);
                let last = lexicon.tokens.partition_point(|t| (t.0 as usize) < to);
                lexicon.bag(&lexicon.tokens[first..last], BODY, &mut counts)
            })
        })
        .collect();
    (words, bodies)
}

/// Where lines `range` (1-based, inclusive) start and end in the text, in
/// bytes, given where each line starts.
fn lines_span(text: &str, starts: &[usize], range: LineRange) -> (usize, usize) {
    let from = starts.get(range.start.saturating_sub(1) as usize).copied().unwrap_or(text.len());
    let to = starts.get(range.end as usize).copied().unwrap_or(text.len()).max(from);
    (from, to)
}

/// The bag of `text`: tokens (runs of letters, digits and `_`) that hold a
/// letter, each at most [`MAX_REPEATS`] times, separated by spaces, at most
/// [`MAX_BAG_BYTES`] bytes. Each identifier of several words is followed by
/// its [`joined_pairs`] (`retry_delay retrydelay`), each also at most
/// [`MAX_REPEATS`] times: the analyzer splits the identifier, and a
/// question's compound word ("hexdump", "filename") finds it through them.
pub fn word_bag(text: &str) -> String {
    bag_of(text, FILE)
}

/// How big a bag may get: bytes counted as the words are written (the
/// spaces [`spaced_words`](crate::text::identifier::spaced_words) adds do not
/// count, so a bag holds the same words as before the spacing), and copies
/// of one token or pair.
#[derive(Clone, Copy)]
struct Limits {
    max_bytes: usize,
    max_repeats: u32,
}

/// A file's bag ([`word_bag`]).
const FILE: Limits = Limits { max_bytes: MAX_BAG_BYTES, max_repeats: MAX_REPEATS };
/// A definition's body ([`element_bodies`]).
const BODY: Limits = Limits { max_bytes: MAX_BODY_BYTES, max_repeats: MAX_BODY_REPEATS };

/// The bag of `text` within `limits`.
fn bag_of(text: &str, limits: Limits) -> String {
    let lexicon = Lexicon::new(text);
    lexicon.bag(&lexicon.tokens, limits, &mut Counts::default())
}

/// A cheap hasher for the tokens of one file (FxHash's multiply and
/// rotate, eight bytes at a time: tokens are not chosen by an adversary).
#[derive(Default)]
struct TokenHasher(u64);

impl TokenHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for TokenHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }
}

type TokenMap<K> = HashMap<K, u32, BuildHasherDefault<TokenHasher>>;

/// A text's tokens, each distinct one split into its joined pairs once.
struct Lexicon<'a> {
    /// (byte offset, token id) of each token kept, in text order.
    tokens: Vec<(u32, u32)>,
    /// Each distinct token: its text and its pairs (a range of `pair_list`).
    words: Vec<(&'a str, u32, u32)>,
    /// The pair ids of every token, token after token.
    pair_list: Vec<u32>,
    /// Each distinct pair's text, by pair id.
    pairs: Vec<String>,
}

impl<'a> Lexicon<'a> {
    fn new(text: &'a str) -> Self {
        let mut lexicon = Lexicon { tokens: Vec::new(), words: Vec::new(), pair_list: Vec::new(), pairs: Vec::new() };
        // Every distinct run, kept (`Some(id)`) or not (a number, too long).
        let mut ids: TokenMap<&'a str> = TokenMap::default();
        let mut pair_ids: TokenMap<String> = TokenMap::default();
        let mut kept: Vec<Option<u32>> = Vec::new();
        for (at, token) in runs(text) {
            let slot = *ids.entry(token).or_insert_with(|| {
                kept.push(lexicon.intern(token, &mut pair_ids));
                (kept.len() - 1) as u32
            });
            if let Some(id) = kept[slot as usize] {
                lexicon.tokens.push((at as u32, id));
            }
        }
        lexicon
    }

    /// The id of a new distinct token, or `None` when it is no word.
    fn intern(&mut self, token: &'a str, pair_ids: &mut TokenMap<String>) -> Option<u32> {
        if !token.chars().any(char::is_alphabetic) || token.chars().count() > MAX_TOKEN_CHARS {
            return None;
        }
        let from = self.pair_list.len() as u32;
        if !token.chars().all(char::is_lowercase) {
            for pair in joined_pairs(token) {
                let next = self.pairs.len() as u32;
                let id = *pair_ids.entry(pair).or_insert_with_key(|p| {
                    self.pairs.push(p.clone());
                    next
                });
                self.pair_list.push(id);
            }
        }
        self.words.push((token, from, self.pair_list.len() as u32));
        Some((self.words.len() - 1) as u32)
    }

    /// The bag of `tokens` (a run of [`Lexicon::tokens`]) within `limits`.
    fn bag(&self, tokens: &[(u32, u32)], limits: Limits, counts: &mut Counts) -> String {
        let Limits { max_bytes, max_repeats } = limits;
        counts.start(self.words.len(), self.pairs.len());
        let text_len: usize = tokens.len() * 8;
        let mut bag = Bag { text: String::with_capacity(text_len.min(max_bytes) / 2), written: 0, max_bytes };
        for &(_, id) in tokens {
            let (token, from, to) = self.words[id as usize];
            if counts.of_word(id) >= max_repeats {
                continue;
            }
            if !bag.push(token) {
                break;
            }
            counts.add_word(id);
            for &pair in &self.pair_list[from as usize..to as usize] {
                if counts.of_pair(pair) < max_repeats && bag.push(&self.pairs[pair as usize]) {
                    counts.add_pair(pair);
                }
            }
        }
        bag.text
    }
}

/// The runs of letters, digits and `_` of a text, with their byte offsets.
fn runs(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    // Whether the character at `i` is a token's, and its length.
    let class = move |i: usize| match bytes[i] {
        b if b.is_ascii() => (b.is_ascii_alphanumeric() || b == b'_', 1),
        _ => text[i..].chars().next().map_or((false, 1), |c| (c.is_alphanumeric(), c.len_utf8())),
    };
    let mut i = 0;
    std::iter::from_fn(move || {
        loop {
            if i >= bytes.len() {
                return None;
            }
            let (word, len) = class(i);
            if word {
                break;
            }
            i += len;
        }
        let start = i;
        while i < bytes.len() {
            let (word, len) = class(i);
            if !word {
                break;
            }
            i += len;
        }
        Some((start, &text[start..i]))
    })
}

/// How many times each token and pair is in the bag being made: a count
/// is current when its stamp is the bag's, so no bag clears another's.
#[derive(Default)]
struct Counts {
    stamp: u32,
    words: Vec<(u32, u32)>,
    pairs: Vec<(u32, u32)>,
}

impl Counts {
    fn start(&mut self, words: usize, pairs: usize) {
        self.stamp += 1;
        self.words.resize(words, (0, 0));
        self.pairs.resize(pairs, (0, 0));
    }
    fn of(slot: (u32, u32), stamp: u32) -> u32 {
        if slot.0 == stamp {
            slot.1
        } else {
            0
        }
    }
    fn of_word(&self, id: u32) -> u32 {
        Self::of(self.words[id as usize], self.stamp)
    }
    fn of_pair(&self, id: u32) -> u32 {
        Self::of(self.pairs[id as usize], self.stamp)
    }
    fn add_word(&mut self, id: u32) {
        let n = self.of_word(id);
        self.words[id as usize] = (self.stamp, n + 1);
    }
    fn add_pair(&mut self, id: u32) {
        let n = self.of_pair(id);
        self.pairs[id as usize] = (self.stamp, n + 1);
    }
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
        push_spaced_words(&mut self.text, word);
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
        assert_eq!(word_bag(text), "def retry_delay retrydelay n Compute the delay n return retry Delay retrydelay");
        assert_eq!(word_bag("x x x x x"), "x x");
        // A definition's body keeps a third copy.
        assert_eq!(bag_of("x x x x x", BODY), "x x x");
    }

    #[test]
    fn each_element_gets_the_words_of_its_own_lines() {
        use crate::document::ast::AstElement;
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
    fn one_split_gives_the_bags_of_the_file_and_of_each_element() {
        use crate::document::ast::AstElement;
        let mut text =
            String::from("class RetryPolicy:\n    def retry_delay(self, n):\n        return retryDelay * n\n");
        for i in 0..200 {
            text.push_str(&format!("    def hexDump{i}(self, ключЗначение): return HTTPServer_{i} + 2 ** n\n"));
        }
        let element =
            |start, end| AstElement { name: "e".into(), line: Some(LineRange { start, end }), ..Default::default() };
        let ranges = [(1, 203), (2, 3), (0, 1), (4, 4), (150, 500), (600, 700), (9, 2)];
        let ast = AstData {
            classes: ranges.iter().map(|&(a, b)| element(a, b)).collect(),
            functions: vec![AstElement::default()],
            ..Default::default()
        };
        // Each element's bag is the bag of its own lines, as when each was split apart.
        let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let bodies: Vec<String> = ast
            .elements()
            .map(|e| {
                e.line.map_or_else(String::new, |r| {
                    let (from, to) = lines_span(&text, &starts, r);
                    bag_of(&text[from..to], BODY)
                })
            })
            .collect();
        assert!(bodies[1].len() > 900 && bodies[2].contains("retrydelay"), "{bodies:?}");
        assert_eq!(file_bags(Some(&ast), &text), (word_bag(&text), bodies));
        assert_eq!(file_bags(None, &text), (word_bag(&text), Vec::new()));
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
