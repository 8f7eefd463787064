//! The checks run on every configured host before any work:
//! 1. `GET /` answers;
//! 2. `GET /api/tags` lists the configured model;
//! 3. a warm-up `POST /api/generate` with an empty prompt loads the model.

use super::client::{model_installed, OllamaClient};
use vibe_common::error::BoxError;

/// Which check failed on a host. The cause (from the client) is the source.
#[derive(Debug, thiserror::Error)]
pub enum HostCheckError {
    #[error("Ollama host {host} is not reachable (GET / failed)")]
    Unreachable {
        host: String,
        #[source]
        source: BoxError,
    },
    #[error("Ollama host {host}: cannot list the installed models (GET /api/tags failed)")]
    Tags {
        host: String,
        #[source]
        source: BoxError,
    },
    #[error("Ollama host {host}: model {model:?} is not installed (installed: {}); install it with `OLLAMA_HOST={host} ollama pull {model}` or change \"model\" in the config", fmt_models(.installed))]
    ModelMissing { host: String, model: String, installed: Vec<String> },
    #[error("Ollama host {host}: warm-up of model {model:?} failed (POST /api/generate with an empty prompt)")]
    WarmUp {
        host: String,
        model: String,
        #[source]
        source: BoxError,
    },
    #[error("the health check of an Ollama host failed")]
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
pub async fn check_host(client: &OllamaClient) -> Result<(), HostCheckError> {
    let host = client.host().to_string();
    let model = client.config().model.clone();
    client.ping().await.map_err(|e| HostCheckError::Unreachable { host: host.clone(), source: e.source })?;
    let installed = client.models().await.map_err(|e| HostCheckError::Tags { host: host.clone(), source: e.source })?;
    if !model_installed(&installed, &model) {
        return Err(HostCheckError::ModelMissing { host, model, installed });
    }
    client.warm_up().await.map_err(|e| HostCheckError::WarmUp { host, model, source: e.source })?;
    Ok(())
}

/// Check every host concurrently; all failures are returned, in host order.
pub async fn check_all(clients: &[OllamaClient]) -> Result<(), Vec<HostCheckError>> {
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
