//! The function a short best match hands its work to. Many a public
//! function or overload is one line that calls another in the same file
//! (`return new HashMap<>(capacity(expectedSize))`, `return
//! _getmembers(object, predicate, getattr)`): the line that answers a
//! question about it is in that callee. The scanner records, in each short
//! function's stored `show`, the functions of its file it calls (`calls`,
//! `vibe_common::document::shown::DELEGATE_LINES`). The answer carries the first
//! such callee of the best match's shown definitions, right after the
//! match that calls it (`called_by` names its caller): whole when short,
//! else the lines a question's words point to, or its first and last lines
//! for a name. A best match that calls none costs no search.

use vibe_common::backend::naming::project_hash;
use vibe_common::document::shown::Shown;

use super::answer::stored_file;
use super::excerpt::{self, Show};
use crate::answers::{FileResult, SymbolMatch, SymbolsAnswer, SymbolsFound};
use crate::gateway::Gateway;
use crate::search_hits::Hit;

/// A callee of at most this many lines is shown whole.
pub const CALLEE_WHOLE_LINES: u64 = 25;
/// Of a longer callee found by its caller's name: its first and last lines
/// (where the result is set up and returned).
const CALLEE_HEAD_LINES: u64 = 10;
const CALLEE_TAIL_LINES: u64 = 6;

/// What a hit's definitions call, as the scanner recorded it: (the caller's
/// `lines`, a callee's name), in order.
pub fn calls_in(hit: &Hit) -> Vec<(String, String)> {
    let inner = ["symbols", "elements"].iter().flat_map(|name| hit.inner(name));
    let mut out: Vec<(String, String)> = Vec::new();
    for shown in inner.filter_map(super::answer::shown) {
        let lines = shown.lines.unwrap_or_default();
        out.extend(shown.calls.into_iter().map(|name| (lines.clone(), name.into_owned())));
    }
    out
}

/// The stored template that finds a file's functions and methods by name.
pub const DEFINITIONS_TEMPLATE: &str = "find_definitions";

/// Adds the callee of the first result's short definitions (see the module
/// doc); `calls`: [`calls_in`] of its hit.
pub async fn follow(gw: &Gateway, answer: &mut SymbolsAnswer, calls: &[(String, String)], show: Show<'_>) {
    if calls.is_empty() {
        return;
    }
    let room = excerpt::room_for_code(gw, answer);
    let Some(result) = answer.results.first_mut().filter(|r| excerpt::readable_file(&r.freshness)) else { return };
    let called = callers_shown(&result.found.matches, calls);
    if called.is_empty() {
        return;
    }
    let names: Vec<&str> = called.iter().map(|(_, n)| n.as_str()).collect();
    let defined = definitions(gw, result, &names).await;
    let shown: Vec<&str> = result.found.matches.iter().filter_map(|m| m.head.lines.as_deref()).collect();
    let first = called.iter().find_map(|(i, name)| {
        let new = |d: &&Shown| d.lines.as_deref().is_some_and(|l| !shown.contains(&l));
        let d = defined.iter().filter(new).find(|d| d.name == name.as_str())?;
        Some((*i, d))
    });
    let Some((caller, callee)) = first else { return };
    let file = stored_file(gw, &result.project, &result.path);
    let Some(mut m) = callee_match(gw, file, callee, show, room).await else { return };
    m.called_by = Some(result.found.matches[caller].head.name.clone());
    result.found.matches.insert(caller + 1, m);
}

/// For a question in words: adds, right after the first result's first
/// match, the short function of its file that the match calls and whose
/// name holds a word of the question its own name does not (a
/// `normalizeUrl` that filters with `isTrackingParam`, for "strip tracking
/// parameters"): the callee that does what the question asks. One search
/// of the file's definitions, and one read when a name qualifies.
pub async fn follow_worded(gw: &Gateway, answer: &mut SymbolsAnswer, query: &str) {
    let room = excerpt::room_for_code(gw, answer);
    let Some(result) = answer.results.first_mut().filter(|r| excerpt::readable_file(&r.freshness)) else { return };
    let Some(first) = result.found.matches.first().filter(|m| m.code.is_some() && m.called_by.is_none()) else {
        return;
    };
    if result.found.matches.get(1).is_some_and(|m| m.called_by.is_some()) {
        return;
    }
    let Some(span) = first.head.lines.as_deref().and_then(crate::render::span) else { return };
    let file = stored_file(gw, &result.project, &result.path);
    let Some(content) = excerpt::file_text(gw, file.clone()).await else { return };
    let names = worded_calls(&content, span, &first.head.name, &excerpt::stems(query));
    if names.is_empty() {
        return;
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let defined = definitions(gw, result, &names).await;
    let short =
        |d: &&Shown| d.lines.as_deref().and_then(crate::render::span).is_some_and(|(a, b)| b - a < CALLEE_WHOLE_LINES);
    let Some(callee) = names.iter().find_map(|n| defined.iter().filter(short).find(|d| d.name == *n)) else { return };
    let Some(mut m) = callee_match(gw, file, callee, Show::Window(query), room).await else { return };
    m.called_by = Some(first.head.name.clone());
    result.found.matches.insert(1, m);
}

/// The names `lines` of `content` call (`name(`) whose words hold one of
/// `stems` that `caller`'s name does not, in their order, each once.
fn worded_calls(content: &str, (start, end): (u64, u64), caller: &str, stems: &[String]) -> Vec<String> {
    let words_hold = |name: &str, stem: &str| {
        vibe_common::text::identifier::split_identifier(name).iter().any(|w| w.starts_with(stem))
    };
    let new_stem = |name: &str| stems.iter().any(|s| words_hold(name, s) && !words_hold(caller, s));
    let mut names: Vec<String> = Vec::new();
    let body = content.lines().skip(start as usize).take(end.saturating_sub(start) as usize);
    for line in body.filter(|l| !crate::render::is_comment(l)) {
        let mut rest = line;
        while let Some(open) = rest.find('(') {
            let before = &rest[..open];
            let name = &before[before.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1)..];
            if !name.is_empty() && name != caller && new_stem(name) && !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
            rest = &rest[open + 1..];
        }
    }
    names
}

/// The functions and methods named `names` that the result's file defines,
/// as the index shows them (name, kind, owner, lines, signature, their
/// first lines): one search of doc values, nothing of the file is read.
async fn definitions(gw: &Gateway, result: &FileResult<SymbolsFound>, names: &[&str]) -> Vec<Shown<'static>> {
    let index = gw.backend().names().ast_alias(&project_hash(std::path::Path::new(&result.project)));
    let params = crate::template_params::definitions(&result.path, names, DEFINITIONS_FETCHED);
    let Ok(response) = gw.backend().run(DEFINITIONS_TEMPLATE, &index, params).await else { return vec![] };
    let inner = response.hits().first().map_or(&[][..], |h| h.inner("symbols"));
    inner.iter().filter_map(super::answer::shown).collect()
}

/// Definitions fetched for the names a short match calls.
const DEFINITIONS_FETCHED: u32 = 10;

/// The calls of the result's matches that show code: (the caller's index,
/// the callee's name), each callee once.
fn callers_shown(matches: &[SymbolMatch], calls: &[(String, String)]) -> Vec<(usize, String)> {
    let mut called: Vec<(usize, String)> = Vec::new();
    for (lines, name) in calls {
        let caller = matches.iter().position(|m| m.head.lines.as_ref() == Some(lines) && m.code.is_some());
        if let Some(i) = caller.filter(|_| !called.iter().any(|(_, n)| n == name)) {
            called.push((i, name.clone()));
        }
    }
    called
}

/// The callee as a match: its name, kind, owner, lines, signature and the
/// lines to show of it: the index's first lines when they are all of it,
/// else lines read from `file`.
async fn callee_match(
    gw: &Gateway,
    file: (String, String),
    d: &Shown<'_>,
    show: Show<'_>,
    room: usize,
) -> Option<SymbolMatch> {
    let (start, end) = d.lines.as_deref().and_then(crate::render::span)?;
    let mut m = SymbolMatch { doc: None, ..SymbolMatch::from(d) };
    let stored = d.code.as_deref().unwrap_or_default();
    let skipped = d.code_skip.as_deref().and_then(crate::render::span).map_or(0, |(a, b)| b + 1 - a);
    if !stored.is_empty() && end + 1 - start <= stored.lines().count() as u64 + skipped {
        m.code = Some(excerpt::within(stored.to_string(), room));
        m.code_skip = d.code_skip.clone();
        return Some(m);
    }
    let content = excerpt::file_text(gw, file).await?;
    let lines: Vec<&str> = content.lines().collect();
    let end = end.min(lines.len() as u64);
    if start == 0 || start > end {
        return None;
    }
    let spans = callee_spans(&lines, (start, end), show);
    let text: Vec<&str> = spans.iter().flat_map(|&(a, b)| lines[a as usize - 1..b as usize].iter().copied()).collect();
    let code = excerpt::within(text.join("\n"), room);
    if code.is_empty() {
        return None;
    }
    if spans != [(start, end)] {
        m.code_lines = Some(crate::render::spans_text(&spans, code.lines().count() as u64));
    }
    m.code = Some(code);
    Some(m)
}

/// The lines of a callee read from its file: all of a short one; of a long
/// one those a question's words point to, or its first and last lines.
fn callee_spans(lines: &[&str], (start, end): (u64, u64), show: Show<'_>) -> Vec<(u64, u64)> {
    if end - start < CALLEE_WHOLE_LINES {
        return vec![(start, end)];
    }
    let spans = match show {
        Show::Window(query) => excerpt::window_spans(lines, (start, end), None, query),
        Show::Lines(words) => excerpt::holding_spans(lines, (start, end), words),
        Show::Start => vec![],
    };
    if spans.is_empty() {
        vec![(start, start + CALLEE_HEAD_LINES - 1), (end + 1 - CALLEE_TAIL_LINES, end)]
    } else {
        spans
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_whose_name_holds_a_new_word_of_the_question_is_followed() {
        let content = "export function normalizeUrl(url) {\n  // isIgnored(x) in a comment\n  \
            const names = keys.filter((n) => !isTrackingParam(n)).sort();\n  return normalizeUrl(names) + urlOf(x);\n}";
        let stems = ["track", "param", "url"].map(String::from);
        assert_eq!(worded_calls(content, (1, 5), "normalizeUrl", &stems), vec!["isTrackingParam".to_string()]);
        // Its own name, and a word its own name holds, are no reason to follow.
        assert!(worded_calls(content, (1, 5), "normalizeUrl", &["normal".to_string(), "url".to_string()]).is_empty());
    }

    #[test]
    fn the_calls_of_matches_that_show_code_are_followed() {
        let matches: Vec<SymbolMatch> = serde_json::from_value(serde_json::json!([
            { "name": "getmembers", "kind": "function", "lines": "592-595", "signature": null, "code": "def getmembers(object, predicate=None): ..." },
            { "name": "other", "kind": "function", "lines": "600-601", "signature": null },
            { "name": "Foo", "kind": "class", "lines": "10-12", "signature": null, "code": "Foo() { this.init(); }" },
        ]))
        .unwrap();
        let calls = [("592-595", "_getmembers"), ("600-601", "helper"), ("10-12", "init"), ("10-12", "_getmembers")]
            .map(|(l, n)| (l.to_string(), n.to_string()));
        assert_eq!(callers_shown(&matches, &calls), vec![(0, "_getmembers".to_string()), (2, "init".to_string())]);
    }
}
