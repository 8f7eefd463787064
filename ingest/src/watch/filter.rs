//! Whether a changed path is one the scanner would report: the walker's
//! default exclusions ([`crate::scanner::walk`]) and the same ignore files it
//! reads (`.ignore`, `.gitignore`, `.git/info/exclude`, in the source and its
//! parent directories), with the `ignore` crate's precedence: per kind the
//! deepest matching file decides, `.ignore` beats `.gitignore` beats the
//! exclude file, and git rules stop at the directory holding `.git`.
//!
//! A wrong "kept" only costs an incremental run that finds nothing to do;
//! the run itself uses the real walker.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;

use crate::scanner::walk;

/// Ignore files of one directory.
struct DirRules {
    ignore: Option<Gitignore>,
    git: Option<Gitignore>,
    exclude: Option<Gitignore>,
    has_git: bool,
}

/// Ignore rules, read lazily per directory and cached until an ignore file changes.
#[derive(Default)]
pub struct IgnoreFilter {
    dirs: HashMap<PathBuf, DirRules>,
}

/// True for the file names whose change alters the ignore rules.
pub fn is_ignore_file(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == ".gitignore" || n == ".ignore")
}

fn load(dir: &Path, file: &Path) -> Option<Gitignore> {
    if !file.is_file() {
        return None;
    }
    let mut builder = GitignoreBuilder::new(dir);
    builder.add(file);
    builder.build().ok().filter(|g| !g.is_empty())
}

impl IgnoreFilter {
    /// Forget the cached rules of `dir` (one of its ignore files changed).
    pub fn invalidate(&mut self, dir: &Path) {
        self.dirs.remove(dir);
    }

    fn rules(&mut self, dir: &Path) -> &DirRules {
        self.dirs.entry(dir.to_path_buf()).or_insert_with(|| DirRules {
            ignore: load(dir, &dir.join(".ignore")),
            git: load(dir, &dir.join(".gitignore")),
            exclude: load(dir, &dir.join(".git/info/exclude")),
            has_git: dir.join(".git").exists(),
        })
    }

    /// Whether the walker of `root` skips `path` (a file or directory under
    /// `root`, present or already gone).
    pub fn ignored(&mut self, root: &Path, path: &Path) -> bool {
        let Ok(rel) = path.strip_prefix(root) else {
            return true;
        };
        let names: Vec<&std::ffi::OsStr> = rel.iter().collect();
        let mut candidate = root.to_path_buf();
        for (i, name) in names.iter().enumerate() {
            candidate.push(name);
            let last = i + 1 == names.len();
            let is_dir = !last || candidate.is_dir();
            let name = name.to_str().unwrap_or_default();
            if (is_dir && walk::is_excluded_dir(&candidate)) || (!is_dir && walk::is_excluded_file(name)) {
                return true;
            }
            if self.matched(&candidate, is_dir) {
                return true;
            }
        }
        false
    }

    /// The ignore files of every directory above `path` say it is ignored.
    fn matched(&mut self, path: &Path, is_dir: bool) -> bool {
        let (mut m_ignore, mut m_git, mut m_exclude) = (Match::None, Match::None, Match::None);
        let mut saw_git = false;
        for dir in path.ancestors().skip(1) {
            let rules = self.rules(dir);
            let check = |g: &Option<Gitignore>| g.as_ref().map_or(Match::None, |g| g.matched(path, is_dir).map(|_| ()));
            if m_ignore.is_none() {
                m_ignore = check(&rules.ignore);
            }
            if !saw_git && m_git.is_none() {
                m_git = check(&rules.git);
            }
            if !saw_git && m_exclude.is_none() {
                m_exclude = check(&rules.exclude);
            }
            saw_git |= rules.has_git;
        }
        m_ignore.or(m_git).or(m_exclude).is_ignore()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn follows_the_walker_rules() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        write(&root, ".gitignore", "*.tmp\nbuild/\n!keep.tmp\n");
        write(&root, "sub/.gitignore", "local.txt\n");
        write(&root, "sub/.ignore", "!forced.tmp\n");
        for f in ["a.rs", "build/x.rs", "sub/local.txt", "sub/ok.txt", "x.tmp", "keep.tmp", "sub/forced.tmp"] {
            write(&root, f, "x\n");
        }
        std::fs::create_dir_all(root.join(".git/objects")).unwrap();
        let mut filter = IgnoreFilter::default();
        let ignored = |f: &mut IgnoreFilter, rel: &str| f.ignored(&root, &root.join(rel));
        // What the walker reports is exactly what the filter keeps.
        let walked: std::collections::BTreeSet<String> = walk::builder(&root, 1)
            .build()
            .flatten()
            .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
            .map(|e| crate::scanner::rel_path(&root, e.path()))
            .collect();
        for f in ["a.rs", "build/x.rs", "sub/local.txt", "sub/ok.txt", "x.tmp", "keep.tmp", "sub/forced.tmp"] {
            assert_eq!(!ignored(&mut filter, f), walked.contains(f), "{f}: walked {walked:?}");
        }
        assert!(ignored(&mut filter, ".git/HEAD"));
        assert!(ignored(&mut filter, "node_modules/x.js"));
        assert!(ignored(&mut filter, "server.log"));
        assert!(ignored(&mut filter, "gone.tmp"), "a deleted ignored file");
        assert!(!ignored(&mut filter, "gone.rs"), "a deleted kept file");
        // A changed ignore file is read again once invalidated.
        write(&root, ".gitignore", "*.rs\n");
        assert!(!ignored(&mut filter, "a.rs"));
        filter.invalidate(&root);
        assert!(ignored(&mut filter, "a.rs"));
    }
}
