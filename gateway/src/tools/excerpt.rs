//! The lines that answer: the best match of a code search carries its
//! definition's code, so that one call answers instead of a search and a
//! read. The index keeps each definition's first lines (`symbols.code`);
//! when the definition is longer than that, its lines are read from the
//! files index by id (one `_mget`, for the best match only): the first [`NAME_LINES`] of a function ([`TYPE_LINES`] of a type) for a name, the
//! [`WINDOW_LINES`] where the question's words are densest for a question in
//! words (trimmed to a few lines around those holding them; in a long
//! window, only the lines holding the most of them, `thinned`), the lines of
//! code holding the words for a name followed by words.

use serde::Deserialize;
use vibe_common::backend::naming::project_hash;
use vibe_common::document::ast::AstData;
use vibe_common::document::kinds::ElementKind;

use super::answer::stored_file;
use crate::answers::{FileAnswer, FileResult, Freshness, Line, Outline, SymbolsAnswer, TextFound, Uses};
use crate::budget::{escaped_len, json_len, RESERVE};
use crate::gateway::Gateway;
use crate::template_params;

/// Lines of a long function or method shown for its name.
pub const NAME_LINES: u64 = 60;
/// Lines of a long class (or other type) shown for its name: its members
/// follow in `get_file_ast`.
pub const TYPE_LINES: u64 = 30;

/// Lines of a long definition shown for its name, by its kind.
fn name_lines(kind: &str) -> u64 {
    if ElementKind::parse(kind).is_some_and(ElementKind::is_callable) {
        NAME_LINES
    } else {
        TYPE_LINES
    }
}
/// Lines shown around a question's words in a long definition.
pub const WINDOW_LINES: u64 = 30;
/// Largest file whose text is read to show a definition's lines or a
/// use's line: a bigger one keeps the stored first lines (reading many
/// large texts at once under load trips OpenSearch's memory breaker).
pub const MAX_READ_BYTES: u64 = 256 * 1024;

/// Whether the file an answer or result names is small enough to read.
pub(super) fn readable_file(freshness: &Freshness) -> bool {
    freshness.indexed_size().is_some_and(|size| size <= MAX_READ_BYTES)
}

/// Leading characters of a word that stand for its inflections.
pub(super) const STEM_CHARS: usize = 5;

/// Which lines of its definition the best match shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show<'a> {
    /// Its first lines (a name).
    Start,
    /// The [`WINDOW_LINES`] where the question's words are densest.
    Window(&'a str),
    /// Its first line and the lines holding these words, each with the
    /// lines its statement goes on over (a name followed by words).
    Lines(&'a str),
}

/// Gives the first match of the first result the lines that answer, when
/// its stored `code` is only the start of a longer definition. A file that
/// cannot be read (gone from the index) keeps the stored lines.
pub async fn complete(gw: &Gateway, answer: &mut SymbolsAnswer, show: Show<'_>) {
    let room = room_for_code(gw, answer);
    let Some(result) = answer.results.first_mut().filter(|r| readable_file(&r.freshness)) else { return };
    let file = stored_file(gw, &result.project, &result.path);
    let Some(m) = result.found.matches.first_mut() else { return };
    let Some((start, end)) = m.head.lines.as_deref().and_then(crate::render::span) else { return };
    let shown = m.code.as_deref().map_or(0, |c| c.lines().count() as u64);
    let doc = m.code_skip.as_deref().and_then(crate::render::span);
    let skipped = doc.map_or(0, |(a, b)| b - a + 1);
    // A definition whose stored lines are all of it keeps them, unless
    // words ask for fewer.
    let whole = end - start < shown + skipped;
    let fewer = matches!(show, Show::Lines(_)) && end - start >= HOLDING_LINES as u64;
    if shown == 0 || (whole && !fewer) {
        return;
    }
    let Some(content) = file_text(gw, file).await else { return };
    let lines: Vec<&str> = content.lines().collect();
    let stored = m.code.as_deref().map_or(0, escaped_len);
    let spans = match show {
        Show::Window(query) => window_spans(&lines, (start, end), query),
        Show::Lines(words) => holding(&lines, (start, end), doc, words),
        Show::Start => vec![],
    };
    if spans.is_empty() {
        // Words that are not in it: its start, shorter, and a note.
        let missing = match show {
            Show::Lines(words) => Some(format!("no line of {} holds {words:?}; its first lines follow", m.head.name)),
            _ => None,
        };
        let shown = if missing.is_some() { MISSING_WORDS_LINES } else { name_lines(&m.head.kind) };
        (m.code, m.code_skip) = code_of(&content, (start, end), shown, room + stored);
        if let Some(note) = missing {
            answer.add_note(&note);
        }
        return;
    }
    let text: Vec<&str> = spans.iter().flat_map(|&(a, b)| lines[a as usize - 1..b as usize].iter().copied()).collect();
    let text = within(text.join("\n"), room + stored);
    m.code_lines = Some(crate::render::spans_text(&spans, text.lines().count() as u64));
    m.code = Some(text);
    m.code_skip = None;
}

/// Lines a definition shows for the words after its name, its first
/// line included.
pub const HOLDING_LINES: usize = 8;

/// Lines a definition shows when no line of it holds the words after its
/// name: its start (as many as the index keeps) and a note; its lines
/// are in the header, for a read.
pub const MISSING_WORDS_LINES: u64 = 12;

/// Lines a statement that holds a word may go on over (an unclosed
/// bracket, an operator at its end), up to a comment.
const CONTINUATION_LINES: u64 = 2;

/// The spans of `start..=end` to show for `words`, as grep would: the
/// first line, then the lines of code holding the most of the words (a
/// long word also by its stem; comments when no code holds one), each with
/// the lines its statement goes on over, up to [`HOLDING_LINES`] lines in
/// all, in their order; the `doc` block
/// (summarized already) is passed over. None when no line holds a word.
fn holding(lines: &[&str], (start, end): (u64, u64), doc: Option<(u64, u64)>, words: &str) -> Vec<(u64, u64)> {
    let words: Vec<String> =
        template_params::analyze(words).words.into_iter().map(|w| w.prefix.unwrap_or(w.word)).collect();
    let text = |n: u64| lines.get(n as usize - 1).copied().unwrap_or_default();
    let held = |n: u64| {
        let line = text(n).to_lowercase();
        words.iter().filter(|w| line.contains(w.as_str())).count()
    };
    let in_doc = |n: u64| doc.is_some_and(|(a, b)| a <= n && n <= b);
    let mut hits: Vec<(u64, usize)> = (start..=end).filter(|n| !in_doc(*n)).map(|n| (n, held(n))).collect();
    hits.retain(|(_, k)| *k > 0);
    if hits.is_empty() {
        return vec![];
    }
    // Lines with the most words (only those, when that is more than one),
    // the earliest first; comments only when no line of code holds a word
    // (a comment that repeats the words cost as much as the code).
    let most = hits.iter().map(|(_, k)| *k).max().unwrap_or(0);
    if most > 1 {
        hits.retain(|(_, k)| *k == most);
    }
    if hits.iter().any(|&(n, _)| !crate::render::is_comment(text(n))) {
        hits.retain(|&(n, _)| !crate::render::is_comment(text(n)));
    }
    hits.sort_by_key(|&(n, k)| (std::cmp::Reverse(k), n));
    let goes_on_in_code = |l: u64| goes_on(text(l)) && !in_doc(l + 1) && !crate::render::is_comment(text(l + 1));
    let mut shown = std::collections::BTreeSet::from([start]);
    for (n, _) in hits {
        let mut last = n;
        while last < end && last - n < CONTINUATION_LINES && goes_on_in_code(last) {
            last += 1;
        }
        if shown.len() + (n..=last).filter(|l| !shown.contains(l)).count() > HOLDING_LINES {
            break;
        }
        shown.extend(n..=last);
    }
    runs(shown)
}

/// Whether a line's statement goes on over the next line: more brackets
/// open than closed, or an operator or comma at its end.
fn goes_on(line: &str) -> bool {
    let code = line.trim_end();
    let open = code.matches(['(', '[', '{']).count();
    let closed = code.matches([')', ']', '}']).count();
    open > closed || code.ends_with([',', '?', ':', '+', '-', '*', '/', '&', '|', '=', '\\']) && !code.ends_with("//")
}

/// A definition's first `shown` lines as its `code`, the doc block at its
/// head left out (its lines: `code_skip`), within `room` bytes.
fn code_of(content: &str, (start, end): (u64, u64), shown: u64, room: usize) -> (Option<String>, Option<String>) {
    let excerpt =
        vibe_common::text::summary::code_excerpt(content, start as u32, end as u32, shown as usize, usize::MAX);
    (Some(within(excerpt.code, room)), excerpt.skipped.map(|(a, b)| format!("{a}-{b}")))
}

/// Gives the element `get_file_ast` answers for `symbol` (the first of
/// its `matches`) its code: its first lines (`name_lines`).
pub async fn symbol_code(gw: &Gateway, answer: &mut FileAnswer<Outline>) {
    let room = room_for_code(gw, answer);
    if !readable_file(&answer.freshness) {
        return;
    }
    let file = stored_file(gw, answer.root.as_deref().unwrap_or_default(), &answer.path);
    let Some(m) = answer.body.matches.as_mut().and_then(|m| m.first_mut()) else { return };
    let Some((start, end)) = m.lines.as_deref().and_then(crate::render::span) else { return };
    let Some(content) = file_text(gw, file).await else { return };
    (m.code, m.code_skip) = code_of(&content, (start, end), name_lines(&m.kind), room);
}

/// Bytes of code an answer can still take within the answer budget.
pub(super) fn room_for_code(gw: &Gateway, answer: &impl serde::Serialize) -> usize {
    gw.answer_budget().saturating_sub(json_len(answer) + RESERVE)
}

/// The first whole lines of `code` that take at most `room` bytes in the
/// JSON answer (and in its text, with line numbers).
pub(super) fn within(code: String, room: usize) -> String {
    if escaped_len(&code) + 8 * code.lines().count() <= room {
        return code;
    }
    let mut used = 0;
    let mut kept = Vec::new();
    for line in code.lines() {
        used += escaped_len(line) + 8;
        if used > room {
            break;
        }
        kept.push(line);
    }
    kept.join("\n")
}

/// Gives each use listed in the results (`references`, `calls`) the text
/// of its line, read from the files index (one `_mget` for all the
/// files), so that a use needs no second read.
pub async fn use_lines(gw: &Gateway, results: &mut [FileResult<Uses>]) {
    let small: Vec<&mut FileResult<Uses>> = results.iter_mut().filter(|r| readable_file(&r.freshness)).collect();
    let files: Vec<(String, String)> = small.iter().map(|r| stored_file(gw, &r.project, &r.path)).collect();
    let Ok(texts) = gw.backend().contents(&files).await else { return };
    for (r, content) in small.into_iter().zip(texts) {
        let Some(content) = content else { continue };
        let lines: Vec<&str> = content.lines().collect();
        let text_of = |line: Line| {
            let text = lines.get((line.0 as usize).checked_sub(1)?)?;
            Some(vibe_common::text::summary::cut(text.trim(), vibe_common::text::summary::MAX_CODE_LINE_CHARS))
        };
        let calls = r.found.calls.iter_mut().flatten().map(|c| &mut c.at);
        for u in r.found.references.iter_mut().flatten().chain(calls) {
            if let Some(text) = text_of(u.line) {
                u.text = Some(text);
            }
        }
    }
}

/// Gives each matching line of a text search (`results[].matches`, not
/// the context lines) the definition it is in, innermost first, as
/// `Owner.name`, from each file's outline (one
/// `get_file_ast` per file, concurrently).
pub async fn enclosing(gw: &Gateway, results: &mut [FileResult<TextFound>]) {
    let mut reads = tokio::task::JoinSet::new();
    // A large file's outline is large too: only the files an excerpt may read.
    for (i, r) in results.iter().enumerate().filter(|(_, r)| readable_file(&r.freshness)) {
        let (gw, root, path) = (gw.clone(), r.project.clone(), r.path.clone());
        reads.spawn(async move { Some((i, outline(&gw, &root, &path).await?)) });
    }
    while let Some(Ok(found)) = reads.join_next().await {
        let Some((i, ast)) = found else { continue };
        for m in results[i].found.matches.iter_mut().filter(|m| m.context.is_none()) {
            if let Some(e) = innermost(&ast, m.line.0 as u32) {
                m.within = Some(e);
            }
        }
    }
}

/// A result's file text and outline, read together.
pub(super) async fn text_and_outline(gw: &Gateway, root: &str, path: &str) -> (Option<String>, Option<AstData>) {
    let (files, path) = stored_file(gw, root, path);
    let ast = gw.backend().names().ast_alias(&project_hash(std::path::Path::new(root)));
    match gw.backend().text_and_outline(&files, &ast, &path).await {
        Ok((text, outline)) => (text, outline.and_then(|o| serde_json::from_value(o).ok())),
        Err(_) => (None, None),
    }
}

/// The outline of a result's file (its `get_file_ast` document).
pub(super) async fn outline(gw: &Gateway, root: &str, path: &str) -> Option<AstData> {
    let index = gw.backend().names().ast_alias(&project_hash(std::path::Path::new(root)));
    let response = gw.backend().run("get_file_ast", &index, template_params::file(path, false, None)).await.ok()?;
    let ast = response.hits().iter().find(|h| h.source_text("path") == Some(path))?;
    AstData::deserialize(&ast.source["ast"]).ok()
}

/// The innermost function, class or other definition (not a variable)
/// whose lines hold line `n`: `Owner.name`, as a use names its caller.
pub(super) fn innermost(ast: &AstData, n: u32) -> Option<String> {
    let (e, _) = ast
        .elements()
        .filter(|e| !e.kind.is_value() && !e.name.is_empty())
        .filter_map(|e| Some((e, e.line?)))
        .filter(|(_, l)| l.start <= n && n <= l.end && l.end > l.start)
        .min_by_key(|(_, l)| l.end - l.start)?;
    Some(e.qualified_name())
}

/// The stored text of one file ([`stored_at`]).
pub(super) async fn file_text(gw: &Gateway, file: (String, String)) -> Option<String> {
    gw.backend().contents(&[file]).await.ok()?.pop().flatten()
}

/// The [`WINDOW_LINES`] of `start..=end` holding most of the query's
/// [`stems`] (the first such window; the definition's start when none
/// holds any),
/// from a few lines before its first line holding a word to a few after
/// its last.
fn densest(lines: &[&str], start: u64, end: u64, stems: &[String]) -> (u64, u64) {
    let per_line: Vec<usize> = (start..=end).map(|n| stems_held(lines, n, stems)).collect();
    let width = WINDOW_LINES.min(end - start + 1) as usize;
    let mut best = (0, 0usize);
    let mut sum: usize = per_line[..width].iter().sum();
    best.1 = sum;
    for i in 1..=per_line.len() - width {
        sum = sum + per_line[i + width - 1] - per_line[i - 1];
        if sum > best.1 {
            best = (i, sum);
        }
    }
    // A few lines of lead-in before the first line that holds a word, and a
    // few after the last one (the whole window when none holds any).
    let first_hit = (best.0..best.0 + width).find(|i| per_line[*i] > 0).unwrap_or(best.0);
    let from = first_hit.saturating_sub(LEAD_LINES);
    let window_end = (from + width).min(per_line.len()) - 1;
    let to = match (from..=window_end).rev().find(|i| per_line[*i] > 0) {
        Some(last_hit) => (last_hit + TAIL_LINES).min(window_end),
        None => window_end,
    };
    (start + from as u64, start + to as u64)
}

/// Most lines a question in words shows of a long window (`thinned`).
pub const THIN_LINES: usize = 12;
/// Longest window shown whole: a definition of up to this many lines is
/// read at a glance, and its answer may hold none of the words.
pub const WHOLE_WINDOW_LINES: usize = 20;

/// The lines of a [`densest`] window to show: all of it when it is at most
/// [`WHOLE_WINDOW_LINES`] long; else, as grep would, the lines holding the most of
/// the question's words (at least two when any line holds two; by stem),
/// each with the line before and after it, the best first, up to
/// [`THIN_LINES`] lines in all, in their order. A window that holds no word
/// is kept (the definition's start).
fn thinned(lines: &[&str], (from, to): (u64, u64), stems: &[String]) -> Vec<(u64, u64)> {
    let counts: Vec<(u64, usize)> = (from..=to).map(|n| (n, stems_held(lines, n, stems))).collect();
    let most = counts.iter().map(|c| c.1).max().unwrap_or(0);
    if (to - from + 1) as usize <= WHOLE_WINDOW_LINES || most == 0 {
        return vec![(from, to)];
    }
    let least = most.min(2);
    let mut best: Vec<(u64, usize)> = counts.into_iter().filter(|c| c.1 >= least).collect();
    best.sort_by_key(|&(n, k)| (std::cmp::Reverse(k), n));
    let mut shown = std::collections::BTreeSet::new();
    for (n, _) in best {
        let around: Vec<u64> =
            (n.saturating_sub(1).max(from)..=(n + 1).min(to)).filter(|l| !shown.contains(l)).collect();
        if shown.len() + around.len() > THIN_LINES {
            break;
        }
        shown.extend(around);
    }
    runs(shown)
}

/// The lines of `start..=end` a question in words shows ([`densest`], [`thinned`]).
pub(super) fn window_spans(lines: &[&str], (start, end): (u64, u64), query: &str) -> Vec<(u64, u64)> {
    let stems = stems(query);
    thinned(lines, densest(lines, start, end, &stems), &stems)
}

/// The lines of `start..=end` holding a name's words ([`holding`]).
pub(super) fn holding_spans(lines: &[&str], span: (u64, u64), words: &str) -> Vec<(u64, u64)> {
    holding(lines, span, None, words)
}

/// Line numbers as spans of consecutive lines, in order.
fn runs(numbers: std::collections::BTreeSet<u64>) -> Vec<(u64, u64)> {
    let mut spans: Vec<(u64, u64)> = Vec::new();
    for n in numbers {
        match spans.last_mut() {
            Some(last) if last.1 + 1 == n => last.1 = n,
            _ => spans.push((n, n)),
        }
    }
    spans
}

/// The query's words by their first [`STEM_CHARS`] characters.
fn stems(query: &str) -> Vec<String> {
    let mut stems: Vec<String> =
        template_params::analyze(query).words.iter().map(|w| w.word.chars().take(STEM_CHARS).collect()).collect();
    stems.sort();
    stems.dedup();
    stems
}

/// How many of `stems` line `n` (1-based) holds.
fn stems_held(lines: &[&str], n: u64, stems: &[String]) -> usize {
    let line = lines.get(n as usize - 1).map(|l| l.to_lowercase()).unwrap_or_default();
    stems.iter().filter(|s| line.contains(s.as_str())).count()
}

/// Lines shown before the first line of a window that holds a word.
const LEAD_LINES: usize = 3;
/// Lines shown after the last line of a window that holds a word.
const TAIL_LINES: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_where_the_words_are() {
        let lines: Vec<String> =
            (1..=100).map(|n| if n == 70 { "delay = base * retries".into() } else { format!("x{n}") }).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        // From a few lines before the first line with a word to a few after the last.
        assert_eq!(densest(&lines, 10, 90, &stems("where is the retry delay computed")), (67, 73));
        assert_eq!(densest(&lines, 10, 90, &stems("nothing here matches")), (10, 39));
        assert_eq!(densest(&lines, 10, 15, &stems("retry delay")), (10, 15));
    }

    #[test]
    fn a_long_window_shows_the_lines_holding_most_words() {
        let mut lines: Vec<String> = (1..=40).map(|n| format!("step{n}(timeout)")).collect();
        lines[19] = "when = self._scheduled[0]._when".into();
        lines[21] = "timeout = min(when - now, MAXIMUM_SELECT_TIMEOUT)".into();
        lines[23] = "events = self._selector.select(timeout)".into();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let question = stems("compute select timeout until the next scheduled callback");
        let window = densest(&lines, 1, 40, &question);
        // The lines with two of the words, each with its neighbours; one span.
        assert_eq!(thinned(&lines, window, &question), [(21, 25)]);
        // A short window is shown whole; so is one that holds no word.
        assert_eq!(thinned(&lines, (11, 30), &stems("select timeout")), [(11, 30)]);
        assert_eq!(thinned(&lines, (1, 40), &stems("nothing matches")), [(1, 40)]);
        // A word and its plural count once.
        assert_eq!(stems("parse ranges range"), ["parse", "range"]);
    }

    #[test]
    fn a_name_then_words_shows_the_lines_holding_them() {
        let lines = [
            "def lru_cache(maxsize=128, typed=False):",
            "    \"\"\"Doc about maxsize.",
            "    \"\"\"",
            "    x = 1",
            "    if maxsize < 0:",
            "        maxsize = 0",
            "    y = 2",
            "    z = 3",
            "    return typed",
        ];
        // The first line, then each line with a word; the doc block passed over.
        assert_eq!(holding(&lines, (1, 9), Some((2, 3)), "maxsize"), vec![(1, 1), (5, 6)]);
        assert_eq!(holding(&lines, (1, 9), None, "typed"), vec![(1, 2), (9, 9)]);
        assert_eq!(holding(&lines, (1, 9), None, "surrogate"), vec![]);
        // A long word matches by its stem (an inflection).
        assert_eq!(holding(&lines, (1, 9), Some((2, 3)), "maxsizes"), vec![(1, 1), (5, 6)]);
        // The lines holding the most words win the room; a statement goes on over its open bracket.
        let many: Vec<String> = (1..=30).map(|n| format!("    a{n} = maxsize")).collect();
        let mut many: Vec<&str> = many.iter().map(String::as_str).collect();
        many[19] = "    evict(cache, maxsize,";
        many[20] = "          now)";
        let spans = holding(&many, (1, 30), None, "maxsize evict");
        assert_eq!(spans, [(1, 1), (20, 21)], "only the lines with both words");
        // Comments only when no line of code holds the words.
        let mut mixed = vec!["fn f() {"];
        mixed.extend(["    // maxsize here"; 10]);
        mixed.extend(["    let m = maxsize;", "}"]);
        let spans = holding(&mixed, (1, 13), None, "maxsize");
        assert_eq!(spans, [(1, 1), (12, 12)], "the code line, not the comments");
        let spans = holding(&mixed[..11], (1, 11), None, "maxsize");
        assert_eq!(spans, [(1, 8)], "the comments while there is room");
        // A statement that goes on stops before a comment.
        let block =
            ["fn f() {", "    if maxsize > 0 {", "        // evict the oldest", "        evict();", "    }", "}"];
        assert_eq!(holding(&block, (1, 6), None, "maxsize"), [(1, 2)]);
    }
}
