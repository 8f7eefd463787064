//! A real three-node cluster (tests/opensearch/start.sh with OPENSEARCH_NODES=3):
//! the elected cluster manager is killed (SIGKILL) while MCP tool calls keep
//! coming. Not one call may fail, and each answers as before the kill; the
//! node is then restarted and the cluster must return to green with every
//! replica.
//!
//! Slow (three JVMs): `#[ignore]`d, run by bench/failover3.sh (alone:
//! `cargo test -p vibe-gateway --test it failover3 -- --ignored`).

use std::time::{Duration, Instant};

use serde_json::json;
use vibe_common::backend::search::Search;
use vibe_gateway::ServeOptions;

use crate::common::{answer, cluster_calls, load_fixture_at, McpClient};
use crate::test_cluster::TestCluster;

const PREFIX: &str = "gwt_failover3";

/// Kills the elected cluster manager; returns its name.
async fn kill_manager(search: &Search) -> anyhow::Result<String> {
    let manager = search.get("/_cat/cluster_manager?format=json").await?;
    let name = manager[0]["node"].as_str().unwrap_or_default().to_string();
    let port = TestCluster::three_nodes().port_of(&name).expect("start.sh names nodes vibe-node-<i>");
    tokio::task::spawn_blocking(move || TestCluster::three_nodes().kill(port)).await?;
    eprintln!("failover3: killed the cluster manager {name}");
    Ok(name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "three OpenSearch nodes: bench/failover3.sh"]
async fn the_manager_killed_mid_queries_costs_no_failed_call() -> anyhow::Result<()> {
    assert!(
        tokio::task::spawn_blocking(|| TestCluster::three_nodes().run("start", false)).await?,
        "the three-node cluster did not start"
    );
    let hosts = TestCluster::three_nodes().hosts();
    let mut config = load_fixture_at(PREFIX, &hosts[0]).await?;
    config.opensearch.hosts = hosts;
    let search = Search::new(&config.opensearch)?;
    let health = search.get("/_cluster/health?wait_for_status=green&timeout=120s").await?;
    assert_eq!(health["status"], "green", "{health}");

    let server =
        vibe_gateway::spawn(&config, ServeOptions { host: "127.0.0.1".into(), port: 0, ..Default::default() }).await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-11-25").await?;
    let expected = client.answers(cluster_calls()).await?;

    let (mut done, mut failed, mut slowest, mut killed) = (0u32, 0u32, Duration::ZERO, None);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        for ((tool, args), before) in cluster_calls().into_iter().zip(&expected) {
            let t = Instant::now();
            let r = client.call_tool(tool, args).await;
            let took = t.elapsed();
            match r {
                Ok(r) if r["isError"] == json!(false) => {
                    if tool != "show_stats" {
                        assert_eq!(&answer(&r), before, "{tool}: the same answer with a node down");
                    }
                }
                other => {
                    failed += 1;
                    eprintln!("failover3: {tool} failed after {done} calls: {other:?}");
                }
            }
            if killed.is_some() {
                slowest = slowest.max(took);
            }
            done += 1;
            if done == 20 {
                killed = Some(kill_manager(&search).await?);
            }
        }
    }
    eprintln!(
        "failover3: MCP: {done} calls in {:.0} s, {failed} failed, slowest after the kill {} ms",
        start.elapsed().as_secs_f64(),
        slowest.as_millis()
    );
    assert_eq!(failed, 0, "every call answers while a new manager is elected");
    assert!(killed.is_some() && done > 60, "{done} calls");
    server.shutdown().await?;

    // The node comes back: green, one replica per primary.
    assert!(
        tokio::task::spawn_blocking(|| TestCluster::three_nodes().run("start", false)).await?,
        "the node did not rejoin"
    );
    let health = search
        .get("/_cluster/health?wait_for_status=green&wait_for_nodes=3&wait_for_no_relocating_shards=true&timeout=180s")
        .await?;
    assert_eq!(health["status"], "green", "{health}");
    let shards = search.get(&format!("/_cat/shards/{PREFIX}_*?format=json&h=index,prirep,state")).await?;
    let shards = shards.as_array().cloned().unwrap_or_default();
    let replicas = shards.iter().filter(|s| s["prirep"] == "r" && s["state"] == "STARTED").count();
    assert!(replicas > 0 && replicas * 2 == shards.len(), "one started replica per primary: {shards:?}");
    crate::common::cleanup(&config).await;
    Ok(())
}
