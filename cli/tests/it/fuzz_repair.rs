//! Seeded random-input test of the LLM JSON repair: valid and broken model
//! answers (fences, bare keys, trailing commas, cut-off text, random bytes,
//! RTL marks, emoji, NUL) go through `clean_llm_json`, `parse_llm_json`,
//! `check_answer` and `parse_summary`. None may panic, and whatever
//! `parse_llm_json` accepts must be valid JSON.
//!
//! `VIBE_FUZZ_ITERS` / `VIBE_FUZZ_SEED` make longer runs (see bench/fuzz.sh).

use crate::fuzz_support::{settings, Rng};
use vibe_ingest::analyzer::repair::{check_answer, clean_llm_json, parse_llm_json, parse_summary};

const SEEDS: &[&str] = &[
    r#"{"files":[{"path":"src/a.rs","description":"Adds numbers","tags":["math","add"]},{"path":"b.py","description":"Multiplies","tags":["math"]}]}"#,
    "```json\n{files: [{path: \"src/a.rs\", description: \"x\", tags: [\"t\",],},],}\n```",
    "Here you go:\n{\"files\":[{\"path\":\"src/a.rs\",\"description\":\"d\",\"tags\":[\"a\"]}",
    "{\"summary\": \"A small project. It does things.\"}",
];
const PIECES: &[&str] = &[
    "```",
    "```json\n",
    ",",
    "}",
    "]",
    "{",
    "[",
    "\"",
    ":",
    "\\",
    "\u{202e}",
    "😀",
    "\0",
    "files",
    "path",
    "//",
    "/*",
    "\n",
    "'",
    "null",
    "tags",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for _ in 0..=rng.below(6) {
        let len = s.len().max(1);
        match rng.below(4) {
            0 => s.truncate(rng.below(len)),
            1 => {
                let at = rng.below(len).min(s.len());
                let piece: Vec<char> = PIECES[rng.below(PIECES.len())].chars().collect();
                s.splice(at..at, piece);
            }
            2 if !s.is_empty() => {
                let a = rng.below(s.len());
                let b = (a + rng.below(20)).min(s.len());
                s.drain(a..b);
            }
            _ if !s.is_empty() => {
                let at = rng.below(s.len());
                s[at] = char::from_u32((rng.next() % 0x3000) as u32).unwrap_or('?');
            }
            _ => {}
        }
    }
    s.into_iter().collect()
}

#[test]
fn broken_answers_never_panic_and_accepted_ones_are_sound() {
    let (iters, seed) = settings(2000, 0xfeed_beef);
    let mut rng = Rng(seed);
    let expected = ["src/a.rs", "b.py"];
    let mut accepted = 0;
    for _ in 0..iters {
        let base = SEEDS[rng.below(SEEDS.len())];
        let input = mutate(&mut rng, base);
        // What the repair hands the parser is the input's text, never more.
        let cleaned = clean_llm_json(&input);
        assert!(cleaned.chars().count() <= input.chars().count() + 8, "{input:?} -> {cleaned:?}");
        if let Ok(v) = parse_llm_json(&input) {
            serde_json::to_string(&v).expect("accepted JSON serializes");
            accepted += 1;
        }
        // An answer checked is sound: every sent path is either answered or
        // missing, once, and what is unexpected was not sent.
        if let Ok(checked) = check_answer(&input, &expected) {
            assert!(checked.missing.iter().all(|p| expected.contains(&p.as_str())), "{checked:?}");
            assert!(checked.matched.keys().all(|p| expected.contains(&p.as_str()) && !checked.missing.contains(p)));
            assert!(checked.unexpected.iter().all(|p| !expected.contains(&p.as_str())), "{checked:?}");
            let mut seen = checked.missing.clone();
            seen.dedup();
            assert_eq!(seen.len(), checked.missing.len(), "{checked:?}");
        }
        // A summary is one line of words, never empty.
        if let Some(summary) = parse_summary(&input) {
            assert!(!summary.is_empty() && !summary.contains('\n') && summary.trim() == summary, "{summary:?}");
        }
    }
    // The repair does its job on a good share of the mutations.
    assert!(accepted > iters / 20, "only {accepted} of {iters} inputs were repaired");
    // And on the unmutated, repairable seeds.
    for s in &SEEDS[..3] {
        assert!(parse_llm_json(s).is_ok(), "{s}");
    }
}
