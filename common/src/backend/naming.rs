//! Index and alias names. One place decides them, so the ingest side and the
//! gateway always agree.

use std::path::Path;

/// Short, stable hash of a project's absolute root path.
pub fn project_hash(root: &Path) -> String {
    let hash = blake3::hash(root.to_string_lossy().as_bytes());
    hash.to_hex()[..16].to_string()
}

/// The names derived from one index prefix (`vibe` by default).
#[derive(Debug, Clone)]
pub struct IndexNames {
    pub prefix: String,
}

impl IndexNames {
    pub fn new(prefix: &str) -> Self {
        Self { prefix: prefix.to_string() }
    }

    /// The meta index: one document per project.
    pub fn meta(&self) -> String {
        format!("{}_meta", self.prefix)
    }

    /// The meta index of index runs' locks (`vibe_common::backend::run_lock`): one
    /// document per project being indexed. It falls under the meta index
    /// template (`<p>_meta*`) but is kept apart from the project documents,
    /// so that nothing that lists projects sees a lock.
    pub fn locks(&self) -> String {
        format!("{}_meta_locks", self.prefix)
    }

    /// Alias readers use for a project's file contents.
    pub fn files_alias(&self, hash: &str) -> String {
        format!("{}_files_{hash}", self.prefix)
    }

    /// Alias readers use for a project's AST documents (one per file: its
    /// AST, flat symbols and references, tags and descriptions). Its prefix
    /// `<p>_ast_` shares nothing with `<p>_files_`, so neither wildcard
    /// needs an exclusion.
    pub fn ast_alias(&self, hash: &str) -> String {
        format!("{}_ast_{hash}", self.prefix)
    }

    /// Physical index of one generation of a project's file contents.
    pub fn files_index(&self, hash: &str, generation: &str) -> String {
        format!("{}_data_files_{hash}_{generation}", self.prefix)
    }

    /// Physical index of one generation of a project's AST documents (named
    /// `data_analysis` since the first release; only aliases are read).
    pub fn ast_index(&self, hash: &str, generation: &str) -> String {
        format!("{}_data_analysis_{hash}_{generation}", self.prefix)
    }

    /// Every physical index of a project, all generations.
    pub fn project_indices_pattern(&self, hash: &str) -> String {
        format!("{p}_data_files_{hash}_*,{p}_data_analysis_{hash}_*", p = self.prefix)
    }

    /// Wildcard over every project's AST alias.
    pub fn all_ast(&self) -> String {
        format!("{}_ast_*", self.prefix)
    }

    /// Wildcard over every project's files alias.
    pub fn all_files(&self) -> String {
        format!("{}_files_*", self.prefix)
    }

    /// Wildcard over every physical index of every project.
    pub fn all_data(&self) -> String {
        format!("{}_data_*", self.prefix)
    }

    /// Replace the `vibe_` prefix of a shipped template name or pattern.
    pub fn rename(&self, shipped: &str) -> String {
        match shipped.strip_prefix("vibe_") {
            Some(rest) => format!("{}_{rest}", self.prefix),
            None => shipped.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_prefix() {
        let n = IndexNames::new("t1");
        assert_eq!(n.meta(), "t1_meta");
        assert_eq!(n.locks(), "t1_meta_locks");
        assert_eq!(n.ast_alias("ab"), "t1_ast_ab");
        assert_eq!(n.files_alias("ab"), "t1_files_ab");
        // Neither alias wildcard matches the other's names.
        assert!(!n.ast_alias("ab").starts_with(n.all_files().trim_end_matches('*')));
        assert!(!n.files_alias("ab").starts_with(n.all_ast().trim_end_matches('*')));
        assert_eq!(n.files_index("ab", "g1"), "t1_data_files_ab_g1");
        assert_eq!(n.rename("vibe_files_analysis"), "t1_files_analysis");
        assert_eq!(project_hash(Path::new("/a")).len(), 16);
        assert_ne!(project_hash(Path::new("/a")), project_hash(Path::new("/b")));
    }
}
