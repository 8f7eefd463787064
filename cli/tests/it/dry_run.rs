//! `scan index --dry-run` tells what the run would write and remove, file
//! by file count, and writes nothing (issue 59 item 5). The real binary
//! against the real OpenSearch, on its own prefix.

use crate::ownership::{files_by_root, project, search_on, Developer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dry_run_tells_what_the_run_would_write_and_writes_nothing() {
    const PREFIX: &str = "tdryrun";
    let search = search_on(PREFIX);
    search.delete(&format!("/{PREFIX}_*?expand_wildcards=all")).await.unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = project(tmp.path(), "shop");
    std::fs::write(dir.join("cart.py"), "def total(items):\n    return sum(items)\n").unwrap();
    let dev = Developer::on(PREFIX);
    dev.ok(&["source", "add", dir.to_str().unwrap()]);
    let root = dir.canonicalize().unwrap().to_string_lossy().into_owned();

    let out = dev.ok(&["scan", "index", "--dry-run"]);
    assert!(out.contains("shop: would build a new index (not indexed yet) of 2 files"), "{out}");
    let indices = search.get(&format!("/_cat/indices/{PREFIX}_*?format=json")).await.unwrap();
    assert_eq!(indices, serde_json::json!([]), "a dry run writes nothing");

    dev.ok(&["scan", "index", "--no-llm"]);
    let out = dev.ok(&["scan", "index", "--dry-run"]);
    assert!(out.contains("shop: nothing to write; 2 unchanged"), "{out}");

    // An edit, a new file and a deleted one: the preview counts each, the run then does it.
    std::fs::write(dir.join("cart.py"), "def total(items):\n    return sum(items) * 2\n").unwrap();
    std::fs::write(dir.join("tax.py"), "RATE = 0.2\n").unwrap();
    std::fs::remove_file(dir.join("main.py")).unwrap();
    let out = dev.ok(&["scan", "index", "--dry-run"]);
    assert!(out.contains("shop: would write 2 files (new 1, changed 1) and remove 1 file no longer on disk"), "{out}");
    assert_eq!(files_by_root(&search).await, vec![(root.clone(), 2)], "still as indexed");
    let out = dev.ok(&["scan", "index", "--no-llm"]);
    assert!(out.contains("shop: removed 1 file no longer on disk"), "{out}");
    assert_eq!(files_by_root(&search).await, vec![(root, 2)]);
    search.delete(&format!("/{PREFIX}_*?expand_wildcards=all")).await.unwrap();
}
