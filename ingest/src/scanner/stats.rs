//! Per-source statistics, accumulated file by file.

use super::{ScannedFile, SkipReason};
use serde::{Deserialize, Serialize};

/// Files without a language are counted under this name.
pub const OTHER_LANGUAGE: &str = "Other";

/// Statistics of one language within a source.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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

impl SourceStats {
    /// True if the file is counted in statistics.
    pub fn counts(file: &ScannedFile) -> bool {
        !matches!(file.skipped, Some(SkipReason::Symlink | SkipReason::Special | SkipReason::Unreadable))
    }

    /// Add one file.
    pub fn add(&mut self, file: &ScannedFile) {
        if !Self::counts(file) {
            return;
        }
        let objects = file.ast.as_ref().map_or(0, |a| a.object_count() as u64);
        self.files += 1;
        if file.binary {
            self.binary_files += 1;
        } else {
            self.text_files += 1;
        }
        self.lines += file.lines;
        self.ast_objects += objects;
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
        l.ast_objects += objects;
        l.size += file.size;
    }

    /// Sort languages by lines, descending.
    pub fn finish(&mut self) {
        self.languages.sort_by(|a, b| b.lines.cmp(&a.lines).then_with(|| a.language.cmp(&b.language)));
    }
}
