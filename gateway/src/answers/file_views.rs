//! What `get_file_content` and `get_file_ast` answer of one file.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Line;

/// `get_file_content`: lines (or, of one long line, characters) of a file.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Content {
    pub total_lines: Option<u64>,
    pub content: String,
    pub start_line: Option<Line>,
    pub end_line: Option<Line>,
    pub start_char: Option<Line>,
    pub end_char: Option<u64>,
    pub line_chars: Option<u64>,
    pub truncated: Option<bool>,
    pub next_start_line: Option<Line>,
    pub next_start_char: Option<Line>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shortened_lines: Vec<Line>,
    // The endpoint's note (a target it did not know).
    pub note: Option<String>,
}

/// An element of an outline ([`crate::tools::outline`]), short or, for the
/// elements `symbol` names, whole.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct OutlineElement {
    pub name: String,
    // An element kind, or `heading`.
    pub kind: String,
    pub owner: Option<String>,
    pub level: Option<u64>,
    pub lines: Option<String>,
    pub signature: Option<String>,
    pub doc: Option<String>,
    pub code: Option<String>,
    pub code_skip: Option<String>,
}

/// `get_file_ast`: the outline (`elements`), or with `symbol` the elements
/// of that name in full (`matches`).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Outline {
    pub license: Option<String>,
    pub header: Option<String>,
    pub frontmatter: Option<Frontmatter>,
    pub imports: Option<ImportsShown>,
    pub links_total: Option<u64>,
    pub code_blocks_total: Option<u64>,
    pub total_elements: Option<u64>,
    pub elements: Option<Vec<OutlineElement>>,
    pub symbol: Option<String>,
    pub matches: Option<Vec<OutlineElement>>,
    pub total_members: Option<u64>,
    pub members: Option<Vec<OutlineElement>>,
    pub truncated: Option<bool>,
    pub next_offset: Option<u64>,
    pub note: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Frontmatter {
    pub title: Option<String>,
    pub description: Option<String>,
    pub other_keys: Option<u64>,
}

/// The first imports of a file, and how many it has.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct ImportsShown {
    pub total: u64,
    pub first: Vec<String>,
}
