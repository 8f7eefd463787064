//! One host's worker: it takes the next batch from the shared channel, asks
//! the model until every file of it has a usable answer, and tells the run
//! what happened as an [`Event`].
//!
//! * A request that fails in transport is retried `host_retries` times; then
//!   the host is taken out and the files left go back to the channel.
//! * An answer that misses files is asked again for the missing ones, with
//!   another seed (a fixed seed would give the same answer again), up to
//!   `max_retries` times. Then, if another host is live, this one is taken
//!   out and the files go back to the channel; if it is the last host, the
//!   files are counted as not enriched with the reason, and it goes on.
//!   A last host that gives up on [`MAX_BATCHES_GIVEN_UP`] batches in a row
//!   answers nothing usable: it is taken out.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::{mpsc, Mutex};
use vibe_common::error_chain::chain;

use super::batch::{Batch, FileInput};
use super::client::{ClientError, LlmClient};
use super::options::ClusterOptions;
use super::prompts::{AstSelection, Prompts};
use super::repair::check_answer;
use super::report::AnswerCounts;
use super::schema;
use crate::indexer::Enrichment;

/// Batches in a row a last host may give up on before it is taken out.
pub const MAX_BATCHES_GIVEN_UP: usize = 3;

/// The work shared by the workers.
pub(super) struct Shared {
    pub prompts: Arc<Prompts>,
    pub project: String,
    pub opts: ClusterOptions,
    pub queue: Mutex<mpsc::UnboundedReceiver<Batch>>,
    pub events: mpsc::UnboundedSender<Event>,
    /// Hosts whose worker still runs.
    pub live: AtomicUsize,
}

/// Requests and answers of one batch on one host.
#[derive(Debug, Default)]
pub(super) struct BatchStats {
    pub requests: usize,
    pub retries: usize,
    pub answers: AnswerCounts,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

pub(super) enum Event {
    /// A batch is done.
    Done { host: usize, results: HashMap<String, Enrichment>, stats: BatchStats },
    /// The last host gave up on these files: they are counted as not enriched.
    GaveUp { host: usize, results: HashMap<String, Enrichment>, failed: Vec<String>, why: String, stats: BatchStats },
    /// The host is out; `remaining` goes back to the channel.
    HostFailed {
        host: usize,
        results: HashMap<String, Enrichment>,
        remaining: Vec<Arc<FileInput>>,
        error: String,
        stats: BatchStats,
    },
    /// The host is out, with no batch in hand.
    Out { host: usize, error: String },
    /// A prompt could not be rendered: the run stops.
    Prompt(String),
}

pub(super) async fn worker(host: usize, client: LlmClient, shared: Arc<Shared>) {
    let mut given_up_in_a_row = 0;
    loop {
        let batch = {
            let mut queue = shared.queue.lock().await;
            queue.recv().await
        };
        let Some(batch) = batch else { return };
        let event = process_batch(host, &client, &shared, batch).await;
        let mut out = None;
        if let Event::GaveUp { why, .. } = &event {
            given_up_in_a_row += 1;
            if given_up_in_a_row >= MAX_BATCHES_GIVEN_UP {
                let error = format!("gave no usable answer for {MAX_BATCHES_GIVEN_UP} batches in a row, last: {why}");
                out = Some(Event::Out { host, error });
            }
        } else {
            given_up_in_a_row = 0;
        }
        let leaves = out.is_some() || matches!(event, Event::HostFailed { .. } | Event::Prompt(_));
        if leaves {
            shared.live.fetch_sub(1, Ordering::SeqCst);
        }
        let sent = shared.events.send(event).is_ok() && out.is_none_or(|o| shared.events.send(o).is_ok());
        if !sent || leaves {
            return;
        }
    }
}

/// Send one batch until every file has a usable answer. Files answered are
/// kept; only the missing ones are asked again.
async fn process_batch(host: usize, client: &LlmClient, shared: &Shared, batch: Batch) -> Event {
    let cfg = client.config();
    let sel = AstSelection::from_config(cfg);
    let opts = &shared.opts;
    let mut remaining = batch.files;
    let mut results: HashMap<String, Enrichment> = HashMap::new();
    let mut stats = BatchStats::default();
    let (mut bad_answers, mut transport_failures) = (0usize, 0usize);
    loop {
        let refs: Vec<&FileInput> = remaining.iter().map(|f| f.as_ref()).collect();
        let prompt = match shared.prompts.files(&shared.project, &refs, &sel, cfg.max_chunk_chars, !cfg.json_schema) {
            Ok(p) => p,
            Err(e) => return Event::Prompt(format!("{e:#}")),
        };
        let paths: Vec<&str> = refs.iter().map(|f| f.path.as_str()).collect();
        let schema = schema::files_answer(&paths);
        stats.requests += 1;
        let problem = match client.generate(&prompt, client.answer_format(&schema), bad_answers).await {
            Err(e) => {
                transport_failures += 1;
                if transport_failures > opts.host_retries {
                    let error = transport_error(&e, transport_failures);
                    return Event::HostFailed { host, results, remaining, error, stats };
                }
                tracing::debug!(host = client.host(), "request failed, retrying: {}", chain(&e));
                stats.retries += 1;
                tokio::time::sleep(opts.host_retry_delay).await;
                continue;
            }
            Ok(answer) => {
                transport_failures = 0;
                stats.prompt_tokens += answer.prompt_tokens;
                stats.completion_tokens += answer.completion_tokens;
                match take_answer(&answer.response, &paths, &mut stats.answers) {
                    Ok(matched) => {
                        results.extend(matched);
                        remaining.retain(|f| !results.contains_key(&f.path));
                        if remaining.is_empty() {
                            return Event::Done { host, results, stats };
                        }
                        format!("missing {}", remaining.iter().map(|f| f.path.as_str()).collect::<Vec<_>>().join(", "))
                    }
                    Err(problem) => problem,
                }
            }
        };
        bad_answers += 1;
        if bad_answers > opts.max_retries {
            let why = format!("no usable answer after {bad_answers} attempts: {problem}");
            return give_up(host, shared, results, remaining, why, stats);
        }
        tracing::debug!(host = client.host(), "answer incomplete ({problem}), retrying");
        stats.retries += 1;
        tokio::time::sleep(opts.retry_delay).await;
    }
}

/// Check one answer and count how it came: the files it answers, or why none.
fn take_answer(raw: &str, paths: &[&str], counts: &mut AnswerCounts) -> Result<HashMap<String, Enrichment>, String> {
    match check_answer(raw, paths) {
        Ok(checked) => {
            if checked.repaired {
                counts.repaired += 1;
            } else {
                counts.valid += 1;
            }
            if !checked.is_complete() {
                counts.incomplete += 1;
                if checked.matched.is_empty() {
                    return Err(checked.problem());
                }
            }
            Ok(checked.matched)
        }
        Err(problem) => {
            counts.invalid += 1;
            Err(problem)
        }
    }
}

fn transport_error(e: &ClientError, failures: usize) -> String {
    format!("{} failed {} times, last: {}", e.request, failures, chain(e.source.as_ref()))
}

/// After the last retry: another host may try the files (this one is taken
/// out), or, on the last host, they are counted as not enriched.
fn give_up(
    host: usize,
    shared: &Shared,
    results: HashMap<String, Enrichment>,
    remaining: Vec<Arc<FileInput>>,
    why: String,
    stats: BatchStats,
) -> Event {
    if shared.live.load(Ordering::SeqCst) > 1 {
        return Event::HostFailed { host, results, remaining, error: why, stats };
    }
    let failed = remaining.iter().map(|f| f.path.clone()).collect();
    Event::GaveUp { host, results, failed, why, stats }
}
