//! Project resolution: which project(s) a `target` names, and which index or
//! alias a tool therefore searches.
//!
//! The project list (the meta index, read through the `show_projects`
//! template) is cached for a few seconds, so a tool call normally costs one
//! search request. An unknown target is re-checked against a fresh list before
//! it falls back to "all projects".

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;
use tokio::sync::RwLock;

use crate::backend::{Backend, BackendError};
use crate::params;

/// How long the project list is trusted.
const CACHE_TTL: Duration = Duration::from_secs(10);
/// An unknown target triggers a refresh only if the list is older than this.
const MISS_REFRESH_AFTER: Duration = Duration::from_millis(500);
/// Most projects listed or resolved.
const MAX_PROJECTS: u32 = 1000;

/// One indexed project, from the meta index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Project {
    pub root: String,
    pub name: String,
    pub hash: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

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

pub fn projects_of(response: &Value) -> Vec<Project> {
    response["hits"]["hits"]
        .as_array()
        .map(|hits| {
            hits.iter()
                .filter_map(|h| {
                    let s = &h["_source"];
                    let hash = s["hash"].as_str().or(h["_id"].as_str())?.to_string();
                    Some(Project {
                        root: s["root"].as_str().unwrap_or_default().to_string(),
                        name: s["name"].as_str().unwrap_or_default().to_string(),
                        hash,
                        summary: s["summary"].as_str().map(str::to_string),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Exact root, then exact name, then case-insensitive name, then a unique
/// root ending in `/target`.
fn find<'a>(list: &'a [Project], target: &str) -> Option<&'a Project> {
    let t = target.trim();
    let t_path = if t.len() > 1 { t.trim_end_matches('/') } else { t };
    if let Some(p) = list.iter().find(|p| p.root.trim_end_matches('/') == t_path) {
        return Some(p);
    }
    if let Some(p) = list.iter().find(|p| p.name == t) {
        return Some(p);
    }
    let ci: Vec<&Project> = list.iter().filter(|p| p.name.eq_ignore_ascii_case(t)).collect();
    if ci.len() == 1 {
        return Some(ci[0]);
    }
    let suffix = format!("/{}", t_path.trim_start_matches('/'));
    let tail: Vec<&Project> = list.iter().filter(|p| p.root.trim_end_matches('/').ends_with(&suffix)).collect();
    (tail.len() == 1).then(|| tail[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(root: &str, name: &str) -> Project {
        Project { root: root.into(), name: name.into(), hash: name.into(), summary: None }
    }

    #[test]
    fn targets_resolve() {
        let list = vec![p("/a/samples", "samples"), p("/b/knowledge", "knowledge"), p("/c/x/App", "App")];
        assert_eq!(find(&list, "samples").unwrap().name, "samples");
        assert_eq!(find(&list, "/b/knowledge/").unwrap().name, "knowledge");
        assert_eq!(find(&list, "app").unwrap().name, "App");
        assert_eq!(find(&list, "x/App").unwrap().name, "App");
        assert!(find(&list, "nope").is_none());
    }
}
