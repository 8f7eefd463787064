//! Data-driven test of the tool-name alias table (`gateway/data/tool_aliases.tsv`):
//! every row resolves to its tool, in every spelling a model produces
//! (camelCase, kebab-case, spaced, upper case, prefixed), both through
//! [`resolve_tool`] and through a real MCP session, where an alias must give
//! exactly the answer of its canonical tool. Twenty unknown names (destructive
//! ones among them) resolve to nothing and get an `isError` result that lists
//! the tools.

use std::collections::{BTreeMap, HashMap};

use crate::common::{answer, load_fixture, McpClient};
use serde_json::{json, Value};
use vibe_gateway::normalize::{alias_table, is_destructive, normalize_name, resolve_tool, suggest_tool, TOOL_NAMES};
use vibe_gateway::ServeOptions;

/// Names that must resolve to nothing: destructive-sounding ones and names of
/// tools this server does not have.
const UNKNOWN: [&str; 20] = [
    "delete_project",
    "run_shell",
    "drop_index",
    "exec",
    "execute_command",
    "remove_file",
    "write_file",
    "shell",
    "kill_server",
    "reset_index",
    "create_project",
    "deleteAllDocs",
    "tools.rm_rf",
    "vibe_run_sync",
    "get_weather",
    "send_email",
    "search_web",
    "translate",
    "search",
    "hello_world",
];

fn camel(alias: &str) -> String {
    let mut out = String::new();
    for (i, word) in alias.split('_').enumerate() {
        let mut chars = word.chars();
        match chars.next() {
            Some(c) if i > 0 => {
                out.extend(c.to_uppercase());
                out.extend(chars);
            }
            Some(c) => {
                out.push(c);
                out.extend(chars);
            }
            None => {}
        }
    }
    out
}

fn pascal(alias: &str) -> String {
    let c = camel(alias);
    let mut chars = c.chars();
    chars.next().map(|f| f.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The spellings of one alias a model might send.
fn spellings(alias: &str) -> Vec<String> {
    vec![
        alias.to_string(),
        camel(alias),
        pascal(alias),
        alias.replace('_', "-"),
        alias.replace('_', " "),
        alias.replace('_', "."),
        alias.to_uppercase(),
        format!("vibe_{alias}"),
        format!("vibe{}", pascal(alias)),
        format!("mcp_{alias}"),
        format!("tools.{alias}"),
        format!("functions.{alias}"),
        format!("functions.vibe_{alias}"),
        format!("tools.mcp_{}", camel(alias)),
        format!("mcp__vibe-analyzer__{alias}"),
    ]
}

#[test]
fn the_table_is_well_formed() {
    let rows = &alias_table().rows;
    let raw_rows = vibe_gateway::normalize::TOOL_ALIASES_TSV
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count();
    assert_eq!(rows.len(), raw_rows, "every non-comment line is a valid row");
    assert!(rows.len() >= 150, "{} aliases", rows.len());
    let mut seen: HashMap<String, &str> = HashMap::new();
    let mut per_tool: BTreeMap<&str, usize> = BTreeMap::new();
    for (alias, tool) in rows {
        assert_eq!(normalize_name(alias), *alias, "{alias}: rows are written in normalized form");
        assert!(!is_destructive(alias), "{alias}: destructive-sounding alias");
        assert!(!TOOL_NAMES.contains(alias), "{alias}: a tool name is not an alias");
        if let Some(previous) = seen.insert(alias.to_string(), tool) {
            panic!("{alias} listed twice ({previous}, {tool})");
        }
        *per_tool.entry(tool).or_default() += 1;
    }
    for tool in TOOL_NAMES {
        assert!(per_tool.get(tool).copied().unwrap_or(0) >= 10, "{tool}: {per_tool:?}");
    }
    // The short forms of the issue.
    for (alias, tool) in [
        ("search_functions", "search_by_code_functions"),
        ("find_class", "search_by_code_classes"),
        ("list_imports", "search_by_code_imports"),
        ("file_content", "get_file_content"),
        ("read_file", "get_file_content"),
        ("tree", "show_tree"),
        ("stats", "show_stats"),
        ("projects", "show_projects"),
        ("sync", "admin_sync"),
        ("reindex", "admin_sync"),
        ("docs", "search_documentation"),
        ("knowledge", "search_knowledge"),
    ] {
        assert!(rows.contains(&(alias, tool)), "{alias} -> {tool} missing");
    }
}

#[test]
fn every_alias_resolves_in_every_spelling() {
    let mut checked = 0;
    for (alias, tool) in &alias_table().rows {
        for spelling in spellings(alias) {
            assert_eq!(resolve_tool(&spelling), Some(*tool), "{spelling:?} (row {alias})");
            checked += 1;
        }
    }
    for tool in TOOL_NAMES {
        for spelling in spellings(tool) {
            assert_eq!(resolve_tool(&spelling), Some(tool), "{spelling:?}");
        }
    }
    assert!(checked >= 150 * 15);
}

#[test]
fn unknown_names_resolve_to_nothing() {
    for name in UNKNOWN {
        assert_eq!(resolve_tool(name), None, "{name}");
        for spelling in spellings(name) {
            // `functions.search` is also the alias `functions_search` written with a dot.
            if spelling == "functions.search" {
                assert_eq!(resolve_tool(&spelling), Some("search_by_code_functions"));
                continue;
            }
            assert_eq!(resolve_tool(&spelling), None, "{spelling:?}");
        }
        if is_destructive(&normalize_name(name)) {
            assert_eq!(suggest_tool(name), None, "{name}: no suggestion for a destructive name");
        } else {
            assert!(suggest_tool(name).is_some(), "{name}: a closest match is offered");
        }
    }
}

/// Through a real MCP session: each alias answers exactly like its tool, and
/// the unknown names get an `isError` result naming the tools.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn aliases_through_mcp() -> anyhow::Result<()> {
    let config = load_fixture("gwt_alias").await?;
    let server = vibe_gateway::spawn(
        &config,
        ServeOptions {
            host: "127.0.0.1".into(),
            port: 0,
            sync_command: Some(vec!["true".into()]),
            ..Default::default()
        },
    )
    .await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-11-25").await?;
    let args = |tool: &str| match tool {
        "get_file_content" | "get_file_ast" => json!({ "path": "calculator.py" }),
        "show_stats" | "show_tree" => json!({ "target": "samples" }),
        "admin_sync" | "show_projects" => json!({}),
        _ => json!({ "query": "add", "limit": 2 }),
    };
    let mut expected: HashMap<&str, Value> = HashMap::new();
    for tool in TOOL_NAMES {
        let r = client.call_tool(tool, args(tool)).await?;
        assert_eq!(r["isError"], json!(false), "{tool}: {r}");
        expected.insert(tool, answer(&r));
    }
    for (alias, tool) in &alias_table().rows {
        // One spelling per row, rotating, so the transport sees every form.
        let spelling = &spellings(alias)[checked_index(alias)];
        let r = client.call_tool(spelling, args(tool)).await?;
        assert_eq!(r["isError"], json!(false), "{spelling} ({alias} -> {tool}): {r}");
        let got = answer(&r);
        if *tool == "admin_sync" {
            let result = got["result"].as_str().unwrap_or_default();
            assert!(result == "Started" || result == "AlreadyRunning", "{spelling}: {got}");
        } else if *tool == "show_projects" {
            // The last sync (its time, and each project's outcome once the
            // first one ends) moves as the admin_sync aliases run.
            let stable = |v: &Value| {
                let mut v = v.clone();
                v.as_object_mut().map(|o| o.remove("sync"));
                for p in v["projects"].as_array_mut().into_iter().flatten() {
                    p.as_object_mut().map(|o| o.remove("last_sync"));
                }
                v
            };
            assert_eq!(stable(&got), stable(&expected[tool]), "{spelling} ({alias}) answers like {tool}");
        } else {
            assert_eq!(got, expected[tool], "{spelling} ({alias}) answers like {tool}");
        }
    }
    for name in UNKNOWN {
        let r = client.call_tool(name, json!({ "query": "x" })).await?;
        assert_eq!(r["isError"], json!(true), "{name}: {r}");
        let text = r["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("Valid tools: admin_sync, get_file_content"), "{name}: {text}");
        let a = answer(&r);
        assert_eq!(a["valid_tools"].as_array().map(Vec::len), Some(TOOL_NAMES.len()));
        if is_destructive(&normalize_name(name)) {
            assert!(a["closest_match"].is_null(), "{name}: {a}");
        } else {
            let suggestion = a["closest_match"].as_str().unwrap();
            assert!(text.contains(&format!("Closest match: \"{suggestion}\"")), "{text}");
        }
    }
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}

fn checked_index(alias: &str) -> usize {
    alias.bytes().map(usize::from).sum::<usize>() % 15
}
