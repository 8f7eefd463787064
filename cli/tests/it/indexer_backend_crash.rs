//! OpenSearch killed (SIGKILL) in the middle of an incremental run: the run
//! fails with a clear error, and the next run against the restarted node
//! converges — no duplicates, no stale documents. Uses a second node of its
//! own (tests/opensearch/start.sh on another port) so other tests are not
//! disturbed.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;
use vibe_common::backend::naming::project_hash;
use vibe_common::backend::search::Search;
use vibe_common::config::OpenSearchConfig;
use vibe_ingest::indexer::{self, IndexOptions};

use crate::test_cluster::TestCluster;

const PORT: u16 = 9251;

/// One node of its own, killed mid-run.
fn node() -> TestCluster {
    let mut node = TestCluster::new(PORT, 1, "vibe-os-crash-test");
    node.env.push(("OPENSEARCH_TRANSPORT_PORT", "9451-9499".into()));
    node
}

/// The `i`-th module of [`write_tree`].
fn module_path(root: &Path, i: usize) -> PathBuf {
    root.join(format!("pkg{}/mod{i}.py", i % 20))
}

pub(crate) fn write_tree(root: &Path, n: usize, version: u32) {
    for i in 0..n {
        let path = module_path(root, i);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            path,
            format!("\"\"\"Module {i} v{version}.\"\"\"\n\ndef func_{i}(x):\n    \"\"\"Doc {i}.\"\"\"\n    return x * {version}\n"),
        )
        .unwrap();
    }
}

/// Every module of [`write_tree`] changed, and every tenth deleted.
pub(crate) fn change_tree(root: &Path, n: usize) {
    write_tree(root, n, 2);
    for i in (0..n).step_by(10) {
        std::fs::remove_file(module_path(root, i)).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_backend_mid_run_converges_on_the_next_run() {
    assert!(node().run("start", false), "second OpenSearch node did not start");
    let search = Search::new(&OpenSearchConfig {
        hosts: vec![format!("http://127.0.0.1:{PORT}")],
        index_prefix: "tkill".into(),
        ..Default::default()
    })
    .unwrap();
    search.delete("/tkill_*?expand_wildcards=all").await.unwrap();

    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let n = 3000;
    write_tree(&root, n, 1);
    let roots = vec![root.clone()];
    indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap();

    // Change every file and delete a tenth of them, then kill the node mid-run.
    change_tree(&root, n);
    let run = {
        let (search, roots) = (search.clone(), roots.clone());
        tokio::spawn(async move { indexer::run(&search, &roots, &roots, &IndexOptions::default()).await })
    };
    tokio::time::sleep(Duration::from_millis(1500)).await;
    tokio::task::spawn_blocking(|| node().kill(PORT)).await.unwrap();
    let interrupted = run.await.unwrap();
    assert!(interrupted.is_err(), "the run should fail when its backend dies");

    assert!(node().run("start", false), "node did not restart");
    let report = indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap();
    assert!(report.errors().is_empty(), "{:?}", report.errors());

    assert_converged(&search, &root, n - n / 10).await;
    assert!(indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap().up_to_date());
    search.delete("/tkill_*?expand_wildcards=all").await.unwrap();
    node().run("stop", false);
}

/// The project at `root` holds `expected` files in both indices, each with
/// the content on disk now (no stale document).
pub(crate) async fn assert_converged(search: &Search, root: &Path, expected: usize) {
    let hash = project_hash(root);
    for alias in [search.names.files_alias(&hash), search.names.ast_alias(&hash)] {
        search.post(&format!("/{alias}/_refresh"), &json!({})).await.unwrap();
        let count = search.get(&format!("/{alias}/_count")).await.unwrap()["count"].as_u64().unwrap();
        assert_eq!(count as usize, expected, "{alias}");
        let stale = json!({ "query": { "bool": { "must_not": { "terms": { "hash": hashes(root) } } } } });
        let old = search.post(&format!("/{alias}/_count"), &stale).await.unwrap();
        assert_eq!(old["count"], 0, "stale documents in {alias}");
    }
}

fn hashes(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in walk(root) {
        out.push(blake3::hash(&std::fs::read(entry).unwrap()).to_hex().to_string());
    }
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
