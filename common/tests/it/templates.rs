//! Template installation and the analyzers, against the real OpenSearch.

use serde_json::{json, Value};
use vibe_common::backend::search::Search;
use vibe_common::backend::templates::{self, Action, TEMPLATE_VERSION};
use vibe_common::config::OpenSearchConfig;

fn search(prefix: &str) -> Search {
    let host = std::env::var("VIBE_OPENSEARCH_URL").unwrap_or_else(|_| "http://127.0.0.1:9200".into());
    Search::new(&OpenSearchConfig { hosts: vec![host], index_prefix: prefix.into(), ..Default::default() }).unwrap()
}

async fn clean(s: &Search) {
    let p = &s.names.prefix;
    s.delete(&format!("/{p}_*?expand_wildcards=all")).await.unwrap();
    // Index templates first: a component template in use cannot be deleted.
    for name in ["meta", "files", "files_analysis"] {
        s.delete(&format!("/_index_template/{p}_{name}")).await.unwrap();
    }
    s.delete(&format!("/_component_template/{p}_settings")).await.unwrap();
    for tool in templates::search_template_names() {
        s.delete(&format!("/_scripts/{}", templates::search_template_id(&s.names, &tool))).await.unwrap();
    }
}

fn action_of<'a>(report: &'a [templates::InstallAction], name: &str) -> &'a Action {
    &report.iter().find(|a| a.name == name).unwrap_or_else(|| panic!("{name} not in {report:?}")).action
}

#[tokio::test]
async fn install_upgrades_older_and_keeps_newer_templates() {
    let s = search("ttpl");
    clean(&s).await;
    let first = templates::install(&s).await.unwrap();
    assert!(first.iter().all(|a| a.action == Action::Installed), "{first:?}");
    assert!(first.iter().any(|a| a.kind == "search template"), "search templates use the same installer");

    let second = templates::install(&s).await.unwrap();
    assert!(second.iter().all(|a| a.action == Action::UpToDate), "{second:?}");

    // An older installed template is upgraded.
    let mut old = s.get("/_index_template/ttpl_meta").await.unwrap()["index_templates"][0]["index_template"].clone();
    old["version"] = json!(0);
    s.put("/_index_template/ttpl_meta", &old).await.unwrap();
    // A newer one is left alone.
    let mut newer = s.get("/_index_template/ttpl_files").await.unwrap()["index_templates"][0]["index_template"].clone();
    newer["version"] = json!(TEMPLATE_VERSION + 100);
    s.put("/_index_template/ttpl_files", &newer).await.unwrap();

    let third = templates::install(&s).await.unwrap();
    assert_eq!(action_of(&third, "ttpl_meta"), &Action::Upgraded { from: 0 });
    assert_eq!(action_of(&third, "ttpl_files"), &Action::KeptNewer { installed: TEMPLATE_VERSION + 100 });
    let kept = s.get("/_index_template/ttpl_files").await.unwrap();
    assert_eq!(kept["index_templates"][0]["index_template"]["version"], json!(TEMPLATE_VERSION + 100));
    let upgraded = s.get("/_index_template/ttpl_meta").await.unwrap();
    assert_eq!(upgraded["index_templates"][0]["index_template"]["version"], json!(TEMPLATE_VERSION));
    assert_eq!(upgraded["index_templates"][0]["index_template"]["_meta"]["vibe_version"], json!(TEMPLATE_VERSION));
    assert_eq!(upgraded["index_templates"][0]["index_template"]["index_patterns"], json!(["ttpl_meta*"]));
    assert!(third.iter().map(ToString::to_string).any(|l| l.contains("kept installed")));

    // A stored search template whose text differs from this build's is replaced.
    let id = templates::search_template_id(&s.names, "show_projects");
    s.put(
        &format!("/_scripts/{id}"),
        &json!({ "script": { "lang": "mustache", "source": "{\"query\":{\"match_all\":{}}}" } }),
    )
    .await
    .unwrap();
    let fourth = templates::install(&s).await.unwrap();
    assert_eq!(action_of(&fourth, &id), &Action::Upgraded { from: TEMPLATE_VERSION });
    let stored = s.get(&format!("/_scripts/{id}")).await.unwrap();
    assert_eq!(stored["script"]["source"].as_str(), templates::search_template_source("show_projects").as_deref());
}

async fn tokens(s: &Search, index: &str, analyzer: &str, text: &str) -> Vec<String> {
    analyzed(s, index, json!({ "analyzer": analyzer, "text": text })).await
}

/// The tokens of an `_analyze` request on `index`.
async fn analyzed(s: &Search, index: &str, request: Value) -> Vec<String> {
    let r: Value = s.post(&format!("/{index}/_analyze"), &request).await.unwrap();
    r["tokens"].as_array().unwrap().iter().map(|t| t["token"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn analyzers_stem_russian_and_english_and_split_cjk() {
    let s = search("tanalyze");
    s.delete("/tanalyze_*?expand_wildcards=all").await.unwrap();
    templates::install(&s).await.unwrap();
    // The analysis template applies to this name, with its analyzers.
    let index = s.names.ast_index("abc", "g1");
    s.put(&format!("/{index}"), &json!({})).await.unwrap();

    let ru = tokens(&s, &index, "vibe_russian", "функции функция").await;
    assert_eq!(ru.len(), 2);
    assert_eq!(ru[0], ru[1], "russian stems both forms to one token: {ru:?}");
    assert_eq!(tokens(&s, &index, "vibe_english", "functions").await, ["function"]);
    assert_eq!(tokens(&s, &index, "vibe_chinese", "代码搜索").await, ["代码", "码搜", "搜索"]);
    let code = tokens(&s, &index, "vibe_code", "fetchUserData MAX_SIZE").await;
    for t in ["fetchuserdata", "fetch", "user", "data", "max", "size"] {
        assert!(code.iter().any(|c| c == t), "{t} missing in {code:?}");
    }
    // The plain russian/english/cjk analyzers of the node behave the same.
    let plain = tokens(&s, &index, "russian", "функции функция").await;
    assert_eq!(plain[0], plain[1]);
}

/// The word fields are indexed as `spaced_words` sends them, by `vibe_about`
/// without char filters; questions are analyzed by `vibe_about_search`,
/// whose char filters split the same boundaries. Both must give the same
/// words, checked here on real source text (this crate's own files and
/// identifiers with acronyms, digits and Cyrillic).
#[tokio::test]
async fn spaced_words_index_as_the_search_analyzer_splits() {
    let s = search("tspaced");
    s.delete("/tspaced_*?expand_wildcards=all").await.unwrap();
    templates::install(&s).await.unwrap();
    let index = s.names.ast_index("abc", "g1");
    s.put(&format!("/{index}"), &json!({})).await.unwrap();
    // `vibe_about` with the char filters of `vibe_about_search`, as installed.
    let settings = s.get(&format!("/{index}/_settings")).await.unwrap();
    let analyzers = &settings[&index]["settings"]["index"]["analysis"]["analyzer"];
    let char_filtered = |text: &str| {
        let about = &analyzers["vibe_about"];
        json!({ "char_filter": analyzers["vibe_about_search"]["char_filter"], "tokenizer": about["tokenizer"],
                "filter": about["filter"], "text": text })
    };
    let mut texts: Vec<String> =
        ["src/backend/templates.rs", "src/text/identifier.rs", "src/backend/search.rs", "src/document/word_bag.rs"]
            .iter()
            .map(|f| std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(f)).unwrap())
            .collect();
    texts.push("getHTTPServer2 XMLHttpRequest base64Encode v2beta 0x1F ключЗначение ABCDef aB1c IOError".into());
    for text in &texts {
        let spaced = vibe_common::text::identifier::spaced_words(text);
        let indexed = tokens(&s, &index, "vibe_about", &spaced).await;
        let searched = analyzed(&s, &index, char_filtered(text)).await;
        assert!(!analyzers["vibe_about_search"]["char_filter"].is_null(), "{analyzers}");
        assert!(indexed.len() > 5 && indexed == searched, "{indexed:?}\n!=\n{searched:?}");
    }
    s.delete("/tspaced_*?expand_wildcards=all").await.unwrap();
}
