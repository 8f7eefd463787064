//! Template parameters. The gateway never builds a query: it computes the
//! parameters of a stored search template (query text, words, detected
//! scripts, limits, escaped path patterns) and OpenSearch renders them. Every
//! value that reaches a template is either a JSON string (escaped by mustache)
//! or a number validated here.

use serde_json::{json, Value};

use vibe_common::document::ast::CATEGORY_TAGS;
use vibe_common::document::kinds::{ElementKind, ReferenceKind};

use crate::normalize::MAX_LIMIT;
use crate::registry::ListingWords;
pub use crate::symbol_pass::{Pass, NAME_SCORES, OTHER_KIND_WEIGHT, OWNER_PATH_BOOST, TYPO_FLOOR};
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub word: String,
    /// Prefix for the wildcard form of long words (inflected forms: `Бакобуре` → `бакобу*`).
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

/// Params of `search_documentation`.
pub fn documentation(query: &str, limit: u32, offset: u32) -> Value {
    let a = analyze(query);
    let words: Vec<Value> = a
        .words
        .iter()
        .map(|w| match &w.prefix {
            Some(p) => json!({ "word": w.word, "prefix": p }),
            None => json!({ "word": w.word }),
        })
        .collect();
    json!({
        "query": query,
        "text": a.text,
        "words": words,
        "latin": a.scripts.latin,
        "cyrillic": a.scripts.cyrillic,
        "cjk": a.scripts.cjk,
        "limit": clamp_limit(limit),
        "offset": offset,
    })
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

/// Params of the symbol searches (functions, classes, variables). The
/// template ranks: exact name, `Owner.name`, case-insensitive name, name
/// prefix, name words, then mentions; `fuzzy` switches to the typo-tolerant
/// fallback, run only when the exact pass finds nothing.
pub fn code(tool: &str, query: &str, limit: u32, offset: u32, pass: Pass) -> Value {
    let all = pass == Pass::All;
    let (owner, name) = split_qualified(query);
    let name_pass = pass == Pass::Exact && !is_question(query);
    let typo_scores = if pass == Pass::TyposOrWords { TYPO_SCORES } else { FUZZY_SCORES };
    json!({
        "query": query,
        "name": name,
        "lower": name.to_lowercase(),
        "owner": owner.map(str::to_lowercase),
        "words": query,
        "kinds": code_kinds(tool),
        "all": all,
        "fuzzy": pass == Pass::Fuzzy,
        "typos": matches!(pass, Pass::Fuzzy | Pass::TyposOrWords),
        "typo_boost": typo_scores.0,
        "typo_words_boost": typo_scores.1,
        "one_edit_boost": typo_scores.2,
        // A name is looked up as a name: no word scoring unless it is a
        // question in words or the name matched nothing; elements of other
        // kinds answer in the same search, ranked below the tool's kinds.
        "names_only": name_pass,
        "other_kinds": name_pass,
        "other_kind_weight": OTHER_KIND_WEIGHT,
        "owner_path_boost": OWNER_PATH_BOOST,
        "scores": NAME_SCORES,
        "question": matches!(pass, Pass::Exact | Pass::Words) && is_question(query),
        "limit": clamp_limit(limit),
        "offset": offset,
        "inner_limit": if all { INNER_LIMIT_ALL } else { INNER_LIMIT },
    })
}

/// Params of the import search.
pub fn imports(query: &str, limit: u32, offset: u32) -> Value {
    json!({
        "query": query,
        "all": listing("search_by_code_imports", query) != Listing::No,
        "limit": clamp_limit(limit),
        "offset": offset,
    })
}

/// Uses fetched per file by `find_references`.
pub const REFERENCES_PER_FILE: u32 = 20;

/// Params of `find_references`: the bare name (exact, and lower case for
/// names that match in any case), the kinds, and the owner of `Owner.name`
/// (files that mention the owner rank first).
pub fn references(name: &str, owner: Option<&str>, kinds: &[ReferenceKind], limit: u32, offset: u32) -> Value {
    json!({
        "name": name,
        "lower": name.to_lowercase(),
        "owner": owner.map(str::to_lowercase),
        "kinds": kinds,
        "limit": clamp_limit(limit),
        "offset": offset,
        "inner_limit": REFERENCES_PER_FILE,
    })
}

/// Params of `find_callees`: the references inside the definition named
/// `query` (`name` or `Owner.name`, matched as the references' `in`).
pub fn callees(query: &str, kinds: &[ReferenceKind], limit: u32, offset: u32) -> Value {
    let q = query.trim().trim_end_matches("()");
    let qualified = ["::", "->", "#"].iter().fold(q.to_string(), |s, sep| s.replace(sep, "."));
    json!({
        "in": wildcard_escape(&qualified),
        "kinds": kinds,
        "limit": clamp_limit(limit),
        "offset": offset,
        "inner_limit": REFERENCES_PER_FILE * 5,
    })
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

/// Params of `get_file_content` / `get_file_ast`: the path exactly and but
/// for case (`path.lower`), and with `loose` also as a path suffix or a
/// substring. Those are leading wildcards, 2-8 ms of OpenSearch CPU each
/// on a project's paths, so they are a second pass, for a path that
/// matched nothing exactly.
pub fn file(path: &str, loose: bool, symbol_name: Option<&str>) -> Value {
    let mut p = json!({ "path": path, "path_glob": wildcard_escape(path), "loose": loose });
    if let Some(name) = symbol_name {
        p["symbol_name"] = json!(name);
    }
    p
}

/// Params of `show_projects`.
pub fn projects(limit: u32) -> Value {
    json!({ "limit": limit.clamp(1, 10_000) })
}

/// Params of `show_stats`.
pub fn stats() -> Value {
    json!({ "languages_limit": 200 })
}

/// Params of `show_tree`: the first `max_files` paths (under the directory
/// `prefix`, `a/b/`, when given) and the number of files of each project
/// root (up to `roots` of them).
pub fn tree(max_files: u32, prefix: Option<&str>, roots: u32) -> Value {
    let mut p = json!({ "limit": max_files.clamp(1, 10_000), "roots": roots.clamp(1, 10_000) });
    if let Some(prefix) = prefix.filter(|p| !p.is_empty()) {
        p["prefix"] = json!(prefix);
    }
    p
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
pub fn text(
    clauses: &[Vec<Vec<Vec<String>>>],
    path_regexp: Option<&str>,
    language: Option<&str>,
    size: u32,
    offset: u32,
) -> Value {
    let clauses: Vec<Value> = clauses
        .iter()
        .map(|c| {
            let alternatives: Vec<Value> = c
                .iter()
                .map(|groups| json!({ "groups": groups.iter().map(|g| g.join("\n")).collect::<Vec<_>>() }))
                .collect();
            json!({ "alternatives": alternatives })
        })
        .collect();
    json!({
        "clauses": clauses,
        "path_regexp": path_regexp,
        "language": language.filter(|l| !l.is_empty()),
        "limit": size.clamp(1, TEXT_MAX_SIZE),
        "offset": offset,
    })
}

/// Params of `find_definitions`: the functions and methods named `names`
/// that the file at `path` defines, at most `limit` of them.
pub fn definitions(path: &str, names: &[&str], limit: u32) -> Value {
    json!({ "path": path, "names": names, "limit": limit.clamp(1, INNER_LIMIT_ALL) })
}

/// Most candidate files one `search_code_text` request fetches.
pub const TEXT_MAX_SIZE: u32 = 500;

#[cfg(test)]
mod text_tests {
    use super::*;

    #[test]
    fn text_params() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let clauses = vec![vec![vec![s(&["abc"]), s(&["b c"])]], vec![vec![s(&["xyz", "XYZ"])], vec![s(&["q\"r"])]]];
        let p = text(&clauses, Some("(.*/)?[^/]*\\.py"), Some("python"), 3, 7);
        assert_eq!(
            p["clauses"],
            json!([
                { "alternatives": [{ "groups": ["abc", "b c"] }] },
                { "alternatives": [{ "groups": ["xyz\nXYZ"] }, { "groups": ["q\"r"] }] }
            ])
        );
        assert_eq!((p["limit"].clone(), p["offset"].clone()), (json!(3), json!(7)));
        assert_eq!(p["path_regexp"], "(.*/)?[^/]*\\.py");
        assert_eq!(p["language"], "python");
        let p = text(&[], None, Some(""), 5000, 0);
        assert_eq!(
            (p["clauses"].clone(), p["language"].clone(), p["limit"].clone()),
            (json!([]), Value::Null, json!(TEXT_MAX_SIZE))
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_then_words_is_told_from_a_question() {
        assert_eq!(name_then_words("lru_cache maxsize"), Some(("lru_cache", "maxsize")));
        assert_eq!(name_then_words("Strings.repeat  arraycopy"), Some(("Strings.repeat", "arraycopy")));
        assert_eq!(name_then_words("debounce maxWait"), Some(("debounce", "maxWait")));
        assert_eq!(name_then_words("py_scanstring surrogate pair"), Some(("py_scanstring", "surrogate pair")));
        // Plain words, or a plain first word in a longer question: a question.
        assert_eq!(name_then_words("parse range header"), None);
        assert_eq!(name_then_words("check if the response is fresh using ETag"), None);
        assert_eq!(name_then_words("lru_cache"), None);
        assert_eq!(name_then_words("what's lru_cache for"), None);
        // An acronym opening a question is a word, not a name.
        assert_eq!(name_then_words("JSON decoder error when a property name is not quoted"), None);
    }

    #[test]
    fn scripts_are_detected() {
        assert_eq!(scripts("who is Kirikur"), Scripts { latin: true, ..Default::default() });
        assert_eq!(scripts("Кто такой Бакобур?"), Scripts { cyrillic: true, ..Default::default() });
        assert_eq!(scripts("基里库尔是谁"), Scripts { cjk: true, ..Default::default() });
        assert_eq!(scripts("Kirikur и 基里库尔"), Scripts { latin: true, cyrillic: true, cjk: true });
        assert_eq!(scripts("123 ?!"), Scripts::default());
        assert_eq!(scripts("Ünïcödé café"), Scripts { latin: true, ..Default::default() });
        assert_eq!(scripts("Ёжик в тумане"), Scripts { cyrillic: true, ..Default::default() });
        assert_eq!(scripts("カタカナ ひらがな"), Scripts { cjk: true, ..Default::default() });
        assert_eq!(scripts("한국어"), Scripts { cjk: true, ..Default::default() });
        assert_eq!(scripts("😀 \u{202E} \u{0}"), Scripts::default());
        assert_eq!(scripts("Бакобур Kirikur"), Scripts { latin: true, cyrillic: true, cjk: false });
        assert_eq!(scripts("兹兹科什 Zizikosh"), Scripts { latin: true, cyrillic: false, cjk: true });
        // Every script found gets its clauses in the documentation template.
        let p = documentation("Бакобур 兹兹科什 Kirikur", 3, 0);
        assert_eq!(
            (p["latin"].clone(), p["cyrillic"].clone(), p["cjk"].clone()),
            (json!(true), json!(true), json!(true))
        );
    }

    #[test]
    fn words_and_prefixes() {
        let a = analyze("Расскажи о Бакобуре и его носках");
        let words: Vec<_> = a.words.iter().map(|w| (w.word.as_str(), w.prefix.as_deref())).collect();
        assert_eq!(words, vec![("бакобуре", Some("бакобу")), ("носках", Some("носк"))]);
        assert_eq!(a.text, "Бакобуре носках");
        let a = analyze("Who is Kirikur?");
        assert_eq!(a.words.len(), 1);
        assert_eq!(a.words[0].prefix.as_deref(), Some("kirik"));
        assert_eq!(analyze("who").text, "who");
        assert!(analyze("基里库尔是谁").words.is_empty());
    }

    #[test]
    fn everything_queries() {
        assert_eq!(imports("*", 3, 0)["all"], true);
        assert_eq!(imports("", 3, 0)["all"], true);
        assert_eq!(code("search_by_code_functions", "add", 3, 0, Pass::Exact)["all"], false);
        // Several words are a question (ranked by score alone); a name keeps its path tie-break.
        assert_eq!(
            code("search_by_code_functions", "where is the delay computed", 3, 0, Pass::Exact)["question"],
            true
        );
        assert_eq!(code("search_by_code_functions", " add ", 3, 0, Pass::Exact)["question"], false);
        assert_eq!(code("search_by_code_functions", "a b", 3, 0, Pass::Fuzzy)["question"], false);
        assert_eq!(listing("search_by_code_functions", "*"), Listing::Yes);
        assert_eq!(listing("search_by_code_functions", "функции"), Listing::Yes);
        assert_eq!(listing("search_by_code_functions", "function"), Listing::IfNoMatch);
        assert_eq!(listing("search_by_code_functions", "parse"), Listing::No);
        assert_eq!(listing("search_by_code_classes", "структуры"), Listing::Yes);
        assert_eq!(listing("search_by_code_variables", "enums"), Listing::IfNoMatch);
        assert_eq!(listing("search_by_code_imports", "导入"), Listing::Yes);
        assert_eq!(listing("search_by_code_imports", "функции"), Listing::No);
        assert_eq!(code("search_by_code_functions", "add", 99, 0, Pass::Exact)["limit"], 10);
    }

    #[test]
    fn qualified_names_are_split() {
        assert_eq!(split_qualified("Writer.write"), (Some("Writer"), "write"));
        assert_eq!(split_qualified("std::io::Read::read"), (Some("std::io::Read"), "read"));
        assert_eq!(split_qualified("List#add()"), (Some("List"), "add"));
        assert_eq!(split_qualified("readLine"), (None, "readLine"));
        assert_eq!(split_qualified(".hidden"), (None, ".hidden"));
        let question = "maximum number of headers in http.client";
        assert_eq!(split_qualified(question), (None, question));
        let p = code("search_by_code_functions", "Outer.Inner.run", 3, 0, Pass::Exact);
        assert_eq!(
            (p["name"].clone(), p["lower"].clone(), p["owner"].clone()),
            (json!("run"), json!("run"), json!("outer.inner"))
        );
        assert_eq!(code("search_by_code_classes", "Writer", 3, 0, Pass::Exact)["owner"], Value::Null);
    }

    #[test]
    fn a_name_is_also_looked_up_among_other_kinds_and_typos_above_words() {
        let name = code("search_by_code_variables", "x", 3, 0, Pass::Exact);
        assert_eq!((name["other_kinds"].clone(), name["names_only"].clone()), (json!(true), json!(true)));
        assert_eq!(code("search_by_code_variables", "x y", 3, 0, Pass::Exact)["other_kinds"], false);
        assert_eq!(code("search_by_code_variables", "x", 3, 0, Pass::Words)["other_kinds"], false);
        let typos = code("search_by_code_functions", "parseConfg", 3, 0, Pass::TyposOrWords);
        assert_eq!((typos["typos"].clone(), typos["fuzzy"].clone()), (json!(true), json!(false)));
        assert!(typos["typo_words_boost"].as_f64().unwrap() >= TYPO_FLOOR);
        let fuzzy = code("search_by_code_functions", "multipy", 3, 0, Pass::Fuzzy);
        assert_eq!((fuzzy["typos"].clone(), fuzzy["fuzzy"].clone()), (json!(true), json!(true)));
        assert!(fuzzy["typo_boost"].as_f64().unwrap() < 1_000.0);
    }

    #[test]
    fn wildcard_is_escaped() {
        assert_eq!(wildcard_escape(r"a*b?c\d"), r"a\*b\?c\\d");
    }
}
