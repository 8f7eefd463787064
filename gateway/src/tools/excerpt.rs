//! The lines that answer: the best match of a code search carries its
//! definition's code, so that one call answers instead of a search and a
//! read. The index keeps each definition's first lines (`symbols.code`);
//! when the definition is longer than that, its lines are read from the
//! files index by id (one `_mget`, for the best match only): the first [`NAME_LINES`] of a function ([`TYPE_LINES`] of a type) for a name;
//! for a question in words all of a definition up to [`WHOLE_LINES`] long,
//! else its first line and the statements that decide, those holding the
//! question's words first ([`statements`]); the lines of code holding the
//! words for a name followed by words.

use serde::Deserialize;
use vibe_common::backend::naming::project_hash;
use vibe_common::document::ast::AstData;
use vibe_common::document::kinds::ElementKind;

use super::answer::stored_file;
use crate::answers::{FileAnswer, FileResult, Freshness, Line, Outline, SymbolMatch, SymbolsAnswer, TextFound, Uses};
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
    /// All of a short definition, the statements of a long one that hold
    /// the question's words ([`window_spans`]).
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
    // A question in words: of the file's matches, the unit whose lines hold
    // the most of its words answers (read once for all of them).
    let mut content = None;
    let mut promoted = false;
    if let (Show::Window(query), true) = (show, result.found.matches.len() > 1) {
        content = file_text(gw, file.clone()).await;
        if let Some(text) = content.as_deref() {
            promoted = promote_best_unit(&mut result.found.matches, text, query);
        }
    }
    let Some(m) = result.found.matches.first_mut() else { return };
    let Some((start, end)) = m.head.lines.as_deref().and_then(crate::render::span) else { return };
    let shown = m.code.as_deref().map_or(0, |c| c.lines().count() as u64);
    let doc = m.code_skip.as_deref().and_then(crate::render::span);
    let skipped = doc.map_or(0, |(a, b)| b - a + 1);
    // A definition whose stored lines are all of it keeps them, unless
    // words ask for fewer.
    let whole = end - start < shown + skipped;
    let fewer = matches!(show, Show::Lines(_)) && end - start >= HOLDING_LINES as u64;
    if !promoted && (shown == 0 || (whole && !fewer)) {
        return;
    }
    let content = match content {
        Some(content) => content,
        None => match file_text(gw, file).await {
            Some(content) => content,
            None => return,
        },
    };
    let lines: Vec<&str> = content.lines().collect();
    let stored = m.code.as_deref().map_or(0, escaped_len);
    if matches!(show, Show::Window(_)) && end - start < WHOLE_LINES {
        // A short definition, whole: its doc block and comment runs are
        // said in a line each when shown.
        (m.code, m.code_skip) = code_of(&content, (start, end), end - start + 1, room + stored);
        return;
    }
    let spans = match show {
        Show::Window(query) => window_spans(&lines, (start, end), doc, query),
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

/// Moves first, among the best file's matches, the function, method or
/// value whose own lines (its body's comments included) hold more of the
/// question's words than the first match's: the unit that does what the
/// question asks, not the one whose name or doc reads like it. The match
/// it passes loses its code (a value keeps its first lines); the one moved
/// gets its code from the caller. Whether one moved.
fn promote_best_unit(matches: &mut Vec<SymbolMatch>, content: &str, query: &str) -> bool {
    let stems = stems(query);
    let lines: Vec<&str> = content.lines().collect();
    let held = |m: &SymbolMatch| -> usize {
        let Some((start, end)) = m.head.lines.as_deref().and_then(crate::render::span) else { return 0 };
        // Its body's comments count (`// Skip-ahead prefilter: ...` says
        // what the lines under it do); a doc block above it is not in `lines`.
        let code = (start..=end.min(lines.len() as u64)).map(|n| lines[n as usize - 1]);
        let code: Vec<String> = code.map(str::to_lowercase).collect();
        stems.iter().filter(|s| code.iter().any(|l| l.contains(s.as_str()))).count()
    };
    // A unit that hands its work to the first match (calls it) holds the
    // question's words around that call: the first match does the work.
    let call_of_first = format!("{}(", matches[0].head.name);
    let calls_first = |m: &SymbolMatch| {
        let Some((start, end)) = m.head.lines.as_deref().and_then(crate::render::span) else { return false };
        (start..=end.min(lines.len() as u64)).any(|n| lines[n as usize - 1].contains(&call_of_first))
    };
    let unit = |m: &SymbolMatch| {
        ElementKind::parse(&m.head.kind).is_some_and(|k| k.is_callable() || k.is_value()) && !calls_first(m)
    };
    let first = held(&matches[0]);
    let best =
        matches.iter().enumerate().skip(1).filter(|(_, m)| unit(m)).map(|(i, m)| (held(m), std::cmp::Reverse(i))).max();
    let Some((_, std::cmp::Reverse(i))) = best.filter(|&(most, _)| most > first) else { return false };
    let mut moved = matches.remove(i);
    (moved.code, moved.code_lines, moved.code_skip) = (None, None, None);
    let passed = &mut matches[0];
    if !ElementKind::parse(&passed.head.kind).is_some_and(ElementKind::is_value) {
        (passed.code, passed.code_lines, passed.code_skip) = (None, None, None);
    }
    matches.insert(0, moved);
    true
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

/// A definition of at most this many lines is shown whole for a question
/// in words (its doc block left out: the head says it).
pub const WHOLE_LINES: u64 = 40;
/// Most lines a question in words shows of a longer definition
/// ([`statements`]), its first line and the lines its statements go on
/// over included.
pub const THIN_LINES: usize = 16;

/// The lines of `start..=end` a question in words shows: all of a short
/// definition but its `doc` block; of a longer one its first line and the
/// statements that decide ([`statements`]).
pub(super) fn window_spans(
    lines: &[&str],
    (start, end): (u64, u64),
    doc: Option<(u64, u64)>,
    query: &str,
) -> Vec<(u64, u64)> {
    let in_doc = |n: u64| doc.is_some_and(|(a, b)| a <= n && n <= b);
    if end - start < WHOLE_LINES {
        return runs((start..=end).filter(|n| !in_doc(*n)).collect());
    }
    statements(lines, (start, end), &in_doc, &stems(query))
}

/// Of a long definition, as a reader skims it: its first line, then the
/// lines of code that assign, compare, return or raise, those holding the
/// question's words ([`stems`]) first, then those holding a literal, each
/// with the lines its statement goes on over, up to [`THIN_LINES`] lines,
/// in their order. Comments and the doc block are passed over.
fn statements(
    lines: &[&str],
    (start, end): (u64, u64),
    in_doc: &dyn Fn(u64) -> bool,
    stems: &[String],
) -> Vec<(u64, u64)> {
    let text = |n: u64| lines.get(n as usize - 1).copied().unwrap_or_default();
    let code = |n: u64| !in_doc(n) && !text(n).trim().is_empty() && !crate::render::is_comment(text(n));
    let mut ranked: Vec<(u64, usize)> = (start + 1..=end)
        .filter(|&n| code(n))
        .map(|n| (n, statement_weight(text(n), stems_held(lines, n, stems))))
        .collect();
    ranked.retain(|&(_, w)| w > 0);
    ranked.sort_by_key(|&(n, w)| (std::cmp::Reverse(w), n));
    let mut shown = std::collections::BTreeSet::from([start]);
    for (n, w) in ranked {
        let mut last = n;
        while last < end && last - n < CONTINUATION_LINES && goes_on(text(last)) && code(last + 1) {
            last += 1;
        }
        // A line holding the words comes with the condition it runs under.
        let guard = (w >= WORD_WEIGHT).then(|| guard_of(lines, (start, n))).flatten();
        let wanted: Vec<u64> = guard.into_iter().chain(n..=last).filter(|l| !shown.contains(l)).collect();
        if shown.len() + wanted.len() > THIN_LINES {
            continue;
        }
        shown.extend(wanted);
    }
    runs(shown)
}

/// The weight of one of the question's words on a line ([`statement_weight`]).
const WORD_WEIGHT: usize = 4;

/// The condition line `n` runs under: the nearest line above it, after
/// `start`, that is indented less and decides (`if`, `while`, `case`…).
fn guard_of(lines: &[&str], (start, n): (u64, u64)) -> Option<u64> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let own = indent(lines.get(n as usize - 1)?);
    let above = (start + 1..n).rev().map(|k| (k, lines[k as usize - 1])).filter(|(_, l)| !l.trim().is_empty());
    let (k, line) = above.into_iter().find(|(_, l)| indent(l) < own)?;
    is_decision(line.trim()).then_some(k)
}

/// How much a line of code tells: the question's words it holds (most),
/// then whether it decides (assigns, compares, returns, raises), then a
/// literal; 0 for a line that does none of these.
fn statement_weight(line: &str, words: usize) -> usize {
    let t = line.trim();
    let decides = is_decision(t);
    let literal = t.contains(|c: char| c.is_ascii_digit()) || t.contains(['"', '\'']);
    if words == 0 && !decides {
        return 0;
    }
    words * WORD_WEIGHT + usize::from(decides) * 2 + usize::from(literal && decides)
}

/// A line that assigns, compares, returns or raises.
fn is_decision(t: &str) -> bool {
    const STARTS: [&str; 12] =
        ["return", "raise", "throw", "yield", "if ", "if(", "elif ", "else if", "while ", "case ", "match ", "panic!"];
    const HOLDS: [&str; 14] = [" = ", "+=", "-=", "*=", "/=", ":=", "|=", "??=", "==", "!=", "<=", ">=", " < ", " > "];
    STARTS.iter().any(|s| t.starts_with(s)) || HOLDS.iter().any(|h| t.contains(h)) || t.contains("Err(")
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
pub(super) fn stems(query: &str) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_definition_is_shown_whole_but_its_doc() {
        let lines: Vec<String> = (1..=60).map(|n| format!("x{n} = {n}")).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(window_spans(&lines, (10, 49), None, "anything"), [(10, 49)]);
        assert_eq!(window_spans(&lines, (10, 49), Some((11, 14)), "anything"), [(10, 10), (15, 49)]);
    }

    #[test]
    fn a_long_definition_shows_its_statements_with_the_words_first() {
        let mut lines: Vec<String> = (1..=80).map(|n| format!("    step{n}(data)")).collect();
        lines[0] = "def select(self, timeout=None):".into();
        lines[1] = "    # wait for the next scheduled callback".into();
        lines[29] = "    when = self._scheduled[0]._when".into();
        lines[31] = "    timeout = min(when - now, MAXIMUM_SELECT_TIMEOUT)".into();
        lines[33] = "    events = self._selector.select(".into();
        lines[34] = "        timeout)".into();
        lines[59] = "    if len(events) > 100:".into();
        lines[69] = "    return events".into();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let spans = window_spans(&lines, (1, 80), None, "compute select timeout until the next scheduled callback");
        // The first line; the statements, a statement with the lines it goes
        // on over (the `if` its first line of body); the comment that repeats
        // the words is passed over.
        assert_eq!(spans, [(1, 1), (30, 30), (32, 32), (34, 35), (60, 61), (70, 70)]);
        assert_eq!(statement_weight("    return events", 0), 2);
        assert_eq!(statement_weight("    step3(data)", 0), 0, "a call that decides nothing, without the words");
        assert_eq!(statement_weight("    timeout = 30", 1), 7);
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
