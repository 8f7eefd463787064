//! Bulk writes bounded by bytes, with per-document error reporting; a
//! document OpenSearch refused for a block (a full disk) is counted under
//! its [`Refusal`], told once per run instead of once per file.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};
use vibe_common::backend::refusal::Refusal;
use vibe_common::backend::search::{Search, SearchError};

/// A bulk request body is flushed when it grows past this many bytes.
pub const MAX_BULK_BYTES: usize = 5 * 1024 * 1024;
/// Room reserved for a body: it is sent once past [`MAX_BULK_BYTES`], so
/// its last documents (a file of up to 1 MB and its analysis) spill over.
const BODY_CAPACITY: usize = MAX_BULK_BYTES + MAX_BULK_BYTES / 2;

/// Bulk requests OpenSearch works on at once. With one, the files index's
/// shard indexes one body at a time on one write thread while the other
/// core waits (its contents and grams cost more than the rest of the
/// document); with two, both cores index and the scan fills the gaps.
pub const BULK_IN_FLIGHT: usize = 2;

/// An NDJSON bulk body under construction, and the requests still running.
#[derive(Default)]
pub struct BulkBatch {
    body: Vec<u8>,
    actions: usize,
    in_flight: std::collections::VecDeque<tokio::task::JoinHandle<Result<Value, SearchError>>>,
}

/// The outcome of one or more bulk requests.
#[derive(Debug, Default, Clone)]
pub struct BulkOutcome {
    /// Successful operations per index alias.
    pub ok: std::collections::BTreeMap<String, u64>,
    /// (document id, message) of every failed operation but the refused ones.
    pub errors: Vec<(String, String)>,
    /// The documents (ids: files) each refusal kept out.
    pub refused: BTreeMap<Refusal, BTreeSet<String>>,
}

impl BulkOutcome {
    pub fn ok_for(&self, index: &str) -> u64 {
        self.ok.get(index).copied().unwrap_or(0)
    }

    /// Successful operations in all indices.
    pub fn ok_total(&self) -> u64 {
        self.ok.values().sum()
    }
}

impl BulkBatch {
    /// Queue `doc` (written straight into the body: no `Value` of it is built).
    pub fn index(&mut self, index: &str, id: &str, doc: &impl serde::Serialize) {
        self.push(&json!({ "index": { "_index": index, "_id": id } }), Some(doc));
    }

    pub fn delete(&mut self, index: &str, id: &str) {
        self.push(&json!({ "delete": { "_index": index, "_id": id } }), None::<&Value>);
    }

    fn push(&mut self, action: &Value, doc: Option<&impl serde::Serialize>) {
        if self.body.capacity() == 0 {
            // A body's whole size at once: grown by doubling, each body was
            // copied ~1.5 times over (5 % of the indexer's CPU in a full
            // index). Pages a small body never touches cost nothing.
            self.body.reserve(BODY_CAPACITY);
        }
        serde_json::to_writer(&mut self.body, action).expect("JSON to memory");
        self.body.push(b'\n');
        if let Some(doc) = doc {
            serde_json::to_writer(&mut self.body, doc).expect("JSON to memory");
            self.body.push(b'\n');
        }
        self.actions += 1;
    }

    pub fn is_full(&self) -> bool {
        self.body.len() >= MAX_BULK_BYTES
    }

    pub fn is_empty(&self) -> bool {
        self.actions == 0
    }

    /// Send the batch (if not empty) without waiting for its answer: at most
    /// [`BULK_IN_FLIGHT`] requests run at once, and the oldest one's items are
    /// recorded in `outcome` (under `alias_of(index)`) before another starts.
    /// [`BulkBatch::finish`] waits for the rest.
    pub async fn flush(
        &mut self,
        search: &Search,
        outcome: &mut BulkOutcome,
        alias_of: &(dyn Fn(&str) -> String + Sync),
    ) -> Result<(), SearchError> {
        if self.is_empty() {
            return Ok(());
        }
        while self.in_flight.len() >= BULK_IN_FLIGHT {
            self.wait_oldest(search, outcome, alias_of).await?;
        }
        let body = std::mem::take(&mut self.body);
        self.actions = 0;
        let search = search.clone();
        self.in_flight.push_back(tokio::spawn(async move {
            let (bytes, started) = (body.len(), std::time::Instant::now());
            let response = search.bulk(body).await;
            tracing::debug!(bytes, ms = started.elapsed().as_millis() as u64, "bulk request");
            response
        }));
        Ok(())
    }

    /// Send the batch and wait for every request: all items are in `outcome`.
    pub async fn finish(
        &mut self,
        search: &Search,
        outcome: &mut BulkOutcome,
        alias_of: &(dyn Fn(&str) -> String + Sync),
    ) -> Result<(), SearchError> {
        self.flush(search, outcome, alias_of).await?;
        while !self.in_flight.is_empty() {
            self.wait_oldest(search, outcome, alias_of).await?;
        }
        Ok(())
    }

    async fn wait_oldest(
        &mut self,
        search: &Search,
        outcome: &mut BulkOutcome,
        alias_of: &(dyn Fn(&str) -> String + Sync),
    ) -> Result<(), SearchError> {
        let Some(handle) = self.in_flight.pop_front() else { return Ok(()) };
        let response = handle.await.map_err(|e| SearchError::Body {
            method: "POST".into(),
            path: "/_bulk".into(),
            source: e.into(),
        })??;
        record(search, &response, outcome, alias_of);
        Ok(())
    }
}

/// Record each item of a bulk response under `alias_of(index)`.
fn record(search: &Search, response: &Value, outcome: &mut BulkOutcome, alias_of: &(dyn Fn(&str) -> String + Sync)) {
    for item in response["items"].as_array().into_iter().flatten() {
        let Some((op, result)) = item.as_object().and_then(|o| o.iter().next()) else { continue };
        let id = result["_id"].as_str().unwrap_or_default().to_string();
        let status = result["status"].as_u64().unwrap_or(0);
        let index = alias_of(result["_index"].as_str().unwrap_or_default());
        if (200..300).contains(&status) || (op == "delete" && status == 404) {
            *outcome.ok.entry(index).or_default() += 1;
        } else if let Some(refusal) = Refusal::of_item(search, status, &result["error"]) {
            tracing::debug!("{op} {id} into {index} refused: {}", result["error"]);
            outcome.refused.entry(refusal).or_default().insert(id);
        } else {
            let reason = result["error"]["reason"].as_str().unwrap_or("unknown error");
            outcome.errors.push((id, format!("{op} into {index} failed ({status}): {reason}")));
        }
    }
}
