//! The answers about the whole index: `admin_sync`, `show_projects`,
//! `show_stats` and `show_tree` (its tree, or its ranked map).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::FileResult;

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
    pub total_files: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_dirs: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u64>,
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
