//! OpenSearch stopped while the gateway runs: tool calls answer `isError`
//! "search backend unavailable", the server keeps serving (tools/list, new
//! sessions), and once OpenSearch is back the same session recovers by
//! itself. Uses a second node of its own (tests/opensearch/start.sh on
//! another port and home) so other tests are not disturbed.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::{answer, load_fixture_at, McpClient};
use serde_json::{json, Value};
use vibe_gateway::ServeOptions;

const PORT: &str = "9253";

fn home() -> PathBuf {
    std::env::temp_dir().join("vibe-os-gateway-restart")
}

fn node(cmd: &str) -> bool {
    Command::new("bash")
        .arg(crate::common::repo_root().join("tests/opensearch/start.sh"))
        .arg(cmd)
        .env("OPENSEARCH_PORT", PORT)
        .env("OPENSEARCH_TRANSPORT_PORT", "9553-9599")
        .env("OPENSEARCH_HEAP", "512m")
        .env("VIBE_OS_HOME", home())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

async fn node_async(cmd: &'static str) -> bool {
    tokio::task::spawn_blocking(move || node(cmd)).await.unwrap_or(false)
}

fn queries() -> Vec<(&'static str, Value)> {
    vec![
        ("search_documentation", json!({ "query": "Who is Kirikur?" })),
        ("search_by_code_functions", json!({ "query": "add", "target": "samples" })),
        ("show_projects", json!({})),
        ("get_file_content", json!({ "path": "calculator.py" })),
        ("show_stats", json!({})),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn backend_stopped_and_restarted_while_serving() -> anyhow::Result<()> {
    assert!(node_async("start").await, "second OpenSearch node did not start");
    let url = format!("http://127.0.0.1:{PORT}");
    let config = load_fixture_at("gwt_restart", &url).await?;
    let server =
        vibe_gateway::spawn(&config, ServeOptions { host: "127.0.0.1".into(), port: 0, ..Default::default() }).await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-11-25").await?;
    let healthy = client.answers(queries()).await?;

    // Stop the node: clean tool errors, fast, and the server stays up.
    assert!(node_async("stop").await, "node did not stop");
    for (tool, args) in queries() {
        let started = Instant::now();
        let r = client.call_tool(tool, args).await?;
        assert_eq!(r["isError"], json!(true), "{tool}: {r}");
        let text = r["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("search backend unavailable"), "{tool}: {text}");
        assert!(started.elapsed() < Duration::from_secs(5), "{tool} took {:?}", started.elapsed());
    }
    assert_eq!(client.list_tools().await?.len(), vibe_gateway::registry::definitions(false).len());
    let (mut second, _) = McpClient::connect(&server.url(), "2025-06-18").await?;
    let r = second.call_tool("search_docs", json!({ "q": "Kirikur" })).await?;
    assert!(r["content"][0]["text"].as_str().unwrap().starts_with("search backend unavailable"));
    let r = second.call_tool("delete_index", json!({})).await?;
    assert!(r["content"][0]["text"].as_str().unwrap().starts_with("unknown tool"));

    // Start it again: the same sessions recover without a gateway restart.
    assert!(node_async("start").await, "node did not restart");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let r = client.call_tool("search_documentation", json!({ "query": "Who is Kirikur?" })).await?;
        if r["isError"] == json!(false) && !answer(&r)["results"].as_array().is_none_or(Vec::is_empty) {
            break;
        }
        assert!(Instant::now() < deadline, "no recovery within 60 s: {r}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    for ((tool, args), expected) in queries().into_iter().zip(&healthy) {
        let r = client.call_tool(tool, args).await?;
        assert_eq!(r["isError"], json!(false), "{tool}: {r}");
        assert_eq!(&answer(&r), expected, "{tool}: the same answer as before the restart");
    }
    let r = second.call_tool("search_docs", json!({ "q": "Kirikur" })).await?;
    assert_eq!(answer(&r)["results"][0]["path"], json!("legends/kirikur.md"));

    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    node_async("stop").await;
    Ok(())
}
