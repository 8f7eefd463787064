//! `search_code_text`: a literal or regex search over file contents, like
//! grep, with line numbers.
//!
//! OpenSearch narrows the candidates, the gateway finds the lines. Each
//! file's document holds its distinct case-folded 3-grams (`grams`, see
//! [`vibe_common::document::grams`]); [`plan`] turns the query into the grams every
//! matching line must hold, and the stored template `search_code_text`
//! returns the files that hold them, sorted by project root and path. The
//! regex crate then checks each candidate line by line, as grep does (a
//! match never spans lines; `^` and `$` are the line's ends; ignoring case
//! is Unicode simple case folding, as `rg -i`), and each file keeps its first
//! [`MATCHING_LINES_PER_FILE`] lines (lines of code before comments when it
//! has more), cut to about [`LINE_CHARS`] characters around
//! the match.
//!
//! Candidates are checked in batches from the first one, so `total` is the
//! exact number of files with a matching line whenever every candidate was
//! checked; counting stops at [`TOTAL_CAP`] files past the page (then it is
//! a lower bound), and one call checks at most [`CHECK_BUDGET_BYTES`] of
//! text past `offset` (a regex without a literal part over a large scope):
//! the answer then says how far it got and where to go on. `offset` counts
//! candidates, so a page starts where the last one stopped.

use regex::{Regex, RegexBuilder};

pub mod plan;

use super::glob::{glob_regexp, language_name, wider_glob};

use serde::Deserialize;
use vibe_common::document::content_doc::ContentDoc;

use crate::answers::{FileResult, IndexedFile, Line, LineHit, TextAnswer, TextFound, TextPage};
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::search_hits::Hit;
use crate::target::Scope;
use crate::template_params;
use crate::tool_error::ToolError;

/// The stored template.
pub const TEMPLATE: &str = "search_code_text";
/// Matching lines reported per file (the rest are counted in `more_matches`).
pub const MATCHING_LINES_PER_FILE: usize = 5;
/// Characters of a matching line reported, around the match.
pub const LINE_CHARS: usize = 200;
/// Matching files counted (at least one past a full page); beyond, `total`
/// is a lower bound.
pub const TOTAL_CAP: u64 = 20;
/// Candidates fetched by the second request; each next one fetches twice
/// as many, up to [`template_params::TEXT_MAX_SIZE`].
pub const BATCH: u32 = 100;
/// Text checked per call at most from `offset` on (the candidates' contents,
/// in bytes; checking again the candidates before `offset` is not counted).
pub const CHECK_BUDGET_BYTES: usize = 16 << 20;
/// Candidates OpenSearch pages through (its `index.max_result_window`).
const MAX_WINDOW: u32 = 10_000;
/// Candidates before `offset` are checked again (for an exact `total`) up to
/// this many; a deeper page counts from its offset on.
pub const RECOUNT_MAX: u32 = 200;

/// Candidates the first request fetches past the page: a few hold the
/// query's grams but no matching line.
pub const SPARE_CANDIDATES: u32 = 10;

pub async fn search(gw: &Gateway, args: &Args) -> Result<TextAnswer, ToolError> {
    if args.query.is_empty() {
        return Err(ToolError::Invalid(
            "`query` is required: the text (or, with regex: true, the regular expression) to find".into(),
        ));
    }
    let pattern = Pattern::new(&args.query, args.regex, !args.case_sensitive)?;
    let (scope, glob) = scope_and_glob(gw, args).await?;
    let path_regexp = match glob.as_deref().map(str::trim).filter(|g| !g.is_empty() && *g != "**" && *g != "/") {
        Some(g) => Some(glob_regexp(g).map_err(|e| ToolError::Invalid(format!("invalid path glob {g:?}: {e}")))?),
        None => None,
    };
    let language = args.language.as_deref().map(language_name);
    let names = gw.backend().names();
    let index = match scope.project() {
        Some(p) => names.files_alias(&p.hash),
        None => names.all_files(),
    };

    let limit = args.limit.max(1) as usize;
    let offset = args.offset;
    // Candidates are checked from `start`: the first one, unless the page is deep.
    let start = if offset <= RECOUNT_MAX { 0 } else { offset };
    let mut check = Check { offset, limit, context: args.context as usize, ..Check::default() };
    check.from = start;
    let size = (offset - start) + limit as u32 + SPARE_CANDIDATES;
    let filters = (path_regexp.as_deref(), language.as_deref());
    check_candidates(gw, &pattern, filters, &index, &mut check, size).await?;
    let nothing = check.matched == 0;
    let mut answer = answer(args, &scope, check, start);
    if let (true, Some(g)) = (nothing && path_regexp.is_some(), glob.as_deref()) {
        if let Some(note) = unmatched_glob(gw, &index, g, language.as_deref()).await? {
            answer.add_note(&note);
        }
    }
    crate::tools::excerpt::enclosing(gw, &mut answer.results).await;
    crate::tools::named_values::add_to_text(gw, &mut answer.results).await;
    Ok(answer)
}

/// When a search found nothing and its path glob matches no indexed file,
/// says so, and names the wider glob that would reach files
/// (`deps/ssri/**` for `deps/ssri/*`), as ripgrep's silence would not.
async fn unmatched_glob(
    gw: &Gateway,
    index: &str,
    glob: &str,
    language: Option<&str>,
) -> Result<Option<String>, ToolError> {
    let matches_a_file = |g: String| async move {
        let Ok(regexp) = glob_regexp(&g) else { return Ok(false) };
        let response =
            gw.backend().run(TEMPLATE, index, template_params::text(&[], Some(&regexp), language, 1, 0)).await?;
        Ok::<bool, ToolError>(response.total().unwrap_or(0) > 0)
    };
    if matches_a_file(glob.to_string()).await? {
        return Ok(None);
    }
    let wider = match wider_glob(glob) {
        Some(w) if matches_a_file(w.clone()).await? => format!("; `{w}` reaches deeper and matches files"),
        _ => String::new(),
    };
    Ok(Some(format!("the path glob `{glob}` matches no indexed file (`*` stays in one directory){wider}")))
}

/// The scope and the path glob; an absolute glob under a project root names
/// the project too.
async fn scope_and_glob(gw: &Gateway, args: &Args) -> Result<(Scope, Option<String>), ToolError> {
    let mut scope = gw.resolve(args.target.as_deref()).await?;
    let mut glob = args.path.clone();
    if let Some(g) = glob.clone().filter(|g| g.starts_with('/')) {
        if let Some((project, rel)) = gw.split_absolute(&g).await? {
            if scope.project().is_none() || scope.project() == Some(&project) {
                scope = Scope::One(project);
                glob = Some(rel);
            }
        }
    }
    Ok((scope, glob))
}

/// Fetch and check candidates in growing batches of the first `size` until
/// the page and the count are done, the candidates or the budget run out,
/// or OpenSearch's window ends.
async fn check_candidates(
    gw: &Gateway,
    pattern: &Pattern,
    (path_regexp, language): (Option<&str>, Option<&str>),
    index: &str,
    check: &mut Check,
    mut size: u32,
) -> Result<(), ToolError> {
    loop {
        let p = template_params::text(&pattern.clauses, path_regexp, language, size, check.from);
        let response = gw.backend().run(TEMPLATE, index, p).await?;
        check.candidates = response.total().unwrap_or(0);
        let found = response.hits();
        if !check.batch(found, &pattern.matcher) {
            return Ok(());
        }
        if (found.len() as u32) < size || check.from as u64 >= check.candidates {
            check.exhausted = true;
            return Ok(());
        }
        if check.checked_bytes >= CHECK_BUDGET_BYTES {
            return Ok(());
        }
        size = (2 * size).clamp(BATCH, template_params::TEXT_MAX_SIZE);
        // OpenSearch pages up to `index.max_result_window` (10,000) candidates.
        if check.from + size > MAX_WINDOW {
            size = MAX_WINDOW.saturating_sub(check.from);
            if size == 0 {
                check.window_end = true;
                return Ok(());
            }
        }
    }
}

/// The answer: the page, `total`, where to page on, and why the count may
/// be partial.
fn answer(args: &Args, scope: &Scope, check: Check, start: u32) -> TextAnswer {
    let Check {
        results, matched, after_page, page_end, exhausted, from, candidates, checked_bytes, window_end, ..
    } = check;
    // The page's first file among the matching ones (offset counts candidates).
    let shown = results.len() as u64;
    let first = (matched - after_page).saturating_sub(shown) + 1;
    let next = match page_end {
        Some(end) => (after_page > 0 || !exhausted).then_some(end),
        None => (!exhausted && !window_end).then_some(from),
    };
    let mut notes: Vec<String> = scope.note().into_iter().collect();
    let total_exact = exhausted && start == 0;
    if !total_exact {
        notes.push(if window_end {
            format!(
                "only the first {MAX_WINDOW} of {candidates} candidate files can be checked; narrow with path, language or target"
            )
        } else if page_end.is_none() && !exhausted {
            format!(
                "checked {} of {candidates} candidate files ({} MB of text, the most one call reads) and found {matched}; page on with offset {from}, or narrow with path or language",
                from - start,
                checked_bytes >> 20
            )
        } else if start > 0 {
            format!("`total` counts the matching files from offset {start} on")
        } else {
            format!("at least {matched} files match (counting stops there); page on with offset, or narrow with path or language")
        });
    }
    TextAnswer {
        query: args.query.clone(),
        total: matched,
        truncated: next.is_some(),
        next_offset: next.map(u64::from),
        note: (!notes.is_empty()).then(|| notes.join("; ")),
        results,
        more: TextPage {
            total_exact: (!total_exact).then_some(false),
            first: (shown > 0 && start == 0).then_some(Line(first)),
        },
    }
}

/// Candidates checked so far, and the page they gave.
#[derive(Default)]
struct Check {
    offset: u32,
    limit: usize,
    /// Lines shown around each matching line.
    context: usize,
    /// The next candidate's position.
    from: u32,
    results: Vec<FileResult<TextFound>>,
    /// Matching files among the candidates checked, and past the page.
    matched: u64,
    after_page: u64,
    /// The position after the page's last file, once the page is full.
    page_end: Option<u32>,
    candidates: u64,
    checked_bytes: usize,
    exhausted: bool,
    /// The candidates went on past the 10,000th.
    window_end: bool,
}

impl Check {
    /// Checks a batch of candidates; false once enough files are counted.
    fn batch(&mut self, found: &[Hit], matcher: &Regex) -> bool {
        for hit in found {
            let position = self.from;
            self.from += 1;
            if position >= self.offset {
                self.checked_bytes += hit.source_text("content").map_or(0, str::len);
            }
            let Some(result) = file_result(hit, matcher, self.context) else { continue };
            self.matched += 1;
            if self.page_end.is_some() {
                self.after_page += 1;
            } else if position >= self.offset {
                self.results.push(result);
                if self.results.len() == self.limit {
                    self.page_end = Some(position + 1);
                }
            }
            // Enough counted: the page is full, one more file matches, and
            // `total` has reached its cap.
            if self.after_page > 0 && self.matched >= TOTAL_CAP {
                return false;
            }
        }
        true
    }
}

// ---------------------------------------------------------------------------
// The pattern: the line matcher and the grams that narrow
// ---------------------------------------------------------------------------

/// A query, ready to run: the line matcher and the index's clauses.
#[derive(Debug, Clone)]
pub struct Pattern {
    pub matcher: Regex,
    /// What a candidate file must hold ([`plan::clauses`]); empty: every file.
    pub clauses: Vec<plan::Clause>,
}

impl Pattern {
    pub fn new(query: &str, regex: bool, ci: bool) -> Result<Self, ToolError> {
        if query.contains('\n') {
            return Err(ToolError::Invalid(
                "search_code_text matches line by line: the query cannot contain a line break".into(),
            ));
        }
        if !regex {
            let matcher = RegexBuilder::new(&regex::escape(query))
                .case_insensitive(ci)
                .build()
                .map_err(|e| ToolError::Invalid(format!("cannot search for {query:?}: {e}")))?;
            return Ok(Pattern { matcher, clauses: plan::literal_clauses(query, ci) });
        }
        let invalid = |e: &dyn std::fmt::Display| {
            ToolError::Invalid(format!(
                "invalid regular expression {query:?} (Rust regex syntax; pass regex: false for a literal search): {e}"
            ))
        };
        let matcher = RegexBuilder::new(query).case_insensitive(ci).build().map_err(|e| invalid(&e))?;
        let hir =
            regex_syntax::ParserBuilder::new().case_insensitive(ci).build().parse(query).map_err(|e| invalid(&e))?;
        if plan::has_line_break(&hir) {
            return Err(ToolError::Invalid(
                "search_code_text matches line by line: the regular expression cannot match a line break (\\n)".into(),
            ));
        }
        Ok(Pattern { matcher, clauses: plan::clauses(&hir, ci) })
    }
}

// ---------------------------------------------------------------------------
// Lines
// ---------------------------------------------------------------------------

/// A file's lines as grep sees them: split at `\n` (a `\r` before it stays
/// part of the line), no empty last line after a final `\n`.
pub fn lines(content: &str) -> impl Iterator<Item = &str> {
    let body = content.strip_suffix('\n').unwrap_or(content);
    let empty = content.is_empty();
    body.split('\n').filter(move |_| !empty)
}

/// A file with its matching lines and `context` lines around each (marked
/// `context: true`), or `None` when no line matches.
fn file_result(hit: &Hit, matcher: &Regex, context: usize) -> Option<FileResult<TextFound>> {
    let doc = ContentDoc::deserialize(&hit.source).ok()?;
    let content = doc.content.as_deref()?;
    let all: Vec<&str> = lines(content).collect();
    let mut shown: std::collections::BTreeMap<usize, LineHit> = std::collections::BTreeMap::new();
    let mut kept = 0usize;
    let line_hit = |i: usize, text: String, context: Option<bool>| LineHit {
        line: Line(i as u64 + 1),
        text,
        context,
        within: None,
    };
    let found: Vec<(usize, regex::Match)> =
        all.iter().enumerate().filter_map(|(i, line)| Some((i, matcher.find(line)?))).collect();
    let count = found.len();
    let parsed = doc.language.as_deref().is_some_and(|l| l != "markdown" && l != "text");
    for (i, m) in kept_lines(found, |i| parsed && crate::render::is_comment(all[i])) {
        let line = all[i];
        kept += 1;
        shown.insert(i, line_hit(i, excerpt(line, m.start(), m.end()), None));
        let around = all.iter().enumerate().skip(i.saturating_sub(context)).take(2 * context + 1);
        for (j, near) in around {
            shown.entry(j).or_insert_with(|| line_hit(j, excerpt(near, 0, 0), Some(true)));
        }
    }
    if count == 0 {
        return None;
    }
    let found = TextFound {
        matches: shown.into_values().collect(),
        more_matches: (count > kept).then(|| (count - kept) as u64),
        values: Vec::new(),
    };
    Some(crate::tools::stale_marks::file_result(&IndexedFile::from(&doc), found))
}

/// The matching lines a file shows: its first [`MATCHING_LINES_PER_FILE`];
/// when it has more, those of code before those of comments (a doc block
/// that names the value is read where the code uses it), in line order.
fn kept_lines<'t>(
    mut found: Vec<(usize, regex::Match<'t>)>,
    comment: impl Fn(usize) -> bool,
) -> Vec<(usize, regex::Match<'t>)> {
    if found.len() > MATCHING_LINES_PER_FILE {
        found.sort_by_key(|&(i, _)| (comment(i), i));
        found.truncate(MATCHING_LINES_PER_FILE);
        found.sort_by_key(|&(i, _)| i);
    }
    found
}

/// The line (without a trailing `\r`), or about [`LINE_CHARS`] characters of
/// it around the match at bytes `start..end`, with `…` where it is cut.
pub fn excerpt(line: &str, start: usize, end: usize) -> String {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let n = line.chars().count();
    if n <= LINE_CHARS {
        return line.to_string();
    }
    let char_at = |byte: usize| {
        let mut b = byte.min(line.len());
        while !line.is_char_boundary(b) {
            b -= 1;
        }
        line[..b].chars().count()
    };
    let (ms, me) = (char_at(start), char_at(end));
    let before = LINE_CHARS.saturating_sub(me - ms) / 3;
    let from = ms.saturating_sub(before).min(n - LINE_CHARS);
    let to = from + LINE_CHARS;
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    out.extend(line.chars().skip(from).take(to - from));
    if to < n {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        let p = Pattern::new("a.b(", false, false).unwrap();
        assert_eq!(p.clauses, vec![vec![vec![vec!["a.b".to_string()], vec![".b(".to_string()]]]]);
        assert!(p.matcher.is_match("x a.b(y") && !p.matcher.is_match("x aXb(y"));
        let p = Pattern::new("MAX_retries", false, true).unwrap();
        assert!(p.matcher.is_match("MAX_RETRIES = 3"));
        assert!(matches!(Pattern::new("a(", true, false), Err(ToolError::Invalid(_))));
        assert!(matches!(Pattern::new("(?<=a)b", true, false), Err(ToolError::Invalid(_))));
        assert!(matches!(Pattern::new(r"a\nb", true, false), Err(ToolError::Invalid(_))));
        assert!(matches!(Pattern::new("a\nb", false, false), Err(ToolError::Invalid(_))));
        assert!(Pattern::new(r"\w+\d", true, false).unwrap().clauses.is_empty());
        assert_eq!(Pattern::new("ab", false, false).unwrap().clauses.len(), 0);
        // The long s and the Kelvin sign fold like s and k, in the query and in the index.
        let p = Pattern::new("ſtr", false, true).unwrap();
        let mut variants = p.clauses[0][0][0].clone();
        variants.sort();
        assert_eq!(variants.len(), 3 * 2 * 2, "{variants:?}");
        assert!(variants.contains(&"str".to_string()) && variants.contains(&"ſTR".to_string()));
        assert!(p.matcher.is_match("STRASSE"));
        assert!(Pattern::new("C:\\", false, false).unwrap().matcher.is_match("C:\\x"));
    }

    #[test]
    fn globs() {
        let g = |s: &str| glob_regexp(s).unwrap();
        assert_eq!(g("*.py"), r"(.*/)?[^/]*\.py(/.*)?");
        assert_eq!(g("*range-parser*"), r"(.*/)?[^/]*range\-parser[^/]*(/.*)?");
        assert_eq!(g("src/**/*.py"), r"src/(.*/)?[^/]*\.py");
        assert_eq!(g("/src/*.rs"), r"src/[^/]*\.rs");
        assert_eq!(g("**/test_*.py"), r"(.*/)?test_[^/]*\.py");
        assert_eq!(g("docs/**"), "docs/.*");
        assert_eq!(g("src/utils"), "src/utils(/.*)?");
        assert_eq!(g("tests/"), "(.*/)?tests(/.*)?");
        assert_eq!(g("*.{rs,toml}"), r"(.*/)?[^/]*\.(rs|toml)(/.*)?");
        assert_eq!(g("[!a-c]?.x"), r"(.*/)?[^/a-c][^/]\.x(/.*)?");
        assert_eq!(g("a b+(c).txt"), r"(.*/)?a\ b\+\(c\)\.txt(/.*)?");
        assert_eq!(g("!vendor/*"), r"~(vendor/[^/]*)");
        assert!(glob_regexp("!").is_err(), "nothing to exclude");
        for bad in ["[abc", "{a,b", "a[/]b"] {
            assert!(glob_regexp(bad).is_err(), "{bad}");
        }
        assert_eq!(wider_glob("deps/ssri/*").as_deref(), Some("deps/ssri/**"));
        assert_eq!(wider_glob("*/ThreadPoolExecutor.java").as_deref(), Some("**/ThreadPoolExecutor.java"));
        assert_eq!(wider_glob("lib/x.js").as_deref(), Some("**/lib/x.js"));
        assert_eq!(wider_glob("**/x.js"), None);
        assert_eq!(wider_glob("*.py"), None);
    }

    #[test]
    fn line_splitting_and_excerpts() {
        assert_eq!(lines("").count(), 0);
        assert_eq!(lines("a").collect::<Vec<_>>(), ["a"]);
        assert_eq!(lines("a\n").collect::<Vec<_>>(), ["a"]);
        assert_eq!(lines("a\r\n\nb").collect::<Vec<_>>(), ["a\r", "", "b"]);
        assert_eq!(excerpt("short\r", 0, 1), "short");
        let long = format!("{}needle{}", "x".repeat(300), "y".repeat(300));
        let e = excerpt(&long, 300, 306);
        assert!(e.contains("needle") && e.starts_with('…') && e.ends_with('…'), "{e}");
        assert_eq!(e.chars().count(), LINE_CHARS + 2);
        let e = excerpt(&long, 0, 3);
        assert!(e.starts_with("xxx") && e.ends_with('…'));
        let wide = "é".repeat(300);
        assert_eq!(excerpt(&wide, 598, 600).chars().count(), LINE_CHARS + 1);
    }

    #[test]
    fn language_aliases() {
        assert_eq!(language_name("py"), "python");
        assert_eq!(language_name("CSharp"), "c#");
        assert_eq!(language_name("Rust"), "rust");
    }
}
