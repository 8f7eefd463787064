//! Indexing into a real two-node cluster (tests/opensearch/start.sh with
//! OPENSEARCH_NODES=2, ports of its own) while one node is killed (SIGKILL):
//! the run completes through the other node or fails with a clear error, and
//! the next run, with the node back, converges: every file once, with its
//! current content, nothing stale.

use std::time::Duration;

use vibe_common::backend::search::Search;
use vibe_common::config::OpenSearchConfig;
use vibe_ingest::indexer::{self, IndexOptions};

use crate::indexer_backend_crash::{assert_converged, change_tree, write_tree};
use crate::test_cluster::TestCluster;

const PORT: u16 = 9265;

/// Two nodes of their own.
fn two_nodes() -> TestCluster {
    TestCluster::new(PORT, 2, "vibe-os-ingest-cluster")
}

/// The HTTP port of the node that is not the elected cluster manager (with
/// two nodes only one of them votes; killing it would leave no manager).
async fn follower(search: &Search) -> u16 {
    let manager = search.get("/_cat/cluster_manager?format=json").await.unwrap();
    let name = manager[0]["node"].as_str().unwrap().to_string();
    if two_nodes().port_of(&name) == Some(PORT) {
        PORT + 1
    } else {
        PORT
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_killed_mid_run_then_the_next_run_converges() {
    assert!(tokio::task::spawn_blocking(|| two_nodes().run("start", true)).await.unwrap(), "the cluster did not start");
    let hosts = two_nodes().hosts();
    let search =
        Search::new(&OpenSearchConfig { hosts, index_prefix: "tcluster".into(), ..Default::default() }).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let n = 3000;
    write_tree(&root, n, 1);
    let roots = vec![root.clone()];
    indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap();
    search.get("/_cluster/health?wait_for_status=green&timeout=120s").await.unwrap();

    // Change every file and delete a tenth, then kill a node mid-run.
    change_tree(&root, n);
    let victim = follower(&search).await;
    let run = {
        let (search, roots) = (search.clone(), roots.clone());
        tokio::spawn(async move { indexer::run(&search, &roots, &roots, &IndexOptions::default()).await })
    };
    tokio::time::sleep(Duration::from_millis(800)).await;
    tokio::task::spawn_blocking(move || two_nodes().kill(victim)).await.unwrap();
    // Completes through the other node, or fails with a clear error; never hangs or panics.
    match tokio::time::timeout(Duration::from_secs(300), run).await.expect("the run ends").unwrap() {
        Ok(report) => eprintln!("run with a node killed: {} ({} errors)", report.summary(), report.errors().len()),
        Err(e) => eprintln!("run with a node killed failed cleanly: {e}"),
    }

    assert!(tokio::task::spawn_blocking(|| two_nodes().run("start", false)).await.unwrap(), "the node did not rejoin");
    let report = indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap();
    assert!(report.errors().is_empty(), "{:?}", report.errors());
    assert_converged(&search, &root, n - n / 10).await;
    assert!(indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap().up_to_date());
    search.delete("/tcluster_*?expand_wildcards=all").await.unwrap();
    assert!(tokio::task::spawn_blocking(|| two_nodes().run("stop", false)).await.unwrap());
}
