//! `docs/architecture.md` names only what exists, and names every module.
//!
//! Every backticked path in the page (`ingest/src/extract/`, `registry.rs`,
//! `search-templates/*.mustache`) must exist. A path is read from the
//! repository root or, as the page writes them, relative to a directory named
//! earlier in the same section (`gateway/` then `registry.rs` is
//! `gateway/src/registry.rs`); `*` and `<lang>` stand for any name, and a
//! path with a space or starting with `<` (`<config dir>/identity.json`) is a
//! file at run time, not in the repository. `vibe_common::x` must be a module
//! of the common crate. A name said to be in a file (`` `KEY_WORDS` in
//! `keys.rs` ``, or in parentheses after it: `` `tool_error.rs` (`ToolError`) ``)
//! must occur in that file; after a directory, a name in parentheses is one
//! of its modules. Every module of the common crate and of the gateway, every
//! module directory of the ingest crate and every file of `extract/` must be
//! named somewhere on the page.

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap()
}

/// A backticked span: its text and the page's text after it.
struct Span<'a> {
    text: &'a str,
    after: &'a str,
}

fn spans(section: &str) -> Vec<Span<'_>> {
    let mut out = Vec::new();
    let mut rest = section;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else { break };
        let text = &rest[open + 1..open + 1 + len];
        rest = &rest[open + len + 2..];
        out.push(Span { text, after: rest });
    }
    out
}

const EXTENSIONS: &[&str] = &["rs", "tsv", "json", "mustache", "scm", "md", "toml", "sh", "py", "txt"];

/// Whether a span is a repository path (a file with a known extension, or a
/// directory written with a trailing `/`).
fn is_path(t: &str) -> bool {
    let chars_ok = t.chars().all(|c| c.is_ascii_alphanumeric() || "_-./*<>".contains(c));
    let ext_ok = t.rsplit_once('.').is_some_and(|(_, e)| EXTENSIONS.contains(&e));
    chars_ok && !t.starts_with('<') && !t.starts_with('.') && (ext_ok || t.ends_with('/'))
}

fn is_ident(t: &str) -> bool {
    t.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `*` matches any run of characters (`<x>` is read as `*`).
fn wildcard(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.starts_with(head)
                && (head.len()..=name.len()).any(|i| name.is_char_boundary(i) && wildcard(tail, &name[i..]))
        }
    }
}

/// The paths `rel` names under `base` (several when it has wildcards).
fn resolve(base: &Path, rel: &str) -> Vec<PathBuf> {
    let mut found = vec![base.to_path_buf()];
    for part in rel.split('/').filter(|p| !p.is_empty()) {
        let mut pattern = String::new();
        let mut in_angle = false;
        for c in part.chars() {
            match c {
                '<' => in_angle = true,
                '>' => {
                    in_angle = false;
                    pattern.push('*');
                }
                _ if in_angle => {}
                c => pattern.push(c),
            }
        }
        found = found
            .iter()
            .flat_map(|dir| std::fs::read_dir(dir).into_iter().flatten().flatten())
            .filter(|e| wildcard(&pattern, &e.file_name().to_string_lossy()))
            .map(|e| e.path())
            .collect();
    }
    found
}

/// What the page names: the paths it resolves to and the problems found.
#[derive(Default)]
struct Named {
    paths: Vec<PathBuf>,
    problems: Vec<String>,
}

impl Named {
    fn section(&mut self, root: &Path, heading: &str, text: &str) {
        let mut bases: Vec<PathBuf> = Vec::new();
        let spans = spans(text);
        for (i, span) in spans.iter().enumerate() {
            if let Some(module) = span.text.strip_prefix("vibe_common::") {
                let name = module.split("::").next().unwrap_or_default();
                let src = root.join("common/src");
                if !src.join(format!("{name}.rs")).is_file() && !src.join(name).is_dir() {
                    self.problems.push(format!("{heading}: `{}` is no module of common/src", span.text));
                }
                self.paths.extend([src.join(format!("{name}.rs")), src.join(name)]);
                continue;
            }
            if is_ident(span.text) && span.after.starts_with(" in `") {
                if let Some(file) = spans.get(i + 1).and_then(|next| self.find(root, &bases, next.text)) {
                    self.holds(heading, &file, span.text);
                }
                continue;
            }
            if !is_path(span.text) {
                continue;
            }
            let Some(found) = self.find(root, &bases, span.text) else {
                self.problems.push(format!("{heading}: `{}` names nothing in the repository", span.text));
                continue;
            };
            for name in parenthesized(span.after) {
                self.holds(heading, &found, name);
            }
            let dir = if found.is_dir() { found.clone() } else { found.parent().unwrap().to_path_buf() };
            bases.extend([dir.clone(), dir.join("src")]);
        }
    }

    /// The first path `rel` names: from the root, then from the section's
    /// directories, the latest first. Records every path a match names.
    fn find(&mut self, root: &Path, bases: &[PathBuf], rel: &str) -> Option<PathBuf> {
        let hits = std::iter::once(root)
            .chain(bases.iter().rev().map(PathBuf::as_path))
            .map(|b| resolve(b, rel))
            .find(|hits| !hits.is_empty())?;
        self.paths.extend(hits.iter().cloned());
        Some(hits[0].clone())
    }

    /// `name` is in `path`: text of the file, or a module of the directory.
    fn holds(&mut self, heading: &str, path: &Path, name: &str) {
        let ok = if path.is_dir() {
            path.join(format!("{name}.rs")).is_file() || path.join(name).is_dir()
        } else {
            std::fs::read_to_string(path).is_ok_and(|t| t.contains(name))
        };
        if !ok {
            self.problems.push(format!("{heading}: `{name}` is not in {}", path.display()));
        }
    }
}

/// The identifiers in backticks inside a parenthesis that opens `after`.
fn parenthesized(after: &str) -> Vec<&str> {
    let Some(inner) = after.strip_prefix(" (") else { return Vec::new() };
    let inner = &inner[..inner.find(')').unwrap_or(inner.len())];
    spans(inner).into_iter().map(|s| s.text).filter(|t| is_ident(t)).collect()
}

/// The modules the page must name.
fn modules(root: &Path) -> Vec<PathBuf> {
    let entries = |dir: &str| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(root.join(dir)).unwrap().flatten().map(|e| e.path()).collect();
        v.sort();
        v
    };
    let skip = |p: &PathBuf| ["lib.rs", "mod.rs", "main.rs"].iter().any(|n| p.ends_with(n));
    let mut all: Vec<PathBuf> = Vec::new();
    // The common crate's groups (`backend/`, `document/`, ...) by their
    // files; `config/` as a whole.
    for entry in entries("common/src").into_iter().filter(|p| !skip(p)) {
        match entry.is_dir() && !entry.ends_with("config") {
            true => all
                .extend(entries(entry.strip_prefix(root).unwrap().to_str().unwrap()).into_iter().filter(|p| !skip(p))),
            false => all.push(entry),
        }
    }
    all.extend(entries("gateway/src").into_iter().filter(|p| !skip(p)));
    all.extend(entries("ingest/src").into_iter().filter(|p| p.is_dir()));
    all.extend(entries("ingest/src/extract").into_iter().filter(|p| !skip(p)));
    all
}

fn check(root: &Path, page: &str) -> Vec<String> {
    let mut named = Named::default();
    let mut heading = "(top)";
    let mut start = 0;
    let mut sections = Vec::new();
    for (at, line) in page.match_indices('\n').map(|(i, _)| i + 1).map(|i| (i, &page[i..])) {
        if line.starts_with('#') {
            sections.push((heading, &page[start..at]));
            heading = line.lines().next().unwrap_or_default();
            start = at;
        }
    }
    sections.push((heading, &page[start..]));
    for (heading, text) in sections {
        named.section(root, heading, text);
    }
    for module in modules(root) {
        let named_here = named.paths.iter().any(|p| p == &module || p.starts_with(&module));
        if !named_here {
            named.problems.push(format!("{} is not named on the page", module.strip_prefix(root).unwrap().display()));
        }
    }
    named.problems
}

#[test]
fn architecture_names_what_exists_and_every_module() {
    let root = repo();
    let page = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let problems = check(&root, &page);
    assert!(problems.is_empty(), "docs/architecture.md:\n{}", problems.join("\n"));
}

/// The check itself catches a missing file, a name moved to another file
/// and a module the page leaves out.
#[test]
fn the_check_catches_what_drifted() {
    let root = repo();
    let page = "# A\n* `gateway/`: `registry.rs`, `gone.rs`; `KEY_WORDS` in `gateway/src/normalize/args.rs`;\n  \
                `normalize/` (`keys`, `nope`), `tool_error.rs` (`ToolError`, `NoSuchError`), `vibe_common::nothing`.\n\
                * `<config dir>/identity.json`, `ingest/queries/<lang>.scm`, `search-templates/*.mustache`.\n";
    let problems = check(&root, page);
    let has = |s: &str| problems.iter().any(|p| p.contains(s));
    assert!(has("`gone.rs` names nothing"), "{problems:?}");
    assert!(has("`KEY_WORDS` is not in"), "{problems:?}");
    assert!(has("`nope` is not in"), "{problems:?}");
    assert!(has("`NoSuchError` is not in"), "{problems:?}");
    assert!(has("`vibe_common::nothing` is no module"), "{problems:?}");
    assert!(!has("registry.rs") && !has("`keys`") && !has("ToolError"), "{problems:?}");
    assert!(!has("identity.json") && !has("queries") && !has("mustache"), "{problems:?}");
    assert!(has("common/src/backend/plain_http.rs is not named"), "{problems:?}");
    assert!(!has("gateway/src/registry.rs is not named"), "{problems:?}");
}
