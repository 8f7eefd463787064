//! The shape of every tool's answer, as the JSON Schema `tools/list`
//! declares in each tool's `outputSchema`. A tool's [`Run`] (the code that
//! shapes its answer, see [`crate::registry`]) decides the shape, so the
//! tools that share code share a schema (the three symbol searches,
//! `search_documentation` and its alias).
//!
//! Fields are written as in the tools' doc comments: a name ending in `?`
//! may be left out. Besides its own shape, every answer may be one of two
//! others, and the schema says so (`anyOf` over the required fields): the
//! budget guard's note (`{truncated: true, note}`, [`crate::budget::enforce`])
//! and an error (`{error}`, sent with `isError`). Objects stay open (no
//! `additionalProperties: false`), so that a client checking answers does
//! not fail on a field added later; the tests check against a closed copy.

use serde_json::{json, Map, Value};
use vibe_common::document::kinds::ReferenceKind;

/// Which code shapes a tool's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Run {
    AdminSync,
    FileContent,
    FileAst,
    Projects,
    Stats,
    Tree,
    Imports,
    /// A symbol search over the element kinds of [`crate::registry::ToolSpec::kinds`].
    Symbols,
    Documentation,
    Text,
    References,
}

fn string() -> Value {
    json!({ "type": "string" })
}

fn count() -> Value {
    json!({ "type": "integer", "minimum": 0 })
}

fn line_number() -> Value {
    json!({ "type": "integer", "minimum": 1 })
}

fn flag() -> Value {
    json!({ "type": "boolean" })
}

/// A string, or `null` where the index has none (a file of no known language).
fn string_or_null() -> Value {
    json!({ "anyOf": [{ "type": "string" }, { "type": "null" }] })
}

fn list(item: Value) -> Value {
    json!({ "type": "array", "items": item })
}

fn one_of(values: &[&str]) -> Value {
    json!({ "type": "string", "enum": values })
}

/// The properties of `fields` and the names that are required (those not
/// ending in `?`).
fn properties(fields: Vec<(&str, Value)>) -> (Map<String, Value>, Vec<String>) {
    let mut props = Map::new();
    let mut required = Vec::new();
    for (name, schema) in fields {
        let bare = name.trim_end_matches('?');
        if bare == name {
            required.push(bare.to_string());
        }
        props.insert(bare.to_string(), schema);
    }
    (props, required)
}

/// An object of `fields`.
fn object(fields: Vec<(&str, Value)>) -> Value {
    let (props, required) = properties(fields);
    let mut s = json!({ "type": "object", "properties": props });
    if !required.is_empty() {
        s["required"] = json!(required);
    }
    s
}

/// `fields` followed by `more`.
fn with(mut fields: Vec<(&'static str, Value)>, more: Vec<(&'static str, Value)>) -> Vec<(&'static str, Value)> {
    fields.extend(more);
    fields
}

/// How fresh a file in an answer is ([`crate::tools::freshness`]).
fn freshness() -> Vec<(&'static str, Value)> {
    vec![
        ("hash?", string()),
        ("indexed_at?", string()),
        ("stale?", flag()),
        ("deleted?", flag()),
        ("same_content?", list(string())),
    ]
}

/// A file in a search's results: `{project, path, language, hash?, indexed_at?, stale?}` and `more`.
fn file_result(more: Vec<(&'static str, Value)>) -> Value {
    let header = vec![("project", string()), ("path", string()), ("language", string_or_null())];
    object(with(with(header, freshness()), more))
}

/// A page of search results (`crate::tools::answer::paged`).
fn search_page(result: Value) -> Vec<(&'static str, Value)> {
    vec![
        ("query", string()),
        ("total", count()),
        ("truncated", flag()),
        ("next_offset?", count()),
        ("note?", string()),
        ("results", list(result)),
    ]
}

/// One file's header in `get_file_content` and `get_file_ast` (`root` and
/// `language` are `null` when no file matched).
fn file_answer(more: Vec<(&'static str, Value)>) -> Vec<(&'static str, Value)> {
    let header = vec![("root", string_or_null()), ("path", string()), ("language", string_or_null())];
    with(with(header, freshness()), with(more, vec![("message?", string())]))
}

fn admin_sync() -> Vec<(&'static str, Value)> {
    vec![
        ("result", one_of(&["Started", "AlreadyRunning"])),
        ("message", string()),
        ("running_secs?", count()),
        ("progress?", string()),
    ]
}

fn file_content() -> Vec<(&'static str, Value)> {
    file_answer(vec![
        ("content", string()),
        ("total_lines?", count()),
        ("start_line?", line_number()),
        ("end_line?", line_number()),
        ("truncated?", flag()),
        ("next_start_line?", line_number()),
        ("shortened_lines?", list(line_number())),
        ("start_char?", line_number()),
        ("end_char?", count()),
        ("line_chars?", count()),
        ("next_start_char?", line_number()),
    ])
}

/// An element of an outline (`crate::tools::outline`), short or, for the
/// elements `symbol` names, whole.
fn outline_element() -> Value {
    object(vec![
        ("name", string()),
        ("kind", string()),
        ("owner?", string()),
        ("level?", count()),
        ("lines?", string()),
        ("signature?", string()),
        ("doc?", string()),
        ("code?", string()),
        ("code_skip?", string()),
    ])
}

/// `get_file_ast`: the outline, or with `symbol` one element in full.
fn file_ast() -> (Vec<(&'static str, Value)>, Vec<&'static str>) {
    let frontmatter = object(vec![("title?", string()), ("description?", string()), ("other_keys?", count())]);
    let fields = file_answer(vec![
        ("license?", string()),
        ("header?", string()),
        ("frontmatter?", frontmatter),
        ("imports?", object(vec![("total", count()), ("first", list(string()))])),
        ("links_total?", count()),
        ("code_blocks_total?", count()),
        ("total_elements?", count()),
        ("elements?", list(outline_element())),
        ("symbol?", string()),
        ("matches?", list(outline_element())),
        ("total_members?", count()),
        ("members?", list(outline_element())),
        ("truncated?", flag()),
        ("next_offset?", count()),
        ("note?", string()),
    ]);
    (fields, vec!["elements", "symbol+matches"])
}

fn projects() -> Vec<(&'static str, Value)> {
    let project = object(vec![
        ("path", string()),
        ("name", string()),
        ("summary?", string()),
        ("indexed_at?", string()),
        ("owners?", list(string())),
        ("last_sync?", string()),
    ]);
    let sync = object(vec![
        ("state", one_of(&["running", "ok", "failed"])),
        ("running_secs?", count()),
        ("progress?", string()),
        ("outcome?", string_or_null()),
        ("finished_at?", string()),
    ]);
    vec![
        ("projects", list(project)),
        ("total", count()),
        ("truncated", flag()),
        ("next_offset?", count()),
        ("note?", string()),
        ("sync?", sync),
    ]
}

fn stats() -> Vec<(&'static str, Value)> {
    let sizes = || vec![("files", count()), ("lines", count()), ("ast_objects", count()), ("size_human", string())];
    vec![
        ("target", string_or_null()),
        ("languages", list(object(with(vec![("language", string())], sizes())))),
        ("more_languages?", count()),
        ("total", object(with(sizes(), vec![("projects?", count())]))),
        ("truncated?", flag()),
        ("note?", string()),
    ]
}

/// `show_tree`: the tree, or with `symbols` the ranked map (files with the
/// definitions used by the most files, [`crate::tools::map`]).
fn tree() -> (Vec<(&'static str, Value)>, Vec<&'static str>) {
    let definition = object(vec![
        ("name", string()),
        ("kind", string()),
        ("owner?", string()),
        ("lines?", string()),
        ("signature", string_or_null()),
        ("used_in", count()),
    ]);
    let fields = vec![
        ("target", string_or_null()),
        ("path?", string()),
        ("tree?", string()),
        ("depth?", count()),
        ("total_files?", count()),
        ("total_dirs?", count()),
        ("total?", count()),
        ("results?", list(file_result(vec![("matches", list(definition))]))),
        ("truncated", flag()),
        ("note?", string()),
    ];
    (fields, vec!["tree+depth+total_files+total_dirs", "total+results"])
}

fn imports() -> Vec<(&'static str, Value)> {
    search_page(file_result(vec![("imports", list(string())), ("more_imports?", count())]))
}

fn symbols() -> Vec<(&'static str, Value)> {
    let element = object(vec![
        ("name", string()),
        ("kind", string()),
        ("owner?", string()),
        ("lines?", string()),
        ("signature", string_or_null()),
        ("doc?", string()),
        ("code?", string()),
        ("code_lines?", string()),
        ("code_skip?", string()),
        // A callee of the best match, shown after the match that calls it.
        ("called_by?", string()),
    ]);
    // The best file's other lines holding a question's words.
    let word_line = object(vec![("line", line_number()), ("text", string()), ("in?", string())]);
    search_page(file_result(vec![
        ("matches", list(element)),
        ("more_matches?", count()),
        ("word_lines?", list(word_line)),
    ]))
}

fn documentation() -> Vec<(&'static str, Value)> {
    let section = object(vec![("heading?", string()), ("lines", string()), ("passage?", string())]);
    search_page(file_result_without_language(vec![
        ("title?", string()),
        ("description?", string()),
        ("sections", list(section)),
        ("more_sections?", count()),
        ("other_headings?", list(string())),
        ("headings_total", count()),
    ]))
}

/// A document in `search_documentation`'s results (Markdown: no `language`).
fn file_result_without_language(more: Vec<(&'static str, Value)>) -> Value {
    object(with(with(vec![("project", string()), ("path", string())], freshness()), more))
}

fn text() -> Vec<(&'static str, Value)> {
    let line = object(vec![("line", line_number()), ("text", string()), ("context?", flag()), ("in?", string())]);
    let mut page = search_page(file_result(vec![("matches", list(line)), ("more_matches?", count())]));
    page.push(("total_exact?", flag()));
    // The page's first file among the matching files, past the first page.
    page.push(("first?", line_number()));
    page
}

fn references() -> Vec<(&'static str, Value)> {
    let kind = one_of(&ReferenceKind::ALL.map(ReferenceKind::name));
    let caller = object(vec![("line", line_number()), ("kind", kind.clone()), ("in?", string()), ("text?", string())]);
    let callee = object(vec![
        ("name", string()),
        ("line", line_number()),
        ("kind", kind),
        ("in?", string()),
        ("text?", string()),
    ]);
    let a_type = object(vec![
        ("name", string()),
        ("kind", string()),
        ("owner?", string()),
        ("lines?", string()),
        ("signature", string_or_null()),
        ("depth?", count()),
        ("extends?", list(string())),
    ]);
    let mut page = search_page(file_result(vec![
        ("references?", list(caller)),
        ("calls?", list(callee)),
        ("types?", list(a_type)),
        ("more_references?", count()),
        ("more_calls?", count()),
    ]));
    page.push(("direction?", one_of(&["callees", "subtypes", "supertypes"])));
    page.push(("not_indexed?", list(string())));
    page
}

/// The fields of a run's answer, and the alternative sets of fields one of
/// which it holds besides the required ones (`a+b`: both).
fn fields(run: Run) -> (Vec<(&'static str, Value)>, Vec<&'static str>) {
    let fields = match run {
        Run::FileAst => return file_ast(),
        Run::AdminSync => admin_sync(),
        Run::FileContent => file_content(),
        Run::Projects => projects(),
        Run::Stats => stats(),
        Run::Tree => return tree(),
        Run::Imports => imports(),
        Run::Symbols => symbols(),
        Run::Documentation => documentation(),
        Run::Text => text(),
        Run::References => references(),
    };
    (fields, Vec::new())
}

/// The `outputSchema` of the tools a [`Run`] answers: the answer's fields,
/// then the budget guard's note and the error as the other answers it may be.
pub fn output_schema(run: Run) -> Value {
    let (mut fields, alternatives) = fields(run);
    for (name, schema) in [("truncated?", flag()), ("note?", string()), ("error?", string())] {
        if !fields.iter().any(|(n, _)| n.trim_end_matches('?') == name.trim_end_matches('?')) {
            fields.push((name, schema));
        }
    }
    let (props, required) = properties(fields);
    let mut shapes: Vec<Vec<String>> = if alternatives.is_empty() {
        vec![required.clone()]
    } else {
        alternatives
            .iter()
            .map(|alt| required.iter().cloned().chain(alt.split('+').map(str::to_string)).collect())
            .collect()
    };
    shapes.push(vec!["truncated".into(), "note".into()]);
    shapes.push(vec!["error".into()]);
    let any_of: Vec<Value> = shapes.into_iter().map(|r| json!({ "required": r })).collect();
    json!({ "type": "object", "properties": props, "anyOf": any_of })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_fields_and_alternatives() {
        let s = output_schema(Run::Symbols);
        assert_eq!(s["type"], "object");
        assert_eq!(s["anyOf"][0]["required"], json!(["query", "total", "truncated", "results"]));
        assert_eq!(s["anyOf"][1]["required"], json!(["truncated", "note"]));
        assert_eq!(s["anyOf"][2]["required"], json!(["error"]));
        let item = &s["properties"]["results"]["items"];
        assert_eq!(item["required"], json!(["project", "path", "language", "matches"]));
        assert_eq!(item["properties"]["stale"]["type"], "boolean");
        let ast = output_schema(Run::FileAst);
        assert_eq!(ast["anyOf"][0]["required"], json!(["root", "path", "language", "elements"]));
        assert_eq!(ast["anyOf"][1]["required"], json!(["root", "path", "language", "symbol", "matches"]));
        // Every answer may be the budget note or an error.
        let sync = output_schema(Run::AdminSync);
        for field in ["truncated", "note", "error"] {
            assert!(sync["properties"][field].is_object(), "{field}");
        }
    }
}
