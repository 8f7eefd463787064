//! The scanner on a hostile tree, built in a tempdir: binary files, an 11 MB
//! file, invalid UTF-8, symlink loops, an unreadable file, a FIFO, odd names,
//! ignored and default-excluded files.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::Path;
use std::sync::Arc;
use vibe_ingest::export::{self, Exporter, Format};
use vibe_ingest::scanner::{self, CountFile, ScanOptions, ScannedFile, SkipReason, SourceStats};

const PY: &str =
    "import os\n\n\ndef hello(name):\n    \"\"\"Say hi.\"\"\"\n    return name\n\n\nclass Greeter:\n    pass\n";
const RS: &str = "use std::io;\n\n/// Adds two numbers.\npub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub struct Point {\n    x: i32,\n}\n";
const BIG: usize = 11 * 1024 * 1024;

struct Fixture {
    dir: tempfile::TempDir,
    /// True if the chmod-000 file can still be read (we run as root).
    secret_readable: bool,
    /// True if a FIFO could be made.
    fifo: bool,
}

fn write(root: &Path, rel: &str, data: impl AsRef<[u8]>) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, data).unwrap();
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "main.py", PY);
    write(root, "src/lib.rs", RS);
    write(root, "README.md", "# Walk fixture\n\nA tree that tries to break the scanner.\n");
    write(root, "LICENSE", MIT);
    write(root, "notes.txt", "plain text\nwithout a language\n");
    // Hidden files are scanned (only the default exclusions are skipped).
    write(root, "sub/.hidden.py", PY);
    // Binary by extension (PNG header + NULs) and by content (NUL, no known extension).
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend_from_slice(&[0u8; 64]);
    write(root, "image.png", &png);
    write(root, "blob.dat", b"abc\0def\n");
    // Over the AST size limit.
    write(root, "big.txt", "0123456789abcde\n".repeat(BIG / 16));
    // Invalid UTF-8 without NUL.
    write(root, "bad.py", b"# caf\xe9 cr\xe8me br\xfbl\xe9e, d\xe9j\xe0 vu\ndef f():\n    return 1\n");
    // Odd names.
    write(root, "with space.py", PY);
    write(root, "файл 代码.py", PY);
    write(root, "new\nline.py", PY);
    // Ignored by .gitignore (outside a git repo) and .ignore.
    write(root, ".gitignore", "ignored.py\n/generated/\n");
    write(root, "ignored.py", PY);
    write(root, "generated/out.rs", RS);
    write(root, ".ignore", "dotignored.rs\n");
    write(root, "dotignored.rs", RS);
    // Excluded by default.
    write(root, "node_modules/x.js", "module.exports = 1;\n");
    write(root, "target/debug/build.rs", RS);
    write(root, "deep/__pycache__/m.pyc", b"\0\0");
    write(root, ".git/config", "[core]\n");
    write(root, ".idea/workspace.xml", "<x/>\n");
    write(root, ".venv/lib/site.py", PY);
    write(root, ".venv/pyvenv.cfg", "home = /usr/bin\n");
    write(root, "tools/env/bin/activate.py", PY);
    write(root, "tools/env/pyvenv.cfg", "home = /usr/bin\n");
    // Named like a virtual environment but source code (CPython's Lib/venv package).
    write(root, "Lib/venv/__init__.py", PY);
    write(root, "server.log", "log line\n");
    write(root, "heap.hprof", b"\0");
    write(root, ".DS_Store", b"\0\0");
    // Symlink loops: `loop -> .` and two directories linking to each other.
    symlink(".", root.join("loop")).unwrap();
    fs::create_dir_all(root.join("d1")).unwrap();
    fs::create_dir_all(root.join("d2")).unwrap();
    symlink("../d2", root.join("d1/to_d2")).unwrap();
    symlink("../d1", root.join("d2/to_d1")).unwrap();
    symlink("missing-target", root.join("dangling")).unwrap();
    // Unreadable file. As root chmod 000 does not stop reads; detect that.
    write(root, "secret.py", PY);
    fs::set_permissions(root.join("secret.py"), fs::Permissions::from_mode(0o000)).unwrap();
    let secret_readable = fs::File::open(root.join("secret.py")).is_ok();
    // A FIFO: opening it for reading would block forever if the scanner tried.
    let fifo = std::process::Command::new("mkfifo").arg(root.join("pipe")).status().is_ok_and(|s| s.success());
    Fixture { dir, secret_readable, fifo }
}

fn scan_all(root: &Path, opts: &ScanOptions) -> (HashMap<String, ScannedFile>, scanner::ScanReport) {
    let mut files = HashMap::new();
    let report = scanner::scan(root, opts, |f| {
        assert!(files.insert(f.rel_path.clone(), f).is_none(), "a file was reported twice");
    })
    .expect("scan");
    (files, report)
}

#[test]
fn hostile_tree_is_scanned_completely() {
    let fx = fixture();
    let (files, report) = scan_all(fx.dir.path(), &ScanOptions::default());
    let get =
        |p: &str| files.get(p).unwrap_or_else(|| panic!("{p} missing; have {:?}", files.keys().collect::<Vec<_>>()));

    // Ignored and excluded files never appear.
    for gone in [
        "ignored.py",
        "generated/out.rs",
        "dotignored.rs",
        "node_modules/x.js",
        "target/debug/build.rs",
        "deep/__pycache__/m.pyc",
        ".git/config",
        ".idea/workspace.xml",
        ".venv/lib/site.py",
        "tools/env/bin/activate.py",
        "server.log",
        "heap.hprof",
        ".DS_Store",
    ] {
        assert!(!files.contains_key(gone), "{gone} should be skipped");
    }
    assert!(files.keys().all(|k| !k.starts_with("loop/")), "symlink followed");

    // Every directory a rule dropped is in the report, with a count.
    let venv = scanner::walk::VENV_RULE.to_string();
    let dropped: Vec<(&str, u64)> = report.excluded_dirs.iter().map(|(r, n)| (r.as_str(), *n)).collect();
    assert_eq!(
        dropped,
        [("target", 1), ("node_modules", 1), ("__pycache__", 1), (".git", 1), (".idea", 1), (venv.as_str(), 2)]
    );
    assert!(report.summary().contains("excluded dirs 7 (target: 1, node_modules: 1"), "{}", report.summary());

    // Normal and oddly named files are parsed (a `venv` without pyvenv.cfg is source).
    for p in [
        "main.py",
        "src/lib.rs",
        "sub/.hidden.py",
        "with space.py",
        "файл 代码.py",
        "new\nline.py",
        "Lib/venv/__init__.py",
    ] {
        let f = get(p);
        assert_eq!(f.skipped, None, "{p}");
        assert!(!f.binary);
        assert_eq!(f.hash.len(), 64);
        let ast = f.ast.as_ref().unwrap_or_else(|| panic!("{p} has no AST"));
        assert!(ast.object_count() > 0, "{p}: empty AST {ast:?}");
        assert!(f.content.is_none(), "content kept without keep_content");
    }
    assert_eq!(get("main.py").language, Some("Python"));
    assert_eq!(get("main.py").lines, 10);
    assert_eq!(get("src/lib.rs").language, Some("Rust"));
    let py = get("main.py").ast.as_ref().unwrap();
    assert!(py.functions.iter().any(|f| f.signature.contains("hello")), "{py:?}");
    assert!(py.classes.iter().any(|c| c.signature.contains("Greeter")), "{py:?}");

    // Text without a language: metadata only.
    let notes = get("notes.txt");
    assert_eq!((notes.language, notes.lines, notes.skipped, notes.ast.is_none()), (None, 2, None, true));

    // Binary: metadata and hash, no AST, no content.
    for p in ["image.png", "blob.dat"] {
        let f = get(p);
        assert!(f.binary, "{p}");
        assert_eq!(f.skipped, Some(SkipReason::Binary));
        assert_eq!(f.hash.len(), 64);
        assert!(f.ast.is_none() && f.content.is_none() && f.language.is_none());
        assert_eq!(f.lines, 0);
    }
    assert_eq!(get("image.png").size, 72);

    let big = get("big.txt");
    assert_eq!(big.skipped, Some(SkipReason::TooLarge));
    assert_eq!(big.size, (BIG / 16 * 16) as u64);
    assert_eq!(big.lines, (BIG / 16) as u64);
    assert_eq!(big.hash, blake3::hash(&fs::read(fx.dir.path().join("big.txt")).unwrap()).to_hex().to_string());
    assert!(big.ast.is_none());

    // Not UTF-8: read from the legacy encoding it is detected in (issue 58).
    let bad = get("bad.py");
    assert_eq!((bad.skipped, bad.encoding), (None, Some("windows-1252")));
    assert_eq!((bad.binary, bad.language, bad.lines), (false, Some("Python"), 3));
    assert!(bad.ast.is_some(), "{bad:?}");
    assert_eq!(bad.hash.len(), 64);

    for p in ["loop", "d1/to_d2", "d2/to_d1", "dangling"] {
        assert_eq!(get(p).skipped, Some(SkipReason::Symlink), "{p}");
    }
    if fx.fifo {
        assert_eq!(get("pipe").skipped, Some(SkipReason::Special));
    }

    let secret = get("secret.py");
    if fx.secret_readable {
        // Running as root: chmod 000 does not make a file unreadable.
        assert_eq!(secret.skipped, None);
        assert!(secret.ast.is_some());
    } else {
        assert_eq!(secret.skipped, Some(SkipReason::Unreadable));
        assert!(report.errors.iter().any(|(p, _)| p == "secret.py"), "{:?}", report.errors);
    }

    // Every file is counted once, skipped ones under their reason.
    let mut by_reason: BTreeMap<SkipReason, u64> = BTreeMap::new();
    for f in files.values() {
        if let Some(r) = f.skipped {
            *by_reason.entry(r).or_default() += 1;
        }
    }
    assert_eq!(report.skipped, by_reason);
    assert_eq!(report.files_seen, files.len() as u64);
    assert_eq!(report.files_seen, report.parsed + report.text + report.unchanged + report.skipped_total());
    assert_eq!(report.parsed, files.values().filter(|f| f.ast.is_some()).count() as u64);
    assert_eq!(report.unchanged, 0);
    assert_eq!(report.skipped[&SkipReason::Symlink], 4);
    assert_eq!(report.skipped[&SkipReason::Binary], 2);
    assert_eq!(report.skipped[&SkipReason::TooLarge], 1);
    assert!(!report.skipped.contains_key(&SkipReason::InvalidUtf8), "decoded, not skipped");
    assert_eq!(report.decoded.get("windows-1252"), Some(&1));
    if fx.secret_readable {
        assert!(report.errors.is_empty(), "{:?}", report.errors);
    }
    let summary = report.summary();
    assert!(
        summary.starts_with(&format!("Scanned {} files: parsed {}", report.files_seen, report.parsed)),
        "{summary}"
    );
    assert!(summary.contains("binary: 2") && summary.contains("too_large: 1"), "{summary}");

    // Statistics add up.
    let mut stats = SourceStats::default();
    files.values().for_each(|f| stats.add(f));
    stats.finish();
    let counted: Vec<_> = files.values().filter(|f| SourceStats::counts(f)).collect();
    assert_eq!(stats.files, counted.len() as u64);
    assert_eq!(stats.text_files + stats.binary_files, stats.files);
    assert_eq!(stats.binary_files, 2);
    assert_eq!(stats.languages.iter().map(|l| l.files).sum::<u64>(), stats.files);
    assert_eq!(stats.languages.iter().map(|l| l.lines).sum::<u64>(), stats.lines);
    assert_eq!(stats.languages.iter().map(|l| l.size).sum::<u64>(), stats.total_size);
    assert_eq!(stats.languages.iter().map(|l| l.ast_objects).sum::<u64>(), stats.ast_objects);
    assert_eq!(stats.total_size, counted.iter().map(|f| f.size).sum::<u64>());
    assert!(stats.languages.windows(2).all(|w| w[0].lines >= w[1].lines));
    assert_eq!(stats.languages[0].language, "Other"); // big.txt dominates
    assert!(stats.languages.iter().any(|l| l.language == "Python" && l.ast_objects > 0));
}

#[test]
fn content_and_unchanged_files() {
    let fx = fixture();
    let opts = ScanOptions {
        keep_content: true,
        skip: Some(Arc::new(|rel: &str, version: &str| {
            // `hash@mtime` (ScannedFile::version): the same content, whatever its mtime.
            rel == "main.py" && version.split('@').next() == Some(blake3::hash(PY.as_bytes()).to_hex().as_str())
        })),
        threads: 1,
        ..Default::default()
    };
    let (files, report) = scan_all(fx.dir.path(), &opts);
    assert_eq!(report.unchanged, 1);
    let main = &files["main.py"];
    assert_eq!(main.skipped, Some(SkipReason::Unchanged));
    assert!(main.ast.is_none() && main.content.is_none());
    assert_eq!(files["src/lib.rs"].content.as_deref(), Some(RS));
    assert!(files["image.png"].content.is_none());
    assert!(files["big.txt"].content.is_none());
    assert_eq!(
        files["bad.py"].content.as_deref(),
        Some("# café crème brûlée, déjà vu\ndef f():\n    return 1\n"),
        "decoded"
    );
}

#[test]
fn a_failing_consumer_stops_the_scan() {
    let fx = fixture();
    let mut n = 0;
    let err = scanner::try_scan(fx.dir.path(), &ScanOptions::default(), |_| {
        n += 1;
        anyhow::ensure!(n < 3, "disk full");
        Ok(())
    })
    .unwrap_err();
    assert!(matches!(err, scanner::ScanError::Consumer { .. }));
    // The consumer's error is the source, printed by the chain.
    assert!(!err.to_string().contains("disk full"), "{err}");
    assert!(vibe_common::error_chain::chain(&err).ends_with("scan stopped by its consumer: disk full"), "{err}");
    assert_eq!(n, 3);
}

#[test]
fn missing_root_is_an_error_with_its_path() {
    let err = scanner::scan(Path::new("/nonexistent/vibe"), &ScanOptions::default(), |_| {}).unwrap_err();
    assert_eq!(err.path(), "/nonexistent/vibe");
}

#[test]
fn source_info_and_export() {
    let fx = fixture();
    let root = fx.dir.path();
    let info = scanner::SourceInfo::load(Some("walk"), root).unwrap();
    assert_eq!(info.name, "walk");
    assert_eq!(info.readme.as_ref().unwrap().path, "README.md");
    let lic = info.license.as_ref().unwrap();
    assert_eq!((lic.path.as_str(), lic.spdx_id.as_deref()), ("LICENSE", Some("MIT")));

    let mut ex = Exporter::with_generated_at(Vec::new(), Format::Json, "now").unwrap();
    let done = export::export_source(&mut ex, Some("walk"), root, &ScanOptions::default(), |_| None).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&ex.finish().unwrap()).unwrap();
    let src = &doc["sources"][0];
    assert_eq!(src["name"], "walk");
    assert_eq!(src["license"]["spdx_id"], "MIT");
    let files = src["files"].as_array().unwrap();
    assert_eq!(files.len() as u64, done.report.files_seen);
    assert_eq!(src["stats"]["files"], done.stats.files);
    let main = files.iter().find(|f| f["path"] == "main.py").unwrap();
    assert_eq!(main["language"], "Python");
    assert!(main["ast"]["functions"].is_array());
    let png = files.iter().find(|f| f["path"] == "image.png").unwrap();
    assert_eq!((png["binary"].as_bool(), png.get("ast")), (Some(true), None));
}

#[test]
fn run_scan_ast_writes_every_format() {
    let fx = fixture();
    let out = tempfile::tempdir().unwrap();
    let sources = vec![("walk".to_string(), fx.dir.path().to_path_buf())];
    for format in [Format::Json, Format::Json5, Format::Toon, Format::Xml] {
        let path = out.path().join("nested").join(format!("ast.{}", format.extension()));
        let (written, report) = export::run_scan_ast(&sources, format, Some(&path), None).unwrap();
        assert_eq!(written, path);
        assert!(report.parsed > 0);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains("main.py"), "{format}");
        assert!(!out.path().join("nested").join(format!("ast.{}.partial", format.extension())).exists());
        match format {
            Format::Json => drop(serde_json::from_str::<serde_json::Value>(&text).unwrap()),
            Format::Json5 => drop(json5::from_str::<serde_json::Value>(&text).unwrap()),
            Format::Toon => drop(toon_format::decode_default::<serde_json::Value>(&text).unwrap()),
            Format::Xml => assert!(text.contains("<vibe_analyzer>") && text.trim_end().ends_with("</vibe_analyzer>")),
        }
    }
}

/// The MIT license of the bundled sample project.
const MIT: &str = include_str!("../../../tests/fixtures/samples/LICENSE");
