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

/// The passes after an exact miss (other kinds, typo-tolerant, words) run
/// as one `_msearch/template`: its answers come in order, and with the
/// stored template gone it installs the templates and answers, as a single
/// search does. Through MCP, a typo and another kind still answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn later_passes_run_together_and_reinstall_missing_templates() -> anyhow::Result<()> {
    use serde_json::json;
    use vibe_gateway::params::{code, Pass};
    let config = load_fixture("gwt_passes").await?;
    let search = vibe_common::search::Search::new(&config.opensearch)?;
    let id = vibe_common::templates::search_template_id(&search.names, "search_code_symbols");
    search.delete(&format!("/_scripts/{id}")).await?;
    let backend = vibe_gateway::backend::Backend::new(search.clone());
    let index = search.names.all_ast();
    let tool = "search_by_code_functions";
    let runs: Vec<_> = [Pass::Fuzzy, Pass::Words].into_iter().map(|p| code(tool, "calculte", 5, 0, p)).collect();
    let responses = backend.run_many("search_code_symbols", &index, &runs).await?;
    assert_eq!(responses.len(), 2);
    assert!(responses[0]["hits"]["hits"].as_array().is_some_and(|h| !h.is_empty()), "fuzzy finds calculate");
    assert!(search.get_opt(&format!("/_scripts/{id}")).await?.is_some(), "reinstalled");

    let server =
        vibe_gateway::spawn(&config, ServeOptions { host: "127.0.0.1".into(), port: 0, ..Default::default() }).await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-06-18").await?;
    let typo = answer(&client.call_tool(tool, json!({ "query": "calculte" })).await?);
    assert!(typo["note"].as_str().unwrap_or_default().contains("typo-tolerant"), "{typo}");
    let other = answer(&client.call_tool("search_by_code_classes", json!({ "query": "calculate" })).await?);
    assert!(other["note"].as_str().unwrap_or_default().contains("other kinds"), "{other}");
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}
