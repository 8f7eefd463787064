//! The streamed formats must equal encoding the whole document at once.

use super::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use vibe_common::document::ast::{AstElement, LineRange};

fn sample() -> (SourceInfo, Vec<ScannedFile>, SourceStats) {
    let info = SourceInfo {
        name: "demo".into(),
        root: PathBuf::from("/src/demo"),
        readme: Some(scanner::Readme { path: "README.md".into(), content: "# Demo".into(), truncated: false }),
        license: Some(scanner::LicenseInfo { path: "LICENSE".into(), spdx_id: Some("MIT".into()), score: 0.5 }),
    };
    let ast = AstData {
        imports: vec!["use std::io;".into()],
        functions: vec![AstElement {
            name: "main".into(),
            kind: vibe_common::document::kinds::ElementKind::Function,
            signature: "fn main()".into(),
            comments: vec!["Entry <point> & \"more\"".into()],
            owner: None,
            line: Some(LineRange { start: 1, end: 3 }),
            supertypes: Vec::new(),
        }],
        frontmatter: Some(BTreeMap::from([
            ("title".to_string(), "T".to_string()),
            ("odd key".to_string(), "v".to_string()),
        ])),
        ..Default::default()
    }
    .with_tags();
    let files = vec![
        ScannedFile {
            rel_path: "src/main.rs".into(),
            language: Some("Rust"),
            lines: 3,
            size: 40,
            hash: "ab".into(),
            ast: Some(ast),
            ..Default::default()
        },
        ScannedFile {
            rel_path: "img/файл 1.png".into(),
            size: 10,
            hash: "cd".into(),
            binary: true,
            skipped: Some(SkipReason::Binary),
            ..Default::default()
        },
    ];
    let mut stats = SourceStats::default();
    files.iter().for_each(|f| stats.add(f));
    stats.finish();
    (info, files, stats)
}

fn export(format: Format, sources: usize) -> String {
    let (info, files, stats) = sample();
    let mut ex = Exporter::with_generated_at(Vec::new(), format, "2025-01-02T03:04:05+00:00").unwrap();
    for _ in 0..sources {
        ex.begin_source(&info).unwrap();
        let enrichment = FileEnrichment { description: Some("The entry point".into()), tags: vec!["cli".into()] };
        ex.file(&files[0], Some(&enrichment)).unwrap();
        ex.file(&files[1], None).unwrap();
        ex.end_source(&stats).unwrap();
    }
    String::from_utf8(ex.finish().unwrap()).unwrap()
}

fn expected(sources: usize) -> Value {
    let (info, files, stats) = sample();
    let enrichment = FileEnrichment { description: Some("The entry point".into()), tags: vec!["cli".into()] };
    let mut src = serde_json::to_value(SourceHeader::new(&info, None)).unwrap();
    src["files"] = json!([FileRecord::new(&files[0], Some(&enrichment)), FileRecord::new(&files[1], None)]);
    src["stats"] = serde_json::to_value(&stats).unwrap();
    json!({ "version": 1, "generated_at": "2025-01-02T03:04:05+00:00", "sources": vec![src; sources] })
}

#[test]
fn json_streams_the_whole_document() {
    for n in [0, 1, 2] {
        let out = export(Format::Json, n);
        let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
        assert_eq!(v, expected(n));
        // serde_json's pretty layout, but each element of the AST's lists
        // on one line.
        let (_, files, _) = sample();
        let main_fn = &files[0].ast.as_ref().unwrap().functions[0];
        let pretty = indent_tail(&serde_json::to_string_pretty(main_fn).unwrap(), 14);
        let one_line = r#"{"name": "main", "kind": "function", "signature": "fn main()", "comments": ["Entry <point> & \"more\""], "line": {"start": 1, "end": 3}}"#;
        let layout = (serde_json::to_string_pretty(&expected(n)).unwrap() + "\n").replace(&pretty, one_line);
        assert_eq!(out.matches(one_line).count(), n, "{out}");
        assert_eq!(out, layout, "layout differs");
    }
}

#[test]
fn json5_has_unquoted_keys_and_parses_back() {
    for n in [0, 1, 2] {
        let out = export(Format::Json5, n);
        let v: Value = ::json5::from_str(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
        assert_eq!(v, expected(n));
    }
    let out = export(Format::Json5, 1);
    assert!(out.contains("\n  version: 1,"), "{out}");
    assert!(out.contains("generated_at:"));
}

#[test]
fn toon_equals_encoding_the_whole_document() {
    for n in [0, 1, 2] {
        let out = export(Format::Toon, n);
        let whole = toon_format::encode_default(&expected(n)).unwrap();
        let v: Value = toon_format::decode_default(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
        assert_eq!(v, expected(n), "{out}");
        assert_eq!(out.trim_end(), whole, "layout differs");
    }
}

#[test]
fn xml_equals_serializing_the_whole_document() {
    for n in [0, 1, 2] {
        let out = export(Format::Xml, n);
        let whole = quick_xml::se::to_string_with_root("vibe_analyzer", &xml::xml_safe(expected(n))).unwrap();
        let body = out.strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n").unwrap().replace('\n', "");
        assert_eq!(body, whole);
    }
    let out = export(Format::Xml, 1);
    assert!(out.contains("<entry key=\"odd key\">v</entry>"), "{out}");
    assert!(out.contains("&lt;point&gt; &amp;"), "{out}");
}

#[test]
fn xml_replaces_forbidden_characters() {
    let v = xml::xml_safe(json!({ "a": "x\u{0}y\u{1b}", "1bad": 2 }));
    assert_eq!(v["a"], "x\u{FFFD}y\u{FFFD}");
    let s = quick_xml::se::to_string_with_root("r", &v).unwrap();
    assert!(s.contains("<entry key=\"1bad\">2</entry>"), "{s}");
}

#[test]
fn exporter_rejects_misuse() {
    let mut ex = Exporter::new(Vec::new(), Format::Json).unwrap();
    assert!(ex.file(&ScannedFile::default(), None).is_err());
    let (info, _, stats) = sample();
    ex.begin_source(&info).unwrap();
    assert!(ex.begin_source(&info).is_err());
    ex.end_source(&stats).unwrap();
    ex.finish().unwrap();
}

#[test]
fn formats_parse_and_name_their_extension() {
    assert_eq!("JSON5".parse::<Format>().unwrap(), Format::Json5);
    assert!("yaml".parse::<Format>().is_err());
    let p = default_output_path("my src", Format::Toon);
    let name = p.file_name().unwrap().to_str().unwrap();
    assert!(name.starts_with("vibe-analyzer-ast-my_src-") && name.ends_with(".toon"), "{name}");
}

#[test]
fn an_error_says_its_cause_once() {
    let write = ExportError::Write(std::io::Error::other("disk on fire"));
    let at = ExportError::Io { path: "out.json".into(), source: std::io::Error::other("disk on fire") };
    for e in [write, at] {
        let line = vibe_common::error_chain::chain(&e);
        assert_eq!(line.matches("disk on fire").count(), 1, "{line}");
    }
}
