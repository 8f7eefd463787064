//! What `get_file_content` and `get_file_ast` answer of one file.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Line;

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
    // The endpoint's note (a target it did not know).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
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
