//! `scan watch` of the real binary against the real OpenSearch
//! (tests/opensearch/start.sh): added, changed, deleted and renamed files
//! become searchable (or go) within a few seconds; ignored files never do.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use vibe_common::backend::naming::project_hash;
use vibe_common::backend::search::Search;
use vibe_common::config::Config;

const PREFIX: &str = "twatch";
/// Generous: the watcher itself aims at well under 2 s.
const TIMEOUT: Duration = Duration::from_secs(30);

fn opensearch_url() -> String {
    std::env::var("VIBE_OPENSEARCH_URL").unwrap_or_else(|_| "http://127.0.0.1:9200".into())
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn cli(cfg: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_vibe-analyzer"))
        .arg("--config-dir")
        .arg(cfg)
        .args(args)
        .env("VIBE_OPENSEARCH_URL", opensearch_url())
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The running watcher: its stdout lines, killed (and the indices dropped) on drop.
struct Watcher {
    child: Mutex<Child>,
    lines: Arc<Mutex<Vec<String>>>,
    search: Search,
    runtime: tokio::runtime::Runtime,
}

impl Watcher {
    fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    fn wait_for(&self, what: &str, mut ok: impl FnMut(&Self) -> bool) {
        let start = Instant::now();
        while !ok(self) {
            if let Ok(Some(status)) = self.child.lock().unwrap().try_wait() {
                panic!("{what}: the watcher exited ({status}); it said:\n{}", self.lines().join("\n"));
            }
            assert!(
                start.elapsed() < TIMEOUT,
                "{what}: not within {TIMEOUT:?}; watcher said:\n{}",
                self.lines().join("\n")
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn doc(&self, alias: &str, rel: &str) -> Option<Value> {
        let query = json!({ "query": { "ids": { "values": [rel] } } });
        let r = self.runtime.block_on(self.search.post(&format!("/{alias}/_search"), &query)).ok()?;
        r["hits"]["hits"].as_array()?.first().map(|h| h["_source"].clone())
    }

    fn count(&self, alias: &str) -> u64 {
        let r = self.runtime.block_on(self.search.get(&format!("/{alias}/_count")));
        r.map(|r| r["count"].as_u64().unwrap_or(0)).unwrap_or(0)
    }

    fn wipe(&self) {
        let _ = self.runtime.block_on(self.search.delete(&format!("/{PREFIX}_*?expand_wildcards=all")));
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let child = self.child.get_mut().unwrap();
        let _ = child.kill();
        let _ = child.wait();
        self.wipe();
    }
}

fn start(cfg: &Path) -> Watcher {
    let (config, _) = Config::load_or_create(Some(cfg)).unwrap();
    let search = Search::new(&config.opensearch).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let _ = runtime.block_on(search.delete(&format!("/{PREFIX}_*?expand_wildcards=all")));
    let mut child = Command::new(env!("CARGO_BIN_EXE_vibe-analyzer"))
        .arg("--config-dir")
        .arg(cfg)
        .args(["scan", "watch", "--no-llm"])
        .env("VIBE_OPENSEARCH_URL", opensearch_url())
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let lines = Arc::new(Mutex::new(Vec::new()));
    let (stdout, sink) = (child.stdout.take().unwrap(), lines.clone());
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            sink.lock().unwrap().push(line);
        }
    });
    Watcher { child: Mutex::new(child), lines, search, runtime }
}

#[test]
fn watch_indexes_changes_and_skips_ignored_files() {
    let dir = tempfile::tempdir().unwrap();
    let src: PathBuf = dir.path().join("proj");
    write(&src, "src/main.py", "def original():\n    return 1\n");
    write(&src, "README.md", "# Proj\n\nA watched project.\n");
    write(&src, ".gitignore", "*.secret\nbuild/\n");
    let src = src.canonicalize().unwrap();
    let cfg = tempfile::tempdir().unwrap();
    cli(cfg.path(), &["source", "list"]);
    let config = cfg.path().join("config.json5");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("index_prefix: \"vibe\"", &format!("index_prefix: \"{PREFIX}\""))).unwrap();
    cli(cfg.path(), &["source", "add", src.to_str().unwrap()]);

    let w = start(cfg.path());
    let files = w.search.names.files_alias(&project_hash(&src));
    let analysis = w.search.names.ast_alias(&project_hash(&src));
    w.wait_for("the watcher starts", |w| w.lines().iter().any(|l| l.starts_with("watch: watching proj")));
    assert!(w.doc(&files, "src/main.py").is_some(), "the initial sync indexes the source");
    let has = |w: &Watcher, rel: &str| w.doc(&files, rel).is_some();

    // Added.
    write(&src, "src/added.py", "def added_function():\n    return 2\n");
    w.wait_for("an added file", |w| has(w, "src/added.py"));
    // Changed: the new content and the new symbols.
    write(&src, "src/main.py", "def changed_function():\n    return 3\n");
    w.wait_for("a changed file", |w| {
        w.doc(&files, "src/main.py").is_some_and(|d| d["content"].as_str().unwrap_or("").contains("changed_function"))
    });
    w.wait_for("its analysis", |w| {
        w.doc(&analysis, "src/main.py").is_some_and(|d| d.to_string().contains("changed_function"))
    });
    // Ignored files, then a sentinel: once the sentinel is in, the ignored
    // files' events have been handled too.
    write(&src, "key.secret", "password\n");
    write(&src, "build/generated.py", "x = 1\n");
    write(&src, "node_modules/dep/index.js", "module.exports = 1;\n");
    write(&src, "src/sentinel.py", "y = 2\n");
    w.wait_for("the sentinel", |w| has(w, "src/sentinel.py"));
    for ignored in ["key.secret", "build/generated.py", "node_modules/dep/index.js"] {
        assert!(!has(&w, ignored), "{ignored} is ignored and must not be indexed");
    }
    // Deleted.
    std::fs::remove_file(src.join("src/added.py")).unwrap();
    w.wait_for("a deleted file", |w| !has(w, "src/added.py") && w.doc(&analysis, "src/added.py").is_none());
    // Renamed: the new path in, the old one out.
    std::fs::rename(src.join("src/main.py"), src.join("src/moved.py")).unwrap();
    w.wait_for("a renamed file", |w| has(w, "src/moved.py") && !has(w, "src/main.py"));
    // A new directory, its files, then the directory renamed.
    write(&src, "pkg/a.py", "a = 1\n");
    w.wait_for("a file in a new directory", |w| has(w, "pkg/a.py"));
    write(&src, "pkg/b.py", "b = 1\n");
    w.wait_for("a second file in the new directory (now watched)", |w| has(w, "pkg/b.py"));
    std::fs::rename(src.join("pkg"), src.join("pkg2")).unwrap();
    w.wait_for("a renamed directory", |w| has(w, "pkg2/a.py") && has(w, "pkg2/b.py") && !has(w, "pkg/a.py"));

    // A burst of files is one batch (or very few), not one per file. The
    // line of a batch comes after its documents are searchable.
    w.wait_for("the line of the last batch", |w| w.lines().last().is_some_and(|l| l.contains("2 changed, 2 removed")));
    let before = w.lines().len();
    let total = w.count(&files);
    for i in 0..300 {
        write(&src, &format!("burst/f{i}.py"), &format!("def f{i}():\n    return {i}\n"));
    }
    w.wait_for("a burst of 300 files", |w| w.count(&files) == total + 300);
    let changed = |l: &String| -> u64 {
        l.split(": ").nth(2).and_then(|s| s.split(' ').next()).and_then(|n| n.parse().ok()).unwrap_or(0)
    };
    w.wait_for("the lines of the burst", |w| w.lines()[before..].iter().map(changed).sum::<u64>() == 300);
    let batches: Vec<String> = w.lines()[before..].to_vec();
    assert!((1..=3).contains(&batches.len()), "{batches:?}");
    assert!(batches.iter().all(|l| l.contains(" -> indexed in ")), "{batches:?}");
    assert!(w.lines().iter().any(|l| l.contains("1 changed, 0 removed")), "{:?}", w.lines());
    eprintln!("{}", w.lines().join("\n"));
}
