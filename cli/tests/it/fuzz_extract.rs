//! Seeded random-input test of the extraction engine: every language's fixture
//! is mutated (byte flips, truncation, splices of other languages, random
//! unicode including RTL marks, emoji and NUL) and extracted. Extraction must
//! never panic, and every element must keep its invariants (a non-empty,
//! single-line signature; line ranges inside the file).
//!
//! `VIBE_FUZZ_ITERS` raises the iteration count for long runs
//! (`bench/fuzz.sh` runs it for a given time and reports the figures).

use std::path::PathBuf;

use crate::fuzz_support::{settings, Rng};
use vibe_ingest::extract::{self, ExtractError, LANGUAGES};

const NASTY: &[&str] = &[
    "\u{202e}", "\u{200f}", "😀", "\0", "\u{feff}", "\r\n", "\"\"\"", "/**", "*/", "{", "}", "`", "\\", "ﾟ", "𝕏",
    "\u{0301}",
];

fn fixtures() -> Vec<(PathBuf, String)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/parsers/fixtures");
    let mut out = Vec::new();
    for lang in LANGUAGES {
        for entry in std::fs::read_dir(root.join(lang.id)).unwrap() {
            let p = entry.unwrap().path();
            if p.extension().is_some_and(|e| e != "json") {
                let text = std::fs::read_to_string(&p).unwrap();
                out.push((p, text));
            }
        }
    }
    out
}

fn mutate(rng: &mut Rng, text: &str, others: &[(PathBuf, String)]) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for _ in 0..=rng.below(8) {
        let len = s.len().max(1);
        match rng.below(5) {
            0 => s.truncate(rng.below(len)),
            1 => {
                let at = rng.below(len).min(s.len());
                let nasty = NASTY[rng.below(NASTY.len())];
                for (i, c) in nasty.chars().enumerate() {
                    s.insert(at + i, c);
                }
            }
            2 => {
                let other = &others[rng.below(others.len())].1;
                let chunk: Vec<char> = other.chars().skip(rng.below(other.len())).take(rng.below(400)).collect();
                let at = rng.below(len).min(s.len());
                s.splice(at..at, chunk);
            }
            3 if !s.is_empty() => {
                let at = rng.below(s.len());
                s[at] = char::from_u32((rng.next() % 0x2FFF) as u32).unwrap_or('?');
            }
            _ if !s.is_empty() => {
                let a = rng.below(s.len());
                let b = (a + rng.below(200)).min(s.len());
                s.drain(a..b);
            }
            _ => {}
        }
    }
    s.into_iter().collect()
}

#[test]
fn mutated_sources_never_panic_and_keep_invariants() {
    let (iters, seed) = settings(12, 0x5eed_cafe);
    let files = fixtures();
    let mut rng = Rng(seed);
    let (mut runs, mut gave_up) = (0, 0);
    for round in 0..iters {
        for (path, text) in &files {
            let lang = extract::for_path(path).unwrap();
            let input = mutate(&mut rng, text, &files);
            let ast = match extract::extract(lang, &input) {
                Ok(ast) => ast,
                // A grammar's runaway error recovery is cut by the parse
                // budget: a clear error, the file kept as text.
                Err(ExtractError::ParseTimeout { .. }) => {
                    gave_up += 1;
                    continue;
                }
                Err(e) => panic!("{} round {round}: extraction error {e}", path.display()),
            };
            let lines = input.lines().count() as u32 + 1;
            for e in ast.elements() {
                assert!(
                    !e.signature.is_empty() && !e.signature.contains('\n'),
                    "{}: bad signature {:?}",
                    path.display(),
                    e.signature
                );
                let l = e.line.unwrap();
                assert!(l.start >= 1 && l.start <= l.end && l.end <= lines, "{}: bad lines {l:?}", path.display());
            }
            runs += 1;
        }
    }
    assert_eq!(runs + gave_up, iters * files.len());
    assert!(gave_up * 100 <= runs, "{gave_up} of {runs} mutated inputs ran past the parse budget");
}

/// A mutated Kotlin file (1.3 KB) on which tree-sitter-kotlin-ng's error
/// recovery ran for minutes: extraction stops at the parse budget with an
/// error naming the language, and the parser is usable right after.
#[test]
fn a_runaway_parse_stops_at_its_budget() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/parsers/runaway");
    let path = root.join("kotlin_mutated.kt");
    let input = std::fs::read_to_string(&path).unwrap();
    let lang = extract::for_path(&path).unwrap();
    match extract::extract(lang, &input) {
        Err(e @ ExtractError::ParseTimeout { .. }) => {
            assert!(e.to_string().starts_with("Kotlin parser gave up after"), "{e}")
        }
        other => panic!("expected the parse budget's error, got {:?}", other.map(|a| a.elements().count())),
    }
    let fine = "fun main() { println(1) }\n";
    assert_eq!(extract::extract(lang, fine).unwrap().elements().count(), 1);
}
