//! End-to-end against a real Ollama (ignored by default; see ingest/prompts/README.md):
//!
//! ```sh
//! ollama pull qwen2.5-coder:3b-instruct
//! OLLAMA_HOST=http://127.0.0.1:11434 cargo test -p vibe-analyzer --test it ollama_real:: -- --ignored --nocapture
//! ```
//! `OLLAMA_MODEL` overrides the model.

use vibe_common::config::OllamaHost;
use vibe_ingest::analyzer::{Analyzer, FileInput};
use vibe_ingest::scanner::{self, ScanOptions};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a running Ollama with qwen2.5-coder:3b-instruct (OLLAMA_HOST)"]
async fn real_ollama_enriches_files_and_summarizes() {
    let mut host = std::env::var("OLLAMA_HOST").unwrap_or_else(|_| "http://127.0.0.1:11434".into());
    if !host.contains("://") {
        host = format!("http://{host}");
    }
    let model = std::env::var("OLLAMA_MODEL").unwrap_or_else(|_| "qwen2.5-coder:3b-instruct".into());
    let cfg = OllamaHost { host, model, timeout_secs: 300, ..OllamaHost::default() };
    let analyzer = Analyzer::new(&[cfg]).unwrap();
    analyzer.check().await.unwrap();

    // The analyzer's own sources.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ingest/src/analyzer");
    let mut inputs = Vec::new();
    scanner::scan(&root, &ScanOptions::default(), |f| inputs.extend(FileInput::from_scanned(&f))).unwrap();
    inputs.sort_by(|a, b| a.path.cmp(&b.path));
    inputs.truncate(4);
    let n = inputs.len();
    assert!(n >= 3);

    let (enriched, report) = analyzer.enrich("vibe-analyzer", inputs).await.unwrap();
    println!("{report}");
    assert_eq!(enriched.len(), n);
    for (path, e) in &enriched {
        println!("{path}: {} {:?}", e.description, e.tags);
        assert!(!e.description.trim().is_empty());
    }

    let summary = analyzer
        .summarize("vibe-analyzer", "# Vibe Analyzer\n\nAn Agentic RAG engine for codebases: it parses sources with tree-sitter, enriches them with an LLM and indexes them into OpenSearch for MCP tools.")
        .await
        .unwrap();
    println!("summary: {summary}");
    assert!(summary.len() > 20);
}
