//! The `tools/list` answer, byte for byte, against a checked-in snapshot
//! (`gateway/tests/fixtures/tools_list.json`), as rmcp's
//! `test_list_tools_result.rs` does. A changed name, description or schema
//! fails here, so every change to what a model reads is reviewed. After an
//! intended change, bless the snapshot:
//!
//! ```text
//! VIBE_BLESS=1 cargo test -p vibe-gateway --test it tools_list::
//! ```

use serde_json::{json, Value};
use vibe_gateway::ServeOptions;

use crate::common::{config, repo_root, McpClient};

/// Object keys in sorted order: the snapshot must not depend on whether a
/// workspace build turns on serde_json's `preserve_order`.
fn sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(sorted).collect()),
        other => other,
    }
}

#[tokio::test]
async fn tools_list_matches_the_snapshot() -> anyhow::Result<()> {
    // tools/list needs no backend: nothing listens on the discard port.
    let mut config = config("gwt_tools_list");
    config.opensearch.hosts = vec!["http://127.0.0.1:9".into()];
    // What a client gets by default: no outputSchema.
    config.mcp.typed_output = false;
    let server =
        vibe_gateway::spawn(&config, ServeOptions { host: "127.0.0.1".into(), port: 0, ..Default::default() }).await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-11-25").await?;
    let tools = Value::Array(client.list_tools().await?);
    let actual = serde_json::to_string_pretty(&sorted(json!({ "tools": tools })))? + "\n";
    let path = repo_root().join("gateway/tests/fixtures/tools_list.json");
    if std::env::var_os("VIBE_BLESS").is_some() {
        std::fs::write(&path, &actual)?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(&path)
        .map_err(|e| anyhow::anyhow!("{}: {e} (create it with VIBE_BLESS=1)", path.display()))?;
    if actual != expected {
        let first = actual.lines().zip(expected.lines()).position(|(a, e)| a != e).unwrap_or(0);
        panic!(
            "tools/list differs from {} at line {}:\n  actual:   {}\n  expected: {}\n\
             If the change is intended: VIBE_BLESS=1 cargo test -p vibe-gateway --test it tools_list::",
            path.display(),
            first + 1,
            actual.lines().nth(first).unwrap_or("<end>"),
            expected.lines().nth(first).unwrap_or("<end>"),
        );
    }
    Ok(())
}
