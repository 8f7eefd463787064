//! Per-source statistics, accumulated file by file. The counts themselves
//! are the meta document's ([`vibe_common::document::project_meta::SourceStats`]);
//! [`CountFile`] adds a scanned file to them.

use super::{ScannedFile, SkipReason};
pub use vibe_common::document::project_meta::{FileCounts, LanguageStats, SourceStats, OTHER_LANGUAGE};

/// Adding scanned files to [`SourceStats`].
pub trait CountFile {
    /// True if the file is counted in statistics.
    fn counts(file: &ScannedFile) -> bool;
    /// Add one file (nothing when it is not counted).
    fn add(&mut self, file: &ScannedFile);
}

impl CountFile for SourceStats {
    fn counts(file: &ScannedFile) -> bool {
        !matches!(file.skipped, Some(SkipReason::Symlink | SkipReason::Special | SkipReason::Unreadable))
    }

    fn add(&mut self, file: &ScannedFile) {
        if !Self::counts(file) {
            return;
        }
        self.add_counts(FileCounts {
            language: file.language,
            binary: file.binary,
            lines: file.lines,
            size: file.size,
            ast_objects: file.ast.as_ref().map_or(0, |a| a.object_count() as u64),
        });
    }
}
