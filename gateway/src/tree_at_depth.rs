//! `show_tree`'s text: the shared renderer of `stats tree`
//! ([`vibe_common::text::file_tree::render_tree`]) at a depth: a directory below it
//! shows `… N files` (the files under it, at any depth) instead of its
//! content. The counts are always those of the full tree.

use std::collections::{BTreeMap, BTreeSet};

use vibe_common::text::file_tree::render_tree;

/// The deepest a tree is drawn without an explicit `depth`.
pub const MAX_DEPTH: usize = 8;

/// The directories of a set of paths (every proper prefix ending at a `/`).
pub fn dir_count(paths: &[String]) -> usize {
    let mut dirs: BTreeSet<&str> = BTreeSet::new();
    for p in paths {
        let mut end = 0;
        while let Some(i) = p[end..].find('/') {
            end += i;
            if end > 0 {
                dirs.insert(&p[..end]);
            }
            end += 1;
        }
    }
    dirs.len()
}

/// The depth that shows every path (1: files only, 2: files in directories).
pub fn depth_of(paths: &[String]) -> usize {
    paths.iter().map(|p| p.split('/').filter(|s| !s.is_empty()).count()).max().unwrap_or(0)
}

/// The tree of `paths` under `root_name`, opened `depth` directory levels
/// down; each directory not opened shows `… N files`.
pub fn render_at(root_name: &str, paths: &[String], depth: usize) -> String {
    let mut shown: Vec<String> = Vec::new();
    let mut elided: BTreeMap<String, usize> = BTreeMap::new();
    for p in paths {
        let parts: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
        if parts.len() <= depth {
            shown.push(parts.join("/"));
        } else {
            *elided.entry(parts[..depth].join("/")).or_default() += 1;
        }
    }
    for (dir, n) in &elided {
        let files = if *n == 1 { "1 file".to_string() } else { format!("{n} files") };
        shown.push(if dir.is_empty() { format!("… {files}") } else { format!("{dir}/… {files}") });
    }
    render_tree(root_name, shown.iter().map(String::as_str)).text.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn renders_like_tree() {
        let p = paths(&["src/main.rs", "Cargo.toml", "src/cli/mod.rs", "src/cli/scan.rs", "README.md"]);
        assert_eq!(
            render_at("proj", &p, MAX_DEPTH),
            "proj\n|-- Cargo.toml\n|-- README.md\n`-- src\n    |-- cli\n    |   |-- mod.rs\n    |   `-- scan.rs\n    `-- main.rs"
        );
        assert_eq!((dir_count(&p), depth_of(&p)), (2, 3));
    }

    #[test]
    fn directories_below_the_depth_count_their_files() {
        let p = paths(&["src/main.rs", "Cargo.toml", "src/cli/mod.rs", "src/cli/scan.rs", "README.md"]);
        assert_eq!(render_at("proj", &p, 1), "proj\n|-- Cargo.toml\n|-- README.md\n`-- src\n    `-- … 3 files");
        assert_eq!(
            render_at("proj", &p, 2),
            "proj\n|-- Cargo.toml\n|-- README.md\n`-- src\n    |-- cli\n    |   `-- … 2 files\n    `-- main.rs"
        );
        assert_eq!(render_at("proj", &p, 0), "proj\n`-- … 5 files");
        assert_eq!(
            render_at("p", &paths(&["a/b/c/d/e/f/g/h.txt"]), 3),
            "p\n`-- a\n    `-- b\n        `-- c\n            `-- … 1 file"
        );
    }
}
