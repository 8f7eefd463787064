//! Indexed projects as the meta index lists them, and which one a `target`
//! (a name or a path, as a user or a model types it) names. Shared by the
//! CLI (`stats`) and the MCP gateway.

use serde::Serialize;

use crate::document::project_meta::ProjectMeta;
use serde_json::Value;

/// One indexed project, from its meta document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Project {
    pub root: String,
    pub name: String,
    pub hash: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

/// The projects of a search response over the meta index.
pub fn projects_of(response: &Value) -> Vec<Project> {
    response["hits"]["hits"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| {
            let meta = ProjectMeta::from_source(&h["_source"]);
            let hash = Some(meta.hash.clone()).filter(|h| !h.is_empty()).or(h["_id"].as_str().map(str::to_string))?;
            let summary = meta.summary().map(str::to_string);
            Some(Project { root: meta.root, name: meta.name, hash, summary })
        })
        .collect()
}

/// What a target names.
#[derive(Debug, PartialEq)]
pub enum Found<'a> {
    One(&'a Project),
    /// Several projects share the name or suffix.
    Many(Vec<&'a Project>),
    None,
}

/// The project a target names: its exact root, else its exact name, else its
/// name in any case, else the one root ending in `/target`, else the project
/// whose root holds the path. A name or suffix shared by several projects
/// names none of them.
pub fn find<'a>(list: &'a [Project], target: &str) -> Option<&'a Project> {
    match lookup(list, target) {
        Found::One(p) => Some(p),
        _ => None,
    }
}

/// [`find`], telling apart a target that names several projects.
pub fn lookup<'a>(list: &'a [Project], target: &str) -> Found<'a> {
    let t = target.trim();
    let t_path = if t.len() > 1 { t.trim_end_matches('/') } else { t };
    let pick = |found: Vec<&'a Project>| match found.len() {
        0 => Found::None,
        1 => Found::One(found[0]),
        _ => Found::Many(found),
    };
    if let Some(p) = list.iter().find(|p| p.root.trim_end_matches('/') == t_path) {
        return Found::One(p);
    }
    for matches in [
        list.iter().filter(|p| p.name == t).collect::<Vec<_>>(),
        list.iter().filter(|p| p.name.eq_ignore_ascii_case(t)).collect(),
    ] {
        if !matches.is_empty() {
            return pick(matches);
        }
    }
    let suffix = format!("/{}", t_path.trim_start_matches('/'));
    let by_suffix = pick(list.iter().filter(|p| p.root.trim_end_matches('/').ends_with(&suffix)).collect());
    if by_suffix != Found::None || !t_path.starts_with('/') {
        return by_suffix;
    }
    // A directory inside a project: the deepest root above it.
    list.iter()
        .filter(|p| {
            let root = p.root.trim_end_matches('/');
            !root.is_empty() && t_path.strip_prefix(root).is_some_and(|rest| rest.starts_with('/'))
        })
        .max_by_key(|p| p.root.len())
        .map_or(Found::None, Found::One)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p(root: &str, name: &str) -> Project {
        Project { root: root.into(), name: name.into(), hash: root.into(), summary: None }
    }

    #[test]
    fn targets_resolve_by_root_name_case_and_suffix() {
        let list = vec![p("/a/samples", "samples"), p("/b/knowledge", "knowledge"), p("/c/x/App", "App")];
        assert_eq!(find(&list, "samples").unwrap().name, "samples");
        assert_eq!(find(&list, " /b/knowledge/ ").unwrap().name, "knowledge");
        assert_eq!(find(&list, "app").unwrap().name, "App");
        assert_eq!(find(&list, "x/App").unwrap().name, "App");
        assert!(find(&list, "nope").is_none());
        // A directory inside a project names that project.
        assert_eq!(find(&list, "/a/samples/src/lib").unwrap().name, "samples");
        assert!(find(&list, "/a/samplesX").is_none());
        assert!(find(&list, "/").is_none());
    }

    #[test]
    fn a_shared_name_names_no_project_but_a_root_still_does() {
        let list = vec![p("/a/src", "src"), p("/b/src", "src")];
        assert!(find(&list, "src").is_none());
        assert!(find(&list, "SRC").is_none());
        assert!(matches!(lookup(&list, "src"), Found::Many(v) if v.len() == 2));
        assert_eq!(find(&list, "/b/src").unwrap().root, "/b/src");
        assert_eq!(find(&list, "a/src").unwrap().root, "/a/src");
    }

    #[test]
    fn projects_are_read_from_meta_hits() {
        let r = json!({ "hits": { "hits": [
            { "_id": "h1", "_source": { "root": "/r", "name": "r", "summary": "S" } },
            { "_id": "h2", "_source": { "root": "/q", "name": "q", "hash": "hq" } }
        ] } });
        let list = projects_of(&r);
        assert_eq!(
            list[0],
            Project { root: "/r".into(), name: "r".into(), hash: "h1".into(), summary: Some("S".into()) }
        );
        assert_eq!(list[1].hash, "hq");
        assert!(projects_of(&json!({})).is_empty());
    }
}
