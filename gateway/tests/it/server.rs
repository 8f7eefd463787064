//! The MCP server itself: identity, instructions, protocol versions, the tool
//! list, Host/Origin validation, CORS, a backend that is down, and MCP
//! 2026-07-28 (stateless) beside the `initialize` handshake.

use crate::common::{answer, config, load_fixture, McpClient};
use serde_json::{json, Value};
use vibe_common::config::McpProtocol;
use vibe_gateway::ServeOptions;

fn opts() -> ServeOptions {
    ServeOptions { host: "127.0.0.1".into(), port: 0, ..Default::default() }
}

#[tokio::test]
async fn tool_list_identity_and_protocol_versions() -> anyhow::Result<()> {
    let config = load_fixture("gwt_srv").await?;
    let server = vibe_gateway::spawn(&config, opts()).await?;
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] {
        let (mut client, init) = McpClient::connect(&server.url(), version).await?;
        assert_eq!(init["protocolVersion"], json!(version), "{version} is negotiated as is");
        assert_eq!(init["serverInfo"]["name"], json!("vibe-analyzer"));
        assert_eq!(init["serverInfo"]["version"], json!(env!("CARGO_PKG_VERSION")));
        let instructions = init["instructions"].as_str().unwrap();
        assert!(
            instructions.contains("get_file_content (path and start_line)")
                && instructions.contains("only the tools listed")
                && !instructions.contains("One call is enough"),
            "{instructions}"
        );
        assert!(init["capabilities"]["tools"].is_object());

        let tools = client.list_tools().await?;
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(
            names,
            vec![
                "admin_sync",
                "get_file_content",
                "get_file_ast",
                "show_projects",
                "show_stats",
                "show_tree",
                "search_by_code_imports",
                "search_by_code_functions",
                "search_by_code_classes",
                "search_by_code_variables",
                "search_code_text",
                "find_references",
                "search_documentation"
            ]
        );
        for t in &tools {
            let read_only = t["annotations"]["readOnlyHint"].as_bool();
            if t["name"] == "admin_sync" {
                assert_eq!(read_only, Some(false));
            } else {
                assert_eq!(read_only, Some(true), "{}", t["name"]);
            }
            assert_eq!(t["inputSchema"]["type"], json!("object"));
            assert!(t["description"].as_str().unwrap().len() > 20);
        }
        // The text is written for a model; the structured content is the typed answer.
        let r = client.call_tool("show_projects", json!({})).await?;
        let text = r["content"][0]["text"].as_str().unwrap();
        assert!(serde_json::from_str::<Value>(text).is_err(), "plain text, not JSON: {text}");
        assert_eq!(r["structuredContent"]["total"], json!(2));
        for p in r["structuredContent"]["projects"].as_array().unwrap() {
            assert!(text.contains(p["name"].as_str().unwrap()), "{text}");
        }
    }
    // An unknown version falls back to the newest supported one.
    let (_, init) = McpClient::connect(&server.url(), "2099-01-01").await?;
    assert_eq!(init["protocolVersion"], json!("2025-11-25"));
    server.shutdown().await?;

    // A pinned version is the only one offered.
    let mut pinned = config.clone();
    pinned.mcp.protocol = McpProtocol::V2025_03_26;
    // `mcp.answer_format: "json"`: the text is the structured content as JSON.
    pinned.mcp.answer_format = vibe_common::config::AnswerFormat::Json;
    let server = vibe_gateway::spawn(&pinned, opts()).await?;
    let (mut client, init) = McpClient::connect(&server.url(), "2025-11-25").await?;
    assert_eq!(init["protocolVersion"], json!("2025-03-26"));
    let r = client.call_tool("show_projects", json!({})).await?;
    let text: Value = serde_json::from_str(r["content"][0]["text"].as_str().unwrap())?;
    assert_eq!(text, r["structuredContent"]);
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}

#[tokio::test]
async fn endpoint_at_root_and_mcp() -> anyhow::Result<()> {
    let config = load_fixture("gwt_root").await?;
    let server = vibe_gateway::spawn(&config, opts()).await?;
    for url in [format!("http://{}", server.addr), format!("http://{}/", server.addr), server.url()] {
        let (mut client, _) = McpClient::connect(&url, "2025-06-18").await?;
        let r = client.call_tool("show_stats", json!({ "target": "samples" })).await?;
        assert_eq!(answer(&r)["total"]["files"], json!(15), "{url}");
    }
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}

async fn post_init(url: &str, headers: &[(&str, &str)]) -> anyhow::Result<reqwest::Response> {
    let mut req = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(
            json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } })
            .to_string(),
        );
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    Ok(req.send().await?)
}

#[tokio::test]
async fn host_and_origin_validation_and_cors() -> anyhow::Result<()> {
    let mut config = config("gwt_origin");
    config.mcp.allowed_hosts = vec!["host.docker.internal".into()];
    config.mcp.allowed_origins = vec!["https://webui.example:443".into()];
    let server = vibe_gateway::spawn(&config, opts()).await?;
    let url = server.url();
    let port = server.addr.port();

    // Loopback, configured hosts and origins pass.
    assert_eq!(post_init(&url, &[]).await?.status(), 200);
    assert_eq!(post_init(&url, &[("origin", "http://localhost:6274")]).await?.status(), 200);
    assert_eq!(post_init(&url, &[("origin", "https://webui.example")]).await?.status(), 200);
    let docker_host = format!("host.docker.internal:{port}");
    assert_eq!(post_init(&url, &[("host", docker_host.as_str())]).await?.status(), 200);

    // A foreign Origin or Host is refused with 403 (DNS rebinding).
    assert_eq!(post_init(&url, &[("origin", "https://evil.example")]).await?.status(), 403);
    assert_eq!(post_init(&url, &[("origin", "http://localhost.evil.example:6274")]).await?.status(), 403);
    let evil_host = format!("evil.example:{port}");
    assert_eq!(post_init(&url, &[("host", evil_host.as_str())]).await?.status(), 403);

    // CORS: a preflight from an allowed origin is answered and exposes the session header.
    let pre = reqwest::Client::new()
        .request(reqwest::Method::OPTIONS, &url)
        .header("origin", "http://localhost:6274")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type,mcp-session-id,mcp-protocol-version")
        .send()
        .await?;
    assert!(pre.status().is_success(), "{}", pre.status());
    assert_eq!(pre.headers()["access-control-allow-origin"], "http://localhost:6274");
    let allowed = pre.headers()["access-control-allow-headers"].to_str()?.to_ascii_lowercase();
    assert!(allowed.contains("mcp-session-id"), "{allowed}");
    let r = post_init(&url, &[("origin", "http://localhost:6274")]).await?;
    let exposed = r.headers()["access-control-expose-headers"].to_str()?.to_ascii_lowercase();
    assert!(exposed.contains("mcp-session-id"), "{exposed}");
    assert!(r.headers().contains_key("mcp-session-id"));
    // No CORS grant for a foreign origin.
    let pre = reqwest::Client::new()
        .request(reqwest::Method::OPTIONS, &url)
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "POST")
        .send()
        .await?;
    assert!(!pre.headers().contains_key("access-control-allow-origin"));
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}

#[tokio::test]
async fn backend_down_is_a_tool_error_not_a_crash() -> anyhow::Result<()> {
    let mut config = config("gwt_down");
    config.opensearch.hosts = vec!["http://127.0.0.1:9".into()]; // discard port: nothing listens
    let server = vibe_gateway::spawn(&config, opts()).await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-11-25").await?;
    for (tool, args) in [
        ("search_documentation", json!({ "query": "Kirikur" })),
        ("search_by_code_functions", json!({ "query": "add", "target": "samples" })),
        ("show_projects", json!({})),
        ("get_file_content", json!({ "path": "a.rs" })),
    ] {
        let r = client.call_tool(tool, args).await?;
        assert_eq!(r["isError"], json!(true), "{tool}: {r}");
        let text = r["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("search backend unavailable: "), "{tool}: {text}");
    }
    // Still serving.
    assert_eq!(client.list_tools().await?.len(), vibe_gateway::registry::definitions(false).len());
    // An unknown tool is an isError result naming the valid tools.
    let r = client.call_tool("delete_project", json!({})).await?;
    assert_eq!(r["isError"], json!(true));
    assert!(r["content"][0]["text"].as_str().unwrap().contains("search_documentation"));
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}

/// One stateless request of MCP 2026-07-28: `_meta` and the routing headers.
async fn post_2026(url: &str, method: &str, params: Value) -> anyhow::Result<(u16, Value)> {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let mut req = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method);
    if let Some(name) = params["name"].as_str() {
        req = req.header("mcp-name", name);
    }
    let body = json!({ "jsonrpc": "2.0", "id": 3, "method": method, "params": params });
    let response = req.body(body.to_string()).send().await?;
    assert!(response.headers().get("mcp-session-id").is_none(), "no session in 2026-07-28");
    Ok((response.status().as_u16(), response.json().await?))
}

#[tokio::test]
async fn stateless_2026_07_28_beside_initialize() -> anyhow::Result<()> {
    let config = load_fixture("gwt_2026").await?;
    let server = vibe_gateway::spawn(&config, opts()).await?;
    let (status, discovered) = post_2026(&server.url(), "server/discover", json!({})).await?;
    assert_eq!(status, 200, "{discovered}");
    let versions = json!(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]);
    assert_eq!(discovered["result"]["supportedVersions"], versions);
    assert_eq!(discovered["result"]["resultType"], json!("complete"));
    let (status, called) = post_2026(&server.url(), "tools/call", json!({ "name": "show_projects" })).await?;
    assert_eq!(status, 200, "{called}");
    assert_eq!(called["result"]["resultType"], json!("complete"));
    assert_eq!(called["result"]["structuredContent"]["total"], json!(2));
    // An old client's handshake on the same endpoint.
    let (_, init) = McpClient::connect(&server.url(), "2025-11-25").await?;
    assert_eq!(init["protocolVersion"], json!("2025-11-25"));
    server.shutdown().await?;

    // Pinned to one handshake version, the server refuses 2026-07-28 naming it.
    let mut pinned = config.clone();
    pinned.mcp.protocol = McpProtocol::V2025_03_26;
    let server = vibe_gateway::spawn(&pinned, opts()).await?;
    let (status, refused) = post_2026(&server.url(), "server/discover", json!({})).await?;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["error"]["code"], json!(-32022));
    assert_eq!(refused["error"]["data"], json!({ "supported": ["2025-03-26"], "requested": "2026-07-28" }));
    assert!(refused["error"]["message"].as_str().unwrap().contains("speaks 2025-03-26"), "{refused}");
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}
