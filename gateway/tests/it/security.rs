//! Security of the HTTP side: the optional bearer token (401 and no data
//! without it, the environment variable winning over the config), Origin
//! checks with a token, files read only from the index (`../../etc/passwd`
//! finds nothing), and bounded requests (body size, query length, limit).
//! The Python tests (tests/mcp/test_security.py) check token and Origin with
//! the official MCP SDK.

use crate::common::{answer, load_fixture, McpClient};
use serde_json::{json, Value};
use vibe_gateway::http::MAX_BODY_BYTES;
use vibe_gateway::normalize::{MAX_LIMIT, MAX_QUERY_CHARS};
use vibe_gateway::ServeOptions;

const TOKEN: &str = "t0ken-with-ünïcode-and-längth-42";

fn opts() -> ServeOptions {
    ServeOptions { host: "127.0.0.1".into(), port: 0, ..Default::default() }
}

fn initialize() -> String {
    json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } })
    .to_string()
}

async fn post(
    url: &str,
    headers: &[(&str, &str)],
    body: String,
) -> anyhow::Result<(u16, reqwest::header::HeaderMap, String)> {
    let mut req = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let r = req.send().await?;
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    Ok((status, headers, r.text().await?))
}

/// A server bound beyond loopback with a token answers requests addressed to
/// any of the machine's names (Open WebUI in Docker asks for
/// `host.docker.internal`); without a token the Host list still applies.
#[tokio::test]
async fn a_public_server_with_a_token_accepts_any_host_name() -> anyhow::Result<()> {
    let mut config = load_fixture("gwt_public").await?;
    let public = ServeOptions { host: "0.0.0.0".into(), port: 0, ..Default::default() };
    let bearer = format!("Bearer {TOKEN}");
    config.mcp.token = Some(TOKEN.into());
    let server = vibe_gateway::spawn(&config, public.clone()).await?;
    let url = format!("http://127.0.0.1:{}/mcp", server.addr.port());
    let host = format!("host.docker.internal:{}", server.addr.port());
    let (status, _, body) = post(&url, &[("host", &host), ("authorization", &bearer)], initialize()).await?;
    assert_eq!(status, 200, "{body}");
    let (status, _, _) = post(&url, &[("host", &host)], initialize()).await?;
    assert_eq!(status, 401, "the token is still required");
    server.shutdown().await?;

    config.mcp.token = None;
    let server = vibe_gateway::spawn(&config, public).await?;
    let url = format!("http://127.0.0.1:{}/mcp", server.addr.port());
    let host = format!("host.docker.internal:{}", server.addr.port());
    let (status, _, _) = post(&url, &[("host", &host)], initialize()).await?;
    assert_ne!(status, 200, "without a token an unknown Host is refused");
    let (status, _, body) = post(&url, &[], initialize()).await?;
    assert_eq!(status, 200, "{body}");
    server.shutdown().await?;
    Ok(())
}

#[tokio::test]
async fn bearer_token_is_required_when_set() -> anyhow::Result<()> {
    let mut config = load_fixture("gwt_token").await?;
    config.mcp.token = Some(TOKEN.into());
    let server = vibe_gateway::spawn(&config, opts()).await?;
    let url = server.url();
    let bearer = format!("Bearer {TOKEN}");

    // The right token: a full session works.
    let (mut client, _) = McpClient::connect_with_headers(&url, "2025-11-25", &[("authorization", &bearer)]).await?;
    let r = client.call_tool("show_projects", json!({})).await?;
    assert_eq!(answer(&r)["total"], json!(2));
    let session = client.session.clone().unwrap();

    // Without it, or with anything else: 401, a WWW-Authenticate challenge and no data.
    let wrong_prefix = format!("Bearer {}", &TOKEN[..TOKEN.len() - 1]);
    let longer = format!("{bearer}x");
    let basic = format!("Basic {TOKEN}");
    let lower = format!("bearer {TOKEN}");
    for auth in [
        None,
        Some("Bearer"),
        Some("Bearer wrong"),
        Some(wrong_prefix.as_str()),
        Some(longer.as_str()),
        Some(basic.as_str()),
        Some(TOKEN),
    ] {
        let mut headers = vec![];
        if let Some(a) = auth {
            headers.push(("authorization", a));
        }
        let (status, h, body) = post(&url, &headers, initialize()).await?;
        assert_eq!(status, 401, "{auth:?}: {body}");
        assert!(h["www-authenticate"].to_str()?.starts_with("Bearer"), "{auth:?}");
        assert!(!body.contains("\"result\"") && !body.contains("vibe-analyzer\""), "{auth:?}: {body}");
        // An existing session id does not get around the token either.
        let mut with_session = headers.clone();
        with_session.push(("mcp-session-id", session.as_str()));
        with_session.push(("mcp-protocol-version", "2025-11-25"));
        let call = json!({ "jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": { "name": "show_projects", "arguments": {} } });
        let (status, _, body) = post(&url, &with_session, call.to_string()).await?;
        assert_eq!(status, 401, "{auth:?}: {body}");
        assert!(!body.contains("samples"), "{body}");
    }
    // The scheme is case-insensitive.
    assert_eq!(post(&url, &[("authorization", &lower)], initialize()).await?.0, 200);
    // GET (the SSE stream) and DELETE (end of session) need it too.
    let http = reqwest::Client::new();
    let get = http.get(&url).header("accept", "text/event-stream").header("mcp-session-id", &session).send().await?;
    assert_eq!(get.status(), 401);
    let delete = http.delete(&url).header("mcp-session-id", &session).send().await?;
    assert_eq!(delete.status(), 401);
    // A CORS preflight carries no credentials and is answered, so a browser can send the token.
    let pre = http
        .request(reqwest::Method::OPTIONS, &url)
        .header("origin", "http://localhost:3000")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "authorization,content-type")
        .send()
        .await?;
    assert!(pre.status().is_success(), "{}", pre.status());
    assert!(pre.headers()["access-control-allow-headers"].to_str()?.to_ascii_lowercase().contains("authorization"));
    // No OAuth here: discovery paths are a plain 404, not a 401 that starts an OAuth flow.
    let base = format!("http://{}", server.addr);
    for path in ["/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server", "/register"] {
        assert_eq!(http.get(format!("{base}{path}")).send().await?.status(), 404, "{path}");
    }
    // The token does not lift the Origin check.
    let (status, _, _) =
        post(&url, &[("authorization", &bearer), ("origin", "https://evil.example")], initialize()).await?;
    assert_eq!(status, 403);
    let (status, _, _) =
        post(&url, &[("authorization", &bearer), ("origin", "http://localhost:3000")], initialize()).await?;
    assert_eq!(status, 200);
    // The session still works after all that.
    assert_eq!(answer(&client.call_tool("show_projects", json!({})).await?)["total"], json!(2));
    server.shutdown().await?;

    // VIBE_MCP_TOKEN wins over mcp.token.
    let mut env_config = config.clone();
    env_config.apply_overrides_from(|name| (name == "VIBE_MCP_TOKEN").then(|| " env-token ".to_string()));
    let server = vibe_gateway::spawn(&env_config, opts()).await?;
    assert_eq!(post(&server.url(), &[("authorization", &bearer)], initialize()).await?.0, 401);
    assert_eq!(post(&server.url(), &[("authorization", "Bearer env-token")], initialize()).await?.0, 200);
    server.shutdown().await?;

    // No token configured (or an empty one): no authentication.
    for token in [None, Some(String::new())] {
        let mut open = config.clone();
        open.mcp.token = token;
        let server = vibe_gateway::spawn(&open, opts()).await?;
        assert_eq!(post(&server.url(), &[], initialize()).await?.0, 200);
        server.shutdown().await?;
    }
    crate::common::cleanup(&config).await;
    Ok(())
}

#[tokio::test]
async fn files_are_read_only_from_the_index() -> anyhow::Result<()> {
    let config = load_fixture("gwt_paths").await?;
    let server = vibe_gateway::spawn(&config, opts()).await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-11-25").await?;
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    for path in [
        "../../etc/passwd",
        "/etc/passwd",
        "..\\..\\etc\\passwd",
        "../../../../../../../../etc/passwd",
        "%2e%2e/%2e%2e/etc/passwd",
        "calculator.py/../../../../etc/passwd",
        "~/.ssh/id_rsa",
        "file:///etc/passwd",
        "/proc/self/environ",
    ] {
        for target in [None, Some("samples")] {
            let mut args = json!({ "path": path });
            if let Some(t) = target {
                args["target"] = json!(t);
            }
            for tool in ["get_file_content", "get_file_ast"] {
                let r = client.call_tool(tool, args.clone()).await?;
                let a = answer(&r);
                // Only indexed files are read: a path outside is a file no index holds.
                assert_eq!(r["isError"], json!(true), "{tool} {path}: {r}");
                assert!(
                    a["error"].as_str().is_some_and(|e| e.contains("no indexed file matches")),
                    "{tool} {path}: {a}"
                );
                let text = r["content"][0]["text"].as_str().unwrap();
                assert!(!text.contains("root:x:0:0"), "{tool} {path}: {text}");
                if !passwd.is_empty() {
                    assert!(!text.contains(passwd.lines().next().unwrap()), "{text}");
                }
            }
        }
    }
    // An indexed file is still found.
    let r = client.call_tool("get_file_content", json!({ "path": "calculator.py" })).await?;
    assert!(answer(&r)["content"].as_str().unwrap().contains("def add"), "{r}");
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}

#[tokio::test]
async fn requests_are_bounded() -> anyhow::Result<()> {
    let config = load_fixture("gwt_bounds").await?;
    let server = vibe_gateway::spawn(&config, opts()).await?;
    let url = server.url();
    let (mut client, _) = McpClient::connect(&url, "2025-11-25").await?;

    // A 1 MB query: answered, the query cut to MAX_QUERY_CHARS characters.
    let r = client
        .call_tool("search_by_code_functions", json!({ "query": format!("add{}", "x".repeat(1_000_000)) }))
        .await?;
    assert_eq!(r["isError"], json!(false), "{}", r.to_string().chars().take(300).collect::<String>());
    assert_eq!(answer(&r)["query"].as_str().unwrap().chars().count(), MAX_QUERY_CHARS);
    let r = client.call_tool("search_documentation", json!({ "query": "基".repeat(300_000) })).await?;
    assert_eq!(r["isError"], json!(false));
    assert_eq!(answer(&r)["query"].as_str().unwrap().chars().count(), MAX_QUERY_CHARS);

    // A body over the limit: 413 with a JSON-RPC error, and the session goes on.
    let big = json!({ "jsonrpc": "2.0", "id": 77, "method": "tools/call",
        "params": { "name": "search_documentation", "arguments": { "query": "x".repeat(MAX_BODY_BYTES + 1) } } });
    let resp = client
        .http
        .post(&url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-session-id", client.session.clone().unwrap())
        .header("mcp-protocol-version", client.protocol.clone())
        .body(big.to_string())
        .send()
        .await?;
    assert_eq!(resp.status(), 413);
    let body: Value = resp.json().await?;
    assert_eq!(body["error"]["code"], json!(-32600));

    // Limits: over-large and "all" give at most MAX_LIMIT results.
    for limit in [json!(1000), json!("all"), json!("99999999999999999999"), json!(1e308)] {
        let r = client.call_tool("search_by_code_functions", json!({ "query": "*", "limit": limit })).await?;
        let n = answer(&r)["results"].as_array().unwrap().len();
        assert!(n <= MAX_LIMIT as usize && n > 3, "{limit}: {n} results");
    }
    assert_eq!(answer(&client.call_tool("show_projects", json!({})).await?)["total"], json!(2));
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}
