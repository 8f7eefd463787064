//! OpenSearch's refusals in words: a disk above the flood-stage watermark
//! (the indices made read-only), another block on an index, the cluster
//! setting `cluster.blocks.create_index`, a request that timed out (408) and a
//! node that stopped answering. Each is told once per run, saying what it
//! means and what to do; OpenSearch's own answer goes to the debug log only
//! (see [`crate::backend::search`]).

use serde_json::Value;

use crate::backend::search::{Search, SearchError};

/// What OpenSearch refused, read from its answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RefusalKind {
    /// `index.blocks.read_only_allow_delete`, which OpenSearch sets on every
    /// index of a node whose disk passed the flood-stage watermark.
    DiskFull,
    /// Another index block (`read_only`, `write`, `metadata`), by setting name.
    IndexBlock { setting: String, reason: String },
    /// The persistent or transient cluster setting `cluster.blocks.create_index`.
    CreateIndexBlocked,
    /// A request that OpenSearch did not finish in time (status 408).
    Timeout { request: String },
    /// No node answered.
    Unreachable { cause: String },
}

/// A refusal and the cluster it came from, written out by `Display`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Refusal {
    pub kind: RefusalKind,
    /// The first configured node, for the commands the message gives.
    pub host: String,
    /// The index prefix, for the same.
    pub prefix: String,
}

impl Refusal {
    fn new(search: &Search, kind: RefusalKind) -> Self {
        let host = search.host().split(", ").next().unwrap_or_default().trim_end_matches('/').to_string();
        Self { kind, host, prefix: search.names.prefix.clone() }
    }

    /// The refusal a failed request carries, if it is one.
    pub fn of(search: &Search, e: &SearchError) -> Option<Self> {
        let kind = match e {
            SearchError::Unreachable { .. } => RefusalKind::Unreachable { cause: crate::error_chain::chain(e) },
            SearchError::Status { status: 408, method, path, .. } => {
                RefusalKind::Timeout { request: format!("{method} {}", path.split('?').next().unwrap_or(path)) }
            }
            SearchError::Status { status, body, .. } => {
                let answer: Value = serde_json::from_str(body).ok()?;
                kind_of(*status, &answer["error"])?
            }
            _ => return None,
        };
        Some(Self::new(search, kind))
    }

    /// The refusal of one bulk item (its `status` and `error` object), if it is one.
    pub fn of_item(search: &Search, status: u64, error: &Value) -> Option<Self> {
        kind_of(u16::try_from(status).ok()?, error).map(|kind| Self::new(search, kind))
    }
}

/// What an OpenSearch `error` object refuses, when it is a block.
fn kind_of(status: u16, error: &Value) -> Option<RefusalKind> {
    let kind = error["type"].as_str().unwrap_or_default();
    let reason = error["reason"].as_str().unwrap_or_default();
    if kind == "index_create_block_exception" || reason.contains("create-index blocked") {
        return Some(RefusalKind::CreateIndexBlocked);
    }
    if kind != "cluster_block_exception" {
        return None;
    }
    if reason.contains("read-only-allow-delete") || reason.contains("flood-stage") || status == 429 {
        return Some(RefusalKind::DiskFull);
    }
    let setting = [("index read-only", "read_only"), ("index write", "write"), ("index metadata", "metadata")]
        .iter()
        .find(|(words, _)| reason.contains(words))
        .map_or("read_only", |(_, setting)| setting);
    // Without the index it names (`index [x] blocked by: [...]`): one block
    // on a file's two indices is one refusal, its files counted once.
    let reason = reason.find("blocked by:").map_or(reason, |at| &reason[at..]);
    Some(RefusalKind::IndexBlock { setting: setting.to_string(), reason: reason.to_string() })
}

const RERUN: &str =
    "Nothing indexed before was lost; after that, rerun `vibe-analyzer scan index`: it writes exactly what is missing.";

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (host, prefix) = (&self.host, &self.prefix);
        let put = |path: &str, body: &str| {
            format!("curl -X PUT '{host}/{path}' -H 'Content-Type: application/json' -d '{body}'")
        };
        match &self.kind {
            RefusalKind::DiskFull => write!(
                f,
                "OpenSearch's disk is above its flood-stage watermark (95 % by default): it made the indices \
                 read-only (index.blocks.read_only_allow_delete). Free disk space on the OpenSearch nodes; the \
                 next run lifts the block from these indices once every node's disk is below its high watermark \
                 (90 % by default), or lift it with: {}. {RERUN}",
                put(&format!("{prefix}_*/_settings"), r#"{"index.blocks.read_only_allow_delete": null}"#)
            ),
            RefusalKind::IndexBlock { setting, reason } => write!(
                f,
                "OpenSearch refused to write: the indices carry the block index.blocks.{setting} (it says: \
                 {reason}). Someone set it by hand; lift it with: {}. {RERUN}",
                put(&format!("{prefix}_*/_settings"), &format!(r#"{{"index.blocks.{setting}": null}}"#))
            ),
            RefusalKind::CreateIndexBlocked => write!(
                f,
                "OpenSearch refuses to create indices: the cluster setting cluster.blocks.create_index is on \
                 (OpenSearch sets it when a disk passes the flood-stage watermark, and it stays after the disk is \
                 freed). Free disk space, then lift it with: {}. {RERUN}",
                put("_cluster/settings", r#"{"persistent": {"cluster.blocks.create_index": null}}"#)
            ),
            RefusalKind::Timeout { request } => write!(
                f,
                "OpenSearch did not finish {request} in time (status 408): the cluster is overloaded, or an index \
                 it waited for has no active copy (cluster status red). See curl '{host}/_cluster/health?pretty' \
                 and curl '{host}/_cluster/allocation/explain?pretty'. {RERUN}"
            ),
            RefusalKind::Unreachable { cause } => write!(
                f,
                "OpenSearch stopped answering during the run ({cause}). Start it again (bash \
                 tests/opensearch/start.sh, or docker compose -f docker/opensearch/docker-compose.yml up -d) or \
                 fix opensearch.hosts in the config. {RERUN}"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::OpenSearchConfig;
    use serde_json::json;

    fn search() -> Search {
        let config =
            OpenSearchConfig { hosts: vec!["http://os:9200".into()], index_prefix: "t".into(), ..Default::default() };
        Search::new(&config).unwrap()
    }

    fn status(status: u16, error: Value) -> SearchError {
        let body = json!({ "error": error, "status": status }).to_string();
        SearchError::Status { method: "PUT".into(), path: "/t_x?refresh=true".into(), status, body }
    }

    #[test]
    fn blocks_are_told_in_words_without_opensearchs_json() {
        let s = search();
        let flood = json!({ "type": "cluster_block_exception", "reason": "index [t_x] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block];" });
        let refusal = Refusal::of(&s, &status(429, flood.clone())).unwrap();
        assert_eq!(refusal.kind, RefusalKind::DiskFull);
        let text = refusal.to_string();
        assert!(
            text.contains("flood-stage watermark") && text.contains("curl -X PUT 'http://os:9200/t_*/_settings'"),
            "{text}"
        );
        assert!(!text.contains("TOO_MANY_REQUESTS"), "{text}");
        assert_eq!(Refusal::of_item(&s, 429, &flood).map(|r| r.kind), Some(RefusalKind::DiskFull));

        let create = json!({ "type": "index_create_block_exception", "reason": "blocked by: [FORBIDDEN/10/cluster create-index blocked (api)];" });
        let text = Refusal::of(&s, &status(403, create)).unwrap().to_string();
        assert!(text.contains("cluster.blocks.create_index") && text.contains("_cluster/settings"), "{text}");

        let read_only = json!({ "type": "cluster_block_exception", "reason": "index [t_x] blocked by: [FORBIDDEN/5/index read-only (api)];" });
        let kind = Refusal::of(&s, &status(403, read_only)).unwrap().kind;
        assert!(matches!(kind, RefusalKind::IndexBlock { ref setting, .. } if setting == "read_only"), "{kind:?}");

        let timeout = SearchError::Status {
            method: "GET".into(),
            path: "/_cluster/health/t_x?timeout=30s".into(),
            status: 408,
            body: "{\"status\":\"red\"}".into(),
        };
        let text = Refusal::of(&s, &timeout).unwrap().to_string();
        assert!(text.contains("GET /_cluster/health/t_x in time") && !text.contains("red\""), "{text}");

        let conflict = json!({ "type": "version_conflict_engine_exception", "reason": "conflict" });
        assert_eq!(Refusal::of(&s, &status(409, conflict)), None, "not a refusal");
    }
}
