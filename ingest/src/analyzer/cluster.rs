//! Several Ollama hosts as competing consumers.
//!
//! All batches go into one shared channel; each host has one worker that
//! takes the next batch as soon as it is free, so a faster host processes
//! more. A worker retries a request that fails in transport a few times; a
//! host that keeps failing is taken out, and what is left of its batch goes
//! back into the channel for the others. Only when no host is left does the
//! run stop, with an error naming every host and what failed. A model that
//! keeps returning wrong JSON (missing files, changed paths) stops the run
//! after [`ClusterOptions::max_retries`] retries, with advice.
//!
//! Every file sent ends up either enriched or counted as unenriched in the
//! report or the error: none is silently left out.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, Mutex};
use vibe_common::config::OllamaHost;
use vibe_common::error::chain;

use super::batch::{make_batches, Batch, FileInput};
use super::client::OllamaClient;
use super::prompts::{AstSelection, Prompts};
use super::repair::check_answer;
use crate::indexer::Enrichment;

/// Retry policy of a run.
#[derive(Clone)]
pub struct ClusterOptions {
    /// Retries of a batch whose answer misses files or changes paths (then the run stops).
    pub max_retries: usize,
    /// Delay before such a retry.
    pub retry_delay: Duration,
    /// Retries of a request that failed in transport (connection, timeout,
    /// HTTP error) before its host is taken out.
    pub host_retries: usize,
    /// Delay before such a retry.
    pub host_retry_delay: Duration,
    /// Advanced by the number of files enriched.
    pub progress: Option<indicatif::ProgressBar>,
}

impl Default for ClusterOptions {
    fn default() -> Self {
        Self {
            max_retries: 5,
            retry_delay: Duration::from_secs(2),
            host_retries: 2,
            host_retry_delay: Duration::from_secs(1),
            progress: None,
        }
    }
}

impl fmt::Debug for ClusterOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClusterOptions")
            .field("max_retries", &self.max_retries)
            .field("retry_delay", &self.retry_delay)
            .field("host_retries", &self.host_retries)
            .field("host_retry_delay", &self.host_retry_delay)
            .finish()
    }
}

/// What one host did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostReport {
    pub host: String,
    pub model: String,
    /// Files this host enriched.
    pub files: usize,
    /// Generate requests sent (retries included).
    pub requests: usize,
    /// Requests repeated because of a wrong answer or a transport error.
    pub retries: usize,
    /// Why the host was taken out, if it was.
    pub removed: Option<String>,
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClusterReport {
    pub hosts: Vec<HostReport>,
    /// Files sent to the model.
    pub files: usize,
    pub enriched: usize,
    pub unenriched: usize,
    pub elapsed: Duration,
}

impl ClusterReport {
    /// Add the counts of another run (same hosts, in the same order).
    pub fn merge(&mut self, other: &ClusterReport) {
        if self.hosts.is_empty() {
            self.hosts = other
                .hosts
                .iter()
                .map(|h| HostReport { host: h.host.clone(), model: h.model.clone(), ..Default::default() })
                .collect();
        }
        for (mine, theirs) in self.hosts.iter_mut().zip(&other.hosts) {
            mine.files += theirs.files;
            mine.requests += theirs.requests;
            mine.retries += theirs.retries;
            if theirs.removed.is_some() {
                mine.removed = theirs.removed.clone();
            }
        }
        self.files += other.files;
        self.enriched += other.enriched;
        self.unenriched += other.unenriched;
        self.elapsed += other.elapsed;
    }
}

impl fmt::Display for ClusterReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LLM enrichment: {} files enriched, {} not enriched (took {:.1}s)",
            self.enriched,
            self.unenriched,
            self.elapsed.as_secs_f64()
        )?;
        for h in &self.hosts {
            write!(f, "\n  {} ({}): {} files, {} requests", h.host, h.model, h.files, h.requests)?;
            if h.retries > 0 {
                write!(f, ", {} retries", h.retries)?;
            }
            if let Some(why) = &h.removed {
                write!(f, ", taken out: {why}")?;
            }
        }
        Ok(())
    }
}

/// Why a run stopped.
#[derive(Debug, Clone, thiserror::Error)]
pub enum EnrichError {
    #[error(
        "Ollama host {host} (model {model}) did not return a valid description for {} after {attempts} attempts ({problem}). \
         {enriched} files enriched, {unenriched} not enriched. Lower max_chunk_chars (and max_chunk_files) in the ollama section of the config, or use another model",
        .paths.join(", ")
    )]
    InvalidAnswer {
        host: String,
        model: String,
        paths: Vec<String>,
        attempts: usize,
        problem: String,
        enriched: usize,
        unenriched: usize,
    },
    #[error(
        "no Ollama host is left: {}. {enriched} files enriched, {unenriched} not enriched",
        .failures.iter().map(|(h, e)| format!("{h} was taken out ({e})")).collect::<Vec<_>>().join("; ")
    )]
    NoHostLeft { failures: Vec<(String, String)>, enriched: usize, unenriched: usize },
    #[error("cannot build the prompt: {0}")]
    Prompt(String),
}

/// The work shared by the workers.
struct Shared {
    prompts: Arc<Prompts>,
    project: String,
    opts: ClusterOptions,
    queue: Mutex<mpsc::UnboundedReceiver<Batch>>,
    events: mpsc::UnboundedSender<Event>,
}

enum Event {
    /// A batch is done.
    Done { host: usize, results: HashMap<String, Enrichment>, requests: usize, retries: usize },
    /// The host is out; `remaining` goes back to the channel.
    HostFailed {
        host: usize,
        results: HashMap<String, Enrichment>,
        remaining: Vec<Arc<FileInput>>,
        error: String,
        requests: usize,
        retries: usize,
    },
    /// The model keeps answering wrong: the run stops.
    Invalid { host: usize, results: HashMap<String, Enrichment>, paths: Vec<String>, attempts: usize, problem: String },
    /// A prompt could not be rendered: the run stops.
    Prompt(String),
}

/// Enrich `files` on `clients` (health-checked beforehand). Batches are
/// sized with the smallest `max_chunk_chars`/`max_chunk_files` of the hosts;
/// each host renders its own prompt with its own AST selection.
pub async fn run(
    clients: &[OllamaClient],
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
        return Err(EnrichError::NoHostLeft { failures: vec![], enriched: 0, unenriched: files.len() });
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
fn batches_for(clients: &[OllamaClient], files: Vec<FileInput>) -> Vec<Batch> {
    let hosts: Vec<_> = clients.iter().map(|c| c.config().clone()).collect();
    let defaults = OllamaHost::default();
    let max_chars = hosts.iter().map(|h| h.max_chunk_chars).min().unwrap_or(defaults.max_chunk_chars);
    let max_files = hosts.iter().map(|h| h.max_chunk_files).min().unwrap_or(defaults.max_chunk_files);
    make_batches(files.into_iter().map(Arc::new).collect(), &AstSelection::union(&hosts), max_chars, max_files)
}

/// Queue `batches` and start one worker per client. Dropping the returned
/// set (on any return) aborts the workers.
fn start_workers(
    clients: &[OllamaClient],
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
    fn new(clients: &[OllamaClient], files: usize, opts: &'a ClusterOptions) -> Self {
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

    fn merge(&mut self, host: usize, results: HashMap<String, Enrichment>) {
        self.report.hosts[host].files += results.len();
        if let Some(p) = &self.opts.progress {
            p.inc(results.len() as u64);
        }
        self.enriched.extend(results);
    }

    /// Take in one event; an error stops the run.
    fn handle(&mut self, event: Event) -> Result<Flow, EnrichError> {
        match event {
            Event::Done { host, results, requests, retries } => {
                self.report.hosts[host].requests += requests;
                self.report.hosts[host].retries += retries;
                self.merge(host, results);
                self.outstanding -= 1;
            }
            Event::HostFailed { host, results, remaining, error, requests, retries } => {
                self.report.hosts[host].requests += requests;
                self.report.hosts[host].retries += retries;
                self.merge(host, results);
                tracing::warn!(host = %self.report.hosts[host].host, "Ollama host taken out: {error}");
                self.report.hosts[host].removed = Some(error);
                self.live -= 1;
                if remaining.is_empty() {
                    self.outstanding -= 1;
                } else if let Some(tx) = &self.work_tx {
                    let _ = tx.send(Batch { files: remaining });
                }
                if self.live == 0 {
                    return Ok(Flow::Stop);
                }
            }
            Event::Invalid { host, results, paths, attempts, problem } => {
                self.merge(host, results);
                self.report.enriched = self.enriched.len();
                return Err(EnrichError::InvalidAnswer {
                    host: self.report.hosts[host].host.clone(),
                    model: self.report.hosts[host].model.clone(),
                    paths,
                    attempts,
                    problem,
                    enriched: self.enriched.len(),
                    unenriched: self.report.files - self.enriched.len(),
                });
            }
            Event::Prompt(e) => return Err(EnrichError::Prompt(e)),
        }
        Ok(Flow::Continue)
    }

    /// The final counts; an error if some files were not enriched.
    fn finish(mut self, start: Instant) -> Result<(HashMap<String, Enrichment>, ClusterReport), EnrichError> {
        // No more work: idle workers see the closed channel and stop.
        self.work_tx.take();
        let report = &mut self.report;
        report.enriched = self.enriched.len();
        report.unenriched = report.files - self.enriched.len();
        report.elapsed = start.elapsed();
        if self.outstanding > 0 || report.unenriched > 0 {
            let failures = report.hosts.iter().filter_map(|h| h.removed.clone().map(|e| (h.host.clone(), e))).collect();
            return Err(EnrichError::NoHostLeft { failures, enriched: report.enriched, unenriched: report.unenriched });
        }
        Ok((self.enriched, self.report))
    }
}

async fn worker(host: usize, client: OllamaClient, shared: Arc<Shared>) {
    loop {
        let batch = {
            let mut queue = shared.queue.lock().await;
            queue.recv().await
        };
        let Some(batch) = batch else { return };
        let event = process_batch(host, &client, &shared, batch).await;
        let stop = !matches!(event, Event::Done { .. });
        if shared.events.send(event).is_err() || stop {
            return;
        }
    }
}

/// Send one batch until every file has a valid answer. Files answered are
/// kept; only the missing ones are asked again.
async fn process_batch(host: usize, client: &OllamaClient, shared: &Shared, batch: Batch) -> Event {
    let cfg = client.config();
    let sel = AstSelection::from_config(cfg);
    let opts = &shared.opts;
    let mut remaining = batch.files;
    let mut results: HashMap<String, Enrichment> = HashMap::new();
    let (mut requests, mut retries) = (0usize, 0usize);
    let (mut bad_answers, mut transport_failures) = (0usize, 0usize);
    loop {
        let refs: Vec<&FileInput> = remaining.iter().map(|f| f.as_ref()).collect();
        let prompt = match shared.prompts.files(&shared.project, &refs, &sel, cfg.max_chunk_chars) {
            Ok(p) => p,
            Err(e) => return Event::Prompt(format!("{e:#}")),
        };
        let paths: Vec<&str> = refs.iter().map(|f| f.path.as_str()).collect();
        requests += 1;
        let problem = match client.generate(None, &prompt, true).await {
            Err(e) => {
                transport_failures += 1;
                if transport_failures > opts.host_retries {
                    return Event::HostFailed {
                        host,
                        results,
                        remaining,
                        error: format!(
                            "{} failed {} times, last: {}",
                            e.request,
                            transport_failures,
                            chain(e.source.as_ref())
                        ),
                        requests,
                        retries,
                    };
                }
                tracing::debug!(host = client.host(), "request failed, retrying: {}", chain(&e));
                retries += 1;
                tokio::time::sleep(opts.host_retry_delay).await;
                continue;
            }
            Ok(answer) => {
                transport_failures = 0;
                match check_answer(&answer.response, &paths) {
                    Ok(checked) => {
                        let problem = checked.problem();
                        results.extend(checked.matched);
                        remaining.retain(|f| !results.contains_key(&f.path));
                        if remaining.is_empty() {
                            return Event::Done { host, results, requests, retries };
                        }
                        problem
                    }
                    Err(e) => e,
                }
            }
        };
        bad_answers += 1;
        if bad_answers > opts.max_retries {
            return Event::Invalid {
                host,
                results,
                paths: remaining.iter().map(|f| f.path.clone()).collect(),
                attempts: bad_answers,
                problem,
            };
        }
        tracing::debug!(host = client.host(), "answer incomplete ({problem}), retrying");
        retries += 1;
        tokio::time::sleep(opts.retry_delay).await;
    }
}
