//! Project resolution: which project(s) a `target` names, and which index or
//! alias a tool therefore searches.
//!
//! The project list (the meta index, read through the `show_projects`
//! template) is cached for a few seconds, so a tool call normally costs one
//! search request. An unknown target is re-checked against a fresh list before
//! it falls back to "all projects".

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::RwLock;
pub use vibe_common::backend::projects::Project;
use vibe_common::backend::projects::{lookup, projects_of, Found};

use crate::backend::{Backend, BackendError};
use crate::template_params;

/// How long the project list is trusted.
const CACHE_TTL: Duration = Duration::from_secs(10);
/// An unknown target triggers a refresh only if the list is older than this.
const MISS_REFRESH_AFTER: Duration = Duration::from_millis(500);
/// Most projects listed or resolved.
const MAX_PROJECTS: u32 = 1000;

/// What a `target` resolved to.
#[derive(Debug, Clone, PartialEq)]
pub enum Scope {
    /// All projects; `unknown` holds a target that named no project.
    All {
        unknown: Option<String>,
    },
    One(Project),
    /// A target several projects answer to (a shared name).
    Ambiguous {
        target: String,
        candidates: Vec<Project>,
    },
}

impl Scope {
    pub fn project(&self) -> Option<&Project> {
        match self {
            Scope::One(p) => Some(p),
            Scope::All { .. } | Scope::Ambiguous { .. } => None,
        }
    }

    /// A note for the answer when the target was not found.
    pub fn note(&self) -> Option<String> {
        match self {
            Scope::All { unknown: Some(t) } => Some(format!("unknown target {t:?}: searched all projects")),
            _ => None,
        }
    }
}

pub struct Catalog {
    cache: RwLock<Option<(Instant, Arc<Vec<Project>>)>>,
}

impl Default for Catalog {
    fn default() -> Self {
        Self::new()
    }
}

impl Catalog {
    pub fn new() -> Self {
        Self { cache: RwLock::new(None) }
    }

    /// Forgets the cached list (after an index run, for example).
    pub async fn invalidate(&self) {
        *self.cache.write().await = None;
    }

    /// The projects, from the cache when fresh enough.
    pub async fn projects(&self, backend: &Backend, max_age: Duration) -> Result<Arc<Vec<Project>>, BackendError> {
        if let Some((at, list)) = self.cache.read().await.as_ref() {
            if at.elapsed() <= max_age {
                return Ok(list.clone());
            }
        }
        let response =
            backend.run_json("show_projects", &backend.names().meta(), template_params::projects(MAX_PROJECTS)).await?;
        let list = Arc::new(projects_of(&response));
        *self.cache.write().await = Some((Instant::now(), list.clone()));
        Ok(list)
    }

    /// Resolves a target; `None` means all projects.
    pub async fn resolve(&self, backend: &Backend, target: Option<&str>) -> Result<Scope, BackendError> {
        let Some(target) = target else {
            return Ok(Scope::All { unknown: None });
        };
        let list = self.projects(backend, CACHE_TTL).await?;
        if let Found::One(p) = lookup(&list, target) {
            return Ok(Scope::One(p.clone()));
        }
        let list = self.projects(backend, MISS_REFRESH_AFTER).await?;
        Ok(match lookup(&list, target) {
            Found::One(p) => Scope::One(p.clone()),
            Found::Many(candidates) => {
                Scope::Ambiguous { target: target.to_string(), candidates: candidates.into_iter().cloned().collect() }
            }
            Found::None => Scope::All { unknown: Some(target.to_string()) },
        })
    }

    /// Splits a path that names its project into (project, path in it): an
    /// absolute path under a project root, or a relative one that starts with
    /// the tail of a root (`samples/app.py`, `tests/fixtures/samples/app.py`
    /// when the root is `/w/tests/fixtures/samples`).
    pub async fn split_absolute(
        &self,
        backend: &Backend,
        path: &str,
    ) -> Result<Option<(Project, String)>, BackendError> {
        let list = self.projects(backend, CACHE_TTL).await?;
        Ok(split_project_path(&list, path).map(|(p, rest)| (p.clone(), rest)))
    }
}

/// See [`Catalog::split_absolute`]. A relative path is split only when one
/// project's root tail matches (the longest such tail wins).
pub fn split_project_path<'a>(list: &'a [Project], path: &str) -> Option<(&'a Project, String)> {
    if path.starts_with('/') {
        return list
            .iter()
            .filter_map(|p| {
                let root = p.root.trim_end_matches('/');
                let rest = path.strip_prefix(root)?.strip_prefix('/')?;
                Some((p, rest.to_string()))
            })
            .max_by_key(|(p, _)| p.root.len());
    }
    let segments: Vec<&str> = path.split('/').collect();
    let mut best: Option<(usize, Vec<&Project>)> = None;
    for k in 1..segments.len() {
        let tail = format!("/{}", segments[..k].join("/"));
        let owners: Vec<&Project> = list.iter().filter(|p| p.root.trim_end_matches('/').ends_with(&tail)).collect();
        if !owners.is_empty() {
            best = Some((k, owners));
        }
    }
    match best {
        Some((k, owners)) if owners.len() == 1 => Some((owners[0], segments[k..].join("/"))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(root: &str, name: &str) -> Project {
        Project { root: root.into(), name: name.into(), hash: root.into(), summary: None }
    }

    #[test]
    fn paths_that_name_their_project() {
        let list = vec![p("/w/tests/fixtures/samples", "samples"), p("/w/docs/kb", "kb")];
        let split = |path| split_project_path(&list, path).map(|(p, rest)| (p.name.clone(), rest));
        assert_eq!(split("/w/tests/fixtures/samples/a/b.py"), Some(("samples".into(), "a/b.py".into())));
        assert_eq!(split("tests/fixtures/samples/b.py"), Some(("samples".into(), "b.py".into())));
        assert_eq!(split("samples/b.py"), Some(("samples".into(), "b.py".into())));
        assert_eq!(split("fixtures/samples/b.py"), Some(("samples".into(), "b.py".into())));
        // A path inside the project is not split; nor one no root ends with.
        assert_eq!(split("a/b.py"), None);
        assert_eq!(split("b.py"), None);
        assert_eq!(split("/elsewhere/b.py"), None);
    }
}
