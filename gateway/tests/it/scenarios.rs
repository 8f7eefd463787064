//! Every scenario of tests/mcp/scenarios, through a real MCP session against
//! the gateway, over fixture documents in a real OpenSearch.

use crate::common::{answer, check, load_fixture, scenarios, McpClient};
use vibe_gateway::ServeOptions;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scenarios_pass() -> anyhow::Result<()> {
    let config = load_fixture("gwt_scen").await?;
    let server =
        vibe_gateway::spawn(&config, ServeOptions { host: "127.0.0.1".into(), port: 0, ..Default::default() }).await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-06-18").await?;
    let mut failures = Vec::new();
    let cases = scenarios();
    assert!(cases.len() > 50, "scenario files are read");
    for case in &cases {
        let result = client.call_tool(&case.tool, case.args.clone()).await?;
        let is_error = result["isError"].as_bool().unwrap_or(false);
        let problems = check(&case.expect, &answer(&result), is_error);
        if !problems.is_empty() {
            failures.push(format!("{}#{} {}: {}", case.tool, case.index, case.args, problems.join("; ")));
        }
    }
    server.shutdown().await?;
    if failures.is_empty() {
        crate::common::cleanup(&config).await;
    }
    assert!(failures.is_empty(), "{} of {} scenarios failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
    Ok(())
}
