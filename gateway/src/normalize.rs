//! Normalization of what a client sends, in one place: tool names and tool
//! arguments. Small models mangle both; everything recoverable is recovered
//! here, before dispatch, so the tools themselves see clean [`Args`].
//!
//! * [`resolve_tool`] maps a requested tool name to a canonical one
//!   (case, separators and the [`TOOL_ALIASES`] table).
//! * [`Args::from_json`] reads arguments leniently: argument-name aliases
//!   ([`ARG_ALIASES`]), numbers sent as strings, `"all"` limits, `null`s and
//!   unknown fields (ignored).

use serde::Serialize;
use serde_json::{Map, Value};

/// The canonical tool names, in the order they are listed.
pub const TOOL_NAMES: [&str; 12] = [
    "admin_sync",
    "get_file_content",
    "get_file_ast",
    "show_projects",
    "show_stats",
    "show_tree",
    "search_by_code_imports",
    "search_by_code_functions",
    "search_by_code_classes",
    "search_by_code_variables",
    "search_documentation",
    "search_knowledge",
];

/// Extra names accepted for a tool: `(alias, canonical)`. Aliases are
/// compared after [`canonical_form`] (lower case, `-`/space/`.` → `_`).
/// This is the one table to extend with more aliases.
pub const TOOL_ALIASES: &[(&str, &str)] = &[];

/// Argument-name aliases: `(alias, canonical)`, compared case-insensitively.
/// An explicit canonical argument wins over an alias.
pub const ARG_ALIASES: &[(&str, &str)] = &[
    ("q", "query"),
    ("keyword", "query"),
    ("keywords", "query"),
    ("text", "query"),
    ("search", "query"),
    ("name", "query"),
    ("project", "target"),
    ("repo", "target"),
    ("source", "target"),
    ("project_name", "target"),
    ("file", "path"),
    ("filepath", "path"),
    ("file_path", "path"),
    ("filename", "path"),
    ("start", "start_line"),
    ("end", "end_line"),
];

/// Default number of results.
pub const DEFAULT_LIMIT: u32 = 3;
/// Maximum number of results (also what `"all"` means).
pub const MAX_LIMIT: u32 = 10;
/// Queries are cut to this many characters.
pub const MAX_QUERY_CHARS: usize = 500;

/// Lower case, trimmed, with `-`, `.`, `/` and spaces turned into `_`.
pub fn canonical_form(name: &str) -> String {
    name.trim()
        .chars()
        .map(|c| match c {
            '-' | '.' | ' ' | '/' => '_',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// The canonical tool a requested name stands for, if any.
pub fn resolve_tool(requested: &str) -> Option<&'static str> {
    if let Some(name) = TOOL_NAMES.iter().find(|n| **n == requested) {
        return Some(name);
    }
    let form = canonical_form(requested);
    if let Some(name) = TOOL_NAMES.iter().find(|n| **n == form) {
        return Some(name);
    }
    TOOL_ALIASES
        .iter()
        .find(|(alias, _)| canonical_form(alias) == form)
        .and_then(|(_, canonical)| TOOL_NAMES.iter().find(|n| *n == canonical).copied())
}

/// Tool arguments after normalization. Every tool reads what it needs and
/// ignores the rest.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Args {
    /// Trimmed, at most [`MAX_QUERY_CHARS`] characters; empty when absent.
    pub query: String,
    /// Project name or path; `None` when absent, empty, `"all"` or `"*"`.
    pub target: Option<String>,
    /// Relative (or partial, or absolute) file path, `/`-separated, without a leading `./`.
    pub path: Option<String>,
    /// 1..=[`MAX_LIMIT`], default [`DEFAULT_LIMIT`].
    pub limit: u32,
    /// 1-based first line to return (get_file_content).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u64>,
    /// 1-based last line to return, inclusive (get_file_content).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u64>,
}

impl Args {
    /// Reads arguments leniently from a JSON object (or nothing).
    pub fn from_json(raw: Option<&Map<String, Value>>) -> Args {
        let empty = Map::new();
        let raw = raw.unwrap_or(&empty);
        let get = |canonical: &str| -> Option<&Value> {
            let direct = raw.iter().find(|(k, v)| k.eq_ignore_ascii_case(canonical) && !v.is_null()).map(|(_, v)| v);
            direct.or_else(|| {
                ARG_ALIASES
                    .iter()
                    .filter(|(_, c)| *c == canonical)
                    .find_map(|(alias, _)| raw.iter().find(|(k, v)| k.eq_ignore_ascii_case(alias) && !v.is_null()))
                    .map(|(_, v)| v)
            })
        };
        let query = get("query").map(text_of).unwrap_or_default();
        let target = get("target").map(text_of).filter(|t| !matches!(t.as_str(), "" | "*" | "all" | "null" | "none"));
        let path = get("path").map(text_of).map(|p| normalize_path(&p)).filter(|p| !p.is_empty());
        Args {
            query: truncate_chars(query.trim(), MAX_QUERY_CHARS),
            target,
            path,
            limit: get("limit").map(limit_of).unwrap_or(DEFAULT_LIMIT),
            start_line: get("start_line").and_then(line_of),
            end_line: get("end_line").and_then(line_of),
        }
    }
}

fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Array(items) => items.iter().map(text_of).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" "),
        Value::Null | Value::Object(_) => String::new(),
    }
}

fn truncate_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// `limit`: numbers or numeric strings clamped to 1..=10, `"all"` → 10,
/// anything else → the default.
pub fn limit_of(v: &Value) -> u32 {
    let n: Option<f64> = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let s = s.trim().to_ascii_lowercase();
            if matches!(s.as_str(), "all" | "max" | "*" | "every" | "все" | "全部") {
                return MAX_LIMIT;
            }
            s.parse::<f64>().ok()
        }
        _ => None,
    };
    match n {
        Some(n) if n.is_finite() && n >= 1.0 => (n.floor() as u64).min(MAX_LIMIT as u64) as u32,
        _ => DEFAULT_LIMIT,
    }
}

fn line_of(v: &Value) -> Option<u64> {
    let n = match v {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    (n.is_finite() && n >= 1.0).then(|| n.floor().min(u32::MAX as f64) as u64)
}

/// `/`-separated, no `./` or leading `/` duplication, no empty segments.
/// An absolute path keeps one leading `/` (it may name a project root).
pub fn normalize_path(p: &str) -> String {
    let p = p.trim().replace('\\', "/");
    let absolute = p.starts_with('/');
    let parts: Vec<&str> = p.split('/').filter(|s| !s.is_empty() && *s != ".").collect();
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: Value) -> Args {
        Args::from_json(v.as_object())
    }

    #[test]
    fn tool_names_resolve() {
        assert_eq!(resolve_tool("search_by_code_functions"), Some("search_by_code_functions"));
        assert_eq!(resolve_tool("Search-By-Code-Functions"), Some("search_by_code_functions"));
        assert_eq!(resolve_tool("search knowledge"), Some("search_knowledge"));
        assert_eq!(resolve_tool("delete_project"), None);
    }

    #[test]
    fn lenient_arguments() {
        let a = args(json!({"q": "add", "project": "samples", "limit": "5", "extra": 1}));
        assert_eq!(a.query, "add");
        assert_eq!(a.target.as_deref(), Some("samples"));
        assert_eq!(a.limit, 5);
        assert_eq!(args(json!({"limit": "all"})).limit, 10);
        assert_eq!(args(json!({"limit": 50})).limit, 10);
        assert_eq!(args(json!({"limit": 0})).limit, 3);
        assert_eq!(args(json!({"limit": null, "query": null})), Args { limit: 3, ..Args::default() });
        assert_eq!(args(json!({"query": "x", "q": "y"})).query, "x");
        assert_eq!(args(json!({"target": "all"})).target, None);
        assert_eq!(args(json!({"file": ".\\src\\main.rs"})).path.as_deref(), Some("src/main.rs"));
        assert_eq!(args(json!({"path": "//abs//x/./y"})).path.as_deref(), Some("/abs/x/y"));
        let a = args(json!({"start_line": "3", "end_line": 7.0}));
        assert_eq!((a.start_line, a.end_line), (Some(3), Some(7)));
        assert_eq!(args(json!({"start_line": -1})).start_line, None);
        assert_eq!(args(json!({"query": "я".repeat(2000)})).query.chars().count(), MAX_QUERY_CHARS);
    }
}
