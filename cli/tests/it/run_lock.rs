//! One index run per project at a time (issue 35), with the real binary
//! against the real OpenSearch: two runs of one config, two configs on one
//! project, a run during `serve start --watch`, `admin_sync` during a run,
//! and a lock left by a run on another machine that stopped renewing it. A
//! run that meets another names it and exits with code 4, or waits with
//! `--wait`; nothing indexed is lost. The run that holds a project is made
//! slow with a scripted Ollama whose every answer takes a while.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use vibe_common::backend::naming::project_hash;
use vibe_common::backend::run_lock::{self, Holder};
use vibe_common::backend::search::Search;
use vibe_common::config::{Config, OllamaHost, OpenSearchConfig};

use crate::indexer_backend_crash::{assert_converged, write_tree};
use crate::ollama_support::{MockOllama, MockOptions};
use crate::ownership::opensearch_url;

/// A config directory of its own.
pub(crate) struct Cfg {
    pub dir: tempfile::TempDir,
    pub hosts: Vec<String>,
}

impl Cfg {
    /// A config on `prefix` listing `sources`, enriching through `ollama`
    /// (one file per prompt), waiting `wait_secs` for a held project.
    pub fn new(prefix: &str, sources: &[&Path], ollama: Option<OllamaHost>, wait_secs: u64) -> Self {
        Self::on(vec![opensearch_url()], prefix, sources, ollama, (wait_secs, 60))
    }

    /// The same on the nodes `hosts`, with `(wait, lease)` seconds.
    pub fn on(
        hosts: Vec<String>,
        prefix: &str,
        sources: &[&Path],
        ollama: Option<OllamaHost>,
        lock: (u64, u64),
    ) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let opensearch = OpenSearchConfig {
            hosts: hosts.clone(),
            index_prefix: prefix.into(),
            lock_wait_secs: lock.0,
            lock_lease_secs: lock.1,
            ..Default::default()
        };
        let ollama = ollama.map(|h| vec![OllamaHost { max_chunk_files: 1, ..h }]).unwrap_or_default();
        let sources = sources.iter().map(|s| s.to_path_buf()).collect();
        Config { opensearch, ollama, sources, ..Config::default() }.save(&dir.path().join("config.json5")).unwrap();
        Self { dir, hosts }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_vibe-analyzer"));
        cmd.arg("--config-dir").arg(self.dir.path()).args(args);
        cmd.env("VIBE_OPENSEARCH_URL", self.hosts.join(",")).env_remove("RUST_LOG");
        cmd
    }

    /// Runs the CLI: (exit code, stdout + stderr).
    pub fn run(&self, args: &[&str]) -> (i32, String) {
        let out = self.command(args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        (out.status.code().unwrap_or(-1), text)
    }

    /// Starts the CLI in the background.
    pub fn spawn(&self, args: &[&str]) -> Child {
        self.command(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
    }

    pub fn path(&self) -> String {
        self.dir.path().display().to_string()
    }
}

/// Waits for a background run: (exit code, stdout + stderr).
pub(crate) fn finish(mut child: Child) -> (i32, String) {
    let status = child.wait().unwrap();
    let mut text = String::new();
    child.stdout.take().unwrap().read_to_string(&mut text).unwrap();
    child.stderr.take().unwrap().read_to_string(&mut text).unwrap();
    (status.code().unwrap_or(-1), text)
}

pub(crate) fn search_on(hosts: Vec<String>, prefix: &str) -> Search {
    Search::new(&OpenSearchConfig { hosts, index_prefix: prefix.into(), ..Default::default() }).unwrap()
}

pub(crate) async fn fresh(prefix: &str) -> Search {
    let search = search_on(vec![opensearch_url()], prefix);
    search.delete(&format!("/{prefix}_*?expand_wildcards=all")).await.unwrap();
    search
}

/// A scripted Ollama whose every file and summary answer takes `latency`.
pub(crate) fn slow_ollama(latency: Duration) -> MockOllama {
    MockOllama::start(MockOptions { latency, ..MockOptions::default() })
}

/// A project of `n` Python modules.
pub(crate) fn tree(n: usize) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write_tree(&root, n, 1);
    (dir, root)
}

/// The live holder of `root`'s lock, once there is one (at most 60 s).
pub(crate) async fn holder_of(search: &Search, root: &Path) -> Holder {
    let hash = project_hash(root);
    let start = Instant::now();
    loop {
        if let Some(holder) = run_lock::live_holders(search, std::slice::from_ref(&hash)).await.unwrap().remove(&hash) {
            return holder;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no run took the lock of {}", root.display());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// No message of these cases shows OpenSearch's JSON.
pub(crate) fn assert_no_raw_json(text: &str) {
    for raw in ["{\"error\"", "\"type\":", "root_cause", "\"status\":"] {
        assert!(!text.contains(raw), "OpenSearch's JSON in a message:\n{text}");
    }
}

/// The lock document of `root` is gone (released).
async fn assert_released(search: &Search, root: &Path) {
    let path = format!("/{}/_doc/{}", search.names.locks(), run_lock::lock_id(&project_hash(root)));
    assert_eq!(search.get_opt(&path).await.unwrap(), None, "the lock was not released");
}

/// What the second run says of the first.
fn names_holder(text: &str, pid: u32, command: &str) -> bool {
    text.contains(&format!("is being indexed by another run: `{command}` (pid {pid} on "))
        && text.contains("running since")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_run_of_one_config_names_the_first_or_waits_for_it() {
    let search = fresh("tlockone").await;
    let (_dir, root) = tree(6);
    let ollama = slow_ollama(Duration::from_millis(1500));
    let cfg = Cfg::new("tlockone", &[&root], Some(ollama.host()), 0);
    let first = cfg.spawn(&["scan", "index"]);
    let holder = holder_of(&search, &root).await;
    assert_eq!((holder.pid, holder.command.as_str()), (first.id(), "scan index"));
    assert_eq!(holder.config_dir, cfg.path());

    let (code, text) = cfg.run(&["scan", "index", "--no-llm"]);
    assert_eq!(code, 4, "{text}");
    assert!(names_holder(&text, first.id(), "scan index"), "{text}");
    assert!(text.contains("--wait"), "{text}");
    assert_no_raw_json(&text);

    let (code, text) = cfg.run(&["scan", "index", "--no-llm", "--wait"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("waiting until it ends") && names_holder(&text, first.id(), "scan index"), "{text}");
    let (code, text) = finish(first);
    assert_eq!(code, 0, "{text}");
    assert_converged(&search, &root, 6).await;
    assert_released(&search, &root).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_forced_runs_started_together_both_finish_and_lose_nothing() {
    let search = fresh("tlocktwo").await;
    let (_dir, root) = tree(300);
    let cfg = Cfg::new("tlocktwo", &[&root], None, 120);
    let runs =
        [cfg.spawn(&["scan", "index", "--force", "--no-llm"]), cfg.spawn(&["scan", "index", "--force", "--no-llm"])];
    let pids: Vec<u32> = runs.iter().map(Child::id).collect();
    let texts: Vec<String> = runs
        .into_iter()
        .map(|run| {
            let (code, text) = finish(run);
            assert_eq!(code, 0, "{text}");
            assert_no_raw_json(&text);
            text
        })
        .collect();
    // One met the other, and said which run it waited for.
    let waited = (0..2).filter(|&i| names_holder(&texts[i], pids[1 - i], "scan index")).count();
    assert_eq!(waited, 1, "{texts:#?}");
    assert_converged(&search, &root, 300).await;
    let indices = search.get(&format!("/{}/_alias", search.names.project_indices_pattern(&project_hash(&root)))).await;
    assert_eq!(indices.unwrap().as_object().unwrap().len(), 2, "one generation left: files and ast");
    assert_released(&search, &root).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_configs_on_one_project_take_turns() {
    let search = fresh("tlockcfg").await;
    let (_dir, root) = tree(6);
    let ollama = slow_ollama(Duration::from_millis(1500));
    let (alice, bob) =
        (Cfg::new("tlockcfg", &[&root], Some(ollama.host()), 0), Cfg::new("tlockcfg", &[&root], None, 0));
    let first = alice.spawn(&["scan", "index"]);
    let holder = holder_of(&search, &root).await;
    let (code, text) = bob.run(&["scan", "index"]);
    assert_eq!(code, 4, "{text}");
    assert!(names_holder(&text, first.id(), "scan index") && text.contains(&alice.path()), "{text}");
    assert_eq!(holder.config_dir, alice.path());
    let (code, text) = bob.run(&["scan", "index", "--wait"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(finish(first).0, 0);
    assert_converged(&search, &root, 6).await;
    let meta = search.get(&format!("/{}/_doc/{}", search.names.meta(), project_hash(&root))).await.unwrap();
    assert_eq!(meta["_source"]["owners"].as_array().unwrap().len(), 2, "both configs own it: {meta}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_during_serve_watch_names_the_watcher() {
    let search = fresh("tlockwatch").await;
    let (_dir, root) = tree(6);
    let ollama = slow_ollama(Duration::from_millis(5000));
    let cfg = Cfg::new("tlockwatch", &[&root], Some(ollama.host()), 0);
    assert_eq!(cfg.run(&["scan", "index", "--no-llm"]).0, 0);
    let port = free_port();
    let serve = cfg.spawn(&["serve", "start", "--watch", "--port", &port.to_string()]);
    let serve = KillOnDrop(Some(serve));
    // The watcher's first sync finds nothing to do; then a change keeps it
    // busy with the slow enrichment.
    tokio::time::sleep(Duration::from_secs(3)).await;
    std::fs::write(root.join("pkg1/mod1.py"), "def changed_while_watching():\n    return 2\n").unwrap();
    let holder = holder_of(&search, &root).await;
    let pid = serve.0.as_ref().unwrap().id();
    assert_eq!((holder.pid, holder.command.as_str()), (pid, "serve start --watch"));
    let (code, text) = cfg.run(&["scan", "index", "--no-llm"]);
    assert_eq!(code, 4, "{text}");
    assert!(names_holder(&text, pid, "serve start --watch"), "{text}");
    let (code, text) = cfg.run(&["scan", "index", "--no-llm", "--wait"]);
    assert_eq!(code, 0, "{text}");
    drop(serve);
    assert_converged(&search, &root, 6).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_sync_during_a_run_names_the_run() {
    let search = fresh("tlocksync").await;
    let (_dir, root) = tree(6);
    let ollama = slow_ollama(Duration::from_millis(1500));
    let cfg = Cfg::new("tlocksync", &[&root], Some(ollama.host()), 0);
    let first = cfg.spawn(&["scan", "index"]);
    holder_of(&search, &root).await;
    let config = Config::load(&cfg.dir.path().join("config.json5")).unwrap();
    // A sync command that would fail loudly if it were started.
    let runner = vibe_gateway::SyncRunner::new(vec!["false".into()], None);
    let gateway = vibe_gateway::Gateway::new(&config, runner).unwrap();
    let answer = serde_json::to_value(gateway.call("admin_sync", None, None).await.structured).unwrap();
    assert_eq!(answer["result"], json!("AlreadyRunning"), "{answer}");
    let message = answer["message"].as_str().unwrap();
    assert!(message.contains(&format!("`scan index` (pid {} on ", first.id())), "{message}");
    assert!(message.contains(&root.display().to_string()), "{message}");
    assert!(!gateway.sync_runner().is_running().await && gateway.sync_runner().status().await.last.is_none());
    assert_eq!(finish(first).0, 0);
    // Once the run ended, admin_sync starts one.
    let answer = serde_json::to_value(gateway.call("admin_sync", None, None).await.structured).unwrap();
    assert_eq!(answer["result"], json!("Started"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lock_whose_holder_stopped_renewing_is_taken_over_after_its_lease() {
    let search = fresh("tlocklease").await;
    let (_dir, root) = tree(4);
    let cfg = Cfg::new("tlocklease", &[&root], None, 0);
    assert_eq!(cfg.run(&["scan", "index"]).0, 0);
    std::fs::write(root.join("pkg2/mod2.py"), "def changed_under_a_dead_lock():\n    return 3\n").unwrap();
    // A run on another machine took the lock a minute ago, then died: its
    // last renewal gave it 6 s more.
    let lease_ms = 6000;
    let now = run_lock::now_ms();
    let holder = json!({ "run_lock": {
        "token": "gone", "root": root.display().to_string(), "command": "scan index", "owner": "build-7-00000000",
        "host": "build-7", "pid": 4242, "config_dir": "/home/ci/.vibe-analyzer", "process_space": "another-machine",
        "started_at_ms": now - 60_000, "expires_at_ms": now + lease_ms, "lease_ms": lease_ms } });
    let path = format!("/{}/_doc/{}", search.names.locks(), run_lock::lock_id(&project_hash(&root)));
    search.put(&path, &holder).await.unwrap();

    let (code, text) = cfg.run(&["scan", "index"]);
    assert_eq!(code, 4, "{text}");
    assert!(names_holder(&text, 4242, "scan index") && text.contains("on build-7"), "{text}");
    let started = Instant::now();
    let (code, text) = cfg.run(&["scan", "index", "--wait"]);
    let took = started.elapsed();
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("took over the index lock of a run that is gone: `scan index` (pid 4242 on build-7"),
        "{text}"
    );
    assert!(took < Duration::from_millis(lease_ms) + Duration::from_secs(10), "taken over after {took:?}");
    assert_converged(&search, &root, 4).await;
    assert_released(&search, &root).await;
}

/// A port nothing listens on.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A background process stopped (SIGTERM, then waited for) when dropped.
struct KillOnDrop(Option<Child>);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
            let deadline = Instant::now() + Duration::from_secs(10);
            while child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
