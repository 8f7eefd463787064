//! Throughput of the Ollama cluster: two scripted hosts with the same fixed
//! latency against one such host. Prints both times and the ratio
//! (target: at least 1.9×). Run through `bench/ollama_cluster.sh`.
//!
//! Usage: ollama_cluster_bench [--files N] [--latency-ms MS] [--chunk-files N]

#[path = "../tests/it/ollama_support/mod.rs"]
mod ollama_support;

use std::time::{Duration, Instant};

use ollama_support::{MockOllama, MockOptions};
use vibe_common::config::OllamaHost;
use vibe_common::document::ast::{AstData, AstElement};
use vibe_ingest::analyzer::{fast_options, Analyzer, FileInput};

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{name} expects a number")))
        .unwrap_or(default)
}

fn files(n: usize) -> Vec<FileInput> {
    (0..n)
        .map(|i| FileInput {
            path: format!("src/module_{i:04}.rs"),
            language: Some("Rust".into()),
            ast: AstData {
                functions: (0..8)
                    .map(|j| AstElement {
                        signature: format!("pub fn op_{i}_{j}(input: &str) -> Result<String>"),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            },
        })
        .collect()
}

async fn run(hosts: &[OllamaHost], n: usize) -> (Duration, Vec<usize>) {
    let analyzer = Analyzer::new(hosts).unwrap().with_options(fast_options());
    analyzer.check().await.unwrap();
    let start = Instant::now();
    let (enriched, report) = analyzer.enrich("bench", files(n)).await.unwrap();
    let elapsed = start.elapsed();
    assert_eq!(enriched.len(), n, "every file is enriched");
    (elapsed, report.hosts.iter().map(|h| h.files).collect())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n = arg(&args, "--files", 120) as usize;
    let latency = Duration::from_millis(arg(&args, "--latency-ms", 50));
    let chunk_files = arg(&args, "--chunk-files", 3) as usize;
    let mock = |name: &str| MockOllama::start(MockOptions { latency, ..MockOptions::named(name) });
    let (a, b) = (mock("a"), mock("b"));
    let host = |m: &MockOllama| OllamaHost { max_chunk_files: chunk_files, ..m.host() };
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();

    println!(
        "{n} files, {} per request ({} requests), {} ms per request on every host",
        chunk_files,
        n.div_ceil(chunk_files),
        latency.as_millis()
    );
    let (one, one_counts) = rt.block_on(run(&[host(&a)], n));
    println!(
        "1 host : {:>7.3}s  {:>7.1} files/s  per host {:?}",
        one.as_secs_f64(),
        n as f64 / one.as_secs_f64(),
        one_counts
    );
    let (two, two_counts) = rt.block_on(run(&[host(&a), host(&b)], n));
    println!(
        "2 hosts: {:>7.3}s  {:>7.1} files/s  per host {:?}",
        two.as_secs_f64(),
        n as f64 / two.as_secs_f64(),
        two_counts
    );
    let ratio = one.as_secs_f64() / two.as_secs_f64();
    println!("throughput ratio (2 hosts / 1 host): {ratio:.2}x (target >= 1.90x)");
    if ratio < 1.9 {
        std::process::exit(1);
    }
}
