//! OpenSearch access: a client built from config (basic auth, CA file or
//! `insecure`), and a few JSON helpers over the generic transport. Every error
//! names the host or the request path. `https://` hosts go through the
//! opensearch crate; `http://` hosts through [`PlainHttp`], which has no TLS
//! set-up cost.

use std::time::Duration;

use opensearch::auth::Credentials;
use opensearch::cert::{Certificate, CertificateValidation};
use opensearch::http::headers::{HeaderMap, HeaderValue, CONTENT_TYPE};
use opensearch::http::transport::{SingleNodeConnectionPool, TransportBuilder};
use opensearch::http::Method;
use opensearch::OpenSearch;
use serde_json::Value;
use thiserror::Error;

use crate::config::OpenSearchConfig;
use crate::error_chain::error_chain;
use crate::naming::IndexNames;
use crate::plain_http::{PlainError, PlainHttp};

/// Timeout of every request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug, Error)]
pub enum SearchError {
    #[error("invalid OpenSearch host {host:?}: {message}")]
    BadHost { host: String, message: String },
    #[error("cannot read CA certificate {path}: {message}")]
    CaCert { path: String, message: String },
    #[error("OpenSearch at {host} is unreachable: {message}")]
    Unreachable { host: String, message: String },
    #[error("OpenSearch {method} {path} failed with status {status}: {body}")]
    Status { method: String, path: String, status: u16, body: String },
    #[error("OpenSearch {method} {path}: unreadable response: {message}")]
    Body { method: String, path: String, message: String },
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

/// A connected OpenSearch client plus the index names of this installation.
#[derive(Clone)]
pub struct Search {
    transport: Transport,
    host: String,
    pub names: IndexNames,
}

#[derive(Clone)]
enum Transport {
    Crate(OpenSearch),
    Plain(PlainHttp),
}

impl Search {
    pub fn new(config: &OpenSearchConfig) -> Result<Self, SearchError> {
        let url = url::Url::parse(&config.host)
            .map_err(|e| SearchError::BadHost { host: config.host.clone(), message: e.to_string() })?;
        let names = IndexNames::new(&config.index_prefix);
        if url.scheme() == "http" {
            let auth = config.username.as_deref().zip(config.password.as_deref());
            let transport = Transport::Plain(PlainHttp::new(url, auth, REQUEST_TIMEOUT));
            return Ok(Self { transport, host: config.host.clone(), names });
        }
        let mut builder = TransportBuilder::new(SingleNodeConnectionPool::new(url)).timeout(REQUEST_TIMEOUT);
        if let (Some(user), Some(pass)) = (&config.username, &config.password) {
            builder = builder.auth(Credentials::Basic(user.clone(), pass.clone()));
        }
        if config.insecure {
            builder = builder.cert_validation(CertificateValidation::None);
        } else if let Some(ca) = &config.ca_cert {
            let pem = std::fs::read(ca)
                .map_err(|e| SearchError::CaCert { path: ca.display().to_string(), message: e.to_string() })?;
            let cert = Certificate::from_pem(&pem)
                .map_err(|e| SearchError::CaCert { path: ca.display().to_string(), message: e.to_string() })?;
            builder = builder.cert_validation(CertificateValidation::Full(cert));
        }
        let transport =
            builder.build().map_err(|e| SearchError::BadHost { host: config.host.clone(), message: e.to_string() })?;
        Ok(Self { transport: Transport::Crate(OpenSearch::new(transport)), host: config.host.clone(), names })
    }

    pub fn host(&self) -> &str {
        &self.host
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
        let method_name = format!("{method:?}").to_uppercase();
        let unreachable = |message: String| SearchError::Unreachable { host: self.host.clone(), message };
        let unreadable =
            |message: String| SearchError::Body { method: method_name.clone(), path: path.to_string(), message };
        let (status, bytes) = match &self.transport {
            Transport::Crate(client) => {
                let mut headers = HeaderMap::new();
                headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
                let response = client
                    .send::<Vec<u8>, ()>(method, path, headers, None, body, None)
                    .await
                    .map_err(|e| unreachable(error_chain(&e)))?;
                let status = response.status_code().as_u16();
                (status, response.bytes().await.map_err(|e| unreadable(e.to_string()))?)
            }
            Transport::Plain(client) => match client.send(hyper_method(method), path, content_type, body).await {
                Ok(answer) => answer,
                Err(PlainError::Send(message)) => return Err(unreachable(message)),
                Err(PlainError::Body(message)) => return Err(unreadable(message)),
            },
        };
        if !(200..300).contains(&status) {
            let mut body = String::from_utf8_lossy(&bytes).into_owned();
            let mut end = body.len().min(2000);
            while !body.is_char_boundary(end) {
                end -= 1;
            }
            body.truncate(end);
            return Err(SearchError::Status { method: method_name, path: path.to_string(), status, body });
        }
        if bytes.is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_slice(&bytes).map_err(|e| unreadable(e.to_string()))
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
