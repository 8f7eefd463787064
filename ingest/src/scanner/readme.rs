//! Finding a source's README: the root wins over subdirectories, and within
//! one directory `.md` wins over `.txt`, which wins over no extension.

use super::walk::is_excluded_dir;
use std::fs;
use std::io::Read;
use std::path::Path;

/// At most this many bytes of a README are kept.
pub const README_MAX_BYTES: usize = 64 * 1024;

/// How deep below the root a README is looked for (0 = root only).
pub const README_MAX_DEPTH: usize = 2;

/// A source's README (its content cut at [`README_MAX_BYTES`]).
pub use vibe_common::document::project_meta::Readme;

/// Rank of a README file name within one directory (lower is better), or
/// `None` if the name is not a README.
pub fn readme_rank(name: &str) -> Option<u8> {
    let lower = name.to_lowercase();
    let rest = lower.strip_prefix("readme")?;
    match rest {
        ".md" | ".markdown" => Some(0),
        ".txt" => Some(1),
        "" => Some(2),
        ".rst" | ".adoc" | ".asciidoc" | ".org" | ".rdoc" => Some(3),
        _ => None,
    }
}

/// The best README file directly inside `dir`: (rank, file name).
fn best_in_dir(dir: &Path) -> Option<(u8, String)> {
    let mut best: Option<(u8, String)> = None;
    for entry in fs::read_dir(dir).ok()?.flatten() {
        let Ok(ft) = entry.file_type() else { continue };
        if !ft.is_file() {
            continue;
        }
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if let Some(rank) = readme_rank(&name) {
            let cand = (rank, name);
            if best.as_ref().is_none_or(|b| cand < *b) {
                best = Some(cand);
            }
        }
    }
    best
}

/// Subdirectories of `dir` worth looking into, sorted by name: no symlinks,
/// no hidden or default-excluded directories.
fn subdirs(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(rd) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut dirs: Vec<_> = rd
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| e.file_name().to_str().is_some_and(|n| !n.starts_with('.')) && !is_excluded_dir(&e.path()))
        .map(|e| e.path())
        .collect();
    dirs.sort();
    dirs
}

/// Find and read the README of the source at `root`: breadth first down to
/// [`README_MAX_DEPTH`], the best-ranked name in the shallowest directory that
/// has one (ties between directories of one depth go to the first by path).
pub fn find_readme(root: &Path) -> Option<Readme> {
    let mut level = vec![root.to_path_buf()];
    for depth in 0..=README_MAX_DEPTH {
        let mut best: Option<(u8, std::path::PathBuf)> = None;
        for dir in &level {
            if let Some((rank, name)) = best_in_dir(dir) {
                if best.as_ref().is_none_or(|(r, _)| rank < *r) {
                    best = Some((rank, dir.join(name)));
                }
            }
        }
        if let Some((_, path)) = best {
            if let Some(readme) = read_readme(root, &path) {
                return Some(readme);
            }
        }
        if depth < README_MAX_DEPTH {
            level = level.iter().flat_map(|d| subdirs(d)).collect();
            if level.is_empty() {
                break;
            }
        }
    }
    None
}

fn read_readme(root: &Path, path: &Path) -> Option<Readme> {
    let file = fs::File::open(path).ok()?;
    let mut buf = Vec::with_capacity(4096);
    file.take(README_MAX_BYTES as u64 + 1).read_to_end(&mut buf).ok()?;
    let truncated = buf.len() > README_MAX_BYTES;
    let content = if truncated {
        buf.truncate(README_MAX_BYTES);
        // Drop a character cut in half at the end, then decode lossily.
        let valid = match std::str::from_utf8(&buf) {
            Ok(_) => buf.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => buf.len(),
        };
        String::from_utf8_lossy(&buf[..valid]).into_owned()
    } else {
        String::from_utf8_lossy(&buf).into_owned()
    };
    Some(Readme { path: super::rel_path(root, path), content, truncated })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_order() {
        assert!(readme_rank("README.md") < readme_rank("readme.txt"));
        assert!(readme_rank("Readme.txt") < readme_rank("README"));
        assert_eq!(readme_rank("README.md.bak"), None);
        assert_eq!(readme_rank("READMEs"), None);
    }

    #[test]
    fn priority_root_then_extension() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("docs")).unwrap();
        fs::write(root.join("docs/README.md"), "docs md").unwrap();
        fs::write(root.join("README"), "root plain").unwrap();
        fs::write(root.join("README.txt"), "root txt").unwrap();
        let r = find_readme(root).unwrap();
        assert_eq!(r.path, "README.txt");
        assert_eq!(r.content, "root txt");

        fs::write(root.join("readme.md"), "root md").unwrap();
        assert_eq!(find_readme(root).unwrap().path, "readme.md");

        for f in ["README", "README.txt", "readme.md"] {
            fs::remove_file(root.join(f)).unwrap();
        }
        let r = find_readme(root).unwrap();
        assert_eq!(r.path, "docs/README.md");

        // Excluded directories are not looked into.
        fs::remove_file(root.join("docs/README.md")).unwrap();
        fs::create_dir_all(root.join("node_modules/x")).unwrap();
        fs::write(root.join("node_modules/README.md"), "no").unwrap();
        assert_eq!(find_readme(root), None);
    }

    #[test]
    fn content_is_capped_on_a_char_boundary() {
        let dir = tempfile::tempdir().unwrap();
        let text = "я".repeat(README_MAX_BYTES); // 2 bytes each
        fs::write(dir.path().join("README.md"), format!("x{text}")).unwrap();
        let r = find_readme(dir.path()).unwrap();
        assert!(r.truncated);
        assert!(r.content.len() <= README_MAX_BYTES);
        assert!(!r.content.contains('\u{FFFD}'));
    }
}
