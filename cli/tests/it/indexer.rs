//! Indexer tests against the real OpenSearch started by tests/opensearch/start.sh.
//! Each test uses its own index prefix, so tests never see each other's data.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use vibe_common::backend::naming::project_hash;
use vibe_common::backend::search::Search;
use vibe_common::config::OpenSearchConfig;
use vibe_ingest::indexer::{self, IndexError, IndexOptions};

pub(crate) fn opensearch_url() -> String {
    std::env::var("VIBE_OPENSEARCH_URL").unwrap_or_else(|_| "http://127.0.0.1:9200".into())
}

fn search_with_prefix(prefix: &str) -> Search {
    Search::new(&OpenSearchConfig { hosts: vec![opensearch_url()], index_prefix: prefix.into(), ..Default::default() })
        .unwrap()
}

/// A fresh prefix; removes whatever an earlier run of the same test left.
async fn fresh(prefix: &str) -> Search {
    let s = search_with_prefix(prefix);
    s.delete(&format!("/{prefix}_*?expand_wildcards=all")).await.unwrap();
    s
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn project(dir: &Path) -> PathBuf {
    write(dir, "src/lib.rs", "/// Adds two numbers.\npub fn add(a: i32, b: i32) -> i32 { a + b }\n");
    write(dir, "src/util.py", "def multiply(a, b):\n    \"\"\"Multiplies.\"\"\"\n    return a * b\n");
    write(dir, "docs/guide.md", "---\nknowledge: true\n---\n# Guide\n\nHow to calculate things.\n");
    write(dir, "README.md", "# Demo\n\nA small demo project for tests.\n");
    write(dir, "data.bin", "\0\0\0binary");
    dir.canonicalize().unwrap()
}

async fn count(search: &Search, index: &str) -> u64 {
    search.post(&format!("/{index}/_refresh"), &json!({})).await.unwrap();
    search.get(&format!("/{index}/_count")).await.unwrap()["count"].as_u64().unwrap()
}

async fn ids(search: &Search, index: &str) -> Vec<String> {
    ids_matching(search, index, json!({ "match_all": {} })).await
}

/// The files whose indexed grams hold every gram of `literal` (what narrows search_code_text).
async fn holding_grams(search: &Search, index: &str, literal: &str) -> Vec<String> {
    let grams = vibe_common::document::grams::literal_grams(literal).join("\n");
    ids_matching(search, index, json!({ "match": { "grams": { "query": grams, "operator": "and" } } })).await
}

async fn ids_matching(search: &Search, index: &str, query: Value) -> Vec<String> {
    let body = json!({ "size": 1000, "_source": false, "query": query });
    let r = search.post(&format!("/{index}/_search"), &body).await.unwrap();
    let mut ids: Vec<String> =
        r["hits"]["hits"].as_array().unwrap().iter().map(|h| h["_id"].as_str().unwrap().to_string()).collect();
    ids.sort();
    ids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn incremental_run_processes_exactly_the_changed_files() {
    let search = fresh("tincr").await;
    let dir = tempfile::tempdir().unwrap();
    let root = project(dir.path());
    let roots = vec![root.clone()];
    let opts = IndexOptions::default();

    let first = indexer::run(&search, &roots, &roots, &opts).await.unwrap();
    assert_eq!(first.files_written(), 5);
    assert_eq!(first.ast_written(), 5);
    let hash = project_hash(&root);
    let (files, analysis) = (search.names.files_alias(&hash), search.names.ast_alias(&hash));
    assert_eq!(count(&search, &files).await, 5);

    let again = indexer::run(&search, &roots, &roots, &opts).await.unwrap();
    assert!(again.up_to_date(), "{}", again.summary());
    assert!(again.summary().starts_with("Index is up to date"));

    write(&root, "src/new.rs", "pub fn calculate() -> i32 { 42 }\n");
    write(&root, "src/lib.rs", "/// Adds two numbers, changed.\npub fn add(a: i64, b: i64) -> i64 { a + b }\n");
    std::fs::remove_file(root.join("src/util.py")).unwrap();
    let third = indexer::run(&search, &roots, &roots, &opts).await.unwrap();
    let s = &third.sources[0];
    assert_eq!((s.files_written, s.ast_written, s.deleted), (2, 2, 1), "{s:?}");
    assert_eq!(s.scan.unchanged, 3);
    assert_eq!(ids(&search, &files).await, ["README.md", "data.bin", "docs/guide.md", "src/lib.rs", "src/new.rs"]);
    assert_eq!(ids(&search, &analysis).await, ids(&search, &files).await);
    // The grams follow the text: replaced with a changed file, gone with a deleted one.
    assert_eq!(holding_grams(&search, &files, "a: i64").await, ["src/lib.rs"]);
    assert!(holding_grams(&search, &files, "a: I64").await.is_empty(), "grams keep their case");
    assert_eq!(holding_grams(&search, &files, "-> i32").await, ["src/new.rs"]);
    assert!(holding_grams(&search, &files, "Multiplies").await.is_empty());

    let doc = search.get(&format!("/{analysis}/_doc/src%2Flib.rs")).await.unwrap();
    assert_eq!(doc["_source"]["ast"]["functions"][0]["signature"], "pub fn add(a: i64, b: i64) -> i64");
    let tags: Vec<&str> = doc["_source"]["tags"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
    assert!(tags.contains(&"functions") && tags.contains(&"函数") && tags.contains(&"add"), "{tags:?}");
    let guide = search.get(&format!("/{analysis}/_doc/docs%2Fguide.md")).await.unwrap();
    assert_eq!(guide["_source"]["knowledge"], true);
    let bin = search.get(&format!("/{files}/_doc/data.bin")).await.unwrap();
    assert_eq!(bin["_source"]["content"], Value::Null);

    let meta = search.get(&format!("/{}/_doc/{hash}", search.names.meta())).await.unwrap();
    assert_eq!(meta["_source"]["stats"]["files"], 5);
    assert_eq!(meta["_source"]["summary"], "A small demo project for tests.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn removing_a_source_removes_its_indices_and_meta() {
    let search = fresh("tremove").await;
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (ra, rb) = (project(a.path()), project(b.path()));
    let both = vec![ra.clone(), rb.clone()];
    indexer::run(&search, &both, &both, &IndexOptions::default()).await.unwrap();
    assert_eq!(count(&search, &search.names.meta()).await, 2);

    let only_a = std::slice::from_ref(&ra);
    let report = indexer::run(&search, only_a, only_a, &IndexOptions::default()).await.unwrap();
    assert_eq!(report.removed_projects, vec![rb.display().to_string()]);
    let hb = project_hash(&rb);
    assert!(search.get_opt(&format!("/{}", search.names.ast_alias(&hb))).await.unwrap().is_none());
    assert!(search.get_opt(&format!("/{}", search.names.files_alias(&hb))).await.unwrap().is_none());
    assert_eq!(ids(&search, &search.names.meta()).await, vec![project_hash(&ra)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn projects_indexed_together_come_back_in_order_and_a_missing_one_stops_none() {
    let search = fresh("ttogether").await;
    let dirs: Vec<_> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    let roots: Vec<PathBuf> = dirs.iter().map(|d| project(d.path())).collect();
    // Each project gets files of its own, so their counts tell them apart.
    for (i, root) in roots.iter().enumerate() {
        for n in 0..i {
            write(root, &format!("src/extra_{n}.py"), &format!("def extra_{n}():\n    return {n}\n"));
        }
    }
    let missing = dirs[0].path().join("gone");
    let targets = vec![roots[0].clone(), missing.clone(), roots[1].clone(), roots[2].clone()];
    let report = indexer::run(&search, &targets, &targets, &IndexOptions::default()).await.unwrap();

    let indexed: Vec<&PathBuf> = report.sources.iter().map(|s| &s.root).collect();
    assert_eq!(indexed, vec![&roots[0], &roots[1], &roots[2]], "outcomes in the targets' order");
    assert_eq!(report.failed_sources.len(), 1, "{:?}", report.failed_sources);
    assert!(report.failed_sources[0].0.contains("gone"), "{:?}", report.failed_sources);
    for (i, root) in roots.iter().enumerate() {
        let files = count(&search, &search.names.files_alias(&project_hash(root))).await;
        assert_eq!(files, 5 + i as u64, "{}", root.display());
        assert_eq!(report.sources[i].files_written, 5 + i as u64);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn force_resends_everything_into_a_new_generation() {
    let search = fresh("tforce").await;
    let dir = tempfile::tempdir().unwrap();
    let root = project(dir.path());
    let roots = vec![root.clone()];
    indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap();
    let alias = search.names.ast_alias(&project_hash(&root));
    let before = search.get(&format!("/_alias/{alias}")).await.unwrap();

    let forced =
        indexer::run(&search, &roots, &roots, &IndexOptions { force: true, ..Default::default() }).await.unwrap();
    assert_eq!(forced.files_written(), 5);
    assert_eq!(forced.ast_written(), 5);
    let after = search.get(&format!("/_alias/{alias}")).await.unwrap();
    assert_ne!(before.as_object().unwrap().keys().next(), after.as_object().unwrap().keys().next());
    assert_eq!(after.as_object().unwrap().len(), 1, "the alias points at exactly one generation");
    // The old generation is gone.
    let data = search.get(&format!("/_cat/indices/{}?format=json", search.names.all_data())).await.unwrap();
    assert_eq!(data.as_array().unwrap().len(), 2);
}

/// On one node a generation has no replica, so it keeps no second, whole
/// copy of each document for replica recovery (`_recovery_source`), and the
/// merge policy it is built with is reset to the default once it is live.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_generation_without_replicas_keeps_one_copy_and_the_default_merge_policy() {
    let search = fresh("tonecopy").await;
    let dir = tempfile::tempdir().unwrap();
    let root = project(dir.path());
    let roots = vec![root.clone()];
    indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap();
    let hash = project_hash(&root);
    for (alias, excluded) in [(search.names.ast_alias(&hash), "symbols"), (search.names.files_alias(&hash), "grams")] {
        let mapping = search.get(&format!("/{alias}/_mapping")).await.unwrap();
        let source = &mapping.as_object().unwrap().values().next().unwrap()["mappings"]["_source"];
        assert_eq!(source["recovery_source_enabled"], false, "{alias}: {source}");
        assert!(source["excludes"].as_array().unwrap().contains(&json!(excluded)), "{alias}: {source}");
        let settings = search.get(&format!("/{alias}/_settings?flat_settings=true")).await.unwrap();
        let index = &settings.as_object().unwrap().values().next().unwrap()["settings"];
        assert_eq!(index["index.merge.policy.segments_per_tier"], Value::Null, "{alias}: {index}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opensearch_down_is_a_clear_error_naming_the_host() {
    let search =
        Search::new(&OpenSearchConfig { hosts: vec!["http://127.0.0.1:1".into()], ..Default::default() }).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = project(dir.path());
    let roots = std::slice::from_ref(&root);
    let err = indexer::run(&search, roots, roots, &IndexOptions::default()).await.unwrap_err();
    assert!(matches!(err, IndexError::Unreachable { .. }), "{err}");
    assert!(err.to_string().contains("http://127.0.0.1:1"), "{err}");
}

#[test]
fn cli_exits_non_zero_when_opensearch_is_down() {
    let cfg = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    project(src.path());
    let bin = env!("CARGO_BIN_EXE_vibe-analyzer");
    let run = |args: &[&str]| {
        std::process::Command::new(bin)
            .arg("--config-dir")
            .arg(cfg.path())
            .args(args)
            .env("VIBE_OPENSEARCH_URL", "http://127.0.0.1:1")
            .output()
            .unwrap()
    };
    assert!(run(&["source", "add", src.path().to_str().unwrap()]).status.success());
    let out = run(&["scan", "index"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not reachable") && stderr.contains("127.0.0.1:1"), "{stderr}");
    // The variable set the host, not the config: the message names what to fix.
    assert!(stderr.contains("fix VIBE_OPENSEARCH_URL"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_run_converges_on_the_next_one() {
    let search = fresh("tcrash").await;
    let dir = tempfile::tempdir().unwrap();
    let root = project(dir.path());
    let roots = vec![root.clone()];
    indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap();
    let hash = project_hash(&root);
    let (files, analysis) = (search.names.files_alias(&hash), search.names.ast_alias(&hash));

    // What a run that died half-way leaves behind: a rebuild generation that
    // never got its alias, a document of a file that is gone, and a file whose
    // content document was written but whose AST document was not.
    search.put(&format!("/{}", search.names.ast_index(&hash, "g1")), &json!({})).await.unwrap();
    search
        .put(&format!("/{files}/_doc/ghost.rs?refresh=true"), &json!({ "path": "ghost.rs", "hash": "x" }))
        .await
        .unwrap();
    write(&root, "src/half.rs", "pub fn half() {}\n");
    search
        .put(&format!("/{files}/_doc/src%2Fhalf.rs?refresh=true"), &json!({ "path": "src/half.rs", "hash": "stale" }))
        .await
        .unwrap();

    let report = indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap();
    assert!(report.removed_indices.iter().any(|i| i.ends_with("_g1")), "{:?}", report.removed_indices);
    let expected = ["README.md", "data.bin", "docs/guide.md", "src/half.rs", "src/lib.rs", "src/util.py"];
    assert_eq!(ids(&search, &files).await, expected);
    assert_eq!(ids(&search, &analysis).await, expected);
    assert!(indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap().up_to_date());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_during_a_forced_rebuild_never_come_back_empty() {
    let search = fresh("tread").await;
    let dir = tempfile::tempdir().unwrap();
    let root = project(dir.path());
    for i in 0..400 {
        write(&root, &format!("gen/m{i}.py"), &format!("def func_{i}(x):\n    \"\"\"Doc {i}.\"\"\"\n    return x\n"));
    }
    let roots = vec![root.clone()];
    indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap();
    let alias = search.names.ast_alias(&project_hash(&root));

    // Several readers at once, so that some reads are in flight at the swap
    // and while the old generation is dropped.
    let done = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..4)
        .map(|_| {
            let (search, alias, done) = (search.clone(), alias.clone(), done.clone());
            tokio::spawn(async move {
                let mut reads = 0;
                while !done.load(Ordering::Relaxed) || reads < 5 {
                    let q = json!({ "query": { "bool": { "should": [
                        { "term": { "path": "src/lib.rs" } },
                        { "match": { "tags": "func" } }
                    ], "filter": { "term": { "path": "src/lib.rs" } } } } });
                    let r = search.post(&format!("/{alias}/_search"), &q).await.unwrap();
                    assert_eq!(r["hits"]["total"]["value"], 1, "empty or doubled read during rebuild: {r}");
                    assert_eq!(r["_shards"]["failed"], 0, "a shard failed during rebuild: {r}");
                    reads += 1;
                }
                reads
            })
        })
        .collect();
    let forced =
        indexer::run(&search, &roots, &roots, &IndexOptions { force: true, ..Default::default() }).await.unwrap();
    done.store(true, Ordering::Relaxed);
    let aliased = search.get(&format!("/_alias/{alias}")).await.unwrap();
    assert_eq!(aliased.as_object().unwrap().len(), 1, "the alias points at one generation: {aliased}");
    for reader in readers {
        assert!(reader.await.unwrap() >= 5);
    }
    assert_eq!(forced.files_written(), 405);
}

/// A read that takes a while on this node: wildcard queries that must walk a
/// terms dictionary of a million unique terms, many times over.
async fn slow_read_index(search: &Search, index: &str) {
    search
        .put(&format!("/{index}"), &json!({ "mappings": { "properties": { "t": { "type": "text" } } } }))
        .await
        .unwrap();
    for batch in 0..5 {
        let mut body = String::new();
        for d in 0..20 {
            let text: Vec<String> = (0..10_000).map(|j| format!("w{batch}q{d}z{j:x}k")).collect();
            body.push_str(&format!("{{\"index\":{{\"_index\":\"{index}\"}}}}\n{}\n", json!({ "t": text.join(" ") })));
        }
        let r = search.bulk(body.into_bytes()).await.unwrap();
        assert_eq!(r["errors"], json!(false));
    }
    search.post(&format!("/{index}/_refresh"), &json!({})).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_old_generation_waits_for_reads_running_at_the_swap() {
    use std::time::{Duration, Instant};
    use vibe_ingest::indexer::store;
    let search = fresh("tdrain").await;
    let index = "tdrain_slow";
    slow_read_index(&search, index).await;

    // Nothing reads: no wait at all.
    let t = Instant::now();
    store::drain_reads(&search).await;
    assert!(t.elapsed() < Duration::from_millis(500), "waited {:?} with no reads running", t.elapsed());

    // A read in flight: the drain ends after it, not before.
    let clauses: Vec<Value> = (0..20).map(|i| json!({ "wildcard": { "t": format!("*{i:x}*y*") } })).collect();
    let query = json!({ "size": 0, "query": { "bool": { "should": clauses } } });
    let start = Instant::now();
    let reader = {
        let search = search.clone();
        tokio::spawn(async move {
            search.post(&format!("/{index}/_search"), &query).await.unwrap();
            Instant::now()
        })
    };
    // A read task names its index in its detailed description.
    let detailed = "/_tasks?actions=indices:data/read/*&detailed=true&group_by=none";
    let seen = loop {
        if search.get(detailed).await.unwrap().to_string().contains(index) {
            break true;
        }
        if reader.is_finished() {
            break false;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    assert!(seen, "the slow read finished before it could be observed ({:?}); make it slower", start.elapsed());
    let drain_start = Instant::now();
    store::drain_reads(&search).await;
    let drained = Instant::now();
    // What the node runs right after the drain: the read's task is over (the
    // client's own clock is no judge: under a loaded test run the reader's
    // task wakes up to a second after its response came).
    let after = search.get(detailed).await.unwrap().to_string();
    let read_done = reader.await.unwrap();
    // The drain gives up after the 2 s grace (a very slow, loaded machine).
    let gave_up = drained - drain_start >= Duration::from_secs(2);
    assert!(
        !after.contains(index) || gave_up,
        "the drain returned while the read still ran ({:?} before the client saw its answer): {after}",
        read_done.saturating_duration_since(drained)
    );
    search.delete(&format!("/{index}")).await.unwrap();
}

/// A proxy in front of the real node that refuses `_tasks` with 403, as a
/// secured cluster does for a user without `cluster:monitor/tasks/lists`.
async fn proxy_refusing_tasks() -> String {
    use axum::body::{to_bytes, Body};
    use axum::extract::Request;
    use axum::http::StatusCode;
    use axum::response::Response;
    let upstream = opensearch_url();
    let http = reqwest::Client::new();
    let app = axum::Router::new().fallback(move |request: Request| {
        let (upstream, http) = (upstream.clone(), http.clone());
        async move {
            let path = request.uri().path_and_query().map(|p| p.as_str().to_string()).unwrap_or_default();
            if path.starts_with("/_tasks") {
                return Response::builder()
                    .status(StatusCode::FORBIDDEN)
                    .body(Body::from("{\"error\":\"no permission\",\"status\":403}"))
                    .unwrap();
            }
            let method = reqwest::Method::from_bytes(request.method().as_str().as_bytes()).unwrap();
            let body = to_bytes(request.into_body(), 64 * 1024 * 1024).await.unwrap();
            let answer = http
                .request(method, format!("{upstream}{path}"))
                .header("content-type", "application/json")
                .body(body.to_vec())
                .send()
                .await
                .unwrap();
            let status = answer.status().as_u16();
            Response::builder().status(status).body(Body::from(answer.bytes().await.unwrap())).unwrap()
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_permission_to_list_tasks_a_rebuild_waits_the_whole_grace() {
    use std::time::{Duration, Instant};
    let url = proxy_refusing_tasks().await;
    fresh("tnotasks").await;
    let search =
        Search::new(&OpenSearchConfig { hosts: vec![url], index_prefix: "tnotasks".into(), ..Default::default() })
            .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = project(dir.path());
    let roots = vec![root.clone()];
    indexer::run(&search, &roots, &roots, &IndexOptions::default()).await.unwrap();
    let t = Instant::now();
    indexer::store::drain_reads(&search).await;
    assert!(t.elapsed() >= Duration::from_secs(2), "waited only {:?}", t.elapsed());
    // A forced rebuild through the same proxy still completes, and one generation remains.
    let forced =
        indexer::run(&search, &roots, &roots, &IndexOptions { force: true, ..Default::default() }).await.unwrap();
    assert_eq!(forced.files_written(), 5);
    let hash = project_hash(&root);
    let data = search.get(&format!("/tnotasks_data_*_{hash}_*/_alias")).await.unwrap();
    assert_eq!(data.as_object().unwrap().len(), 2, "the old generation is gone: {data}");
}

/// A project built with another index format (older templates, queries or
/// extraction) is rebuilt by a plain run, into a new generation, and says so;
/// the next run is a no-op again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outdated_index_format_is_rebuilt_without_force() {
    let search = fresh("tformat").await;
    let dir = tempfile::tempdir().unwrap();
    let root = project(dir.path());
    let roots = vec![root.clone()];
    let opts = IndexOptions::default();
    indexer::run(&search, &roots, &roots, &opts).await.unwrap();
    let hash = project_hash(&root);
    let meta_path = format!("/{}/_doc/{hash}", search.names.meta());
    let meta = search.get(&meta_path).await.unwrap();
    assert_eq!(meta["_source"]["index_format"], json!(indexer::format::current()));
    let old_generation = meta["_source"]["generation"].as_str().unwrap().to_string();

    // The project as an older build left it: another format recorded.
    search
        .post(
            &format!("/{}/_update/{hash}?refresh=true", search.names.meta()),
            &json!({ "doc": { "index_format": "0000000000000000" } }),
        )
        .await
        .unwrap();
    let upgrade = indexer::run(&search, &roots, &roots, &opts).await.unwrap();
    let s = &upgrade.sources[0];
    assert!(s.rebuilt, "{s:?}");
    let line = s.upgraded.as_deref().unwrap_or_default();
    assert!(line.contains("rebuilding, the index format changed (0000000000000000 -> "), "{line}");
    let meta = search.get(&meta_path).await.unwrap();
    assert_ne!(meta["_source"]["generation"].as_str().unwrap(), old_generation);
    assert_eq!(meta["_source"]["index_format"], json!(indexer::format::current()));
    assert_eq!(count(&search, &search.names.ast_alias(&hash)).await, 5);

    let again = indexer::run(&search, &roots, &roots, &opts).await.unwrap();
    assert!(again.up_to_date(), "{}", again.summary());
    assert!(again.sources[0].upgraded.is_none());
}
