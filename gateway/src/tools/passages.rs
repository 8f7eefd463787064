//! The part of a Markdown document that matched a question: its sections
//! ([`super::sections`], read from the stored text), each scored by the
//! query's words in its heading and text, and the sentence of the best
//! section that holds most of them, quoted. Used by `search_documentation`;
//! uses no tool.

use super::sections::Section;
use crate::budget::{cut_chars, shorten};
use crate::template_params::{analyze, is_cjk};

/// Characters of a quoted passage.
pub const PASSAGE_CHARS: usize = 240;

/// What to look for: the query's words (their prefix for long ones, lower
/// case) and the two-character runs of its CJK text.
pub fn terms(query: &str) -> Vec<String> {
    let a = analyze(query);
    let mut out: Vec<String> = a.words.iter().map(|w| w.prefix.clone().unwrap_or_else(|| w.word.clone())).collect();
    let mut run: Vec<char> = Vec::new();
    for c in query.chars().chain(std::iter::once(' ')) {
        if is_cjk(c) {
            run.push(c);
            continue;
        }
        if run.len() == 1 {
            out.push(run[0].to_string());
        }
        for pair in run.windows(2) {
            out.push(pair.iter().collect());
        }
        run.clear();
    }
    out.sort();
    out.dedup();
    out
}

/// How many of the terms a text holds.
pub fn hits(text: &str, terms: &[String]) -> usize {
    let lower = text.to_lowercase();
    terms.iter().filter(|t| lower.contains(t.as_str())).count()
}

/// A section's score: its heading's terms count thrice, its text's once.
pub fn score(s: &Section, terms: &[String]) -> usize {
    3 * hits(&s.title, terms) + hits(&s.text.join(" "), terms)
}

/// The sentences of a section's text, in order, with the index of their line.
fn sentences(s: &Section) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in s.text.iter().enumerate() {
        let mut start = 0;
        for (i, c) in line.char_indices() {
            let end = i + c.len_utf8();
            let next = line[end..].chars().next();
            let closes = matches!(c, '。' | '！' | '？') || (matches!(c, '.' | '!' | '?') && next == Some(' '));
            if closes {
                out.push((n, line[start..end].trim().to_string()));
                start = end;
            }
        }
        if !line[start..].trim().is_empty() {
            out.push((n, line[start..].trim().to_string()));
        }
    }
    out
}

/// The passage of a section that holds most of the terms: its best
/// sentence and the ones after it on its line (in a table, the rows after
/// its row, `; ` between them), up to [`PASSAGE_CHARS`]; a long sentence is
/// cut around its first term. Without any term in the text, the section's
/// first sentences.
pub fn passage(s: &Section, terms: &[String]) -> String {
    let units = sentences(s);
    if units.is_empty() {
        return String::new();
    }
    let best = (0..units.len()).rev().max_by_key(|i| hits(&units[*i].1, terms)).unwrap_or(0);
    let (line, unit) = &units[best];
    if unit.chars().count() > PASSAGE_CHARS {
        return window(unit, terms);
    }
    let is_row = |l: usize| s.text[l].contains(" | ");
    let (mut out, mut last) = (unit.clone(), *line);
    for (l, next) in &units[best + 1..] {
        let separator = match *l {
            l if l == last => " ",
            l if l == last + 1 && is_row(last) && is_row(l) => "; ",
            _ => break,
        };
        if out.chars().count() + separator.len() + next.chars().count() > PASSAGE_CHARS {
            break;
        }
        out.push_str(separator);
        out.push_str(next);
        last = *l;
    }
    out
}

/// About [`PASSAGE_CHARS`] characters of a long sentence from a little
/// before its first term.
fn window(unit: &str, terms: &[String]) -> String {
    let lower = unit.to_lowercase();
    // Lower case keeps the characters (a byte offset may move): count characters.
    let first = terms.iter().filter_map(|t| lower.find(t.as_str())).min().unwrap_or(0);
    let at_char = lower[..first].chars().count().saturating_sub(40);
    let from = unit.char_indices().nth(at_char).map_or(0, |(i, _)| i);
    let from = if at_char == 0 { 0 } else { unit[from..].find(' ').map_or(from, |s| from + s + 1) };
    let (head, _) = cut_chars(&unit[from..], PASSAGE_CHARS);
    let body = shorten(head, PASSAGE_CHARS);
    let body = if head.len() < unit.len() - from && !body.ends_with('…') { format!("{body}…") } else { body };
    if from > 0 {
        format!("…{body}")
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tools::sections::{sections, tests::DOC};

    #[test]
    fn the_passage_is_the_sentence_that_matched() {
        let s = sections(DOC);
        let t = terms("how to publish a package");
        let best = s.iter().max_by_key(|s| score(s, &t)).unwrap();
        assert_eq!(best.title, "Steps");
        assert_eq!(passage(best, &t), "Publish the package.");
        let t = terms("patches");
        assert_eq!(passage(&s[1], &t), "Patches fix bugs only.");
        // A long sentence is cut around the match, at words.
        let long = Section {
            level: 1,
            title: "x".into(),
            start: 1,
            end: 1,
            text: vec![format!("{} the needle is here {}", "word ".repeat(100), "tail ".repeat(100))],
        };
        let p = passage(&long, &terms("needle"));
        assert!(p.starts_with('…') && p.ends_with('…') && p.contains("the needle is here"), "{p}");
        assert!(p.chars().count() <= PASSAGE_CHARS + 2, "{}", p.chars().count());
    }

    #[test]
    fn a_table_rows_passage_goes_on_with_the_rows_after_it() {
        let table = |rows: &[&str]| Section {
            level: 2,
            title: "Environment variables".into(),
            start: 1,
            end: 9,
            text: rows.iter().map(|r| r.to_string()).collect(),
        };
        let s = table(&[
            "Variable | Effect",
            "ZSTD_SYS_USE_PKG_CONFIG | Link the system's zstd",
            "ZSTD_STATIC | 1: link it statically",
        ]);
        assert_eq!(
            passage(&s, &terms("environment variables")),
            "Variable | Effect; ZSTD_SYS_USE_PKG_CONFIG | Link the system's zstd; ZSTD_STATIC | 1: link it statically"
        );
        // Rows stop at the first entry that is no row, and at PASSAGE_CHARS.
        let s = table(&["Variable | Effect", "A | b", "Prose after the table.", "C | d"]);
        assert_eq!(passage(&s, &terms("variable")), "Variable | Effect; A | b");
        let long = format!("X | {}", "y".repeat(PASSAGE_CHARS - 20));
        let s = table(&["Variable | Effect", &long, "Z | z"]);
        assert_eq!(passage(&s, &terms("variable")), "Variable | Effect");
    }

    #[test]
    fn cjk_and_cyrillic_terms() {
        assert!(terms("兹兹科什是谁").contains(&"科什".to_string()));
        let t = terms("Кто мечтает о тёплых носках?");
        assert!(t.iter().any(|w| "носках".starts_with(w.as_str())), "{t:?}");
    }
}
