//! Code and file contents as numbered lines (`12<tab>line`, as `cat -n`),
//! for [`super`]: the line ranges an answer gives (`lines`, `code_lines`,
//! `code_skip`), the gaps between them, a doc block or a run of comment
//! lines said in one line, and the indentation the lines share taken off.

use std::fmt::Write;

use super::one_line;

/// An element's `code` as numbered lines (over its `code_lines` spans, or
/// on from its first line past `code_skip`), and a last `…` when more of
/// the definition (whose lines the header gave) follows.
pub(super) fn element_code(
    out: &mut String,
    code: &str,
    lines: Option<&str>,
    code_lines: Option<&str>,
    code_skip: Option<&str>,
) {
    let definition = lines.and_then(span);
    let shown = code_lines.map(spans).filter(|s| !s.is_empty());
    let start = shown.as_ref().map(|s| s[0].0).or(definition.map(|d| d.0)).unwrap_or(1);
    let numbers = line_numbers(code, start, shown.as_deref(), code_skip.and_then(span));
    // Lines chosen for words (`code_lines`) are shown as they are.
    let whole = numbered_code(out, code, &numbers, shown.is_none());
    if definition.is_some_and(|d| whole.is_none_or(|w| w != d)) {
        out.push_str("…\n");
    }
}

/// `"12-30"` (or `"12"`) as a line range.
pub fn span(lines: &str) -> Option<(u64, u64)> {
    let (a, b) = lines.split_once('-').unwrap_or((lines, lines));
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// `"12-30,41,45-47"` as line ranges (a malformed part is left out).
pub fn spans(lines: &str) -> Vec<(u64, u64)> {
    lines.split(',').filter_map(span).collect()
}

/// The first `n` lines of `spans` written as [`spans`] reads them.
pub fn spans_text(spans: &[(u64, u64)], mut n: u64) -> String {
    let mut parts = Vec::new();
    for &(a, b) in spans {
        if n == 0 {
            break;
        }
        let b = b.min(a + n - 1);
        n -= b - a + 1;
        parts.push(if a == b { a.to_string() } else { format!("{a}-{b}") });
    }
    parts.join(",")
}

/// The line number of each line of `code`: through `shown` (its spans)
/// when given, else on from `start`, past the lines `skip` left out (a
/// doc block, given with the line that follows it).
fn line_numbers(
    code: &str,
    start: u64,
    shown: Option<&[(u64, u64)]>,
    skip: Option<(u64, u64)>,
) -> Vec<(u64, Option<(u64, u64)>)> {
    let count = code.lines().count();
    if let Some(shown) = shown {
        return shown.iter().flat_map(|&(a, b)| a..=b).take(count).map(|n| (n, None)).collect();
    }
    let mut n = start;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let skipped = skip.filter(|(a, _)| *a == n);
        if let Some((_, b)) = skipped {
            n = b + 1;
        }
        out.push((n, skipped));
        n += 1;
    }
    out
}

/// `code` as numbered lines, `12<tab>line` from the line's start as `cat -n`
/// writes them (no indentation of the answer's own: a model pays for it on
/// every line), the code's common indentation and its blank lines taken
/// off, a gap in the
/// numbers said by `…`, a doc block left out by one line and (`fold`) a
/// run of comment lines folded to one; the one span shown when it has no
/// gap.
fn numbered_code(
    out: &mut String,
    code: &str,
    numbers: &[(u64, Option<(u64, u64)>)],
    fold: bool,
) -> Option<(u64, u64)> {
    let margin = common_indent(code.lines());
    let lines: Vec<&str> = code.lines().collect();
    let mut gap = false;
    let mut last: Option<u64> = None;
    let mut i = 0;
    while i < lines.len().min(numbers.len()) {
        let (n, skipped) = numbers[i];
        if let Some((a, b)) = skipped {
            let lines = if a == b { a.to_string() } else { format!("{a}-{b}") };
            let _ = writeln!(out, "{lines}\t(doc comment)");
        } else if last.is_some_and(|l| n > l + 1) {
            out.push_str("…\n");
            gap = true;
        }
        let run = if fold { comment_run(&lines[i..], &numbers[i..]) } else { 0 };
        if run >= FOLDED_COMMENT_LINES {
            let end = numbers[i + run - 1].0;
            let _ = writeln!(out, "{n}-{end}\t(comment)");
            (last, i) = (Some(end), i + run);
            continue;
        }
        // A blank line is left out: the numbers show it.
        let line = lines[i];
        if !line.trim().is_empty() {
            let _ = writeln!(out, "{n}\t{}", line.get(margin..).unwrap_or(line.trim_start()));
        }
        (last, i) = (Some(n), i + 1);
    }
    let (n, skipped) = *numbers.first()?;
    let first = skipped.map_or(n, |(a, _)| a);
    (!gap).then_some((first, last?))
}

/// A run of this many comment lines inside shown code is one line that
/// gives their numbers (a model asks for them when it needs them).
const FOLDED_COMMENT_LINES: usize = 4;

/// How many lines from the first are comment lines in a row (numbered one
/// after another, no doc block left out between them).
fn comment_run(lines: &[&str], numbers: &[(u64, Option<(u64, u64)>)]) -> usize {
    let mut run = 0;
    while run < lines.len().min(numbers.len())
        && is_comment(lines[run])
        && (run == 0 || (numbers[run].1.is_none() && numbers[run].0 == numbers[run - 1].0 + 1))
    {
        run += 1;
    }
    run
}

/// Whether a line is a comment line: `//`, `/*`, `*`, or `#` before a
/// space (not `#[attribute]` or `#include`).
pub fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("//")
        || t.starts_with("/*")
        || t.starts_with('*')
        || t == "#"
        || t.starts_with("# ")
        || t.starts_with("##")
}

/// The bytes of leading whitespace every non-blank line shares.
pub(super) fn common_indent<'a>(lines: impl Iterator<Item = &'a str>) -> usize {
    lines.filter(|l| !l.trim().is_empty()).map(|l| l.len() - l.trim_start().len()).min().unwrap_or(0)
}

/// Whether one of the first lines of `code` (annotations and decorators
/// come before it) starts the way `signature` does, so the signature need
/// not be said twice.
pub(super) fn shows_signature(code: &str, signature: &str) -> bool {
    let sig = one_line(signature);
    let head: String = sig.chars().take(SIGNATURE_HEAD_CHARS).collect();
    !head.is_empty() && code.lines().take(SIGNATURE_LINES).any(|line| one_line(line).starts_with(&head))
}

/// Whether `code` holds the start of `doc` (its first [`DOC_HEAD_WORDS`]
/// words, whitespace aside): the doc block is among the lines shown.
pub(super) fn shows_doc(code: &str, doc: &str) -> bool {
    let head: Vec<&str> = doc.split_whitespace().take(DOC_HEAD_WORDS).collect();
    head.len() == DOC_HEAD_WORDS && one_line(code).contains(&head.join(" "))
}

/// Words of a doc that, found in the code, show it is there.
const DOC_HEAD_WORDS: usize = 5;

/// Characters of a signature a line of code must start with.
const SIGNATURE_HEAD_CHARS: usize = 24;
/// Lines of code the signature is looked for in (`@Override`,
/// `@VisibleForTesting`, `@functools.wraps(f)` may come first).
const SIGNATURE_LINES: usize = 4;

/// `text` as numbered lines from `start`: `12<tab>line`, as `cat -n`.
pub(super) fn numbered(out: &mut String, text: &str, start: u64) {
    for (i, line) in text.lines().enumerate() {
        let _ = writeln!(out, "{}\t{line}", start + i as u64);
    }
}
