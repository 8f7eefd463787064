//! The 3-grams that narrow `search_code_text`.
//!
//! Each file's document carries `grams`: the distinct 3-character sequences
//! of its text, as written, none spanning a line break, one per line of a
//! string (the `vibe_grams` analyzer splits on `\n` only, so a gram may hold
//! spaces or punctuation). The gateway turns a query into the grams every
//! matching line must contain and checks each candidate file's lines itself.
//! A query that ignores case is planned on [`fold`]ed text, each folded gram
//! standing for all of its case variants (the characters that fold alike):
//! [`fold`] agrees with the regex crate's case-insensitive matching (Unicode
//! simple case folding), so the index never loses a file.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Characters per gram.
pub const GRAM_CHARS: usize = 3;

/// Characters whose simple case folding joins them with characters of
/// another lowercase form (the rest fold as their single-character
/// lowercase): each maps to the lowercase form of its fold class.
const FOLD_EXCEPTIONS: &[(char, char)] = &[
    ('\u{B5}', '\u{3BC}'),   // micro sign -> mu
    ('\u{17F}', 's'),        // long s
    ('\u{345}', '\u{3B9}'),  // combining ypogegrammeni -> iota
    ('\u{3C2}', '\u{3C3}'),  // final sigma
    ('\u{3D0}', '\u{3B2}'),  // beta symbol
    ('\u{3D1}', '\u{3B8}'),  // theta symbol
    ('\u{3D5}', '\u{3C6}'),  // phi symbol
    ('\u{3D6}', '\u{3C0}'),  // pi symbol
    ('\u{3F0}', '\u{3BA}'),  // kappa symbol
    ('\u{3F1}', '\u{3C1}'),  // rho symbol
    ('\u{3F5}', '\u{3B5}'),  // lunate epsilon
    ('\u{1C80}', '\u{432}'), // Cyrillic rounded ve, ...
    ('\u{1C81}', '\u{434}'),
    ('\u{1C82}', '\u{43E}'),
    ('\u{1C83}', '\u{441}'),
    ('\u{1C84}', '\u{442}'),
    ('\u{1C85}', '\u{442}'),
    ('\u{1C86}', '\u{44A}'),
    ('\u{1C87}', '\u{463}'),
    ('\u{1C88}', '\u{A64B}'),
    ('\u{1E9B}', '\u{1E61}'), // long s with dot above
    ('\u{1FBE}', '\u{3B9}'),  // Greek prosgegrammeni
    ('\u{1FD3}', '\u{390}'),  // iota with dialytika and oxia -> and tonos
    ('\u{1FE3}', '\u{3B0}'),  // upsilon with dialytika and oxia -> and tonos
    ('\u{FB05}', '\u{FB06}'), // ligature long s t -> s t
];

/// The form a character takes in grams: equal for any two characters the
/// regex crate's case-insensitive matching treats as equal.
pub fn fold(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    if let Ok(i) = FOLD_EXCEPTIONS.binary_search_by_key(&c, |&(from, _)| from) {
        return FOLD_EXCEPTIONS[i].1;
    }
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// A gram as one number (21 bits per character).
type Code = u64;

fn code(a: char, b: char, c: char) -> Code {
    ((a as u64) << 42) | ((b as u64) << 21) | c as u64
}

fn push_code(code: Code, out: &mut String) {
    for shift in [42, 21, 0] {
        out.push(char::from_u32(((code >> shift) & 0x1F_FFFF) as u32).unwrap_or('\u{FFFD}'));
    }
}

/// A cheap hasher for gram codes (a multiply and a fold: codes are not
/// chosen by an adversary, and a file holds a few thousand).
#[derive(Default)]
struct CodeHasher(u64);

impl Hasher for CodeHasher {
    fn finish(&self) -> u64 {
        let h = self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ (h >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type CodeSet = HashSet<Code, BuildHasherDefault<CodeHasher>>;

/// The distinct grams of a text, none spanning a line break.
fn codes(text: &str) -> CodeSet {
    let mut set = CodeSet::with_capacity_and_hasher(text.len() / 8 + 16, Default::default());
    if text.is_ascii() {
        // One byte per character: the windows of each line's bytes.
        for line in text.split('\n') {
            for w in line.as_bytes().windows(GRAM_CHARS) {
                set.insert(code(char::from(w[0]), char::from(w[1]), char::from(w[2])));
            }
        }
        return set;
    }
    let mut chars: Vec<char> = Vec::new();
    for line in text.split('\n') {
        chars.clear();
        chars.extend(line.chars());
        for w in chars.windows(GRAM_CHARS) {
            set.insert(code(w[0], w[1], w[2]));
        }
    }
    set
}

/// The `grams` field of a file's document: its distinct grams, one per
/// line, in a stable order. Empty for a text without a 3-character line.
pub fn text_grams(text: &str) -> String {
    let mut codes: Vec<Code> = codes(text).into_iter().collect();
    codes.sort_unstable();
    let mut out = String::with_capacity(codes.len() * 4);
    for c in codes {
        push_code(c, &mut out);
        out.push('\n');
    }
    out
}

/// The distinct grams of a literal (a piece of one line), in the order they
/// first occur. Empty when it is shorter than a gram.
pub fn literal_grams(literal: &str) -> Vec<String> {
    let chars: Vec<char> = literal.chars().collect();
    let mut seen = CodeSet::default();
    let mut out = Vec::new();
    for w in chars.windows(GRAM_CHARS) {
        if seen.insert(code(w[0], w[1], w[2])) {
            out.push(w.iter().collect());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exceptions_are_sorted() {
        assert!(FOLD_EXCEPTIONS.windows(2).all(|w| w[0].0 < w[1].0));
    }

    /// Every simple case-fold class of Unicode (as the regex crate folds)
    /// has one folded form.
    #[test]
    fn fold_agrees_with_simple_case_folding() {
        use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
        let mut wrong = Vec::new();
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
            class.case_fold_simple();
            for r in class.iter() {
                for d in r.start()..=r.end() {
                    if fold(d) != fold(c) {
                        wrong.push(format!(
                            "{:04X}->{:04X} vs {:04X}->{:04X}",
                            c as u32,
                            fold(c) as u32,
                            d as u32,
                            fold(d) as u32
                        ));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{} differ: {:?}", wrong.len(), &wrong[..wrong.len().min(40)]);
    }

    #[test]
    fn grams_of_texts_and_literals() {
        assert_eq!(text_grams("abcd\nAB\nxY z"), "Y z\nabc\nbcd\nxY \n");
        assert_eq!(text_grams(""), "");
        assert_eq!(literal_grams("abab"), ["aba", "bab"]);
        assert_eq!(literal_grams("ab"), Vec::<String>::new());
        assert_eq!(literal_grams("ſTR"), ["ſTR"]);
        let folded: String = "ΣΟΣ σος ſTR".chars().map(fold).collect();
        assert_eq!(folded, "σοσ σοσ str");
        // Every gram of a literal found in a text is among the text's grams.
        let text = "fn main() {\n    println!(\"Привет, ΜΙΚΡΟΣ мир\");\n}\n";
        let grams = text_grams(text);
        let all: HashSet<&str> = grams.lines().collect();
        for lit in ["println!(\"", "Привет", "ΜΙΚΡΟΣ", "мир\")"] {
            for g in literal_grams(lit) {
                assert!(all.contains(g.as_str()), "{lit}: {g:?}");
            }
        }
    }
}
