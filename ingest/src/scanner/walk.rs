//! The directory walker: `.gitignore`/`.ignore` aware (also outside git
//! repositories), hidden files included, symlinks not followed, and a fixed
//! set of directories and files excluded by default.

use ignore::{DirEntry, WalkBuilder};
use std::path::Path;

/// Directories never descended into.
pub const EXCLUDED_DIRS: &[&str] = &["target", "node_modules", "__pycache__", ".venv", "venv", ".git", ".idea"];

/// File names never reported.
pub const EXCLUDED_FILES: &[&str] = &[".DS_Store", "Thumbs.db"];

/// File extensions (lower case) never reported.
pub const EXCLUDED_EXTENSIONS: &[&str] = &["hprof", "log"];

/// True if a directory of this name is excluded by default.
pub fn is_excluded_dir(name: &str) -> bool {
    EXCLUDED_DIRS.contains(&name)
}

/// True if a file of this name is excluded by default.
pub fn is_excluded_file(name: &str) -> bool {
    if EXCLUDED_FILES.contains(&name) {
        return true;
    }
    // Like the glob `*.log`: the stem may be empty.
    match name.rsplit_once('.') {
        Some((_, ext)) => EXCLUDED_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()),
        None => false,
    }
}

/// The default filter: false for excluded directories and files. The root
/// itself (depth 0) is never filtered out.
pub fn keep_entry(entry: &DirEntry) -> bool {
    if entry.depth() == 0 {
        return true;
    }
    let Some(name) = entry.file_name().to_str() else {
        return true;
    };
    match entry.file_type() {
        Some(ft) if ft.is_dir() => !is_excluded_dir(name),
        _ => !is_excluded_file(name),
    }
}

/// A [`WalkBuilder`] configured with the scanner's rules.
pub fn builder(root: &Path, threads: usize) -> WalkBuilder {
    let mut b = WalkBuilder::new(root);
    b.hidden(false)
        .follow_links(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .ignore(true)
        .parents(true)
        .require_git(false)
        .threads(threads)
        .filter_entry(keep_entry);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_exclusions() {
        assert!(is_excluded_dir("node_modules"));
        assert!(is_excluded_dir(".git"));
        assert!(!is_excluded_dir("src"));
        assert!(is_excluded_file("server.log"));
        assert!(is_excluded_file("heap.HPROF"));
        assert!(is_excluded_file(".DS_Store"));
        assert!(is_excluded_file(".log"));
        assert!(!is_excluded_file("log"));
        assert!(!is_excluded_file("logger.rs"));
    }
}
