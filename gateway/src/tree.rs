//! `show_tree`'s text: the shared renderer of `stats tree`
//! ([`vibe_common::tree::render_tree`]), with deep parts elided as `...` so
//! that the answer of a large project stays small. The counts are always
//! those of the full tree.

use std::collections::BTreeSet;

use vibe_common::tree::{render_tree, Tree};

/// Directories deeper than this show `...` instead of their content.
pub const MAX_DEPTH: usize = 6;
/// The depth shrinks until the tree has at most this many lines (or depth 1).
pub const MAX_LINES: usize = 400;

/// The elided tree; its counts are those of the full tree.
pub fn render(root_name: &str, paths: &[String]) -> Tree {
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
    let mut text = String::new();
    for depth in (1..=MAX_DEPTH).rev() {
        let elided: BTreeSet<String> = paths.iter().map(|p| elide(p, depth)).collect();
        text = render_tree(root_name, elided.iter().map(String::as_str)).text;
        if text.lines().count() <= MAX_LINES {
            break;
        }
    }
    Tree { text: text.trim_end().to_string(), files: paths.len(), dirs: dirs.len() }
}

/// `a/b/c/d.txt` at depth 2 → `a/b/...`.
fn elide(path: &str, depth: usize) -> String {
    let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if parts.len() <= depth + 1 {
        return parts.join("/");
    }
    let mut kept: Vec<&str> = parts[..depth].to_vec();
    kept.push("...");
    kept.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn renders_like_tree() {
        let t =
            render("proj", &paths(&["src/main.rs", "Cargo.toml", "src/cli/mod.rs", "src/cli/scan.rs", "README.md"]));
        assert_eq!(
            t.text,
            "proj\n|-- Cargo.toml\n|-- README.md\n`-- src\n    |-- cli\n    |   |-- mod.rs\n    |   `-- scan.rs\n    `-- main.rs"
        );
        assert_eq!((t.files, t.dirs), (5, 2));
    }

    #[test]
    fn deep_and_large_trees_are_elided() {
        let t = render("p", &paths(&["a/b/c/d/e/f/g/h.txt"]));
        assert!(t.text.ends_with("`-- ..."), "{}", t.text);
        assert_eq!((t.files, t.dirs), (1, 7));
        let many: Vec<String> = (0..2000).map(|i| format!("pkg{}/mod{}/file{i}.py", i % 7, i % 50)).collect();
        let t = render("big", &many);
        assert!(t.text.lines().count() <= MAX_LINES, "{}", t.text.lines().count());
        assert!(t.text.contains("|-- pkg0\n|   `-- ..."), "{}", t.text);
        assert_eq!(t.files, 2000);
    }
}
