//! A file tree drawn from indexed paths, in the `|--` / `` `-- `` style of
//! `tree`. Shared by `stats tree` and the `show_tree` tool.

use std::collections::BTreeMap;

#[derive(Default)]
struct Dir {
    dirs: BTreeMap<String, Dir>,
    files: Vec<String>,
}

/// A rendered tree with its counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    pub text: String,
    pub dirs: usize,
    pub files: usize,
}

/// Draw the tree of `paths` (relative, `/`-separated) under a root named `name`.
/// Entries are sorted by name, files and directories together.
pub fn render_tree<'a>(name: &str, paths: impl IntoIterator<Item = &'a str>) -> Tree {
    let mut root = Dir::default();
    for path in paths {
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let Some((file, dirs)) = parts.split_last() else { continue };
        let mut node = &mut root;
        for d in dirs {
            node = node.dirs.entry((*d).to_string()).or_default();
        }
        node.files.push((*file).to_string());
    }
    let mut out = String::from(name);
    out.push('\n');
    let (mut dirs, mut files) = (0, 0);
    draw(&root, "", &mut out, &mut dirs, &mut files);
    Tree { text: out, dirs, files }
}

fn draw(dir: &Dir, prefix: &str, out: &mut String, dirs: &mut usize, files: &mut usize) {
    let mut entries: Vec<(&str, Option<&Dir>)> = dir
        .dirs
        .iter()
        .map(|(n, d)| (n.as_str(), Some(d)))
        .chain(dir.files.iter().map(|f| (f.as_str(), None)))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(b.0));
    entries.dedup_by(|a, b| a.0 == b.0 && a.1.is_none() && b.1.is_none());
    let count = entries.len();
    for (i, (name, sub)) in entries.into_iter().enumerate() {
        let last = i + 1 == count;
        out.push_str(prefix);
        out.push_str(if last { "`-- " } else { "|-- " });
        out.push_str(name);
        out.push('\n');
        match sub {
            Some(d) => {
                *dirs += 1;
                let child_prefix = format!("{prefix}{}", if last { "    " } else { "|   " });
                draw(d, &child_prefix, out, dirs, files);
            }
            None => *files += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_nested_tree() {
        let t = render_tree("demo", ["src/main.rs", "Cargo.toml", "src/cli/mod.rs", "README.md"]);
        assert_eq!(
            t.text,
            "demo\n|-- Cargo.toml\n|-- README.md\n`-- src\n    |-- cli\n    |   `-- mod.rs\n    `-- main.rs\n"
        );
        assert_eq!((t.dirs, t.files), (2, 4));
    }
}
