//! A real two-node cluster (tests/opensearch/start.sh with OPENSEARCH_NODES=2,
//! on ports of its own): the index templates give every index a replica, the
//! gateway knows both nodes, and one node is killed (SIGKILL) while tool
//! calls keep coming. Not one call may fail: the client skips the dead node
//! and the live node serves every shard from its copies.

use std::time::{Duration, Instant};

use serde_json::json;
use vibe_common::backend::search::Search;
use vibe_gateway::ServeOptions;

use crate::common::{answer, cluster_calls, load_fixture_at, McpClient};
use crate::test_cluster::TestCluster;

const PORT: u16 = 9260;

/// Two nodes of their own, wiped at each start.
fn two_nodes() -> TestCluster {
    TestCluster::new(PORT, 2, "vibe-os-gateway-cluster")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_killed_mid_queries_costs_no_failed_call() -> anyhow::Result<()> {
    assert!(
        tokio::task::spawn_blocking(|| two_nodes().run("start", true)).await?,
        "the two-node cluster did not start"
    );
    let hosts = two_nodes().hosts();
    let mut config = load_fixture_at("gwt_cluster", &hosts[0]).await?;
    config.opensearch.hosts = hosts;
    let search = Search::new(&config.opensearch)?;
    let health = search.get("/_cluster/health?wait_for_status=green&timeout=120s").await?;
    assert_eq!((health["status"].as_str(), health["number_of_nodes"].as_u64()), (Some("green"), Some(2)), "{health}");
    let replicas =
        search.get("/gwt_cluster_data_*/_settings?filter_path=*.settings.index.auto_expand_replicas").await?;
    assert!(replicas.to_string().contains("0-1"), "indices get a replica on two nodes: {replicas}");

    let server =
        vibe_gateway::spawn(&config, ServeOptions { host: "127.0.0.1".into(), port: 0, ..Default::default() }).await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-11-25").await?;
    let expected = client.answers(cluster_calls()).await?;

    // Kill the second node while calls keep coming, and go on for a while.
    let (mut done, mut killed_at) = (0, None);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(12) {
        for ((tool, args), before) in cluster_calls().into_iter().zip(&expected) {
            let r = client.call_tool(tool, args).await?;
            assert_eq!(r["isError"], json!(false), "{tool} after {done} calls (node killed: {killed_at:?}): {r}");
            if tool != "show_stats" {
                assert_eq!(&answer(&r), before, "{tool}: the same answer with one node");
            }
            done += 1;
            if done == 10 {
                two_nodes().kill(PORT + 1);
                killed_at = Some(done);
            }
        }
    }
    assert!(killed_at.is_some() && done > 30, "{done} calls");
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    assert!(tokio::task::spawn_blocking(|| two_nodes().run("stop", false)).await?, "the cluster did not stop");
    Ok(())
}
