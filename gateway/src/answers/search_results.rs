//! The answers of the searches: pages of files with what matched in each.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use vibe_common::document::kinds::ReferenceKind;
use vibe_common::document::shown::Shown;

use super::{FileResult, Freshness, Line, Page};

/// `search_by_code_imports`: each file's imports that match.
pub type ImportsAnswer = Page<FileResult<ImportsFound>>;

#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ImportsFound {
    pub imports: Vec<String>,
    pub more_imports: Option<u64>,
}

/// The three symbol searches: each file's matching definitions.
pub type SymbolsAnswer = Page<FileResult<SymbolsFound>>;

#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SymbolsFound {
    pub matches: Vec<SymbolMatch>,
    pub more_matches: Option<u64>,
    // The best file's other lines holding a question's words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub word_lines: Vec<LineHit>,
}

/// What an answer shows first of a definition, wherever it lists one: a
/// search's match, a subtype or supertype, an entry of the ranked map.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DefinitionHead {
    pub name: String,
    pub kind: String,
    pub owner: Option<String>,
    pub lines: Option<String>,
    #[serialize_always]
    pub signature: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SymbolMatch {
    #[serde(flatten)]
    pub head: DefinitionHead,
    pub doc: Option<String>,
    pub code: Option<String>,
    pub code_lines: Option<String>,
    pub code_skip: Option<String>,
    // A callee of the best match, shown after the match that calls it.
    pub called_by: Option<String>,
    // The definitions of the named values it reads (the best match and its callee).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<NamedValue>,
    /// The named values it reads, as the index recorded them: what
    /// `values` is looked up from, never sent.
    #[serde(skip)]
    #[schemars(skip)]
    pub reads: Vec<String>,
}

/// A named value a definition reads, where it is defined: `MAX_RETRIES = 5`
/// at line 12 of `path` (its own file when `path` is absent).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct NamedValue {
    pub name: String,
    // Its definition's line, as written.
    pub text: String,
    pub path: Option<String>,
    pub line: Line,
}

/// A line of a file, with the definition it is in.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct LineHit {
    pub line: Line,
    pub text: String,
    // A line shown around a hit, not a hit.
    pub context: Option<bool>,
    #[serde(rename = "in", default, skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
}

/// `search_documentation`: each document's sections that match (Markdown:
/// no `language`).
pub type DocumentationAnswer = Page<DocResult>;

#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DocResult {
    pub project: String,
    pub path: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub sections: Vec<DocSection>,
    pub more_sections: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_headings: Vec<String>,
    pub headings_total: u64,
    #[serde(flatten)]
    pub freshness: Freshness,
}

#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct DocSection {
    pub heading: Option<String>,
    pub lines: String,
    pub passage: Option<String>,
}

/// `search_code_text`: each file's matching lines.
pub type TextAnswer = Page<FileResult<TextFound>, TextPage>;

#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct TextFound {
    pub matches: Vec<LineHit>,
    pub more_matches: Option<u64>,
    // The definitions of the named values the matching lines read, when
    // no shown line holds them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<NamedValue>,
}

#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct TextPage {
    pub total_exact: Option<bool>,
    // The page's first file among the matching files, past the first page.
    pub first: Option<Line>,
}

/// `find_references` and its directions: each file's uses, calls or types.
pub type ReferencesAnswer = Page<FileResult<Uses>, ReferencesPage>;

#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Uses {
    pub references: Option<Vec<Use>>,
    pub calls: Option<Vec<Call>>,
    pub types: Option<Vec<TypeLink>>,
    pub more_references: Option<u64>,
    pub more_calls: Option<u64>,
}

/// A use of the name asked for.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Use {
    pub line: Line,
    pub kind: ReferenceKind,
    #[serde(rename = "in", default, skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
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
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct TypeLink {
    #[serde(flatten)]
    pub head: DefinitionHead,
    pub depth: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extends: Vec<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct ReferencesPage {
    // The way other than `callers` (the default, not written).
    pub direction: Option<AnswerDirection>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_indexed: Vec<String>,
}

/// Which way `find_references` goes (`direction`; its input schema lists
/// [`Direction::ALL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Where the symbol is used (default).
    Callers,
    /// What the symbol's body uses.
    Callees,
    /// The types that extend or implement it ([`crate::tools::hierarchy`]).
    Subtypes,
    /// The types it extends or implements, up the chain.
    Supertypes,
}

impl Direction {
    pub const ALL: [Direction; 4] =
        [Direction::Callers, Direction::Callees, Direction::Subtypes, Direction::Supertypes];

    /// The name a call gives it.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Callers => "callers",
            Direction::Callees => "callees",
            Direction::Subtypes => "subtypes",
            Direction::Supertypes => "supertypes",
        }
    }
}

/// The direction an answer of `find_references` went, when not `callers`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnswerDirection {
    Callees,
    Subtypes,
    Supertypes,
}

impl From<&Shown<'_>> for DefinitionHead {
    /// A definition's head as the index shows it.
    fn from(s: &Shown<'_>) -> Self {
        DefinitionHead {
            name: s.name.to_string(),
            kind: s.kind.name().to_string(),
            owner: s.owner.as_deref().map(str::to_string),
            lines: s.lines.clone(),
            signature: Some(s.signature.clone()),
        }
    }
}

impl From<&Shown<'_>> for SymbolMatch {
    /// A definition as the index shows it, without its code.
    fn from(s: &Shown<'_>) -> Self {
        SymbolMatch {
            head: DefinitionHead::from(s),
            doc: s.doc.as_deref().map(str::to_string),
            code: None,
            code_lines: None,
            code_skip: None,
            called_by: None,
            values: Vec::new(),
            reads: s.reads.iter().map(|r| r.to_string()).collect(),
        }
    }
}

impl From<&Shown<'_>> for TypeLink {
    /// A type as the index shows it, its depth and supertypes to come.
    fn from(s: &Shown<'_>) -> Self {
        TypeLink { head: DefinitionHead::from(s), depth: None, extends: Vec::new() }
    }
}
