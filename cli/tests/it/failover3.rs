//! A real three-node cluster (tests/opensearch/start.sh with OPENSEARCH_NODES=3):
//! the elected cluster manager is killed (SIGKILL) during a full `scan index`
//! and during `scan watch`; the other two elect a new manager, the run
//! completes (or fails clearly and the rerun converges), and a change made
//! after the kill is searchable once the new manager is elected. The node is
//! then restarted and the cluster must return to green with every replica.
//!
//! A run holding a project's lock is killed too: the next run takes the
//! project over within the lock's lease.
//!
//! Slow (three JVMs, minutes): `#[ignore]`d, run by bench/failover3.sh,
//! which starts the cluster once (the tests start it too when run alone:
//! `cargo test -p vibe-analyzer --test it failover3 -- --ignored --test-threads 1`).

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use vibe_common::backend::naming::project_hash;
use vibe_common::backend::search::Search;
use vibe_common::config::OpenSearchConfig;
use vibe_ingest::indexer::{self, IndexOptions};
use vibe_ingest::watch::{self, WatchOptions};

use crate::indexer_backend_crash::{assert_converged, write_tree};
use crate::test_cluster::TestCluster;

fn search(prefix: &str) -> Search {
    let hosts = TestCluster::three_nodes().hosts();
    Search::new(&OpenSearchConfig { hosts, index_prefix: prefix.into(), ..Default::default() }).unwrap()
}

/// Kills the elected cluster manager; returns its HTTP port.
async fn kill_manager(search: &Search) -> u16 {
    let manager = search.get("/_cat/cluster_manager?format=json").await.unwrap();
    let name = manager[0]["node"].as_str().unwrap().to_string();
    let victim = TestCluster::three_nodes().port_of(&name).expect("start.sh names nodes vibe-node-<i>");
    tokio::task::spawn_blocking(move || TestCluster::three_nodes().kill(victim)).await.unwrap();
    eprintln!("failover3: killed the cluster manager {name} (port {victim})");
    victim
}

/// Seconds until another node is the elected manager.
async fn new_manager_after(search: &Search, killed: u16, since: Instant) -> f64 {
    let old = format!("vibe-node-{}", killed - TestCluster::three_nodes().port + 1);
    loop {
        let now = search.get("/_cat/cluster_manager?format=json").await.ok();
        let name = now.as_ref().and_then(|m| m[0]["node"].as_str()).unwrap_or_default().to_string();
        if !name.is_empty() && name != old {
            return since.elapsed().as_secs_f64();
        }
        assert!(since.elapsed() < Duration::from_secs(120), "no new cluster manager within 120 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Restarts the killed node; the cluster must be green with every replica
/// assigned (one replica per shard with auto_expand_replicas 0-1).
pub(crate) async fn restart_and_check_green(search: &Search, prefix: &str) -> f64 {
    let start = Instant::now();
    assert!(
        tokio::task::spawn_blocking(|| TestCluster::three_nodes().run("start", false)).await.unwrap(),
        "the node did not rejoin"
    );
    let health = search
        .get("/_cluster/health?wait_for_status=green&wait_for_nodes=3&wait_for_no_relocating_shards=true&timeout=180s")
        .await
        .unwrap();
    assert_eq!((health["status"].as_str(), health["number_of_nodes"].as_u64()), (Some("green"), Some(3)), "{health}");
    let shards = search.get(&format!("/_cat/shards/{prefix}_*?format=json&h=index,shard,prirep,state")).await.unwrap();
    let shards = shards.as_array().unwrap();
    let (primaries, replicas) = shards.iter().fold((0, 0), |(p, r), s| match s["prirep"].as_str() {
        Some("p") => (p + 1, r),
        _ => (p, r + 1),
    });
    assert!(primaries > 0 && replicas == primaries, "one replica per primary: {shards:?}");
    assert!(shards.iter().all(|s| s["state"] == "STARTED"), "{shards:?}");
    let secs = start.elapsed().as_secs_f64();
    eprintln!("failover3: node back, cluster green with {primaries} primaries and {replicas} replicas in {secs:.1} s");
    secs
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "three OpenSearch nodes, minutes: bench/failover3.sh"]
async fn full_index_with_the_manager_killed_completes_or_converges() {
    assert!(
        tokio::task::spawn_blocking(|| TestCluster::three_nodes().run("start", false)).await.unwrap(),
        "the cluster did not start"
    );
    let search = search("tfail3idx");
    search.get("/_cluster/health?wait_for_status=green&timeout=120s").await.unwrap();
    search.delete("/tfail3idx_*?expand_wildcards=all").await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let n: usize = std::env::var("VIBE_FAILOVER3_FILES").ok().and_then(|v| v.parse().ok()).unwrap_or(5000);
    write_tree(&root, n, 1);
    let roots = vec![root.clone()];

    // A full (first) build, the manager killed 1.5 s into it.
    let started = Instant::now();
    let run = {
        let (search, roots) = (search.clone(), roots.clone());
        tokio::spawn(async move { indexer::run(&search, &roots, &roots, &IndexOptions::default()).await })
    };
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let killed = kill_manager(&search).await;
    let killed_at = Instant::now();
    let elected = new_manager_after(&search, killed, killed_at).await;
    eprintln!("failover3: new cluster manager elected {elected:.1} s after the kill");
    let outcome = tokio::time::timeout(Duration::from_secs(600), run).await.expect("the run ends").unwrap();
    let took = started.elapsed().as_secs_f64();
    let completed = match &outcome {
        Ok(report) => {
            eprintln!("failover3: scan index completed in {took:.1} s: {} ({:?})", report.summary(), report.errors());
            report.errors().is_empty()
        }
        Err(e) => {
            eprintln!("failover3: scan index failed after {took:.1} s: {}", vibe_common::error_chain::chain(e));
            false
        }
    };
    if completed {
        assert_converged(&search, &root, n).await;
        eprintln!("failover3: the interrupted run left every file once, nothing stale");
    } else {
        let report = indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap();
        assert!(report.errors().is_empty(), "{:?}", report.errors());
        assert_converged(&search, &root, n).await;
        eprintln!("failover3: the rerun converged: {}", report.summary());
    }
    assert!(indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap().up_to_date());
    restart_and_check_green(&search, "tfail3idx").await;
    search.delete("/tfail3idx_*?expand_wildcards=all").await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "three OpenSearch nodes, minutes: bench/failover3.sh"]
async fn watch_with_the_manager_killed_indexes_the_change_once_a_new_one_is_elected() {
    assert!(
        tokio::task::spawn_blocking(|| TestCluster::three_nodes().run("start", false)).await.unwrap(),
        "the cluster did not start"
    );
    let search = search("tfail3watch");
    search.get("/_cluster/health?wait_for_status=green&timeout=120s").await.unwrap();
    search.delete("/tfail3watch_*?expand_wildcards=all").await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write_tree(&root, 200, 1);
    let roots = vec![root.clone()];
    let configured: watch::ConfiguredFn = {
        let roots = roots.clone();
        std::sync::Arc::new(move || roots.clone())
    };
    let opts =
        WatchOptions { targets: roots.clone(), configured, index: IndexOptions::default(), debounce: watch::DEBOUNCE };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let watcher = {
        let search = search.clone();
        tokio::spawn(async move {
            let shutdown = async move {
                let _ = stopped.await;
            };
            watch::run(&search, opts, shutdown, |line| eprintln!("failover3: {line}")).await
        })
    };
    let alias = search.names.files_alias(&project_hash(&root));
    wait_for_hash(&search, &alias, "pkg0/mod0.py", &file_hash(&root.join("pkg0/mod0.py")), 60).await;

    let killed = kill_manager(&search).await;
    let killed_at = Instant::now();
    let text = "def changed_after_the_kill():\n    return 42\n";
    std::fs::write(root.join("pkg0/mod0.py"), text).unwrap();
    let expected = blake3::hash(text.as_bytes()).to_hex().to_string();
    let searchable = wait_for_hash(&search, &alias, "pkg0/mod0.py", &expected, 120).await;
    let elected = new_manager_after(&search, killed, killed_at).await;
    eprintln!(
        "failover3: watch: the change is searchable {searchable:.1} s after the kill \
         (new manager seen {elected:.1} s after it)"
    );
    restart_and_check_green(&search, "tfail3watch").await;
    let _ = stop.send(());
    watcher.await.unwrap().unwrap();
    search.delete("/tfail3watch_*?expand_wildcards=all").await.unwrap();
}

fn file_hash(path: &std::path::Path) -> String {
    blake3::hash(&std::fs::read(path).unwrap()).to_hex().to_string()
}

/// Seconds until the document `rel` of `alias` carries `hash` (searched, not
/// read by id: what a reader sees).
async fn wait_for_hash(search: &Search, alias: &str, rel: &str, hash: &str, secs: u64) -> f64 {
    let start = Instant::now();
    let query =
        json!({ "query": { "bool": { "filter": [{ "ids": { "values": [rel] } }, { "term": { "hash": hash } }] } } });
    loop {
        let found: Option<Value> = search.post(&format!("/{alias}/_search"), &query).await.ok();
        if found.is_some_and(|r| r["hits"]["total"]["value"].as_u64() == Some(1)) {
            return start.elapsed().as_secs_f64();
        }
        assert!(start.elapsed() < Duration::from_secs(secs), "{rel} with hash {hash} not searchable within {secs} s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Lease of the lock in the takeover test: short, so that the test is.
const TAKEOVER_LEASE: Duration = Duration::from_secs(5);

/// `args` of the binary in a pid namespace of its own when `unshare` allows
/// it (a run whose pid this machine cannot check, as on another machine:
/// only its lease tells that it is gone), else as a plain process.
fn elsewhere(cfg: &crate::run_lock::Cfg, args: &[&str]) -> (std::process::Command, bool) {
    use std::process::Command;
    let isolated = Command::new("unshare").args(["-Urpf", "--kill-child", "true"]).status().is_ok_and(|s| s.success());
    let mut cmd = if isolated { Command::new("unshare") } else { Command::new(env!("CARGO_BIN_EXE_vibe-analyzer")) };
    if isolated {
        cmd.args(["-Urpf", "--kill-child", "--", env!("CARGO_BIN_EXE_vibe-analyzer")]);
    }
    cmd.arg("--config-dir").arg(cfg.dir.path()).args(args);
    cmd.env("VIBE_OPENSEARCH_URL", cfg.hosts.join(",")).env_remove("RUST_LOG");
    cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
    (cmd, isolated)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "three OpenSearch nodes, minutes: bench/failover3.sh"]
async fn a_killed_lock_holder_is_taken_over_within_its_lease() {
    use crate::run_lock::{finish, holder_of, slow_ollama, tree, Cfg};
    assert!(
        tokio::task::spawn_blocking(|| TestCluster::three_nodes().run("start", false)).await.unwrap(),
        "the cluster did not start"
    );
    let hosts = TestCluster::three_nodes().hosts();
    let search = search("tfail3lock");
    search.get("/_cluster/health?wait_for_status=green&timeout=120s").await.unwrap();
    search.delete("/tfail3lock_*?expand_wildcards=all").await.unwrap();
    let (_dir, root) = tree(8);
    let ollama = slow_ollama(Duration::from_millis(1500));
    let lock = (0, TAKEOVER_LEASE.as_secs());
    let cfg = Cfg::on(hosts, "tfail3lock", &[&root], Some(ollama.host()), lock);

    // The holder: a slow enrichment keeps it on the project; it is killed (SIGKILL) mid-run.
    let (mut command, isolated) = elsewhere(&cfg, &["scan", "index"]);
    let mut first = command.spawn().unwrap();
    let holder = holder_of(&search, &root).await;
    assert_eq!(holder.command, "scan index");
    tokio::time::sleep(Duration::from_secs(2)).await;
    first.kill().unwrap();
    first.wait().unwrap();
    let killed_at = Instant::now();

    let second = cfg.spawn(&["scan", "index", "--no-llm", "--wait"]);
    let taker = second.id();
    let took_over = loop {
        let now = holder_of(&search, &root).await;
        if now.pid == taker {
            break killed_at.elapsed();
        }
        assert!(killed_at.elapsed() < TAKEOVER_LEASE * 4, "not taken over: {now:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let (code, text) = finish(second);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains(&format!("took over the index lock of a run that is gone: `scan index` (pid {} on ", holder.pid)),
        "{text}"
    );
    let how = if isolated { "its lease ran out (pid namespace of its own)" } else { "its process is gone" };
    eprintln!(
        "failover3: the killed lock holder was taken over {:.1} s after the kill: {how}",
        took_over.as_secs_f64()
    );
    assert!(took_over < TAKEOVER_LEASE + Duration::from_secs(2), "taken over {took_over:?} after the kill");
    if isolated {
        assert!(took_over > Duration::from_secs(1), "a pid of another namespace is never checked: {took_over:?}");
    }
    assert_converged(&search, &root, 8).await;
    search.delete("/tfail3lock_*?expand_wildcards=all").await.unwrap();
}
