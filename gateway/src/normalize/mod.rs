//! Normalization of what a client sends, in one place: tool names and tool
//! arguments. Small models mangle both; everything recoverable is recovered
//! here, before dispatch, so the tools themselves see clean [`Args`].
//!
//! * [`resolve_tool`] maps a requested tool name to a canonical one: the
//!   name is normalized ([`normalize_name`]: case, camelCase, separators,
//!   `vibe_`/`mcp_`/`tools.`/`functions.` prefixes), then looked up among the
//!   tools and in the alias table `gateway/data/tool_aliases.tsv`, with its
//!   singular/plural forms, and finally with its verb swapped for another
//!   (`lookup_docs` = `get_docs`) when every verb agrees on one tool. A name
//!   containing a destructive word (`delete`, `drop`, `run`, `exec`, `shell`,
//!   …) never resolves. Nothing is resolved by similarity: the closest name
//!   ([`suggest_tool`]) is only offered in the error.
//! * [`Args::from_json`] reads arguments leniently: argument-name aliases
//!   ([`ARG_ALIASES`]) and camelCase keys, numbers sent as strings, `"all"`
//!   limits, `null`s, arguments wrapped once more (`{"arguments": {...}}`)
//!   and unknown fields (ignored).

use std::collections::HashMap;
use std::sync::LazyLock;

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

/// The alias table: one `alias<TAB>tool` a line, `#` comments. The one place
/// to extend with more aliases.
pub const TOOL_ALIASES_TSV: &str = include_str!("../data/tool_aliases.tsv");

/// Words that make a tool name destructive-sounding: such a name never
/// resolves, whatever else it contains (this server only reads).
pub const DESTRUCTIVE_WORDS: &[&str] = &[
    "delete", "del", "drop", "remove", "rm", "rmdir", "unlink", "destroy", "purge", "truncate", "wipe", "erase",
    "kill", "terminate", "shutdown", "exec", "execute", "run", "shell", "bash", "sh", "zsh", "cmd", "command",
    "eval", "system", "spawn", "sudo", "write", "overwrite", "create", "insert", "put", "modify", "edit", "rename",
    "move", "mv", "reset", "clear", "format", "chmod", "chown", "upload", "install", "uninstall", "patch",
];

/// Verbs a model puts in front of a tool's subject; swapped for one another
/// when the name as sent is not known (see [`resolve_tool`]).
pub const VERBS: &[&str] = &[
    "find", "get", "list", "lookup", "search", "show", "fetch", "read", "view", "query", "retrieve", "display",
    "open", "describe", "browse",
];

/// Argument-name aliases: `(alias, canonical)`, compared after the key is
/// normalized like a tool name (lower case, camelCase split, `-`/space → `_`).
/// An explicit canonical argument wins over an alias; earlier aliases win
/// over later ones.
pub const ARG_ALIASES: &[(&str, &str)] = &[
    ("skip", "offset"),
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
];

/// Keys under which some clients wrap the real arguments once more.
const WRAPPER_KEYS: &[&str] = &["arguments", "args", "params", "parameters", "input", "kwargs"];

/// Default number of results.
pub const DEFAULT_LIMIT: u32 = 3;
/// Maximum number of results (also what `"all"` means).
pub const MAX_LIMIT: u32 = 10;
/// Queries are cut to this many characters.
pub const MAX_QUERY_CHARS: usize = 500;
/// Longer tool names are not resolved (nor compared for a suggestion).
pub const MAX_TOOL_NAME_CHARS: usize = 128;
/// Paths are cut to this many characters (no indexed path is longer).
pub const MAX_PATH_CHARS: usize = 1024;

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

/// Namespace prefixes removed from a tool name (repeatedly, in any
/// combination). `tools` and `functions` only count as a prefix before `.`,
/// `/` or `:` (so the alias `functions_search` keeps its meaning); the others
/// before any separator or a camelCase boundary. When the name without its
/// prefixes is unknown, [`resolve_tool`] also tries it with them
/// (`functions.search` is `functions_search` with a dot).
const NAMESPACE_PREFIXES: &[(&str, bool)] = &[
    ("tools", true),
    ("functions", true),
    ("vibe_analyzer", false),
    ("vibe-analyzer", false),
    ("vibeanalyzer", false),
    ("vibe", false),
    ("mcp", false),
    ("default_api", false),
];

fn strip_namespace(mut s: &str) -> &str {
    'outer: loop {
        for (prefix, dotted_only) in NAMESPACE_PREFIXES {
            let Some(head) = s.get(..prefix.len()) else { continue };
            if !head.eq_ignore_ascii_case(prefix) {
                continue;
            }
            let rest = &s[prefix.len()..];
            let next = rest.chars().next();
            let cut = match next {
                Some('.' | '/' | ':') => rest.trim_start_matches(['.', '/', ':', '_', '-', ' ']),
                Some('_' | '-' | ' ') if !dotted_only => rest.trim_start_matches(['_', '-', ' ', '.', ':', '/']),
                Some(c) if c.is_uppercase() && !dotted_only && head.ends_with(|h: char| h.is_ascii_lowercase()) => rest,
                _ => continue,
            };
            if cut.chars().any(char::is_alphanumeric) {
                s = cut;
                continue 'outer;
            }
        }
        return s;
    }
}

/// A tool (or argument) name in the form the alias table uses: namespace
/// prefixes removed, camelCase split (`getFileAST` → `get_file_ast`), lower
/// case, every run of other characters turned into one `_`, no `_` at either
/// end; quotes, backticks and a trailing `()` are dropped.
pub fn normalize_name(name: &str) -> String {
    snake(strip_namespace(unquote(name)))
}

/// [`normalize_name`] without removing namespace prefixes.
fn normalize_keeping_namespace(name: &str) -> String {
    snake(unquote(name))
}

fn unquote(name: &str) -> &str {
    let s = name.trim().trim_matches(|c| matches!(c, '"' | '\'' | '`'));
    s.strip_suffix("()").unwrap_or(s).trim()
}

fn snake(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && i > 0 {
                let prev = chars[i - 1];
                let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
                if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                    out.push('_');
                }
            }
            out.extend(c.to_lowercase());
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_matches('_').to_string()
}

/// The parsed alias table.
pub struct AliasTable {
    /// Rows as written: `(alias, tool)`.
    pub rows: Vec<(&'static str, &'static str)>,
    /// Normalized alias → tool (the first row wins).
    by_name: HashMap<String, &'static str>,
}

impl AliasTable {
    /// Parses `alias<TAB>tool` lines; blank and `#` lines are skipped, a row
    /// naming no tool is skipped with a warning.
    pub fn parse(tsv: &'static str) -> AliasTable {
        let mut rows = Vec::new();
        let mut by_name = HashMap::new();
        for (n, line) in tsv.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut fields = line.split('\t').map(str::trim).filter(|f| !f.is_empty());
            let (Some(alias), Some(tool), None) = (fields.next(), fields.next(), fields.next()) else {
                tracing::warn!("tool_aliases.tsv line {}: expected `alias<TAB>tool`: {line:?}", n + 1);
                continue;
            };
            let Some(tool) = TOOL_NAMES.iter().find(|t| **t == tool).copied() else {
                tracing::warn!("tool_aliases.tsv line {}: unknown tool {tool:?}", n + 1);
                continue;
            };
            rows.push((alias, tool));
            by_name.entry(normalize_name(alias)).or_insert(tool);
        }
        AliasTable { rows, by_name }
    }

    pub fn get(&self, normalized: &str) -> Option<&'static str> {
        self.by_name.get(normalized).copied()
    }
}

/// The alias table, parsed once.
pub fn alias_table() -> &'static AliasTable {
    static TABLE: LazyLock<AliasTable> = LazyLock::new(|| AliasTable::parse(TOOL_ALIASES_TSV));
    &TABLE
}

/// True when a (normalized) name contains a destructive word.
pub fn is_destructive(normalized: &str) -> bool {
    normalized.split('_').any(|w| DESTRUCTIVE_WORDS.contains(&w))
}

/// A canonical tool or an alias, as is.
fn lookup(form: &str) -> Option<&'static str> {
    TOOL_NAMES.iter().find(|n| **n == form).copied().or_else(|| alias_table().get(form))
}

/// [`lookup`], then the same name with its last word made plural or singular.
fn lookup_number(form: &str) -> Option<&'static str> {
    if let Some(t) = lookup(form) {
        return Some(t);
    }
    let mut variants = vec![format!("{form}s"), format!("{form}es")];
    if let Some(stem) = form.strip_suffix("ies") {
        variants.push(format!("{stem}y"));
    }
    if let Some(stem) = form.strip_suffix("es") {
        variants.push(stem.to_string());
    }
    if let Some(stem) = form.strip_suffix('s') {
        variants.push(stem.to_string());
    }
    if let Some(stem) = form.strip_suffix('y') {
        variants.push(format!("{stem}ies"));
    }
    variants.iter().filter(|v| v.len() > 2).find_map(|v| lookup(v))
}

/// The canonical tool a requested name stands for, if any. See the module
/// documentation for the rules.
pub fn resolve_tool(requested: &str) -> Option<&'static str> {
    if let Some(name) = TOOL_NAMES.iter().find(|n| **n == requested) {
        return Some(name);
    }
    if requested.chars().nth(MAX_TOOL_NAME_CHARS).is_some() {
        return None;
    }
    let form = normalize_name(requested);
    let full = normalize_keeping_namespace(requested);
    if form.is_empty() || is_destructive(&form) || is_destructive(&full) {
        return None;
    }
    // `function.search` is the alias `function_search` spelled with a dot.
    if let Some(t) = lookup_number(&form).or_else(|| lookup_number(&full)) {
        return Some(t);
    }
    // Another verb in front of the same subject, when every verb (and the
    // bare subject) that is known agrees on one tool.
    let form = form.replacen("look_up_", "lookup_", 1);
    let (verb, subject) = form.split_once('_')?;
    if !VERBS.contains(&verb) {
        return None;
    }
    // admin_sync starts work: it is only reached by its own names and aliases.
    let mut found: Option<&'static str> = None;
    for candidate in VERBS.iter().map(|v| format!("{v}_{subject}")).chain(std::iter::once(subject.to_string())) {
        match (lookup_number(&candidate).filter(|t| *t != "admin_sync"), found) {
            (Some(t), None) => found = Some(t),
            (Some(t), Some(f)) if t != f => return None,
            _ => {}
        }
    }
    found
}

/// The tool whose name or alias is closest (edit distance) to a name that did
/// not resolve. Only a suggestion for the error message: never used to
/// resolve. `None` for a destructive-sounding name.
pub fn suggest_tool(requested: &str) -> Option<&'static str> {
    if requested.chars().nth(MAX_TOOL_NAME_CHARS).is_some() {
        return None;
    }
    let form = normalize_name(requested);
    if form.is_empty() || is_destructive(&form) {
        return None;
    }
    let names = TOOL_NAMES.iter().map(|t| (*t, *t)).chain(alias_table().rows.iter().copied());
    names
        .map(|(name, tool)| (edit_distance(&form, &normalize_name(name)), tool))
        .min_by_key(|(d, _)| *d)
        .map(|(_, tool)| tool)
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1).min(row[j] + 1).min(diag + usize::from(ca != *cb));
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The message (and structured answer) for a tool name that did not resolve.
pub fn unknown_tool(requested: &str) -> (String, Value) {
    let shown: String = requested.chars().take(100).collect();
    let valid = TOOL_NAMES.join(", ");
    let form = normalize_name(&shown);
    let suggestion = suggest_tool(requested);
    let message = if is_destructive(&form) {
        format!(
            "unknown tool {shown:?}: this server only reads the index, nothing can be deleted, changed or executed. \
             Valid tools: {valid}."
        )
    } else {
        match suggestion {
            Some(s) => format!(
                "unknown tool {shown:?}. Valid tools: {valid}. Closest match: {s:?} (call it by that exact name if that is what you meant)."
            ),
            None => format!("unknown tool {shown:?}. Valid tools: {valid}."),
        }
    };
    let value = serde_json::json!({
        "error": message,
        "valid_tools": TOOL_NAMES,
        "closest_match": suggestion,
    });
    (message, value)
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
    /// Results to skip (the next page of a search), 0..=[`MAX_OFFSET`].
    #[serde(skip_serializing_if = "is_zero")]
    pub offset: u32,
}

/// Deepest page a search reaches.
pub const MAX_OFFSET: u32 = 1000;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Args {
    /// Reads arguments leniently from a JSON object (or nothing). Keys are
    /// compared after [`normalize_name`] (`filePath` = `file_path` =
    /// `File-Path`); a lone wrapper key (`arguments`, `args`, `params`,
    /// `input`, …) holding an object, or a JSON string of one, is unwrapped.
    pub fn from_json(raw: Option<&Map<String, Value>>) -> Args {
        let empty = Map::new();
        let raw = raw.unwrap_or(&empty);
        let unwrapped;
        let raw = match unwrap_once(raw) {
            Some(inner) => {
                unwrapped = inner;
                &unwrapped
            }
            None => raw,
        };
        let keyed: Vec<(String, &Value)> =
            raw.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (normalize_name(k), v)).collect();
        let find = |name: &str| keyed.iter().find(|(k, _)| k == name).map(|(_, v)| *v);
        let get = |canonical: &str| -> Option<&Value> {
            find(canonical).or_else(|| {
                ARG_ALIASES.iter().filter(|(_, c)| *c == canonical).find_map(|(alias, _)| find(alias))
            })
        };
        let query = get("query").map(text_of).unwrap_or_default();
        let target = get("target")
            .map(text_of)
            .map(|t| truncate_chars(&t, MAX_QUERY_CHARS))
            .filter(|t| !is_all_target(t));
        let path = get("path")
            .map(text_of)
            .map(|p| normalize_path(&truncate_chars(&p, MAX_PATH_CHARS)))
            .filter(|p| !p.is_empty());
        Args {
            query: truncate_chars(query.trim(), MAX_QUERY_CHARS),
            target,
            path,
            limit: get("limit").map(limit_of).unwrap_or(DEFAULT_LIMIT),
            start_line: get("start_line").and_then(line_of),
            end_line: get("end_line").and_then(line_of),
            offset: get("offset").and_then(offset_of).unwrap_or(0),
        }
    }
}

/// The arguments inside a lone wrapper key, if that is what was sent.
fn unwrap_once(raw: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut present = raw.iter().filter(|(_, v)| !v.is_null());
    let (key, value) = present.next()?;
    if present.next().is_some() || !WRAPPER_KEYS.contains(&normalize_name(key).as_str()) {
        return None;
    }
    match value {
        Value::Object(inner) => Some(inner.clone()),
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(inner)) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}

/// Targets that mean "every project".
fn is_all_target(t: &str) -> bool {
    matches!(
        t.trim().to_lowercase().as_str(),
        "" | "*" | "all" | "any" | "null" | "none" | "everything" | "all projects" | "all_projects" | "все" | "全部"
    )
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

/// A finite number sent as a number or a string.
fn number_of(v: &Value) -> Option<f64> {
    let n = match v {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse::<f64>().ok()?,
        _ => return None,
    };
    n.is_finite().then_some(n)
}

fn offset_of(v: &Value) -> Option<u32> {
    number_of(v).filter(|n| *n >= 0.0).map(|n| n.floor().min(MAX_OFFSET as f64) as u32)
}

fn line_of(v: &Value) -> Option<u64> {
    number_of(v).filter(|n| *n >= 1.0).map(|n| n.floor().min(u32::MAX as f64) as u64)
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
    fn names_are_normalized() {
        for (raw, form) in [
            ("search_by_code_functions", "search_by_code_functions"),
            ("searchByCodeFunctions", "search_by_code_functions"),
            ("SearchByCodeFunctions", "search_by_code_functions"),
            ("getFileAST", "get_file_ast"),
            ("ASTOutline", "ast_outline"),
            ("search-by-code-functions", "search_by_code_functions"),
            ("Search By Code Functions", "search_by_code_functions"),
            ("SEARCH_DOCUMENTATION", "search_documentation"),
            ("search.docs", "search_docs"),
            ("  search__docs  ", "search_docs"),
            ("`search_docs()`", "search_docs"),
            ("\"search_docs\"", "search_docs"),
            ("vibe_search_docs", "search_docs"),
            ("vibeSearchDocs", "search_docs"),
            ("Vibe-Search-Docs", "search_docs"),
            ("mcp_search_docs", "search_docs"),
            ("tools.search_docs", "search_docs"),
            ("functions.search_docs", "search_docs"),
            ("functions.vibe_search_docs", "search_docs"),
            ("tools.mcp_vibe_search_docs", "search_docs"),
            ("mcp__vibe-analyzer__search_docs", "search_docs"),
            ("vibe_analyzer.search_docs", "search_docs"),
            ("default_api.search_docs", "search_docs"),
            // `functions`/`tools` are prefixes only before `.`, `/` or `:`.
            ("functions_search", "functions_search"),
            ("functions", "functions"),
            // A prefix alone stays (it names nothing).
            ("vibe", "vibe"),
            ("tools.", "tools"),
        ] {
            assert_eq!(normalize_name(raw), form, "{raw:?}");
        }
    }

    #[test]
    fn tool_names_resolve() {
        assert_eq!(resolve_tool("search_by_code_functions"), Some("search_by_code_functions"));
        assert_eq!(resolve_tool("Search-By-Code-Functions"), Some("search_by_code_functions"));
        assert_eq!(resolve_tool("search knowledge"), Some("search_knowledge"));
        assert_eq!(resolve_tool("search_functions"), Some("search_by_code_functions"));
        assert_eq!(resolve_tool("functions.searchFunctions"), Some("search_by_code_functions"));
        assert_eq!(resolve_tool("mcp__vibe-analyzer__show_projects"), Some("show_projects"));
        // Plural and singular of a known name.
        assert_eq!(resolve_tool("search_documentations"), Some("search_documentation"));
        assert_eq!(resolve_tool("show_stat"), Some("show_stats"));
        assert_eq!(resolve_tool("search_by_code_class"), Some("search_by_code_classes"));
        assert_eq!(resolve_tool("get_file_asts"), Some("get_file_ast"));
        // Another verb, when every verb agrees.
        assert_eq!(resolve_tool("query_docs"), Some("search_documentation"));
        assert_eq!(resolve_tool("retrieve_classes"), Some("search_by_code_classes"));
        assert_eq!(resolve_tool("lookUpImports"), Some("search_by_code_imports"));
        assert_eq!(resolve_tool("browse_file_tree"), Some("show_tree"));
        // ... but never to admin_sync, and never by similarity.
        assert_eq!(resolve_tool("show_sync"), None);
        assert_eq!(resolve_tool("search_functoins"), None);
        assert_eq!(suggest_tool("search_functoins"), Some("search_by_code_functions"));
        // Destructive words block everything.
        for name in ["delete_project", "run_shell", "drop_index", "exec", "run_sync", "deleteDocs", "tools.rm_file"] {
            assert_eq!(resolve_tool(name), None, "{name}");
            assert_eq!(suggest_tool(name), None, "{name}");
        }
        assert_eq!(resolve_tool(""), None);
        assert_eq!(resolve_tool(&"search_docs_".repeat(100)), None);
        assert_eq!(suggest_tool(&"x".repeat(1_000_000)), None);
    }

    #[test]
    fn unknown_tool_messages() {
        let (message, value) = unknown_tool("serch_docs");
        assert!(message.contains("Valid tools: admin_sync, get_file_content"), "{message}");
        assert!(message.contains("Closest match: \"search_documentation\""), "{message}");
        assert_eq!(value["closest_match"], "search_documentation");
        assert_eq!(value["valid_tools"].as_array().unwrap().len(), TOOL_NAMES.len());
        let (message, value) = unknown_tool("delete_project");
        assert!(message.contains("nothing can be deleted") && message.contains("Valid tools:"), "{message}");
        assert!(value["closest_match"].is_null());
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("поиск", "поиск"), 0);
    }

    #[test]
    fn argument_name_aliases() {
        for key in ["query", "q", "keyword", "keywords", "text", "search", "name", "Query", "searchQuery", "question"] {
            assert_eq!(args(json!({ key: "add" })).query, "add", "{key}");
        }
        for key in ["target", "project", "repo", "source", "project_name", "projectName", "Project-Name", "repository"] {
            assert_eq!(args(json!({ key: "samples" })).target.as_deref(), Some("samples"), "{key}");
        }
        for key in ["path", "file", "filepath", "file_path", "filename", "filePath", "FileName", "file-path"] {
            assert_eq!(args(json!({ key: "src/a.rs" })).path.as_deref(), Some("src/a.rs"), "{key}");
        }
        for key in ["limit", "max_results", "maxResults", "top_k", "count", "n"] {
            assert_eq!(args(json!({ key: 7 })).limit, 7, "{key}");
        }
        let a = args(json!({ "startLine": "2", "endLine": 4, "path": "a" }));
        assert_eq!((a.start_line, a.end_line), (Some(2), Some(4)));
        let a = args(json!({ "start": 5, "end": "9" }));
        assert_eq!((a.start_line, a.end_line), (Some(5), Some(9)));
        // The canonical name wins over an alias, whatever the order.
        assert_eq!(args(json!({ "q": "y", "query": "x" })).query, "x");
        assert_eq!(args(json!({ "project": "b", "target": "a" })).target.as_deref(), Some("a"));
        // A null canonical value does not hide an alias.
        assert_eq!(args(json!({ "query": null, "q": "y" })).query, "y");
    }

    #[test]
    fn lenient_types() {
        // Numbers as strings.
        assert_eq!(args(json!({ "limit": "5" })).limit, 5);
        assert_eq!(args(json!({ "limit": " 7 " })).limit, 7);
        assert_eq!(args(json!({ "limit": 4.9 })).limit, 4);
        assert_eq!(args(json!({ "limit": "4.2" })).limit, 4);
        // "all" and over-large limits are capped at 10.
        for v in [json!("all"), json!("ALL"), json!("max"), json!("*"), json!(50), json!("1000"), json!(1e300)] {
            assert_eq!(args(json!({ "limit": v })).limit, MAX_LIMIT, "{v}");
        }
        // Invalid limits fall back to the default.
        for v in [json!(0), json!(-3), json!("many"), json!(true), json!([5]), json!({}), json!(f64::NAN.to_string())] {
            assert_eq!(args(json!({ "limit": v })).limit, DEFAULT_LIMIT, "{v}");
        }
        // Nulls are absent values.
        assert_eq!(
            args(json!({ "limit": null, "query": null, "target": null, "path": null })),
            Args { limit: DEFAULT_LIMIT, ..Args::default() }
        );
        assert_eq!(Args::from_json(None), Args { limit: DEFAULT_LIMIT, ..Args::default() });
        // Other types of query become text.
        assert_eq!(args(json!({ "query": 42 })).query, "42");
        assert_eq!(args(json!({ "query": ["foo", "bar"] })).query, "foo bar");
        assert_eq!(args(json!({ "query": { "x": 1 } })).query, "");
        // Lines.
        let a = args(json!({ "start_line": "3", "end_line": 7.0 }));
        assert_eq!((a.start_line, a.end_line), (Some(3), Some(7)));
        assert_eq!(args(json!({ "start_line": -1 })).start_line, None);
        assert_eq!(args(json!({ "start_line": "x" })).start_line, None);
    }

    #[test]
    fn unknown_fields_are_ignored_and_wrappers_unwrapped() {
        let a = args(json!({ "q": "add", "project": "samples", "limit": "5", "extra": 1, "options": { "deep": true } }));
        assert_eq!((a.query.as_str(), a.target.as_deref(), a.limit), ("add", Some("samples"), 5));
        for wrapped in [
            json!({ "arguments": { "query": "add", "limit": 2 } }),
            json!({ "params": { "q": "add", "limit": "2" } }),
            json!({ "input": "{\"query\": \"add\", \"limit\": 2}" }),
            json!({ "kwargs": { "query": "add", "limit": 2 }, "ignored": null }),
        ] {
            let a = args(wrapped.clone());
            assert_eq!((a.query.as_str(), a.limit), ("add", 2), "{wrapped}");
        }
        // `input` holding plain text is the query; a wrapper next to other keys is not unwrapped.
        assert_eq!(args(json!({ "input": "who is Kirikur" })).query, "who is Kirikur");
        assert_eq!(args(json!({ "arguments": { "query": "a" }, "query": "b" })).query, "b");
    }

    #[test]
    fn targets_and_paths() {
        for all in ["all", "ALL", "*", "", "  ", "none", "all projects", "все", "全部"] {
            assert_eq!(args(json!({ "target": all })).target, None, "{all:?}");
        }
        assert_eq!(args(json!({ "target": " samples " })).target.as_deref(), Some("samples"));
        assert_eq!(args(json!({ "file": ".\\src\\main.rs" })).path.as_deref(), Some("src/main.rs"));
        assert_eq!(args(json!({ "path": "//abs//x/./y" })).path.as_deref(), Some("/abs/x/y"));
        assert_eq!(args(json!({ "path": "./" })).path, None);
        // `..` is kept as is: the path only matches indexed paths, never the disk.
        assert_eq!(args(json!({ "path": "../../etc/passwd" })).path.as_deref(), Some("../../etc/passwd"));
        assert_eq!(args(json!({ "path": "a/".repeat(5000) })).path.unwrap().chars().count(), MAX_PATH_CHARS - 1);
    }

    #[test]
    fn queries_are_trimmed_and_bounded() {
        assert_eq!(args(json!({ "query": "  add  " })).query, "add");
        assert_eq!(args(json!({ "query": "я".repeat(2000) })).query.chars().count(), MAX_QUERY_CHARS);
        assert_eq!(args(json!({ "query": "😀".repeat(1_000_000) })).query.chars().count(), MAX_QUERY_CHARS);
        assert_eq!(args(json!({ "query": "a\u{0}b" })).query, "a\u{0}b");
    }
}
