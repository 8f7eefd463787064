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
pub use vibe_common::projects::Project;
use vibe_common::projects::{find, projects_of};

use crate::backend::{Backend, BackendError};
use crate::params;

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
}

impl Scope {
    pub fn project(&self) -> Option<&Project> {
        match self {
            Scope::One(p) => Some(p),
            Scope::All { .. } => None,
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
        let response = backend.run("show_projects", &backend.names().meta(), params::projects(MAX_PROJECTS)).await?;
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
        if let Some(p) = find(&list, target) {
            return Ok(Scope::One(p.clone()));
        }
        let list = self.projects(backend, MISS_REFRESH_AFTER).await?;
        Ok(match find(&list, target) {
            Some(p) => Scope::One(p.clone()),
            None => Scope::All { unknown: Some(target.to_string()) },
        })
    }

    /// Splits an absolute path under a project root into (project, relative path).
    pub async fn split_absolute(
        &self,
        backend: &Backend,
        path: &str,
    ) -> Result<Option<(Project, String)>, BackendError> {
        if !path.starts_with('/') {
            return Ok(None);
        }
        let list = self.projects(backend, CACHE_TTL).await?;
        let best = list
            .iter()
            .filter_map(|p| {
                let root = p.root.trim_end_matches('/');
                let rest = path.strip_prefix(root)?.strip_prefix('/')?;
                Some((p, rest))
            })
            .max_by_key(|(p, _)| p.root.len());
        Ok(best.map(|(p, rest)| (p.clone(), rest.to_string())))
    }
}
