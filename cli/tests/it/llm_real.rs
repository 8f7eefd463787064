//! Enrichment with a real model, through the CLI: llama.cpp's OpenAI-compatible
//! server with SmolLM2-135M (`tests/llm/start.sh`, on `$VIBE_LLM_URL`,
//! default http://127.0.0.1:8081), the real OpenSearch, the real binary.
//!
//! Nothing is expected of a 135M model's words: these tests hold the
//! pipeline's floor. Every file with an AST gets a description and a tag or
//! is counted as not enriched with why; the project gets a summary; a host
//! killed mid-run or a host answering garbage loses nothing. The last test
//! (scripted hosts only, same harness) has the next run describe the files
//! an enrichment left bare.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use vibe_common::backend::naming::project_hash;
use vibe_common::backend::search::Search;
use vibe_common::config::OpenSearchConfig;

use crate::ollama_support::{MockOllama, MockOptions, Reply};

const MODEL: &str = "smollm2-135m";

fn llm_url() -> String {
    std::env::var("VIBE_LLM_URL").unwrap_or_else(|_| "http://127.0.0.1:8081".into())
}

fn opensearch_url() -> String {
    std::env::var("VIBE_OPENSEARCH_URL").unwrap_or_else(|_| "http://127.0.0.1:9200".into())
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn samples() -> PathBuf {
    repo().join("tests/fixtures/samples")
}

/// The real host's entry of the `ollama` list.
fn real_host(url: &str) -> Value {
    json!({ "host": url, "api": "openai", "model": MODEL, "timeout_secs": 300 })
}

/// The one real server answers one request at a time (llama-cpp-python holds
/// its model lock even for `GET /v1/models`), so the tests that use it take
/// turns; run side by side, one test's health check waited behind another's
/// generations.
static REAL_SERVER: Mutex<()> = Mutex::new(());

/// A config dir of its own, with its own index prefix, holding the real
/// server for as long as it lives.
struct Cli {
    dir: tempfile::TempDir,
    prefix: String,
    _turn: MutexGuard<'static, ()>,
}

impl Cli {
    fn new(prefix: &str, hosts: Vec<Value>, sources: &[&Path]) -> Self {
        let turn = REAL_SERVER.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let cli = Self { dir: tempfile::tempdir().unwrap(), prefix: prefix.to_string(), _turn: turn };
        cli.configure(hosts, sources);
        cli.search_blocking(|s| async move { s.delete(&format!("/{}_*?expand_wildcards=all", s.names.prefix)).await });
        cli
    }

    fn configure(&self, hosts: Vec<Value>, sources: &[&Path]) {
        let config = json!({
            "opensearch": { "hosts": [opensearch_url()], "index_prefix": self.prefix },
            "ollama": hosts,
            "sources": sources,
        });
        std::fs::write(self.dir.path().join("config.json5"), config.to_string()).unwrap();
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_vibe-analyzer"));
        cmd.arg("--config-dir")
            .arg(self.dir.path())
            .args(args)
            .env_remove("RUST_LOG")
            .env_remove("VIBE_OPENSEARCH_URL");
        cmd
    }

    fn run(&self, args: &[&str]) -> (Output, String) {
        let out = self.command(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{args:?} failed:\n{stderr}");
        (out, stderr)
    }

    fn search_blocking<F, Fut, T>(&self, f: F) -> T
    where
        F: FnOnce(Search) -> Fut,
        Fut: std::future::Future<Output = Result<T, vibe_common::backend::search::SearchError>>,
    {
        let cfg =
            OpenSearchConfig { hosts: vec![opensearch_url()], index_prefix: self.prefix.clone(), ..Default::default() };
        let search = Search::new(&cfg).unwrap();
        tokio::runtime::Runtime::new().unwrap().block_on(f(search)).unwrap()
    }

    /// The AST documents of the project at `root`: (path, description, tags).
    fn ast_docs(&self, root: &Path) -> Vec<(String, String, Vec<String>)> {
        let alias = format!("{}_ast_{}", self.prefix, project_hash(&root.canonicalize().unwrap()));
        let body =
            json!({ "size": 1000, "_source": ["path", "description", "llm_tags"], "query": { "match_all": {} } });
        let answer = self.search_blocking(|s| async move { s.post(&format!("/{alias}/_search"), &body).await });
        answer["hits"]["hits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| {
                let src = &h["_source"];
                let tags = src["llm_tags"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect());
                (
                    src["path"].as_str().unwrap_or_default().to_string(),
                    src["description"].as_str().unwrap_or_default().to_string(),
                    tags.unwrap_or_default(),
                )
            })
            .collect()
    }

    /// The summary of the project at `root` in the meta index.
    fn summary(&self, root: &Path) -> String {
        let path = format!("/{}_meta/_doc/{}", self.prefix, project_hash(&root.canonicalize().unwrap()));
        let doc = self.search_blocking(|s| async move { s.get(&path).await });
        doc["_source"]["summary"].as_str().unwrap_or_default().to_string()
    }
}

/// Files not enriched, as the report counts them: `not enriched, N files (why): …`.
fn counted_failures(stderr: &str) -> usize {
    stderr
        .lines()
        .filter_map(|l| l.trim().strip_prefix("not enriched, "))
        .filter_map(|l| l.split(' ').next()?.parse::<usize>().ok())
        .sum()
}

/// `LLM enrichment: N files enriched, M not enriched`.
fn enriched_counts(stderr: &str) -> (usize, usize) {
    let line =
        stderr.lines().find(|l| l.starts_with("LLM enrichment: ")).unwrap_or_else(|| panic!("no report:\n{stderr}"));
    let numbers: Vec<usize> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
    (numbers[0], numbers[1])
}

#[test]
fn scan_analyze_and_scan_index_enrich_the_samples_with_a_real_model() {
    let cli = Cli::new("tllmreal", vec![real_host(&llm_url())], &[&samples()]);
    let out_path = cli.dir.path().join("analyzed.json");
    let (_, stderr) = cli.run(&["scan", "analyze", "--output", out_path.to_str().unwrap()]);
    let export: Value = serde_json::from_str(&std::fs::read_to_string(&out_path).unwrap()).unwrap();
    let source = &export["sources"][0];
    let with_ast: Vec<&Value> = source["files"].as_array().unwrap().iter().filter(|f| f["ast"].is_object()).collect();
    let described = with_ast
        .iter()
        .filter(|f| {
            f["description"].as_str().is_some_and(|d| !d.trim().is_empty())
                && f["tags"].as_array().is_some_and(|t| !t.is_empty())
        })
        .count();
    let (enriched, not_enriched) = enriched_counts(&stderr);
    assert_eq!(enriched + not_enriched, with_ast.len(), "every file is enriched or counted:\n{stderr}");
    assert_eq!(counted_failures(&stderr), not_enriched, "each failure says why:\n{stderr}");
    assert!(described * 10 >= with_ast.len() * 9, "{described} of {} files described:\n{stderr}", with_ast.len());
    assert!(stderr.contains("valid JSON"), "the answers are counted:\n{stderr}");
    let summary = source["summary"].as_str().unwrap_or_default();
    assert!(summary.len() > 20 || stderr.contains("no project summary ("), "summary {summary:?}:\n{stderr}");

    let (_, stderr) = cli.run(&["scan", "index"]);
    let docs = cli.ast_docs(&samples());
    assert_eq!(docs.len(), 15, "every file is indexed:\n{stderr}");
    let indexed = docs.iter().filter(|(_, d, t)| !d.is_empty() && !t.is_empty()).count();
    assert!(indexed * 10 >= with_ast.len() * 9, "{indexed} described in the index:\n{stderr}");
    assert!(cli.summary(&samples()).len() > 20, "the project has a summary:\n{stderr}");
}

/// A tree of `n` small Python files, each with a function of its own.
fn tree(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..n {
        let text = format!(
            "\"\"\"Module {i}: helpers for orders.\"\"\"\n\n\ndef total_{i}(prices, tax):\n    \"\"\"Sum the prices and add the tax.\"\"\"\n    return sum(prices) * (1 + tax)\n"
        );
        std::fs::write(dir.path().join(format!("orders_{i:02}.py")), text).unwrap();
    }
    dir
}

/// A second real server on `port`, started and stopped by tests/llm/start.sh.
fn llm_script(action: &str, port: u16) -> Output {
    Command::new("bash")
        .arg(repo().join("tests/llm/start.sh"))
        .arg(action)
        .env("LLM_PORT", port.to_string())
        .env("LLM_THREADS", "1")
        .output()
        .unwrap()
}

/// Completions a server on `port` has answered, from its log.
fn completions_served(port: u16) -> usize {
    let home = std::env::var("VIBE_LLM_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap()).join(".cache/vibe-llm"));
    let log = std::fs::read_to_string(home.join(format!("server-{port}.log"))).unwrap_or_default();
    log.matches("POST /v1/chat/completions HTTP/1.1\" 200").count()
}

#[test]
fn one_of_two_real_hosts_killed_mid_run_loses_nothing() {
    const PORT: u16 = 8082;
    let started = llm_script("start", PORT);
    assert!(started.status.success(), "second server: {}", String::from_utf8_lossy(&started.stderr));
    let before = completions_served(PORT);
    let project = tree(12);
    let second = format!("http://127.0.0.1:{PORT}");
    let mut hosts = vec![real_host(&llm_url()), real_host(&second)];
    hosts.iter_mut().for_each(|h| h["max_chunk_files"] = 1.into());
    let cli = Cli::new("tllmkill", hosts, &[project.path()]);
    let child = cli.command(&["scan", "index"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    // Kill the second server once it has answered one file (its warm-up is the first completion).
    let deadline = Instant::now() + Duration::from_secs(300);
    while completions_served(PORT) < before + 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    llm_script("stop", PORT);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains(&format!("{second} ({MODEL})")) && stderr.contains("taken out"), "{stderr}");
    let (enriched, not_enriched) = enriched_counts(&stderr);
    assert_eq!((enriched + not_enriched, counted_failures(&stderr)), (12, not_enriched), "{stderr}");
    let docs = cli.ast_docs(project.path());
    assert_eq!(docs.len(), 12, "every file is indexed:\n{stderr}");
    assert_eq!(docs.iter().filter(|(_, d, _)| !d.is_empty()).count(), enriched, "{stderr}");
}

#[test]
fn a_host_answering_garbage_beside_a_real_one_loses_nothing() {
    let garbage = MockOllama::start(MockOptions { then: Reply::Garbage, ..MockOptions::named("garbage") });
    let project = tree(6);
    let mut scripted = serde_json::to_value(garbage.host()).unwrap();
    scripted["max_chunk_files"] = 1.into();
    let mut real = real_host(&llm_url());
    real["max_chunk_files"] = 1.into();
    // Both kinds of host in one list: Ollama's API (scripted) and OpenAI's (real).
    let cli = Cli::new("tllmgarbage", vec![scripted, real], &[project.path()]);
    let (_, stderr) = cli.run(&["scan", "index"]);
    let (enriched, not_enriched) = enriched_counts(&stderr);
    assert_eq!((enriched + not_enriched, counted_failures(&stderr)), (6, not_enriched), "{stderr}");
    assert!(stderr.contains("taken out: no usable answer after 6 attempts: not valid JSON"), "{stderr}");
    assert!(!stderr.contains(" 0 not JSON"), "the garbage is counted:\n{stderr}");
    let docs = cli.ast_docs(project.path());
    assert_eq!(docs.len(), 6, "every file is indexed:\n{stderr}");
}

#[test]
fn files_an_enrichment_left_bare_are_described_by_the_next_run() {
    let project = tree(2);
    let scripted = |mock: &MockOllama| {
        let mut host = serde_json::to_value(mock.host()).unwrap();
        host["max_chunk_files"] = 1.into();
        host
    };
    let dropping = MockOllama::start(MockOptions { then: Reply::MissingFile, ..MockOptions::named("dropping") });
    let cli = Cli::new("tllmbare", vec![scripted(&dropping)], &[project.path()]);
    let (_, stderr) = cli.run(&["scan", "index"]);
    assert_eq!(enriched_counts(&stderr), (0, 2), "{stderr}");
    assert!(cli.ast_docs(project.path()).iter().all(|(_, d, _)| d.is_empty()), "indexed bare:\n{stderr}");

    let good = MockOllama::start(MockOptions::named("good"));
    cli.configure(vec![scripted(&good)], &[project.path()]);
    let (out, _) = cli.run(&["scan", "index", "--dry-run"]);
    let preview = String::from_utf8_lossy(&out.stdout);
    assert!(preview.contains("would write 2 files (new 0, changed 0, to describe 2)"), "{preview}");
    let (out, _) = cli.run(&["scan", "index", "--dry-run", "--no-llm"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("nothing to write"), "without the LLM nothing is due");
    let (_, stderr) = cli.run(&["scan", "index"]);
    assert!(stderr.contains("2 unchanged files without a description sent to the LLM again"), "{stderr}");
    assert_eq!(enriched_counts(&stderr), (2, 0), "{stderr}");
    let docs = cli.ast_docs(project.path());
    assert!(docs.iter().all(|(p, d, _)| d == &crate::ollama_support::description("good", p)), "{docs:?}");

    let (_, stderr) = cli.run(&["scan", "index"]);
    assert!(!stderr.contains("sent to the LLM again") && !stderr.contains("LLM enrichment:"), "a no-op:\n{stderr}");
}
