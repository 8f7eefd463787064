//! The JSON Schema `tools/list` declares in each tool's `outputSchema`,
//! derived (schemars) from the type its [`Run`] answers
//! ([`crate::answers`]): the tools that share code share a schema (the
//! three symbol searches, `search_documentation` and its alias).
//!
//! Subschemas are inlined, without titles, descriptions or formats; a field
//! that may be left out is not `null` as well. Besides its own shape, every
//! answer may be one of two others, and the schema says so (`anyOf` over
//! the required fields): the budget guard's note (`{truncated: true, note}`,
//! [`Answer::within`]) and an error (`{error}`, sent with
//! `isError`). Objects stay open (no `additionalProperties: false`), so that
//! a client checking answers does not fail on a field added later; the tests
//! check against a closed copy.

use schemars::generate::{Contract, SchemaSettings};
use schemars::JsonSchema;
use serde_json::{json, Map, Value};

use crate::answers::*;

/// Which code shapes a tool's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

/// The schema of `T`'s answers, as a value: inlined, serialized shape.
fn schema_of<T: JsonSchema>() -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    settings.contract = Contract::Serialize;
    let mut schema = settings.into_generator().root_schema_for::<T>().to_value();
    tidy(&mut schema);
    schema
}

/// Without titles, descriptions and formats, and without `null` for a
/// property that is left out rather than written as `null` (unless the
/// type says it may be either: `x-nullable`).
fn tidy(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            for key in ["title", "description", "format"] {
                map.remove(key);
            }
            let required: Vec<String> = map
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).map(str::to_string).collect())
                .unwrap_or_default();
            for (key, value) in map.iter_mut() {
                match (key.as_str(), value) {
                    ("properties", Value::Object(props)) => {
                        for (name, prop) in props.iter_mut() {
                            let nullable = prop.as_object_mut().and_then(|p| p.remove("x-nullable")).is_some();
                            if !nullable && !required.contains(name) {
                                drop_null(prop);
                            }
                            split_nullable(prop);
                            tidy(prop);
                        }
                    }
                    (_, value) => tidy(value),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// `{"type": ["string", "null"]}` to `{"type": "string"}`, an enum without
/// `null`, and an `anyOf` of a schema and `null` to that schema.
fn drop_null(prop: &mut Value) {
    for key in ["type", "enum"] {
        if let Some(Value::Array(values)) = prop.get_mut(key) {
            values.retain(|t| !t.is_null() && t != "null");
            if key == "type" && values.len() == 1 {
                prop[key] = values[0].clone();
            }
        }
    }
    let inner = prop.get_mut("anyOf").and_then(Value::as_array_mut).and_then(|alts| {
        alts.retain(|a| a.get("type").is_none_or(|t| t != "null"));
        (alts.len() == 1).then(|| alts.remove(0))
    });
    if let Some(inner) = inner {
        *prop = inner;
    }
}

/// `{"type": ["string", "null"]}` to `{"anyOf": [{"type": "string"},
/// {"type": "null"}]}`: one type per schema, as clients that map tool
/// schemas onto a single-`type` dialect need.
fn split_nullable(prop: &mut Value) {
    let Some(Value::Array(types)) = prop.get("type") else { return };
    let [kind, null] = types.as_slice() else { return };
    if null != "null" {
        return;
    }
    let mut value = prop.clone();
    value["type"] = kind.clone();
    *prop = json!({ "anyOf": [value, { "type": "null" }] });
}

/// The schema of a run's answer, and the alternative sets of fields one of
/// which it holds besides the required ones (`a+b`: both).
fn answer(run: Run) -> (Value, &'static [&'static str]) {
    match run {
        Run::AdminSync => (schema_of::<SyncAnswer>(), &[]),
        Run::FileContent => (schema_of::<FileAnswer<Content>>(), &[]),
        Run::FileAst => (schema_of::<FileAnswer<Outline>>(), &["elements", "symbol+matches"]),
        Run::Projects => (schema_of::<ProjectsAnswer>(), &[]),
        Run::Stats => (schema_of::<StatsAnswer>(), &[]),
        Run::Tree => (schema_of::<TreeAnswer>(), &["tree+depth+total_files+total_dirs", "total+results"]),
        Run::Imports => (schema_of::<ImportsAnswer>(), &[]),
        Run::Symbols => (schema_of::<SymbolsAnswer>(), &[]),
        Run::Documentation => (schema_of::<DocumentationAnswer>(), &[]),
        Run::Text => (schema_of::<TextAnswer>(), &[]),
        Run::References => (schema_of::<ReferencesAnswer>(), &[]),
    }
}

/// The `outputSchema` of the tools a [`Run`] answers: the answer's fields,
/// then the budget guard's note and the error as the other answers it may be.
pub fn output_schema(run: Run) -> Value {
    let (schema, alternatives) = answer(run);
    let mut props: Map<String, Value> = schema["properties"].as_object().cloned().unwrap_or_default();
    let required: Vec<String> =
        schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect();
    for (name, kind) in [("truncated", "boolean"), ("note", "string"), ("error", "string")] {
        props.entry(name).or_insert_with(|| json!({ "type": kind }));
    }
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

    #[test]
    fn a_field_left_out_is_not_null_and_one_written_as_null_is() {
        let projects = output_schema(Run::Projects);
        assert_eq!(projects["properties"]["next_offset"], json!({ "type": "integer", "minimum": 0 }));
        let sync = &projects["properties"]["sync"]["properties"];
        assert_eq!(sync["outcome"], json!({ "anyOf": [{ "type": "string" }, { "type": "null" }] }));
        assert_eq!(sync["state"]["enum"], json!(["running", "ok", "failed"]));
        let references = output_schema(Run::References);
        assert_eq!(references["properties"]["direction"]["enum"], json!(["callees", "subtypes", "supertypes"]));
        let item = &references["properties"]["results"]["items"]["properties"];
        assert_eq!(item["language"]["anyOf"][1], json!({ "type": "null" }), "written, null for no language");
        assert_eq!(item["references"]["items"]["properties"]["kind"]["enum"], json!(["call", "type", "import"]));
        // A callee is a use with its name.
        assert_eq!(item["calls"]["items"]["required"], json!(["name", "line", "kind"]));
        let text = output_schema(Run::Text);
        let line = &text["properties"]["results"]["items"]["properties"]["matches"]["items"]["properties"]["line"];
        assert_eq!(line, &json!({ "type": "integer", "minimum": 1 }));
        // Properties named `title` and `description` stay; schema titles,
        // descriptions and formats do not.
        let docs = output_schema(Run::Documentation);
        assert_eq!(docs["properties"]["results"]["items"]["properties"]["title"], json!({ "type": "string" }));
        for run in [Run::Symbols, Run::FileAst, Run::Tree] {
            let text = output_schema(run).to_string();
            assert!(!text.contains("\"format\"") && !text.contains("$schema") && !text.contains("$ref"), "{text}");
        }
    }
}
