//! The OpenSearch index templates (`opensearch-templates/`) and mustache
//! search templates (`search-templates/`), embedded in the binary, and the
//! installer that puts them into OpenSearch.
//!
//! Index and component templates carry `version` and `_meta.vibe_version`
//! from [`TEMPLATE_VERSION`], and `_meta.vibe_content`, a fingerprint of
//! their body: an installed template is upgraded when it is missing, older,
//! or of this version with other content (a development build), and a newer
//! one is left alone. Search templates are
//! stored scripts under versioned ids (`<prefix>_<tool>_v<N>`), so old and new
//! coexist during an upgrade.

use std::collections::{BTreeMap, HashMap};

use rust_embed::RustEmbed;
use serde_json::{json, Value};

use crate::backend::naming::IndexNames;
use crate::backend::search::{Search, SearchError};

/// Version of every shipped template. Bump it when any template file changes:
/// the test `template_version_follows_content` fails until
/// [`TEMPLATES_FINGERPRINT`] is set to the new content's fingerprint.
pub const TEMPLATE_VERSION: u64 = 41;

/// [`templates_fingerprint`] of the templates [`TEMPLATE_VERSION`] was set for.
pub const TEMPLATES_FINGERPRINT: &str = "dfbcb0c3c9c2c427";

#[derive(RustEmbed)]
#[folder = "../opensearch-templates"]
#[include = "*.json"]
#[include = "*.txt"]
struct IndexTemplateFiles;

#[derive(RustEmbed)]
#[folder = "../search-templates"]
#[include = "*.mustache"]
struct SearchTemplateFiles;

/// What the installer did with one template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Installed,
    Upgraded { from: u64 },
    UpToDate,
    KeptNewer { installed: u64 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallAction {
    pub kind: &'static str,
    pub name: String,
    pub action: Action,
}

impl std::fmt::Display for InstallAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (kind, name) = (self.kind, &self.name);
        match &self.action {
            Action::Installed => write!(f, "{kind} {name}: installed v{TEMPLATE_VERSION}"),
            Action::Upgraded { from } => write!(f, "{kind} {name}: upgraded v{from} -> v{TEMPLATE_VERSION}"),
            Action::UpToDate => write!(f, "{kind} {name}: up to date (v{TEMPLATE_VERSION})"),
            Action::KeptNewer { installed } => {
                write!(f, "{kind} {name}: kept installed v{installed}, newer than this build's v{TEMPLATE_VERSION}")
            }
        }
    }
}

/// One shipped index or component template, renamed for an index prefix.
#[derive(Debug, Clone)]
pub struct IndexTemplate {
    pub kind: TemplateKind,
    pub name: String,
    pub body: Value,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TemplateKind {
    Component,
    Index,
}

impl TemplateKind {
    fn endpoint(self) -> &'static str {
        match self {
            TemplateKind::Component => "_component_template",
            TemplateKind::Index => "_index_template",
        }
    }
    fn label(self) -> &'static str {
        match self {
            TemplateKind::Component => "component template",
            TemplateKind::Index => "index template",
        }
    }
    fn list_key(self) -> (&'static str, &'static str) {
        match self {
            TemplateKind::Component => ("component_templates", "component_template"),
            TemplateKind::Index => ("index_templates", "index_template"),
        }
    }
}

/// The shipped index and component templates, components first.
pub fn index_templates(names: &IndexNames) -> Vec<IndexTemplate> {
    let mut out: Vec<IndexTemplate> = IndexTemplateFiles::iter()
        .filter(|file| file.ends_with(".json"))
        .filter_map(|file| {
            let data = IndexTemplateFiles::get(&file)?;
            let doc: Value = serde_json::from_slice(&data.data).expect("shipped template files are valid JSON");
            let kind = match doc["kind"].as_str() {
                Some("component_template") => TemplateKind::Component,
                _ => TemplateKind::Index,
            };
            let mut body = doc["body"].clone();
            inline_word_lists(&mut body);
            if let Some(patterns) = body.get_mut("index_patterns").and_then(Value::as_array_mut) {
                for p in patterns.iter_mut() {
                    *p = json!(names.rename(p.as_str().unwrap_or_default()));
                }
            }
            if let Some(parts) = body.get_mut("composed_of").and_then(Value::as_array_mut) {
                for p in parts.iter_mut() {
                    *p = json!(names.rename(p.as_str().unwrap_or_default()));
                }
            }
            body["version"] = json!(TEMPLATE_VERSION);
            // The body's own fingerprint: a development build whose template
            // changed without a version bump still replaces the installed one.
            let content = blake3::hash(body.to_string().as_bytes()).to_hex()[..16].to_string();
            body["_meta"] =
                json!({ "vibe_version": TEMPLATE_VERSION, "vibe_content": content, "managed_by": "vibe-analyzer" });
            Some(IndexTemplate { kind, name: names.rename(doc["name"].as_str().unwrap_or_default()), body })
        })
        .collect();
    out.sort_by_key(|t| (t.kind != TemplateKind::Component, t.name.clone()));
    out
}

/// The `_source` mapping of the shipped index template whose pattern takes
/// `index` (one of `names`' physical indices), with `recovery_source_enabled:
/// false`. A document whose fields are left out of `_source` is kept once
/// more, whole, as `_recovery_source` until its retention lease passes it
/// (~30 s after a flush) and a merge rewrites its segment; a generation
/// merged into one segment right after its bulk is never merged again, so
/// it kept that copy for good: twice the disk (measured by bench/field_cost.sh, in git at d91b8e0). The
/// copy serves only a replica replaying operations, so a generation made
/// without replicas needs none. `None` when no template takes `index`.
pub fn source_without_recovery_copy(names: &IndexNames, index: &str) -> Option<Value> {
    let template = index_templates(names).into_iter().find(|t| {
        t.body["index_patterns"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .any(|p| p.strip_suffix('*').is_some_and(|prefix| index.starts_with(prefix)))
    })?;
    let mut source = template.body.pointer("/template/mappings/_source").cloned().unwrap_or_else(|| json!({}));
    source["recovery_source_enabled"] = json!(false);
    Some(source)
}

/// A synonym filter's list written as `"@<file>"` (`"synonyms":
/// "@code-synonyms.txt"`) is the shipped file's lines, without comments and
/// blank lines: the data stays a plain text file in `opensearch-templates/`,
/// and OpenSearch gets the list inline (no file on the nodes).
fn inline_word_lists(body: &mut Value) {
    let Some(filters) = body.pointer_mut("/template/settings/analysis/filter").and_then(Value::as_object_mut) else {
        return;
    };
    for filter in filters.values_mut() {
        let Some(file) = filter["synonyms"].as_str().and_then(|v| v.strip_prefix('@')).map(str::to_string) else {
            continue;
        };
        let lines = word_list(&file).expect("a word list named by a shipped template is shipped");
        filter["synonyms"] = Value::Array(lines.into_iter().map(Value::String).collect());
    }
}

/// The lines of a shipped word list (`code-synonyms.txt`), without comments
/// and blank lines; `None` when no such file is shipped.
pub fn word_list(file: &str) -> Option<Vec<String>> {
    let data = IndexTemplateFiles::get(file)?;
    let text = String::from_utf8_lossy(&data.data);
    Some(text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string).collect())
}

/// A fingerprint (16 hex digits) of every shipped template file, name and content.
pub fn templates_fingerprint() -> String {
    let mut files: Vec<(String, Vec<u8>)> = IndexTemplateFiles::iter()
        .filter_map(|f| IndexTemplateFiles::get(&f).map(|d| (format!("index/{f}"), d.data.into_owned())))
        .chain(
            SearchTemplateFiles::iter()
                .filter_map(|f| SearchTemplateFiles::get(&f).map(|d| (format!("search/{f}"), d.data.into_owned()))),
        )
        .collect();
    files.sort();
    let mut h = blake3::Hasher::new();
    for (name, data) in files {
        h.update(name.as_bytes());
        h.update(&(data.len() as u64).to_le_bytes());
        h.update(&data);
    }
    h.finalize().to_hex()[..16].to_string()
}

/// Names of the shipped search templates (one per tool), sorted.
pub fn search_template_names() -> Vec<String> {
    let mut names: Vec<String> =
        SearchTemplateFiles::iter().map(|f| f.trim_end_matches(".mustache").to_string()).collect();
    names.sort();
    names
}

/// The mustache source of a shipped search template.
pub fn search_template_source(tool: &str) -> Option<String> {
    SearchTemplateFiles::get(&format!("{tool}.mustache")).map(|f| String::from_utf8_lossy(&f.data).into_owned())
}

/// The stored-script id of a search template in this build.
pub fn search_template_id(names: &IndexNames, tool: &str) -> String {
    format!("{}_{tool}_v{TEMPLATE_VERSION}", names.prefix)
}

/// An installed template's version and `_meta.vibe_content`.
type Installed = (Option<u64>, Option<String>);

/// Installed templates of one kind whose names start with this prefix: name -> version and content fingerprint.
async fn installed_templates(search: &Search, kind: TemplateKind) -> Result<HashMap<String, Installed>, SearchError> {
    let (list, item) = kind.list_key();
    let answer = search.get_opt(&format!("/{}/{}_*", kind.endpoint(), search.names.prefix)).await?.unwrap_or_default();
    Ok(answer[list]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| {
            let content = t[item]["_meta"]["vibe_content"].as_str().map(str::to_string);
            Some((t["name"].as_str()?.to_string(), (t[item]["version"].as_u64(), content)))
        })
        .collect())
}

/// The stored search templates of this build, fetched concurrently: tool -> (id, installed source).
async fn installed_scripts(search: &Search) -> Result<BTreeMap<String, (String, Option<String>)>, SearchError> {
    let mut fetches = tokio::task::JoinSet::new();
    for tool in search_template_names() {
        let search = search.clone();
        fetches.spawn(async move {
            let id = search_template_id(&search.names, &tool);
            let stored = search.get_opt(&format!("/_scripts/{id}")).await?;
            let source = stored
                .filter(|v| v["found"].as_bool() == Some(true))
                .map(|v| v["script"]["source"].as_str().unwrap_or_default().to_string());
            Ok::<_, SearchError>((tool, (id, source)))
        });
    }
    let mut out = BTreeMap::new();
    while let Some(done) = fetches.join_next().await {
        let (tool, installed) = done.expect("script fetch tasks do not panic")?;
        out.insert(tool, installed);
    }
    Ok(out)
}

/// Install or upgrade every shipped template; report what was done to each.
/// What is installed is read in three concurrent round trips' time.
pub async fn install(search: &Search) -> Result<Vec<InstallAction>, SearchError> {
    let (components, indices, scripts) = tokio::try_join!(
        installed_templates(search, TemplateKind::Component),
        installed_templates(search, TemplateKind::Index),
        installed_scripts(search)
    )?;
    let mut report = Vec::new();
    for t in index_templates(&search.names) {
        let installed = match t.kind {
            TemplateKind::Component => &components,
            TemplateKind::Index => &indices,
        };
        let content = t.body["_meta"]["vibe_content"].as_str();
        let action = match installed.get(&t.name) {
            None => Action::Installed,
            Some((Some(v), c)) if *v == TEMPLATE_VERSION && c.as_deref() == content => Action::UpToDate,
            Some((Some(v), _)) if *v > TEMPLATE_VERSION => Action::KeptNewer { installed: *v },
            Some((Some(v), _)) => Action::Upgraded { from: *v },
            Some((None, _)) => Action::Upgraded { from: 0 },
        };
        if matches!(action, Action::Installed | Action::Upgraded { .. }) {
            search.put(&format!("/{}/{}", t.kind.endpoint(), t.name), &t.body).await?;
        }
        report.push(InstallAction { kind: t.kind.label(), name: t.name, action });
    }
    for (tool, (id, installed)) in scripts {
        let source = search_template_source(&tool).unwrap_or_default();
        // Same version, other text (a development build): replace it.
        let action = match installed {
            Some(text) if text == source => Action::UpToDate,
            Some(_) => Action::Upgraded { from: TEMPLATE_VERSION },
            None => Action::Installed,
        };
        if action != Action::UpToDate {
            search
                .put(&format!("/_scripts/{id}"), &json!({ "script": { "lang": "mustache", "source": source } }))
                .await?;
        }
        report.push(InstallAction { kind: "search template", name: id, action });
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_index_takes_its_templates_source_without_the_recovery_copy() {
        let names = IndexNames::new("t1");
        let ast = source_without_recovery_copy(&names, "t1_data_analysis_abc_g1").expect("the AST template");
        assert_eq!(ast["recovery_source_enabled"], false);
        assert!(ast["excludes"].as_array().is_some_and(|e| e.contains(&json!("symbols"))), "{ast}");
        let files = source_without_recovery_copy(&names, "t1_data_files_abc_g1").expect("the files template");
        assert_eq!(files["excludes"], json!(["grams"]));
        assert_eq!(source_without_recovery_copy(&names, "other_data_files_abc_g1"), None);
    }

    #[test]
    fn template_version_follows_content() {
        let now = templates_fingerprint();
        assert_eq!(
            now, TEMPLATES_FINGERPRINT,
            "a shipped template changed: bump TEMPLATE_VERSION (now {TEMPLATE_VERSION}) and set TEMPLATES_FINGERPRINT to {now:?}"
        );
    }

    #[test]
    fn word_lists_are_inlined_from_their_files() {
        let t = index_templates(&IndexNames::new("zz"));
        let settings = &t[0].body["template"]["settings"]["analysis"]["filter"];
        let synonyms = settings["vibe_code_synonyms"]["synonyms"].as_array().expect("inlined list");
        assert!(synonyms.iter().any(|l| l == "remove, delete, drop, erase, discard"), "{synonyms:?}");
        assert!(synonyms.iter().all(|l| !l.as_str().unwrap().starts_with('#')));
    }

    #[test]
    fn shipped_templates_are_renamed_and_versioned() {
        let t = index_templates(&IndexNames::new("zz"));
        assert!(t.len() >= 4);
        assert_eq!(t[0].kind, TemplateKind::Component);
        for tpl in &t {
            assert!(tpl.name.starts_with("zz_"), "{}", tpl.name);
            assert_eq!(tpl.body["version"], json!(TEMPLATE_VERSION));
            for p in tpl.body["index_patterns"].as_array().into_iter().flatten() {
                assert!(p.as_str().unwrap().starts_with("zz_"));
            }
        }
    }
}
