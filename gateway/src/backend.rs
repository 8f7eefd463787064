//! Running stored search templates. One tool call = one `_search/template`
//! request against an index, an alias or a wildcard over aliases.
//!
//! When a stored template is missing (a fresh cluster, or templates deleted),
//! the shipped templates are installed and the request is retried once.

use serde_json::{json, Value};
use tokio::sync::Mutex;
use vibe_common::backend::naming::IndexNames;
use vibe_common::backend::search::{Search, SearchError};
use vibe_common::backend::templates;

use crate::search_hits::Response;
use crate::template_params::TemplateParams;

/// A failed backend request, as the tool result tells it.
#[derive(Debug, thiserror::Error)]
#[error("search backend unavailable: {0}")]
pub struct BackendError(pub String);

impl From<SearchError> for BackendError {
    fn from(e: SearchError) -> Self {
        BackendError(vibe_common::error_chain::chain(&e))
    }
}

pub struct Backend {
    search: Search,
    install_lock: Mutex<()>,
}

/// The fields of a file's outline read with its text: what a definition's
/// lines and names need, not its docs, its variables or its uses (a large
/// file's uses are most of its document).
static OUTLINE_FIELDS: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
    let lists = ["functions", "classes", "structs", "enums", "interfaces"];
    let fields = ["name", "kind", "owner", "line", "signature"];
    lists.iter().flat_map(|l| fields.iter().map(move |f| format!("ast.{l}.{f}"))).collect()
});

impl Backend {
    pub fn new(search: Search) -> Self {
        Self { search, install_lock: Mutex::new(()) }
    }

    pub fn search(&self) -> &Search {
        &self.search
    }

    pub fn names(&self) -> &IndexNames {
        &self.search.names
    }

    /// The stored-script id of a shipped template.
    pub fn template_id(&self, template: &str) -> String {
        templates::search_template_id(&self.search.names, template)
    }

    /// The stored text of files, each by its files index (or alias) and
    /// path (the document id), in one `_mget`: `None` for a file not there.
    /// The whole `_source` is asked for: OpenSearch returns its stored bytes
    /// as they are, while a filter (`["content"]`) parses the whole text into
    /// a map and writes it out again (11 % of its CPU samples under name
    /// look-ups, which read one file in 14 % of calls). The rest of a files
    /// document is its ~150 bytes of metadata.
    pub async fn contents(&self, files: &[(String, String)]) -> Result<Vec<Option<String>>, BackendError> {
        if files.is_empty() {
            return Ok(Vec::new());
        }
        let docs: Vec<Value> =
            files.iter().map(|(index, path)| json!({ "_index": index, "_id": path, "_source": true })).collect();
        let response = self.search.post("/_mget", &json!({ "docs": docs })).await?;
        let found = response["docs"].as_array().cloned().unwrap_or_default();
        Ok((0..files.len())
            .map(|i| found.get(i).and_then(|d| d["_source"]["content"].as_str()).map(str::to_string))
            .collect())
    }

    /// One file's stored text and its outline (its definitions but
    /// variables: name, kind, owner, lines and signature; not its uses) (the `ast` of its document in
    /// the AST index; both documents' id is the path), in one `_mget`.
    pub async fn text_and_outline(
        &self,
        files: &str,
        ast: &str,
        path: &str,
    ) -> Result<(Option<String>, Option<Value>), BackendError> {
        let docs = json!({ "docs": [
            { "_index": files, "_id": path, "_source": ["content"] },
            { "_index": ast, "_id": path, "_source": &*OUTLINE_FIELDS },
        ]});
        let response = self.search.post("/_mget", &docs).await?;
        let text = response["docs"][0]["_source"]["content"].as_str().map(str::to_string);
        let outline = response["docs"][1]["_source"].get("ast").cloned();
        Ok((text, outline))
    }

    /// Runs the stored template `template` against `index` with `params`
    /// (the template's params, typed in [`crate::template_params`]): its
    /// hits and aggregations. Missing indices give empty hits, not an error.
    pub async fn run(
        &self,
        template: &str,
        index: &str,
        params: impl TemplateParams,
    ) -> Result<Response, BackendError> {
        Ok(Response::of(self.run_json(template, index, params).await?))
    }

    /// [`Backend::run`]'s answer as OpenSearch sent it (for a reader that
    /// takes the JSON, as the project list's). The params are serialized
    /// here, once, into the request body.
    pub async fn run_json(
        &self,
        template: &str,
        index: &str,
        params: impl TemplateParams,
    ) -> Result<Value, BackendError> {
        let path = search_path(index, params.scored_across_indices());
        let params = serde_json::to_value(params).map_err(|e| BackendError(format!("template params: {e}")))?;
        let body = json!({ "id": self.template_id(template), "params": params });
        tracing::trace!(path, body = %body, "search template request");
        match self.search.post(&path, &body).await {
            Ok(v) => Ok(v),
            Err(e) if is_missing_script(&e) => {
                self.install().await?;
                Ok(self.search.post(&path, &body).await?)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Installs (or upgrades) the shipped templates; concurrent callers wait for one install.
    pub async fn install(&self) -> Result<(), BackendError> {
        let _guard = self.install_lock.lock().await;
        let report = templates::install(&self.search).await?;
        for action in report {
            tracing::debug!("{action}");
        }
        Ok(())
    }
}

/// The `_search/template` request path of a run. A question in words
/// (`params.question`) is ranked by BM25, whose term statistics are each
/// project's own: over several projects their scores compare only on
/// statistics gathered from all of them first (`dfs_query_then_fetch`;
/// OpenSearch skips that phase when one shard answers).
fn search_path(index: &str, scored_across_indices: bool) -> String {
    let dfs = if scored_across_indices { "&search_type=dfs_query_then_fetch" } else { "" };
    format!("/{index}/_search/template?ignore_unavailable=true&allow_no_indices=true{dfs}")
}

fn is_missing_script(e: &SearchError) -> bool {
    match e {
        SearchError::Status { status, body, .. } => {
            (*status == 404 || *status == 400 || *status == 500)
                && (body.contains("unable to find script")
                    || body.contains("resource_not_found_exception") && body.contains("script"))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_in_words_rank_on_every_projects_statistics() {
        use crate::template_params::{code, Pass};
        let question = code("search_by_code_functions", "parse a range header", 3, 0, Pass::Exact);
        let q = search_path("p_ast_*", question.scored_across_indices());
        assert!(q.ends_with("&search_type=dfs_query_then_fetch"), "{q}");
        let name = code("search_by_code_functions", "parse_range", 3, 0, Pass::Exact);
        assert!(!search_path("p_ast_*", name.scored_across_indices()).contains("search_type"));
        let imports = crate::template_params::imports("parse a range header", 3, 0);
        assert!(!imports.scored_across_indices());
    }
}
