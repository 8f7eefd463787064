//! Tool names: the alias table, destructive words, and [`resolve_tool`],
//! which tries the tool names (spelled as [`normalize_name`] spells them),
//! the table and its verb swaps, then the name's meaning ([`super::meaning`]).

use std::collections::HashMap;
use std::sync::LazyLock;

use super::keys;
use super::meaning::{self, Meaning};
use super::raw_args::RawArgs;
use super::spelling::{mcp_server, normalize_keeping_namespace, normalize_name, snake};
use crate::answers::ErrorAnswer;
use crate::registry::TOOL_NAMES;

/// The alias table: one `alias<TAB>tool` a line, `#` comments. For names the
/// meaning rules cannot reach.
pub const TOOL_ALIASES_TSV: &str = include_str!("../../data/tool_aliases.tsv");

/// Words that make a tool name destructive-sounding: such a name never
/// resolves, whatever else it contains (this server only reads).
pub const DESTRUCTIVE_WORDS: &[&str] = &[
    "delete",
    "del",
    "drop",
    "remove",
    "rm",
    "rmdir",
    "unlink",
    "destroy",
    "purge",
    "truncate",
    "wipe",
    "erase",
    "kill",
    "terminate",
    "shutdown",
    "exec",
    "execute",
    "run",
    "shell",
    "bash",
    "sh",
    "zsh",
    "cmd",
    "command",
    "eval",
    "system",
    "spawn",
    "sudo",
    "write",
    "overwrite",
    "create",
    "insert",
    "put",
    "modify",
    "edit",
    "rename",
    "move",
    "mv",
    "reset",
    "clear",
    "format",
    "chmod",
    "chown",
    "upload",
    "install",
    "uninstall",
    "patch",
    "replace",
    "substitute",
    "save",
    "append",
    "apply",
    "push",
    "merge",
    "revert",
    "rewrite",
    "editor",
    "refactor",
    "set",
    "commit",
    "git",
    "add",
    "register",
    "attach",
    "import_project",
];

/// Verbs a model puts in front of a tool's subject, in two families that
/// mean the same within each: searching and reading. A verb is swapped for
/// another of its family when the name as sent is not known (see
/// [`resolve_tool`]): `lookup_docs` is `search_docs`, but `search_file` is
/// not `get_file`.
pub const VERB_FAMILIES: &[&[&str]] = &[
    &["find", "lookup", "search", "query"],
    &["get", "list", "show", "fetch", "read", "view", "retrieve", "display", "open", "describe", "browse"],
];

/// Longer tool names are not resolved (nor compared for a suggestion).
pub const MAX_TOOL_NAME_CHARS: usize = 128;

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

/// What a requested tool name resolved to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    Tool(&'static str),
    /// Two tools fit the name equally well.
    Ambiguous(&'static str, &'static str),
    Unknown,
}

/// The canonical tool a requested name stands for, if any. See the module
/// documentation for the rules.
pub fn resolve_tool(requested: &str) -> Option<&'static str> {
    match resolve(requested) {
        Resolution::Tool(t) => Some(t),
        _ => None,
    }
}

/// [`resolve`], with the arguments' shape as a hint when the name alone is
/// not enough: a file path adds "file" (`Read` or `open` with a path read a
/// file), a target without a path adds "project" (`show_structure` of a
/// project is its tree).
pub fn resolve_with_args(requested: &str, args: Option<&RawArgs>) -> Resolution {
    let resolution = resolve(requested);
    if matches!(resolution, Resolution::Tool(_)) {
        return resolution;
    }
    match meaning_with_args(requested, args) {
        Some(Meaning::Tool(t)) => Resolution::Tool(t),
        Some(Meaning::Tie(a, b)) if resolution == Resolution::Unknown => Resolution::Ambiguous(a, b),
        _ => resolution,
    }
}

/// What a name means once the arguments' shape is added to its words (see
/// [`resolve_with_args`]); `None` when the arguments hint at nothing.
pub fn meaning_with_args(requested: &str, args: Option<&RawArgs>) -> Option<Meaning> {
    if requested.chars().nth(MAX_TOOL_NAME_CHARS).is_some() {
        return None;
    }
    let form = normalize_name(requested);
    let args = args.filter(|_| !form.is_empty() && !is_destructive(&form))?;
    let hint = match keys::shape(args) {
        keys::Shape::File => "file".to_string(),
        keys::Shape::Project => "project".to_string(),
        // `symbol_lookup` with `{"kind": "class"}` looks for a class.
        keys::Shape::Kind(kind) => kind,
        keys::Shape::Other => return None,
    };
    Some(meaning::resolve(&format!("{form}_{hint}")))
}

/// Names of relay tools: a client that calls tools through one generic tool.
const RELAY_TOOLS: &[&str] = &["use_mcp_tool", "call_tool", "call_mcp_tool", "invoke_tool", "use_tool", "mcp_call"];

/// The inner call of a relay tool (`use_mcp_tool` with `tool_name` and
/// `arguments`), if that is what was sent.
pub fn relayed_call(requested: &str, args: Option<&RawArgs>) -> Option<(String, Option<RawArgs>)> {
    let form = normalize_keeping_namespace(requested);
    if !RELAY_TOOLS.contains(&form.as_str()) {
        return None;
    }
    let args = args?;
    let field = |keys: &[&str]| args.iter().find(|(k, _)| keys.contains(&normalize_name(k).as_str())).map(|(_, v)| v);
    let name = field(&["tool_name", "tool", "name", "function", "function_name"])?.as_str()?.to_string();
    let inner = field(&["arguments", "args", "params", "parameters", "input"]).and_then(super::values::object_in);
    Some((name, inner))
}

/// Resolves a requested name: the tool names, the alias table (with plural,
/// singular and verb swaps), then the name's meaning.
pub fn resolve(requested: &str) -> Resolution {
    if let Some(name) = TOOL_NAMES.iter().find(|n| **n == requested) {
        return Resolution::Tool(name);
    }
    if requested.chars().nth(MAX_TOOL_NAME_CHARS).is_some() {
        return Resolution::Unknown;
    }
    let form = normalize_name(requested);
    let full = normalize_keeping_namespace(requested);
    if form.is_empty() || is_destructive(&form) || is_destructive(&full) {
        return Resolution::Unknown;
    }
    // `function.search` is the alias `function_search` spelled with a dot.
    if let Some(t) = lookup_number(&form).or_else(|| lookup_number(&full)).or_else(|| verb_swap(&form)) {
        return Resolution::Tool(t);
    }
    match meaning::resolve(&form) {
        Meaning::Tool(t) => Resolution::Tool(t),
        Meaning::Tie(a, b) => Resolution::Ambiguous(a, b),
        // `mcp__ripgrep__search`: the server's name says what `search` means.
        Meaning::Nothing => match mcp_server(requested.trim()) {
            Some((server, _)) => match meaning::resolve(&format!("{}_{form}", snake(server))) {
                Meaning::Tool(t) => Resolution::Tool(t),
                _ => Resolution::Unknown,
            },
            None => Resolution::Unknown,
        },
    }
}

/// Another verb in front of the same subject, when every verb (and the bare
/// subject) that is known agrees on one tool. Never `admin_sync`, which starts
/// work: it is only reached by its own names, aliases and meaning.
fn verb_swap(form: &str) -> Option<&'static str> {
    let form = form.replacen("look_up_", "lookup_", 1);
    let (verb, subject) = form.split_once('_')?;
    let family = VERB_FAMILIES.iter().find(|f| f.contains(&verb))?;
    // A search verb keeps its meaning: `search_file_contents` is no file read.
    let searches = family.contains(&"search");
    let fits = |t: &&'static str| {
        *t != "admin_sync"
            && (!searches
                || crate::registry::spec(t).is_some_and(|s| s.meaning.iter().any(|(c, w)| *c == "search" && *w > 0)))
    };
    let mut found: Option<&'static str> = None;
    for candidate in family.iter().map(|v| format!("{v}_{subject}")).chain(std::iter::once(subject.to_string())) {
        match (lookup_number(&candidate).filter(fits), found) {
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
pub fn unknown_tool(requested: &str) -> ErrorAnswer {
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
    ErrorAnswer { valid_tools: Some(&TOOL_NAMES), closest_match: Some(suggestion), ..ErrorAnswer::of(message) }
}

/// The message (and structured answer) for a name two tools fit equally well.
pub fn ambiguous_tool(requested: &str, a: &str, b: &str) -> ErrorAnswer {
    let shown: String = requested.chars().take(100).collect();
    let message = format!("tool name {shown:?} fits both {a:?} and {b:?}: call one of them by its exact name.");
    ErrorAnswer {
        candidates: Some([a.to_string(), b.to_string()]),
        valid_tools: Some(&TOOL_NAMES),
        ..ErrorAnswer::of(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let answer = unknown_tool("serch_docs");
        let message = &answer.error;
        assert!(message.contains("Valid tools: admin_sync, get_file_content"), "{message}");
        assert!(message.contains("Closest match: \"search_documentation\""), "{message}");
        assert_eq!(answer.closest_match, Some(Some("search_documentation")));
        assert_eq!(answer.valid_tools.map(<[_]>::len), Some(TOOL_NAMES.len()));
        let answer = unknown_tool("delete_project");
        let message = &answer.error;
        assert!(message.contains("nothing can be deleted") && message.contains("Valid tools:"), "{message}");
        // Said as `null`: no tool is near.
        let json = serde_json::to_value(&answer).unwrap();
        assert!(json.get("closest_match").is_some_and(|m| m.is_null()), "{json}");
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("поиск", "поиск"), 0);
    }
}
