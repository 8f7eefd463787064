//! The owner identity on a shared cluster (issue 25): a copied config never
//! removes the original's projects, an older config keeps owning what its
//! `id` wrote, the same id writing from two config dirs is caught, and a
//! config with no sources removes exactly what it wrote. The real binary
//! against the real OpenSearch, each test on its own prefix.

use std::path::Path;

use serde_json::Value;
use vibe_common::backend::naming::project_hash;
use vibe_common::backend::search::Search;

use crate::ownership::{files_by_root, owners, project, search_on, Developer};

fn root(p: &Path) -> String {
    p.canonicalize().unwrap().to_string_lossy().into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

async fn fresh(prefix: &str) -> Search {
    let search = search_on(prefix);
    search.delete(&format!("/{prefix}_*?expand_wildcards=all")).await.unwrap();
    search
}

/// Writes `config.json5` of `dev` as an older build left it: with its `id`.
fn write_legacy_config(dev: &Developer, prefix: &str, id: &str, sources: &[&Path]) {
    let sources: Vec<String> = sources.iter().map(|s| format!("{:?}", path(s))).collect();
    let text = format!(
        "{{ version: '0.2.0', id: '{id}', opensearch: {{ index_prefix: '{prefix}' }}, sources: [{}] }}",
        sources.join(", ")
    );
    std::fs::write(dev.dir.path().join("config.json5"), text).unwrap();
    let _ = std::fs::remove_file(dev.dir.path().join("identity.json"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_copied_config_never_removes_the_originals_projects() {
    const PREFIX: &str = "tidcopy";
    let search = fresh(PREFIX).await;
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, c) = (project(tmp.path(), "a"), project(tmp.path(), "b"), project(tmp.path(), "c"));
    let alice = Developer::on(PREFIX);
    alice.ok(&["source", "add", path(&a)]);
    alice.ok(&["scan", "index", "--no-llm"]);
    let config = std::fs::read_to_string(alice.dir.path().join("config.json5")).unwrap();
    assert!(!config.contains(&alice.id()), "the owner id is not in the file people copy:\n{config}");

    // Bob copies Alice's config.json5 and lists another source instead.
    let bob = Developer::on(PREFIX);
    std::fs::copy(alice.dir.path().join("config.json5"), bob.dir.path().join("config.json5")).unwrap();
    bob.ok(&["source", "remove", "--target", path(&a)]);
    bob.ok(&["source", "add", path(&b)]);
    bob.ok(&["scan", "index", "--no-llm"]);
    assert_ne!(bob.id(), alice.id());
    assert_eq!(files_by_root(&search).await, vec![(root(&a), 1), (root(&b), 1)], "Alice's project is kept");

    // Carol copies Alice's whole config dir, identity file included.
    let carol = Developer::on(PREFIX);
    for name in ["config.json5", "identity.json"] {
        std::fs::copy(alice.dir.path().join(name), carol.dir.path().join(name)).unwrap();
    }
    let out = carol.ok(&["source", "remove", "--target", path(&a)]);
    assert!(out.contains("this config dir was copied from"), "the first run says so: {out}");
    carol.ok(&["source", "add", path(&c)]);
    carol.ok(&["scan", "index", "--no-llm"]);
    assert!(![alice.id(), bob.id()].contains(&carol.id()), "the copied dir gets its own identity");
    let all = vec![(root(&a), 1), (root(&b), 1), (root(&c), 1)];
    assert_eq!(files_by_root(&search).await, all);
    assert_eq!(owners(&search, &a).await, vec![alice.id()]);
    // Alice's runs are unaffected by the copies.
    alice.ok(&["scan", "index", "--no-llm"]);
    assert_eq!(files_by_root(&search).await, all);
    search.delete(&format!("/{PREFIX}_*?expand_wildcards=all")).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_config_keeps_its_projects_and_a_shared_old_id_is_caught() {
    const PREFIX: &str = "tidlegacy";
    let search = fresh(PREFIX).await;
    let tmp = tempfile::tempdir().unwrap();
    let (d1, d2, e) = (project(tmp.path(), "d1"), project(tmp.path(), "d2"), project(tmp.path(), "e"));
    // Dave's config is from before identity.json; Erin holds a copy of it (same `id`).
    let (dave, erin) = (Developer::on(PREFIX), Developer::on(PREFIX));
    write_legacy_config(&dave, PREFIX, "legacy-0a1b2c3d", &[&d1, &d2]);
    write_legacy_config(&erin, PREFIX, "legacy-0a1b2c3d", &[&e]);
    // The first run after the upgrade keeps the old id: the projects it wrote stay its own.
    dave.ok(&["scan", "index", "--no-llm"]);
    assert_eq!(dave.id(), "legacy-0a1b2c3d");
    let config = std::fs::read_to_string(dave.dir.path().join("config.json5")).unwrap();
    assert!(!config.contains("legacy-0a1b2c3d"), "the id moved out of config.json5:\n{config}");
    dave.ok(&["source", "remove", "--target", path(&d2)]);
    let out = dave.ok(&["scan", "index", "--no-llm"]);
    assert!(out.contains("Removed project no longer configured"), "{out}");
    assert_eq!(files_by_root(&search).await, vec![(root(&d1), 1)]);

    // Erin adopts the same old id: her run must not remove Dave's project, and says why.
    let out = erin.ok(&["scan", "index", "--no-llm"]);
    assert_eq!(erin.id(), "legacy-0a1b2c3d");
    assert!(out.contains(&format!("Kept {}", root(&d1))) && out.contains("also wrote it from"), "{out}");
    assert!(out.contains("identity.json") && out.contains("scan prune --project"), "how to resolve it:\n{out}");
    assert_eq!(files_by_root(&search).await, vec![(root(&d1), 1), (root(&e), 1)]);
    // Resolved as the message says: Erin gets an identity of her own.
    std::fs::remove_file(erin.dir.path().join("identity.json")).unwrap();
    let out = erin.ok(&["scan", "index", "--no-llm"]);
    assert_ne!(erin.id(), "legacy-0a1b2c3d");
    assert!(!out.contains("Kept "), "{out}");
    assert_eq!(files_by_root(&search).await, vec![(root(&d1), 1), (root(&e), 1)]);

    // A project the old build wrote (owner recorded, no writing site) is kept, with a way out.
    let hash = project_hash(&d1.canonicalize().unwrap());
    let meta_path = format!("/{PREFIX}_meta/_doc/{hash}");
    let mut doc: Value = search.get(&meta_path).await.unwrap()["_source"].clone();
    doc.as_object_mut().unwrap().remove("writers");
    search.put(&format!("{meta_path}?refresh=true"), &doc).await.unwrap();
    dave.ok(&["source", "remove", "--target", path(&d1)]);
    let out = dave.ok(&["scan", "index", "--no-llm"]);
    assert!(out.contains("before the writing host and config dir were recorded"), "{out}");
    assert_eq!(files_by_root(&search).await, vec![(root(&d1), 1), (root(&e), 1)]);
    let out = dave.ok(&["scan", "prune", "--project", path(&d1)]);
    assert!(out.contains("Removing 1 project") && out.contains(&root(&d1)), "{out}");
    assert_eq!(files_by_root(&search).await, vec![(root(&e), 1)]);
    search.delete(&format!("/{PREFIX}_*?expand_wildcards=all")).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_config_with_no_sources_removes_exactly_what_it_wrote() {
    const PREFIX: &str = "tidprune";
    let search = fresh(PREFIX).await;
    let tmp = tempfile::tempdir().unwrap();
    let (a1, a2, shared, b) =
        (project(tmp.path(), "a1"), project(tmp.path(), "a2"), project(tmp.path(), "s"), project(tmp.path(), "b"));
    let (alice, bob) = (Developer::on(PREFIX), Developer::on(PREFIX));
    for p in [&a1, &a2, &shared] {
        alice.ok(&["source", "add", path(p)]);
    }
    for p in [&shared, &b] {
        bob.ok(&["source", "add", path(p)]);
    }
    alice.ok(&["scan", "index", "--no-llm"]);
    bob.ok(&["scan", "index", "--no-llm"]);
    let all = vec![(root(&a1), 1), (root(&a2), 1), (root(&b), 1), (root(&shared), 1)];
    assert_eq!(files_by_root(&search).await, all);
    for p in [&a1, &a2, &shared] {
        alice.ok(&["source", "remove", "--target", path(p)]);
    }

    // Dry runs list what would go, and change nothing.
    for args in [&["scan", "index", "--dry-run"][..], &["scan", "prune", "--dry-run"]] {
        let out = alice.ok(args);
        assert!(out.contains("Would remove 2 projects this identity wrote"), "{args:?}: {out}");
        assert!(out.contains(&root(&a1)) && out.contains(&root(&a2)), "{out}");
        assert!(out.contains("Would release 1 project") && out.contains(&root(&shared)), "{out}");
        assert!(!out.contains(&root(&b)), "Bob's project is not Alice's business: {out}");
        assert_eq!(files_by_root(&search).await, all);
    }
    let out = bob.ok(&["scan", "index", "--dry-run"]);
    assert!(out.contains("No project to remove."), "{out}");

    // `scan index` with no sources says what it removes, then removes exactly that.
    let out = alice.ok(&["scan", "index", "--no-llm"]);
    assert!(out.contains("This config lists no sources."), "{out}");
    assert!(out.contains("Removing 2 projects this identity wrote"), "{out}");
    assert_eq!(files_by_root(&search).await, vec![(root(&b), 1), (root(&shared), 1)]);
    assert_eq!(owners(&search, &shared).await, vec![bob.id()]);
    assert!(alice.ok(&["scan", "index"]).contains("No project to remove."));
    bob.ok(&["scan", "index", "--no-llm"]);
    assert_eq!(files_by_root(&search).await, vec![(root(&b), 1), (root(&shared), 1)]);
    search.delete(&format!("/{PREFIX}_*?expand_wildcards=all")).await.unwrap();
}
