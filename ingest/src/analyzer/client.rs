//! A small HTTP client for the model hosts the analyzer uses, in either API:
//! Ollama's `GET /`, `GET /api/tags` and `POST /api/generate`, or OpenAI's
//! `GET /v1/models` and `POST /v1/chat/completions` (never streamed).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use vibe_common::config::{LlmApi, OllamaHost};
use vibe_common::error_chain::BoxError;

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

/// Generation options sent with every Ollama request (Ollama's `options`).
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

/// What the answer should be.
#[derive(Debug, Clone, Copy)]
pub enum Format<'a> {
    /// Free text (the warm-up).
    Text,
    /// Any JSON (Ollama `format: "json"`, OpenAI `json_object`).
    Json,
    /// JSON valid against this schema, for servers that enforce one.
    Schema(&'a Value),
}

/// The fields of an answer that are used, whichever the API.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct GenerateResponse {
    #[serde(default)]
    pub response: String,
    #[serde(default)]
    pub done: bool,
    /// `"stop"`, `"length"` (ran out of `num_predict`), `"load"` (warm-up).
    #[serde(default)]
    pub done_reason: Option<String>,
    /// Tokens of the prompt and of the answer, when the host counts them.
    #[serde(default, rename = "prompt_eval_count")]
    pub prompt_tokens: u64,
    #[serde(default, rename = "eval_count")]
    pub completion_tokens: u64,
}

/// One configured model host, speaking Ollama's API or OpenAI's.
#[derive(Debug, Clone)]
pub struct LlmClient {
    http: reqwest::Client,
    base: String,
    cfg: OllamaHost,
    /// The bearer token read from `api_key_env`.
    key: Option<String>,
    /// Set once an OpenAI-compatible server refused `json_schema` in
    /// `response_format`: it gets llama-cpp-python's `json_object` with a
    /// `schema` from then on.
    schema_in_json_object: Arc<AtomicBool>,
}

impl LlmClient {
    /// A client for `cfg.host` (e.g. `http://127.0.0.1:11434`; a missing
    /// scheme means http). Errors when `api_key_env` names an unset variable.
    pub fn new(cfg: &OllamaHost) -> Result<Self, ClientError> {
        let mut base = cfg.host.trim().trim_end_matches('/').to_string();
        if !base.contains("://") {
            base = format!("http://{base}");
        }
        if cfg.api == LlmApi::Openai {
            // `http://host:8081/v1` and `http://host:8081` both work.
            base = base.trim_end_matches("/v1").to_string();
        }
        let setup_error = |source: BoxError| ClientError {
            host: base.clone(),
            request: "client setup".into(),
            source,
            status: None,
            timed_out: false,
        };
        let key =
            match cfg.api_key_env.as_deref() {
                None => None,
                Some(var) => Some(std::env::var(var).map_err(|_| {
                    setup_error(format!("the environment variable {var} (api_key_env) is not set").into())
                })?),
            };
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(cfg.timeout_secs.clamp(1, 10)))
            .build()
            .map_err(|e| setup_error(e.into()))?;
        Ok(Self { http, base, cfg: cfg.clone(), key, schema_in_json_object: Arc::default() })
    }

    /// The host as configured (without a trailing slash).
    pub fn host(&self) -> &str {
        &self.base
    }

    pub fn config(&self) -> &OllamaHost {
        &self.cfg
    }

    /// What the host is, for messages: "Ollama host" or "OpenAI-compatible host".
    pub fn kind(&self) -> &'static str {
        match self.cfg.api {
            LlmApi::Ollama => "Ollama host",
            LlmApi::Openai => "OpenAI-compatible host",
        }
    }

    /// How to make the configured model available on this host.
    pub fn install_hint(&self) -> String {
        match self.cfg.api {
            LlmApi::Ollama => format!(
                "install it with `OLLAMA_HOST={} ollama pull {}` or change \"model\" in the config",
                self.base, self.cfg.model
            ),
            LlmApi::Openai => "serve it under that name or change \"model\" in the config".to_string(),
        }
    }

    fn timeout(&self) -> Duration {
        Duration::from_secs(self.cfg.timeout_secs.max(1))
    }

    fn error(&self, request: &str, source: impl Into<BoxError>, status: Option<u16>, timed_out: bool) -> ClientError {
        ClientError { host: self.base.clone(), request: request.to_string(), source: source.into(), status, timed_out }
    }

    /// The limit of a health or model request: short, so that a host that
    /// hangs is named soon; `timeout_secs` if that is shorter.
    fn probe_timeout(&self) -> Duration {
        self.timeout().min(PROBE_TIMEOUT)
    }

    fn reqwest_error(&self, request: &str, e: reqwest::Error, limit: Duration) -> ClientError {
        let (status, timed_out) = (e.status().map(|s| s.as_u16()), e.is_timeout());
        if timed_out {
            let why = if limit < self.timeout() {
                format!("no answer within {}s (the health check's limit; is the host busy or hung?)", limit.as_secs())
            } else {
                format!("no answer within {}s (timeout_secs)", limit.as_secs())
            };
            self.error(request, why, status, true)
        } else {
            self.error(request, e, status, false)
        }
    }

    async fn send(&self, request: &str, rb: reqwest::RequestBuilder, limit: Duration) -> Result<String, ClientError> {
        let mut rb = rb.timeout(limit);
        if let Some(key) = &self.key {
            rb = rb.bearer_auth(key);
        }
        let resp = rb.send().await.map_err(|e| self.reqwest_error(request, e, limit))?;
        let status = resp.status();
        let body = resp.text().await.map_err(|e| self.reqwest_error(request, e, limit))?;
        if !status.is_success() {
            return Err(self.error(
                request,
                format!("HTTP {status}: {}", error_detail(&body)),
                Some(status.as_u16()),
                false,
            ));
        }
        Ok(body)
    }

    async fn get_json(&self, request: &'static str, path: &str) -> Result<Value, ClientError> {
        let rb = self.http.get(format!("{}{path}", self.base));
        let body = self.send(request, rb, self.probe_timeout()).await?;
        serde_json::from_str(&body).map_err(|e| self.error(request, InvalidJson(e), None, false))
    }

    /// The health request: Ollama's `GET /` ("Ollama is running"), or an
    /// OpenAI-compatible server's `GET /v1/models`.
    pub async fn ping(&self) -> Result<(), ClientError> {
        match self.cfg.api {
            LlmApi::Ollama => {
                let rb = self.http.get(format!("{}/", self.base));
                self.send("GET /", rb, self.probe_timeout()).await.map(|_| ())
            }
            LlmApi::Openai => self.models().await.map(|_| ()),
        }
    }

    /// The names of the models the host serves.
    pub async fn models(&self) -> Result<Vec<String>, ClientError> {
        let (request, path, list, keys): (_, _, _, &[&str]) = match self.cfg.api {
            LlmApi::Ollama => ("GET /api/tags", "/api/tags", "models", &["name", "model"]),
            LlmApi::Openai => ("GET /v1/models", "/v1/models", "data", &["id"]),
        };
        let v = self.get_json(request, path).await?;
        let models = v
            .get(list)
            .and_then(Value::as_array)
            .ok_or_else(|| self.error(request, format!("answer has no \"{list}\" list"), None, false))?;
        let mut names: Vec<String> = Vec::new();
        for name in models.iter().flat_map(|m| keys.iter().filter_map(|k| m.get(*k).and_then(Value::as_str))) {
            if !names.iter().any(|x| x == name) {
                names.push(name.to_string());
            }
        }
        Ok(names)
    }

    /// How to ask for an answer of `schema`: the schema itself, or any JSON
    /// when `json_schema` is off.
    pub fn answer_format<'a>(&self, schema: &'a Value) -> Format<'a> {
        if self.cfg.json_schema {
            Format::Schema(schema)
        } else {
            Format::Json
        }
    }

    /// One completion of `prompt`, not streamed, with the configured model
    /// and options. `attempt` (0 for the first) moves the seed, so that a
    /// request asked again does not get the same answer again.
    pub async fn generate(
        &self,
        prompt: &str,
        format: Format<'_>,
        attempt: usize,
    ) -> Result<GenerateResponse, ClientError> {
        let cfg = OllamaHost { seed: self.cfg.seed.wrapping_add(attempt as i64), ..self.cfg.clone() };
        match self.cfg.api {
            LlmApi::Ollama => self.generate_ollama(&cfg, prompt, format).await,
            LlmApi::Openai => self.generate_openai(&cfg, prompt, format, None).await,
        }
    }

    async fn generate_ollama(
        &self,
        cfg: &OllamaHost,
        prompt: &str,
        format: Format<'_>,
    ) -> Result<GenerateResponse, ClientError> {
        const REQ: &str = "POST /api/generate";
        let body = ollama_body(cfg, prompt, format);
        let rb = self.http.post(format!("{}/api/generate", self.base)).json(&body);
        let text = self.send(REQ, rb, self.timeout()).await?;
        serde_json::from_str(&text).map_err(|e| self.error(REQ, InvalidJson(e), None, false))
    }

    async fn generate_openai(
        &self,
        cfg: &OllamaHost,
        prompt: &str,
        format: Format<'_>,
        max_tokens: Option<i32>,
    ) -> Result<GenerateResponse, ClientError> {
        const REQ: &str = "POST /v1/chat/completions";
        let post = |in_json_object: bool| {
            let body = openai_body(cfg, prompt, format, max_tokens, in_json_object);
            self.send(REQ, self.http.post(format!("{}/v1/chat/completions", self.base)).json(&body), self.timeout())
        };
        let in_json_object = self.schema_in_json_object.load(Ordering::Relaxed);
        let text = match post(in_json_object).await {
            Err(e) if !in_json_object && matches!(format, Format::Schema(_)) && refuses_json_schema(&e) => {
                tracing::info!(host = %self.base, "json_schema refused; sending the schema in json_object instead");
                self.schema_in_json_object.store(true, Ordering::Relaxed);
                post(true).await?
            }
            other => other?,
        };
        let v: Value = serde_json::from_str(&text).map_err(|e| self.error(REQ, InvalidJson(e), None, false))?;
        let choice =
            v.pointer("/choices/0").ok_or_else(|| self.error(REQ, "answer has no \"choices\"", None, false))?;
        Ok(GenerateResponse {
            response: choice.pointer("/message/content").and_then(Value::as_str).unwrap_or_default().to_string(),
            done: true,
            done_reason: choice.get("finish_reason").and_then(Value::as_str).map(str::to_string),
            prompt_tokens: v.pointer("/usage/prompt_tokens").and_then(Value::as_u64).unwrap_or(0),
            completion_tokens: v.pointer("/usage/completion_tokens").and_then(Value::as_u64).unwrap_or(0),
        })
    }

    /// Warm-up, so the first real request does not pay for loading the
    /// model: an empty prompt makes Ollama load it; an OpenAI-compatible
    /// server is asked for one token.
    pub async fn warm_up(&self) -> Result<(), ClientError> {
        match self.cfg.api {
            LlmApi::Ollama => self.generate_ollama(&self.cfg, "", Format::Text).await.map(|_| ()),
            LlmApi::Openai => self.generate_openai(&self.cfg, "Say OK.", Format::Text, Some(1)).await.map(|_| ()),
        }
    }
}

/// The body of Ollama's `POST /api/generate`.
fn ollama_body(cfg: &OllamaHost, prompt: &str, format: Format<'_>) -> Value {
    let mut body = serde_json::json!({
        "model": cfg.model,
        "prompt": prompt,
        "stream": false,
        "options": GenerateOptions::from_config(cfg),
    });
    match format {
        Format::Text => {}
        Format::Json => body["format"] = "json".into(),
        Format::Schema(schema) => body["format"] = schema.clone(),
    }
    body
}

/// Whether an error answer refuses `response_format.type = "json_schema"`
/// (llama-cpp-python's server takes only `text` and `json_object`).
fn refuses_json_schema(e: &ClientError) -> bool {
    matches!(e.status, Some(400 | 422 | 500)) && e.source.to_string().contains("json_schema")
}

/// The body of `POST /v1/chat/completions`. `num_ctx` is the server's own
/// setting there; `num_predict` becomes `max_tokens` when it is a number.
/// A schema goes in OpenAI's `json_schema`, or with `in_json_object` in
/// `{"type": "json_object", "schema": …}` (llama-cpp-python, llama.cpp).
fn openai_body(
    cfg: &OllamaHost,
    prompt: &str,
    format: Format<'_>,
    max_tokens: Option<i32>,
    in_json_object: bool,
) -> Value {
    let mut body = serde_json::json!({
        "model": cfg.model,
        "messages": [{ "role": "user", "content": prompt }],
        "stream": false,
        "temperature": cfg.temperature,
        "seed": cfg.seed,
    });
    if let Some(n) = max_tokens.or((cfg.num_predict > 0).then_some(cfg.num_predict)) {
        body["max_tokens"] = n.into();
    }
    match format {
        Format::Text => {}
        Format::Json => body["response_format"] = serde_json::json!({ "type": "json_object" }),
        Format::Schema(schema) if in_json_object => {
            body["response_format"] = serde_json::json!({ "type": "json_object", "schema": schema })
        }
        Format::Schema(schema) => {
            body["response_format"] = serde_json::json!({
                "type": "json_schema",
                "json_schema": { "name": "answer", "strict": true, "schema": schema },
            })
        }
    }
    body
}

/// The message of an error answer: Ollama's `{"error": "..."}`, OpenAI's
/// `{"error": {"message": "..."}}`, or the start of the body.
fn error_detail(body: &str) -> String {
    let v = serde_json::from_str::<Value>(body).ok();
    let error = v.as_ref().and_then(|v| v.get("error"));
    error
        .and_then(|e| e.as_str().or_else(|| e.get("message").and_then(Value::as_str)))
        .map(str::to_string)
        .unwrap_or_else(|| body.chars().take(300).collect())
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
    fn ollama_body_carries_options_and_the_schema() {
        let cfg = OllamaHost::default();
        let v = ollama_body(&cfg, "p", Format::Json);
        assert_eq!(v["stream"], false);
        assert_eq!(v["format"], "json");
        assert_eq!(v["options"]["seed"], 42);
        assert_eq!(v["options"]["num_ctx"], 4096);
        assert_eq!(v["options"]["num_predict"], 2048);
        assert!(v.get("system").is_none());
        let schema = serde_json::json!({"type": "object"});
        assert_eq!(ollama_body(&cfg, "p", Format::Schema(&schema))["format"], schema);
        assert!(ollama_body(&cfg, "", Format::Text).get("format").is_none());
    }

    #[test]
    fn openai_body_carries_the_schema_and_max_tokens() {
        let cfg = OllamaHost { api: LlmApi::Openai, model: "m".into(), num_predict: -1, ..OllamaHost::default() };
        let schema = serde_json::json!({"type": "object"});
        let v = openai_body(&cfg, "p", Format::Schema(&schema), None, false);
        assert_eq!(v["messages"][0]["content"], "p");
        assert_eq!(v["response_format"]["type"], "json_schema");
        assert_eq!(v["response_format"]["json_schema"]["schema"], schema);
        assert!(v.get("max_tokens").is_none(), "num_predict -1 = no limit");
        let llama_cpp = openai_body(&cfg, "p", Format::Schema(&schema), None, true);
        assert_eq!(llama_cpp["response_format"], serde_json::json!({"type": "json_object", "schema": schema}));
        assert_eq!(openai_body(&cfg, "p", Format::Json, Some(1), false)["response_format"]["type"], "json_object");
        assert_eq!(openai_body(&cfg, "p", Format::Text, Some(1), false)["max_tokens"], 1);
        let capped = OllamaHost { num_predict: 300, ..cfg };
        assert_eq!(openai_body(&capped, "p", Format::Text, None, false)["max_tokens"], 300);
    }

    #[test]
    fn error_details_of_both_apis() {
        assert_eq!(error_detail(r#"{"error":"model not found"}"#), "model not found");
        assert_eq!(error_detail(r#"{"error":{"message":"bad key","type":"auth"}}"#), "bad key");
        assert_eq!(error_detail("plain"), "plain");
    }
}
