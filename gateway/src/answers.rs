//! The shape of every tool's answer, as Rust types: each [`Run`] (the code
//! that shapes an answer, see [`crate::registry`]) answers one of them, and
//! the tools that share code share a type (the three symbol searches,
//! `search_documentation` and its alias). They serialize to the answers'
//! JSON, and each tool's `outputSchema` is derived from its type
//! ([`crate::answer_schema`], with schemars).
//!
//! A field that may be left out is an `Option` (or a list) skipped when
//! empty; an `Option` that is always written is `null` where the index has
//! nothing (`language` of a file of no known language). Field comments are
//! `//`, not doc comments: the schema stays without descriptions.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use vibe_common::document::kinds::ReferenceKind;
use vibe_common::document::shown::Shown;

/// An answer as the JSON the rest of the call works on (stale marks, the
/// budget guard, the renderer).
pub fn to_value<T: Serialize>(answer: &T) -> serde_json::Value {
    // Answers hold strings, numbers, lists and maps with string keys only.
    serde_json::to_value(answer).unwrap_or_default()
}

/// The header of a file answer: its project's root, path and language as
/// the document has them (`_source`), freshness to come.
impl<B> FileAnswer<B> {
    pub fn of(source: &serde_json::Value, body: B) -> Self {
        let text = |key: &str| source[key].as_str().map(str::to_string);
        FileAnswer {
            root: text("root"),
            path: text("path").unwrap_or_default(),
            language: text("language"),
            freshness: Freshness::default(),
            body,
            message: None,
        }
    }
}

impl Freshness {
    /// The size the index recorded of the file (from its disk mark, before
    /// [`crate::tools::stale_marks::settle`] removes it).
    pub fn indexed_size(&self) -> Option<u64> {
        self.disk_mark.as_ref()?[2].as_u64()
    }
}

impl<R, X> Page<R, X> {
    /// Appends a sentence to the page's `note`.
    pub fn add_note(&mut self, note: &str) {
        self.note = Some(match self.note.take().filter(|n| !n.is_empty()) {
            Some(old) => format!("{old}; {note}"),
            None => note.to_string(),
        });
    }
}

impl<M> FileResult<M> {
    /// The same file with `found` in it instead.
    pub fn with<N>(self, found: N) -> FileResult<N> {
        FileResult { project: self.project, path: self.path, language: self.language, freshness: self.freshness, found }
    }
}

impl From<&Shown<'_>> for SymbolMatch {
    /// A definition as the index shows it, without its code.
    fn from(s: &Shown<'_>) -> Self {
        SymbolMatch {
            name: s.name.to_string(),
            kind: s.kind.name().to_string(),
            owner: s.owner.as_deref().map(str::to_string),
            lines: s.lines.clone(),
            signature: Some(s.signature.clone()),
            doc: s.doc.as_deref().map(str::to_string),
            code: None,
            code_lines: None,
            code_skip: None,
            called_by: None,
        }
    }
}

impl From<&Shown<'_>> for TypeLink {
    /// A type as the index shows it, its depth and supertypes to come.
    fn from(s: &Shown<'_>) -> Self {
        TypeLink {
            name: s.name.to_string(),
            kind: s.kind.name().to_string(),
            owner: s.owner.as_deref().map(str::to_string),
            lines: s.lines.clone(),
            signature: Some(s.signature.clone()),
            depth: None,
            extends: Vec::new(),
        }
    }
}

/// A line number (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Line(pub u64);

impl JsonSchema for Line {
    fn schema_name() -> Cow<'static, str> {
        "Line".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({ "type": "integer", "minimum": 1 })
    }
}

/// How fresh a file in an answer is ([`crate::tools::stale_marks`]).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Freshness {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stale: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deleted: Option<bool>,
    // Other files with the same content ([`crate::tools::answer::merge_identical`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub same_content: Vec<String>,
    // What the index recorded of the file, for `stale_marks::settle` to
    // compare with the disk (and remove): never part of an answer.
    #[serde(rename = "_disk", default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    pub disk_mark: Option<serde_json::Value>,
}

/// A file in a search's results, and what matched in it (`M`).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct FileResult<M> {
    pub project: String,
    pub path: String,
    pub language: Option<String>,
    #[serde(flatten)]
    pub freshness: Freshness,
    #[serde(flatten)]
    pub found: M,
}

/// A page of search results ([`crate::tools::answer::paged`]); `X`: the
/// fields of one tool's page beside them.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Page<R, X = NoMore> {
    pub query: String,
    pub total: u64,
    pub truncated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub results: Vec<R>,
    #[serde(flatten)]
    pub more: X,
}

/// No fields beside a page's own.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct NoMore {}

/// One file's header in `get_file_content` and `get_file_ast` (`root` and
/// `language` are `null` when no file matched), and the answer's own fields.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct FileAnswer<B> {
    pub root: Option<String>,
    pub path: String,
    pub language: Option<String>,
    #[serde(flatten)]
    pub freshness: Freshness,
    #[serde(flatten)]
    pub body: B,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// `admin_sync`: whether a run started.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SyncAnswer {
    pub result: SyncResult,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running_secs: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum SyncResult {
    Started,
    AlreadyRunning,
}

/// `get_file_content`: lines (or, of one long line, characters) of a file.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Content {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_lines: Option<u64>,
    pub content: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_line: Option<Line>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<Line>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_char: Option<Line>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_char: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_chars: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_start_line: Option<Line>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_start_char: Option<Line>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shortened_lines: Vec<Line>,
}

/// An element of an outline ([`crate::tools::outline`]), short or, for the
/// elements `symbol` names, whole.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct OutlineElement {
    pub name: String,
    // An element kind, or `heading`.
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_skip: Option<String>,
}

/// `get_file_ast`: the outline (`elements`), or with `symbol` the elements
/// of that name in full (`matches`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Outline {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frontmatter: Option<Frontmatter>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imports: Option<ImportsShown>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub links_total: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_blocks_total: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_elements: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elements: Option<Vec<OutlineElement>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<OutlineElement>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_members: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub members: Option<Vec<OutlineElement>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Frontmatter {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_keys: Option<u64>,
}

/// The first imports of a file, and how many it has.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct ImportsShown {
    pub total: u64,
    pub first: Vec<String>,
}

/// `show_projects`: the indexed projects, and the last `admin_sync`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ProjectsAnswer {
    pub projects: Vec<ProjectShown>,
    pub total: u64,
    pub truncated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sync: Option<SyncState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct ProjectShown {
    pub path: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed_at: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owners: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_sync: Option<String>,
}

/// The last or running `admin_sync`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SyncState {
    pub state: RunState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running_secs: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<String>,
    // `null` when the run said nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-nullable" = true))]
    pub outcome: Option<Option<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RunState {
    Running,
    Ok,
    Failed,
}

/// `show_stats`: files, lines, AST objects and size per language.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct StatsAnswer {
    pub target: Option<String>,
    pub languages: Vec<LanguageSize>,
    pub total: TotalSize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more_languages: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Sizes {
    pub files: u64,
    pub lines: u64,
    pub ast_objects: u64,
    pub size_human: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct LanguageSize {
    pub language: String,
    #[serde(flatten)]
    pub sizes: Sizes,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct TotalSize {
    #[serde(flatten)]
    pub sizes: Sizes,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub projects: Option<u64>,
}

/// `show_tree`: the tree, or with `symbols` the ranked map (files with the
/// definitions used by the most files, [`crate::tools::map`]).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct TreeAnswer {
    pub target: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_files: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_dirs: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub results: Option<Vec<FileResult<MapMatches>>>,
    pub truncated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct MapMatches {
    pub matches: Vec<MapDefinition>,
}

/// A definition of the ranked map, with how many files use it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct MapDefinition {
    pub name: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<String>,
    pub signature: Option<String>,
    pub used_in: u64,
}

/// `search_by_code_imports`: each file's imports that match.
pub type ImportsAnswer = Page<FileResult<ImportsFound>>;

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ImportsFound {
    pub imports: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more_imports: Option<u64>,
}

/// The three symbol searches: each file's matching definitions.
pub type SymbolsAnswer = Page<FileResult<SymbolsFound>>;

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SymbolsFound {
    pub matches: Vec<SymbolMatch>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more_matches: Option<u64>,
    // The best file's other lines holding a question's words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub word_lines: Vec<LineHit>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SymbolMatch {
    pub name: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<String>,
    pub signature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_lines: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_skip: Option<String>,
    // A callee of the best match, shown after the match that calls it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub called_by: Option<String>,
}

/// A line of a file, with the definition it is in.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct LineHit {
    pub line: Line,
    pub text: String,
    // A line shown around a hit, not a hit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<bool>,
    #[serde(rename = "in", default, skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
}

/// `search_documentation`: each document's sections that match (Markdown:
/// no `language`).
pub type DocumentationAnswer = Page<DocResult>;

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DocResult {
    pub project: String,
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub sections: Vec<DocSection>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more_sections: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_headings: Vec<String>,
    pub headings_total: u64,
    #[serde(flatten)]
    pub freshness: Freshness,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DocSection {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<String>,
    pub lines: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passage: Option<String>,
}

/// `search_code_text`: each file's matching lines.
pub type TextAnswer = Page<FileResult<TextFound>, TextPage>;

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct TextFound {
    pub matches: Vec<LineHit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more_matches: Option<u64>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct TextPage {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_exact: Option<bool>,
    // The page's first file among the matching files, past the first page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<Line>,
}

/// `find_references` and its directions: each file's uses, calls or types.
pub type ReferencesAnswer = Page<FileResult<Uses>, ReferencesPage>;

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Uses {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub references: Option<Vec<Use>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub calls: Option<Vec<Call>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub types: Option<Vec<TypeLink>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more_references: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub more_calls: Option<u64>,
}

/// A use of the name asked for.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Use {
    pub line: Line,
    pub kind: ReferenceKind,
    #[serde(rename = "in", default, skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A name the definition asked for uses, and where.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Call {
    pub name: String,
    #[serde(flatten)]
    pub at: Use,
}

/// A subtype or supertype.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct TypeLink {
    pub name: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<String>,
    pub signature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extends: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct ReferencesPage {
    // The way other than `callers` (the default, not written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<AnswerDirection>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_indexed: Vec<String>,
}

/// The direction an answer of `find_references` went, when not `callers`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnswerDirection {
    Callees,
    Subtypes,
    Supertypes,
}
