//! A small HTTP client for the Ollama endpoints the analyzer uses:
//! `GET /`, `GET /api/tags` and `POST /api/generate` (never streamed).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use vibe_common::config::OllamaHost;
use vibe_common::error::BoxError;

/// Timeout of the `GET` health requests (capped by `timeout_secs`).
const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// A failed request to one host: names the host and the request, and keeps
/// the cause (the transport error, or the host's error answer) as its source.
#[derive(Debug, thiserror::Error)]
#[error("{host}: {request} failed")]
pub struct ClientError {
    pub host: String,
    /// e.g. `POST /api/generate`.
    pub request: String,
    #[source]
    pub source: BoxError,
    /// HTTP status, when the host answered.
    pub status: Option<u16>,
    pub timed_out: bool,
}

/// Generation options sent with every request (Ollama's `options`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GenerateOptions {
    pub temperature: f64,
    pub seed: i64,
    pub num_ctx: u32,
    pub num_predict: i32,
}

impl GenerateOptions {
    pub fn from_config(cfg: &OllamaHost) -> Self {
        Self { temperature: cfg.temperature, seed: cfg.seed, num_ctx: cfg.num_ctx, num_predict: cfg.num_predict }
    }
}

/// Body of `POST /api/generate`.
#[derive(Debug, Clone, Serialize)]
pub struct GenerateRequest<'a> {
    pub model: &'a str,
    pub prompt: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<&'a str>,
    pub stream: bool,
    /// `"json"` asks Ollama for JSON output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'a str>,
    pub options: GenerateOptions,
}

/// The fields of a non-streamed `/api/generate` answer that are used.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GenerateResponse {
    #[serde(default)]
    pub response: String,
    #[serde(default)]
    pub done: bool,
    /// `"stop"`, `"length"` (ran out of `num_predict`), `"load"` (warm-up).
    #[serde(default)]
    pub done_reason: Option<String>,
}

/// One configured Ollama host.
#[derive(Debug, Clone)]
pub struct OllamaClient {
    http: reqwest::Client,
    base: String,
    cfg: OllamaHost,
}

impl OllamaClient {
    /// A client for `cfg.host` (e.g. `http://127.0.0.1:11434`; a missing scheme means http).
    pub fn new(cfg: &OllamaHost) -> Result<Self, ClientError> {
        let mut base = cfg.host.trim().trim_end_matches('/').to_string();
        if !base.contains("://") {
            base = format!("http://{base}");
        }
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(cfg.timeout_secs.clamp(1, 10)))
            .build()
            .map_err(|e| ClientError {
                host: base.clone(),
                request: "client setup".into(),
                source: e.into(),
                status: None,
                timed_out: false,
            })?;
        Ok(Self { http, base, cfg: cfg.clone() })
    }

    /// The host as configured (without a trailing slash).
    pub fn host(&self) -> &str {
        &self.base
    }

    pub fn config(&self) -> &OllamaHost {
        &self.cfg
    }

    fn timeout(&self) -> Duration {
        Duration::from_secs(self.cfg.timeout_secs.max(1))
    }

    fn error(&self, request: &str, source: impl Into<BoxError>, status: Option<u16>, timed_out: bool) -> ClientError {
        ClientError { host: self.base.clone(), request: request.to_string(), source: source.into(), status, timed_out }
    }

    fn reqwest_error(&self, request: &str, e: reqwest::Error) -> ClientError {
        let (status, timed_out) = (e.status().map(|s| s.as_u16()), e.is_timeout());
        if timed_out {
            self.error(request, format!("no answer within {}s (timeout_secs)", self.cfg.timeout_secs), status, true)
        } else {
            self.error(request, e, status, false)
        }
    }

    async fn send(&self, request: &str, rb: reqwest::RequestBuilder) -> Result<String, ClientError> {
        let resp = rb.send().await.map_err(|e| self.reqwest_error(request, e))?;
        let status = resp.status();
        let body = resp.text().await.map_err(|e| self.reqwest_error(request, e))?;
        if !status.is_success() {
            // Ollama answers errors as {"error": "..."}.
            let detail = serde_json::from_str::<Value>(&body)
                .ok()
                .and_then(|v| v.get("error").and_then(Value::as_str).map(str::to_string))
                .unwrap_or_else(|| body.chars().take(300).collect());
            return Err(self.error(request, format!("HTTP {status}: {detail}"), Some(status.as_u16()), false));
        }
        Ok(body)
    }

    /// `GET /`: Ollama answers "Ollama is running".
    pub async fn ping(&self) -> Result<String, ClientError> {
        let rb = self.http.get(format!("{}/", self.base)).timeout(self.timeout().min(PROBE_TIMEOUT));
        self.send("GET /", rb).await
    }

    /// `GET /api/tags`: the names of the installed models.
    pub async fn models(&self) -> Result<Vec<String>, ClientError> {
        const REQ: &str = "GET /api/tags";
        let rb = self.http.get(format!("{}/api/tags", self.base)).timeout(self.timeout().min(PROBE_TIMEOUT));
        let body = self.send(REQ, rb).await?;
        let v: Value = serde_json::from_str(&body).map_err(|e| self.error(REQ, InvalidJson(e), None, false))?;
        let models = v
            .get("models")
            .and_then(Value::as_array)
            .ok_or_else(|| self.error(REQ, "answer has no \"models\" list", None, false))?;
        let mut names = Vec::new();
        for m in models {
            for key in ["name", "model"] {
                if let Some(n) = m.get(key).and_then(Value::as_str) {
                    if !names.iter().any(|x| x == n) {
                        names.push(n.to_string());
                    }
                }
            }
        }
        Ok(names)
    }

    /// `POST /api/generate`, not streamed, with the configured model and options.
    pub async fn generate(
        &self,
        system: Option<&str>,
        prompt: &str,
        json: bool,
    ) -> Result<GenerateResponse, ClientError> {
        const REQ: &str = "POST /api/generate";
        let body = GenerateRequest {
            model: &self.cfg.model,
            prompt,
            system,
            stream: false,
            format: json.then_some("json"),
            options: GenerateOptions::from_config(&self.cfg),
        };
        let rb = self.http.post(format!("{}/api/generate", self.base)).json(&body).timeout(self.timeout());
        let text = self.send(REQ, rb).await?;
        serde_json::from_str(&text).map_err(|e| self.error(REQ, InvalidJson(e), None, false))
    }

    /// Warm-up: an empty prompt makes Ollama load the model into memory.
    pub async fn warm_up(&self) -> Result<(), ClientError> {
        self.generate(None, "", false).await.map(|_| ())
    }
}

/// An answer that is not the JSON the request expects.
#[derive(Debug, thiserror::Error)]
#[error("invalid JSON answer")]
struct InvalidJson(#[source] serde_json::Error);

/// Whether `installed` (from `/api/tags`) holds `model`; a model without a
/// tag means `:latest`.
pub fn model_installed(installed: &[String], model: &str) -> bool {
    let want = with_tag(model);
    installed.iter().any(|m| m == model || with_tag(m) == want)
}

fn with_tag(model: &str) -> String {
    let name = model.rsplit('/').next().unwrap_or(model);
    if name.contains(':') {
        model.to_string()
    } else {
        format!("{model}:latest")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_matching() {
        let installed = vec!["qwen2.5-coder:3b-instruct".to_string(), "llama3:latest".to_string()];
        assert!(model_installed(&installed, "qwen2.5-coder:3b-instruct"));
        assert!(model_installed(&installed, "llama3"));
        assert!(model_installed(&installed, "llama3:latest"));
        assert!(!model_installed(&installed, "qwen2.5-coder:7b"));
        assert!(!model_installed(&installed, "qwen2.5-coder"));
    }

    #[test]
    fn request_body_carries_options() {
        let cfg = OllamaHost::default();
        let body = GenerateRequest {
            model: &cfg.model,
            prompt: "p",
            system: None,
            stream: false,
            format: Some("json"),
            options: GenerateOptions::from_config(&cfg),
        };
        let v = serde_json::to_value(&body).unwrap();
        assert_eq!(v["stream"], false);
        assert_eq!(v["format"], "json");
        assert_eq!(v["options"]["seed"], 42);
        assert_eq!(v["options"]["num_ctx"], 4096);
        assert_eq!(v["options"]["num_predict"], 2048);
        assert!(v.get("system").is_none());
    }
}
