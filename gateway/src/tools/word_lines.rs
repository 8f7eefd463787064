//! The lines of the best file that hold a question's words. A question
//! about a detail (a default, a limit, a condition) is often answered by a
//! line outside the definition that ranks first: a constant at the top of
//! the file (`const defaultMaxIdleConns = 2`), a check in a helper. As grep
//! would, the best result also lists the few lines of its file, not shown
//! already, that hold the most of the question's words: an identifier's
//! words count (`defaultMaxIdleConns` holds "default", "max", "idle"), a
//! word counts by its first letters (inflections) or by a word of its group
//! in the code thesaurus (`opensearch-templates/code-synonyms.txt`:
//! "maximum" by "max").

use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use vibe_common::text::identifier::split_identifier;
use vibe_common::text::summary::{cut, MAX_CODE_LINE_CHARS};

use super::excerpt;
use crate::answers::{FileResult, Line, LineHit, SymbolMatch, SymbolsAnswer, SymbolsFound};
use crate::gateway::Gateway;

/// Lines listed at most: for a question in words, and for a name followed
/// by words, whose own lines holding them are shown already (a line outside
/// the definition: the constant it reads).
pub const WORD_LINES: usize = 3;
pub const WORD_LINES_BESIDE_A_NAME: usize = 1;
/// Longer lines are data (minified code, tables), not an answer.
const MAX_LINE_BYTES: usize = 400;

/// Each word's group in the code thesaurus (the word itself included).
static THESAURUS: LazyLock<HashMap<String, Vec<String>>> = LazyLock::new(|| {
    let mut groups = HashMap::new();
    for line in vibe_common::backend::templates::word_list("code-synonyms.txt").unwrap_or_default() {
        let words: Vec<String> = line.split(',').map(|w| w.trim().to_lowercase()).filter(|w| !w.is_empty()).collect();
        for w in &words {
            groups.insert(w.clone(), words.clone());
        }
    }
    groups
});

/// Lists, on the first result, its file's lines holding the most of
/// `words` (see the module doc), each with the definition it is in; for
/// a name followed by words (`beside_a_name`), one line outside the name's
/// definition.
pub async fn add(gw: &Gateway, answer: &mut SymbolsAnswer, words: &str, beside_a_name: bool) {
    let wanted = word_stems(words);
    if wanted.is_empty() {
        return;
    }
    let Some(result) = answer.results.first_mut().filter(|r| excerpt::readable_file(&r.freshness)) else { return };
    let mut shown = shown_lines(&result.found.matches);
    let most = if beside_a_name {
        let definition =
            result.found.matches.first().and_then(|m| m.head.lines.as_deref()).and_then(crate::render::span);
        if let Some((a, b)) = definition {
            shown.extend(a..=b);
        }
        WORD_LINES_BESIDE_A_NAME
    } else {
        WORD_LINES
    };
    add_to(gw, result, &wanted, &shown, most).await;
}

/// Lists, on one result, up to `most` lines of its file.
async fn add_to(
    gw: &Gateway,
    result: &mut FileResult<SymbolsFound>,
    wanted: &[Vec<String>],
    shown: &BTreeSet<u64>,
    most: usize,
) {
    let (Some(content), ast) = excerpt::text_and_outline(gw, &result.project, &result.path).await else { return };
    result.found.word_lines = best_lines(&content, wanted, shown, most)
        .into_iter()
        .map(|(n, text)| LineHit {
            line: Line(n),
            text: cut(text.trim(), MAX_CODE_LINE_CHARS),
            context: None,
            within: ast.as_ref().and_then(|a| excerpt::innermost(a, n as u32)),
        })
        .collect();
}

/// Each word of a question as the stems that stand for it: its own and
/// those of its thesaurus group.
fn word_stems(words: &str) -> Vec<Vec<String>> {
    let stem = |w: &str| w.chars().take(excerpt::STEM_CHARS).collect::<String>();
    crate::template_params::analyze(words)
        .words
        .into_iter()
        .map(|w| {
            // A plural finds its singular's group ("connections": "conn").
            let group = THESAURUS.get(&w.word).or_else(|| THESAURUS.get(w.word.strip_suffix('s')?));
            let mut group = group.cloned().unwrap_or_default();
            group.push(w.word.clone());
            let mut stems: Vec<String> = group.iter().map(|g| stem(g)).collect();
            stems.sort();
            stems.dedup();
            stems
        })
        .collect()
}

/// The lines shown already in a result's matches: their code, and the
/// values they read from its file.
fn shown_lines(matches: &[SymbolMatch]) -> BTreeSet<u64> {
    let mut shown = BTreeSet::new();
    for m in matches {
        // The values it reads, shown under it from this file.
        shown.extend(m.values.iter().filter(|v| v.path.is_none()).map(|v| v.line.0));
        let Some(code) = m.code.as_deref() else { continue };
        let spans = match m.code_lines.as_deref() {
            Some(s) => crate::render::spans(s),
            None => m.head.lines.as_deref().and_then(crate::render::span).into_iter().collect(),
        };
        let skipped = m.code_skip.as_deref().and_then(crate::render::span).map_or(0, |(a, b)| b + 1 - a);
        let mut left = code.lines().count() as u64 + skipped;
        for (a, b) in spans {
            let upto = b.min(a + left.saturating_sub(1));
            shown.extend(a..=upto);
            left = left.saturating_sub(upto + 1 - a);
        }
    }
    shown
}

/// Up to `most` lines of code (not comments, not `shown`) holding
/// the most of the words: at least two when there are two or more, in
/// their order.
fn best_lines<'a>(content: &'a str, wanted: &[Vec<String>], shown: &BTreeSet<u64>, most: usize) -> Vec<(u64, &'a str)> {
    // Two words at least, unless the question has two or fewer.
    let least = if wanted.len() <= 2 { 1 } else { 2 };
    let docs = in_doc_strings(content);
    let candidates: Vec<(u64, &str, Vec<bool>)> = content
        .lines()
        .enumerate()
        .map(|(i, l)| (i as u64 + 1, l))
        .filter(|(n, l)| !shown.contains(n) && l.len() <= MAX_LINE_BYTES && !l.trim().is_empty())
        .filter(|(n, l)| !crate::render::is_comment(l) && !docs.contains(n))
        .map(|(n, l)| (n, l, held(l, wanted)))
        .filter(|(_, _, h)| h.iter().any(|x| *x))
        .collect();
    // A word few lines of the file hold tells more than one most lines hold.
    let weight: Vec<f64> = (0..wanted.len())
        .map(|w| {
            let holding = candidates.iter().filter(|c| c.2[w]).count().max(1);
            (1.0 + candidates.len() as f64 / holding as f64).ln()
        })
        .collect();
    // The most words first; of lines with as many, one that sets or tests a
    // literal (the kind of line a detail is), then the rarer words.
    let mut scored: Vec<(usize, f64, u64, &str)> = candidates
        .iter()
        .filter_map(|(n, l, h)| {
            let k = h.iter().filter(|x| **x).count();
            let rarity: f64 = h.iter().zip(&weight).filter(|(x, _)| **x).map(|(_, w)| w).sum();
            (k >= least).then(|| (2 * k + usize::from(sets_a_literal(l)), rarity, *n, *l))
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)).then(a.2.cmp(&b.2)));
    let mut best: Vec<(u64, &str)> = scored.into_iter().take(most).map(|(_, _, n, l)| (n, l)).collect();
    best.sort_by_key(|&(n, _)| n);
    best
}

/// The lines inside a triple-quoted string (a Python docstring: prose that
/// repeats a question's words), the lines that open and close it included.
fn in_doc_strings(content: &str) -> BTreeSet<u64> {
    let mut inside = false;
    let mut lines = BTreeSet::new();
    for (i, line) in content.lines().enumerate() {
        let quotes = line.matches("\"\"\"").count() + line.matches("'''").count();
        if inside || quotes > 0 {
            lines.insert(i as u64 + 1);
        }
        if quotes % 2 == 1 {
            inside = !inside;
        }
    }
    lines
}

/// Whether a line assigns, compares or returns with a literal in it
/// (`_MAXCACHE = 512`, `if n >= 200:`): the kind of line a detail is.
fn sets_a_literal(line: &str) -> bool {
    let code = line.trim();
    let literal = code.chars().any(|c| c.is_ascii_digit() || c == '"' || c == '\'');
    let sets = code.contains(['=', '<', '>', ':']) || code.starts_with("return");
    literal && sets
}

/// Which of the words a line holds, by the words of its identifiers.
fn held(line: &str, wanted: &[Vec<String>]) -> Vec<bool> {
    let mut words = String::new();
    for token in line.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|t| !t.is_empty()) {
        words.push_str(&token.to_lowercase());
        for w in split_identifier(token) {
            words.push(' ');
            words.push_str(&w);
        }
        words.push(' ');
    }
    wanted.iter().map(|stems| stems.iter().any(|s| words.contains(s.as_str()))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_holding_most_words_by_identifier_words_and_thesaurus() {
        let file = "package sql\n// default max idle connections\nvar x = 1\nconst defaultMaxIdleConns = 2\nfunc (db *DB) maxIdleConnsLocked() int {\n\tn := db.maxIdle\n}\n";
        let wanted = word_stems("default maximum idle connections");
        assert_eq!(held("const defaultMaxIdleConns = 2", &wanted), [true; 4], "{wanted:?}");
        let best = best_lines(file, &wanted, &BTreeSet::new(), 3);
        assert_eq!(
            best,
            vec![
                (4, "const defaultMaxIdleConns = 2"),
                (5, "func (db *DB) maxIdleConnsLocked() int {"),
                (6, "\tn := db.maxIdle")
            ]
        );
        // A docstring's lines are prose.
        let doc = "def f():\n    \"\"\"The default max idle connections.\n    idle default max\n    \"\"\"\n    idle = default_max = 3\n";
        assert_eq!(best_lines(doc, &wanted, &BTreeSet::new(), 3), vec![(5, "    idle = default_max = 3")]);
        // Lines shown already, comments and lines with one word of several are left out.
        let best = best_lines(file, &wanted, &BTreeSet::from([5]), 3);
        assert_eq!(best.iter().map(|b| b.0).collect::<Vec<_>>(), vec![4, 6]);
    }

    #[test]
    fn lines_shown_in_a_match() {
        let matches: Vec<SymbolMatch> = serde_json::from_value(serde_json::json!([
            { "name": "a", "kind": "function", "signature": null, "lines": "10-40", "code": "a\nb\nc" },
            { "name": "b", "kind": "function", "signature": null, "lines": "50-90", "code_lines": "50,60-61", "code": "x\ny\nz" },
        ]))
        .unwrap();
        assert_eq!(shown_lines(&matches), BTreeSet::from([10, 11, 12, 50, 60, 61]));
    }
}
