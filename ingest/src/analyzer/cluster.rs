//! Several model hosts (Ollama or OpenAI-compatible, mixed) as competing
//! consumers.
//!
//! All batches go into one shared channel; each host has one worker
//! ([`super::worker`]) that takes the next batch as soon as it is free, so a
//! faster host processes more. A host that keeps failing in transport, or
//! that gives no usable answer while another host is live, is taken out, and
//! what is left of its batch goes back into the channel for the others. Only
//! when no host is left does the run stop, with an error naming every host
//! and what failed. Files the last host gives no usable answer for are
//! counted as not enriched, with the reason, and the run goes on.
//!
//! Every file sent ends up either enriched or counted as unenriched in the
//! report or the error: none is silently left out.

use std::collections::HashMap;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::{mpsc, Mutex};
use vibe_common::config::OllamaHost;

use super::batch::{make_batches, Batch, FileInput};
use super::client::LlmClient;
pub use super::options::ClusterOptions;
use super::prompts::{AstSelection, Prompts};
pub use super::report::{AnswerCounts, ClusterReport, HostReport};
use super::worker::{worker, BatchStats, Event, Shared};
use crate::indexer::Enrichment;

/// Why a run stopped.
#[derive(Debug, Clone, thiserror::Error)]
pub enum EnrichError {
    #[error(
        "no model host is left: {}. {} files enriched, {} not enriched",
        .failures.iter().map(|(h, e)| format!("{h} was taken out ({e})")).collect::<Vec<_>>().join("; "),
        .report.enriched,
        .report.unenriched
    )]
    NoHostLeft {
        failures: Vec<(String, String)>,
        /// What the run did until it stopped (counts, answers, hosts, files given up on).
        report: Box<ClusterReport>,
    },
    #[error("cannot build the prompt: {0}")]
    Prompt(String),
}

impl EnrichError {
    /// What the run did before it stopped, when it got that far.
    pub fn report(&self) -> Option<&ClusterReport> {
        match self {
            EnrichError::NoHostLeft { report, .. } => Some(report),
            EnrichError::Prompt(_) => None,
        }
    }
}

/// Enrich `files` on `clients` (health-checked beforehand). Batches are
/// sized with the smallest `max_chunk_chars`/`max_chunk_files` of the hosts;
/// each host renders its own prompt with its own AST selection.
pub async fn run(
    clients: &[LlmClient],
    prompts: Arc<Prompts>,
    project: &str,
    files: Vec<FileInput>,
    opts: &ClusterOptions,
) -> Result<(HashMap<String, Enrichment>, ClusterReport), EnrichError> {
    let start = Instant::now();
    let mut run = Collector::new(clients, files.len(), opts);
    if files.is_empty() {
        return Ok((run.enriched, run.report));
    }
    if clients.is_empty() {
        run.report.unenriched = files.len();
        return Err(EnrichError::NoHostLeft { failures: vec![], report: Box::new(run.report) });
    }
    let batches = batches_for(clients, files);
    run.outstanding = batches.len();
    let (work_tx, mut event_rx, mut workers) = start_workers(clients, batches, prompts, project, opts);
    run.work_tx = Some(work_tx);
    while run.outstanding > 0 {
        let Some(event) = event_rx.recv().await else {
            break;
        };
        if run.handle(event)? == Flow::Stop {
            break;
        }
    }
    let (enriched, report) = run.finish(start)?;
    while workers.join_next().await.is_some() {}
    Ok((enriched, report))
}

/// The batches of `files`, sized for the most limited of the hosts.
fn batches_for(clients: &[LlmClient], files: Vec<FileInput>) -> Vec<Batch> {
    let hosts: Vec<_> = clients.iter().map(|c| c.config().clone()).collect();
    let defaults = OllamaHost::default();
    let max_chars = hosts.iter().map(|h| h.max_chunk_chars).min().unwrap_or(defaults.max_chunk_chars);
    let max_files = hosts.iter().map(|h| h.max_chunk_files).min().unwrap_or(defaults.max_chunk_files);
    make_batches(files.into_iter().map(Arc::new).collect(), &AstSelection::union(&hosts), max_chars, max_files)
}

/// Queue `batches` and start one worker per client. Dropping the returned
/// set (on any return) aborts the workers.
fn start_workers(
    clients: &[LlmClient],
    batches: Vec<Batch>,
    prompts: Arc<Prompts>,
    project: &str,
    opts: &ClusterOptions,
) -> (mpsc::UnboundedSender<Batch>, mpsc::UnboundedReceiver<Event>, tokio::task::JoinSet<()>) {
    let (work_tx, work_rx) = mpsc::unbounded_channel::<Batch>();
    let (event_tx, event_rx) = mpsc::unbounded_channel::<Event>();
    for b in batches {
        let _ = work_tx.send(b);
    }
    let shared = Arc::new(Shared {
        prompts,
        project: project.to_string(),
        opts: opts.clone(),
        queue: Mutex::new(work_rx),
        events: event_tx,
        live: AtomicUsize::new(clients.len()),
    });
    let mut workers = tokio::task::JoinSet::new();
    for (i, client) in clients.iter().enumerate() {
        workers.spawn(worker(i, client.clone(), shared.clone()));
    }
    (work_tx, event_rx, workers)
}

#[derive(PartialEq)]
enum Flow {
    Continue,
    Stop,
}

/// What the run has gathered from the workers' events so far.
struct Collector<'a> {
    opts: &'a ClusterOptions,
    enriched: HashMap<String, Enrichment>,
    report: ClusterReport,
    /// Hosts not taken out.
    live: usize,
    /// Batches not finished.
    outstanding: usize,
    /// Where a failed host's remaining files go back; closed at the end.
    work_tx: Option<mpsc::UnboundedSender<Batch>>,
}

impl<'a> Collector<'a> {
    fn new(clients: &[LlmClient], files: usize, opts: &'a ClusterOptions) -> Self {
        let report = ClusterReport {
            hosts: clients
                .iter()
                .map(|c| HostReport {
                    host: c.host().to_string(),
                    model: c.config().model.clone(),
                    ..Default::default()
                })
                .collect(),
            files,
            ..Default::default()
        };
        Self {
            opts,
            enriched: HashMap::with_capacity(files),
            report,
            live: clients.len(),
            outstanding: 0,
            work_tx: None,
        }
    }

    fn merge(&mut self, host: usize, results: HashMap<String, Enrichment>, stats: &BatchStats) {
        let h = &mut self.report.hosts[host];
        h.files += results.len();
        h.requests += stats.requests;
        h.retries += stats.retries;
        h.answers.add(&stats.answers);
        h.prompt_tokens += stats.prompt_tokens;
        h.completion_tokens += stats.completion_tokens;
        if let Some(p) = &self.opts.progress {
            p.inc(results.len() as u64);
        }
        self.enriched.extend(results);
    }

    /// Take in one event; an error stops the run.
    fn handle(&mut self, event: Event) -> Result<Flow, EnrichError> {
        match event {
            Event::Done { host, results, stats } => {
                self.merge(host, results, &stats);
                self.outstanding -= 1;
            }
            Event::GaveUp { host, results, failed, why, stats } => {
                self.merge(host, results, &stats);
                if let Some(p) = &self.opts.progress {
                    p.inc(failed.len() as u64);
                }
                self.report.failed.extend(failed.into_iter().map(|path| (path, why.clone())));
                self.outstanding -= 1;
            }
            Event::HostFailed { host, results, remaining, error, stats } => {
                self.merge(host, results, &stats);
                if remaining.is_empty() {
                    self.outstanding -= 1;
                } else if let Some(tx) = &self.work_tx {
                    let _ = tx.send(Batch { files: remaining });
                }
                return Ok(self.take_out(host, error));
            }
            Event::Out { host, error } => return Ok(self.take_out(host, error)),
            Event::Prompt(e) => return Err(EnrichError::Prompt(e)),
        }
        Ok(Flow::Continue)
    }

    fn take_out(&mut self, host: usize, error: String) -> Flow {
        tracing::warn!(host = %self.report.hosts[host].host, "model host taken out: {error}");
        self.report.hosts[host].removed = Some(error);
        self.live -= 1;
        if self.live == 0 {
            Flow::Stop
        } else {
            Flow::Continue
        }
    }

    /// The final counts; an error if some files were not enriched.
    fn finish(mut self, start: Instant) -> Result<(HashMap<String, Enrichment>, ClusterReport), EnrichError> {
        // No more work: idle workers see the closed channel and stop.
        self.work_tx.take();
        let report = &mut self.report;
        report.enriched = self.enriched.len();
        report.unenriched = report.files - self.enriched.len();
        report.elapsed = start.elapsed();
        if self.outstanding > 0 || report.unenriched > report.failed.len() {
            let failures = report.hosts.iter().filter_map(|h| h.removed.clone().map(|e| (h.host.clone(), e))).collect();
            return Err(EnrichError::NoHostLeft { failures, report: Box::new(self.report) });
        }
        Ok((self.enriched, self.report))
    }
}
