//! What is already in OpenSearch: projects, their live generation, stored
//! hashes; and the operations that change the layout (new generation, alias
//! swap, removal).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use vibe_common::backend::naming::IndexNames;
use vibe_common::backend::search::{Search, SearchError};
use vibe_common::backend::templates::source_without_recovery_copy;
use vibe_common::document::project_meta::ProjectMeta;

/// Longest wait, after the alias swap, for reads still running on the old
/// generation; also the fixed wait when running reads cannot be listed.
const OLD_GENERATION_GRACE: Duration = Duration::from_secs(2);

/// Poll interval while waiting for those reads.
const DRAIN_POLL: Duration = Duration::from_millis(20);

/// Page size of scrolls.
const SCROLL_SIZE: usize = 5000;

/// The physical data indices of every project and the aliases on them, read
/// in one round trip.
#[derive(Debug, Default, Clone)]
pub struct Layout {
    /// Project hash -> its physical data indices.
    pub indices: BTreeMap<String, Vec<String>>,
    /// Alias -> the physical index it points at.
    pub aliases: HashMap<String, String>,
}

impl Layout {
    pub async fn read(search: &Search) -> Result<Self, SearchError> {
        let names = &search.names;
        let answer = search.get(&format!("/{}/_alias?expand_wildcards=all", names.all_data())).await?;
        let mut layout = Layout::default();
        for (index, entry) in answer.as_object().into_iter().flatten() {
            let Some(hash) = hash_of(names, index) else { continue };
            layout.indices.entry(hash).or_default().push(index.clone());
            for alias in entry["aliases"].as_object().into_iter().flatten().map(|(a, _)| a) {
                layout.aliases.insert(alias.clone(), index.clone());
            }
        }
        for indices in layout.indices.values_mut() {
            indices.sort();
        }
        Ok(layout)
    }

    /// The physical index behind an alias, if the alias exists.
    pub fn target(&self, alias: &str) -> Option<String> {
        self.aliases.get(alias).cloned()
    }
}

/// The generation part of a physical index name (`..._<hash>_<generation>`).
pub fn generation_of(index: &str) -> Option<&str> {
    index.rsplit_once('_').map(|(_, g)| g)
}

/// A new generation id: time-ordered and unique enough for one machine.
pub fn new_generation() -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    format!("g{}", now.as_millis())
}

fn hash_of(names: &IndexNames, index: &str) -> Option<String> {
    let rest = index
        .strip_prefix(&format!("{}_data_files_", names.prefix))
        .or_else(|| index.strip_prefix(&format!("{}_data_analysis_", names.prefix)))?;
    rest.rsplit_once('_').map(|(h, _)| h.to_string())
}

/// What a run needs of a project's meta document.
#[derive(Debug, Clone, Default)]
pub struct MetaInfo {
    pub root: Option<String>,
    /// The index format it was built with (`None` before formats were recorded).
    pub index_format: Option<String>,
    /// Ids of the configs that index it (empty before configs had ids).
    pub owners: Vec<String>,
    /// Where each owner id wrote it from (empty before sites were recorded).
    pub writers: Vec<Writer>,
}

pub use vibe_common::document::project_meta::Writer;

/// Every meta document, by project hash.
pub async fn meta_projects(search: &Search) -> Result<BTreeMap<String, MetaInfo>, SearchError> {
    // A missing meta index (nothing indexed yet) reads as empty.
    let body = json!({ "_source": META_FIELDS });
    let hits = scroll_all(search, &search.names.meta(), Missing::ReadsEmpty, body).await?;
    Ok(hits.into_iter().filter_map(|h| Some((h["_id"].as_str()?.to_string(), meta_info(&h["_source"])))).collect())
}

/// The meta document of one project, read in real time (not from the last refresh).
pub async fn meta_of(search: &Search, hash: &str) -> Result<Option<MetaInfo>, SearchError> {
    let path = format!("/{}/_doc/{hash}?_source_includes={}", search.names.meta(), META_FIELDS.join(","));
    let doc = search.get_opt(&path).await?;
    Ok(doc.filter(|d| d["found"] == true).map(|d| meta_info(&d["_source"])))
}

/// The fields of a meta document a run reads.
const META_FIELDS: [&str; 4] = ["root", "index_format", "owners", "writers"];

fn meta_info(source: &Value) -> MetaInfo {
    let meta = ProjectMeta::from_source(source);
    let text = |s: String| Some(s).filter(|s| !s.is_empty());
    MetaInfo {
        root: text(meta.root),
        index_format: text(meta.index_format),
        owners: meta.owners,
        writers: meta.writers,
    }
}

/// Replace the owners (and their writers) of a project: in its meta
/// document and in the `_meta` of its data indices, so that the indices
/// themselves say which configs wrote them.
pub async fn set_owners(search: &Search, hash: &str, owners: &[String], writers: &[Writer]) -> Result<(), SearchError> {
    let path = format!("/{}/_update/{hash}?refresh=true", search.names.meta());
    search.post(&path, &json!({ "doc": { "owners": owners, "writers": writers } })).await?;
    tag_indices(search, hash, owners).await
}

/// Record `owners` in the `_meta` mapping of a project's live data indices.
pub async fn tag_indices(search: &Search, hash: &str, owners: &[String]) -> Result<(), SearchError> {
    let names = &search.names;
    let path = format!("/{},{}/_mapping", names.files_alias(hash), names.ast_alias(hash));
    search.put(&path, &json!({ "_meta": { "owners": owners } })).await?;
    Ok(())
}

/// Whether a physical index's generation (a time in ms) is older than `age`;
/// an index whose name carries no time counts as old.
pub fn older_than(index: &str, age: Duration) -> bool {
    let born = generation_of(index).and_then(|g| g.strip_prefix('g')).and_then(|ms| ms.parse::<u64>().ok());
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    born.is_none_or(|ms| now.saturating_sub(Duration::from_millis(ms)) > age)
}

/// Stored `path -> hash` of an alias. Read from doc values (`path` is the
/// document id): no stored field is loaded, so the large `_source`s (file
/// contents, ASTs) are never decompressed, which is most of a no-op re-index.
pub async fn stored_versions(search: &Search, alias: &str) -> Result<HashMap<String, String>, SearchError> {
    let body = json!({ "_source": false, "stored_fields": "_none_", "docvalue_fields": ["path", "hash", "mtime"] });
    let hits = scroll_all(search, alias, Missing::IsAnError, body).await?;
    Ok(hits
        .into_iter()
        .filter_map(|h| {
            let fields = &h["fields"];
            let (hash, mtime) =
                (fields["hash"][0].as_str().unwrap_or_default(), fields["mtime"][0].as_u64().unwrap_or(0));
            Some((fields["path"][0].as_str()?.to_string(), crate::scanner::version(hash, mtime)))
        })
        .collect())
}

/// Paths of the files the LLM could describe (they have a language) that
/// carry no description: a run with enrichment writes them again, so a file
/// a failed or stopped enrichment left bare is described by the next run.
pub async fn undescribed(search: &Search, alias: &str) -> Result<Vec<String>, SearchError> {
    let body = json!({
        "_source": false,
        "stored_fields": "_none_",
        "docvalue_fields": ["path"],
        "query": { "bool": {
            "filter": [{ "exists": { "field": "language" } }],
            "must_not": [
                { "exists": { "field": "description" } },
                { "exists": { "field": "skipped" } },
                { "term": { "binary": true } },
            ],
        } },
    });
    let hits = scroll_all(search, alias, Missing::IsAnError, body).await?;
    Ok(hits.into_iter().filter_map(|h| h["fields"]["path"][0].as_str().map(str::to_string)).collect())
}

/// What a scroll over an index that does not exist does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    IsAnError,
    ReadsEmpty,
}

/// All hits of an index through the scroll API.
pub async fn scroll_all(
    search: &Search,
    index: &str,
    missing: Missing,
    mut body: Value,
) -> Result<Vec<Value>, SearchError> {
    body["size"] = json!(SCROLL_SIZE);
    body["sort"] = json!(["_doc"]);
    let ignore = if missing == Missing::ReadsEmpty { "&ignore_unavailable=true" } else { "" };
    let mut page = search.post(&format!("/{index}/_search?scroll=1m{ignore}"), &body).await?;
    let mut out = Vec::new();
    loop {
        let hits = match page["hits"]["hits"].take() {
            Value::Array(hits) => hits,
            _ => Vec::new(),
        };
        let scroll_id = page["_scroll_id"].as_str().map(str::to_string);
        // A short page is the last one: no round trip for an empty page.
        let last = hits.len() < SCROLL_SIZE;
        out.extend(hits);
        if last {
            if let Some(id) = scroll_id {
                let _ = search
                    .request(
                        opensearch::http::Method::Delete,
                        "/_search/scroll",
                        Some(json!({ "scroll_id": id }).to_string().into_bytes()),
                    )
                    .await;
            }
            break;
        }
        let Some(id) = scroll_id else { break };
        page = search.post("/_search/scroll", &json!({ "scroll": "1m", "scroll_id": id })).await?;
    }
    Ok(out)
}

/// Create the two physical indices of a project's new generation.
pub async fn create_generation(search: &Search, files: &str, ast: &str) -> Result<(), SearchError> {
    // No periodic refresh while it is built: nobody reads a generation before
    // its aliases move, and a refresh each second cut the build into small
    // segments (13 % of OpenSearch's CPU in a full index, all merged again at
    // the swap). Segments are written when the indexing buffer fills.
    // Shards and replicas come from the config (`opensearch.shards`, `.replicas`).
    let single_copy = without_replicas(search).await?;
    let body = |index: &str| {
        let mut body = search.generation_settings().clone();
        body["settings"]["index"]["merge.policy.segments_per_tier"] = json!(BUILD_SEGMENTS_PER_TIER);
        body["settings"]["index"]["refresh_interval"] = json!("-1");
        if let Some(source) = single_copy.then(|| source_without_recovery_copy(&search.names, index)).flatten() {
            body["mappings"] = json!({ "_source": source });
        }
        body
    };
    let (files_body, ast_body) = (body(files), body(ast));
    let (files_path, ast_path) = (format!("/{files}"), format!("/{ast}"));
    tokio::try_join!(search.put(&files_path, &files_body), search.put(&ast_path, &ast_body))?;
    Ok(())
}

/// Segments per tier while a generation is built: its segments are merged
/// into one at the alias swap ([`merge_segments`]), so merging them along the
/// way was work done twice. Reset to the default before that merge.
const BUILD_SEGMENTS_PER_TIER: u32 = 100;

/// A new generation gets no replica: `opensearch.replicas` is 0, or unset
/// (`auto_expand_replicas` 0-1) on a one-node cluster. Such a generation
/// keeps no recovery copy of its documents ([`source_without_recovery_copy`]).
/// A replica added later (a node joins) copies the flushed files
/// ([`swap_aliases`] and an update's publish flush); only writes made while
/// it recovers are replayed, without the fields left out of `_source`.
async fn without_replicas(search: &Search) -> Result<bool, SearchError> {
    match search.generation_settings()["settings"]["index"]["number_of_replicas"].as_u64() {
        Some(n) => Ok(n == 0),
        None => Ok(search.get("/_cluster/health").await?["number_of_nodes"].as_u64() == Some(1)),
    }
}

/// Starts merging a new generation's segments into one as its aliases move:
/// a bulk build leaves several, and questions in words (many terms over the
/// nested symbols) ran ~20 % slower on them (bench/concepts_tune.py, in git at d91b8e0: took
/// p50 23 -> 18 ms over 4,845 files). OpenSearch merges in the background
/// (`wait_for_completion=false`) and the periodic refresh shows the merged
/// segment: a big project's merge never holds the run or times out into the
/// client's failover. Best effort: a refused merge only costs speed.
async fn merge_segments(search: &Search, indices: &str) {
    // Both back to the template's (null: the index setting goes; the
    // template's `1s` is OpenSearch's default too).
    let default_policy = json!({ "index": { "merge.policy.segments_per_tier": null, "refresh_interval": null } });
    if let Err(e) = search.put(&format!("/{indices}/_settings"), &default_policy).await {
        tracing::warn!("resetting the merge policy and refresh interval of {indices}: {e}");
    }
    let path = format!("/{indices}/_forcemerge?max_num_segments=1&wait_for_completion=false");
    if let Err(e) = search.post(&path, &json!({})).await {
        tracing::warn!("merging the segments of {indices}: {e}");
    }
}

/// Refresh a project's new generation and point both aliases at it in one
/// atomic call, removing them from any other index. Answers the project's
/// other generations, for [`drop_generations`].
pub async fn swap_aliases(search: &Search, hash: &str, files: &str, ast: &str) -> Result<Vec<String>, SearchError> {
    let names = &search.names;
    let (files_alias, ast_alias) = (names.files_alias(hash), names.ast_alias(hash));
    search.post(&format!("/{files},{ast}/_refresh"), &json!({})).await?;
    // A commit of everything written: a replica made later copies files.
    search.post(&format!("/{files},{ast}/_flush"), &json!({})).await?;
    merge_segments(search, &format!("{files},{ast}")).await;
    wait_for_replicas(search, &format!("{files},{ast}")).await?;
    let old: Vec<String> = Layout::read(search)
        .await?
        .indices
        .remove(hash)
        .unwrap_or_default()
        .into_iter()
        .filter(|i| i != files && i != ast)
        .collect();
    let mut actions = vec![
        json!({ "add": { "index": files, "alias": files_alias } }),
        json!({ "add": { "index": ast, "alias": ast_alias } }),
    ];
    // Explicit alias names: a wildcard `remove` with `must_exist: false`
    // silently removes nothing.
    for index in &old {
        for alias in [&files_alias, &ast_alias] {
            actions.push(json!({ "remove": { "index": index, "alias": alias, "must_exist": false } }));
        }
    }
    search.post("/_aliases", &json!({ "actions": actions })).await?;
    tracing::debug!("aliases swapped");
    Ok(old)
}

/// Longest wait, before the alias swap, for the new generation's replicas.
const REPLICA_WAIT: &str = "60s";

/// Wait until every replica of `indices` is active (green), on a cluster of
/// more than one node: readers move only to a generation that has its
/// copies, so losing a node right after the swap cannot take the only copy
/// of a shard with it (a replica still recovering when its primary's node
/// dies leaves the shard red until that node returns). When the replicas
/// cannot all be placed (more replicas than other nodes) the swap goes on
/// after [`REPLICA_WAIT`], with a warning.
async fn wait_for_replicas(search: &Search, indices: &str) -> Result<(), SearchError> {
    let health = search.get(&format!("/_cluster/health/{indices}")).await?;
    if health["status"] == "green" || health["number_of_nodes"].as_u64().unwrap_or(1) <= 1 {
        return Ok(());
    }
    let wait = format!("/_cluster/health/{indices}?wait_for_status=green&timeout={REPLICA_WAIT}");
    let timed_out = match search.get(&wait).await {
        Ok(h) => h["timed_out"] == true,
        // OpenSearch answers a health wait that timed out with 408.
        Err(e) if e.status() == Some(408) => true,
        Err(e) => return Err(e),
    };
    if timed_out {
        tracing::warn!("{indices}: replicas not all active after {REPLICA_WAIT}; switching readers anyway");
    }
    Ok(())
}

/// Delete generations that no alias points at any more, once the reads that
/// may still run on them are done.
pub async fn drop_generations(search: &Search, old: &[String]) -> Result<(), SearchError> {
    if old.is_empty() {
        return Ok(());
    }
    drain_reads(search).await;
    search.delete(&format!("/{}", old.join(","))).await
}

/// Wait until every read that was running when the aliases moved is done:
/// it may have resolved an alias to the old generation, and would fail if
/// that were deleted under it. Reads that start later see the new one. A read
/// is a task of an `indices:data/read/*` action, registered before it
/// resolves any alias. Waits at most [`OLD_GENERATION_GRACE`]; when tasks
/// cannot be listed (no `cluster:monitor/tasks/lists` permission), waits
/// exactly that long.
pub async fn drain_reads(search: &Search) {
    let started = Instant::now();
    let Ok(mut waiting) = read_tasks(search).await else {
        tokio::time::sleep(OLD_GENERATION_GRACE).await;
        return;
    };
    while !waiting.is_empty() && started.elapsed() < OLD_GENERATION_GRACE {
        tokio::time::sleep(DRAIN_POLL).await;
        let Ok(now) = read_tasks(search).await else {
            // The listing failed half-way: wait out the rest of the grace.
            tokio::time::sleep(OLD_GENERATION_GRACE.saturating_sub(started.elapsed())).await;
            break;
        };
        waiting.retain(|task| now.contains(task));
    }
    tracing::debug!(
        ms = started.elapsed().as_millis() as u64,
        still_running = waiting.len(),
        "reads on the old generation drained"
    );
}

/// Ids (`node:id`) of the read tasks running now.
async fn read_tasks(search: &Search) -> Result<HashSet<String>, SearchError> {
    let answer = search.get("/_tasks?actions=indices:data/read/*&group_by=none").await?;
    Ok(answer["tasks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| Some(format!("{}:{}", t["node"].as_str()?, t["id"].as_u64()?)))
        .collect())
}

/// Delete every physical index of a project and its meta document.
pub async fn remove_project(search: &Search, hash: &str) -> Result<(), SearchError> {
    search.delete(&format!("/{}?expand_wildcards=all", search.names.project_indices_pattern(hash))).await?;
    search.delete(&format!("/{}/_doc/{hash}?refresh=true", search.names.meta())).await?;
    Ok(())
}

/// Delete the physical indices of a project that no alias points at (left
/// over by a rebuild that died before its swap). Only for a run that holds
/// the project's lock: no other run can be writing one of them.
pub async fn remove_stale_generations(
    search: &Search,
    layout: &Layout,
    hash: &str,
) -> Result<Vec<String>, SearchError> {
    let live = [layout.target(&search.names.files_alias(hash)), layout.target(&search.names.ast_alias(hash))];
    let mut removed = Vec::new();
    for index in layout.indices.get(hash).into_iter().flatten() {
        if !live.iter().flatten().any(|l| l == index) {
            search.delete(&format!("/{index}")).await?;
            removed.push(index.clone());
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_and_generations_are_read_from_names() {
        let n = IndexNames::new("vibe");
        assert_eq!(hash_of(&n, "vibe_data_files_abc_g1"), Some("abc".into()));
        assert_eq!(hash_of(&n, "vibe_data_analysis_abc_g2"), Some("abc".into()));
        assert_eq!(hash_of(&n, "other_data_files_abc_g1"), None);
        assert_eq!(generation_of("vibe_data_files_abc_g17"), Some("g17"));
    }
}
