//! The plan's matches are the cursor's: on inputs generated from every
//! language's fixtures, on shapes where tree-sitter's matching has quirks,
//! and on real code.

use std::path::{Path, PathBuf};

use tree_sitter::Node;

use super::{for_each_match, Plan};
use crate::extract::compiled::{compiled, parse};
use crate::extract::engine::extract_with;
use crate::extract::grammars::{by_id, for_path, refine, Extractor, Language, LANGUAGES};

/// One match: its pattern and its captures (capture index, node id), sorted.
type Match = (usize, Vec<(u32, usize)>);

/// Every match of the language's query in `source`, with its plan and with
/// the cursor over the whole tree (on one tree: captures are compared by
/// node), each in one order.
fn both(lang: &'static Language, source: &str) -> (Vec<Match>, Vec<Match>) {
    let compiled = compiled(lang).unwrap();
    let tree = parse(lang, source).unwrap();
    let run = |plan: Option<&Plan>| {
        let mut found = Vec::new();
        for_each_match(&compiled.query, plan, tree.root_node(), source.as_bytes(), &mut |pattern, caps| {
            let mut caps: Vec<(u32, usize)> = caps.iter().map(|(i, n): &(u32, Node)| (*i, n.id())).collect();
            caps.sort_unstable();
            found.push((pattern, caps));
        });
        found.sort_unstable();
        found
    };
    (run(compiled.plan.as_ref()), run(None))
}

/// A small deterministic generator (xorshift), so that a failure reproduces.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Inputs generated from one fixture: itself, prefixes cut anywhere (open
/// blocks, `ERROR` and missing nodes), lines removed, lines repeated
/// elsewhere, and its head spliced onto the tail of another fixture.
fn variants(text: &str, other: &str, rng: &mut Rng) -> Vec<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let cut =
        |s: &str, at: usize| -> usize { (0..=at.min(s.len())).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0) };
    let mut out = vec![text.to_string()];
    for _ in 0..8 {
        out.push(text[..cut(text, rng.below(text.len()))].to_string());
    }
    for _ in 0..8 {
        let (from, n) = (rng.below(lines.len()), 1 + rng.below(5));
        out.push(lines.iter().enumerate().filter(|(i, _)| *i < from || *i >= from + n).map(|(_, l)| *l).collect());
    }
    for _ in 0..4 {
        let (from, n, to) = (rng.below(lines.len()), 1 + rng.below(8), rng.below(lines.len()));
        let block: String = lines.iter().skip(from).take(n).copied().collect();
        let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        v.insert(to, block);
        out.push(v.concat());
    }
    for _ in 0..4 {
        let (a, b) = (cut(text, rng.below(text.len())), cut(other, rng.below(other.len())));
        out.push(format!("{}{}", &text[..a], &other[b..]));
    }
    out
}

/// The source fixtures of a language (`tests/parsers/fixtures/<id>/`) and
/// of the languages its query inherits (`; inherits: typescript`): its
/// grammar reads theirs too, and they exercise the inherited patterns (a
/// shared part, `ecmascript`, has no fixtures: its languages' exercise it).
fn fixtures(lang: &'static Language) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/parsers/fixtures");
    let inherited = lang.query.lines().filter_map(|l| l.trim().strip_prefix("; inherits:"));
    let languages = inherited.flat_map(|ids| ids.split(',').map(str::trim)).filter(|id| by_id(id).is_some());
    let ids = std::iter::once(lang.id).chain(languages);
    let mut paths: Vec<PathBuf> = Vec::new();
    for id in ids {
        let mut own: Vec<PathBuf> = std::fs::read_dir(root.join(id)).unwrap().flatten().map(|e| e.path()).collect();
        own.sort();
        paths.extend(own.into_iter().filter(|p| for_path(p).is_some_and(|l| l.id == id)));
    }
    paths.into_iter().map(|p| std::fs::read_to_string(p).unwrap()).collect()
}

/// For every language's query file: the plan finds exactly the matches the
/// cursor finds over the whole tree, on inputs generated from the
/// language's fixtures; and those inputs exercise at least 70 % of its
/// patterns (the share is printed per language).
#[test]
fn narrowed_runs_match_the_cursor_on_generated_inputs() {
    for lang in LANGUAGES.iter().filter(|l| l.extractor == Extractor::Queries) {
        let plan = compiled(lang).unwrap().plan.as_ref();
        let texts = fixtures(lang);
        assert!(!texts.is_empty(), "{}: no fixtures", lang.id);
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ lang.id.len() as u64);
        let (mut inputs, mut hit) = (0, std::collections::BTreeSet::new());
        for (i, text) in texts.iter().enumerate() {
            for input in variants(text, &texts[(i + 1) % texts.len()], &mut rng) {
                let (narrowed, full) = both(lang, &input);
                assert_eq!(narrowed, full, "{}: generated input:\n{input}", lang.id);
                hit.extend(full.iter().map(|(p, _)| *p));
                inputs += 1;
            }
        }
        let patterns = compiled(lang).unwrap().query.pattern_count();
        let direct = plan.map_or(0, Plan::direct_patterns);
        eprintln!("{}: {inputs} inputs, {} of {patterns} patterns matched, {direct} direct", lang.id, hit.len());
        // A pattern no fixture exercises is checked nowhere: add a fixture.
        assert!(hit.len() * 10 >= patterns * 7, "{}: only {} of {patterns} patterns exercised", lang.id, hit.len());
    }
}

#[test]
fn most_languages_run_the_query_only_at_pattern_roots() {
    let narrowed: Vec<&str> = LANGUAGES
        .iter()
        .filter(|l| l.extractor == Extractor::Queries)
        .filter(|l| compiled(l).unwrap().plan.is_some())
        .map(|l| l.id)
        .collect();
    eprintln!("narrowed: {narrowed:?}");
    assert!(narrowed.len() >= 8, "{narrowed:?}");
}

/// Shapes where tree-sitter's matching has quirks the direct matcher must
/// not contradict (each once differed on real code).
#[test]
fn narrowed_runs_match_full_runs_on_quirky_shapes() {
    let cases = [
        // A field spread over several children by a hidden rule.
        ("dart", "void f() {\n  var x = _i5.Future<dynamic>.value();\n}\n"),
        // A repeated anonymous child before an anchored one.
        ("swift", "enum E: Hashable {\n  case lt, eq, gt\n}\n"),
        // A "last child" inside a hidden rule (a parameter's default value).
        ("swift", "struct S {\n  func f(body: () -> Void = { }) {\n    g()\n  }\n}\n"),
        // A wildcard next to an ERROR node.
        ("kotlin", "@Suppress(\"X\") // c\npublic actual class Regex\n@PublishedApi\ninternal constructor(val p: Int) : S {\n}\n"),
        // A field repeated by the rule itself.
        ("python", "import os, sys\nfrom a import b, c\n"),
        // Several candidates for a capturing step followed by an anchored
        // one: tree-sitter tries each (a macro's `a(1)` and `c(3)`).
        ("rust", "fn f() {\n    m!(x y a(1), b (2), c(3));\n}\n"),
        // One declaration matched as a variable and as a function (its
        // matches in either order): the function, named as it.
        ("c", "int x, f(void);\nint g(void), y;\n"),
    ];
    for (id, src) in cases {
        let lang = by_id(id).unwrap();
        let (narrowed, full) = both(lang, src);
        assert_eq!(narrowed, full, "{src}");
        assert_eq!(extract_with(lang, src, true).unwrap(), extract_with(lang, src, false).unwrap(), "{src}");
    }
    let rust = by_id("rust").unwrap();
    let ast = extract_with(rust, cases[5].1, true).unwrap();
    let calls: Vec<&str> = ast
        .references
        .iter()
        .filter(|r| r.kind == vibe_common::document::kinds::ReferenceKind::Call)
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(calls, ["m", "a", "c"], "{:?}", ast.references);
    let c = extract_with(by_id("c").unwrap(), cases[6].1, true).unwrap();
    let functions: Vec<&str> = c.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(functions, ["f", "g"], "{:?}", c.functions);
}

/// The narrowed run gives the AST of the cursor over the whole tree on this
/// repository's sources and fixtures. `VIBE_EQUIVALENCE_DIRS`
/// (`:`-separated) adds trees, such as the benchmark corpora.
#[test]
fn narrowed_runs_match_full_runs_on_real_code() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let extra = std::env::var("VIBE_EQUIVALENCE_DIRS").unwrap_or_default();
    let (mut checked, mut differ) = (0, None);
    let roots = [repo.join("ingest"), repo.join("gateway"), repo.join("tests")];
    for root in roots.into_iter().chain(extra.split(':').filter(|d| !d.is_empty()).map(Into::into)) {
        for entry in ignore::WalkBuilder::new(&root).build().flatten() {
            let path = entry.path();
            let (Some(lang), Ok(text)) = (for_path(path), std::fs::read_to_string(path)) else { continue };
            let lang = refine(lang, path, &text);
            if lang.extractor != Extractor::Queries {
                continue;
            }
            let narrowed = match extract_with(lang, &text, true) {
                // tests/parsers/runaway: no tree to compare.
                Err(crate::extract::ExtractError::ParseTimeout { .. }) => continue,
                other => other.unwrap(),
            };
            let full = extract_with(lang, &text, false).unwrap();
            if narrowed != full {
                eprintln!("differs: {}", path.display());
                differ.get_or_insert((path.to_path_buf(), narrowed, full));
            }
            checked += 1;
        }
    }
    eprintln!("{checked} files checked");
    if let Some((path, narrowed, full)) = differ {
        assert_eq!(narrowed, full, "{}", path.display());
    }
    assert!(checked > 50, "only {checked} files checked");
}
