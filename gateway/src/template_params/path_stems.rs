//! A question's words as stems of path words: the file whose path names the
//! question's subject (`adapters/xhr.js` for "XHR browser adapter",
//! `middleware/logger.rb` for "request logging middleware") ranks up.

use super::analyze;

/// What a path word matching a question's word adds (a file whose path
/// names the question's subject: `adapters/xhr.js` for "XHR browser adapter").
/// semble's dev split, NDCG@10: 0 -> 0.815, 3 -> 0.846, 5 -> 0.848,
/// 7 -> 0.851, 10 -> 0.846, 20 -> 0.824.
pub const PATH_STEM_BOOST: f64 = 7.0;

/// Words a question about code uses for any subject.
const CODE_FILLER_WORDS: &[&str] =
    &["implementation", "implemented", "implements", "work", "works", "used", "uses", "using", "handled", "handles"];

/// Stems of a question's words (at most [`MAX_PATH_STEMS`], ASCII letters
/// and digits, 3 characters or more): a word without its inflection
/// (`sessions` -> `session`, `logging` -> `logg`, `exceptions` -> `except`),
/// to match path words by prefix.
pub fn path_stems(query: &str) -> Vec<String> {
    let mut stems: Vec<String> = Vec::new();
    for w in analyze(query).words {
        let word = w.word;
        if !word.chars().all(|c| c.is_ascii_alphanumeric()) || CODE_FILLER_WORDS.contains(&word.as_str()) {
            continue;
        }
        let stem = stem(&word);
        if stem.len() >= 3 && !stems.contains(&stem) && stems.len() < MAX_PATH_STEMS {
            stems.push(stem);
        }
    }
    stems
}

/// Path stems a question sends at most.
const MAX_PATH_STEMS: usize = 6;

/// A word without one English inflection or derivation suffix, when at
/// least 3 characters stay.
fn stem(word: &str) -> String {
    const SUFFIXES: &[&str] = &["ations", "ation", "ings", "ing", "ions", "ion", "ers", "er", "ed", "es", "s"];
    for suffix in SUFFIXES {
        if let Some(stem) = word.strip_suffix(suffix) {
            if stem.len() >= 3 && !(suffix == &"s" && stem.ends_with('s')) {
                return stem.to_string();
            }
        }
    }
    word.to_string()
}
