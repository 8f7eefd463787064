//! The meta document of a project (index `<prefix>_meta`, id = the project
//! hash), one type for both sides: the indexer writes it after each run; the
//! next run (owners, index format), the CLI (`stats`) and the gateway
//! (`show_projects`, targets) read it. A reader that asks for some fields
//! only (`_source` filtering, e.g. `license.spdx_id`) gets the others at
//! their defaults: every struct here reads with `#[serde(default)]`.

use serde::{Deserialize, Serialize};

use crate::config::Site;

/// One project's meta document.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProjectMeta {
    /// The source's absolute root.
    pub root: String,
    pub name: String,
    /// [`crate::backend::naming::project_hash`] of the root; the document's id.
    pub hash: String,
    /// The LLM's summary, else the README's first paragraph; empty = none.
    pub summary: String,
    pub license: Option<LicenseInfo>,
    pub readme: Option<Readme>,
    pub stats: SourceStats,
    /// The generation suffix of the project's live indices.
    pub generation: String,
    /// The index format the project was built with (empty before formats were recorded).
    pub index_format: String,
    /// Milliseconds since the Unix epoch.
    pub indexed_at: u64,
    /// Ids of the configs that index it (empty before configs had ids).
    pub owners: Vec<String>,
    /// Where each owner id wrote it from (empty before sites were recorded).
    pub writers: Vec<Writer>,
}

impl ProjectMeta {
    /// The document of a hit's `_source` (or a `_doc` answer's). A source
    /// that does not read as one (a field of another type) is logged and
    /// reads as an empty document.
    pub fn from_source(source: &serde_json::Value) -> Self {
        Self::deserialize(source).unwrap_or_else(|e| {
            tracing::warn!(error = %e, "a project's meta document does not read; its fields are left empty");
            Self::default()
        })
    }

    /// The summary, when there is one.
    pub fn summary(&self) -> Option<&str> {
        Some(self.summary.as_str()).filter(|s| !s.is_empty())
    }
}

/// One owner id writing a project from one host and config directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Writer {
    pub id: String,
    #[serde(flatten)]
    pub site: Site,
}

/// The license of a source.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LicenseInfo {
    /// The license file, relative to the source root.
    pub path: String,
    /// The SPDX id, when the best match scored at least the detector's minimum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spdx_id: Option<String>,
    /// Similarity of the best match, 0.0 to 1.0.
    pub score: f32,
}

/// A source's README.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Readme {
    /// Path relative to the source root, with forward slashes.
    pub path: String,
    /// The content, read lossily, cut on a character boundary.
    pub content: String,
    /// True if the content was cut.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// Files without a language are counted under this name.
pub const OTHER_LANGUAGE: &str = "Other";

/// Statistics of one language within a source.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LanguageStats {
    pub language: String,
    pub files: u64,
    pub lines: u64,
    pub ast_objects: u64,
    pub size: u64,
}

/// Statistics of one source. Counts every file whose content was read
/// (text and binary); symlinks, special files and unreadable files are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SourceStats {
    pub files: u64,
    pub text_files: u64,
    pub binary_files: u64,
    pub lines: u64,
    pub ast_objects: u64,
    pub total_size: u64,
    /// Sorted by lines, descending (then by name), once [`SourceStats::finish`] ran.
    pub languages: Vec<LanguageStats>,
}

/// What one file adds to [`SourceStats`].
#[derive(Debug, Clone, Copy, Default)]
pub struct FileCounts<'a> {
    pub language: Option<&'a str>,
    pub binary: bool,
    pub lines: u64,
    pub size: u64,
    pub ast_objects: u64,
}

impl SourceStats {
    /// Add one file.
    pub fn add_counts(&mut self, file: FileCounts<'_>) {
        self.files += 1;
        if file.binary {
            self.binary_files += 1;
        } else {
            self.text_files += 1;
        }
        self.lines += file.lines;
        self.ast_objects += file.ast_objects;
        self.total_size += file.size;
        let name = file.language.unwrap_or(OTHER_LANGUAGE);
        let idx = match self.languages.iter().position(|l| l.language == name) {
            Some(i) => i,
            None => {
                self.languages.push(LanguageStats { language: name.to_string(), ..Default::default() });
                self.languages.len() - 1
            }
        };
        let l = &mut self.languages[idx];
        l.files += 1;
        l.lines += file.lines;
        l.ast_objects += file.ast_objects;
        l.size += file.size;
    }

    /// Sort languages by lines, descending.
    pub fn finish(&mut self) {
        self.languages.sort_by(|a, b| b.lines.cmp(&a.lines).then_with(|| a.language.cmp(&b.language)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_partial_source_reads_with_defaults_and_a_full_one_round_trips() {
        let partial: ProjectMeta = serde_json::from_value(json!({ "root": "/r", "owners": ["a"] })).unwrap();
        assert_eq!((partial.root.as_str(), partial.owners.len(), partial.summary()), ("/r", 1, None));
        // What show_projects asks for (search-templates/show_projects.mustache).
        let listed = json!({ "root": "/r", "license": { "spdx_id": "MIT" }, "stats": { "files": 3, "lines": 9 } });
        let listed: ProjectMeta = serde_json::from_value(listed).unwrap();
        assert_eq!((listed.license.unwrap().spdx_id.as_deref(), listed.stats.files), (Some("MIT"), 3));
        let mut stats = SourceStats::default();
        stats.add_counts(FileCounts { language: Some("Rust"), lines: 3, size: 40, ast_objects: 2, binary: false });
        stats.add_counts(FileCounts { language: None, lines: 9, ..Default::default() });
        stats.finish();
        assert_eq!(stats.languages.iter().map(|l| l.language.as_str()).collect::<Vec<_>>(), [OTHER_LANGUAGE, "Rust"]);
        let meta = ProjectMeta {
            root: "/r".into(),
            summary: "Adds.".into(),
            readme: Some(Readme { path: "README.md".into(), content: "# R".into(), truncated: false }),
            stats,
            writers: vec![Writer { id: "i".into(), site: Site { host: "h".into(), config_dir: "/c".into() } }],
            ..Default::default()
        };
        let text = serde_json::to_value(&meta).unwrap();
        assert_eq!(text["writers"][0], json!({ "id": "i", "host": "h", "config_dir": "/c" }));
        assert_eq!(text["stats"]["files"], 2);
        assert_eq!(serde_json::from_value::<ProjectMeta>(text).unwrap(), meta);
    }
}
