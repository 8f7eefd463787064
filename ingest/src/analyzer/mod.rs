//! The analyzer: LLM enrichment through Ollama or an OpenAI-compatible server.
//!
//! * [`client`]: the HTTP client of both APIs.
//! * [`health`]: the checks run on every host before any work.
//! * [`prompts`]: the embedded handlebars templates (`ingest/prompts/*.hbs`).
//! * [`schema`]: the JSON schemas of the answers, sent with each request.
//! * [`batch`]: grouping files by `max_chunk_chars` and `max_chunk_files`.
//! * [`repair`]: JSON repair and validation of the model's answers.
//! * [`cluster`]: several hosts as competing consumers of one channel, each
//!   with a [`worker`]; [`report`]: what a run did.
//!
//! [`Analyzer`] ties them together. Its HTTP clients belong to the tokio
//! runtime they first run on: build one per runtime.

pub mod batch;
pub mod client;
pub mod cluster;
pub mod health;
mod options;
pub mod prompts;
pub mod repair;
pub mod report;
pub mod schema;
mod worker;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use vibe_common::config::OllamaHost;
use vibe_common::error_chain::chain;

pub use batch::FileInput;
pub use client::LlmClient;
pub use cluster::{ClusterOptions, EnrichError};
pub use health::HostCheckError;
pub use report::{AnswerCounts, ClusterReport, HostReport};

use crate::indexer::Enrichment;

/// Errors of the analyzer.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    #[error(
        "no model host is configured: add one to the \"ollama\" section of the config (see ingest/prompts/README.md)"
    )]
    NoHosts,
    #[error("{}", fmt_health(.0))]
    Health(Vec<HostCheckError>),
    #[error(transparent)]
    Enrich(#[from] EnrichError),
    #[error("{0}")]
    Setup(String),
    #[error("model host setup failed")]
    Client(#[from] client::ClientError),
    /// `failures`: one line per host, with its causes.
    #[error("no model host could summarize the README of {project}: {}", .failures.join("; "))]
    Summary { project: String, failures: Vec<String> },
}

/// Several errors, one line each with its causes.
fn fmt_health(errors: &[HostCheckError]) -> String {
    match errors {
        [one] => chain(one),
        many => format!(
            "{} model hosts failed their checks:\n{}",
            many.len(),
            many.iter().map(|e| format!("- {}", chain(e))).collect::<Vec<_>>().join("\n")
        ),
    }
}

/// Enrichment of a source: per-file descriptions and tags, and the project summary.
#[derive(Debug)]
pub struct Analyzer {
    clients: Vec<LlmClient>,
    prompts: Arc<prompts::Prompts>,
    pub options: ClusterOptions,
}

impl Analyzer {
    /// An analyzer over `hosts` (errors when there is none).
    pub fn new(hosts: &[OllamaHost]) -> Result<Self, AnalyzeError> {
        if hosts.is_empty() {
            return Err(AnalyzeError::NoHosts);
        }
        let clients = hosts.iter().map(LlmClient::new).collect::<Result<Vec<_>, _>>()?;
        let prompts =
            prompts::Prompts::new().map_err(|e| AnalyzeError::Setup(format!("invalid prompt template: {e:#}")))?;
        Ok(Self { clients, prompts: Arc::new(prompts), options: ClusterOptions::default() })
    }

    pub fn with_options(mut self, options: ClusterOptions) -> Self {
        self.options = options;
        self
    }

    pub fn clients(&self) -> &[LlmClient] {
        &self.clients
    }

    /// The checks of every host: `GET /`, the model in `GET /api/tags`, warm-up.
    pub async fn check(&self) -> Result<(), AnalyzeError> {
        health::check_all(&self.clients).await.map_err(AnalyzeError::Health)
    }

    /// Descriptions and tags of `files`, by path, spread over all hosts.
    pub async fn enrich(
        &self,
        project: &str,
        files: Vec<FileInput>,
    ) -> Result<(HashMap<String, Enrichment>, ClusterReport), EnrichError> {
        self.enrich_with(project, files, &self.options).await
    }

    /// [`Analyzer::enrich`] with other options (e.g. a progress bar).
    pub async fn enrich_with(
        &self,
        project: &str,
        files: Vec<FileInput>,
        options: &ClusterOptions,
    ) -> Result<(HashMap<String, Enrichment>, ClusterReport), EnrichError> {
        cluster::run(&self.clients, self.prompts.clone(), project, files, options).await
    }

    /// A 2–3 sentence summary of the project from its README. Each host is
    /// tried in turn; a host's wrong answers are retried like file batches.
    pub async fn summarize(&self, project: &str, readme: &str) -> Result<String, AnalyzeError> {
        let mut failures = Vec::new();
        for client in &self.clients {
            let cfg = client.config();
            let prompt = self
                .prompts
                .project(project, readme, cfg.max_chunk_chars, !cfg.json_schema)
                .map_err(|e| AnalyzeError::Setup(format!("cannot build the project prompt: {e:#}")))?;
            let schema = schema::summary_answer();
            let mut attempts = 0;
            let mut transport = 0;
            loop {
                match client.generate(&prompt, client.answer_format(&schema), attempts).await {
                    Ok(answer) => {
                        attempts += 1;
                        if let Some(summary) = repair::parse_summary(&answer.response) {
                            return Ok(summary);
                        }
                        if attempts > self.options.max_retries {
                            failures.push(format!("{}: no usable summary after {attempts} attempts", client.host()));
                            break;
                        }
                        tokio::time::sleep(self.options.retry_delay).await;
                    }
                    Err(e) => {
                        transport += 1;
                        if transport > self.options.host_retries {
                            failures.push(chain(&e));
                            break;
                        }
                        tokio::time::sleep(self.options.host_retry_delay).await;
                    }
                }
            }
        }
        Err(AnalyzeError::Summary { project: project.to_string(), failures })
    }
}

/// Run `fut` to completion from synchronous code, whether or not a tokio
/// runtime is running: inside a multi-thread runtime the current worker
/// blocks in place; inside a current-thread runtime (or none) a dedicated
/// thread with its own runtime runs it.
pub fn block_on_sync<F>(fut: F) -> F::Output
where
    F: std::future::Future + Send,
    F::Output: Send,
{
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(|| handle.block_on(fut))
        }
        Ok(_) => std::thread::scope(|s| {
            s.spawn(|| new_runtime().block_on(fut)).join().unwrap_or_else(|p| std::panic::resume_unwind(p))
        }),
        Err(_) => new_runtime().block_on(fut),
    }
}

fn new_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("cannot start a tokio runtime")
}

/// Shorter retry delays, for tests and benchmarks.
pub fn fast_options() -> ClusterOptions {
    ClusterOptions {
        retry_delay: Duration::from_millis(10),
        host_retry_delay: Duration::from_millis(10),
        ..ClusterOptions::default()
    }
}
