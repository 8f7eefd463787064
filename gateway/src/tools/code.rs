//! The code searches. Functions, classes (+ structs, interfaces, traits,
//! types, enums) and variables (+ constants, fields, enums) run the stored
//! template `search_code_symbols` over each file's flat `symbols`: a name
//! is looked up among every kind at once, the tool's kinds ranked first;
//! only when no element has the name, the same template runs again for
//! close names (typo-tolerant) and words. Imports run
//! `search_by_code_imports`. Each file in the answer carries only its best
//! matching elements.

use vibe_common::document::kinds::ElementKind;
use vibe_common::document::shown::Shown;

use super::answer::{paged, scope_index};
use super::excerpt::Show;
use crate::answers::{FileResult, ImportsAnswer, ImportsFound, SymbolMatch, SymbolsAnswer, SymbolsFound};
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::registry::ToolSpec;
use crate::search_hits::{Hit, Response};
use crate::target::Scope;
use crate::template_params::{self, Listing, Pass, SYMBOL_MATCHES_PER_FILE};
use crate::tool_error::ToolError;

/// The stored template of the symbol searches.
pub const SYMBOLS_TEMPLATE: &str = "search_code_symbols";

/// The scope a search of `search_by_code_imports` or a symbol search runs
/// in, once its `query` is known to be there.
async fn scope_of(gw: &Gateway, args: &Args) -> Result<Scope, ToolError> {
    if args.query.trim().is_empty() {
        return Err(ToolError::Invalid(
            "`query` is required: a name, a name then the words you look for in it, or what it does in words (\"*\" lists every one)".into(),
        ));
    }
    gw.resolve(args.target.as_deref()).await
}

/// `search_by_code_imports`: the files whose imports match.
pub async fn imports(gw: &Gateway, spec: &'static ToolSpec, args: &Args) -> Result<ImportsAnswer, ToolError> {
    let scope = scope_of(gw, args).await?;
    let p = template_params::imports(&args.query, args.limit, args.offset);
    let response = gw.backend().run(spec.name, &scope_index(gw, &scope), &p).await?;
    let all = p.all;
    let results = response.hits().iter().map(|hit| import_result(hit, all)).collect();
    let mut answer: ImportsAnswer = paged(&args.query, results, &response, args);
    if let Some(note) = scope.note() {
        answer.note = Some(note);
    }
    Ok(answer)
}

/// The symbol searches (`search_code_symbols` and the tools of some kinds).
pub async fn symbols(gw: &Gateway, spec: &'static ToolSpec, args: &Args) -> Result<SymbolsAnswer, ToolError> {
    let scope = scope_of(gw, args).await?;
    let mut answer = symbol_search(gw, spec.name, &scope_index(gw, &scope), args).await?;
    if let Some(note) = scope.note() {
        answer.note = Some(note);
    }
    Ok(answer)
}

/// Score from which a file's best element matched by name.
fn name_tier() -> f64 {
    template_params::NAME_SCORES.name_tier()
}

/// A hit's score: its first sort value when the template sorts by `_score`
/// then path (names), its `_score` when by `_score` alone (questions, whose
/// hits then carry no `sort`).
fn score_of(hit: &Hit) -> f64 {
    hit.first_sort_number().or(hit.score).unwrap_or(0.0)
}

/// The score of the first hit.
fn top_score(response: &Response) -> f64 {
    response.hits().first().map_or(0.0, score_of)
}

/// One token, no spaces: a name rather than a question in words.
fn looks_like_a_name(query: &str) -> bool {
    !query.trim().is_empty() && !template_params::is_question(query)
}

/// The symbol searches. A name followed by words (`lru_cache maxsize`)
/// that names a definition looks up the name and shows the lines of its
/// best match that hold the words; any other query is searched whole.
async fn symbol_search(gw: &Gateway, tool: &str, index: &str, args: &Args) -> Result<SymbolsAnswer, ToolError> {
    if let Some((name, words)) = template_params::name_then_words(&args.query) {
        let named = Args { query: name.to_string(), ..args.clone() };
        let p = template_params::code(tool, name, args.limit, args.offset, Pass::Exact);
        let response = gw.backend().run(SYMBOLS_TEMPLATE, index, p).await?;
        if top_score(&response) >= template_params::NAME_SCORES.has_the_name() {
            return ranked(gw, tool, index, &named, Some(response), Show::Lines(words)).await;
        }
    }
    let show = if template_params::is_question(&args.query) { Show::Window(&args.query) } else { Show::Start };
    ranked(gw, tool, index, args, None, show).await
}

/// One query's search: names first, then words; a name defined only as
/// another kind of element answers with that element; a listing word lists;
/// a typo-tolerant pass runs only when nothing at all matched. `exact`:
/// the exact pass's response, when already run.
async fn ranked(
    gw: &Gateway,
    tool: &str,
    index: &str,
    args: &Args,
    exact: Option<Response>,
    show: Show<'_>,
) -> Result<SymbolsAnswer, ToolError> {
    let run = |pass: Pass| {
        let p = template_params::code(tool, &args.query, args.limit, args.offset, pass);
        gw.backend().run(SYMBOLS_TEMPLATE, index, p)
    };
    let listing = template_params::listing(tool, &args.query);
    let mut pass = if listing == Listing::Yes { Pass::All } else { Pass::Exact };
    let mut response = match exact.filter(|_| pass == Pass::Exact) {
        Some(response) => response,
        None => run(pass).await?,
    };
    let first_page = args.offset == 0;
    // A name's search scores elements of other kinds below every element
    // of the tool's kinds: a best match there means only they have it.
    let matched = response.total().unwrap_or(0) > 0;
    if pass == Pass::Exact && matched && looks_like_a_name(&args.query) && top_score(&response) < name_tier() {
        pass = Pass::AnyKind;
    }
    // Nothing has the name: the fallbacks answer, on every page.
    if !matched && pass != Pass::All {
        (pass, response) = match listing {
            Listing::IfNoMatch => (Pass::All, run(Pass::All).await?),
            _ => fallback(&args.query, run).await?,
        };
    }
    let top = top_score(&response);
    let by_words = matches!(pass, Pass::Exact | Pass::Words) && top < name_tier();
    let floor = relevance_floor(pass, top);
    let mut found = std::mem::take(&mut response.hits.hits);
    let before = found.len();
    found.retain(|h| score_of(h) >= floor);
    let cut = found.len() < before;
    let mut results: Vec<FileResult<SymbolsFound>> =
        found.iter().enumerate().map(|(i, hit)| symbol_result(hit, pass == Pass::All, Code::of(i, show))).collect();
    if by_words {
        // Most of a file's definitions hold one of a question's words: how
        // many more did is no lead.
        results.iter_mut().for_each(|r| r.found.more_matches = None);
    }
    let weak = by_words && results.first().is_some_and(|r| weak_match(&args.query, r));
    let mut answer: SymbolsAnswer = paged(&args.query, results, &response, args);
    if first_page && pass != Pass::All {
        let calls = found.first().map(super::delegate::calls_in).unwrap_or_default();
        lines_that_answer(gw, &mut answer, &calls, show).await;
    }
    let below = match pass {
        _ if by_words => None,
        Pass::Fuzzy => Some("matches by words"),
        _ => Some("weaker matches (other owners, case, kinds, longer names)"),
    };
    let tail_note = if cut { stop_where_relevance_falls(&mut answer, args.offset, below) } else { None };
    let note = if answer.total == 0 {
        first_page.then(|| NOTHING_NOTE.to_string())
    } else if weak {
        Some(WEAK_MATCH_NOTE.to_string())
    } else {
        // Later pages of a name's answer may reach other kinds after its own.
        pass_note(tool, pass).filter(|_| first_page || pass != Pass::AnyKind)
    };
    if let Some(note) = note {
        answer.note = Some(note);
    }
    if let Some(tail) = tail_note {
        answer.add_note(&tail);
    }
    Ok(answer)
}

/// The best result's lines that answer: its definition's ([`Show`]), the
/// function it hands its work to, the named values they read (for words),
/// and its file's lines holding the words.
async fn lines_that_answer(gw: &Gateway, answer: &mut SymbolsAnswer, calls: &[(String, String)], show: Show<'_>) {
    super::excerpt::complete(gw, answer, show).await;
    super::delegate::follow(gw, answer, calls, show).await;
    if let Show::Window(query) = show {
        super::delegate::follow_worded(gw, answer, query).await;
    }
    // A question (or a name with words) asks for a detail, often a value
    // the function reads; a bare name's look-up stays one search.
    if show != Show::Start {
        super::named_values::add(gw, answer).await;
    }
    match show {
        Show::Window(words) => super::word_lines::add(gw, answer, words, false).await,
        Show::Lines(words) => super::word_lines::add(gw, answer, words, true).await,
        Show::Start => {}
    }
    if matches!(show, Show::Lines(_)) {
        without_docs(answer);
    }
}

/// The score below which a page's hits are left out: a name that matched
/// lists only the files that define it; a question in words leaves out
/// files far below the best; close names leave out the files found by
/// words. Whatever is cut ranks below everything kept, so nothing relevant
/// is on a later page.
fn relevance_floor(pass: Pass, top: f64) -> f64 {
    match pass {
        Pass::Exact if top >= name_tier() => tier_floor(top),
        Pass::AnyKind => tier_floor(top / template_params::OTHER_KIND_WEIGHT) * template_params::OTHER_KIND_WEIGHT,
        Pass::Exact | Pass::Words => top * WORDS_SCORE_CUTOFF,
        Pass::Fuzzy if top >= template_params::TYPO_FLOOR => template_params::TYPO_FLOOR,
        _ => 0.0,
    }
}

/// The answer without its definitions' docs: a name followed by words
/// asks for lines, not for what the definitions are. A doc whose lines the
/// code leaves out (`code_skip`) stays: the code points to it.
fn without_docs(answer: &mut SymbolsAnswer) {
    let matches = answer.results.iter_mut().flat_map(|r| r.found.matches.iter_mut());
    for m in matches.filter(|m| m.code_skip.is_none()) {
        m.doc = None;
    }
}

/// A page cut where relevance falls off (the results below the best one's
/// name tier, far below the best score for words, or found by words below
/// close names). Words (`below` None): what is cut is filler and no later
/// page holds more. Otherwise what is cut (`below`: the weaker name tiers,
/// matches by words after close names) follows on the next page, which
/// the note says. Returns that note.
fn stop_where_relevance_falls(answer: &mut SymbolsAnswer, offset: u32, below: Option<&str>) -> Option<String> {
    let next = offset as u64 + answer.results.len() as u64;
    let Some(below) = below else {
        answer.total = next;
        answer.truncated = false;
        answer.next_offset = None;
        return None;
    };
    if answer.total <= next {
        return None;
    }
    answer.truncated = true;
    answer.next_offset = Some(next);
    // The header gives how many more and the offset that shows them.
    Some(format!("the rest are {below}"))
}

/// A query no name matched: a name that looks like an identifier
/// (`parseConfg`, `max_len`) is first taken for a typo, in one search that
/// ranks close names above matches by words; a plain word for a concept
/// ranked by its words, then for a typo, each pass run when the one
/// before found nothing.
async fn fallback<F, Fut>(query: &str, run: F) -> Result<(Pass, Response), ToolError>
where
    F: Fn(Pass) -> Fut,
    Fut: std::future::Future<Output = Result<Response, crate::backend::BackendError>>,
{
    let question = template_params::is_question(query);
    if template_params::looks_like_an_identifier(query) && !question {
        let response = run(Pass::TyposOrWords).await?;
        let pass = if top_score(&response) >= template_params::TYPO_FLOOR { Pass::Fuzzy } else { Pass::Words };
        return Ok((pass, response));
    }
    let mut last = (Pass::Fuzzy, Response::default());
    for pass in [Pass::Words, Pass::Fuzzy] {
        if question && pass == Pass::Words {
            continue; // the exact pass ranked a question's words already
        }
        let response = run(pass).await?;
        if !response.hits().is_empty() {
            return Ok((pass, response));
        }
        last = (pass, response);
    }
    Ok(last)
}

fn tier_floor(top: f64) -> f64 {
    template_params::NAME_SCORES.tier_floor(top)
}

/// A question in words: files scoring under this share of the best one are
/// left out (they would be filler).
const WORDS_SCORE_CUTOFF: f64 = 0.5;

const NOTHING_NOTE: &str = "no definition matches this name or these words; search_code_text finds exact text";

const WEAK_MATCH_NOTE: &str = "no definition's name or doc holds these words (they are only in code or comments \
     near it): the matches may be unrelated; search_code_text finds exact text";

/// Whether none of the query's words (3+ letters, not question words; their
/// first letters, for inflections) shows in the best result's first element
/// (name, owner, signature, doc) or path: the ranking then rests on words of
/// bodies or of the file only.
fn weak_match(query: &str, result: &FileResult<SymbolsFound>) -> bool {
    let words = template_params::analyze(query).words;
    if words.len() < 2 {
        return false;
    }
    let element = result.found.matches.first();
    let text = element
        .into_iter()
        .flat_map(|e| [Some(&e.head.name), e.head.owner.as_ref(), e.head.signature.as_ref(), e.doc.as_ref()])
        .flatten()
        .map(String::as_str)
        .chain([result.path.as_str()])
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let stem = |w: &str| w.chars().take(super::excerpt::STEM_CHARS).collect::<String>();
    !words.iter().any(|w| text.contains(&stem(&w.word)))
}

/// What an answer says about the pass that found it.
fn pass_note(tool: &str, pass: Pass) -> Option<String> {
    match pass {
        Pass::AnyKind => Some(format!(
            "nothing of the kinds {tool} looks for has this name; these elements of other kinds do (see `kind`)"
        )),
        Pass::Fuzzy => Some(
            "no exact or prefix match; these names are close (typo-tolerant search), before any match by words".into(),
        ),
        Pass::Words => Some("no definition has this name; these rank by the word in their names, docs and code".into()),
        _ => None,
    }
}

/// Relative score below which an inner hit is from a weaker tier than the
/// file's best (a prefix or a mention next to an exact name).
const INNER_SCORE_CUTOFF: f64 = 0.9;

/// A file with its best matching elements:
/// Which code a result's definitions show.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Code {
    /// The best result: its first definition's first lines.
    First,
    /// A value's first lines, and a function of at most
    /// [`SHORT_DEFINITION_LINES`] whole (`def backoff_seconds(...)` and its
    /// one `return`).
    Short,
    /// A value's first lines.
    Values,
}

impl Code {
    /// What the `i`-th result shows: the best match carries its
    /// definition's first lines (one call answers); a question's other
    /// results show a definition of a few lines whole.
    fn of(i: usize, show: Show) -> Code {
        match (i, show) {
            (0, _) => Code::First,
            (_, Show::Window(_)) => Code::Short,
            _ => Code::Values,
        }
    }
}

/// A function or method this short (lines from its head to its end) is
/// shown whole in any result of a question.
pub const SHORT_DEFINITION_LINES: u64 = 4;

/// `{name, kind, owner?, lines, signature, doc?, code?}`; `code` (the
/// definition's first lines) on the first element of the best result.
fn symbol_result(hit: &Hit, all: bool, code: Code) -> FileResult<SymbolsFound> {
    let with_code = code == Code::First;
    // A file found by its description or words alone: its first elements
    // of the tool's kinds (`elements`) stand for it.
    let list = if hit.inner("symbols").is_empty() { "elements" } else { "symbols" };
    let inner = hit.inner(list);
    let found = hit.inner_total(list).unwrap_or(inner.len() as u64);
    let best = inner.iter().filter_map(|h| h.score).fold(0.0_f64, f64::max);
    let keep = if all { inner.len() } else { SYMBOL_MATCHES_PER_FILE };
    let same = |a: &Shown, b: &Shown| a.name == b.name && a.owner == b.owner;
    let mut definitions: Vec<Shown> = Vec::new();
    let strong = inner.iter().filter(|h| all || best <= 0.0 || h.score.unwrap_or(best) >= best * INNER_SCORE_CUTOFF);
    for d in strong.filter_map(super::answer::shown) {
        // The best match's overloads (the same name and owner) are all shown
        // (as many as were fetched), and their first lines too: the first one
        // is often a short delegate to another, whose lines answer.
        let overload = with_code && definitions.first().is_some_and(|f| same(f, &d));
        if definitions.len() < keep || overload {
            definitions.push(d);
        }
    }
    let overload = |d: &Shown| definitions.first().is_some_and(|f| same(f, d));
    let matches: Vec<SymbolMatch> =
        definitions.iter().map(|d| element(d, (with_code && overload(d)) || short_whole(d, code))).collect();
    let more_matches = (found > matches.len() as u64).then(|| found - matches.len() as u64);
    let found = SymbolsFound { matches, more_matches, word_lines: Vec::new() };
    super::stale_marks::file_result(&super::answer::indexed_file(hit), found)
}

/// Whether a definition is a function short enough to show whole in a
/// result that is not the best ([`Code::Short`]), its stored code whole.
fn short_whole(d: &Shown, code: Code) -> bool {
    let span = d.lines.as_deref().and_then(crate::render::span).map(|(a, b)| b + 1 - a);
    // The stored code and the doc block it leaves out (`code_skip`).
    let skipped = d.code_skip.as_deref().and_then(crate::render::span).map_or(0, |(a, b)| b + 1 - a);
    let stored = d.code.as_deref().map_or(0, |c| c.lines().count() as u64) + skipped;
    let function = matches!(d.kind, ElementKind::Function | ElementKind::Method);
    code == Code::Short && function && span.is_some_and(|n| n <= SHORT_DEFINITION_LINES && stored >= n)
}

/// A definition as a match: what the index shows of it, its first lines
/// (`code`) when `with_code`, else a value's first lines ([`value_lines`]).
fn element(s: &Shown, with_code: bool) -> SymbolMatch {
    let mut m = SymbolMatch::from(s);
    match s.code.as_ref().filter(|c| with_code && !c.is_empty()) {
        Some(code) => (m.code, m.code_skip) = (Some(code.clone()), s.code_skip.clone()),
        None => m.code = value_lines(s),
    }
    m
}

/// Lines of a value's definition shown in a result that is not the best.
pub const VALUE_LINES: usize = 2;

/// The first [`VALUE_LINES`] of a variable's, constant's or field's
/// definition (`MAX_SIZE = 64 * 1024`), each cut to a code line's width;
/// `None` for other kinds or no stored code.
fn value_lines(s: &Shown) -> Option<String> {
    // A value's definition: every result shows its first lines, since a
    // question about a constant asks for what it is set to.
    if !s.kind.is_value() {
        return None;
    }
    let code = s.code.as_deref().filter(|c| !c.trim().is_empty())?;
    let lines: Vec<String> = code
        .lines()
        .take(VALUE_LINES)
        .map(|l| vibe_common::text::summary::cut(l, vibe_common::text::summary::MAX_CODE_LINE_CHARS))
        .collect();
    Some(lines.join("\n"))
}

/// A file with the imports that matched (highlighted values), or all of them when listing.
fn import_result(hit: &Hit, all: bool) -> FileResult<ImportsFound> {
    let imports = match hit.highlights("ast.imports") {
        highlighted if !highlighted.is_empty() && !all => highlighted,
        // The template fetches `ast.imports` alone of the AST.
        _ => hit.source_as::<super::outline::AstSource>().unwrap_or_default().ast.imports,
    };
    let found = ImportsFound { imports, more_imports: None };
    super::stale_marks::file_result(&super::answer::indexed_file(hit), found)
}
