//! The parameters a tool may take, each with its canonical name and the
//! few words of JSON Schema `tools/list` sends for it (the tool list goes
//! with every request a client makes, so each description is short).

use schemars::{json_schema, Schema};
use vibe_common::document::kinds::ReferenceKind;

/// Default number of results.
pub const DEFAULT_LIMIT: u32 = 3;
/// Maximum number of results (also what `"all"` means).
pub const MAX_LIMIT: u32 = 10;

/// A tool parameter. The canonical argument names are [`Param::name`]; the
/// argument resolver maps whatever a client sends onto them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// `query`, with what it holds for this tool.
    Query(&'static str),
    Target,
    /// `path`: one file.
    Path,
    /// `path`: a glob over file paths (search_code_text).
    PathGlob,
    StartLine,
    EndLine,
    Limit,
    Offset,
    /// `offset` into a list held in memory (an outline, the projects): no maximum.
    ListOffset,
    Regex,
    CaseSensitive,
    Language,
    /// `kind` of reference (find_references).
    RefKind,
    /// `direction`: callers or callees (find_references).
    Direction,
    /// `symbol`: one element of a file (get_file_ast).
    Symbol,
    /// `path`: a directory of a project (show_tree).
    Dir,
    /// `depth`: directory levels shown (show_tree).
    Depth,
    /// `start_char`: where a part of one long line starts (get_file_content).
    StartChar,
    /// `context`: lines around each matching line (search_code_text).
    Context,
    /// `symbols`: the ranked map instead of the tree (show_tree).
    Symbols,
}

impl Param {
    pub fn name(self) -> &'static str {
        match self {
            Param::Query(_) => "query",
            Param::Target => "target",
            Param::Path | Param::PathGlob | Param::Dir => "path",
            Param::StartLine => "start_line",
            Param::EndLine => "end_line",
            Param::Limit => "limit",
            Param::Offset | Param::ListOffset => "offset",
            Param::Regex => "regex",
            Param::CaseSensitive => "case_sensitive",
            Param::Language => "language",
            Param::RefKind => "kind",
            Param::Direction => "direction",
            Param::Symbol => "symbol",
            Param::Depth => "depth",
            Param::StartChar => "start_char",
            Param::Context => "context",
            Param::Symbols => "symbols",
        }
    }

    /// The parameter's JSON Schema: a few words each, as the tool list is
    /// sent with every request (the gateway reads arguments leniently and
    /// clamps numbers, so the schema need not say every bound).
    pub fn schema(self) -> Schema {
        let (kind, description) = match self {
            Param::Query(what) => ("string", what),
            Param::Target => ("string", "Project"),
            Param::Path => ("string", "e.g. src/main.rs"),
            Param::PathGlob => ("string", "Glob, e.g. *.py"),
            Param::StartLine => ("integer", "First line"),
            Param::EndLine => ("integer", "Last line"),
            Param::StartChar => ("integer", "Of a long line"),
            Param::Depth => ("integer", "Levels"),
            Param::Limit => {
                return json_schema!({ "type": "integer", "description": LIMIT_WORDS, "default": DEFAULT_LIMIT })
            }
            Param::Offset | Param::ListOffset => ("integer", "From next_offset"),
            Param::Regex => ("boolean", "Regex query"),
            Param::CaseSensitive => ("boolean", "Default true"),
            Param::Language => ("string", "e.g. python"),
            Param::RefKind => {
                return json_schema!({ "type": "string", "description": "Default: all", "enum": ReferenceKind::ALL.map(ReferenceKind::name) })
            }
            Param::Direction => {
                return json_schema!({
                    "type": "string",
                    "description": "Default: callers",
                    "enum": crate::answers::Direction::ALL.map(crate::answers::Direction::name)
                })
            }
            Param::Symbol => ("string", "One element, e.g. Map.put"),
            Param::Dir => ("string", "A directory"),
            Param::Context => ("integer", "Lines around hits"),
            Param::Symbols => ("boolean", "Ranked map"),
        };
        json_schema!({ "type": kind, "description": description })
    }
}

/// What `limit` says, with [`MAX_LIMIT`].
const LIMIT_WORDS: &str = "1-10";
const _: () = assert!(MAX_LIMIT == 10, "LIMIT_WORDS names it");
