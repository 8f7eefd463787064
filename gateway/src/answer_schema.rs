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

use schemars::generate::SchemaSettings;
use schemars::transform::{transform_subschemas, Transform};
use schemars::{json_schema, JsonSchema, Schema};
use serde_json::json;

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

/// The schema of `T`'s answers: inlined, serialized shape, tidied
/// ([`Tidy`]).
fn schema_of<T: JsonSchema>() -> Schema {
    SchemaSettings::draft2020_12()
        .for_serialize()
        .with(|settings| {
            settings.inline_subschemas = true;
            settings.meta_schema = None;
        })
        .with_transform(Tidy)
        .into_generator()
        .into_root_schema_for::<T>()
}

/// Takes titles, descriptions and formats out of a schema and its
/// subschemas, and `null` out of a property that is left out rather than
/// written as `null` (unless the type says it may be either:
/// `x-nullable`).
#[derive(Debug, Clone, Copy)]
struct Tidy;

impl Transform for Tidy {
    fn transform(&mut self, schema: &mut Schema) {
        for key in ["title", "description", "format"] {
            schema.remove(key);
        }
        settle_null_in_properties(schema);
        transform_subschemas(self, schema);
    }
}

/// The names a schema object requires (`required`).
fn required_fields(schema: &Schema) -> Vec<String> {
    let names = schema.get("required").and_then(|required| required.as_array());
    names.into_iter().flatten().filter_map(|name| name.as_str()).map(str::to_string).collect()
}

/// Each property of `schema`: without `null` when it may be left out (and
/// is not `x-nullable`), and with a `null` it keeps as its own `anyOf`
/// branch ([`split_nullable`]).
fn settle_null_in_properties(schema: &mut Schema) {
    let required = required_fields(schema);
    let Some(properties) = schema.get_mut("properties").and_then(|p| p.as_object_mut()) else { return };
    for (name, property) in properties.iter_mut() {
        let Ok(property) = <&mut Schema>::try_from(property) else { continue };
        let nullable = property.remove("x-nullable").is_some();
        if !nullable && !required.contains(name) {
            drop_null(property);
        }
        split_nullable(property);
    }
}

/// `{"type": ["string", "null"]}` to `{"type": "string"}`, an enum without
/// `null`, and an `anyOf` of a schema and `null` to that schema.
fn drop_null(property: &mut Schema) {
    for key in ["type", "enum"] {
        let Some(values) = property.get_mut(key).and_then(|v| v.as_array_mut()) else { continue };
        values.retain(|v| !v.is_null() && v != "null");
        if key == "type" && values.len() == 1 {
            let single = values.remove(0);
            property.insert(key.to_string(), single);
        }
    }
    let alternatives = property.get_mut("anyOf").and_then(|a| a.as_array_mut());
    let only = alternatives.and_then(|alternatives| {
        alternatives.retain(|a| a.get("type").is_none_or(|t| t != "null"));
        (alternatives.len() == 1).then(|| alternatives.remove(0))
    });
    if let Some(only) = only.and_then(|only| Schema::try_from(only).ok()) {
        *property = only;
    }
}

/// `{"type": ["string", "null"]}` to `{"anyOf": [{"type": "string"},
/// {"type": "null"}]}`: one type per schema, as clients that map tool
/// schemas onto a single-`type` dialect need.
fn split_nullable(property: &mut Schema) {
    let kind = match property.get("type").and_then(|t| t.as_array()).map(Vec::as_slice) {
        Some([kind, null]) if null == "null" => kind.clone(),
        _ => return,
    };
    let mut typed = property.clone();
    typed.insert("type".to_string(), kind);
    *property = json_schema!({ "anyOf": [typed.to_value(), { "type": "null" }] });
}

/// The schema of a run's answer, and the alternative sets of fields one of
/// which it holds besides the required ones (`a+b`: both).
fn answer(run: Run) -> (Schema, &'static [&'static str]) {
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
pub fn output_schema(run: Run) -> Schema {
    let (mut answer, alternatives) = answer(run);
    let mut properties = answer.remove("properties").unwrap_or_else(|| json!({}));
    if let Some(properties) = properties.as_object_mut() {
        for (name, kind) in [("truncated", "boolean"), ("note", "string"), ("error", "string")] {
            properties.entry(name).or_insert_with(|| json!({ "type": kind }));
        }
    }
    let any_of: Vec<_> = required_sets(&required_fields(&answer), alternatives)
        .into_iter()
        .map(|required| json!({ "required": required }))
        .collect();
    json_schema!({ "type": "object", "properties": properties, "anyOf": any_of })
}

/// The sets of fields an answer holds, one of which it must: the required
/// ones with each alternative (or alone), the budget guard's note, the error.
fn required_sets(required: &[String], alternatives: &[&str]) -> Vec<Vec<String>> {
    let mut sets: Vec<Vec<String>> = if alternatives.is_empty() {
        vec![required.to_vec()]
    } else {
        alternatives
            .iter()
            .map(|alternative| required.iter().cloned().chain(alternative.split('+').map(str::to_string)).collect())
            .collect()
    };
    sets.push(vec!["truncated".into(), "note".into()]);
    sets.push(vec!["error".into()]);
    sets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_fields_and_alternatives() {
        let s = output_schema(Run::Symbols).to_value();
        assert_eq!(s["type"], "object");
        assert_eq!(s["anyOf"][0]["required"], json!(["query", "total", "truncated", "results"]));
        assert_eq!(s["anyOf"][1]["required"], json!(["truncated", "note"]));
        assert_eq!(s["anyOf"][2]["required"], json!(["error"]));
        let item = &s["properties"]["results"]["items"];
        assert_eq!(item["required"], json!(["project", "path", "language", "matches"]));
        assert_eq!(item["properties"]["stale"]["type"], "boolean");
        let ast = output_schema(Run::FileAst).to_value();
        assert_eq!(ast["anyOf"][0]["required"], json!(["root", "path", "language", "elements"]));
        assert_eq!(ast["anyOf"][1]["required"], json!(["root", "path", "language", "symbol", "matches"]));
        // Every answer may be the budget note or an error.
        let sync = output_schema(Run::AdminSync).to_value();
        for field in ["truncated", "note", "error"] {
            assert!(sync["properties"][field].is_object(), "{field}");
        }
    }

    #[test]
    fn a_field_left_out_is_not_null_and_one_written_as_null_is() {
        let projects = output_schema(Run::Projects).to_value();
        assert_eq!(projects["properties"]["next_offset"], json!({ "type": "integer", "minimum": 0 }));
        let sync = &projects["properties"]["sync"]["properties"];
        assert_eq!(sync["outcome"], json!({ "anyOf": [{ "type": "string" }, { "type": "null" }] }));
        assert_eq!(sync["state"]["enum"], json!(["running", "ok", "failed"]));
        let references = output_schema(Run::References).to_value();
        assert_eq!(references["properties"]["direction"]["enum"], json!(["callees", "subtypes", "supertypes"]));
        let item = &references["properties"]["results"]["items"]["properties"];
        assert_eq!(item["language"]["anyOf"][1], json!({ "type": "null" }), "written, null for no language");
        assert_eq!(
            item["references"]["items"]["properties"]["kind"]["enum"],
            json!(["call", "type", "import", "read"])
        );
        // A callee is a use with its name.
        assert_eq!(item["calls"]["items"]["required"], json!(["name", "line", "kind"]));
        let text = output_schema(Run::Text).to_value();
        let line = &text["properties"]["results"]["items"]["properties"]["matches"]["items"]["properties"]["line"];
        assert_eq!(line, &json!({ "type": "integer", "minimum": 1 }));
        // Properties named `title` and `description` stay; schema titles,
        // descriptions and formats do not.
        let docs = output_schema(Run::Documentation).to_value();
        assert_eq!(docs["properties"]["results"]["items"]["properties"]["title"], json!({ "type": "string" }));
        for run in [Run::Symbols, Run::FileAst, Run::Tree] {
            let text = output_schema(run).to_value().to_string();
            assert!(!text.contains("\"format\"") && !text.contains("$schema") && !text.contains("$ref"), "{text}");
        }
    }
}
