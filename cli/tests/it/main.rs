//! Integration tests of the ingest CLI and library against the real OpenSearch and a scripted Ollama.
//! One test binary per crate (as ripgrep does): every module below links the
//! crate once. Run one module with `cargo test -p <crate> --test it <module>::`.

mod cli_config;
mod cluster;
mod dry_run;
mod failover3;
mod fuzz_extract;
mod fuzz_repair;
mod fuzz_support;
mod indexer;
mod indexer_backend_crash;
mod llm_real;
mod ollama_cli;
mod ollama_cluster;
mod ollama_enrich;
mod ollama_real;
mod ollama_support;
mod ownership;
mod parsers_test;
mod refusals;
mod run_lock;
mod scanner_walk;
mod shared_identity;
mod stats_cli;
#[path = "../../../tests/support/test_cluster.rs"]
mod test_cluster;
mod watch;
