//! Tool arguments: [`Args`], read leniently from whatever a client sends,
//! and the words of a tool name that set an argument (`search_regex`,
//! `outgoing_calls`).

use serde::Serialize;

use super::keys::{line_range_of, looks_like_regex, nested_path, role_named_by, strip_file_uri};
use super::raw_args::{ArgValue, RawArgs};
use super::sent::{takes, takes_glob, Sent};
use super::spelling::normalize_name;
use super::values::{
    bool_of, is_all_target, limit_of, line_of, list_offset_of, names_every_project, normalize_path, offset_of, text_of,
    unwrap_once,
};
use crate::registry::{Param, Run, ToolSpec, DEFAULT_LIMIT, MAX_OFFSET};

/// Queries are cut to this many characters.
pub const MAX_QUERY_CHARS: usize = 500;
/// Paths are cut to this many characters (no indexed path is longer).
pub const MAX_PATH_CHARS: usize = 1024;

/// Tool arguments after normalization. Every tool reads what it needs and
/// ignores the rest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Args {
    /// Trimmed, at most [`MAX_QUERY_CHARS`] characters; empty when absent.
    pub query: String,
    /// Project name or path; `None` when absent, empty, `"all"` or `"*"`.
    pub target: Option<String>,
    /// The caller asked for every project by name (`"all"`, `"*"`): a
    /// project's own endpoint (`/mcp/<project>`) then searches them all too.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub every_project: bool,
    /// Relative (or partial, or absolute) file path, `/`-separated, without a leading `./`.
    pub path: Option<String>,
    /// 1..=[`MAX_LIMIT`](crate::registry::MAX_LIMIT), default [`DEFAULT_LIMIT`].
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
    /// `query` is a regular expression (search_code_text); default false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub regex: bool,
    /// Match case (search_code_text); default true, as grep.
    #[serde(skip_serializing_if = "Clone::clone")]
    pub case_sensitive: bool,
    /// A language name (`python`, `rust`, …), lower case.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// A kind of reference (`call`, `type`, `import`), lower case (find_references).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// `callers` (default: who uses the symbol) or `callees` (what it uses), find_references.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direction: Option<String>,
    /// One element of a file, by name or `Owner.name` (get_file_ast): the
    /// query of a call that also names the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// How many directory levels a tree shows (show_tree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// 1-based first character of a single long line (get_file_content).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_char: Option<u64>,
    /// Lines shown around each matching line, as `grep -C`, 0..=[`MAX_CONTEXT`]
    /// (search_code_text).
    #[serde(skip_serializing_if = "is_zero")]
    pub context: u32,
    /// The ranked map of the definitions instead of the file tree (show_tree).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub symbols: bool,
}

/// Most lines around a matching line (`context`).
pub const MAX_CONTEXT: u32 = 5;

impl Default for Args {
    fn default() -> Self {
        Args {
            query: String::new(),
            target: None,
            every_project: false,
            path: None,
            limit: DEFAULT_LIMIT,
            start_line: None,
            end_line: None,
            offset: 0,
            regex: false,
            case_sensitive: true,
            language: None,
            kind: None,
            direction: None,
            symbol: None,
            depth: None,
            start_char: None,
            context: 0,
            symbols: false,
        }
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Args {
    /// Whether these arguments supply every required parameter of a tool (a
    /// file tool needs a real `path`, not a query it would read as one).
    pub fn fits(&self, spec: &ToolSpec) -> bool {
        spec.required.iter().all(|r| match *r {
            "query" => !self.query.is_empty() || spec.run == Run::Imports,
            "path" => self.path.is_some(),
            _ => true,
        })
    }

    /// [`Args::for_tool`] without knowing the tool.
    pub fn from_json(raw: Option<&RawArgs>) -> Args {
        Args::for_tool(raw, None)
    }

    /// Reads arguments leniently from a JSON object (or nothing). Keys are
    /// compared after [`normalize_name`] (`filePath` = `file_path` =
    /// `File-Path`); a lone wrapper key (`arguments`, `args`, `params`,
    /// `input`, …) holding an object, or a JSON string of one, is unwrapped.
    /// Each key fills one argument: its canonical name first, then an alias of
    /// [`ARG_ALIASES`](super::ARG_ALIASES) (earlier rows first), then what its words name
    /// ([`key_role`](super::key_role)). When `query` is still missing and exactly one string
    /// argument is left over, it is the query. A `path` sent to a tool that
    /// reads no file is its target (a project directory).
    pub fn for_tool(raw: Option<&RawArgs>, tool: Option<&ToolSpec>) -> Args {
        let empty = RawArgs::default();
        let raw = raw.unwrap_or(&empty);
        let unwrapped;
        let raw = match unwrap_once(raw) {
            Some(inner) => {
                unwrapped = inner;
                &unwrapped
            }
            None => raw,
        };
        let sent = Sent::read(raw, tool);
        let (mut query, regex) = query_and_regex(&sent, tool);
        let leftover_path = lone_leftover(&sent, tool, &mut query);
        let (target, mut path) = target_and_path(&sent, tool, leftover_path, &mut query);
        let mut range = line_range(&sent, &mut path);
        let (limit, offset) = paging(&sent, tool, &mut range);
        let lower = |role: &str| sent.get(role).map(text_of).map(|l| l.to_lowercase()).filter(|l| !l.is_empty());
        let exact = tool.is_some_and(|t| t.run == Run::Text) && !query.trim().is_empty();
        // A file tool that takes a symbol: the query names it once the path names the file.
        let symbol = (tool.is_some_and(|t| t.takes("symbol")) && path.is_some() && !query.trim().is_empty())
            .then(|| first_chars(query.trim(), MAX_QUERY_CHARS));
        Args {
            query: first_chars(if exact { &query } else { query.trim() }, MAX_QUERY_CHARS),
            every_project: target.as_deref().is_some_and(names_every_project),
            target: target.filter(|t| !is_all_target(t)),
            path,
            limit,
            start_line: sent.get("start_line").and_then(line_of).or(range.0),
            end_line: sent.get("end_line").and_then(line_of).or(range.1),
            offset,
            regex: regex.unwrap_or(false),
            case_sensitive: case_sensitive(&sent),
            language: lower("language"),
            kind: lower("kind"),
            direction: lower("direction"),
            symbol,
            depth: sent.get("depth").and_then(line_of).map(|d| d.min(u32::MAX as u64) as u32),
            start_char: sent.get("start_char").and_then(line_of),
            context: sent.get("context").and_then(line_of).map_or(0, |c| c.min(MAX_CONTEXT as u64) as u32),
            symbols: sent.get("symbols").and_then(bool_of).unwrap_or(false),
        }
    }
}

/// The query, and whether it is a regex when the call says so.
fn query_and_regex(sent: &Sent, tool: Option<&ToolSpec>) -> (String, Option<bool>) {
    // A text search keeps the spaces around its query (`" = "`, `"fn "`):
    // they are part of what is searched for.
    let spaced = |v: &ArgValue| match v {
        ArgValue::Text(s) if tool.is_some_and(|t| t.run == Run::Text) && !s.trim().is_empty() => s.clone(),
        other => text_of(other),
    };
    let mut query = sent.get("query").map(spaced).unwrap_or_default();
    // `{"regex": "a.*b"}`: the pattern itself.
    let mut regex = None;
    if let Some(pattern @ ArgValue::Text(text)) = sent.get("regex") {
        if bool_of(pattern).is_none() && query.is_empty() {
            query = text.trim().to_string();
            regex = Some(true);
        }
    }
    let regex_flag = sent.get("regex").and_then(bool_of);
    let mut regex = regex.or(regex_flag);
    // A `pattern` written in regex syntax (`def \w+\(`, `foo.*bar`) is one.
    let pattern_key = sent.keyed.iter().any(|(k, v)| {
        k.split('_').any(|w| matches!(w, "pattern" | "regex" | "regexp")) && v.as_str().is_some_and(looks_like_regex)
    });
    if regex.is_none() && pattern_key {
        regex = Some(true);
    }
    (query, regex)
}

/// A lone unknown string is the query, or the path (returned) of a tool that reads a file.
fn lone_leftover(sent: &Sent, tool: Option<&ToolSpec>, query: &mut String) -> Option<String> {
    if sent.leftover.len() == 1 {
        if takes(tool, "query") && query.is_empty() {
            *query = text_of(sent.leftover[0]);
        } else if !takes(tool, "query") && takes(tool, "path") && sent.get("path").is_none() {
            return Some(text_of(sent.leftover[0]));
        }
    }
    None
}

/// The target and the path; a path or a query that names the project moves to the target.
fn target_and_path(
    sent: &Sent,
    tool: Option<&ToolSpec>,
    leftover_path: Option<String>,
    query: &mut String,
) -> (Option<String>, Option<String>) {
    let textual = |v: &&ArgValue| !v.is_flag();
    let mut target = sent
        .get("target")
        .filter(textual)
        .map(text_of)
        .map(|t| strip_file_uri(&t))
        .map(|t| first_chars(&t, MAX_QUERY_CHARS));
    let mut path = sent
        .get("path")
        .filter(textual)
        .map(nested_path)
        .or(leftover_path)
        .map(|p| normalize_path(&first_chars(&strip_file_uri(&p), MAX_PATH_CHARS)))
        .filter(|p| !p.is_empty());
    let takes = |param: &str| takes(tool, param);
    // A path sent to a tool that reads no file names its project; so does
    // an absolute path sent as a search's path glob.
    // (A relative file path, `src/a.py`, names no project: it is dropped.)
    let names_project = |p: &str| p.starts_with('/') || !p.rsplit('/').next().unwrap_or_default().contains('.');
    if takes("target")
        && target.is_none()
        && (!takes("path") || (takes_glob(tool) && path.as_deref().is_some_and(|p| p.starts_with('/'))))
    {
        target = path.take().filter(|p| names_project(p));
    }
    // A name sent to a tool that only takes a project is the project.
    let takes_dir = tool.is_some_and(|t| t.params.contains(&Param::Dir));
    if !takes("query") && (!takes("path") || takes_dir) && takes("target") && target.is_none() && !query.is_empty() {
        target = Some(std::mem::take(query));
    }
    (target, path)
}

/// Whether to match case: `case_sensitive`, `ignore_case`, or grep-style
/// flags (`{"-i": true}`, `{"flags": "i"}`); true by default.
fn case_sensitive(sent: &Sent) -> bool {
    let flags = sent.get("flags").map(|v| match v {
        ArgValue::Flag(b) => {
            if *b {
                "i".to_string()
            } else {
                String::new()
            }
        }
        other => text_of(other).to_lowercase(),
    });
    let flag_ignore = flags.as_deref().map(|f| f.contains('i'));
    match (sent.get("case_sensitive").and_then(bool_of), sent.get("ignore_case").and_then(bool_of), flag_ignore) {
        (Some(sensitive), _, _) => sensitive,
        (None, Some(ignore), _) => !ignore,
        (None, None, Some(ignore)) => !ignore,
        (None, None, None) => true,
    }
}

/// The lines asked for by `lines`, a path's suffix (removed from it) or a `line_count`.
fn line_range(sent: &Sent, path: &mut Option<String>) -> (Option<u64>, Option<u64>) {
    let mut range = sent.get("lines").map(line_range_of).unwrap_or((None, None));
    // `a.py#L20-L30`, `a.py:20-30`: the lines of a link or a compiler message.
    let suffix = path.as_deref().and_then(|p| p.rsplit_once("#L").or_else(|| p.rsplit_once(':')));
    if let Some((file, lines)) = suffix.filter(|(_, l)| l.chars().next().is_some_and(|c| c.is_ascii_digit())) {
        let (start, end) = line_range_of(&ArgValue::Text(lines.to_string()));
        if start.is_some() {
            range = (start, end.or(start));
            *path = Some(file.to_string());
        }
    }
    // `{"start_line": 3, "num_lines": 5}`: lines 3-7.
    if let (Some(count), None) = (sent.get("line_count").and_then(line_of), sent.get("end_line")) {
        let start = sent.get("start_line").and_then(line_of).or(range.0).unwrap_or(1);
        range = (Some(start), Some(start + count - 1));
    }
    range
}

/// The limit and the offset. A tool that returns lines and has no pages:
/// `offset` is the first line and `limit` (or `head`) the number of lines,
/// as file readers (Claude Code's Read) send them; they go into `range`.
fn paging(sent: &Sent, tool: Option<&ToolSpec>, range: &mut (Option<u64>, Option<u64>)) -> (u32, u32) {
    let line_tool = takes(tool, "start_line") && !takes(tool, "offset");
    let mut limit = sent.get("limit").map(limit_of).unwrap_or(DEFAULT_LIMIT);
    // `page` (1-based) of `limit` results.
    let page_offset =
        sent.get("page").and_then(line_of).map(|page| ((page - 1) * limit as u64).min(MAX_OFFSET as u64) as u32);
    if line_tool {
        let first = sent.get("offset").and_then(line_of);
        let count = sent.get("limit").or_else(|| sent.get("head")).and_then(line_of);
        if first.is_some() || count.is_some() {
            let start = first.unwrap_or(1);
            *range = (Some(start), count.map(|n| start + n - 1));
            limit = DEFAULT_LIMIT;
        }
    }
    let offset = match (line_tool, tool.is_some_and(|t| t.params.contains(&Param::ListOffset))) {
        (true, _) => 0,
        (false, true) => sent.get("offset").and_then(list_offset_of).unwrap_or(0),
        (false, false) => sent.get("offset").and_then(offset_of).or(page_offset).unwrap_or(0),
    };
    (limit, offset)
}

/// Words of a tool name that set an argument the call did not send:
/// `search_regex` searches a pattern, `outgoing_calls` lists callees.
const NAME_WORDS: &[(&str, &str)] =
    &[("regex", "regex"), ("regexp", "regex"), ("callee", "callees"), ("callees", "callees"), ("outgoing", "callees")];

impl Args {
    /// Applies the words of a (normalized) tool name (`NAME_WORDS`) to a tool's arguments.
    pub fn apply_name(&mut self, tool: &ToolSpec, normalized_name: &str, raw: Option<&RawArgs>) {
        let sent =
            |param: &str| raw.is_some_and(|r| r.keys().any(|k| role_named_by(&normalize_name(k)) == Some(param)));
        // A name of its own with no query (`list_imports`, `get_dependencies`)
        // asks for the listing; the tool's own name needs its `query`.
        if self.query.is_empty() && tool.listing.is_some() {
            self.query = "*".into();
        }
        for word in normalized_name.split('_') {
            match NAME_WORDS.iter().find(|(w, _)| *w == word).map(|(_, effect)| *effect) {
                Some("regex") if tool.takes("regex") && !sent("regex") => self.regex = true,
                Some("callees") if tool.takes("direction") && !sent("direction") => {
                    self.direction = Some("callees".into())
                }
                _ => {}
            }
        }
    }
}

/// The first `max` characters of a value the call sent (a query, a path).
fn first_chars(s: &str, max: usize) -> String {
    crate::budget::cut_chars(s, max).0.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::MAX_LIMIT;
    use serde::{Deserialize, Deserializer};
    use serde_json::json;

    /// The arguments of a JSON object (none for any other JSON).
    fn sent<'de>(v: impl Deserializer<'de>) -> Option<RawArgs> {
        RawArgs::deserialize(v).ok()
    }

    fn args<'de>(v: impl Deserializer<'de>) -> Args {
        Args::from_json(sent(v).as_ref())
    }

    #[test]
    fn argument_name_aliases() {
        for key in ["query", "q", "keyword", "keywords", "text", "search", "name", "Query", "searchQuery", "question"] {
            assert_eq!(args(json!({ key: "add" })).query, "add", "{key}");
        }
        for key in ["target", "project", "repo", "source", "project_name", "projectName", "Project-Name", "repository"]
        {
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
        let a =
            args(json!({ "q": "add", "project": "samples", "limit": "5", "extra": 1, "options": { "deep": true } }));
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
        // Only a word for "all" asks a project's endpoint for every project.
        for (t, every) in [("all", true), ("*", true), ("все", true), ("", false), ("null", false), ("samples", false)]
        {
            assert_eq!(args(json!({ "target": t })).every_project, every, "{t:?}");
        }
        assert!(!args(json!({ "query": "x" })).every_project);
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
        // Except a text search's, whose spaces are part of the literal.
        assert_eq!(for_tool("search_code_text", json!({ "query": " = None " })).query, " = None ");
        assert_eq!(for_tool("search_code_text", json!({ "query": "   " })).query, "");
        assert_eq!(args(json!({ "query": "я".repeat(2000) })).query.chars().count(), MAX_QUERY_CHARS);
        assert_eq!(args(json!({ "query": "😀".repeat(1_000_000) })).query.chars().count(), MAX_QUERY_CHARS);
        assert_eq!(args(json!({ "query": "a\u{0}b" })).query, "a\u{0}b");
    }

    fn for_tool<'de>(tool: &str, v: impl Deserializer<'de>) -> Args {
        Args::for_tool(sent(v).as_ref(), crate::registry::spec(tool))
    }

    #[test]
    fn keys_resolve_by_their_words() {
        for key in [
            "symbol_name",
            "searchString",
            "className",
            "function-name",
            "methodName",
            "pattern_text",
            "the_question",
            "lookup",
        ] {
            assert_eq!(args(json!({ key: "b64encode" })).query, "b64encode", "{key}");
        }
        for key in
            ["repoName", "workspace", "codebase_root", "project_dir", "directory", "root_path", "Workspace-Folder"]
        {
            assert_eq!(args(json!({ key: "samples" })).target.as_deref(), Some("samples"), "{key}");
        }
        for key in
            ["file_uri", "fullPath", "absolute_path", "relativePath", "target_file", "document_uri", "source_file"]
        {
            assert_eq!(args(json!({ key: "src/a.py" })).path.as_deref(), Some("src/a.py"), "{key}");
        }
        for key in ["maxResults", "page_size", "num", "topK", "result_count", "max_hits"] {
            assert_eq!(args(json!({ key: 7 })).limit, 7, "{key}");
        }
        let a = args(json!({ "first_line": 3, "last_line": "9" }));
        assert_eq!((a.start_line, a.end_line), (Some(3), Some(9)));
        for range in
            [json!("44-52"), json!("44:52"), json!("L44-L52"), json!([44, 52]), json!({ "start": 44, "end": 52 })]
        {
            let a = args(json!({ "lines": range.clone() }));
            assert_eq!((a.start_line, a.end_line), (Some(44), Some(52)), "{range}");
            let a = args(json!({ "line_range": range.clone() }));
            assert_eq!((a.start_line, a.end_line), (Some(44), Some(52)), "{range}");
        }
        // A file URI is a path.
        assert_eq!(args(json!({ "uri": "file:///w/a%20b.py" })).path.as_deref(), Some("/w/a b.py"));
        assert_eq!(args(json!({ "file": "file://localhost/w/x.rs" })).path.as_deref(), Some("/w/x.rs"));
        // Flags.
        let a = args(json!({ "q": "a.*b", "isRegex": "true", "ignoreCase": true, "lang": "Python" }));
        assert!(a.regex && !a.case_sensitive);
        assert_eq!(a.language.as_deref(), Some("python"));
        assert!(args(json!({ "substring_pattern": "def \\w+\\(" })).regex);
        assert!(!args(json!({ "pattern": "printf(" })).regex, "plain text stays literal");
        let a = args(json!({ "regex": "fo+" }));
        assert_eq!((a.query.as_str(), a.regex), ("fo+", true));
        // Canonical and alias keys still win over words.
        assert_eq!(args(json!({ "symbol_name": "b", "query": "a" })).query, "a");
        assert_eq!(args(json!({ "repoName": "b", "project": "a" })).target.as_deref(), Some("a"));
    }

    #[test]
    fn the_tool_decides_what_a_lone_or_misplaced_argument_means() {
        // A lone unknown string is the query of a search ...
        assert_eq!(for_tool("search_by_code_functions", json!({ "s": "parse" })).query, "parse");
        // ... and the path of a file tool.
        assert_eq!(for_tool("get_file_content", json!({ "s": "a.py" })).path.as_deref(), Some("a.py"));
        // Two unknown strings: neither is guessed.
        assert_eq!(for_tool("search_by_code_functions", json!({ "s": "parse", "t": "x" })).query, "");
        // A path sent to a tool that reads no file names its project.
        let a = for_tool("show_stats", json!({ "path": "/w/samples" }));
        assert_eq!((a.target.as_deref(), a.path), (Some("/w/samples"), None));
        // show_tree takes a directory: the tool tells a project root from a directory in one.
        let a = for_tool("show_tree", json!({ "path": "/w/samples/src", "max_depth": "2" }));
        assert_eq!((a.target, a.path.as_deref(), a.depth), (None, Some("/w/samples/src"), Some(2)));
        // get_file_ast: the query of a call that names the file is the symbol.
        let a = for_tool("get_file_ast", json!({ "path": "a.py", "symbol": "Calc.add" }));
        assert_eq!((a.path.as_deref(), a.symbol.as_deref()), (Some("a.py"), Some("Calc.add")));
        let a = for_tool("get_file_ast", json!({ "query": "a.py" }));
        assert_eq!((a.query.as_str(), a.symbol), ("a.py", None));
        // An outline's offset is no search window: it goes past 9,000.
        assert_eq!(for_tool("get_file_ast", json!({ "path": "a.py", "offset": 12_345 })).offset, 12_345);
        assert_eq!(for_tool("search_by_code_functions", json!({ "query": "a", "offset": 12_345 })).offset, MAX_OFFSET);
        let a = for_tool("get_file_content", json!({ "path": "a.js", "start_line": 1, "end_line": 1, "column": 4001 }));
        assert_eq!(a.start_char, Some(4001));
        // A file reader's offset and limit are lines.
        let a = for_tool("get_file_content", json!({ "file_path": "a.py", "offset": 10, "limit": 5 }));
        assert_eq!((a.start_line, a.end_line, a.offset, a.limit), (Some(10), Some(14), 0, DEFAULT_LIMIT));
        let a = for_tool("get_file_content", json!({ "path": "a.py", "head": 20 }));
        assert_eq!((a.start_line, a.end_line), (Some(1), Some(20)));
        // ... while a search's offset is its page.
        assert_eq!(for_tool("search_by_code_functions", json!({ "query": "a", "offset": 10 })).offset, 10);
    }
}
