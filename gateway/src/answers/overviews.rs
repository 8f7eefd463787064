//! The answers about the whole index: `admin_sync`, `show_projects`,
//! `show_stats` and `show_tree` (its tree, or its ranked map).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{DefinitionHead, FileResult};

/// `admin_sync`: whether a run started.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SyncAnswer {
    pub result: SyncResult,
    pub message: String,
    pub running_secs: Option<u64>,
    pub progress: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum SyncResult {
    Started,
    AlreadyRunning,
}

/// `show_projects`: the indexed projects, and the last `admin_sync`.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ProjectsAnswer {
    pub projects: Vec<ProjectShown>,
    pub total: u64,
    pub truncated: bool,
    pub sync: Option<SyncState>,
    pub next_offset: Option<u64>,
    pub note: Option<String>,
}

#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct ProjectShown {
    pub path: String,
    pub name: String,
    pub summary: Option<String>,
    pub indexed_at: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owners: Vec<String>,
    pub last_sync: Option<String>,
}

/// The last or running `admin_sync`.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SyncState {
    pub state: RunState,
    pub running_secs: Option<u64>,
    pub progress: Option<String>,
    // `null` when the run said nothing.
    #[schemars(extend("x-nullable" = true))]
    pub outcome: Option<Option<String>>,
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
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct StatsAnswer {
    #[serialize_always]
    pub target: Option<String>,
    pub languages: Vec<LanguageSize>,
    pub total: TotalSize,
    pub note: Option<String>,
    pub more_languages: Option<u64>,
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

#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct TotalSize {
    #[serde(flatten)]
    pub sizes: Sizes,
    pub projects: Option<u64>,
}

/// `show_tree`: the tree, or with `symbols` the ranked map (files with the
/// definitions used by the most files, [`crate::tools::map`]).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema)]
pub struct TreeAnswer {
    #[serialize_always]
    pub target: Option<String>,
    pub path: Option<String>,
    pub total_files: Option<u64>,
    pub total_dirs: Option<u64>,
    pub tree: Option<String>,
    pub depth: Option<u64>,
    pub total: Option<u64>,
    pub results: Option<Vec<FileResult<MapMatches>>>,
    pub truncated: bool,
    pub note: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct MapMatches {
    pub matches: Vec<MapDefinition>,
}

/// A definition of the ranked map, with how many files use it.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct MapDefinition {
    #[serde(flatten)]
    pub head: DefinitionHead,
    pub used_in: u64,
}
