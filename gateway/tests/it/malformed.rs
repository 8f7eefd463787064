//! Malformed input gets a clean error and the server keeps serving: broken
//! JSON-RPC, wrong types, oversized queries and bodies, unicode edge cases
//! (RTL, emoji, NUL, lone surrogates, invalid UTF-8) in tool names,
//! arguments and argument names.

use crate::common::{answer, load_fixture, messages, McpClient};
use serde_json::{json, Value};
use vibe_gateway::ServeOptions;

/// POSTs raw bytes in the client's session; returns status and the JSON-RPC messages.
async fn raw(client: &McpClient, body: Vec<u8>) -> anyhow::Result<(u16, Vec<Value>)> {
    let r = client
        .http
        .post(&client.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-session-id", client.session.clone().unwrap())
        .header("mcp-protocol-version", client.protocol.clone())
        .body(body)
        .send()
        .await?;
    let status = r.status().as_u16();
    let ct = r.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    Ok((status, messages(&ct, &r.text().await?)))
}

async fn still_serving(client: &mut McpClient, after: &str) -> anyhow::Result<()> {
    let r = client.call_tool("show_projects", json!({})).await?;
    assert_eq!(answer(&r)["total"], json!(2), "not serving after {after}");
    Ok(())
}

#[tokio::test]
async fn malformed_json_rpc_gets_clean_errors() -> anyhow::Result<()> {
    let config = load_fixture("gwt_malformed").await?;
    let server =
        vibe_gateway::spawn(&config, ServeOptions { host: "127.0.0.1".into(), port: 0, ..Default::default() }).await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-11-25").await?;
    let call =
        |params: Value| json!({ "jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": params }).to_string();
    // (body, HTTP status, JSON-RPC error code, id in the answer)
    let cases: Vec<(Vec<u8>, u16, i64, Value)> = vec![
        (b"{not json".to_vec(), 400, -32700, Value::Null),
        (b"".to_vec(), 400, -32700, Value::Null),
        (b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"".to_vec(), 400, -32700, Value::Null),
        (vec![b'{', 0xff, 0xfe, b'}'], 400, -32700, Value::Null),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"\\ud800\"}}".to_vec(),
            400,
            -32700,
            Value::Null,
        ),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"a\x00b\"}}".to_vec(),
            400,
            -32700,
            Value::Null,
        ),
        (b"[]".to_vec(), 400, -32600, Value::Null),
        (br#"[{"jsonrpc":"2.0","id":5,"method":"tools/list"}]"#.to_vec(), 400, -32600, Value::Null),
        (b"\"tools/list\"".to_vec(), 400, -32600, Value::Null),
        (b"null".to_vec(), 400, -32600, Value::Null),
        (br#"{"jsonrpc":"2.0","id":5}"#.to_vec(), 400, -32600, json!(5)),
        (br#"{"jsonrpc":"1.0","id":5,"method":"tools/list"}"#.to_vec(), 400, -32600, json!(5)),
        (br#"{"id":5,"method":"tools/list"}"#.to_vec(), 400, -32600, json!(5)),
        (br#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}"#.to_vec(), 400, -32600, Value::Null),
        (br#"{"jsonrpc":"2.0","id":[1],"method":"tools/list"}"#.to_vec(), 400, -32600, Value::Null),
        // An id rmcp cannot hold (over i64::MAX) is refused here, not with rmcp's bare 415.
        (br#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}"#.to_vec(), 400, -32600, Value::Null),
        (
            br#"{"jsonrpc":"2.0","id":9223372036854775807,"method":"no/such/method"}"#.to_vec(),
            200,
            -32601,
            json!(i64::MAX),
        ),
        // A member given twice (rmcp would answer 415, or read the call as another method).
        (br#"{"jsonrpc":"2.0","id":5,"id":6,"method":"tools/list"}"#.to_vec(), 400, -32600, Value::Null),
        (
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"show_stats","_meta":{},"_meta":{}}}"#
                .to_vec(),
            200,
            -32602,
            json!(5),
        ),
        (
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"a","name":"search_documentation"}}"#
                .to_vec(),
            200,
            -32602,
            json!(5),
        ),
        // Given twice anywhere in a request's params (rmcp read this initialize as no initialize).
        (
            br#"{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-06-18","protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}"#
                .to_vec(),
            200,
            -32602,
            json!(5),
        ),
        (
            br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"show_stats","_meta":{"progressToken":1,"progressToken":2}}}"#
                .to_vec(),
            200,
            -32602,
            json!(5),
        ),
        (br#"{"jsonrpc":"2.0","id":5,"method":["tools/list"]}"#.to_vec(), 400, -32600, json!(5)),
        (br#"{"jsonrpc":"2.0","id":5,"method":"no/such/method"}"#.to_vec(), 200, -32601, json!(5)),
        (br#"{"jsonrpc":"2.0","id":5,"method":"tools/call"}"#.to_vec(), 200, -32602, json!(5)),
        (call(json!("x")).into_bytes(), 200, -32602, json!(5)),
        (call(json!([1, 2])).into_bytes(), 200, -32602, json!(5)),
        (call(json!({ "arguments": {} })).into_bytes(), 200, -32602, json!(5)),
        (call(json!({ "name": 42 })).into_bytes(), 200, -32602, json!(5)),
        (call(json!({ "name": null })).into_bytes(), 200, -32602, json!(5)),
        (call(json!({ "name": ["search_documentation"] })).into_bytes(), 200, -32602, json!(5)),
        (call(json!({ "name": "search_documentation", "arguments": ["Kirikur"] })).into_bytes(), 200, -32602, json!(5)),
        (call(json!({ "name": "search_documentation", "arguments": 5 })).into_bytes(), 200, -32602, json!(5)),
        (call(json!({ "name": "search_documentation", "arguments": true })).into_bytes(), 200, -32602, json!(5)),
    ];
    for (body, status, code, id) in cases {
        let shown = String::from_utf8_lossy(&body).chars().take(120).collect::<String>();
        let (got_status, msgs) = raw(&client, body).await?;
        assert_eq!(got_status, status, "{shown}: {msgs:?}");
        let error =
            msgs.iter().find(|m| m.get("error").is_some()).unwrap_or_else(|| panic!("{shown}: no error in {msgs:?}"));
        assert_eq!(error["error"]["code"], json!(code), "{shown}: {error}");
        assert_eq!(error["id"], id, "{shown}: {error}");
        assert!(error["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));
        still_serving(&mut client, &shown).await?;
    }

    // Arguments sent as a JSON string (or plain text) are repaired, not refused.
    for arguments in [json!("{\"query\": \"Kirikur\"}"), json!("Kirikur")] {
        let (status, msgs) =
            raw(&client, call(json!({ "name": "search_documentation", "arguments": arguments })).into_bytes()).await?;
        assert_eq!(status, 200);
        let result = &msgs.iter().find(|m| m["id"] == json!(5)).unwrap()["result"];
        assert_eq!(result["isError"], json!(false), "{result}");
        assert_eq!(answer(result)["results"][0]["path"], json!("legends/kirikur.md"));
    }
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}

#[tokio::test]
async fn wrong_types_and_unicode_edge_cases() -> anyhow::Result<()> {
    let config = load_fixture("gwt_unicode").await?;
    let server =
        vibe_gateway::spawn(&config, ServeOptions { host: "127.0.0.1".into(), port: 0, ..Default::default() }).await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-11-25").await?;

    // Wrong types of every argument: an answer, never a protocol error; a
    // code search whose query cannot be read says that it needs one.
    for args in [
        json!({ "query": 5, "limit": "ten", "target": ["samples"] }),
        json!({ "query": { "nested": "add" }, "limit": { "n": 3 }, "target": 7 }),
        json!({ "query": [1, "add", null, true], "limit": [], "target": false }),
        json!({ "query": null, "limit": null, "target": null, "extra": { "deep": [1, 2, 3] } }),
        json!({ "query": "add", "limit": -5 }),
        json!({ "query": "add", "limit": "1e400" }),
    ] {
        for tool in ["search_by_code_functions", "search_documentation", "show_stats", "show_tree"] {
            let r = client.call_tool(tool, args.clone()).await?;
            let needs_query = r["content"][0]["text"].as_str().is_some_and(|t| t.starts_with("`query` is required"));
            let expected = tool == "search_by_code_functions" && needs_query;
            assert_eq!(r["isError"], json!(expected), "{tool} {args}: {r}");
        }
    }
    for args in [
        json!({ "path": { "x": 1 } }),
        json!({ "path": 42 }),
        json!({ "path": ["a", "b"] }),
        json!({ "path": "calculator.py", "start_line": "abc", "end_line": [] }),
    ] {
        let r = client.call_tool("get_file_content", args.clone()).await?;
        let a = answer(&r);
        // Either a clean "path is required" error, or a normal (maybe empty) answer.
        assert!(r["isError"] == json!(true) && a["error"].is_string() || r["isError"] == json!(false), "{args}: {r}");
    }

    let edge_cases = [
        "مرحبا بالعالم",       // Arabic (RTL)
        "שלום עולם",           // Hebrew (RTL)
        "\u{202E}dda\u{202C}", // RTL override around "add"
        "\u{200F}add\u{200E}", // RTL/LTR marks
        "👩‍💻🧑🏽‍🚀🇺🇦",              // ZWJ sequences, skin tone, flag
        "add😀",
        "a\u{0000}d\u{0000}d", // NUL
        "\u{0000}",
        "\u{FEFF}add",                        // BOM
        "a\u{200B}dd",                        // zero-width space
        "e\u{0301}\u{0301}\u{0301}",          // stacked combining marks
        "𝕏𝔸𝕄𝕃 𐍈 𝄞",                           // astral planes (surrogate pairs in UTF-16)
        "\u{FFFF}\u{FFFE}\u{10FFFF}",         // noncharacters
        "\u{1F}\u{7F}\u{85}\u{2028}\u{2029}", // control and separator characters
        "ｆｕｌｌｗｉｄｔｈ ＡＤＤ",
        "Кто такой Бакобур? 基里库尔 Kirikur 🤖",
    ];
    let mut edge_names: Vec<String> = edge_cases.iter().map(|s| s.to_string()).collect();
    edge_names.push("\u{202E}noitatnemucod_hcraes".into());
    edge_names.push("ｓｅａｒｃｈ＿ｄｏｃｓ".into());
    edge_names.push("x".repeat(100_000));
    for text in edge_cases {
        for tool in ["search_documentation", "search_by_code_functions", "search_by_code_imports"] {
            let r = client.call_tool(tool, json!({ "query": text, "target": text })).await?;
            assert_eq!(r["isError"], json!(false), "{tool} {text:?}: {r}");
            assert_eq!(answer(&r)["query"], json!(text.trim()), "{tool} {text:?}: the query comes back intact");
        }
        for tool in ["get_file_content", "get_file_ast"] {
            // No indexed file has such a path: an error that says so (issue 59).
            let r = client.call_tool(tool, json!({ "path": text })).await?;
            assert_eq!(r["isError"], json!(true), "{tool} {text:?}: {r}");
            assert!(answer(&r)["error"].as_str().is_some_and(|e| e.starts_with("no indexed file matches")), "{r}");
        }
        // As an argument name.
        let r = client.call_tool("search_documentation", json!({ text: "x", "query": "Kirikur" })).await?;
        assert_eq!(answer(&r)["results"][0]["path"], json!("legends/kirikur.md"), "key {text:?}");
        still_serving(&mut client, text).await?;
    }
    for name in &edge_names {
        let r = client.call_tool(name, json!({ "query": "x" })).await?;
        assert_eq!(r["isError"], json!(true), "{name:?}: {r}");
        let text = r["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("unknown tool") && text.contains("Valid tools:"), "{text}");
        assert!(text.len() < 2000, "the name is not echoed in full");
    }
    // Stray characters around a tool name are separators: the name still resolves.
    for name in [
        "search_documentation\u{0000}",
        "search_documentation😀",
        "\u{FEFF}search_documentation",
        "search_documentation\u{200F}",
    ] {
        let r = client.call_tool(name, json!({ "query": "Kirikur" })).await?;
        assert_eq!(answer(&r)["results"][0]["path"], json!("legends/kirikur.md"), "{name:?}: {r}");
    }
    still_serving(&mut client, "edge-case tool names").await?;
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}
