//! Template parameters. The gateway never builds a query: it computes the
//! parameters of a stored search template (query text, words, detected
//! scripts, limits, escaped path patterns) and OpenSearch renders them. Every
//! value that reaches a template is either a JSON string (escaped by mustache)
//! or a number validated here.

use serde::Serialize;

use vibe_common::document::ast::CATEGORY_TAGS;
use vibe_common::document::kinds::{ElementKind, ReferenceKind};

use crate::normalize::MAX_LIMIT;
use crate::registry::ListingWords;
pub use crate::symbol_pass::{
    NameScores, Pass, FILE_NAME_BOOST, NAME_SCORES, OTHER_KIND_WEIGHT, OWNER_PATH_BOOST, TYPO_FLOOR,
};
use crate::symbol_pass::{FUZZY_SCORES, TYPO_SCORES};

/// Matching elements fetched per file by a code search (the answer keeps
/// those of the best tier, at most [`SYMBOL_MATCHES_PER_FILE`]).
pub const INNER_LIMIT: u32 = 5;
/// Elements per file when a code search lists everything.
pub const INNER_LIMIT_ALL: u32 = 20;
/// Matching elements a symbol search reports per file (`search_code_text`
/// reports up to `tools::text::MATCHING_LINES_PER_FILE` lines).
pub const SYMBOL_MATCHES_PER_FILE: usize = 3;
/// Words at least this long also get a prefix (wildcard) form.
pub const PREFIX_MIN_CHARS: usize = 5;

/// Scripts found in a query.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scripts {
    pub latin: bool,
    pub cyrillic: bool,
    pub cjk: bool,
}

pub use vibe_common::text::identifier::is_cjk;

pub fn is_cyrillic(c: char) -> bool {
    matches!(c as u32, 0x0400..=0x052F)
}

pub fn scripts(text: &str) -> Scripts {
    let mut s = Scripts::default();
    for c in text.chars() {
        if c.is_ascii_alphabetic() || (c.is_alphabetic() && (c as u32) < 0x0250) {
            s.latin = true;
        } else if is_cyrillic(c) {
            s.cyrillic = true;
        } else if is_cjk(c) {
            s.cjk = true;
        }
    }
    s
}

/// Question words and fillers that carry no meaning for a search.
const QUESTION_STOP_WORDS: &[&str] = &[
    "the",
    "and",
    "for",
    "who",
    "what",
    "how",
    "does",
    "are",
    "was",
    "were",
    "with",
    "about",
    "tell",
    "show",
    "find",
    "list",
    "please",
    "which",
    "where",
    "when",
    "why",
    "from",
    "into",
    "this",
    "that",
    "there",
    "all",
    "any",
    "can",
    "you",
    "кто",
    "что",
    "как",
    "такой",
    "такая",
    "такое",
    "такие",
    "где",
    "когда",
    "зачем",
    "почему",
    "расскажи",
    "расскажите",
    "покажи",
    "найди",
    "про",
    "это",
    "или",
    "для",
    "все",
    "всё",
    "какие",
    "какой",
    "какая",
    "есть",
    "его",
    "её",
    "она",
    "они",
    "him",
    "her",
    "his",
    "its",
];

/// One search word (Latin or Cyrillic, longer than 2 characters), lower case.
/// The documentation template reads it as it is: `{word, prefix}`, without
/// `prefix` for a short word.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Word {
    pub word: String,
    /// Prefix for the wildcard form of long words (inflected forms: `Бакобуре` → `бакобу*`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
}

/// The words of a query the searches use (its scripts, its words and their
/// prefixes, the text without question words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryWords {
    pub scripts: Scripts,
    /// Latin and Cyrillic words longer than 2 characters, without stop words.
    pub words: Vec<Word>,
    /// The words longer than 2 characters and the CJK runs, without stop
    /// words; the query itself when nothing is left.
    pub text: String,
}

pub fn analyze(query: &str) -> QueryWords {
    let scripts = scripts(query);
    let mut words: Vec<Word> = Vec::new();
    let mut kept: Vec<String> = Vec::new();
    for token in query.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|t| !t.is_empty()) {
        let lower = token.to_lowercase();
        let has_cjk = lower.chars().any(is_cjk);
        if QUESTION_STOP_WORDS.contains(&lower.as_str()) {
            continue;
        }
        if !has_cjk && lower.chars().count() <= 2 {
            continue;
        }
        kept.push(token.to_string());
        if has_cjk || words.iter().any(|w| w.word == lower) {
            continue;
        }
        let n = lower.chars().count();
        let prefix = (n >= PREFIX_MIN_CHARS).then(|| {
            let keep = (n - 2).max(4);
            lower.chars().take(keep).collect::<String>()
        });
        words.push(Word { word: lower, prefix });
    }
    let text = if kept.is_empty() { query.trim().to_string() } else { kept.join(" ") };
    QueryWords { scripts, words, text }
}

/// Params of `search_documentation`: the query's text (without question
/// words), its words and the scripts found in it (each script found gets its
/// clauses).
#[derive(Debug, Serialize)]
pub struct DocumentationParams {
    pub text: String,
    pub words: Vec<Word>,
    pub latin: bool,
    pub cyrillic: bool,
    pub cjk: bool,
    pub limit: u32,
    pub offset: u32,
}

/// Params of `search_documentation`.
pub fn documentation(query: &str, limit: u32, offset: u32) -> DocumentationParams {
    let QueryWords { scripts, words, text } = analyze(query);
    DocumentationParams {
        text,
        words,
        latin: scripts.latin,
        cyrillic: scripts.cyrillic,
        cjk: scripts.cjk,
        limit: clamp_limit(limit),
        offset,
    }
}

/// Whether a code query asks for a listing instead of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// A name or words to match.
    No,
    /// Empty, `*`, or a phrase such as "all functions" / "функции".
    Yes,
    /// One generic English word ("functions", "all") that could also be a
    /// name: matched first, listed only when nothing matches.
    IfNoMatch,
}

/// What a code query asks for (see [`Listing`]).
pub fn listing(tool: &str, query: &str) -> Listing {
    let q = query.trim().trim_matches(|c: char| c == '"' || c == '\'').to_lowercase();
    if q.is_empty() || q.chars().all(|c| c == '*' || c == '.' || c.is_whitespace()) {
        return Listing::Yes;
    }
    let Some(ListingWords { categories, others }) = crate::registry::spec(tool).and_then(|t| t.listing) else {
        return Listing::No;
    };
    let category_word = CATEGORY_TAGS
        .iter()
        .filter(|(en, ..)| categories.contains(en))
        .any(|&(en, ru, zh)| [en, ru, zh].contains(&q.as_str()));
    let generic = category_word || others.contains(&q.as_str());
    match generic {
        false => Listing::No,
        true if q.chars().all(|c| c.is_ascii_alphabetic()) => Listing::IfNoMatch,
        true => Listing::Yes,
    }
}

/// Element kinds each code search looks at (declared in the registry).
pub fn code_kinds(tool: &str) -> &'static [ElementKind] {
    crate::registry::spec(tool).map(|t| t.kinds).unwrap_or(&[])
}

/// A code query split into the name and its qualifier: `Owner.name`,
/// `Owner::name`, `Owner#name` and `Owner->name` name `name` owned by `Owner`.
/// A question in words is no name, even when it ends in one
/// (`... headers allowed in http.client` names no `client`).
pub fn split_qualified(query: &str) -> (Option<&str>, &str) {
    let q = query.trim().trim_end_matches("()").trim();
    if is_question(q) {
        return (None, q);
    }
    for sep in ["::", "->", "#", "."] {
        if let Some((owner, name)) = q.rsplit_once(sep) {
            let (owner, name) = (owner.trim(), name.trim());
            if !owner.is_empty() && !name.is_empty() && !name.contains(char::is_whitespace) {
                return (Some(owner), name);
            }
        }
    }
    (None, q)
}

/// A query of several words (a description, not a name): ranked by words,
/// by score alone.
pub fn is_question(query: &str) -> bool {
    query.trim().contains(char::is_whitespace)
}

/// An identifier rather than a word: `camelCase`, `snake_case`, `Owner.name`, digits.
/// An acronym in capitals (`JSON`, `HTTP`) is a word.
pub fn looks_like_an_identifier(token: &str) -> bool {
    let t = token.trim();
    t.contains(['_', '.', ':', '#'])
        || t.chars().any(|c| c.is_ascii_digit())
        || (t.chars().skip(1).any(char::is_uppercase) && t.chars().any(char::is_lowercase))
}

/// A name followed by words (`lru_cache maxsize`, `Strings.repeat arraycopy`,
/// `debounce maxWait`): the name and the words. The first token is a name
/// when it looks like an identifier, or when a later one does in a query of
/// at most three tokens; a question in plain words (`parse range header`)
/// is none. The caller checks that the name names a definition.
pub fn name_then_words(query: &str) -> Option<(&str, &str)> {
    let q = query.trim();
    let (name, words) = q.split_once(char::is_whitespace)?;
    let words = words.trim();
    let name_like = name.chars().all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '#' | '$'));
    let short = q.split_whitespace().count() <= 3 && words.split_whitespace().any(looks_like_an_identifier);
    (name_like && (looks_like_an_identifier(name) || short)).then_some((name, words))
}

/// Params of the symbol searches (see [`code`]), named as the template names
/// them. `owner` is sent as `null` for an unqualified name (its `{{#owner}}`
/// section is then skipped).
#[derive(Debug, Serialize)]
pub struct CodeParams<'a> {
    pub name: &'a str,
    pub lower: String,
    pub owner: Option<String>,
    pub words: &'a str,
    pub kinds: &'static [ElementKind],
    pub all: bool,
    pub fuzzy: bool,
    pub typos: bool,
    pub typo_boost: u32,
    pub typo_words_boost: u32,
    pub one_edit_boost: u32,
    pub names_only: bool,
    pub other_kinds: bool,
    pub other_kind_weight: f64,
    pub owner_path_boost: f64,
    pub file_name_boost: f64,
    /// A question's words as stems (`logging` -> `logg`), each a prefix
    /// of a path word (`middleware/logger.rb`) that adds
    /// `path_stem_boost` ([`path_stems`]).
    pub path_stems: Vec<String>,
    pub path_stem_boost: f64,
    pub scores: NameScores,
    pub question: bool,
    pub limit: u32,
    pub offset: u32,
    pub inner_limit: u32,
}

/// Params of the symbol searches (functions, classes, variables). The
/// template ranks: exact name, `Owner.name`, case-insensitive name, name
/// prefix, name words, then mentions; `fuzzy` switches to the typo-tolerant
/// fallback, run only when the exact pass finds nothing.
pub fn code<'a>(tool: &str, query: &'a str, limit: u32, offset: u32, pass: Pass) -> CodeParams<'a> {
    let all = pass == Pass::All;
    let (owner, name) = split_qualified(query);
    let name_pass = pass == Pass::Exact && !is_question(query);
    let (typo_boost, typo_words_boost, one_edit_boost) =
        if pass == Pass::TyposOrWords { TYPO_SCORES } else { FUZZY_SCORES };
    CodeParams {
        name,
        lower: name.to_lowercase(),
        owner: owner.map(str::to_lowercase),
        words: query,
        kinds: code_kinds(tool),
        all,
        fuzzy: pass == Pass::Fuzzy,
        typos: matches!(pass, Pass::Fuzzy | Pass::TyposOrWords),
        typo_boost,
        typo_words_boost,
        one_edit_boost,
        // A name is looked up as a name: no word scoring unless it is a
        // question in words or the name matched nothing; elements of other
        // kinds answer in the same search, ranked below the tool's kinds.
        names_only: name_pass,
        other_kinds: name_pass,
        other_kind_weight: OTHER_KIND_WEIGHT,
        owner_path_boost: OWNER_PATH_BOOST,
        file_name_boost: FILE_NAME_BOOST,
        // A question about a value is answered by the value's own name
        // (`DEFAULT_RETRY_BASE_SECONDS` for "default base retry delay"),
        // not by the file whose path has the subject's words.
        path_stems: if is_question(query) && !code_kinds(tool).iter().any(|k| k.is_value()) {
            path_stems(query)
        } else {
            Vec::new()
        },
        path_stem_boost: PATH_STEM_BOOST,
        scores: NAME_SCORES,
        question: matches!(pass, Pass::Exact | Pass::Words) && is_question(query),
        limit: clamp_limit(limit),
        offset,
        inner_limit: if all { INNER_LIMIT_ALL } else { INNER_LIMIT },
    }
}

/// Params of the import search; `all` lists every import.
#[derive(Debug, Serialize)]
pub struct ImportsParams<'a> {
    pub query: &'a str,
    pub all: bool,
    pub limit: u32,
    pub offset: u32,
}

/// Params of the import search.
pub fn imports(query: &str, limit: u32, offset: u32) -> ImportsParams<'_> {
    ImportsParams {
        query,
        all: listing("search_by_code_imports", query) != Listing::No,
        limit: clamp_limit(limit),
        offset,
    }
}

/// Uses fetched per file by `find_references`.
pub const REFERENCES_PER_FILE: u32 = 20;

/// Params of `find_references` (see [`references`]); `owner` is `null`
/// for a bare name. `inner_limit` is also the uses the answer shows per file.
#[derive(Debug, Serialize)]
pub struct ReferencesParams<'a> {
    pub name: &'a str,
    pub lower: String,
    pub owner: Option<String>,
    pub kinds: &'a [ReferenceKind],
    pub limit: u32,
    pub offset: u32,
    pub inner_limit: u32,
}

/// Params of `find_references`: the bare name (exact, and lower case for
/// names that match in any case), the kinds, and the owner of `Owner.name`
/// (files that mention the owner rank first).
pub fn references<'a>(
    name: &'a str,
    owner: Option<&str>,
    kinds: &'a [ReferenceKind],
    limit: u32,
    offset: u32,
) -> ReferencesParams<'a> {
    ReferencesParams {
        name,
        lower: name.to_lowercase(),
        owner: owner.map(str::to_lowercase),
        kinds,
        limit: clamp_limit(limit),
        offset,
        inner_limit: REFERENCES_PER_FILE,
    }
}

/// Params of `find_callees` (see [`callees`]): `in` is the wildcard-escaped
/// `Owner.name`. `inner_limit` is also the uses the answer shows per file.
#[derive(Debug, Serialize)]
pub struct CalleesParams<'a> {
    pub r#in: String,
    pub kinds: &'a [ReferenceKind],
    pub limit: u32,
    pub offset: u32,
    pub inner_limit: u32,
}

/// Params of `find_callees`: the references inside the definition named
/// `query` (`name` or `Owner.name`, matched as the references' `in`).
pub fn callees<'a>(query: &str, kinds: &'a [ReferenceKind], limit: u32, offset: u32) -> CalleesParams<'a> {
    let q = query.trim().trim_end_matches("()");
    let qualified = ["::", "->", "#"].iter().fold(q.to_string(), |s, sep| s.replace(sep, "."));
    CalleesParams {
        r#in: wildcard_escape(&qualified),
        kinds,
        limit: clamp_limit(limit),
        offset,
        inner_limit: REFERENCES_PER_FILE * 5,
    }
}

/// Escapes `*`, `?` and `\` for a wildcard query.
pub fn wildcard_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '*' | '?' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Params of `get_file_content` / `get_file_ast` (see [`file()`]); without a
/// symbol name the key is not sent at all.
#[derive(Debug, Serialize)]
pub struct FileParams<'a> {
    pub path: &'a str,
    pub path_glob: String,
    pub loose: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol_name: Option<&'a str>,
}

/// Params of `get_file_content` / `get_file_ast`: the path exactly and but
/// for case (`path.lower`), and with `loose` also as a path suffix or a
/// substring. Those are leading wildcards, 2-8 ms of OpenSearch CPU each
/// on a project's paths, so they are a second pass, for a path that
/// matched nothing exactly.
pub fn file<'a>(path: &'a str, loose: bool, symbol_name: Option<&'a str>) -> FileParams<'a> {
    FileParams { path, path_glob: wildcard_escape(path), loose, symbol_name }
}

/// Params of `show_projects`: at most `limit` projects.
#[derive(Debug, Serialize)]
pub struct ProjectsParams {
    pub limit: u32,
}

/// Params of `show_projects`.
pub fn projects(limit: u32) -> ProjectsParams {
    ProjectsParams { limit: limit.clamp(1, 10_000) }
}

/// Params of `show_stats`: at most `languages_limit` languages.
#[derive(Debug, Serialize)]
pub struct StatsParams {
    pub languages_limit: u32,
}

/// Params of `show_stats`.
pub fn stats() -> StatsParams {
    StatsParams { languages_limit: 200 }
}

/// Params of `show_tree` (see [`tree`]); without a directory `prefix` the
/// key is not sent at all.
#[derive(Debug, Serialize)]
pub struct TreeParams<'a> {
    pub limit: u32,
    pub roots: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_regexp: Option<&'a str>,
}

/// Params of `show_tree`: the first `max_files` paths (under the directory
/// `prefix`, `a/b/`, when given; or matching `path_regexp`, a path glob as
/// a regexp) and the number of files of each project.
pub fn tree<'a>(max_files: u32, prefix: Option<&'a str>, path_regexp: Option<&'a str>, roots: u32) -> TreeParams<'a> {
    TreeParams {
        limit: max_files.clamp(1, 10_000),
        roots: roots.clamp(1, 10_000),
        prefix: prefix.filter(|p| !p.is_empty()),
        path_regexp,
    }
}

fn clamp_limit(limit: u32) -> u32 {
    limit.clamp(1, MAX_LIMIT)
}

/// Params of `search_code_text`: `size` candidate files from `offset`
/// (sorted by project root, then path), each holding, for every clause, one
/// gram of every group of one of its alternatives
/// ([`crate::tools::text::plan`]; a group's grams joined by line breaks,
/// which the `vibe_grams` analyzer splits on).
/// `path_regexp` is a Lucene regexp over the whole relative path (built from
/// the glob and escaped by the caller), `language` a language name (matched
/// case-insensitively).
pub fn text<'a>(
    clauses: &[Vec<Vec<Vec<String>>>],
    path_regexp: Option<&'a str>,
    language: Option<&'a str>,
    size: u32,
    offset: u32,
) -> TextParams<'a> {
    let alternative =
        |groups: &Vec<Vec<String>>| TextAlternative { groups: groups.iter().map(|g| g.join("\n")).collect() };
    TextParams {
        clauses: clauses.iter().map(|c| TextClause { alternatives: c.iter().map(alternative).collect() }).collect(),
        path_regexp,
        language: language.filter(|l| !l.is_empty()),
        limit: size.clamp(1, TEXT_MAX_SIZE),
        offset,
    }
}

/// Params of `search_code_text` (see [`text()`]). A missing `path_regexp` or
/// `language` is sent as `null` (the template's section for it is skipped).
#[derive(Debug, Serialize)]
pub struct TextParams<'a> {
    pub clauses: Vec<TextClause>,
    pub path_regexp: Option<&'a str>,
    pub language: Option<&'a str>,
    pub limit: u32,
    pub offset: u32,
}

/// One clause of a text search: a file matches one of its alternatives.
#[derive(Debug, Serialize)]
pub struct TextClause {
    pub alternatives: Vec<TextAlternative>,
}

/// One alternative of a clause: a file holds one gram of every group (a
/// group's grams joined by line breaks).
#[derive(Debug, Serialize)]
pub struct TextAlternative {
    pub groups: Vec<String>,
}

/// Most candidate files one `search_code_text` request fetches.
pub const TEXT_MAX_SIZE: u32 = 500;

mod lookups;
mod path_stems;
mod run_as;
pub use lookups::*;
pub use path_stems::{path_stems, PATH_STEM_BOOST};
pub use run_as::TemplateParams;

#[cfg(test)]
pub(crate) mod tests;
