//! `search_code_text` against a real OpenSearch: the fixture documents
//! (tests/fixtures/samples and tests/fixtures/knowledge, as indexed) under
//! their own index prefix, every answer compared with a line-by-line scan of
//! the same stored contents (the grep oracle): literal, case-insensitive,
//! regex, path glob, language, paging with offset, errors. Every file the
//! oracle finds is found (no false negatives), every returned line matches
//! (no false positives), and `total` is the oracle's count when the search
//! is exact.

use std::collections::BTreeMap;

use crate::common::{load_fixture, repo_root};
use regex::RegexBuilder;
use serde::Deserialize;
use serde_json::{json, Value};
use vibe_gateway::normalize::{Args, RawArgs};
use vibe_gateway::tools::text;
use vibe_gateway::tools::ToolError;
use vibe_gateway::{Gateway, SyncRunner};

/// (project root, path) -> (language, content), as stored.
type Corpus = BTreeMap<(String, String), (Value, String)>;

fn corpus() -> Corpus {
    let snapshot: Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("gateway/tests/fixtures/indexed.json")).unwrap(),
    )
    .unwrap();
    let mut out = Corpus::new();
    for p in snapshot["projects"].as_array().unwrap() {
        let root = p["meta"]["root"].as_str().unwrap().to_string();
        for f in p["files"].as_array().unwrap() {
            if let Some(content) = f["content"].as_str() {
                out.insert(
                    (root.clone(), f["path"].as_str().unwrap().to_string()),
                    (f["language"].clone(), content.to_string()),
                );
            }
        }
    }
    out
}

/// The oracle: per file (in the answer's order: root, then path), the
/// matching line numbers.
fn grep(
    corpus: &Corpus,
    pattern: &str,
    regex: bool,
    ci: bool,
    keep: impl Fn(&str, &str, &Value) -> bool,
) -> Vec<((String, String), Vec<usize>)> {
    let source = if regex { pattern.to_string() } else { regex::escape(pattern) };
    let re = RegexBuilder::new(&source).case_insensitive(ci).build().unwrap();
    corpus
        .iter()
        .filter(|((root, path), (lang, _))| keep(root, path, lang))
        .filter_map(|(key, (_, content))| {
            let lines: Vec<usize> =
                text::lines(content).enumerate().filter(|(_, l)| re.is_match(l)).map(|(i, _)| i + 1).collect();
            (!lines.is_empty()).then(|| (key.clone(), lines))
        })
        .collect()
}

/// `total` is the oracle's count, or the cap with `total_exact: false` beyond it.
fn exact_total(what: &str, answer: &Value, files: usize) {
    let cap = text::TOTAL_CAP as usize;
    if files <= cap {
        assert_eq!(answer["total"], json!(files), "{what}: total is exact: {answer}");
    } else {
        assert_eq!(answer["total"], json!(cap), "{what}: total stops at the cap: {answer}");
        assert_eq!(answer["total_exact"], json!(false), "{what}: {answer}");
        assert!(answer["note"].as_str().unwrap().contains("at least"), "{what}: {answer}");
    }
}

fn all(_: &str, _: &str, _: &Value) -> bool {
    true
}

async fn search(gw: &Gateway, args: Value) -> Result<Value, ToolError> {
    let sent = RawArgs::deserialize(&args).ok();
    text::search(gw, &Args::from_json(sent.as_ref())).await.map(|a| serde_json::to_value(a).unwrap())
}

/// Every page, following `next_offset`; checks the paging fields on the way.
async fn every_page(gw: &Gateway, args: Value) -> (Vec<Value>, Vec<Value>) {
    let mut results = Vec::new();
    let mut answers = Vec::new();
    let mut offset = 0u64;
    loop {
        let mut a = args.clone();
        a["offset"] = json!(offset);
        let answer = search(gw, a.clone()).await.unwrap_or_else(|e| panic!("{a}: {e}"));
        let page = answer["results"].as_array().unwrap().clone();
        assert!(page.len() as u64 <= args["limit"].as_u64().unwrap_or(3), "{answer}");
        results.extend(page);
        answers.push(answer.clone());
        match answer["next_offset"].as_u64() {
            Some(next) => {
                assert_eq!(answer["truncated"], json!(true), "{answer}");
                assert!(next > offset, "{answer}");
                offset = next;
            }
            None => {
                assert_eq!(answer["truncated"], json!(false), "{answer}");
                break;
            }
        }
    }
    (results, answers)
}

/// The answer's files and lines equal the oracle's; every reported line's
/// text is the stored line (or a cut of it around the match); at most 5
/// lines per file (lines of code before comments), the rest counted in
/// `more_matches`.
fn same_as_oracle(
    what: &str,
    corpus: &Corpus,
    results: &[Value],
    expected: &[((String, String), Vec<usize>)],
    literal: Option<(&str, bool)>,
) {
    let got: Vec<(String, String)> = results
        .iter()
        .map(|r| (r["project"].as_str().unwrap().to_string(), r["path"].as_str().unwrap().to_string()))
        .collect();
    let want: Vec<(String, String)> = expected.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(got, want, "{what}: files (in order)");
    for (r, (key, lines)) in results.iter().zip(expected) {
        let content = &corpus[key].1;
        let stored: Vec<&str> = text::lines(content).collect();
        let matches = r["matches"].as_array().unwrap();
        let reported: Vec<usize> = matches.iter().map(|m| m["line"].as_u64().unwrap() as usize).collect();
        // Of more lines than it shows, a parsed file keeps those of code first.
        let parsed = corpus[key].0.as_str().is_some_and(|l| l != "markdown" && l != "text");
        let comment = |n: usize| parsed && vibe_gateway::render::is_comment(stored[n - 1]);
        let mut kept = lines.clone();
        if kept.len() > text::MATCHING_LINES_PER_FILE {
            kept.sort_by_key(|&n| (comment(n), n));
            kept.truncate(text::MATCHING_LINES_PER_FILE);
            kept.sort();
        }
        assert_eq!(reported, kept, "{what}: lines of {key:?}");
        let more = r["more_matches"].as_u64().unwrap_or(0) as usize;
        assert_eq!(more, lines.len().saturating_sub(text::MATCHING_LINES_PER_FILE), "{what}: more_matches of {key:?}");
        for m in matches {
            let line = stored[m["line"].as_u64().unwrap() as usize - 1].trim_end_matches('\r');
            let shown = m["text"].as_str().unwrap();
            assert!(line.contains(shown.trim_matches('…')), "{what}: {shown:?} is not from line {line:?}");
            if let Some((needle, ci)) = literal {
                let (s, n) = if ci {
                    (shown.to_lowercase(), needle.to_lowercase())
                } else {
                    (shown.to_string(), needle.to_string())
                };
                assert!(s.contains(&n), "{what}: {shown:?} does not contain {needle:?}");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_search_matches_a_line_scan() -> anyhow::Result<()> {
    let config = load_fixture("gwt_text").await?;
    let gw = Gateway::new(&config, SyncRunner::new(vec![], None))?;
    let corpus = corpus();

    // Literals, case-sensitive and not, over every project, page by page.
    for (q, ci) in [
        ("calculate", false),
        ("Calculator", false),
        ("CALCULATOR", true),
        ("return a + b", false),
        ("a * b", false),
        ("(a, b)", false),
        ("\"\"\"", false),
        ("#", false),
        ("Бакобур", false),
        ("БАКОБУР", true),
        ("基里库尔", false),
        ("no such text anywhere", false),
    ] {
        let expected = grep(&corpus, q, false, ci, all);
        let (results, answers) = every_page(&gw, json!({ "query": q, "case_sensitive": !ci, "limit": 4 })).await;
        same_as_oracle(&format!("literal {q:?} ci={ci}"), &corpus, &results, &expected, Some((q, ci)));
        exact_total(&format!("literal {q:?}"), &answers[0], expected.len());
        if expected.len() <= text::TOTAL_CAP as usize {
            assert!(answers[0].get("note").is_none(), "literal {q:?}: {}", answers[0]);
        }
    }
    let a = search(&gw, json!({ "query": "no such text anywhere" })).await?;
    assert_eq!((a["total"].clone(), a["truncated"].clone(), a["results"].clone()), (json!(0), json!(false), json!([])));

    // Regexes: runs of literal text narrow, classes and alternations are
    // spelled out, the rest (\w, \b, anchors, optional parts) narrows
    // nothing; every candidate's lines are checked, so totals are exact.
    for (re, ci) in [
        (r"def \w+\(", false),
        (r"fn\s+[a-z_]+\(", false),
        (r"^\s*return\b", false),
        (r"^}$", false),
        (r"\)$", false),
        (r"^#+\s", false),
        (r"[0-9]+\.[0-9]+", false),
        (r"\d{2,}", false),
        (r"[0-9]{2,}", false),
        (r"(add|multiply)\(", false),
        (r"MULTIPLY|divide", true),
        (r"\badd\b", false),
        (r"б[а-я]+р", true),
        (r"(a|b)*a(a|b){12}x", false),
        (r"colou?r|Calc(ulator)?", true),
    ] {
        let expected = grep(&corpus, re, true, ci, all);
        let (results, answers) =
            every_page(&gw, json!({ "query": re, "regex": true, "case_sensitive": !ci, "limit": 5 })).await;
        same_as_oracle(&format!("regex {re:?} ci={ci}"), &corpus, &results, &expected, None);
        exact_total(&format!("regex {re:?}"), &answers[0], expected.len());
        if expected.len() <= text::TOTAL_CAP as usize {
            assert!(answers[0].get("note").is_none(), "regex {re:?}: {}", answers[0]);
        }
    }

    // A large alternation (hundreds of grams in one query; queries stop at
    // 500 characters) still finds exactly the files.
    let mut branches: Vec<String> = (0..14).map(|i| format!("no_such_identifier_number_{i}_here")).collect();
    branches.push("calculate".into());
    let re = format!("({})\\(", branches.join("|"));
    let expected = grep(&corpus, &re, true, false, all);
    assert!(!expected.is_empty());
    let (results, answers) = every_page(&gw, json!({ "query": re, "regex": true, "limit": 5 })).await;
    same_as_oracle("large alternation", &corpus, &results, &expected, None);
    exact_total("large alternation", &answers[0], expected.len());

    // Path globs and languages.
    let ext = |e: &'static str| move |_: &str, p: &str, _: &Value| p.ends_with(e);
    let expected = grep(&corpus, "add", false, false, ext(".py"));
    let (results, _) = every_page(&gw, json!({ "query": "add", "path": "*.py", "limit": 10 })).await;
    same_as_oracle("glob *.py", &corpus, &results, &expected, Some(("add", false)));
    assert_eq!(results.len(), 1);
    let expected = grep(&corpus, "add", false, false, |_, p, _| p.ends_with(".rs") || p.ends_with(".go"));
    let (results, _) = every_page(&gw, json!({ "query": "add", "path": "**/*.{rs,go}", "limit": 10 })).await;
    same_as_oracle("glob **/*.{rs,go}", &corpus, &results, &expected, Some(("add", false)));
    assert_eq!(results.len(), 2);
    let expected = grep(&corpus, "the", false, true, |_, p, _| p.starts_with("legends/"));
    let (results, _) =
        every_page(&gw, json!({ "query": "the", "case_sensitive": false, "path": "legends/", "limit": 10 })).await;
    same_as_oracle("glob legends/", &corpus, &results, &expected, Some(("the", true)));
    assert!(!results.is_empty());
    let expected = grep(&corpus, "a", false, false, |_, p, _| p.starts_with("guidelines/") && p.ends_with(".md"));
    let (results, _) = every_page(&gw, json!({ "query": "a", "path": "guidelines/*.md", "limit": 10 })).await;
    same_as_oracle("glob guidelines/*.md", &corpus, &results, &expected, Some(("a", false)));
    let a = search(&gw, json!({ "query": "add", "path": "*.nothing" })).await?;
    assert_eq!(a["total"], json!(0));
    let (results, _) = every_page(&gw, json!({ "query": "add", "path": "/fixtures/samples/*.py" })).await;
    assert_eq!(results.len(), 1, "an absolute glob under a project root");
    for lang in ["python", "Python", "py"] {
        let expected = grep(&corpus, "a", false, false, |_, _, l| l == "Python");
        let (results, _) = every_page(&gw, json!({ "query": "a", "language": lang, "limit": 10 })).await;
        same_as_oracle(&format!("language {lang}"), &corpus, &results, &expected, Some(("a", false)));
        assert_eq!(results.len(), 1);
    }
    let expected = grep(&corpus, "return", false, false, |_, p, l| l == "Markdown" || p.ends_with(".md"));
    let (results, _) =
        every_page(&gw, json!({ "query": "return", "language": "markdown", "path": "*.md", "limit": 10 })).await;
    same_as_oracle("language + glob", &corpus, &results, &expected, Some(("return", false)));

    // A target: one project only.
    let expected = grep(&corpus, "a", false, false, |root, _, _| root == "/fixtures/knowledge");
    let (results, answers) = every_page(&gw, json!({ "query": "a", "target": "knowledge", "limit": 3 })).await;
    same_as_oracle("target knowledge", &corpus, &results, &expected, Some(("a", false)));
    assert!(answers.len() >= 3, "paged in threes");

    // Offset paging: pages are disjoint, in order, and cover every file.
    let expected = grep(&corpus, "e", false, false, all);
    assert!(expected.len() > 20);
    let (results, answers) = every_page(&gw, json!({ "query": "e", "limit": 7 })).await;
    same_as_oracle("paging", &corpus, &results, &expected, Some(("e", false)));
    exact_total("paging", &answers[0], expected.len());
    assert_eq!(answers[0]["next_offset"], json!(7));
    for (i, a) in answers.iter().enumerate() {
        // The count keeps ahead of the page: a next page is always announced.
        assert!(a["total"].as_u64().unwrap() >= (7 * i + a["results"].as_array().unwrap().len()) as u64, "{a}");
    }
    let a = search(&gw, json!({ "query": "e", "limit": 7, "offset": 14 })).await?;
    assert_eq!(a["results"][0]["path"], results[14]["path"]);

    // At most 5 lines per file; the rest are counted.
    let a = search(&gw, json!({ "query": "e", "path": "calculator.py" })).await?;
    let r = &a["results"][0];
    assert_eq!(r["matches"].as_array().unwrap().len(), 5);
    assert!(r["more_matches"].as_u64().unwrap() > 0, "{a}");

    // Errors: an invalid regex, a line break, an empty query, a bad glob.
    for (args, needle) in [
        (json!({ "query": "fn (", "regex": true }), "invalid regular expression"),
        (json!({ "query": "(?<=a)b", "regex": true }), "invalid regular expression"),
        (json!({ "query": r"a\nb", "regex": true }), "line by line"),
        (json!({ "query": "" }), "`query` is required"),
        (json!({ "query": "add", "path": "src/[abc" }), "invalid path glob"),
    ] {
        match search(&gw, args.clone()).await {
            Err(ToolError::Invalid(m)) => assert!(m.contains(needle), "{args}: {m}"),
            other => panic!("{args}: {other:?}"),
        }
    }

    // Hostile text is only ever a value: quotes, braces and mustache tags.
    for q in [r#"" } }, { "match_all": {} } ] } }"#, "{{#toJson}}query{{/toJson}}", "}}", r"\", r"*?\*"] {
        let expected = grep(&corpus, q, false, false, all);
        let (results, _) = every_page(&gw, json!({ "query": q, "limit": 10 })).await;
        same_as_oracle(&format!("hostile {q:?}"), &corpus, &results, &expected, Some((q, false)));
        for key in ["path", "language"] {
            if q.contains('\\') {
                continue; // paths are normalized: a backslash is a `/`
            }
            match search(&gw, json!({ "query": "add", key: q })).await {
                Ok(a) => assert_eq!(a["total"], json!(0), "{key} {q:?}: {a}"),
                Err(ToolError::Invalid(m)) => assert!(m.contains("glob"), "{key} {q:?}: {m}"),
                Err(e) => panic!("{key} {q:?}: {e}"),
            }
        }
    }

    crate::common::cleanup(&config).await;
    Ok(())
}
