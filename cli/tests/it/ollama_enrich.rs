//! LLM enrichment against one scripted Ollama host over real HTTP: health
//! checks, prompts and options, JSON repair, retries, clear errors.

use crate::ollama_support::{
    description, file_bodies, requested_paths, skeleton_paths, MockOllama, MockOptions, Reply, MODEL,
};
use vibe_common::config::OllamaHost;
use vibe_common::document::ast::{AstData, AstElement};
use vibe_ingest::analyzer::{fast_options, AnalyzeError, Analyzer, EnrichError, FileInput};

fn files(n: usize) -> Vec<FileInput> {
    (0..n)
        .map(|i| FileInput {
            path: format!("src/f{i}.rs"),
            language: Some("Rust".into()),
            ast: AstData {
                imports: vec![format!("use crate::import_{i};")],
                functions: vec![AstElement {
                    signature: format!("pub fn handler_{i}(req: Request) -> Response"),
                    comments: vec!["Handles one request.".into()],
                    ..Default::default()
                }],
                ..Default::default()
            },
        })
        .collect()
}

fn analyzer(hosts: &[OllamaHost]) -> Analyzer {
    Analyzer::new(hosts).unwrap().with_options(fast_options())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn good_answers_enrich_every_file_with_the_configured_options() {
    let mock = MockOllama::start(MockOptions::named("a"));
    let host =
        OllamaHost { temperature: 0.3, seed: 7, num_ctx: 8192, num_predict: 512, max_chunk_files: 2, ..mock.host() };
    let a = analyzer(&[host]);
    a.check().await.unwrap();
    assert_eq!(mock.warmups(), 1, "the warm-up loads the model");

    let (enriched, report) = a.enrich("demo", files(5)).await.unwrap();
    assert_eq!(enriched.len(), 5);
    for i in 0..5 {
        let p = format!("src/f{i}.rs");
        assert_eq!(enriched[&p].description, description("a", &p));
        assert_eq!(enriched[&p].tags, ["mock", "a"]);
    }
    assert_eq!((report.enriched, report.unenriched, report.files), (5, 0, 5));
    assert_eq!(report.hosts[0].files, 5);
    assert_eq!(report.hosts[0].requests, 3, "5 files in batches of 2");
    assert!(report.to_string().contains("5 files enriched, 0 not enriched"), "{report}");

    let bodies = mock.generate_bodies();
    assert_eq!(bodies.len(), 3);
    for body in &bodies {
        assert_eq!(body["model"], MODEL);
        assert_eq!(body["stream"], false);
        assert_eq!(body["format"]["required"], serde_json::json!(["files"]), "the answer's schema is sent");
        assert_eq!(body["options"]["temperature"], 0.3);
        assert_eq!(body["options"]["seed"], 7);
        assert_eq!(body["options"]["num_ctx"], 8192);
        assert_eq!(body["options"]["num_predict"], 512);
    }
    let first = bodies[0]["prompt"].as_str().unwrap();
    assert_eq!(requested_paths(&bodies[0]), ["src/f0.rs", "src/f1.rs"]);
    assert!(skeleton_paths(first).is_empty(), "with a schema the prompt has no skeleton to copy: {first}");
    assert!(first.contains("pub fn handler_0(req: Request) -> Response // Handles one request."), "{first}");
    assert!(!first.contains("import_0"), "ast_imports is off by default: {first}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ast_flags_choose_the_elements_sent() {
    let mock = MockOllama::start(MockOptions::default());
    let host = OllamaHost { ast_imports: true, ast_functions: false, ..mock.host() };
    let a = analyzer(&[host]);
    a.enrich("demo", files(1)).await.unwrap();
    let prompt = &mock.file_prompts()[0];
    assert!(prompt.contains("use crate::import_0;"), "{prompt}");
    assert!(!prompt.contains("handler_0"), "{prompt}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fenced_json_trailing_commas_and_bare_keys_are_repaired() {
    let opts =
        MockOptions { script: vec![Reply::Fenced, Reply::TrailingCommas, Reply::BareKeys], ..MockOptions::named("r") };
    let mock = MockOllama::start(opts);
    let host = OllamaHost { max_chunk_files: 1, ..mock.host() };
    let a = analyzer(&[host]);
    let (enriched, report) = a.enrich("demo", files(3)).await.unwrap();
    assert_eq!(enriched.len(), 3);
    assert_eq!(report.hosts[0].requests, 3, "no retry needed: {report}");
    assert_eq!(report.hosts[0].retries, 0);
    assert_eq!((report.answers().valid, report.answers().repaired), (0, 3), "each answer needed repair");
    for i in 0..3 {
        let p = format!("src/f{i}.rs");
        assert_eq!(enriched[&p].description, description("r", &p));
        assert_eq!(enriched[&p].tags, ["mock", "r"]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_file_is_asked_again() {
    let opts = MockOptions { script: vec![Reply::MissingFile], ..MockOptions::default() };
    let mock = MockOllama::start(opts);
    let a = analyzer(&[mock.host()]);
    let (enriched, report) = a.enrich("demo", files(3)).await.unwrap();
    assert_eq!(enriched.len(), 3);
    assert_eq!((report.hosts[0].requests, report.hosts[0].retries), (2, 1));
    let bodies = mock.generate_bodies();
    let files = file_bodies(&bodies);
    assert_eq!(requested_paths(files[0]), ["src/f0.rs", "src/f1.rs", "src/f2.rs"]);
    assert_eq!(requested_paths(files[1]), ["src/f2.rs"], "only the missing file is sent again");
    assert_ne!(files[0]["options"]["seed"], files[1]["options"]["seed"], "a retry moves the seed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_path_or_garbage_is_retried() {
    let opts = MockOptions { script: vec![Reply::ChangedPath, Reply::Garbage], ..MockOptions::default() };
    let mock = MockOllama::start(opts);
    let a = analyzer(&[mock.host()]);
    let (enriched, report) = a.enrich("demo", files(2)).await.unwrap();
    assert_eq!(enriched.len(), 2);
    assert!(!enriched.contains_key("SRC/F0.RS"));
    assert_eq!(report.hosts[0].requests, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_the_last_host_keeps_dropping_is_counted_with_why_and_the_run_goes_on() {
    let opts = MockOptions { then: Reply::MissingFile, ..MockOptions::default() };
    let mock = MockOllama::start(opts);
    let a = analyzer(&[mock.host()]);
    let (enriched, report) = a.enrich("demo", files(2)).await.unwrap();
    assert_eq!(enriched.keys().collect::<Vec<_>>(), ["src/f0.rs"]);
    assert_eq!((report.enriched, report.unenriched), (1, 1));
    assert_eq!(
        report.failed,
        [("src/f1.rs".to_string(), "no usable answer after 6 attempts: missing src/f1.rs".to_string())]
    );
    assert_eq!(mock.file_prompts().len(), 6, "1 attempt + 5 retries");
    let text = report.to_string();
    assert!(text.contains("not enriched, 1 files (no usable answer after 6 attempts: missing src/f1.rs): src/f1.rs"));
    assert!(text.contains("answers: 6 valid JSON, 0 repaired, 0 not JSON; 6 missed files (asked again)"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lone_host_that_answers_only_garbage_is_taken_out_after_three_batches() {
    let mock = MockOllama::start(MockOptions { then: Reply::Garbage, ..MockOptions::default() });
    let host = OllamaHost { max_chunk_files: 1, ..mock.host() };
    let a = analyzer(&[host]);
    let err = a.enrich("demo", files(5)).await.unwrap_err();
    match &err {
        EnrichError::NoHostLeft { failures, report } => {
            assert_eq!((report.enriched, report.unenriched), (0, 5));
            assert!(failures[0].1.starts_with("gave no usable answer for 3 batches in a row"), "{failures:?}");
        }
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(mock.file_prompts().len(), 18, "3 batches of 6 attempts, then no more");
    assert_eq!(err.report().unwrap().answers().invalid, 18, "the error keeps the run's counts");
    assert!(err.to_string().contains("I am sorry"), "the last answer is quoted: {err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_json_schema_the_prompt_carries_a_skeleton_and_any_json_is_asked() {
    let mock = MockOllama::start(MockOptions::default());
    let host = OllamaHost { json_schema: false, ..mock.host() };
    let a = analyzer(&[host]);
    let (enriched, _) = a.enrich("demo", files(2)).await.unwrap();
    assert_eq!(enriched.len(), 2);
    let bodies = mock.generate_bodies();
    assert_eq!(bodies[0]["format"], "json");
    assert_eq!(skeleton_paths(bodies[0]["prompt"].as_str().unwrap()), ["src/f0.rs", "src/f1.rs"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_host_is_waited_for() {
    let opts = MockOptions { latency: std::time::Duration::from_millis(700), ..MockOptions::default() };
    let mock = MockOllama::start(opts);
    let host = OllamaHost { timeout_secs: 5, ..mock.host() };
    let a = analyzer(&[host]);
    let (enriched, report) = a.enrich("demo", files(2)).await.unwrap();
    assert_eq!(enriched.len(), 2);
    assert_eq!(report.hosts[0].retries, 0);
    assert!(report.elapsed >= std::time::Duration::from_millis(700));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_that_is_not_installed_is_a_clear_error() {
    let mock = MockOllama::start(MockOptions { models: vec!["llama3:latest".into()], ..MockOptions::default() });
    let err = analyzer(&[mock.host()]).check().await.unwrap_err();
    assert!(matches!(&err, AnalyzeError::Health(v) if v.len() == 1), "{err:?}");
    let msg = err.to_string();
    assert!(msg.contains(&mock.url), "{msg}");
    assert!(msg.contains("model \"qwen2.5-coder:3b-instruct\" is not installed"), "{msg}");
    assert!(msg.contains("installed: llama3:latest") && msg.contains("ollama pull qwen2.5-coder:3b-instruct"), "{msg}");
    assert_eq!(mock.warmups(), 0);

    // A model name without a tag means :latest.
    let host = OllamaHost { model: "llama3".into(), ..mock.host() };
    analyzer(&[host]).check().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_host_and_a_failed_warm_up_are_named() {
    let good = MockOllama::start(MockOptions::default());
    let bad_warmup = MockOllama::start(MockOptions { warmup_status: Some(500), ..MockOptions::default() });
    let down = MockOllama::start(MockOptions::default());
    let down_host = down.host();
    drop(down);
    let err = analyzer(&[good.host(), down_host.clone(), bad_warmup.host()]).check().await.unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("2 model hosts failed their checks"), "{msg}");
    assert!(msg.contains(&format!("Ollama host {} is not reachable (GET / failed", down_host.host)), "{msg}");
    assert!(msg.contains(&format!("Ollama host {}: warm-up of model", bad_warmup.url)), "{msg}");
    assert!(msg.contains("HTTP 500"), "{msg}");
    assert!(!msg.contains(&good.url), "{msg}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_hosts_is_an_error() {
    let err = Analyzer::new(&[]).unwrap_err();
    assert!(err.to_string().contains("no model host is configured"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readme_becomes_a_summary() {
    let mock = MockOllama::start(MockOptions::named("s"));
    let a = analyzer(&[mock.host()]);
    let summary = a.summarize("demo", "# Demo\n\nA demo project that does things.").await.unwrap();
    assert_eq!(summary, "demo is a test project. It is summarized by s.");
    let body = &mock.generate_bodies()[0];
    let prompt = body["prompt"].as_str().unwrap();
    assert!(prompt.contains("A demo project that does things.") && prompt.contains("2-3 sentences"), "{prompt}");
    assert_eq!(body["options"]["seed"], 42);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_key_is_read_from_the_variable_the_config_names() {
    let mock = MockOllama::start(MockOptions { key: Some("s3cret".into()), ..MockOptions::default() });
    std::env::set_var("VIBE_TEST_KEY_GOOD", "s3cret");
    std::env::set_var("VIBE_TEST_KEY_WRONG", "nope");
    let good = OllamaHost { api_key_env: Some("VIBE_TEST_KEY_GOOD".into()), ..mock.host() };
    let a = analyzer(&[good]);
    a.check().await.unwrap();
    assert_eq!(a.enrich("demo", files(2)).await.unwrap().0.len(), 2);

    let wrong = OllamaHost { api_key_env: Some("VIBE_TEST_KEY_WRONG".into()), ..mock.host() };
    let msg = vibe_common::error_chain::chain(&analyzer(&[wrong]).check().await.unwrap_err());
    assert!(msg.contains("cannot list the installed models") && msg.contains("HTTP 401"), "{msg}");
    let none = analyzer(&[mock.host()]).check().await.unwrap_err().to_string();
    assert!(none.contains("cannot list the installed models"), "no key, no models: {none}");

    let unset = OllamaHost { api_key_env: Some("VIBE_TEST_KEY_UNSET".into()), ..mock.host() };
    let msg = vibe_common::error_chain::chain(&Analyzer::new(&[unset]).unwrap_err());
    assert!(msg.contains("the environment variable VIBE_TEST_KEY_UNSET (api_key_env) is not set"), "{msg}");
}
