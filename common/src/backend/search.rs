//! OpenSearch access: a client built from config (basic auth, CA file or
//! `insecure`), and a few JSON helpers over the generic transport. Every error
//! names the host or the request path. `https://` hosts go through the
//! opensearch crate; `http://` hosts through [`PlainHttp`], which has no TLS
//! set-up cost.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use opensearch::auth::Credentials;
use opensearch::cert::{Certificate, CertificateValidation};
use opensearch::http::headers::{HeaderMap, HeaderValue, CONTENT_TYPE};
use opensearch::http::transport::{SingleNodeConnectionPool, TransportBuilder};
use opensearch::http::Method;
use opensearch::OpenSearch;
use serde_json::{json, Value};
use thiserror::Error;

use crate::backend::naming::IndexNames;
use crate::backend::plain_http::{PlainError, PlainHttp};
use crate::config::OpenSearchConfig;
use crate::error_chain::BoxError;

/// Replicas of a new generation when `opensearch.replicas` is not set: none
/// on one node (green), one as soon as a second node joins.
pub const AUTO_EXPAND_REPLICAS: &str = "0-1";

/// Timeout of every request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// A failed OpenSearch set-up or request. Each error shows its own context
/// (host, CA file, request) and keeps its cause as its `source`: print it with
/// `{:#}` (anyhow) or [`crate::error_chain::chain`].
#[derive(Debug, Error)]
pub enum SearchError {
    #[error("no OpenSearch host is configured")]
    NoHost,
    #[error("invalid OpenSearch host {host:?}")]
    BadHost {
        host: String,
        #[source]
        source: BoxError,
    },
    #[error("cannot read CA certificate {path}")]
    CaCert {
        path: String,
        #[source]
        source: BoxError,
    },
    #[error("OpenSearch at {host} is unreachable")]
    Unreachable {
        host: String,
        #[source]
        source: BoxError,
    },
    /// `body` is OpenSearch's answer (cut at 2000 bytes); the message shows
    /// only its error type and reason ([`answer_reason`]): the answer itself
    /// goes to the debug log.
    #[error("OpenSearch {method} {path} failed with status {status}: {}", answer_reason(.body))]
    Status { method: String, path: String, status: u16, body: String },
    #[error("OpenSearch {method} {path}: unreadable response")]
    Body {
        method: String,
        path: String,
        #[source]
        source: BoxError,
    },
}

impl SearchError {
    /// True when the backend could not be reached at all (down, refused, timed out).
    pub fn is_unreachable(&self) -> bool {
        matches!(self, SearchError::Unreachable { .. })
    }

    /// HTTP status of a failed request, if it got that far.
    pub fn status(&self) -> Option<u16> {
        match self {
            SearchError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }
}

/// What a failed request's answer says, in its own words and without its
/// JSON: `type: reason` of its `error`, the text of a plain-text answer, or
/// only its size (the debug log has the whole answer).
pub fn answer_reason(body: &str) -> String {
    let Ok(answer) = serde_json::from_str::<Value>(body) else {
        let text: String = body.trim().chars().take(300).collect();
        return if text.is_empty() { "empty answer".into() } else { text };
    };
    let error = &answer["error"];
    match (error["type"].as_str(), error["reason"].as_str(), error.as_str()) {
        (Some(kind), Some(reason), _) => format!("{kind}: {reason}"),
        (Some(kind), None, _) => kind.to_string(),
        (None, _, Some(message)) => message.to_string(),
        _ if answer["timed_out"] == true => {
            format!("timed out (cluster status {})", answer["status"].as_str().unwrap_or("unknown"))
        }
        _ if answer["found"] == false => "not found".to_string(),
        _ => format!("an answer of {} bytes (in the debug log)", body.len()),
    }
}

/// A connected OpenSearch client plus the index names of this installation.
///
/// It holds one transport per configured node and sends each request to the
/// next node in turn. A node that cannot be reached is marked down for
/// [`RETRY_DOWN_AFTER`] and the request goes on to the next node, so a node
/// dying mid-query costs no failed call while another node answers; nodes
/// marked down are tried last, never skipped for good.
#[derive(Clone)]
pub struct Search {
    nodes: Arc<[Node]>,
    next: Arc<AtomicUsize>,
    hosts: String,
    generation: Value,
    pub names: IndexNames,
}

/// How long a node that failed is tried only after the others.
pub const RETRY_DOWN_AFTER: Duration = Duration::from_secs(5);

struct Node {
    transport: Transport,
    host: String,
    down_until: Mutex<Option<Instant>>,
}

impl Node {
    fn is_down(&self, now: Instant) -> bool {
        self.down_until.lock().map(|d| d.is_some_and(|until| until > now)).unwrap_or(false)
    }

    fn mark(&self, down: bool) {
        if let Ok(mut d) = self.down_until.lock() {
            *d = down.then(|| Instant::now() + RETRY_DOWN_AFTER);
        }
    }
}

#[derive(Clone)]
enum Transport {
    Crate(OpenSearch),
    Plain(PlainHttp),
}

impl Search {
    pub fn new(config: &OpenSearchConfig) -> Result<Self, SearchError> {
        let nodes = config.hosts.iter().map(|host| node(config, host)).collect::<Result<Vec<_>, _>>()?;
        if nodes.is_empty() {
            return Err(SearchError::NoHost);
        }
        let mut index = json!({ "number_of_shards": config.shards.max(1) });
        match config.replicas {
            Some(n) => {
                index["number_of_replicas"] = json!(n);
                index["auto_expand_replicas"] = json!(false);
            }
            None => index["auto_expand_replicas"] = json!(AUTO_EXPAND_REPLICAS),
        }
        Ok(Self {
            nodes: nodes.into(),
            next: Arc::new(AtomicUsize::new(0)),
            hosts: config.hosts.join(", "),
            generation: json!({ "settings": { "index": index } }),
            names: IndexNames::new(&config.index_prefix),
        })
    }

    /// Body that creates an index of a new generation: `opensearch.shards`
    /// and `opensearch.replicas` (the index templates give the rest).
    pub fn generation_settings(&self) -> &Value {
        &self.generation
    }

    /// Number of configured nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The configured nodes, for messages.
    pub fn host(&self) -> &str {
        &self.hosts
    }

    /// Check that OpenSearch answers; returns its version number.
    pub async fn ping(&self) -> Result<String, SearchError> {
        let info = self.request(Method::Get, "/", None).await?;
        Ok(info["version"]["number"].as_str().unwrap_or("unknown").to_string())
    }

    pub async fn get(&self, path: &str) -> Result<Value, SearchError> {
        self.request(Method::Get, path, None).await
    }

    /// GET that maps 404 to `None`.
    pub async fn get_opt(&self, path: &str) -> Result<Option<Value>, SearchError> {
        match self.request(Method::Get, path, None).await {
            Ok(v) => Ok(Some(v)),
            Err(e) if e.status() == Some(404) => Ok(None),
            Err(e) => Err(e),
        }
    }

    pub async fn put(&self, path: &str, body: &Value) -> Result<Value, SearchError> {
        self.request(Method::Put, path, Some(body.to_string().into_bytes())).await
    }

    pub async fn post(&self, path: &str, body: &Value) -> Result<Value, SearchError> {
        self.request(Method::Post, path, Some(body.to_string().into_bytes())).await
    }

    /// DELETE that treats 404 as done.
    pub async fn delete(&self, path: &str) -> Result<(), SearchError> {
        match self.request(Method::Delete, path, None).await {
            Ok(_) => Ok(()),
            Err(e) if e.status() == Some(404) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Send a prepared NDJSON bulk body.
    pub async fn bulk(&self, ndjson: Vec<u8>) -> Result<Value, SearchError> {
        self.raw(Method::Post, "/_bulk", Some(ndjson), "application/x-ndjson").await
    }

    /// One request with a JSON body (or none), answered with JSON.
    pub async fn request(&self, method: Method, path: &str, body: Option<Vec<u8>>) -> Result<Value, SearchError> {
        self.raw(method, path, body, "application/json").await
    }

    async fn raw(
        &self,
        method: Method,
        path: &str,
        body: Option<Vec<u8>>,
        content_type: &'static str,
    ) -> Result<Value, SearchError> {
        let count = self.nodes.len();
        let first = self.next.fetch_add(1, Ordering::Relaxed) % count;
        let now = Instant::now();
        let (up, down): (Vec<&Node>, Vec<&Node>) =
            (0..count).map(|i| &self.nodes[(first + i) % count]).partition(|n| !n.is_down(now));
        let mut failure = None;
        let mut body = body;
        for (tried, node) in up.into_iter().chain(down).enumerate() {
            // Only a request that may go to another node keeps a copy of its
            // body (a bulk body is megabytes); the last try takes it.
            let this = if tried + 1 == count { body.take() } else { body.clone() };
            match node.send(method, path, this, content_type).await {
                Err(e) if e.is_unreachable() => {
                    if count > 1 {
                        let e = crate::error_chain::chain(&e);
                        tracing::debug!(host = %node.host, "node unreachable, trying the next one: {e}");
                    }
                    node.mark(true);
                    failure = Some(e);
                }
                answer => {
                    node.mark(false);
                    return answer;
                }
            }
        }
        Err(failure.expect("at least one node"))
    }
}

/// The transport of one node.
fn node(config: &OpenSearchConfig, host: &str) -> Result<Node, SearchError> {
    let bad = |source: BoxError| SearchError::BadHost { host: host.to_string(), source };
    let url = url::Url::parse(host).map_err(|e| bad(e.into()))?;
    let transport = if url.scheme() == "http" {
        let auth = config.username.as_deref().zip(config.password.as_deref());
        Transport::Plain(PlainHttp::new(url, auth, REQUEST_TIMEOUT))
    } else {
        let mut builder = TransportBuilder::new(SingleNodeConnectionPool::new(url)).timeout(REQUEST_TIMEOUT);
        if let (Some(user), Some(pass)) = (&config.username, &config.password) {
            builder = builder.auth(Credentials::Basic(user.clone(), pass.clone()));
        }
        if config.insecure {
            builder = builder.cert_validation(CertificateValidation::None);
        } else if let Some(ca) = &config.ca_cert {
            let ca_error = |source: BoxError| SearchError::CaCert { path: ca.display().to_string(), source };
            let pem = std::fs::read(ca).map_err(|e| ca_error(e.into()))?;
            let cert = Certificate::from_pem(&pem).map_err(|e| ca_error(CrateError(e).into()))?;
            builder = builder.cert_validation(CertificateValidation::Full(cert));
        }
        Transport::Crate(OpenSearch::new(builder.build().map_err(|e| bad(e.into()))?))
    };
    Ok(Node { transport, host: host.to_string(), down_until: Mutex::new(None) })
}

impl Node {
    async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<Vec<u8>>,
        content_type: &'static str,
    ) -> Result<Value, SearchError> {
        let method_name = format!("{method:?}").to_uppercase();
        let unreachable = |source: BoxError| SearchError::Unreachable { host: self.host.clone(), source };
        let unreadable =
            |source: BoxError| SearchError::Body { method: method_name.clone(), path: path.to_string(), source };
        let (status, bytes) = match &self.transport {
            Transport::Crate(client) => {
                let mut headers = HeaderMap::new();
                headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
                let response = client
                    .send::<Vec<u8>, ()>(method, path, headers, None, body, None)
                    .await
                    .map_err(|e| unreachable(CrateError(e).into()))?;
                let status = response.status_code().as_u16();
                (status, response.bytes().await.map_err(|e| unreadable(CrateError(e).into()))?)
            }
            Transport::Plain(client) => match client.send(hyper_method(method), path, content_type, body).await {
                Ok(answer) => answer,
                Err(e @ PlainError::Body(_)) => return Err(unreadable(e.into())),
                Err(e) => return Err(unreachable(e.into())),
            },
        };
        if !(200..300).contains(&status) {
            let mut body = String::from_utf8_lossy(&bytes).into_owned();
            let mut end = body.len().min(2000);
            while !body.is_char_boundary(end) {
                end -= 1;
            }
            body.truncate(end);
            tracing::debug!(status, "OpenSearch answered {method_name} {path} with: {body}");
            return Err(SearchError::Status { method: method_name, path: path.to_string(), status, body });
        }
        if bytes.is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_slice(&bytes).map_err(|e| unreadable(e.into()))
    }
}

/// An error of the opensearch crate, shown once: the crate's error prints its
/// inner error and also gives it as its source, so this takes the inner
/// error's source as its own.
#[derive(Debug)]
struct CrateError(opensearch::Error);

impl std::fmt::Display for CrateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for CrateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.0).and_then(|inner| inner.source())
    }
}

fn hyper_method(method: Method) -> hyper::Method {
    match method {
        Method::Get => hyper::Method::GET,
        Method::Put => hyper::Method::PUT,
        Method::Post => hyper::Method::POST,
        Method::Delete => hyper::Method::DELETE,
        Method::Head => hyper::Method::HEAD,
    }
}
