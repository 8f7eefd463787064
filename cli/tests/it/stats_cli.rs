//! `stats info` and `stats tree` of the real binary, read back from the real
//! OpenSearch (tests/opensearch/start.sh) after a real `scan index`.

use std::path::Path;
use std::process::{Command, Output};

use vibe_common::backend::search::Search;
use vibe_common::config::OpenSearchConfig;

const PREFIX: &str = "tstatscli";

fn opensearch_url() -> String {
    std::env::var("VIBE_OPENSEARCH_URL").unwrap_or_else(|_| "http://127.0.0.1:9200".into())
}

fn wipe() {
    let search = Search::new(&OpenSearchConfig {
        hosts: vec![opensearch_url()],
        index_prefix: PREFIX.into(),
        ..Default::default()
    })
    .unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(search.delete(&format!("/{PREFIX}_*?expand_wildcards=all"))).unwrap();
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

struct Cli {
    cfg: tempfile::TempDir,
}

impl Cli {
    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_vibe-analyzer"))
            .arg("--config-dir")
            .arg(self.cfg.path())
            .args(args)
            .env("VIBE_OPENSEARCH_URL", opensearch_url())
            .env_remove("RUST_LOG")
            .output()
            .unwrap()
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }
}

/// The row of `language` in a `stats info` table: (files, lines, AST objects or "", size).
fn row<'a>(table: &'a str, language: &str) -> Vec<&'a str> {
    let line = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(language))
        .unwrap_or_else(|| panic!("no {language} row in\n{table}"));
    line.split_whitespace().skip(1).collect()
}

#[test]
fn stats_info_and_tree_are_read_back_from_the_index() {
    wipe();
    let dir = tempfile::tempdir().unwrap();
    let alpha = dir.path().join("alpha");
    write(
        &alpha,
        "src/main.py",
        "def main():\n    \"\"\"Entry point.\"\"\"\n    return helper()\n\n\ndef helper():\n    return 1\n",
    );
    write(&alpha, "src/util/helpers.rs", "/// Adds.\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");
    write(&alpha, "README.md", "# Alpha\n\nThe alpha project.\n");
    write(&alpha, "notes.txt", "one\ntwo\n");
    let beta = dir.path().join("beta");
    write(&beta, "lib.go", "package beta\n\nfunc Hello() string { return \"hi\" }\n");

    let cli = Cli { cfg: tempfile::tempdir().unwrap() };
    cli.ok(&["source", "list"]);
    let config = cli.cfg.path().join("config.json5");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("index_prefix: \"vibe\"", &format!("index_prefix: \"{PREFIX}\""))).unwrap();
    cli.ok(&["source", "add", alpha.to_str().unwrap()]);
    cli.ok(&["source", "add", beta.to_str().unwrap()]);

    // Before indexing: a clear error, not an empty table.
    let out = cli.run(&["stats", "info", "--target", "alpha"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing is indexed yet"), "{out:?}");

    cli.ok(&["scan", "index", "--no-llm"]);

    // Without a target: every indexed project.
    let all = cli.ok(&["stats", "info"]);
    assert!(
        all.contains(&format!("- alpha ({}): 4 files, 16 lines", alpha.canonicalize().unwrap().display())),
        "{all}"
    );
    assert!(all.contains("- beta ("), "{all}");

    // The table: languages by lines (Python 7 > Rust 4 > Markdown 3), then Other, then Total.
    for target in ["alpha", "ALPHA", alpha.to_str().unwrap()] {
        let table = cli.ok(&["stats", "info", "--target", target]);
        let order: Vec<&str> = table
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|w| ["Python", "Rust", "Markdown", "Other", "Total"].contains(w))
            .collect();
        assert_eq!(order, ["Python", "Rust", "Markdown", "Other", "Total"], "{table}");
        assert_eq!(row(&table, "Python")[..2], ["1", "7"], "{table}");
        assert_eq!(row(&table, "Rust")[..2], ["1", "4"], "{table}");
        assert_eq!(row(&table, "Other")[..2], ["1", "2"], "{table}");
        assert_eq!(row(&table, "Total")[..2], ["4", "16"], "{table}");
        assert!(
            table.lines().next().unwrap().starts_with('━')
                && table.contains("Language")
                && table.contains("AST Objects"),
            "{table}"
        );
        assert!(table.trim_end().lines().last().unwrap().starts_with("Stats generated in "), "{table}");
    }

    // The tree comes from the indexed paths, in `|--` / `` `-- `` style.
    let tree = cli.ok(&["stats", "tree", "--target", "alpha"]);
    for needle in [
        "|-- README.md",
        "|-- notes.txt",
        "`-- src",
        "|-- main.py",
        "`-- util",
        "`-- helpers.rs",
        "2 directories, 4 files",
    ] {
        assert!(tree.contains(needle), "{needle:?} missing in\n{tree}");
    }

    // An unknown target: exit 1, and the known projects are listed.
    let out = cli.run(&["stats", "tree", "--target", "gamma"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("\"gamma\"") && err.contains("  alpha (") && err.contains("  beta ("), "{err}");

    // The tree is not read from disk: a file added since the index is not in it.
    write(&alpha, "src/late.py", "x = 1\n");
    assert!(!cli.ok(&["stats", "tree", "--target", "alpha"]).contains("late.py"));
    wipe();
}
