//! Template parameters cannot change the structure of a query: every stored
//! template is rendered (`_render/template`) with hostile values and the
//! rendered query must have exactly the shape it has with a harmless value.
//! The same values then go through real tool calls, which must answer
//! normally.

use crate::common::{answer, load_fixture, McpClient};
use serde_json::{json, Value};
use vibe_common::backend::search::Search;
use vibe_common::backend::templates;
use vibe_common::document::kinds::ReferenceKind;
use vibe_gateway::{template_params, ServeOptions};

const HOSTILE: &[&str] = &[
    r#"add" } }, { "match_all": {} } ] } }, "size": 10000, "x": { "y": "#,
    r#"\"#,
    r#"\\" } } } }"#,
    "}}",
    "{{#toJson}}query{{/toJson}}",
    "{{query}} {{{query}}} {{=<% %>=}} <% query %>",
    "line one\nline two\r\n\t\"quoted\"",
    "*?\\*",
    "\u{0000}\u{001f}\u{2028}",
    "Бакобур\" OR \"基里库尔",
];

/// The shape of a JSON value: objects keep their keys, arrays their length,
/// strings and numbers become type names.
fn shape(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), shape(v))).collect()),
        Value::Array(a) => Value::Array(a.iter().map(shape).collect()),
        Value::String(_) => json!("<string>"),
        Value::Number(_) => json!("<number>"),
        other => other.clone(),
    }
}

/// Every string leaf of a rendered query.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => m.values().for_each(|v| strings(v, out)),
        Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        Value::String(s) => out.push(s.clone()),
        _ => {}
    }
}

/// The params each template gets, as the gateway sends them (its typed
/// params serialized).
fn params_for(template: &str, text: &str) -> Value {
    let names = [text, "plain"];
    let clauses = [vec![vec![vec![text.to_string(), text.to_string()]]]];
    let params = match template {
        "search_documentation" => serde_json::to_value(template_params::documentation(text, 3, 0)),
        "search_by_code_imports" => serde_json::to_value(template_params::imports(text, 3, 0)),
        "get_file_content" | "get_file_ast" => serde_json::to_value(template_params::file(text, true, Some(text))),
        "show_projects" => serde_json::to_value(template_params::projects(10)),
        "show_stats" => serde_json::to_value(template_params::stats()),
        "show_tree" => serde_json::to_value(template_params::tree(100, Some(text), Some(text), 10)),
        "find_references" => serde_json::to_value(template_params::references(text, None, &ReferenceKind::ALL, 3, 0)),
        "find_callees" => serde_json::to_value(template_params::callees(text, &ReferenceKind::ALL, 3, 0)),
        "find_definitions" => serde_json::to_value(template_params::definitions(text, &names, 3)),
        "find_values" | "find_defaults" => serde_json::to_value(template_params::values(&names, text, 3)),
        "search_code_text" => serde_json::to_value(template_params::text(&clauses, Some(text), Some(text), 3, 0)),
        _ => serde_json::to_value(template_params::code(
            "search_by_code_functions",
            text,
            3,
            0,
            template_params::Pass::Exact,
        )),
    };
    params.expect("template params serialize")
}

async fn render(search: &Search, id: &str, params: &Value) -> anyhow::Result<Value> {
    let r = search.post("/_render/template", &json!({ "id": id, "params": params })).await?;
    Ok(r["template_output"].clone())
}

#[tokio::test]
async fn hostile_parameters_do_not_change_the_query_structure() -> anyhow::Result<()> {
    let config = load_fixture("gwt_inj").await?;
    let search = Search::new(&config.opensearch)?;
    let names = templates::search_template_names();
    // Every shipped file is installed (and has its parameters above).
    let shipped = std::fs::read_dir(crate::common::repo_root().join("search-templates"))?
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().extension().is_some_and(|x| x == "mustache")))
        .count();
    assert_eq!(names.len(), shipped, "{names:?}");
    assert!(names.contains(&"search_code_text".to_string()), "{names:?}");
    for template in &names {
        let id = templates::search_template_id(&search.names, template);
        for harmless in ["calculator", "калькулятор гибкий", "计算器"] {
            let baseline_params = params_for(template, harmless);
            let baseline = render(&search, &id, &baseline_params).await?;
            for hostile in HOSTILE {
                // Same word structure as the baseline (only the text differs) where the
                // template depends on it: prefix/script flags are compared separately.
                let text = format!("{harmless}{hostile}");
                let p = params_for(template, &text);
                let rendered = render(&search, &id, &p).await?;
                if template == "search_documentation" {
                    // Words and scripts are computed from the text; compare with a
                    // baseline rendered from the same words and flags but plain text.
                    let mut plain = p.clone();
                    plain["query"] = json!("x");
                    plain["text"] = json!("x");
                    let expected = render(&search, &id, &plain).await?;
                    assert_eq!(shape(&rendered), shape(&expected), "{template} with {text:?}");
                } else if template == "search_code_symbols" {
                    // `Owner.name` switches the owner clause on: compare with the same
                    // parameters holding plain text.
                    let mut plain = p.clone();
                    for key in ["query", "words", "name", "lower", "owner"] {
                        if plain[key].is_string() {
                            plain[key] = json!("x");
                        }
                    }
                    let expected = render(&search, &id, &plain).await?;
                    assert_eq!(shape(&rendered), shape(&expected), "{template} with {text:?}");
                } else {
                    assert_eq!(shape(&rendered), shape(&baseline), "{template} with {text:?}");
                }
                // The hostile text arrives intact, as one string value.
                if p.get("query").or(p.get("words")).is_some() && template != "show_projects" {
                    let mut leaves = Vec::new();
                    strings(&rendered, &mut leaves);
                    let sent = p.get("text").or(p.get("query")).or(p.get("words"));
                    let expected = sent.and_then(Value::as_str).unwrap().to_string();
                    if p["all"] != json!(true) {
                        assert!(leaves.contains(&expected), "{template}: {expected:?} not a string leaf of {rendered}");
                    }
                }
                if template == "search_code_text" {
                    // The glob regexp, the language and the grams arrive as given.
                    let mut leaves = Vec::new();
                    strings(&rendered, &mut leaves);
                    assert!(leaves.contains(&text), "{template}: {text:?} not a string leaf of {rendered}");
                    assert!(leaves.contains(&format!("{text}\n{text}")), "{template}: {rendered}");
                }
                if template.starts_with("get_file") {
                    let mut leaves = Vec::new();
                    strings(&rendered, &mut leaves);
                    assert!(leaves.contains(&text), "{template}: path {text:?} not a string leaf");
                }
            }
        }
    }

    // The same values through real tool calls: normal answers, no errors.
    let server =
        vibe_gateway::spawn(&config, ServeOptions { host: "127.0.0.1".into(), port: 0, ..Default::default() }).await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-11-25").await?;
    for hostile in HOSTILE {
        for tool in [
            "search_by_code_functions",
            "search_by_code_imports",
            "search_by_code_classes",
            "search_by_code_variables",
            "search_documentation",
        ] {
            let r = client.call_tool(tool, json!({ "query": hostile, "limit": 10 })).await?;
            assert_eq!(r["isError"], json!(false), "{tool} {hostile:?}: {r}");
            let a = answer(&r);
            assert_eq!(a["query"], json!(hostile.trim()), "{tool}: the query is echoed unchanged");
            assert!(a["results"].as_array().unwrap().len() <= 10, "{tool}: the limit holds");
        }
        for tool in ["get_file_content", "get_file_ast"] {
            let r = client.call_tool(tool, json!({ "path": hostile })).await?;
            let a = answer(&r);
            assert!(
                r["isError"] == json!(false) && a["root"].is_null() || r["isError"] == json!(true),
                "{tool} {hostile:?}: {r}"
            );
        }
    }
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}
