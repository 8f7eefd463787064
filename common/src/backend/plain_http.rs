//! The transport for `http://` OpenSearch hosts: a pooled HTTP/1.1 client with
//! no TLS stack at all.
//!
//! The opensearch crate always builds a reqwest client with a TLS connector,
//! and building one makes OpenSSL parse the system CA bundle (about 60 ms on
//! every start, twice over). A command such as a no-op `scan index` costs
//! little more than that, so plaintext hosts (the local default) go through
//! this client instead; `https://` hosts keep using the opensearch crate.
//! Like the crate, it sends basic auth when configured and applies one
//! timeout to the whole request. Unlike reqwest, it ignores `HTTP_PROXY`.

use std::time::Duration;

use base64::Engine as _;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use url::Url;

/// Why a request got no complete answer.
#[derive(Debug, thiserror::Error)]
pub enum PlainError {
    /// No connection or a broken one: the host is unreachable.
    #[error(transparent)]
    Send(#[from] hyper_util::client::legacy::Error),
    /// No complete answer in time.
    #[error("no answer within {} s", .0.as_secs())]
    Timeout(Duration),
    /// The request could not be built (a path that is no URL).
    #[error("bad request path {path}")]
    BadPath {
        path: String,
        #[source]
        source: crate::error_chain::BoxError,
    },
    /// The status arrived, the body did not.
    #[error(transparent)]
    Body(hyper::Error),
}

#[derive(Clone)]
pub struct PlainHttp {
    client: Client<HttpConnector, Full<Bytes>>,
    base: Url,
    auth: Option<HeaderValue>,
    timeout: Duration,
}

impl PlainHttp {
    pub fn new(base: Url, basic_auth: Option<(&str, &str)>, timeout: Duration) -> Self {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        let client = Client::builder(TokioExecutor::new()).build(connector);
        let auth = basic_auth.and_then(|(user, pass)| {
            let token = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{pass}"));
            let mut value = HeaderValue::from_str(&format!("Basic {token}")).ok()?;
            value.set_sensitive(true);
            Some(value)
        });
        Self { client, base, auth, timeout }
    }

    /// Send one request; answers the status and the whole body.
    pub async fn send(
        &self,
        method: hyper::Method,
        path: &str,
        content_type: &'static str,
        body: Option<Vec<u8>>,
    ) -> Result<(u16, Bytes), PlainError> {
        let url = self
            .base
            .join(path.trim_start_matches('/'))
            .map_err(|e| PlainError::BadPath { path: path.to_string(), source: e.into() })?;
        let mut request = hyper::Request::builder()
            .method(method)
            .uri(url.as_str())
            .header(CONTENT_TYPE, content_type)
            .header(ACCEPT, "application/json");
        if let Some(auth) = &self.auth {
            request = request.header(AUTHORIZATION, auth.clone());
        }
        let request = request
            .body(Full::new(Bytes::from(body.unwrap_or_default())))
            .map_err(|e| PlainError::BadPath { path: path.to_string(), source: e.into() })?;
        let exchange = async {
            let response = self.client.request(request).await?;
            let status = response.status().as_u16();
            let bytes = response.into_body().collect().await.map_err(PlainError::Body)?.to_bytes();
            Ok((status, bytes))
        };
        tokio::time::timeout(self.timeout, exchange).await.map_err(|_| PlainError::Timeout(self.timeout))?
    }
}
