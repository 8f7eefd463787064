//! Parser tests: every language's query compiles with only known captures,
//! and every fixture under `tests/parsers/fixtures/<lang>/` extracts to its
//! expected JSON. Set `VIBE_BLESS=1` to (re)write the expected files, then
//! review `git diff` by hand before committing: the JSON is the contract.

use std::path::PathBuf;

use vibe_ingest::extract::{self, compile_query, LANGUAGES};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/parsers/fixtures")
}

#[test]
fn every_query_compiles_with_known_captures() {
    for lang in LANGUAGES {
        if let Err(e) = compile_query(lang) {
            panic!("{e}");
        }
    }
}

#[test]
fn every_language_has_a_fixture_and_matches_it() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for lang in LANGUAGES {
        let dir = fixtures().join(lang.id);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            failures.push(format!("{}: no fixture directory {}", lang.name, dir.display()));
            continue;
        };
        let mut sources: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x != "json"))
            .collect();
        sources.sort();
        if sources.is_empty() {
            failures.push(format!("{}: no fixture source in {}", lang.name, dir.display()));
        }
        for src in sources {
            let code = std::fs::read_to_string(&src).unwrap();
            let file_lang = extract::for_path(&src).unwrap_or_else(|| panic!("no language for {}", src.display()));
            let file_lang = extract::refine(file_lang, &src, &code);
            let ast = extract::extract(file_lang, &code).unwrap();
            let actual = serde_json::to_value(&ast).unwrap();
            let expected_path = src.with_extension("json");
            if std::env::var_os("VIBE_BLESS").is_some() {
                std::fs::write(&expected_path, serde_json::to_string_pretty(&actual).unwrap() + "\n").unwrap();
            }
            let expected: serde_json::Value = match std::fs::read_to_string(&expected_path) {
                Ok(s) => serde_json::from_str(&s).unwrap_or_else(|e| panic!("{}: {e}", expected_path.display())),
                Err(_) => {
                    failures.push(format!("{}: missing {}", lang.name, expected_path.display()));
                    continue;
                }
            };
            checked += 1;
            if actual != expected {
                failures.push(format!(
                    "{}: {} differs from {}\n--- actual ---\n{}",
                    lang.name,
                    src.display(),
                    expected_path.display(),
                    serde_json::to_string_pretty(&actual).unwrap()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} of the fixtures failed:\n{}", failures.len(), failures.join("\n\n"));
    assert!(checked >= LANGUAGES.len());
}
