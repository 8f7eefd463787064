//! Argument keys read by meaning: the words of a key (`symbolName`,
//! `file_uri`, `maxResults`), the shape of the arguments (a file, a project, a
//! kind) as a hint for the tool name.

use super::raw_args::{ArgValue, RawArgs};

use super::spelling::normalize_name;
use super::values::{line_of, text_of};

/// The canonical argument names (and `ignore_case`, the inverse of `case_sensitive`).
pub(super) const ROLES: &[&str] = &[
    "query",
    "target",
    "path",
    "limit",
    "offset",
    "start_line",
    "end_line",
    "regex",
    "case_sensitive",
    "ignore_case",
    "language",
    "kind",
    "direction",
    "lines",
    "head",
    "page",
    "flags",
    "line_count",
    "depth",
    "start_char",
    "context",
    "symbols",
];

/// Argument-name aliases: `(alias, canonical)`, compared after the key is
/// normalized like a tool name. An explicit canonical argument wins over an
/// alias; earlier aliases win over later ones, and both over key words.
pub const ARG_ALIASES: &[(&str, &str)] = &[
    ("skip", "offset"),
    ("context_lines", "context"),
    ("map", "symbols"),
    ("ranked", "symbols"),
    ("c", "context"),
    ("from", "offset"),
    ("q", "query"),
    ("keyword", "query"),
    ("keywords", "query"),
    ("text", "query"),
    ("search", "query"),
    ("name", "query"),
    ("search_query", "query"),
    ("query_text", "query"),
    ("search_term", "query"),
    ("term", "query"),
    ("terms", "query"),
    ("question", "query"),
    ("pattern", "query"),
    ("symbol", "query"),
    ("input", "query"),
    ("project", "target"),
    ("repo", "target"),
    ("source", "target"),
    ("project_name", "target"),
    ("repository", "target"),
    ("project_path", "target"),
    ("project_root", "target"),
    ("file", "path"),
    ("filepath", "path"),
    ("file_path", "path"),
    ("filename", "path"),
    ("file_name", "path"),
    ("relative_path", "path"),
    ("max_results", "limit"),
    ("num_results", "limit"),
    ("top_k", "limit"),
    ("top_n", "limit"),
    ("count", "limit"),
    ("size", "limit"),
    ("n", "limit"),
    ("k", "limit"),
    ("max", "limit"),
    ("start", "start_line"),
    ("from_line", "start_line"),
    ("line_start", "start_line"),
    ("end", "end_line"),
    ("to_line", "end_line"),
    ("line_end", "end_line"),
    ("max_depth", "depth"),
    ("levels", "depth"),
    ("start_column", "start_char"),
    ("column", "start_char"),
    ("from_char", "start_char"),
];

/// Words of argument keys, by the argument they fill, in the order they are
/// tried (`project_file` is a path, `project_path` a target).
const KEY_WORDS: &[(&str, &[&str])] = &[
    ("file", &["file", "filename", "filepath", "uri", "fullpath", "document"]),
    (
        "target",
        &["project", "repo", "repository", "codebase", "workspace", "root", "dir", "directory", "folder", "scope"],
    ),
    ("path", &["path", "location", "glob", "include", "wildcard", "mask"]),
    (
        "limit",
        &["limit", "count", "max", "maximum", "top", "k", "n", "num", "number", "size", "result", "hit", "amount"],
    ),
    ("offset", &["offset", "skip", "cursor"]),
    ("depth", &["depth"]),
    ("language", &["language", "lang", "filetype"]),
    ("kind", &["kind"]),
    ("direction", &["direction"]),
    (
        "query",
        &[
            "query",
            "q",
            "search",
            "symbol",
            "name",
            "text",
            "pattern",
            "question",
            "keyword",
            "term",
            "string",
            "identifier",
            "ident",
            "class",
            "function",
            "func",
            "fn",
            "method",
            "def",
            "variable",
            "var",
            "const",
            "constant",
            "module",
            "package",
            "import",
            "topic",
            "subject",
            "prompt",
            "expression",
            "expr",
            "word",
            "phrase",
            "needle",
            "lookup",
            "find",
            "match",
            "entity",
            "type",
            "label",
            "title",
            "ask",
            "regex",
            "regexp",
            "content",
            "string",
        ],
    ),
];

/// The argument a key names by its words (`symbolName` → `query`, `file_uri`
/// → `path`, `repoName` → `target`, `maxResults` → `limit`), if any.
pub fn key_role(normalized_key: &str) -> Option<&'static str> {
    let words: Vec<&str> = normalized_key.split('_').filter(|w| !w.is_empty()).collect();
    let has =
        |set: &[&str]| words.iter().any(|w| set.contains(w) || w.strip_suffix('s').is_some_and(|s| set.contains(&s)));
    if has(&["line", "lineno", "row"]) {
        if has(&["num", "number", "count", "n", "total"]) {
            return Some("line_count");
        }
        if has(&["start", "begin", "first", "from", "min", "lo", "low"]) {
            return Some("start_line");
        }
        if has(&["end", "last", "to", "stop", "until", "max", "hi", "high"]) {
            return Some("end_line");
        }
        if has(&["range", "span"]) || words.len() == 1 {
            return Some("lines");
        }
    }
    if has(&["range", "span"]) {
        return Some("lines");
    }
    // Serena's `name_path` is a symbol's name.
    if has(&["name"]) && has(&["path"]) && !has(&["file", "dir", "directory", "folder", "project", "repo"]) {
        return Some("query");
    }
    if has(&["per"]) && has(&["page"]) {
        return Some("limit");
    }
    if has(&["page"]) && !has(&["size", "limit", "count"]) {
        return Some("page");
    }
    if words == ["i"] || words == ["flags"] || words == ["flag"] {
        return Some("flags");
    }
    if has(&["case"]) || has(&["insensitive", "sensitive", "nocase"]) {
        return Some(if has(&["ignore", "insensitive", "nocase"]) { "ignore_case" } else { "case_sensitive" });
    }
    if has(&["regex", "regexp"]) && has(&["is", "use", "as", "enable", "enabled", "mode"]) {
        return Some("regex");
    }
    if has(&["regex", "regexp"]) && words.len() == 1 {
        return Some("regex");
    }
    KEY_WORDS.iter().find(|(_, set)| has(set)).map(|(role, _)| if *role == "file" { "path" } else { *role })
}

/// What arguments point at, as a hint for a tool name that says too little.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// A file: a `path`-like key or a `file://` URI.
    File,
    /// A project and nothing else (no query, no file); also a directory path.
    Project,
    /// A `kind`/`type` argument naming what is looked for (`class`, `method`).
    Kind(String),
    Other,
}

/// How a key names its role: by the role's own name, or by the `n`-th
/// alias of [`ARG_ALIASES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Naming {
    Canonical,
    Alias(usize),
}

/// The role a normalized key names by its canonical name or an alias (not
/// by its words: [`key_role`]).
pub(super) fn named_role(key: &str) -> Option<(&'static str, Naming)> {
    let canonical = ROLES.iter().find(|r| **r == key).map(|r| (*r, Naming::Canonical));
    canonical.or_else(|| {
        ARG_ALIASES.iter().position(|(alias, _)| *alias == key).map(|n| (ARG_ALIASES[n].1, Naming::Alias(n)))
    })
}

/// The role a normalized key names: by name, by alias, or by its words.
pub(super) fn role_named_by(key: &str) -> Option<&'static str> {
    named_role(key).map(|(role, _)| role).or_else(|| key_role(key))
}

/// See [`Shape`].
pub fn shape(raw: &RawArgs) -> Shape {
    let mut kind = None;
    let mut directory = false;
    let roles: Vec<Option<&str>> = raw
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| {
            let text = v.as_str().map(str::trim).unwrap_or_default();
            if text.to_ascii_lowercase().starts_with("file://") {
                return Some("path");
            }
            let key = normalize_name(k);
            let words: Vec<&str> = key.split('_').collect();
            if words.iter().any(|w| matches!(*w, "kind" | "type")) && !text.is_empty() && text.len() < 20 {
                kind = Some(normalize_name(text));
            }
            let role = role_named_by(&key);
            // An absolute path whose last part has no extension names a directory.
            if role == Some("path")
                && text.starts_with('/')
                && !text.rsplit('/').next().unwrap_or_default().contains('.')
            {
                directory = true;
                return Some("target");
            }
            role
        })
        .collect();
    if roles.contains(&Some("regex")) {
        // A regex (flag or pattern) is a text search, whatever else is sent.
        Shape::Kind("regex".into())
    } else if roles.contains(&Some("path")) {
        Shape::File
    } else if roles.contains(&Some("target"))
        && (directory || roles.iter().all(|r| matches!(r, Some("target" | "limit"))))
    {
        Shape::Project
    } else if let Some(kind) = kind {
        Shape::Kind(kind)
    } else {
        Shape::Other
    }
}

/// A line range sent as one value: `"44-52"`, `"44:52"`, `"44..52"`, `[44, 52]`
/// or `{"start": 44, "end": 52}`.
pub(super) fn line_range_of(v: &ArgValue) -> (Option<u64>, Option<u64>) {
    match v {
        ArgValue::List(items) => (items.first().and_then(line_of), items.get(1).and_then(line_of)),
        ArgValue::Fields(o) => {
            let get = |keys: &[&str]| {
                o.iter().find(|(k, _)| keys.contains(&normalize_name(k).as_str())).and_then(|(_, v)| line_of(v))
            };
            (get(&["start", "from", "begin", "first", "start_line"]), get(&["end", "to", "stop", "last", "end_line"]))
        }
        ArgValue::Text(s) => {
            let s = s.trim().trim_start_matches(['L', 'l']);
            for sep in ["..", "-", ":", ",", "–"] {
                if let Some((a, b)) = s.split_once(sep) {
                    let b = b.trim().trim_start_matches(['L', 'l']);
                    return (line_of(&ArgValue::Text(a.trim().into())), line_of(&ArgValue::Text(b.into())));
                }
            }
            (line_of(v), None)
        }
        ArgValue::Number(_) => (line_of(v), line_of(v)),
        _ => (None, None),
    }
}

/// A reference kind as a model writes it (`call`, `calls`, `type`, `imports`, `reads`, `all`).
pub(super) fn is_reference_kind(v: &str) -> bool {
    let v = v.trim().to_lowercase();
    matches!(
        v.trim_end_matches('s'),
        "call" | "type" | "import" | "read" | "all" | "invocation" | "require" | "use" | "include"
    )
}

/// Regex syntax that is almost never meant literally: character classes
/// (`\w`, `\d`, `\s`, `\b`) and `.*` / `.+`.
pub(super) fn looks_like_regex(s: &str) -> bool {
    let alternation = s.contains('|') && !s.contains("||") && !s.contains(" | ");
    alternation || ["\\w", "\\d", "\\s", "\\b", ".*", ".+", "\\W", "\\S", "\\D"].iter().any(|m| s.contains(m))
}

/// A path value: a string, or an object holding one under a path-like key
/// (LSP's `{"textDocument": {"uri": "file:///…"}}`).
pub(super) fn nested_path(v: &ArgValue) -> String {
    match v {
        ArgValue::Fields(o) => o
            .iter()
            .find(|(k, v)| v.as_str().is_some() && matches!(key_role(&normalize_name(k)), Some("path")))
            .map(|(_, v)| text_of(v))
            .unwrap_or_default(),
        other => text_of(other),
    }
}

/// `file:///a/b%20c.py` → `/a/b c.py`; anything else as is.
pub(super) fn strip_file_uri(s: &str) -> String {
    let t = s.trim();
    let Some(rest) = t.get(..7).filter(|h| h.eq_ignore_ascii_case("file://")).map(|_| &t[7..]) else {
        return t.to_string();
    };
    // `file://localhost/a` names `/a`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    percent_encoding::percent_decode_str(rest).decode_utf8_lossy().into_owned()
}
