//! A scripted Ollama-compatible HTTP server for the analyzer tests and the
//! cluster benchmark. It speaks `GET /`, `GET /api/tags` and
//! `POST /api/generate` (non-streamed) on 127.0.0.1:0, on its own thread and
//! tokio runtime, so that tests can drive synchronous code too.
//!
//! File prompts are answered from the JSON skeleton at their end (one
//! `{"path": ..}` line per file), following a script of [`Reply`]s.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::sync::watch;
use vibe_common::config::OllamaHost;

pub const MODEL: &str = "qwen2.5-coder:3b-instruct";

/// How the server answers one file prompt.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Valid JSON with every file.
    Good,
    /// Valid content in a ```json fenced block with prose around it.
    Fenced,
    /// Trailing commas after the last tag and the last file.
    TrailingCommas,
    /// Unquoted keys.
    BareKeys,
    /// The last file of the batch is left out.
    MissingFile,
    /// The first path comes back upper-cased.
    ChangedPath,
    /// Not JSON at all.
    Garbage,
    /// An HTTP error status with an Ollama-style `{"error": ..}` body.
    Status(u16),
    /// Never answers (the client times out).
    Hang,
}

/// The behaviour of one scripted host.
#[derive(Debug, Clone)]
pub struct MockOptions {
    /// Name used in descriptions and tags, to see which host answered.
    pub name: String,
    /// Installed models (`/api/tags`).
    pub models: Vec<String>,
    /// Delay before answering each file or summary prompt.
    pub latency: Duration,
    /// Replies to successive file prompts; [`MockOptions::then`] afterwards.
    pub script: Vec<Reply>,
    /// Reply once the script is used up.
    pub then: Reply,
    /// After answering this many file prompts, the server dies: the next
    /// prompt's connection is cut and the port is closed.
    pub die_after: Option<usize>,
    /// Status answered to the warm-up request instead of 200.
    pub warmup_status: Option<u16>,
    /// A bearer token `/api/tags` and `/api/generate` require (401 without it).
    pub key: Option<String>,
}

impl Default for MockOptions {
    fn default() -> Self {
        Self {
            name: "mock".into(),
            models: vec![MODEL.into(), "llama3:latest".into()],
            latency: Duration::ZERO,
            script: Vec::new(),
            then: Reply::Good,
            die_after: None,
            warmup_status: None,
            key: None,
        }
    }
}

impl MockOptions {
    pub fn named(name: &str) -> Self {
        Self { name: name.into(), ..Default::default() }
    }
}

#[derive(Default)]
struct Recorded {
    /// Bodies of the file and summary prompts, in order.
    generate: Vec<Value>,
    warmups: usize,
    /// Files answered (in good or repairable JSON).
    files_answered: usize,
    file_prompts: usize,
}

struct Shared {
    opts: MockOptions,
    script: Mutex<VecDeque<Reply>>,
    recorded: Mutex<Recorded>,
    kill: watch::Sender<bool>,
}

/// A running scripted host; stopped when dropped.
pub struct MockOllama {
    pub url: String,
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl MockOllama {
    pub fn start(opts: MockOptions) -> MockOllama {
        let (kill, _) = watch::channel(false);
        let shared = Arc::new(Shared {
            script: Mutex::new(opts.script.iter().cloned().collect()),
            opts,
            recorded: Mutex::new(Recorded::default()),
            kill,
        });
        let (addr_tx, addr_rx) = std::sync::mpsc::channel::<SocketAddr>();
        let server_shared = shared.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
            rt.block_on(serve(server_shared, addr_tx));
        });
        let addr = addr_rx.recv().expect("mock Ollama did not start");
        MockOllama { url: format!("http://{addr}"), shared, thread: Some(thread) }
    }

    /// A host entry of the config pointing at this server.
    pub fn host(&self) -> OllamaHost {
        OllamaHost { host: self.url.clone(), model: MODEL.into(), timeout_secs: 10, ..OllamaHost::default() }
    }

    /// Stop answering: open connections are cut, the port is closed.
    pub fn kill(&self) {
        let _ = self.shared.kill.send_replace(true);
    }

    /// Bodies of the `/api/generate` requests other than warm-ups.
    pub fn generate_bodies(&self) -> Vec<Value> {
        self.shared.recorded.lock().unwrap().generate.clone()
    }

    /// The prompts of the file requests, in order.
    pub fn file_prompts(&self) -> Vec<String> {
        self.generate_bodies()
            .iter()
            .filter_map(|b| b["prompt"].as_str())
            .filter(|p| !p.contains("=== README ==="))
            .map(str::to_string)
            .collect()
    }

    pub fn warmups(&self) -> usize {
        self.shared.recorded.lock().unwrap().warmups
    }

    /// Files answered by this host (including answers later rejected).
    pub fn files_answered(&self) -> usize {
        self.shared.recorded.lock().unwrap().files_answered
    }
}

impl Drop for MockOllama {
    fn drop(&mut self) {
        self.kill();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

async fn serve(shared: Arc<Shared>, addr_tx: std::sync::mpsc::Sender<SocketAddr>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    addr_tx.send(listener.local_addr().unwrap()).unwrap();
    let app = Router::new()
        .route("/", get(|| async { "Ollama is running" }))
        .route("/api/tags", get(tags))
        .route("/api/generate", post(generate))
        .with_state(shared.clone());
    let mut killed = shared.kill.subscribe();
    let mut connections = tokio::task::JoinSet::new();
    loop {
        tokio::select! {
            _ = killed.wait_for(|k| *k) => break,
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let service = hyper_util::service::TowerToHyperService::new(app.clone());
                let mut conn_killed = shared.kill.subscribe();
                connections.spawn(async move {
                    let conn = hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
                    tokio::select! {
                        _ = conn => {}
                        _ = conn_killed.wait_for(|k| *k) => {}
                    }
                });
            }
        }
    }
    drop(listener);
    // Dropping the connection futures closes their sockets.
    connections.abort_all();
    while connections.join_next().await.is_some() {}
}

/// A 401 answer when the host requires a key the request does not carry.
fn unauthorized(shared: &Shared, headers: &HeaderMap) -> Option<Response> {
    let key = shared.opts.key.as_deref()?;
    let sent = headers.get("authorization").and_then(|v| v.to_str().ok());
    (sent != Some(format!("Bearer {key}").as_str())).then(|| error(401, "unauthorized"))
}

async fn tags(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    if let Some(refused) = unauthorized(&shared, &headers) {
        return refused;
    }
    let models: Vec<Value> = shared.opts.models.iter().map(|m| json!({ "name": m, "model": m, "size": 1 })).collect();
    Json(json!({ "models": models })).into_response()
}

fn error(status: u16, message: &str) -> Response {
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (code, Json(json!({ "error": message }))).into_response()
}

async fn generate(State(shared): State<Arc<Shared>>, headers: HeaderMap, Json(body): Json<Value>) -> Response {
    if let Some(refused) = unauthorized(&shared, &headers) {
        return refused;
    }
    let opts = &shared.opts;
    let model = body["model"].as_str().unwrap_or_default().to_string();
    // Like Ollama, a name without a tag means `:latest`.
    let tagged = if model.contains(':') { model.clone() } else { format!("{model}:latest") };
    if !opts.models.iter().any(|m| *m == model || *m == tagged) {
        return error(404, &format!("model \"{model}\" not found, try pulling it first"));
    }
    let prompt = body["prompt"].as_str().unwrap_or_default().to_string();
    if prompt.is_empty() {
        shared.recorded.lock().unwrap().warmups += 1;
        if let Some(status) = opts.warmup_status {
            return error(status, "failed to load model");
        }
        return Json(json!({ "model": model, "response": "", "done": true, "done_reason": "load" })).into_response();
    }
    if body["stream"] != json!(false) {
        return error(400, "the scripted server only answers stream: false");
    }
    shared.recorded.lock().unwrap().generate.push(body.clone());

    if prompt.contains("=== README ===") {
        tokio::time::sleep(opts.latency).await;
        let project = prompt.split('"').nth(1).unwrap_or("?");
        let summary = format!("{project} is a test project. It is summarized by {}.", opts.name);
        return Json(json!({ "model": model, "response": json!({ "summary": summary }).to_string(), "done": true }))
            .into_response();
    }

    let served = {
        let mut rec = shared.recorded.lock().unwrap();
        rec.file_prompts += 1;
        rec.file_prompts - 1
    };
    if opts.die_after.is_some_and(|n| served >= n) {
        // Die mid-request: this connection and all others are cut.
        shared.kill.send_replace(true);
        std::future::pending::<()>().await;
    }
    let reply = shared.script.lock().unwrap().pop_front().unwrap_or_else(|| opts.then.clone());
    tokio::time::sleep(opts.latency).await;
    let paths = requested_paths(&body);
    let text = match reply {
        Reply::Status(code) => return error(code, "scripted failure"),
        Reply::Hang => {
            std::future::pending::<()>().await;
            unreachable!()
        }
        Reply::Garbage => "I am sorry, I cannot describe these files.".to_string(),
        other => answer(&opts.name, &paths, &other),
    };
    let answered = if text.starts_with('{') || text.contains("```") { paths.len() } else { 0 };
    shared.recorded.lock().unwrap().files_answered += answered;
    Json(json!({ "model": model, "response": text, "done": true, "done_reason": "stop" })).into_response()
}

/// The paths a file request asks about: the `enum` of the JSON schema sent
/// in `format`, or, when it asks for any JSON, the prompt's skeleton.
pub fn requested_paths(body: &Value) -> Vec<String> {
    match body["format"].pointer("/properties/files/items/properties/path/enum").and_then(Value::as_array) {
        Some(paths) => paths.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        None => skeleton_paths(body["prompt"].as_str().unwrap_or_default()),
    }
}

/// The bodies of the file requests (not the README's), in order.
pub fn file_bodies(bodies: &[Value]) -> Vec<&Value> {
    bodies.iter().filter(|b| !b["prompt"].as_str().unwrap_or_default().contains("=== README ===")).collect()
}

/// The paths of the JSON skeleton at the end of a file prompt.
pub fn skeleton_paths(prompt: &str) -> Vec<String> {
    prompt
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("{\"path\":"))
        .filter_map(|l| serde_json::from_str::<Value>(l.trim_end_matches(',')).ok())
        .filter_map(|v| v["path"].as_str().map(str::to_string))
        .collect()
}

/// The description the scripted host `name` gives `path`.
pub fn description(name: &str, path: &str) -> String {
    format!("{path} described by {name}")
}

fn answer(name: &str, paths: &[String], reply: &Reply) -> String {
    let mut paths: Vec<String> = paths.to_vec();
    match reply {
        Reply::MissingFile => {
            paths.pop();
        }
        Reply::ChangedPath => {
            if let Some(p) = paths.first_mut() {
                *p = p.to_uppercase();
            }
        }
        _ => {}
    }
    let entries: Vec<String> = paths
        .iter()
        .map(|p| {
            let d = json!(description(name, p)).to_string();
            let p = json!(p).to_string();
            match reply {
                Reply::TrailingCommas => {
                    format!("{{\"path\": {p}, \"description\": {d}, \"tags\": [\"mock\", \"{name}\",],}}")
                }
                Reply::BareKeys => {
                    format!("{{path: {p}, description: {d}, tags: [\"mock\", \"{name}\"]}}")
                }
                _ => format!("{{\"path\": {p}, \"description\": {d}, \"tags\": [\"mock\", \"{name}\"]}}"),
            }
        })
        .collect();
    let body = match reply {
        Reply::TrailingCommas => format!("{{\"files\": [{},],}}", entries.join(", ")),
        Reply::BareKeys => format!("{{files: [{}]}}", entries.join(", ")),
        _ => format!("{{\"files\": [{}]}}", entries.join(", ")),
    };
    match reply {
        Reply::Fenced => {
            format!("Here is the JSON you asked for:\n```json\n{body}\n```\nLet me know if you need more.")
        }
        _ => body,
    }
}
