//! The template parameters' tests: what each query becomes, read from the
//! typed params, and the JSON a symbol search sends, pinned as a literal.

use std::collections::BTreeSet;

use serde_json::{json, Value};
use vibe_common::backend::templates::search_template_source;

use super::*;

/// The names a stored template reads (each segment of `{{a.b}}`, `{{#a}}`,
/// `{{^a}}`, and what `{{#toJson}}a{{/toJson}}` names).
fn names_read(template: &str) -> BTreeSet<String> {
    let source = search_template_source(template).unwrap_or_else(|| panic!("no template {template}"));
    let tags = regex::Regex::new(
        r"\{\{[#^/&]?\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}(?:([A-Za-z_][A-Za-z0-9_.]*)\{\{/toJson\}\})?",
    )
    .unwrap();
    let mut read = BTreeSet::new();
    for c in tags.captures_iter(&source) {
        for name in c.iter().skip(1).flatten() {
            read.extend(name.as_str().split('.').map(str::to_string));
        }
    }
    read
}

/// The keys of the params sent to `template` that it never reads, at any
/// depth (a key renamed on one side only is sent and silently ignored).
pub(crate) fn unread_params(template: &str, params: &impl Serialize) -> Vec<String> {
    fn keys(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(map) => map.iter().for_each(|(k, v)| {
                out.insert(k.clone());
                keys(v, out);
            }),
            Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
            _ => {}
        }
    }
    let mut sent = BTreeSet::new();
    keys(&serde_json::to_value(params).unwrap(), &mut sent);
    sent.difference(&names_read(template)).cloned().collect()
}

#[test]
fn every_param_sent_is_read_by_its_template() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let clauses = vec![vec![vec![s(&["abc"])]]];
    let kinds = ReferenceKind::ALL;
    let names = ["f"];
    let unread: Vec<(&str, Vec<String>)> = vec![
        (
            "search_code_symbols",
            unread_params("search_code_symbols", &code("search_by_code_functions", "A.run", 3, 0, Pass::Exact)),
        ),
        (
            "search_code_symbols",
            unread_params("search_code_symbols", &code("search_by_code_functions", "why run", 3, 0, Pass::Fuzzy)),
        ),
        ("search_documentation", unread_params("search_documentation", &documentation("Бакобур retries", 3, 0))),
        ("search_by_code_imports", unread_params("search_by_code_imports", &imports("os", 3, 0))),
        ("find_references", unread_params("find_references", &references("run", Some("A"), &kinds, 3, 0))),
        ("find_callees", unread_params("find_callees", &callees("A.run", &kinds, 3, 0))),
        ("get_file_content", unread_params("get_file_content", &file("a.py", true, None))),
        ("get_file_ast", unread_params("get_file_ast", &file("a.py", true, Some("run")))),
        ("show_projects", unread_params("show_projects", &projects(10))),
        ("show_stats", unread_params("show_stats", &stats())),
        ("show_tree", unread_params("show_tree", &tree(100, Some("src"), Some("(.*/)?[^/]*\\.py"), 10))),
        ("search_code_text", unread_params("search_code_text", &text(&clauses, Some(".*"), Some("python"), 3, 0))),
        ("find_definitions", unread_params("find_definitions", &definitions("a.py", &names, 3))),
        ("find_values", unread_params("find_values", &values(&names, "src/a.py", 3))),
        ("find_defaults", unread_params("find_defaults", &values(&names, "src/a.py", 3))),
    ];
    for (template, keys) in unread {
        assert!(keys.is_empty(), "{template} is sent {keys:?}, which it never reads");
    }
}

#[test]
fn text_params() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let clauses = vec![vec![vec![s(&["abc"]), s(&["b c"])]], vec![vec![s(&["xyz", "XYZ"])], vec![s(&["q\"r"])]]];
    let p = text(&clauses, Some("(.*/)?[^/]*\\.py"), Some("python"), 3, 7);
    assert_eq!(
        serde_json::to_value(&p).unwrap()["clauses"],
        json!([
            { "alternatives": [{ "groups": ["abc", "b c"] }] },
            { "alternatives": [{ "groups": ["xyz\nXYZ"] }, { "groups": ["q\"r"] }] }
        ])
    );
    assert_eq!((p.limit, p.offset), (3, 7));
    assert_eq!(p.path_regexp, Some("(.*/)?[^/]*\\.py"));
    assert_eq!(p.language, Some("python"));
    let p = text(&[], None, Some(""), 5000, 0);
    assert_eq!((p.clauses.len(), p.language, p.limit), (0, None, TEXT_MAX_SIZE));
    // No path pattern and no language are sent as nulls, as the template tests them.
    let sent = serde_json::to_value(&p).unwrap();
    assert_eq!((&sent["path_regexp"], &sent["language"]), (&json!(null), &json!(null)));
}

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
    assert_eq!((p.latin, p.cyrillic, p.cjk), (true, true, true));
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
    // A short word is sent without a prefix key, a long one with it.
    let sent = serde_json::to_value(documentation("the cat Kirikur", 3, 0)).unwrap();
    assert_eq!(sent["words"], json!([{ "word": "cat" }, { "word": "kirikur", "prefix": "kirik" }]));
}

#[test]
fn everything_queries() {
    assert!(imports("*", 3, 0).all);
    assert!(imports("", 3, 0).all);
    assert!(!code("search_by_code_functions", "add", 3, 0, Pass::Exact).all);
    // Several words are a question (ranked by score alone); a name keeps its path tie-break.
    assert!(code("search_by_code_functions", "where is the delay computed", 3, 0, Pass::Exact).question);
    assert!(!code("search_by_code_functions", " add ", 3, 0, Pass::Exact).question);
    assert!(!code("search_by_code_functions", "a b", 3, 0, Pass::Fuzzy).question);
    assert_eq!(listing("search_by_code_functions", "*"), Listing::Yes);
    assert_eq!(listing("search_by_code_functions", "функции"), Listing::Yes);
    assert_eq!(listing("search_by_code_functions", "function"), Listing::IfNoMatch);
    assert_eq!(listing("search_by_code_functions", "parse"), Listing::No);
    assert_eq!(listing("search_by_code_classes", "структуры"), Listing::Yes);
    assert_eq!(listing("search_by_code_variables", "enums"), Listing::IfNoMatch);
    assert_eq!(listing("search_by_code_imports", "导入"), Listing::Yes);
    assert_eq!(listing("search_by_code_imports", "функции"), Listing::No);
    assert_eq!(code("search_by_code_functions", "add", 99, 0, Pass::Exact).limit, 10);
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
    assert_eq!((p.name, p.lower.as_str(), p.owner.as_deref()), ("run", "run", Some("outer.inner")));
    let unqualified = code("search_by_code_classes", "Writer", 3, 0, Pass::Exact);
    assert_eq!(unqualified.owner, None);
    // An unqualified name still sends `owner`, as null.
    assert_eq!(serde_json::to_value(&unqualified).unwrap()["owner"], json!(null));
}

#[test]
fn a_name_is_also_looked_up_among_other_kinds_and_typos_above_words() {
    let name = code("search_by_code_variables", "x", 3, 0, Pass::Exact);
    assert_eq!((name.other_kinds, name.names_only), (true, true));
    assert!(!code("search_by_code_variables", "x y", 3, 0, Pass::Exact).other_kinds);
    assert!(!code("search_by_code_variables", "x", 3, 0, Pass::Words).other_kinds);
    let typos = code("search_by_code_functions", "parseConfg", 3, 0, Pass::TyposOrWords);
    assert_eq!((typos.typos, typos.fuzzy), (true, false));
    assert!(f64::from(typos.typo_words_boost) >= TYPO_FLOOR);
    let fuzzy = code("search_by_code_functions", "multipy", 3, 0, Pass::Fuzzy);
    assert_eq!((fuzzy.typos, fuzzy.fuzzy), (true, true));
    assert!(f64::from(fuzzy.typo_boost) < 1_000.0);
}

#[test]
fn a_symbol_search_sends_this_json() {
    // The params of a qualified name's exact pass, as the `json!` that built
    // them before they were typed wrote them, but `query`: the template reads
    // the query as `words`.
    let sent = serde_json::to_value(code("search_by_code_functions", "Outer.Inner.run", 3, 7, Pass::Exact)).unwrap();
    let expected = json!({
        "all": false, "fuzzy": false, "inner_limit": 5, "kinds": ["function", "method"], "limit": 3,
        "lower": "run", "name": "run", "names_only": true, "offset": 7, "one_edit_boost": 1,
        "other_kind_weight": 0.025, "other_kinds": true, "owner": "outer.inner", "owner_path_boost": 500.0,
        "file_name_boost": 400.0, "path_stems": [], "path_stem_boost": 7.0,
        "question": false,
        "scores": { "exact": 100000, "lower": 80000, "owner": 120000, "prefix": 40000, "words": 20000 },
        "typo_boost": 10, "typo_words_boost": 5, "typos": false, "words": "Outer.Inner.run"
    });
    assert_eq!(sent, expected);
}

#[test]
fn keys_absent_when_unset_are_not_sent() {
    let sent = serde_json::to_value(file("a/b.rs", false, None)).unwrap();
    assert_eq!(sent, json!({ "path": "a/b.rs", "path_glob": "a/b.rs", "loose": false }));
    let sent = serde_json::to_value(file("a*.rs", true, Some("run"))).unwrap();
    assert_eq!(sent, json!({ "path": "a*.rs", "path_glob": "a\\*.rs", "loose": true, "symbol_name": "run" }));
    assert_eq!(serde_json::to_value(tree(5, Some(""), None, 3)).unwrap(), json!({ "limit": 5, "roots": 3 }));
    let sent = serde_json::to_value(tree(0, Some("a/"), None, 20_000)).unwrap();
    assert_eq!(sent, json!({ "limit": 1, "roots": 10_000, "prefix": "a/" }));
    let sent = serde_json::to_value(callees("A::b()", &[], 3, 0)).unwrap();
    assert_eq!(sent, json!({ "in": "A.b", "kinds": [], "limit": 3, "offset": 0, "inner_limit": 100 }));
}

#[test]
fn wildcard_is_escaped() {
    assert_eq!(wildcard_escape(r"a*b?c\d"), r"a\*b\?c\\d");
}

#[test]
fn a_questions_words_as_path_stems() {
    assert_eq!(path_stems("request logging middleware"), ["request", "logg", "middleware"]);
    assert_eq!(path_stems("how sessions and exceptions are handled"), ["sess", "except"]);
    assert_eq!(path_stems("XHR browser adapter implementation"), ["xhr", "brows", "adapt"]);
    assert_eq!(path_stems("class access"), ["class", "access"], "a double s stays");
    assert!(path_stems("how the 世界 works").is_empty());
}

#[test]
fn path_stems_go_with_questions_about_functions_and_types() {
    let q = "request logging middleware";
    assert_eq!(code("search_by_code_functions", q, 3, 0, Pass::Exact).path_stems.len(), 3);
    assert_eq!(code("search_by_code_classes", q, 3, 0, Pass::Exact).path_stems.len(), 3);
    assert!(
        code("search_by_code_variables", q, 3, 0, Pass::Exact).path_stems.is_empty(),
        "a value is found by its name"
    );
    assert!(code("search_by_code_functions", "RequestLogger", 3, 0, Pass::Exact).path_stems.is_empty(), "a name");
}
