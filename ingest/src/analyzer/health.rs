//! The checks run on every configured host before any work:
//! 1. it answers (Ollama `GET /`, OpenAI `GET /v1/models`);
//! 2. it lists the configured model (`GET /api/tags`, `GET /v1/models`);
//! 3. a warm-up request loads the model.

use super::client::{model_installed, LlmClient};
use vibe_common::error_chain::BoxError;

/// Which check failed on a host. The cause (from the client) is the source.
/// `kind` is "Ollama host" or "OpenAI-compatible host"; `request` the one that failed.
#[derive(Debug, thiserror::Error)]
pub enum HostCheckError {
    #[error("{kind} {host} is not reachable ({request} failed)")]
    Unreachable {
        kind: &'static str,
        host: String,
        request: String,
        #[source]
        source: BoxError,
    },
    #[error("{kind} {host}: cannot list the installed models ({request} failed)")]
    Tags {
        kind: &'static str,
        host: String,
        request: String,
        #[source]
        source: BoxError,
    },
    #[error("{kind} {host}: model {model:?} is not installed (installed: {}); {hint}", fmt_models(.installed))]
    ModelMissing { kind: &'static str, host: String, model: String, installed: Vec<String>, hint: String },
    #[error("{kind} {host}: warm-up of model {model:?} failed ({request})")]
    WarmUp {
        kind: &'static str,
        host: String,
        model: String,
        request: String,
        #[source]
        source: BoxError,
    },
    #[error("the health check of a model host failed")]
    Task(#[source] tokio::task::JoinError),
}

fn fmt_models(models: &[String]) -> String {
    if models.is_empty() {
        "none".to_string()
    } else {
        models.join(", ")
    }
}

/// Run the three checks on one host, stopping at the first that fails.
pub async fn check_host(client: &LlmClient) -> Result<(), HostCheckError> {
    let (kind, host) = (client.kind(), client.host().to_string());
    let model = client.config().model.clone();
    client.ping().await.map_err(|e| HostCheckError::Unreachable {
        kind,
        host: host.clone(),
        request: e.request,
        source: e.source,
    })?;
    let installed = client.models().await.map_err(|e| HostCheckError::Tags {
        kind,
        host: host.clone(),
        request: e.request,
        source: e.source,
    })?;
    if !model_installed(&installed, &model) {
        return Err(HostCheckError::ModelMissing { kind, host, model, installed, hint: client.install_hint() });
    }
    client.warm_up().await.map_err(|e| HostCheckError::WarmUp {
        kind,
        host,
        model,
        request: e.request,
        source: e.source,
    })
}

/// Check every host concurrently; all failures are returned, in host order.
pub async fn check_all(clients: &[LlmClient]) -> Result<(), Vec<HostCheckError>> {
    let mut set = tokio::task::JoinSet::new();
    for (i, c) in clients.iter().enumerate() {
        let c = c.clone();
        set.spawn(async move { (i, check_host(&c).await) });
    }
    let mut failures: Vec<(usize, HostCheckError)> = Vec::new();
    while let Some(res) = set.join_next().await {
        match res {
            Ok((_, Ok(()))) => {}
            Ok((i, Err(e))) => failures.push((i, e)),
            Err(e) => failures.push((usize::MAX, HostCheckError::Task(e))),
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        failures.sort_by_key(|(i, _)| *i);
        Err(failures.into_iter().map(|(_, e)| e).collect())
    }
}
