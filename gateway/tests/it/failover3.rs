//! A real three-node cluster (tests/opensearch/start.sh with OPENSEARCH_NODES=3):
//! the elected cluster manager is killed (SIGKILL) while MCP tool calls keep
//! coming. Not one call may fail, and each answers as before the kill; the
//! node is then restarted and the cluster must return to green with every
//! replica.
//!
//! Slow (three JVMs): `#[ignore]`d, run by bench/failover3.sh (alone:
//! `cargo test -p vibe-gateway --test it failover3 -- --ignored`).

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::json;
use vibe_common::search::Search;
use vibe_gateway::ServeOptions;

use crate::common::{answer, cluster_calls, load_fixture_at, repo_root, McpClient};

const NODES: u16 = 3;
const PREFIX: &str = "gwt_failover3";

fn port() -> u16 {
    std::env::var("VIBE_FAILOVER3_PORT").ok().and_then(|p| p.parse().ok()).unwrap_or(9270)
}

fn home() -> PathBuf {
    std::env::var_os("VIBE_FAILOVER3_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("vibe-os-failover3"))
}

fn cluster(cmd: &str) -> bool {
    Command::new("bash")
        .arg(repo_root().join("tests/opensearch/start.sh"))
        .arg(cmd)
        .env("OPENSEARCH_PORT", port().to_string())
        .env("OPENSEARCH_NODES", NODES.to_string())
        .env("OPENSEARCH_HEAP", std::env::var("OPENSEARCH_HEAP").unwrap_or_else(|_| "512m".into()))
        .env("VIBE_OS_HOME", home())
        .env("OPENSEARCH_FRESH", "0")
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// Kills the elected cluster manager; returns its name.
async fn kill_manager(search: &Search) -> anyhow::Result<String> {
    let manager = search.get("/_cat/cluster_manager?format=json").await?;
    let name = manager[0]["node"].as_str().unwrap_or_default().to_string();
    let i: u16 = name.trim_start_matches("vibe-node-").parse()?;
    let pid = std::fs::read_to_string(home().join(format!("node-{}.pid", port() + i - 1)))?;
    assert!(Command::new("kill").args(["-9", pid.trim()]).status()?.success());
    eprintln!("failover3: killed the cluster manager {name}");
    Ok(name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "three OpenSearch nodes: bench/failover3.sh"]
async fn the_manager_killed_mid_queries_costs_no_failed_call() -> anyhow::Result<()> {
    assert!(tokio::task::spawn_blocking(|| cluster("start")).await?, "the three-node cluster did not start");
    let hosts: Vec<String> = (port()..port() + NODES).map(|p| format!("http://127.0.0.1:{p}")).collect();
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
    assert!(tokio::task::spawn_blocking(|| cluster("start")).await?, "the node did not rejoin");
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
