//! `search_code_text`: a literal or regex search over file contents, like
//! grep, with line numbers.
//!
//! OpenSearch narrows the candidates, the gateway finds the lines. The files
//! index holds each file's text in `content.grep`, a `wildcard` field (the
//! 3-grams of the whole content, every candidate checked against the stored
//! text), and the stored template `search_code_text` filters it by one of:
//!
//! * a literal: a `wildcard` query `*literal*`. Exact: the files counted are
//!   the files that contain the literal (`rg -F` over the same files).
//! * a regex: the Rust regex translated to a Lucene `regexp` over the whole
//!   content (`.*` around it, `^`/`$` at its ends as "after a line break" /
//!   "before one", every character class without `\n`, so that it never
//!   matches across lines). Exact, except for what Lucene cannot say: word
//!   boundaries and anchors elsewhere than at the ends are dropped, large
//!   Unicode classes (`\w`, `\d`, `\p{L}`) are checked for ASCII only (any
//!   other character passes), large counts become lower bounds, and a
//!   pattern that matches an empty line is not told apart from an empty
//!   file. Then the index may count files whose lines do not match, and the
//!   answer says so.
//! * a regex Lucene rejects (too complex to determinize): only the literals
//!   every match starts with, or, when it has none, every file in scope.
//!
//! The regex crate then checks each candidate line by line, as grep does (a
//! match never spans lines; `^` and `$` are the line's ends), and each file
//! keeps its first [`MATCHES_PER_FILE`] lines, cut to about [`LINE_CHARS`]
//! characters around the match.
//!
//! Case-insensitive search lowercases on the OpenSearch side (Java's
//! `Locale.ROOT`) where the regex crate folds case (Unicode simple case
//! folding, as `rg -i`): the long s `ſ` (U+017F) and the Kelvin sign (U+212A)
//! match `s` and `k` only in the gateway, so a file that has them and no
//! other form of the word is not found (unless the query itself holds them).

use regex::{Regex, RegexBuilder};
use regex_syntax::hir::literal::{ExtractKind, Extractor};
use regex_syntax::hir::Hir;
use serde_json::{json, Value};

mod glob;
mod lucene;

pub use glob::*;
pub use lucene::*;

use crate::error::ToolError;
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::params::{self, TextFilter};
use crate::target::Scope;
use crate::tools::answer::hits;

/// The stored template.
pub const TEMPLATE: &str = "search_code_text";
/// Matching lines reported per file (the rest are counted in `more_matches`).
pub const MATCHES_PER_FILE: usize = 5;
/// Characters of a matching line reported, around the match.
pub const LINE_CHARS: usize = 200;
/// Files counted exactly; beyond, `total` is a lower bound (counting every
/// match of a common word costs a check of every candidate's text).
pub const TOTAL_CAP: u32 = 20;
/// Candidates fetched per page when the index narrows by literals only (or
/// not at all): enough to fill a page after the line check. A regexp the
/// index only approximates fetches twice the page.
pub const INEXACT_BATCH: u32 = 30;
/// Most literals used to narrow a regex Lucene cannot take.
const MAX_LITERALS: usize = 64;

pub async fn search(gw: &Gateway, args: &Args) -> Result<Value, ToolError> {
    if args.query.is_empty() {
        return Err(ToolError::Invalid(
            "`query` is required: the text (or, with regex: true, the regular expression) to find".into(),
        ));
    }
    let pattern = Pattern::new(&args.query, args.regex, !args.case_sensitive)?;

    // An absolute glob under a project root names the project too.
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
    let path_regexp = match glob.as_deref().map(str::trim).filter(|g| !g.is_empty() && *g != "**" && *g != "/") {
        Some(g) => Some(glob_regexp(g).map_err(|e| ToolError::Invalid(format!("invalid path glob {g:?}: {e}")))?),
        None => None,
    };
    let language = args.language.as_deref().map(language_name);
    let names = gw.backend().names();
    let index = match scope.project() {
        Some(p) => names.files_alias(&p.hash),
        None => format!("{p}_files_*,-{p}_files_analysis_*", p = names.prefix),
    };

    let run = |plan: &Plan| {
        let size = match (&plan.filter, plan.exact) {
            (_, true) => args.limit,
            (TextFilter::Regexp(_), false) => 2 * args.limit,
            _ => INEXACT_BATCH.max(args.limit),
        };
        let p = params::text(
            &plan.filter,
            plan.ci,
            path_regexp.as_deref(),
            language.as_deref(),
            size,
            args.offset,
            TOTAL_CAP,
        );
        gw.backend().run(TEMPLATE, &index, p)
    };
    let mut plan = pattern.plan.clone();
    let response = match run(&plan).await {
        Ok(r) => r,
        // Lucene refused the translated regexp (too complex to determinize,
        // too long): narrow by the regex's literals instead.
        Err(e) if matches!(plan.filter, TextFilter::Regexp(_)) && is_rejected_regexp(&e.0) => {
            tracing::debug!(error = %e, "regexp rejected, narrowing by literals");
            plan = pattern.fallback();
            run(&plan).await?
        }
        Err(e) => return Err(e.into()),
    };

    let found = hits(&response);
    let total = response["hits"]["total"]["value"].as_u64().unwrap_or(found.len() as u64);
    let counted_all = response["hits"]["total"]["relation"].as_str() != Some("gte");
    let mut results = Vec::new();
    let mut consumed = 0u64;
    let mut unverified = 0u64;
    for hit in &found {
        if results.len() >= args.limit as usize {
            break;
        }
        consumed += 1;
        match file_result(hit, &pattern.matcher) {
            Some(r) => results.push(r),
            None => unverified += 1,
        }
    }
    let end = args.offset as u64 + consumed;
    let mut answer = json!({ "query": args.query, "total": total, "truncated": total > end, "results": results });
    if total > end {
        answer["next_offset"] = json!(end);
    }
    let mut notes: Vec<String> = Vec::new();
    if let Some(note) = scope.note() {
        notes.push(note);
    }
    if !counted_all {
        answer["total_exact"] = json!(false);
        notes.push(format!(
            "at least {total} files match (counting stops there); page on with offset, or narrow with path or language"
        ));
    }
    if let Some(why) = &plan.why {
        answer["total_exact"] = json!(false);
        notes.push(format!("`total` counts candidate files, some of which may have no matching line: {why}"));
    } else if unverified > 0 {
        notes.push(format!("{unverified} candidate file(s) on this page had no matching line (skipped)"));
    }
    if !notes.is_empty() {
        answer["note"] = json!(notes.join("; "));
    }
    Ok(answer)
}

/// A 400 from OpenSearch about the regexp itself.
fn is_rejected_regexp(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("status 400")
        && ["determiniz", "too_complex", "too complex", "regex", "regexp", "automaton"].iter().any(|w| m.contains(w))
}

// ---------------------------------------------------------------------------
// The pattern: the line matcher and how the index narrows
// ---------------------------------------------------------------------------

/// How the index narrows, and whether what it counts is exact.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub filter: TextFilter,
    /// The template's `case_insensitive` (Lucene folds ASCII letters only).
    pub ci: bool,
    /// The files the index counts are exactly the files with a matching line.
    pub exact: bool,
    /// Why not, for the note.
    pub why: Option<String>,
}

/// A query, ready to run: the line matcher and the index plan.
#[derive(Debug, Clone)]
pub struct Pattern {
    pub matcher: Regex,
    pub plan: Plan,
    hir: Hir,
}

impl Pattern {
    pub fn new(query: &str, regex: bool, ci: bool) -> Result<Self, ToolError> {
        if query.contains('\n') {
            return Err(ToolError::Invalid(
                "search_code_text matches line by line: the query cannot contain a line break".into(),
            ));
        }
        let source = if regex { query.to_string() } else { regex::escape(query) };
        let invalid = |e: &dyn std::fmt::Display| {
            if regex {
                ToolError::Invalid(format!(
                    "invalid regular expression {query:?} (Rust regex syntax; pass regex: false for a literal search): {e}"
                ))
            } else {
                ToolError::Invalid(format!("cannot search for {query:?}: {e}"))
            }
        };
        let matcher = RegexBuilder::new(&source).case_insensitive(ci).build().map_err(|e| invalid(&e))?;
        let hir =
            regex_syntax::ParserBuilder::new().case_insensitive(ci).build().parse(&source).map_err(|e| invalid(&e))?;
        // A literal: a wildcard query. Its case folding is exact for ASCII
        // only, and OpenSearch 2.19 reads a backslash before the closing `*`
        // as escaping it; such literals go through the regexp, which spells
        // out case variants and backslashes.
        if !regex && (!ci || query.is_ascii()) && !query.ends_with('\\') {
            let plan = Plan { filter: TextFilter::Literal(query.to_string()), ci, exact: true, why: None };
            return Ok(Pattern { matcher, plan, hir });
        }
        // A query that holds the long s or the Kelvin sign itself keeps
        // their classes whole (see the module doc).
        let exotic = query.contains(['\u{17F}', '\u{212A}']);
        let plan = match translate(&hir, ci, exotic) {
            Ok(t) => Plan {
                filter: TextFilter::Regexp(t.regexp),
                ci,
                exact: t.approximations.is_empty(),
                why: (!t.approximations.is_empty())
                    .then(|| format!("the index cannot check {} exactly", t.approximations.join(", "))),
            },
            Err(Untranslatable::LineBreak) => {
                return Err(ToolError::Invalid(
                    "search_code_text matches line by line: the regular expression cannot match a line break (\\n)"
                        .into(),
                ))
            }
            Err(Untranslatable::Other(what)) => literal_plan(&hir, &what),
        };
        Ok(Pattern { matcher, plan, hir })
    }

    /// The plan when OpenSearch rejects the translated regexp.
    pub fn fallback(&self) -> Plan {
        literal_plan(&self.hir, "the regex is too complex for the index")
    }
}

/// Narrowing by the literals every match starts with, else a scan.
fn literal_plan(hir: &Hir, reason: &str) -> Plan {
    match required_literals(hir) {
        Some(literals) => Plan {
            filter: TextFilter::AnyOf(literals),
            ci: false,
            exact: false,
            why: Some(format!("{reason}, so it narrows by the regex's literal parts only")),
        },
        None => Plan {
            filter: TextFilter::Scan,
            ci: false,
            exact: false,
            why: Some(format!(
                "{reason} and the regex has no literal part, so every file in scope is a candidate (use path or language to narrow)"
            )),
        },
    }
}

/// The literals one of which starts every match, or `None` when there is no
/// usable set. Case variants are spelled out (the regex was parsed with its
/// case folding), so they are matched case-sensitively.
fn required_literals(hir: &Hir) -> Option<Vec<String>> {
    let mut seq = Extractor::new().kind(ExtractKind::Prefix).extract(hir);
    seq.optimize_for_prefix_by_preference();
    let literals = seq.literals()?;
    let mut out: Vec<String> = Vec::new();
    for l in literals {
        let s = std::str::from_utf8(l.as_bytes()).ok()?;
        // A prefix of a required prefix is required too: drop a trailing
        // backslash, which OpenSearch 2.19 reads as escaping the closing `*`.
        let s = s.trim_end_matches('\\');
        if s.is_empty() || s.contains('\n') {
            return None;
        }
        if !out.iter().any(|o| o == s) {
            out.push(s.to_string());
        }
    }
    (out.len() <= MAX_LITERALS).then_some(out)
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

/// A file with its matching lines, or `None` when no line matches.
fn file_result(hit: &Value, matcher: &Regex) -> Option<Value> {
    let s = &hit["_source"];
    let content = s["content"].as_str()?;
    let mut matches = Vec::new();
    let mut count = 0usize;
    for (i, line) in lines(content).enumerate() {
        if let Some(m) = matcher.find(line) {
            count += 1;
            if matches.len() < MATCHES_PER_FILE {
                matches.push(json!({ "line": i + 1, "text": excerpt(line, m.start(), m.end()) }));
            }
        }
    }
    if count == 0 {
        return None;
    }
    let mut out = crate::tools::freshness::file_header(s);
    out.insert("matches".into(), json!(matches));
    if count > matches.len() {
        out.insert("more_matches".into(), json!(count - matches.len()));
    }
    Some(Value::Object(out))
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

    fn lucene(re: &str, ci: bool) -> Translation {
        let hir = regex_syntax::ParserBuilder::new().case_insensitive(ci).build().parse(re).unwrap();
        translate(&hir, ci, false).unwrap()
    }

    #[test]
    fn regexes_become_lucene_regexps() {
        assert_eq!(lucene("foo", false).regexp, ".*foo.*");
        assert_eq!(lucene(r"a\.b\\c", false).regexp, r".*a\.b[\\\\]c.*");
        assert_eq!(lucene(r"[\\-a]x[!-\\]", false).regexp, r".*[\\\]-a]x[\!-\\].*");
        assert_eq!(lucene("a()b", true).regexp, ".*a(.{0})b.*");
        assert_eq!(lucene("^fn ", false).regexp, "(.*\n)?fn\\ .*");
        assert_eq!(lucene("end$", false).regexp, ".*end(\n.*)?");
        assert_eq!(lucene("^(a|b)$", false).regexp, "(.*\n)?([a-b])(\n.*)?");
        assert_eq!(lucene("^(ab|cd)$", false).regexp, "(.*\n)?(ab|cd)(\n.*)?");
        assert_eq!(lucene("a.b", false).regexp, ".*a[^\\\n]b.*");
        assert_eq!(lucene("x[^a]y", false).regexp, ".*x[^\\\na]y.*");
        assert_eq!(lucene(r"\s+", false).regexp, ".*([\\\t\\\u{b}-\\\r\\ \u{85}\u{a0}\u{1680}\u{2000}-\u{200a}\u{2028}-\u{2029}\u{202f}\u{205f}\u{3000}])+.*");
        assert_eq!(lucene("[0-9]{2,4}x{3}y{20}", false).regexp, ".*([0-9]){2,4}(x){3}(y){16,}.*");
        assert_eq!(lucene("Hello", true).regexp, ".*hello.*");
        // Other letters: every simple case fold, as the regex crate folds them.
        assert_eq!(lucene("Привет", true).regexp, ".*[Пп][Рр][Ии][Вв\u{1c80}][Ее][Тт\u{1c84}-\u{1c85}].*");
        assert!(lucene("foo", false).approximations.is_empty());
        assert!(lucene(r"\s+", false).approximations.is_empty());
        // Large Unicode classes: their ASCII part, and any other character.
        assert_eq!(lucene(r"\d", false).regexp, ".*[0-9\u{80}-\u{10FFFF}].*");
        assert_eq!(lucene(r"\d", false).approximations.len(), 1);
        assert!(lucene(r"[^\d]", false).approximations.len() == 1);
        assert_eq!(lucene(r"\bfoo\b", false).approximations, vec!["word boundaries (\\b)".to_string()]);
        assert_eq!(lucene("a|^b", false).approximations.len(), 1);
        assert_eq!(lucene("[^\n]", false).regexp, ".*[^\\\n].*");
        let t = lucene(&r"\w".repeat(12), false);
        assert!(t.regexp.starts_with(".*[0-9A-Z_a-z\u{80}-\u{10FFFF}]"), "{}", t.regexp);
        assert_eq!(t.approximations.len(), 1);
        let hir = regex_syntax::Parser::new().parse(r"a\nb").unwrap();
        assert_eq!(translate(&hir, false, false), Err(Untranslatable::LineBreak));
    }

    #[test]
    fn patterns_and_plans() {
        let p = Pattern::new("a.b(", false, false).unwrap();
        assert_eq!(p.plan.filter, TextFilter::Literal("a.b(".into()));
        assert!(p.matcher.is_match("x a.b(y") && !p.matcher.is_match("x aXb(y"));
        let p = Pattern::new("MAX_retries", false, true).unwrap();
        assert!(p.matcher.is_match("MAX_RETRIES = 3"));
        assert!(matches!(Pattern::new("a(", true, false), Err(ToolError::Invalid(_))));
        assert!(matches!(Pattern::new("(?<=a)b", true, false), Err(ToolError::Invalid(_))));
        assert!(matches!(Pattern::new(r"a\nb", true, false), Err(ToolError::Invalid(_))));
        assert!(matches!(Pattern::new("a\nb", false, false), Err(ToolError::Invalid(_))));
        let p = Pattern::new(r"fn\s+[a-z_]+", true, false).unwrap();
        assert!(matches!(p.plan.filter, TextFilter::Regexp(_)) && p.plan.exact);
        let fb = p.fallback();
        assert_eq!(fb.filter, TextFilter::AnyOf(vec!["fn".into()]));
        let p = Pattern::new(r"\w+\d", true, false).unwrap();
        assert_eq!(p.fallback().filter, TextFilter::Scan);
        let p = Pattern::new("(Foo|bar)Baz", true, true).unwrap();
        // Case variants are spelled out and matched as they are.
        let TextFilter::AnyOf(variants) = p.fallback().filter else { panic!() };
        assert_eq!(variants.len(), 32);
        assert!(variants.contains(&"fOoB".to_string()) && variants.contains(&"barb".to_string()));
        assert!(!p.fallback().ci);
        // Non-ASCII literals ignoring case go through the regexp.
        let p = Pattern::new("Привет", false, true).unwrap();
        assert!(matches!(p.plan.filter, TextFilter::Regexp(_)) && p.plan.exact);
        assert_eq!(Pattern::new("Hello", false, true).unwrap().plan.filter, TextFilter::Literal("Hello".into()));
        assert_eq!(
            Pattern::new("C:\\", false, false).unwrap().plan.filter,
            TextFilter::Regexp(r".*C\:[\\\\].*".into())
        );
        assert_eq!(Pattern::new(r"a\\", true, false).unwrap().fallback().filter, TextFilter::AnyOf(vec!["a".into()]));
        assert!(!Pattern::new("^$", true, false).unwrap().plan.exact);
        // The long s in the query itself stays a class: `ſtraße` is found as written.
        let TextFilter::Regexp(r) = Pattern::new("ſtr", false, true).unwrap().plan.filter else { panic!() };
        assert_eq!(r, ".*[Ssſ]tr.*");
    }

    #[test]
    fn globs() {
        let g = |s: &str| glob_regexp(s).unwrap();
        assert_eq!(g("*.py"), r"(.*/)?[^/]*\.py");
        assert_eq!(g("src/**/*.py"), r"src/(.*/)?[^/]*\.py");
        assert_eq!(g("/src/*.rs"), r"src/[^/]*\.rs");
        assert_eq!(g("**/test_*.py"), r"(.*/)?test_[^/]*\.py");
        assert_eq!(g("docs/**"), "docs/.*");
        assert_eq!(g("src/utils"), "src/utils(/.*)?");
        assert_eq!(g("tests/"), "(.*/)?tests(/.*)?");
        assert_eq!(g("*.{rs,toml}"), r"(.*/)?[^/]*\.(rs|toml)");
        assert_eq!(g("[!a-c]?.x"), r"(.*/)?[^/a-c][^/]\.x");
        assert_eq!(g("a b+(c).txt"), r"(.*/)?a\ b\+\(c\)\.txt(/.*)?");
        for bad in ["[abc", "{a,b", "a[/]b"] {
            assert!(glob_regexp(bad).is_err(), "{bad}");
        }
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
