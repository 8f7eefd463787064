//! `admin_sync` starts one background run at a time and never blocks queries.

use std::time::{Duration, Instant};

use crate::common::{answer, load_fixture, McpClient};
use serde_json::json;
use vibe_gateway::ServeOptions;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_sync_races_with_queries() -> anyhow::Result<()> {
    let config = load_fixture("gwt_sync").await?;
    let dir = tempfile::tempdir()?;
    let marker = dir.path().join("runs");
    // Stands in for `vibe-analyzer scan index`: records the run, takes 2 s.
    let command = vec!["sh".to_string(), "-c".to_string(), format!("echo run >> '{}'; sleep 2", marker.display())];
    let server = vibe_gateway::spawn(
        &config,
        ServeOptions {
            host: "127.0.0.1".into(),
            port: 0,
            config_dir: Some(dir.path().to_path_buf()),
            sync_command: Some(command),
        },
    )
    .await?;
    let url = server.url();

    // Many clients call admin_sync at the same moment as queries run.
    let mut tasks = Vec::new();
    for i in 0..8 {
        let url = url.clone();
        tasks.push(tokio::spawn(async move {
            let (mut c, _) = McpClient::connect(&url, "2025-06-18").await?;
            let started = Instant::now();
            let r = c.call_tool("admin_sync", json!({})).await?;
            let sync = answer(&r)["result"].as_str().unwrap_or_default().to_string();
            anyhow::ensure!(started.elapsed() < Duration::from_secs(1), "admin_sync blocked");
            let mut slowest = Duration::ZERO;
            for q in 0..5 {
                let t = Instant::now();
                let (tool, args) = if (i + q) % 2 == 0 {
                    ("search_by_code_functions", json!({ "query": "add" }))
                } else {
                    ("search_documentation", json!({ "query": "Who is Kirikur?" }))
                };
                let r = c.call_tool(tool, args).await?;
                anyhow::ensure!(r["isError"] == json!(false), "{tool}: {r}");
                anyhow::ensure!(
                    !answer(&r)["results"].as_array().unwrap().is_empty(),
                    "{tool}: no results during sync"
                );
                slowest = slowest.max(t.elapsed());
            }
            Ok::<_, anyhow::Error>((sync, slowest))
        }));
    }
    let mut started = 0;
    let mut already = 0;
    for t in tasks {
        let (sync, slowest) = t.await??;
        match sync.as_str() {
            "Started" => started += 1,
            "AlreadyRunning" => already += 1,
            other => panic!("unexpected admin_sync result {other:?}"),
        }
        assert!(slowest < Duration::from_secs(1), "a query took {slowest:?} during the sync");
    }
    assert_eq!((started, already), (1, 7), "exactly one run starts");
    assert!(server.gateway.sync_runner().is_running().await);

    // After the run ends, a new one can start.
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.gateway.sync_runner().is_running().await {
        assert!(Instant::now() < deadline, "the run did not end");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (mut c, _) = McpClient::connect(&url, "2025-11-25").await?;
    let r = c.call_tool("admin_sync", json!({})).await?;
    assert_eq!(answer(&r), json!({ "result": "Started", "message": "Indexing started. Projects are updating now." }));
    let r = c.call_tool("admin_sync", json!({})).await?;
    assert_eq!(answer(&r)["result"], json!("AlreadyRunning"));
    while server.gateway.sync_runner().is_running().await {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(std::fs::read_to_string(&marker)?.lines().count(), 2);
    server.shutdown().await?;
    crate::common::cleanup(&config).await;
    Ok(())
}
