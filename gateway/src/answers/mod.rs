//! The shape of every tool's answer, as Rust types: each [`Run`](crate::registry::Run) (the code
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
use vibe_common::document::content_doc::ContentDoc;

mod every_answer;
mod file_views;
mod overviews;
mod search_results;

pub use every_answer::*;
pub use file_views::*;
pub use overviews::*;
pub use search_results::*;

/// What the index recorded of a file an answer names: where it is, its
/// language, and what its freshness is told from (hash, size, modification
/// time and when it was indexed, in epoch milliseconds). Read from a
/// document's `_source` or its doc values ([`crate::search_hits::Hit::read`]);
/// a number of another shape reads as missing.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct IndexedFile {
    pub root: Option<String>,
    pub path: String,
    pub language: Option<String>,
    pub hash: Option<String>,
    #[serde(deserialize_with = "number_or_missing")]
    pub size: Option<u64>,
    #[serde(deserialize_with = "number_or_missing")]
    pub mtime: Option<u64>,
    #[serde(deserialize_with = "number_or_missing")]
    pub indexed_at: Option<u64>,
}

/// A whole number, or `None` for anything else.
fn number_or_missing<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Sent {
        Number(u64),
        Other(serde::de::IgnoredAny),
    }
    Ok(match Sent::deserialize(d)? {
        Sent::Number(n) => Some(n),
        Sent::Other(_) => None,
    })
}

impl From<&ContentDoc<'_>> for IndexedFile {
    fn from(doc: &ContentDoc<'_>) -> IndexedFile {
        IndexedFile {
            root: Some(doc.root.to_string()),
            path: doc.path.to_string(),
            language: doc.language.as_deref().map(str::to_string),
            hash: Some(doc.hash.to_string()),
            size: Some(doc.size),
            mtime: Some(doc.mtime),
            indexed_at: Some(doc.indexed_at),
        }
    }
}

/// The header of a file answer: its project's root, path and language as
/// the index has them, freshness to come.
impl<B> FileAnswer<B> {
    pub fn of(file: &IndexedFile, body: B) -> Self {
        FileAnswer {
            root: file.root.clone(),
            path: file.path.clone(),
            language: file.language.clone(),
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
        self.disk_mark.as_ref().map(|m| m.size)
    }
}

impl<R, X> Page<R, X> {
    /// Appends a sentence to the page's `note`.
    pub fn add_note(&mut self, note: &str) {
        join_note(&mut self.note, note);
    }
}

impl<M> FileResult<M> {
    /// The same file with `found` in it instead.
    pub fn with<N>(self, found: N) -> FileResult<N> {
        FileResult { project: self.project, path: self.path, language: self.language, freshness: self.freshness, found }
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
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct Freshness {
    pub hash: Option<String>,
    pub indexed_at: Option<String>,
    pub stale: Option<bool>,
    pub deleted: Option<bool>,
    // Other files with the same content ([`Answer::merge_identical`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub same_content: Vec<String>,
    // What the index recorded of the file, for `stale_marks::settle` to
    // compare with the disk (and remove): never part of an answer.
    #[serde(skip)]
    #[schemars(skip)]
    pub disk_mark: Option<DiskMark>,
}

/// What the index recorded of a file an answer names: where it is, its
/// size and modification time, when it was indexed, and whether the answer
/// says `stale: false` when it did not change (a file answer does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiskMark {
    pub root: String,
    pub path: String,
    pub size: u64,
    pub mtime: u64,
    pub indexed_at: u64,
    pub say_fresh: bool,
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
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Page<R, X = NoMore> {
    pub query: String,
    pub total: u64,
    pub truncated: bool,
    pub next_offset: Option<u64>,
    pub note: Option<String>,
    pub results: Vec<R>,
    #[serde(flatten)]
    pub more: X,
}

/// No fields beside a page's own.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct NoMore {}

/// One file's header in `get_file_content` and `get_file_ast` (`root` and
/// `language` are `null` when no file matched), and the answer's own fields.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct FileAnswer<B> {
    #[serialize_always]
    pub root: Option<String>,
    pub path: String,
    #[serialize_always]
    pub language: Option<String>,
    #[serde(flatten)]
    pub freshness: Freshness,
    #[serde(flatten)]
    pub body: B,
    pub message: Option<String>,
}
