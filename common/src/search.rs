//! OpenSearch access: a client built from config (basic auth, CA file or
//! `insecure`), and a few JSON helpers over the generic transport. Every error
//! names the host or the request path.

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
use crate::naming::IndexNames;

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
    client: OpenSearch,
    host: String,
    pub names: IndexNames,
}

impl Search {
    pub fn new(config: &OpenSearchConfig) -> Result<Self, SearchError> {
        let url = url::Url::parse(&config.host)
            .map_err(|e| SearchError::BadHost { host: config.host.clone(), message: e.to_string() })?;
        let mut builder = TransportBuilder::new(SingleNodeConnectionPool::new(url)).timeout(Duration::from_secs(60));
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
        let transport = builder
            .build()
            .map_err(|e| SearchError::BadHost { host: config.host.clone(), message: e.to_string() })?;
        Ok(Self { client: OpenSearch::new(transport), host: config.host.clone(), names: IndexNames::new(&config.index_prefix) })
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

    async fn raw(&self, method: Method, path: &str, body: Option<Vec<u8>>, content_type: &'static str) -> Result<Value, SearchError> {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
        let method_name = format!("{method:?}").to_uppercase();
        let response = self
            .client
            .send::<Vec<u8>, ()>(method, path, headers, None, body, None)
            .await
            .map_err(|e| SearchError::Unreachable { host: self.host.clone(), message: error_chain(&e) })?;
        let status = response.status_code().as_u16();
        let text = response
            .text()
            .await
            .map_err(|e| SearchError::Body { method: method_name.clone(), path: path.to_string(), message: e.to_string() })?;
        if !(200..300).contains(&status) {
            let mut body = text;
            body.truncate(2000);
            return Err(SearchError::Status { method: method_name, path: path.to_string(), status, body });
        }
        if text.is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_str(&text).map_err(|e| SearchError::Body { method: method_name, path: path.to_string(), message: e.to_string() })
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut msg = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let s_msg = s.to_string();
        if !msg.contains(&s_msg) {
            msg.push_str(": ");
            msg.push_str(&s_msg);
        }
        source = s.source();
    }
    msg
}
