//! The renderer's tests: answers written as their JSON in, the text a
//! model reads out.

use super::entries::{at_most_words, DOC_CHARS};
use super::*;
use crate::answers::{
    LanguageSize, ProjectShown, ProjectsAnswer, ReferencesAnswer, RunState, Sizes, StatsAnswer, SymbolsAnswer,
    SyncState, TextAnswer, TotalSize,
};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::json;

/// The typed answer of this JSON, with the page fields a test leaves out.
fn typed<T: DeserializeOwned>(answer: &impl Serialize) -> T {
    let mut v = serde_json::to_value(answer).unwrap();
    if v.get("results").is_some() {
        for (key, default) in [("query", json!("")), ("truncated", json!(false))] {
            v.as_object_mut().unwrap().entry(key).or_insert(default);
        }
    }
    serde_json::from_value(v).expect("the answer's JSON")
}

fn symbols(v: &impl Serialize) -> Answer {
    Answer::Symbols(typed::<SymbolsAnswer>(v))
}

fn lines(v: &impl Serialize) -> Answer {
    Answer::Text(typed::<TextAnswer>(v))
}

fn uses(v: &impl Serialize) -> Answer {
    Answer::References(typed::<ReferencesAnswer>(v))
}

fn file(v: &impl Serialize) -> Answer {
    match serde_json::to_value(v).unwrap().get("content") {
        Some(_) => Answer::Content(typed(v)),
        None => Answer::Outline(typed(v)),
    }
}

#[test]
fn a_symbol_page_names_the_project_once_and_shows_code_as_numbered_lines() {
    let answer = json!({
        "query": "scan_once", "total": 2, "truncated": false,
        "results": [
            { "project": "/src/py", "path": "json/scanner.py", "language": "python", "hash": "0123456789ab",
              "indexed_at": "2026-12-01T00:00:00Z",
              "matches": [{ "name": "scan_once", "kind": "function", "lines": "65-80", "signature": "def scan_once(string, idx)",
                            "doc": "Scan one value.", "code": "def scan_once(string, idx):\n    try:\n        return x" }] },
            { "project": "/src/py", "path": "json/decoder.py", "language": "python", "stale": true,
              "matches": [{ "name": "scan_once", "kind": "variable", "owner": "JSONDecoder", "lines": "12", "signature": "" }],
              "more_matches": 2 }
        ]
    });
    let text = plain(&symbols(&answer), false);
    assert_eq!(
        text,
        "project: /src/py\n\njson/scanner.py:65-80 scan_once\n  Scan one value.\n\
         65\tdef scan_once(string, idx):\n66\t    try:\n67\t        return x\n…\n\n\
         json/decoder.py [changed on disk since indexed]\n  L12 variable JSONDecoder.scan_once\n  more_matches: 2"
    );
    assert!(!text.contains("0123456789ab") && !text.contains("2026-12-01"), "{text}");
    let typed = symbols(&answer);
    assert_eq!(super::text(&typed, AnswerFormat::Json, false), serde_json::to_string(&typed).unwrap());
}

#[test]
fn a_call_that_named_its_project_is_not_told_it_again() {
    let page = json!({ "total": 1, "results": [{ "project": "/src/py", "path": "a.py",
        "matches": [{ "line": 3, "text": "x = 1" }] }] });
    assert_eq!(plain(&lines(&page), true), "a.py\n  3: x = 1");
    assert!(plain(&lines(&page), false).contains("project: /src/py"));
    let one = json!({ "root": "/p", "path": "a.py", "content": "x\n", "start_line": 1 });
    assert_eq!(plain(&file(&one), true), "a.py\n1\tx");
}

#[test]
fn code_in_spans_is_numbered_with_its_gaps_and_indentation_taken_off() {
    let page = json!({ "total": 1, "results": [{ "project": "/p", "path": "f.py", "matches": [{
        "name": "f", "kind": "method", "lines": "10-40", "signature": "def f(self, maxsize=128)",
        "code": "    def f(self, maxsize=128):\n        if maxsize < 0:\n            maxsize = 0\n        return g(maxsize)",
        "code_lines": "10,21-22,30" }] }] });
    assert!(
        plain(&symbols(&page), true).ends_with(
            "f.py:10-40 f\n10\tdef f(self, maxsize=128):\n…\n21\t    if maxsize < 0:\n\
             22\t        maxsize = 0\n…\n30\t    return g(maxsize)\n…"
        ),
        "{}",
        plain(&symbols(&page), true)
    );
    assert_eq!(spans("10,21-22,30"), vec![(10, 10), (21, 22), (30, 30)]);
    assert_eq!(spans_text(&[(10, 10), (21, 22), (30, 30)], 2), "10,21");
    assert_eq!(spans_text(&[(10, 10), (21, 22), (30, 30)], 4), "10,21-22,30");
}

#[test]
fn a_run_of_comment_lines_in_code_is_one_line() {
    let code = "int f(int n) {\n  // one\n  // two\n  // three\n  // four\n  return n;\n  // short\n}";
    let page = json!({ "total": 1, "results": [{ "project": "/p", "path": "F.java", "matches": [{
        "name": "f", "kind": "method", "lines": "10-17", "signature": "int f(int n)", "code": code }] }] });
    assert!(
        plain(&symbols(&page), true)
            .ends_with("10\tint f(int n) {\n11-14\t(comment)\n15\t  return n;\n16\t  // short\n17\t}"),
        "{}",
        plain(&symbols(&page), true)
    );
    assert!(
        is_comment("  # note") && is_comment("/* x") && !is_comment("#[derive(Debug)]") && !is_comment("#include <x>")
    );
}

#[test]
fn a_signature_after_an_annotation_is_not_said_twice() {
    let code = "@VisibleForTesting\nstatic long bits(long n, double p) {\n  return n;\n}";
    let page = json!({ "total": 1, "results": [{ "project": "/p", "path": "B.java", "matches": [{
        "name": "bits", "kind": "method", "lines": "531-534", "signature": "static long bits(long n, double p)",
        "code": code }] }] });
    let text = plain(&symbols(&page), true);
    assert_eq!(text.matches("static long bits").count(), 1, "{text}");
    assert!(text.starts_with("B.java:531-534 bits\n531\t@VisibleForTesting"), "{text}");
}

#[test]
fn text_over_the_budget_is_cut_at_a_line() {
    let text: String = (1..=100).map(|n| format!("{n}: line\n")).collect();
    let cut = fit(text.clone(), 200);
    assert!(cut.len() <= 200 && cut.ends_with("narrow the call for the rest)"), "{cut}");
    assert!(cut.starts_with("1: line\n2: line"));
    assert_eq!(fit(text.clone(), 10_000), text);
}

#[test]
fn a_doc_block_left_out_of_the_code_is_one_line() {
    let page = json!({ "total": 1, "results": [{ "project": "/p", "path": "f.py", "matches": [{
        "name": "f", "kind": "function", "lines": "1-7", "signature": "def f(x)", "doc": "Doc.",
        "code": "def f(x):\n    y = x + 1\n    return y", "code_skip": "2-5" }] }] });
    assert!(
        plain(&symbols(&page), false).ends_with("1\tdef f(x):\n2-5\t(doc comment)\n6\t    y = x + 1\n7\t    return y"),
        "{}",
        plain(&symbols(&page), false)
    );
    let one = json!({ "total": 1, "results": [{ "project": "/p", "path": "f.py", "matches": [{
        "name": "f", "kind": "function", "lines": "1-3", "signature": "def f()",
        "code": "def f():\n    return 1", "code_skip": "2-2" }] }] });
    let text = plain(&symbols(&one), false);
    assert!(text.ends_with("1\tdef f():\n2\t(doc comment)\n3\t    return 1"), "{text}");
}

#[test]
fn pages_say_what_is_shown_and_how_to_go_on() {
    let r = json!({ "project": "/a", "path": "x.go", "matches": [{ "line": 3, "text": "foo()" }] });
    let page = json!({ "total": 9, "next_offset": 4, "results": [r.clone(), r.clone()], "note": "cut" });
    assert!(plain(&lines(&page), false)
        .starts_with("3-4 of 9 shown; offset=4 for more\nnote: cut\nproject: /a\n\nx.go\n  3: foo()"));
    let first = json!({ "total": 9, "next_offset": 2, "results": [r.clone(), r.clone()] });
    assert!(
        plain(&lines(&first), true).starts_with("7 more results: offset=2\n\nx.go\n  3: foo()"),
        "{}",
        plain(&lines(&first), true)
    );
    let mixed = json!({ "total": 2, "results": [r, { "project": "/b", "path": "y.go", "matches": [] }] });
    assert!(
        plain(&lines(&mixed), false).contains("x.go (project /a)\n  3: foo()\n\ny.go (project /b)"),
        "{}",
        plain(&lines(&mixed), false)
    );
    assert_eq!(
        plain(&lines(&json!({ "total": 0, "results": [], "note": "no definition matches" })), false),
        "no results\nnote: no definition matches"
    );
}

#[test]
fn text_hits_show_context_and_their_definition_once() {
    let page = json!({ "total": 1, "results": [{ "project": "/a", "path": "x.py", "matches": [
        { "line": 2, "text": "def f():", "context": true },
        { "line": 3, "text": "    raise E('boom')", "in": "f" },
        { "line": 4, "text": "    raise E('boom2')", "in": "f" }] }] });
    assert!(
        plain(&lines(&page), false)
            .ends_with("x.py\n  2- def f():\n  in f:\n    3:     raise E('boom')\n    4:     raise E('boom2')"),
        "{}",
        plain(&lines(&page), false)
    );
}

#[test]
fn uses_are_grouped_by_caller_and_say_their_kind_unless_a_call() {
    let page = json!({ "total": 1, "results": [{ "project": "/a", "path": "s.py", "references": [
        { "line": 5, "kind": "call", "in": "P.run", "text": "x = f(a)" },
        { "line": 9, "kind": "call", "in": "P.run", "text": "y = f(b)" },
        { "line": 20, "kind": "type", "in": "g", "text": "z: F" }] }] });
    assert_eq!(
        plain(&uses(&page), true),
        "s.py\n  in P.run:\n    5: x = f(a)\n    9: y = f(b)\n  in g:\n    20 type: z: F"
    );
}

#[test]
fn a_use_without_its_text_names_its_caller_and_a_hit_in_no_definition_ends_the_run() {
    let page = json!({ "total": 1, "results": [{ "project": "/a", "path": "big.js", "references": [
        { "line": 5, "kind": "call", "in": "f", "text": "g()" },
        { "line": 9, "kind": "call", "text": "g()" },
        { "line": 20, "kind": "call", "in": "h" }] }] });
    assert_eq!(plain(&uses(&page), true), "big.js\n  in f:\n    5: g()\n  9: g()\n  20 in h");
}

#[test]
fn a_file_answer_keeps_the_whole_doc() {
    let doc = "word ".repeat(40);
    let outline = json!({ "root": "/p", "path": "a.py", "symbol": "f",
        "elements": [{ "name": "f", "kind": "function", "lines": "1-3", "signature": "def f()", "doc": doc }] });
    assert!(plain(&file(&outline), true).contains(doc.trim()), "{}", plain(&file(&outline), true));
}

#[test]
fn an_overload_does_not_repeat_the_doc_and_blank_lines_are_left_out() {
    let m = |lines: &str, code: &str| {
        json!({ "name": "h", "kind": "method", "owner": "H", "lines": lines,
        "signature": code.lines().next().unwrap().trim_end_matches(" {"), "doc": "Hashes x.", "code": code })
    };
    let page = json!({ "total": 1, "results": [{ "project": "/a", "path": "H.java", "matches": [
        m("1-2", "int h(int x) {\n}"), m("4-7", "int h(long x) {\n  int y = 1;\n\n}")] }] });
    let text = plain(&symbols(&page), true);
    assert_eq!(text.matches("Hashes x.").count(), 1, "{text}");
    assert!(text.ends_with("  L4-7 H.h\n4\tint h(long x) {\n5\t  int y = 1;\n7\t}"), "{text}");
}

#[test]
fn a_long_doc_is_cut_after_a_word() {
    let doc = "Assigns to input a bucket in the range [0, buckets), in a uniform manner that minimizes the need for remapping.";
    assert_eq!(
        at_most_words(doc, DOC_CHARS),
        "Assigns to input a bucket in the range [0, buckets), in a uniform manner that minimizes the need for…"
    );
    assert_eq!(at_most_words("Short.", DOC_CHARS), "Short.");
    assert_eq!(at_most_words(&"x".repeat(120), DOC_CHARS), format!("{}…", "x".repeat(DOC_CHARS)));
}

#[test]
fn a_file_is_numbered_lines_under_its_path() {
    let answer = json!({ "root": "/p", "path": "a.py", "language": "python", "content": "x = 1\ny = 2\n",
                         "total_lines": 40, "start_line": 10, "end_line": 11, "truncated": true, "next_start_line": 12, "stale": false });
    assert_eq!(
        plain(&file(&answer), false),
        "a.py (project /p)\nlines 10-11 of 40\nnext_start_line: 12\n10\tx = 1\n11\ty = 2"
    );
}

#[test]
fn answers_about_the_index_are_their_fields_as_key_value_lines() {
    let sizes = Sizes { files: 3, lines: 40, ast_objects: 7, size_human: "1.2 KB".into() };
    let stats = StatsAnswer {
        target: None,
        languages: vec![LanguageSize { language: "go".into(), sizes: sizes.clone() }],
        total: TotalSize { sizes, projects: Some(1) },
        note: None,
        more_languages: None,
        truncated: Some(false),
    };
    assert_eq!(
        plain(&Answer::Stats(stats), false),
        "languages:\n- language: go, files: 3, lines: 40, ast_objects: 7, size_human: 1.2 KB\n\
         total:\n  files: 3\n  lines: 40\n  ast_objects: 7\n  size_human: 1.2 KB\n  projects: 1"
    );
    let running = SyncState {
        state: RunState::Running,
        running_secs: Some(4),
        progress: None,
        outcome: Some(None),
        finished_at: None,
    };
    let shown = ProjectShown {
        path: "/src/py".into(),
        name: "py".into(),
        summary: Some("Python's library.\nWith tests.".into()),
        owners: vec!["a".into(), "b".into()],
        ..ProjectShown::default()
    };
    let projects = |list: Vec<ProjectShown>| ProjectsAnswer {
        total: list.len() as u64,
        projects: list,
        truncated: false,
        sync: Some(running.clone()),
        next_offset: None,
        note: Some("One run is going on.".into()),
    };
    assert_eq!(
        plain(&Answer::Projects(projects(vec![shown])), false),
        "projects:\n- path: /src/py, name: py, summary: Python's library.\nWith tests., owners: a, b\n\
         total: 1\nsync:\n  state: running\n  running_secs: 4\nnote: One run is going on."
    );
    assert!(plain(&Answer::Projects(projects(vec![])), false).starts_with("projects: \ntotal: 0\n"));
}

#[test]
fn a_doc_the_shown_lines_hold_is_not_said_again() {
    let code = "def h(self, request):\n    \"\"\"\n    Return the headers for the redirect request.\n    \"\"\"\n    return request.headers";
    let page = json!({ "total": 1, "results": [{ "project": "/p", "path": "c.py", "matches": [{
        "name": "h", "kind": "method", "lines": "518-522", "signature": "def h(self, request)",
        "doc": "Return the headers for the redirect request.", "code": code, "code_lines": "518-522" }] }] });
    let text = plain(&symbols(&page), true);
    assert_eq!(text.matches("Return the headers").count(), 1, "{text}");
    // A doc block left out of the code keeps its summary.
    let folded = json!({ "total": 1, "results": [{ "project": "/p", "path": "f.py", "matches": [{
        "name": "f", "kind": "function", "lines": "1-7", "signature": "def f(x)", "doc": "Add one to x and return it.",
        "code": "def f(x):\n    return x + 1", "code_skip": "2-5" }] }] });
    assert!(
        plain(&symbols(&folded), true).contains("  Add one to x and return it.\n"),
        "{}",
        plain(&symbols(&folded), true)
    );
}

#[test]
fn a_deleted_file_is_said_deleted_not_changed() {
    let answer = json!({
        "path": "gone.py", "root": "/src/py", "language": "python", "stale": true, "deleted": true,
        "content": "x = 1", "start_line": 1, "end_line": 1, "total_lines": 1
    });
    let text = plain(&file(&answer), false);
    assert!(text.starts_with("gone.py (project /src/py) [deleted on disk since indexed]\n"), "{text}");
    assert!(!text.contains("deleted: true") && !text.contains("changed on disk"), "{text}");
}
