//! OpenSearch's refusals told in words, once per run (issue 35), with the
//! real binary against the real node: a flood-stage block
//! (`index.blocks.read_only_allow_delete`, as OpenSearch sets it on a full
//! disk) on the data indices and then on every index of the prefix, and the
//! cluster setting `cluster.blocks.create_index`. Each block is lifted again
//! however the test ends (other tests share the node); the next run then
//! writes exactly what is missing.

use serde_json::{json, Value};
use vibe_common::search::Search;

use crate::indexer_backend_crash::assert_converged;
use crate::run_lock::{assert_no_raw_json, fresh, tree, Cfg};

/// A setting put now and put back to `null` when dropped (on failure too).
struct Block {
    search: Search,
    path: String,
    lifted: Value,
}

impl Block {
    async fn set(search: &Search, path: &str, set: Value, lifted: Value) -> Self {
        search.put(path, &set).await.unwrap();
        Self { search: search.clone(), path: path.to_string(), lifted }
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        let (search, path, body) = (self.search.clone(), self.path.clone(), self.lifted.clone());
        let lifted = std::thread::spawn(move || {
            tokio::runtime::Runtime::new().unwrap().block_on(async move { search.put(&path, &body).await })
        })
        .join();
        assert!(matches!(lifted, Ok(Ok(_))), "the block on {} was not lifted: {lifted:?}", self.path);
    }
}

fn read_only(search: &Search, indices: &str) -> impl std::future::Future<Output = Block> {
    let path = format!("/{indices}/_settings?expand_wildcards=all");
    let (set, lifted) = (
        json!({ "index.blocks.read_only_allow_delete": true }),
        json!({ "index.blocks.read_only_allow_delete": null }),
    );
    let search = search.clone();
    async move { Block::set(&search, &path, set, lifted).await }
}

fn change(root: &std::path::Path, files: usize, version: u32) {
    for i in 0..files {
        let text = format!("def changed_{i}_v{version}():\n    return {version}\n");
        std::fs::write(root.join(format!("pkg{i}/mod{i}.py")), text).unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_is_told_once_and_the_next_run_writes_what_is_missing() {
    let search = fresh("trefdisk").await;
    let (_dir, root) = tree(20);
    let cfg = Cfg::new("trefdisk", &[&root], None, 0);
    assert_eq!(cfg.run(&["scan", "index"]).0, 0);
    change(&root, 5, 2);

    // The data indices blocked: the run goes on, the refused files are counted.
    let block = read_only(&search, "trefdisk_data_*").await;
    let (code, text) = cfg.run(&["scan", "index"]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("error: 5 files were not written. OpenSearch's disk is above its flood-stage watermark"),
        "{text}"
    );
    assert!(text.contains("curl -X PUT 'http://127.0.0.1:9200/trefdisk_*/_settings'"), "{text}");
    assert_eq!(text.matches("flood-stage").count(), 1, "told once, not per file:\n{text}");
    assert!(!text.contains("mod0.py"), "no line per file:\n{text}");
    assert_no_raw_json(&text);
    drop(block);

    // Every index of the prefix blocked (the lock and meta indices too): the run stops at once.
    change(&root, 5, 3);
    let block = read_only(&search, "trefdisk_*").await;
    let (code, text) = cfg.run(&["scan", "index"]);
    assert_eq!(code, 1, "{text}");
    assert_eq!(text.matches("flood-stage").count(), 1, "{text}");
    assert!(text.contains("rerun `vibe-analyzer scan index`"), "{text}");
    assert_no_raw_json(&text);
    drop(block);

    let (code, text) = cfg.run(&["scan", "index"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("Files: 5, Analysis: 5"), "exactly the missing files: {text}");
    assert_converged(&search, &root, 20).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_create_index_block_is_told_and_the_run_after_it_is_lifted_converges() {
    let search = fresh("trefcreate").await;
    let (_dir, root) = tree(10);
    let cfg = Cfg::new("trefcreate", &[&root], None, 0);
    assert_eq!(cfg.run(&["scan", "index"]).0, 0);
    change(&root, 3, 2);

    let setting = |v: Value| json!({ "persistent": { "cluster.blocks.create_index": v } });
    let block = Block::set(&search, "/_cluster/settings", setting(json!(true)), setting(Value::Null)).await;
    // --force needs a new generation.
    let (code, text) = cfg.run(&["scan", "index", "--force"]);
    drop(block);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("OpenSearch refuses to create indices: the cluster setting cluster.blocks.create_index is on"),
        "{text}"
    );
    assert!(text.contains(r#"-d '{"persistent": {"cluster.blocks.create_index": null}}'"#), "{text}");
    assert_eq!(text.matches("cluster.blocks.create_index is on").count(), 1, "{text}");
    assert_no_raw_json(&text);
    let settings = search.get("/_cluster/settings").await.unwrap();
    assert!(settings["persistent"]["cluster"]["blocks"]["create_index"].is_null(), "the block was lifted: {settings}");

    let (code, text) = cfg.run(&["scan", "index", "--force"]);
    assert_eq!(code, 0, "{text}");
    assert_converged(&search, &root, 10).await;
}
