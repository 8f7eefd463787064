//! Two configs on one cluster and one index prefix (two developers sharing a
//! node): each `scan index` removes only the projects its own config wrote
//! and no longer lists; a project both index is shared, not duplicated, and
//! kept until neither lists it. The real binary against the real OpenSearch.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};
use vibe_common::backend::search::Search;
use vibe_common::config::OpenSearchConfig;

const PREFIX: &str = "townership";

pub(crate) fn opensearch_url() -> String {
    std::env::var("VIBE_OPENSEARCH_URL").unwrap_or_else(|_| "http://127.0.0.1:9200".into())
}

pub(crate) fn search_on(prefix: &str) -> Search {
    Search::new(&OpenSearchConfig { hosts: vec![opensearch_url()], index_prefix: prefix.into(), ..Default::default() })
        .unwrap()
}

fn search() -> Search {
    search_on(PREFIX)
}

/// A config directory of its own, on a shared prefix.
pub(crate) struct Developer {
    pub dir: tempfile::TempDir,
}

impl Developer {
    fn new() -> Self {
        Self::on(PREFIX)
    }

    /// A new config dir whose default config uses `prefix`.
    pub fn on(prefix: &str) -> Self {
        let dev = Self { dir: tempfile::tempdir().unwrap() };
        dev.ok(&["source", "list"]); // creates the default config
        let path = dev.dir.path().join("config.json5");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("index_prefix: \"vibe\"", &format!("index_prefix: \"{prefix}\""))).unwrap();
        dev
    }

    /// The owner id: `identity.json` of the config dir.
    pub fn id(&self) -> String {
        let text = std::fs::read_to_string(self.dir.path().join("identity.json")).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        value["id"].as_str().unwrap().to_string()
    }

    /// Runs the CLI on this config dir: (success, stdout + stderr).
    pub fn run(&self, args: &[&str]) -> (bool, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_vibe-analyzer"))
            .arg("--config-dir")
            .arg(self.dir.path())
            .args(args)
            .env("VIBE_OPENSEARCH_URL", opensearch_url())
            .env_remove("RUST_LOG")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    }

    pub fn ok(&self, args: &[&str]) -> String {
        let (ok, text) = self.run(args);
        assert!(ok, "{args:?}: {text}");
        text
    }
}

pub(crate) fn project(root: &Path, name: &str) -> std::path::PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("main.py"), format!("def {name}_main():\n    return 1\n")).unwrap();
    dir
}

/// Files per project root, read from the shared indices.
pub(crate) async fn files_by_root(search: &Search) -> Vec<(String, u64)> {
    let prefix = &search.names.prefix;
    let body = json!({ "size": 0, "aggs": { "roots": { "terms": { "field": "root", "size": 50 } } } });
    let answer = search.post(&format!("/{prefix}_data_files_*/_search"), &body).await.unwrap();
    let mut out: Vec<(String, u64)> = answer["aggregations"]["roots"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["key"].as_str().unwrap().to_string(), b["doc_count"].as_u64().unwrap()))
        .collect();
    out.sort();
    out
}

pub(crate) async fn owners(search: &Search, root: &Path) -> Vec<String> {
    let hash = vibe_common::backend::naming::project_hash(&root.canonicalize().unwrap());
    let doc = search.get(&format!("/{}_meta/_doc/{hash}", search.names.prefix)).await.unwrap();
    let mut owners: Vec<String> =
        doc["_source"]["owners"].as_array().unwrap().iter().map(|o| o.as_str().unwrap().to_string()).collect();
    owners.sort();
    owners
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_configs_on_one_prefix_never_remove_each_others_projects() {
    let search = search();
    search.delete(&format!("/{PREFIX}_*?expand_wildcards=all")).await.unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (alice_only, bob_only, shared) =
        (project(tmp.path(), "alice"), project(tmp.path(), "bob"), project(tmp.path(), "shared"));
    let (alice, bob) = (Developer::new(), Developer::new());
    assert_ne!(alice.id(), bob.id(), "each config has its own id");
    for (dev, roots) in [(&alice, [&alice_only, &shared]), (&bob, [&bob_only, &shared])] {
        for root in roots {
            dev.ok(&["source", "add", root.to_str().unwrap()]);
        }
    }
    let root = |p: &Path| p.canonicalize().unwrap().to_string_lossy().into_owned();
    let all = vec![(root(&alice_only), 1), (root(&bob_only), 1), (root(&shared), 1)];

    alice.ok(&["scan", "index", "--no-llm"]);
    bob.ok(&["scan", "index", "--no-llm"]);
    // Bob's run did not remove Alice's project; the shared one is stored once.
    assert_eq!(files_by_root(&search).await, all);
    let mut both = vec![alice.id(), bob.id()];
    both.sort();
    assert_eq!(owners(&search, &shared).await, both);
    assert_eq!(owners(&search, &alice_only).await, vec![alice.id()]);
    // The data indices say so too (their `_meta`).
    let hash = vibe_common::backend::naming::project_hash(&shared.canonicalize().unwrap());
    let mapping = search.get(&format!("/{PREFIX}_files_{hash}/_mapping")).await.unwrap();
    let tagged = mapping.as_object().unwrap().values().next().unwrap()["mappings"]["_meta"]["owners"].clone();
    let mut tagged: Vec<String> = serde_json::from_value(tagged).unwrap();
    tagged.sort();
    assert_eq!(tagged, both);
    // Runs again in the other order: nothing lost, nothing duplicated.
    bob.ok(&["scan", "index", "--no-llm"]);
    alice.ok(&["scan", "index", "--no-llm"]);
    assert_eq!(files_by_root(&search).await, all);
    let info = alice.ok(&["stats", "info"]);
    let shared_line =
        info.lines().find(|l| l.contains("Indexed by:") && l.contains(&alice.id()) && l.contains(&bob.id()));
    assert!(shared_line.is_some(), "stats info names both owners of the shared project:\n{info}");

    // Alice drops the shared project: Bob still has it, now as its only owner.
    alice.ok(&["source", "remove", "--target", shared.to_str().unwrap()]);
    let out = alice.ok(&["scan", "index", "--no-llm"]);
    assert!(out.contains("still indexed by another config"), "{out}");
    assert_eq!(files_by_root(&search).await, all);
    assert_eq!(owners(&search, &shared).await, vec![bob.id()]);
    // Bob drops it too: now it goes.
    bob.ok(&["source", "remove", "--target", shared.to_str().unwrap()]);
    let out = bob.ok(&["scan", "index", "--no-llm"]);
    assert!(out.contains("Removed project no longer configured"), "{out}");
    assert_eq!(files_by_root(&search).await, vec![(root(&alice_only), 1), (root(&bob_only), 1)]);
    // A project only Alice wrote, dropped by Alice, goes at her next run
    // (she now indexes Bob's project too, which she then shares).
    alice.ok(&["source", "add", bob_only.to_str().unwrap()]);
    alice.ok(&["source", "remove", "--target", alice_only.to_str().unwrap()]);
    alice.ok(&["scan", "index", "--no-llm"]);
    assert_eq!(files_by_root(&search).await, vec![(root(&bob_only), 1)]);
    let mut both_of_bobs = owners(&search, &bob_only).await;
    both_of_bobs.sort();
    assert_eq!(both_of_bobs, both);
    search.delete(&format!("/{PREFIX}_*?expand_wildcards=all")).await.unwrap();
}
