//! The enrichment as the CLI uses it: the `scan index` hook and
//! `scan analyze`, against scripted Ollama hosts over real HTTP.

use std::path::{Path, PathBuf};

use crate::ollama_support::{description, MockOllama, MockOptions};
use serde_json::Value;
use vibe_cli::{analyze, enrich, Ctx, ScanExportArgs};
use vibe_common::config::{Config, OllamaHost};
use vibe_ingest::analyzer::fast_options;
use vibe_ingest::export::Format;
use vibe_ingest::indexer::PROJECT_SUMMARY_KEY;
use vibe_ingest::scanner::{self, ScanOptions, ScannedFile, SourceInfo};

/// A small project: two files with an AST, one plain text file.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("src/lib.rs"),
        "/// Adds one.\npub fn add_one(x: u32) -> u32 {\n    let secret_body_marker = 1;\n    x + secret_body_marker\n}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("README.md"),
        "# Demo\n\nA demo project that adds one to numbers.\n\n## Usage\n\nCall it.\n",
    )
    .unwrap();
    std::fs::write(root.join("notes.txt"), "plain text, no AST\n").unwrap();
    dir
}

fn ctx(dir: &Path, hosts: Vec<OllamaHost>, sources: Vec<PathBuf>) -> Ctx {
    let config = Config { ollama: hosts, sources, ..Config::default() };
    Ctx { config, config_path: dir.join("config.json5"), config_dir: dir.to_path_buf() }
}

fn scan(root: &Path) -> (SourceInfo, Vec<ScannedFile>) {
    let info = SourceInfo::load(None, root).unwrap();
    let mut files = Vec::new();
    scanner::scan(&info.root, &ScanOptions { keep_content: true, ..Default::default() }, |f| files.push(f)).unwrap();
    files.sort_by(|a, b| a.rel_path.cmp(&b.rel_path));
    (info, files)
}

#[test]
fn the_default_config_has_no_ollama_host() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = Ctx::load(Some(dir.path())).unwrap();
    assert!(ctx.config.ollama.is_empty());
    let text = std::fs::read_to_string(&ctx.config_path).unwrap();
    assert!(text.contains("// ") && text.contains("qwen2.5-coder:3b-instruct"), "a commented example: {text}");
    assert!(enrich::for_index(&ctx, false).unwrap().is_none(), "a fresh install indexes without an LLM");
}

#[test]
fn index_hook_is_off_with_no_llm() {
    let dir = tempfile::tempdir().unwrap();
    let down = OllamaHost { host: "http://127.0.0.1:9".into(), ..OllamaHost::default() };
    let ctx = ctx(dir.path(), vec![down], vec![]);
    assert!(enrich::for_index(&ctx, true).unwrap().is_none());
}

#[test]
fn a_configured_host_that_is_down_fails_scan_index_and_suggests_no_llm() {
    let dir = tempfile::tempdir().unwrap();
    let up = MockOllama::start(MockOptions::default());
    let down = MockOllama::start(MockOptions::default());
    let down_host = down.host();
    drop(down);
    let ctx = ctx(dir.path(), vec![up.host(), down_host.clone()], vec![]);
    let err = enrich::for_index(&ctx, false).err().expect("the run must fail");
    let msg = format!("{err:#}");
    assert!(msg.contains(&format!("Ollama host {} is not reachable", down_host.host)), "{msg}");
    assert!(msg.contains("--no-llm"), "{msg}");
    assert!(msg.contains(&ctx.config_path.display().to_string()), "{msg}");
}

#[test]
fn a_missing_model_fails_scan_index() {
    let dir = tempfile::tempdir().unwrap();
    let mock = MockOllama::start(MockOptions { models: vec![], ..MockOptions::default() });
    let err = enrich::for_index(&ctx(dir.path(), vec![mock.host()], vec![]), false).err().unwrap();
    let msg = format!("{err:#}");
    assert!(msg.contains("is not installed (installed: none)") && msg.contains("--no-llm"), "{msg}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn index_hook_enriches_files_inside_the_indexer_runtime() {
    let proj = project();
    let cfg_dir = tempfile::tempdir().unwrap();
    let a = MockOllama::start(MockOptions::named("a"));
    let b = MockOllama::start(MockOptions::named("b"));
    let ctx = ctx(cfg_dir.path(), vec![a.host(), b.host()], vec![proj.path().to_path_buf()]);
    // for_index runs its health checks from sync code, as `scan index` does before its runtime.
    let ctx2 = ctx.clone();
    let hook = tokio::task::spawn_blocking(move || enrich::for_index(&ctx2, false)).await.unwrap().unwrap().unwrap();
    assert_eq!((a.warmups(), b.warmups()), (1, 1));

    let (info, files) = scan(proj.path());
    // Called from inside an async task of a multi-thread runtime, like the indexer does.
    let hook2 = hook.clone();
    let result = tokio::spawn(async move {
        let refs: Vec<&ScannedFile> = files.iter().filter(|f| f.ast.is_some()).collect();
        let files_map = hook2(&info, &refs).unwrap();
        let summary = hook2(&info, &[]).unwrap();
        (files_map, summary)
    })
    .await
    .unwrap();
    let (enriched, summary) = result;
    let mut paths: Vec<_> = enriched.keys().cloned().collect();
    paths.sort();
    assert_eq!(paths, ["README.md", "src/lib.rs"]);
    let e = &enriched["src/lib.rs"];
    assert!(e.description == description("a", "src/lib.rs") || e.description == description("b", "src/lib.rs"));
    let summary = &summary[PROJECT_SUMMARY_KEY].description;
    assert!(
        summary.starts_with(&format!(
            "{} is a test project",
            proj.path().canonicalize().unwrap().file_name().unwrap().to_string_lossy()
        )),
        "{summary}"
    );

    // The prompts carry the AST, never the source.
    let prompts: Vec<String> = a.file_prompts().into_iter().chain(b.file_prompts()).collect();
    let all = prompts.join("\n");
    assert!(all.contains("pub fn add_one(x: u32) -> u32 // Adds one."), "{all}");
    assert!(!all.contains("secret_body_marker"), "{all}");
    assert!(!all.contains("notes.txt"), "{all}");
}

#[test]
fn index_hook_works_from_a_current_thread_runtime_too() {
    let proj = project();
    let mock = MockOllama::start(MockOptions::default());
    let hook = enrich::index_hook(vec![mock.host()], fast_options());
    let (info, files) = scan(proj.path());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let enriched = rt.block_on(async {
        let refs: Vec<&ScannedFile> = files.iter().filter(|f| f.ast.is_some()).collect();
        hook(&info, &refs).unwrap()
    });
    assert_eq!(enriched.len(), 2);
}

#[test]
fn index_hook_errors_name_the_problem() {
    let proj = project();
    let mock =
        MockOllama::start(MockOptions { then: crate::ollama_support::Reply::Status(500), ..MockOptions::default() });
    let hook = enrich::index_hook(vec![OllamaHost { max_chunk_files: 1, ..mock.host() }], fast_options());
    let (info, files) = scan(proj.path());
    let refs: Vec<&ScannedFile> = files.iter().filter(|f| f.ast.is_some()).collect();
    let err = hook(&info, &refs).unwrap_err();
    let msg = format!("{err:#}");
    assert!(msg.contains("LLM enrichment of") && msg.contains("no model host is left"), "{msg}");
    assert!(msg.contains("HTTP 500") && msg.contains("scripted failure"), "the host's own words: {msg}");
}

fn export_args(output: &Path) -> ScanExportArgs {
    ScanExportArgs { target: None, format: Some(Format::Json), output: Some(output.to_path_buf()) }
}

#[test]
fn scan_analyze_exports_ast_and_enrichment() {
    let proj = project();
    let cfg_dir = tempfile::tempdir().unwrap();
    let a = MockOllama::start(MockOptions::named("a"));
    let b = MockOllama::start(MockOptions::named("b"));
    let ctx = ctx(cfg_dir.path(), vec![a.host(), b.host()], vec![proj.path().to_path_buf()]);
    let out = cfg_dir.path().join("out/analysis.json");
    let outcome = analyze::analyze(&ctx, &export_args(&out), fast_options()).unwrap();
    assert_eq!(outcome.output, out);
    assert_eq!((outcome.enrichment.enriched, outcome.enrichment.unenriched), (2, 0));
    assert_eq!(outcome.enrichment.hosts.iter().map(|h| h.files).sum::<usize>(), 2);
    assert_eq!(outcome.summaries.len(), 1);

    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        doc["sources"][0]["summary"].as_str(),
        Some(outcome.summaries[0].1.as_str()),
        "the project summary is exported"
    );
    let files = doc["sources"][0]["files"].as_array().unwrap();
    let by_path = |p: &str| files.iter().find(|f| f["path"] == p).unwrap_or_else(|| panic!("{p} in {doc}"));
    let lib = by_path("src/lib.rs");
    assert!(lib["description"].as_str().unwrap().starts_with("src/lib.rs described by"), "{lib}");
    assert_eq!(lib["tags"][0], "mock");
    assert!(lib["ast"]["functions"].is_array(), "{lib}");
    assert!(by_path("README.md")["description"].is_string());
    assert!(by_path("notes.txt").get("description").is_none(), "no AST, nothing sent");
    assert!(!cfg_dir.path().join("out/analysis.json.partial").exists());
}

#[test]
fn scan_analyze_without_hosts_or_with_a_down_host_fails_clearly() {
    let proj = project();
    let cfg_dir = tempfile::tempdir().unwrap();
    let out = cfg_dir.path().join("analysis.json");
    let no_hosts = ctx(cfg_dir.path(), vec![], vec![proj.path().to_path_buf()]);
    let msg = format!("{:#}", analyze::analyze(&no_hosts, &export_args(&out), fast_options()).unwrap_err());
    assert!(msg.contains("no model host is configured") && msg.contains("config.json5"), "{msg}");

    let down = MockOllama::start(MockOptions::default());
    let host = down.host();
    drop(down);
    let with_down = ctx(cfg_dir.path(), vec![host.clone()], vec![proj.path().to_path_buf()]);
    let msg = format!("{:#}", analyze::analyze(&with_down, &export_args(&out), fast_options()).unwrap_err());
    assert!(msg.contains(&format!("Ollama host {} is not reachable (GET / failed", host.host)), "{msg}");
    assert!(!out.exists(), "nothing is written when a host is down");
}
