//! The directory walker: `.gitignore`/`.ignore` aware (also outside git
//! repositories), hidden files included, symlinks not followed, and a fixed
//! set of directories and files excluded by default.

use ignore::{DirEntry, WalkBuilder};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Directories never descended into, by name.
pub const EXCLUDED_DIRS: &[&str] = &["target", "node_modules", "__pycache__", ".git", ".idea"];

/// Names of Python virtual environments: skipped only when the directory
/// really is one (it holds `pyvenv.cfg`); the standard library's own `venv/`
/// package is source code.
pub const VENV_DIRS: &[&str] = &[".venv", "venv", "env"];

/// The rule of a skipped virtual environment, as reported.
pub const VENV_RULE: &str = "python venv (pyvenv.cfg)";

/// Every rule that drops a whole directory, in report order.
pub const DIR_RULES: [&str; 6] = ["target", "node_modules", "__pycache__", ".git", ".idea", VENV_RULE];

/// The rule that excludes the directory at `path` (of that name), if any.
pub fn excluded_dir(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    if let Some(rule) = EXCLUDED_DIRS.iter().find(|d| **d == name) {
        return Some(rule);
    }
    (VENV_DIRS.contains(&name) && path.join("pyvenv.cfg").is_file()).then_some(VENV_RULE)
}

/// True if the directory at `path` is excluded by default.
pub fn is_excluded_dir(path: &Path) -> bool {
    excluded_dir(path).is_some()
}

/// Directories dropped by each rule of [`DIR_RULES`] during one walk.
#[derive(Debug, Default)]
pub struct DirCounts([AtomicU64; DIR_RULES.len()]);

impl DirCounts {
    fn add(&self, rule: &str) {
        if let Some(i) = DIR_RULES.iter().position(|r| *r == rule) {
            self.0[i].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// `(rule, directories)` of the rules that dropped any.
    pub fn counts(&self) -> Vec<(&'static str, u64)> {
        DIR_RULES.iter().zip(&self.0).map(|(r, n)| (*r, n.load(Ordering::Relaxed))).filter(|(_, n)| *n > 0).collect()
    }
}

/// File names never reported.
pub const EXCLUDED_FILES: &[&str] = &[".DS_Store", "Thumbs.db"];

/// File extensions (lower case) never reported.
pub const EXCLUDED_EXTENSIONS: &[&str] = &["hprof", "log"];

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
    excluded(entry).is_none()
}

/// Why the default filter drops an entry: the directory rule, or `""` for
/// an excluded file.
fn excluded(entry: &DirEntry) -> Option<&'static str> {
    if entry.depth() == 0 {
        return None;
    }
    match entry.file_type() {
        Some(ft) if ft.is_dir() => excluded_dir(entry.path()),
        _ => entry.file_name().to_str().filter(|n| is_excluded_file(n)).map(|_| ""),
    }
}

/// [`builder`] that counts the directories each rule drops in `counts`.
pub fn counting_builder(root: &Path, threads: usize, counts: Arc<DirCounts>) -> WalkBuilder {
    let mut b = builder(root, threads);
    b.filter_entry(move |entry| match excluded(entry) {
        None => true,
        Some(rule) => {
            counts.add(rule);
            false
        }
    });
    b
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
    fn a_venv_is_excluded_only_when_it_is_one() {
        let tmp = tempfile::tempdir().unwrap();
        for name in VENV_DIRS {
            let dir = tmp.path().join(name);
            std::fs::create_dir(&dir).unwrap();
            assert!(!is_excluded_dir(&dir), "{name} without pyvenv.cfg is source (Python's Lib/venv)");
            std::fs::write(dir.join("pyvenv.cfg"), "home = /usr/bin\n").unwrap();
            assert_eq!(excluded_dir(&dir), Some(VENV_RULE), "{name}");
        }
    }

    #[test]
    fn default_exclusions() {
        assert!(is_excluded_dir(Path::new("/x/node_modules")));
        assert_eq!(excluded_dir(Path::new("/x/.git")), Some(".git"));
        assert!(!is_excluded_dir(Path::new("/x/src")));
        assert!(is_excluded_file("server.log"));
        assert!(is_excluded_file("heap.HPROF"));
        assert!(is_excluded_file(".DS_Store"));
        assert!(is_excluded_file(".log"));
        assert!(!is_excluded_file("log"));
        assert!(!is_excluded_file("logger.rs"));
    }
}
