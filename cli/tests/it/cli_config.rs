//! Runs the real `vibe-analyzer` binary against a config dir in a tempdir.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_vibe-analyzer");

struct Sandbox {
    _tmp: tempfile::TempDir,
    /// Canonical root of the tempdir.
    root: PathBuf,
    /// `--config-dir` (does not exist before the first run).
    cfg: PathBuf,
    /// `$HOME`, to check that the default dir is not touched.
    home: PathBuf,
}

impl Sandbox {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        let home = root.join("home");
        std::fs::create_dir_all(&home).unwrap();
        Sandbox { cfg: root.join("cfg"), root, home, _tmp: tmp }
    }

    fn config_file(&self) -> PathBuf {
        self.cfg.join("config.json5")
    }

    fn dir(&self, rel: &str) -> PathBuf {
        let p = self.root.join(rel);
        std::fs::create_dir_all(&p).unwrap();
        p
    }

    /// Runs without `--config-dir`.
    fn run_bare(&self, args: &[&str]) -> Output {
        Command::new(BIN)
            .args(args)
            .current_dir(&self.root)
            .env("HOME", &self.home)
            .env_remove("RUST_LOG")
            .env_remove("VIBE_OPENSEARCH_URL")
            .env_remove("VIBE_MCP_TOKEN")
            .output()
            .unwrap()
    }

    fn run(&self, args: &[&str]) -> Output {
        let mut all = vec!["--config-dir", self.cfg.to_str().unwrap()];
        all.extend_from_slice(args);
        self.run_bare(&all)
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }

    fn fails(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?} should fail: {out:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains("error: "), "{stderr}");
        stderr
    }

    fn config_bytes(&self) -> Vec<u8> {
        std::fs::read(self.config_file()).unwrap()
    }

    fn config_value(&self) -> serde_json::Value {
        json5::from_str(&String::from_utf8(self.config_bytes()).unwrap()).unwrap()
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn first_run_creates_commented_config_in_config_dir() {
    let sb = Sandbox::new();
    assert!(!sb.cfg.exists());
    let out = sb.ok(&["source", "list"]);
    // A suggested command keeps this run's --config-dir (issue 59: without
    // it, it would read or create ~/.vibe-analyzer).
    assert_eq!(
        out,
        format!("No sources configured. Add one with: vibe-analyzer --config-dir {} source add PATH\n", s(&sb.cfg))
    );
    let text = String::from_utf8(sb.config_bytes()).unwrap();
    assert!(text.contains("//"), "config has comments:\n{text}");
    let v = sb.config_value();
    assert_eq!(v["version"], "0.2.0");
    // The owner id is not in the file people copy: identity.json beside it.
    assert!(v.get("id").is_none(), "no owner id in config.json5: {}", v["id"]);
    let identity: serde_json::Value =
        serde_json::from_slice(&std::fs::read(sb.cfg.join("identity.json")).unwrap()).unwrap();
    assert!(identity["id"].as_str().is_some_and(|id| id.len() > 9), "a stable owner id: {identity}");
    assert_eq!(v["ollama"], serde_json::json!([]));
    assert_eq!(v["sources"], serde_json::json!([]));
    assert_eq!(v["opensearch"]["hosts"], serde_json::json!(["http://127.0.0.1:9200"]));
    assert_eq!(v["opensearch"]["index_prefix"], "vibe");
    assert_eq!(v["mcp"]["host"], "127.0.0.1");
    assert_eq!(v["mcp"]["port"], 9020);
    assert_eq!(v["mcp"]["protocol"], "latest");
    // --config-dir is honoured: nothing in $HOME.
    assert!(!sb.home.join(".vibe-analyzer").exists());
    // A second run leaves the file alone.
    sb.ok(&["source", "list"]);
    assert_eq!(sb.config_bytes(), text.as_bytes());
}

#[test]
fn any_command_creates_the_config() {
    let sb = Sandbox::new();
    // Even a stubbed/failing command creates the config first.
    let _ = sb.run(&["stats", "info"]);
    assert!(sb.config_file().exists());
}

#[test]
fn default_dir_is_home_and_global_flag_works_after_subcommand() {
    let sb = Sandbox::new();
    let out = sb.run_bare(&["source", "list"]);
    assert!(out.status.success(), "{out:?}");
    assert!(sb.home.join(".vibe-analyzer/config.json5").exists());
    // `--config-dir` is global: accepted after the subcommand too.
    let out = sb.run_bare(&["source", "list", "--config-dir", s(&sb.cfg)]);
    assert!(out.status.success(), "{out:?}");
    assert!(sb.config_file().exists());
}

#[test]
fn source_add_list_and_add_twice() {
    let sb = Sandbox::new();
    let one = sb.dir("one");
    let two = sb.dir("two");
    assert_eq!(sb.ok(&["source", "add", s(&one)]), format!("Source added: {}\n", one.display()));
    // Relative to the current directory (the sandbox root), with a trailing slash.
    assert_eq!(sb.ok(&["source", "add", "./two/"]), format!("Source added: {}\n", two.display()));
    let before = sb.config_bytes();
    assert_eq!(sb.ok(&["source", "add", s(&one)]), format!("Source already added: {}\n", one.display()));
    assert_eq!(sb.config_bytes(), before, "no rewrite for a duplicate");
    assert_eq!(sb.ok(&["source", "list"]), format!("Configured sources:\n- {}\n- {}\n", one.display(), two.display()));
    let v = sb.config_value();
    assert_eq!(v["sources"], serde_json::json!([s(&one), s(&two)]));
    // The saved file still has comments and defaults.
    assert!(String::from_utf8(before).unwrap().contains("//"));
    assert_eq!(v["mcp"]["port"], 9020);
}

#[test]
fn source_add_missing_path() {
    let sb = Sandbox::new();
    sb.ok(&["source", "list"]);
    let before = sb.config_bytes();
    let missing = sb.root.join("nope");
    let err = sb.fails(&["source", "add", s(&missing)]);
    assert!(err.contains(&format!("path does not exist: {}", missing.display())), "{err}");
    assert_eq!(sb.config_bytes(), before);
}

#[test]
fn source_remove_by_name_and_by_path() {
    let sb = Sandbox::new();
    let app = sb.dir("a/x/app");
    let lib = sb.dir("b/lib");
    sb.ok(&["source", "add", s(&app)]);
    sb.ok(&["source", "add", s(&lib)]);
    assert_eq!(sb.ok(&["source", "remove", "--target", "app"]), format!("Source removed: {}\n", app.display()));
    assert_eq!(sb.ok(&["source", "remove", "--target", s(&lib)]), format!("Source removed: {}\n", lib.display()));
    assert_eq!(sb.config_value()["sources"], serde_json::json!([]));
    assert!(sb.ok(&["source", "list"]).starts_with("No sources configured."));
}

#[test]
fn source_remove_ambiguous_name() {
    let sb = Sandbox::new();
    let a = sb.dir("a/x/app");
    let b = sb.dir("b/y/app");
    sb.ok(&["source", "add", s(&a)]);
    sb.ok(&["source", "add", s(&b)]);
    let before = sb.config_bytes();
    let err = sb.fails(&["source", "remove", "--target", "app"]);
    assert!(err.contains("ambiguous"), "{err}");
    assert!(err.contains(&format!("- {}", a.display())), "{err}");
    assert!(err.contains(&format!("- {}", b.display())), "{err}");
    assert_eq!(sb.config_bytes(), before, "config untouched");
    // The full path still works.
    assert_eq!(sb.ok(&["source", "remove", "--target", s(&b)]), format!("Source removed: {}\n", b.display()));
}

#[test]
fn source_remove_unknown() {
    let sb = Sandbox::new();
    let one = sb.dir("one");
    sb.ok(&["source", "add", s(&one)]);
    let before = sb.config_bytes();
    let err = sb.fails(&["source", "remove", "--target", "other"]);
    assert!(err.contains("unknown source: other"), "{err}");
    assert!(err.contains(&format!("- {}", one.display())), "{err}");
    assert_eq!(sb.config_bytes(), before, "config untouched");
    let err = sb.fails(&["source", "remove", "--target", "/does/not/exist"]);
    assert!(err.contains("unknown source"), "{err}");
    assert_eq!(sb.config_bytes(), before, "config untouched");
}

#[test]
fn invalid_json5_stops_with_position_and_is_not_overwritten() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(&sb.cfg).unwrap();
    let text = "// broken\n{\n  version: \"0.1.0\",\n  sources: [\"/x\" \"/y\"],\n}\n";
    std::fs::write(sb.config_file(), text).unwrap();
    let dir = sb.dir("d");
    for args in [vec!["source", "list"], vec!["source", "add", s(&dir)]] {
        let err = sb.fails(&args);
        let file = sb.config_file();
        assert!(err.contains(&format!("{}:4:", file.display())), "error names file and line: {err}");
        assert!(err.contains("invalid JSON5"), "{err}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    }
    assert!(!sb.cfg.join("config.json5.bak").exists());
}

#[test]
fn relative_sources_resolve_against_config_dir_and_are_validated() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.cfg.join("proj")).unwrap();
    std::fs::write(sb.config_file(), "{ sources: ['proj', './proj/'], ollama: [{ max_chunk_chars: 5 }] }").unwrap();
    assert_eq!(sb.ok(&["source", "list"]), format!("Configured sources:\n- {}\n", sb.cfg.join("proj").display()));
    // Saving (after an add) writes the validated values back.
    let other = sb.dir("other");
    sb.ok(&["source", "add", s(&other)]);
    let v = sb.config_value();
    assert_eq!(v["sources"], serde_json::json!([s(&sb.cfg.join("proj")), s(&other)]));
    assert_eq!(v["ollama"][0]["max_chunk_chars"], 1000);
    assert_eq!(v["ollama"][0]["model"], "qwen2.5-coder:3b-instruct");
}

#[test]
fn migrates_0_0_1_config_with_backup() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(&sb.cfg).unwrap();
    let old = r#"{
  "version": "0.0.1",
  "opensearch": { "host": "http://localhost:9200" },
  "mcp": { "host": "0.0.0.0", "port": 9020 },
  "ollama": [],
  "sources": []
}
"#;
    std::fs::write(sb.config_file(), old).unwrap();
    sb.ok(&["source", "list"]);
    assert_eq!(std::fs::read_to_string(sb.cfg.join("config.json5.bak")).unwrap(), old);
    let v = sb.config_value();
    assert_eq!(v["version"], "0.2.0");
    // An explicit 0.0.0.0 is kept (issue 12 item 5; it used to become loopback).
    assert_eq!(v["mcp"]["host"], "0.0.0.0");
    assert_eq!(v["opensearch"]["index_prefix"], "vibe");
    assert_eq!(v["opensearch"]["hosts"], serde_json::json!(["http://localhost:9200"]));
}

#[test]
fn env_override_is_not_written_to_the_file() {
    let sb = Sandbox::new();
    let one = sb.dir("one");
    let out = Command::new(BIN)
        .args(["--config-dir", s(&sb.cfg), "source", "add", s(&one)])
        .env("HOME", &sb.home)
        .env("VIBE_OPENSEARCH_URL", "http://override:9200")
        .env("VIBE_MCP_TOKEN", "secret-token")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v = sb.config_value();
    assert_eq!(v["opensearch"]["hosts"], serde_json::json!(["http://127.0.0.1:9200"]));
    assert_eq!(v["mcp"]["token"], serde_json::Value::Null);
    assert_eq!(v["sources"], serde_json::json!([s(&one)]));
}

#[test]
fn usage_errors_exit_1() {
    let sb = Sandbox::new();
    let out = sb.run(&["source", "remove"]);
    assert_eq!(out.status.code(), Some(1));
    let out = sb.run_bare(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn scan_ast_without_output_creates_no_downloads_folder() {
    // Issue 59: without --output and without a Downloads folder, the export
    // goes to the current directory, and says so; no folder is created.
    let sb = Sandbox::new();
    let src = sb.dir("proj");
    std::fs::write(src.join("a.py"), "def f():\n    return 1\n").unwrap();
    sb.ok(&["source", "add", s(&src)]);
    let out = sb.run(&["scan", "ast"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!sb.home.join("Downloads").exists(), "no ~/Downloads created");
    let written: Vec<_> = std::fs::read_dir(&sb.root)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.starts_with("vibe-analyzer-ast-proj-") && n.ends_with(".json"))
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    let said = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&written[0]), "{said}");
}

#[test]
fn a_source_that_is_gone_is_named_with_its_remedy_and_the_others_are_scanned() {
    // Issue 59: a vanished source folder stopped `scan ast` with nothing
    // written, and named no way out.
    let sb = Sandbox::new();
    let (a, b) = (sb.dir("a"), sb.dir("b"));
    std::fs::write(a.join("a.py"), "def fa():\n    return 1\n").unwrap();
    std::fs::write(b.join("b.py"), "def fb():\n    return 2\n").unwrap();
    sb.ok(&["source", "add", s(&a)]);
    sb.ok(&["source", "add", s(&b)]);
    std::fs::remove_dir_all(&a).unwrap();
    let out_file = sb.root.join("out.json");
    let out = sb.run(&["scan", "ast", "--output", s(&out_file)]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let remedy = format!("remove it with: vibe-analyzer --config-dir {} source remove --target {}", s(&sb.cfg), s(&a));
    assert!(stderr.contains("no longer exists") && stderr.contains(&remedy), "{stderr}");
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert!(written.contains("\"fb\"") && !written.contains("\"fa\""), "{written}");
}

#[test]
fn a_file_or_a_folder_inside_a_source_is_refused() {
    let sb = Sandbox::new();
    let pkg = sb.dir("pkg/json");
    std::fs::write(pkg.join("decoder.py"), "x = 1\n").unwrap();
    sb.ok(&["source", "add", s(&sb.root.join("pkg"))]);
    let err = sb.fails(&["source", "add", s(&pkg.join("decoder.py"))]);
    assert!(err.contains("is a file, not a folder"), "{err}");
    let err = sb.fails(&["source", "add", s(&pkg)]);
    assert!(err.contains("overlaps the source"), "{err}");
}
