//! `source add|remove|list`: editing the `sources` list of a [`Config`]. The
//! callers save the config afterwards.

use super::paths::{absolute, normalize, same_path};
use super::{Config, ConfigError};
use std::path::{Path, PathBuf};

/// Result of [`Config::add_source`]; both carry the canonical absolute path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddOutcome {
    Added(PathBuf),
    AlreadyPresent(PathBuf),
}

impl AddOutcome {
    pub fn path(&self) -> &Path {
        match self {
            Self::Added(p) | Self::AlreadyPresent(p) => p,
        }
    }
}

impl Config {
    /// Adds an existing path (relative paths are taken from the current
    /// directory), stored canonicalized. Does not save.
    pub fn add_source(&mut self, path: impl AsRef<Path>) -> Result<AddOutcome, ConfigError> {
        let path = path.as_ref();
        if !path.exists() {
            return Err(ConfigError::PathNotFound { path: path.to_path_buf() });
        }
        let canonical = std::fs::canonicalize(path)
            .map_err(|source| ConfigError::Canonicalize { path: path.to_path_buf(), source })?;
        if let Some(existing) = self.sources.iter().find(|s| same_path(s, &canonical)) {
            return Ok(AddOutcome::AlreadyPresent(existing.clone()));
        }
        if !canonical.is_dir() {
            return Err(ConfigError::NotADirectory { path: canonical });
        }
        // A folder inside a source, or holding one, would index the same files twice.
        let inside = |outer: &Path, inner: &Path| inner.starts_with(outer) && inner != outer;
        if let Some(other) = self.sources.iter().find(|s| inside(s, &canonical) || inside(&canonical, s)) {
            return Err(ConfigError::OverlappingSource { path: canonical.clone(), source_dir: other.clone() });
        }
        self.sources.push(canonical.clone());
        Ok(AddOutcome::Added(canonical))
    }

    /// Finds a configured source by path (absolute, or relative to the current
    /// directory) or by directory name when that name is unique.
    pub fn resolve_source(&self, path_or_name: &str) -> Result<PathBuf, ConfigError> {
        let target = path_or_name.trim();
        let unknown =
            || ConfigError::UnknownSource { target: path_or_name.to_string(), candidates: self.sources.clone() };
        if target.is_empty() {
            return Err(unknown());
        }
        let looks_like_path = target.contains('/')
            || target.contains(std::path::MAIN_SEPARATOR)
            || target == "."
            || target == ".."
            || Path::new(target).is_absolute();
        if !looks_like_path {
            let matches: Vec<PathBuf> =
                self.sources.iter().filter(|s| s.file_name().is_some_and(|n| n == target)).cloned().collect();
            match matches.len() {
                0 => {}
                1 => return Ok(matches.into_iter().next().unwrap()),
                _ => return Err(ConfigError::AmbiguousSource { name: target.to_string(), candidates: matches }),
            }
        }
        let candidate = normalize(&absolute(Path::new(target)));
        self.sources.iter().find(|s| same_path(s, &candidate)).cloned().ok_or_else(unknown)
    }

    /// Removes a source found by [`Config::resolve_source`]; returns its path.
    /// Does not save.
    pub fn remove_source(&mut self, path_or_name: &str) -> Result<PathBuf, ConfigError> {
        let path = self.resolve_source(path_or_name)?;
        self.sources.retain(|s| s != &path);
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_add_resolve_remove() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        let a = root.join("a/x/app");
        let b = root.join("b/y/app");
        let lib = root.join("lib");
        for d in [&a, &b, &lib] {
            std::fs::create_dir_all(d).unwrap();
        }
        let mut c = Config::default();
        assert!(matches!(c.add_source(root.join("missing")), Err(ConfigError::PathNotFound { .. })));
        assert_eq!(c.add_source(&a).unwrap(), AddOutcome::Added(a.clone()));
        assert_eq!(c.add_source(root.join("a/x/../x/app/.")).unwrap(), AddOutcome::AlreadyPresent(a.clone()));
        c.add_source(&b).unwrap();
        c.add_source(&lib).unwrap();
        assert_eq!(c.sources, vec![a.clone(), b.clone(), lib.clone()]);

        assert_eq!(c.resolve_source("lib").unwrap(), lib);
        assert_eq!(c.resolve_source(b.to_str().unwrap()).unwrap(), b);
        let err = c.resolve_source("app").unwrap_err();
        assert!(matches!(err, ConfigError::AmbiguousSource { .. }));
        let msg = err.to_string();
        assert!(msg.contains(a.to_str().unwrap()) && msg.contains(b.to_str().unwrap()), "{msg}");
        let err = c.resolve_source("nope").unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("unknown source: nope") && msg.contains(lib.to_str().unwrap()), "{msg}");

        assert_eq!(c.remove_source("lib").unwrap(), lib);
        assert_eq!(c.remove_source(a.to_str().unwrap()).unwrap(), a);
        assert_eq!(c.sources, vec![b.clone()]);
        // Now the name is unique.
        assert_eq!(c.remove_source("app").unwrap(), b);
        assert!(c.sources.is_empty());
        assert!(Config::default().resolve_source("x").unwrap_err().to_string().contains("no sources are configured"));
    }

    #[test]
    fn a_file_or_an_overlapping_folder_is_no_source() {
        // Issue 59: a file became a project named after it; a folder inside a
        // source (or holding one) indexed the same files twice.
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        let pkg = root.join("pkg");
        std::fs::create_dir_all(pkg.join("json")).unwrap();
        std::fs::write(pkg.join("json/decoder.py"), "x = 1\n").unwrap();
        let mut c = Config::default();
        c.add_source(&pkg).unwrap();
        let err = c.add_source(pkg.join("json/decoder.py")).unwrap_err();
        assert!(matches!(err, ConfigError::NotADirectory { .. }), "{err}");
        let err = c.add_source(pkg.join("json")).unwrap_err();
        assert!(err.to_string().contains("overlaps the source"), "{err}");
        let err = c.add_source(&root).unwrap_err();
        assert!(matches!(err, ConfigError::OverlappingSource { .. }), "{err}");
        assert_eq!(c.sources, vec![pkg]);
    }
}
