//! The HTTP side: rmcp's Streamable HTTP service mounted at `/`, `/mcp` and
//! `/mcp/<project>` (the same tools, whose target defaults to that project),
//! `Host` and `Origin` validation (DNS-rebinding protection), an optional
//! bearer token (`mcp.token` / `VIBE_MCP_TOKEN`), a request body limit, a
//! CORS layer for browser clients that exposes `Mcp-Session-Id`, and request
//! logging.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{header, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::Router;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::gateway::Gateway;
pub use crate::jsonrpc::MAX_BODY_BYTES;
use crate::jsonrpc::{self, Spoken, UNAUTHORIZED};
use crate::server::{supported_versions, VibeServer};

/// Host names always accepted in the `Host` header.
pub const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];
/// Browser origins always accepted (any port).
pub const LOOPBACK_ORIGINS: [&str; 3] = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

/// What the HTTP layer accepts.
#[derive(Debug, Clone, Default)]
pub struct HttpOptions {
    /// The listen address (a specific address is accepted as a Host too).
    pub bind_host: String,
    /// Extra accepted `Host` names (`mcp.allowed_hosts`); `"*"` accepts any.
    pub allowed_hosts: Vec<String>,
    /// Extra accepted `Origin`s (`mcp.allowed_origins`), e.g.
    /// `"https://webui.example:443"` or `"http://10.0.0.5:*"`; `"*"` accepts any.
    pub allowed_origins: Vec<String>,
    /// Bearer token every request must carry (`Authorization: Bearer …`);
    /// `None` or empty = no authentication.
    pub token: Option<String>,
    /// Cancelled to end every session (server shutdown).
    pub cancel: CancellationToken,
}

impl HttpOptions {
    pub fn hosts(&self) -> Vec<String> {
        let mut hosts: Vec<String> = LOOPBACK_HOSTS.iter().map(|s| s.to_string()).collect();
        let bind = self.bind_host.trim();
        if !bind.is_empty() && bind != "0.0.0.0" && bind != "::" && bind != "[::]" {
            hosts.push(bind.trim_matches(|c| c == '[' || c == ']').to_string());
        }
        hosts.extend(self.allowed_hosts.iter().map(|h| h.trim().to_string()).filter(|h| !h.is_empty()));
        hosts.dedup();
        hosts
    }

    pub fn origins(&self) -> Vec<String> {
        let mut origins: Vec<String> = LOOPBACK_ORIGINS.iter().map(|s| s.to_string()).collect();
        origins.extend(
            self.allowed_origins.iter().map(|o| o.trim().trim_end_matches('/').to_string()).filter(|o| !o.is_empty()),
        );
        origins
    }

    /// Every `Host` is accepted with `"*"` in `mcp.allowed_hosts`, and on a
    /// server bound to a non-loopback address with a bearer token: the token
    /// guards it, and a client in a container or on the LAN reaches it by
    /// whatever name or address it knows (`host.docker.internal`, an IP).
    pub fn any_host(&self) -> bool {
        let token_set = self.token.as_deref().is_some_and(|t| !t.trim().is_empty());
        self.allowed_hosts.iter().any(|h| h.trim() == "*") || (token_set && !is_loopback(&self.bind_host))
    }

    fn any_origin(&self) -> bool {
        self.allowed_origins.iter().any(|o| o.trim() == "*")
    }
}

/// A loopback listen address (or none: the default is loopback).
pub fn is_loopback(host: &str) -> bool {
    let h = host.trim().trim_matches(|c| c == '[' || c == ']');
    h.is_empty() || h == "localhost" || h.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The rmcp transport configuration for these options.
pub fn transport_config(opts: &HttpOptions) -> StreamableHttpServerConfig {
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(opts.cancel.child_token())
        .with_sse_keep_alive(Some(Duration::from_secs(15)))
        .with_max_request_body_bytes(MAX_BODY_BYTES)
        // A 2026-07-28 request (stateless) is answered with one JSON body
        // unless its handler sends something first: any proxy passes it on.
        .with_json_response(true);
    config = if opts.any_host() { config.disable_allowed_hosts() } else { config.with_allowed_hosts(opts.hosts()) };
    config = if opts.any_origin() {
        config.disable_allowed_origins()
    } else {
        config.with_allowed_origins(opts.origins()).enforce_origin_validation()
    };
    config
}

/// The complete app: MCP at `/`, `/mcp` and `/mcp/<project>`, CORS, request logging.
pub fn router(gateway: Gateway, opts: &HttpOptions) -> Router {
    let spoken = Spoken::new(supported_versions(gateway.protocol()).iter());
    let service: StreamableHttpService<VibeServer, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(VibeServer::new(gateway.clone())),
        Arc::new(LocalSessionManager::default()),
        transport_config(opts),
    );
    let mut app = Router::new()
        .route_service("/", service.clone())
        .route_service("/mcp", service.clone())
        .route_service("/mcp/{project}", service)
        .route_layer(middleware::from_fn_with_state(spoken, jsonrpc::guard));
    if let Some(token) = opts.token.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        let expected = Arc::new(blake3::hash(token.as_bytes()));
        // Only on the MCP routes: other paths (e.g. OAuth discovery under
        // /.well-known) get a plain 404, so clients do not start an OAuth flow.
        app = app.route_layer(middleware::from_fn_with_state(expected, require_token));
    }
    // CORS outside the token check: preflights carry no credentials, and a
    // browser must be able to read a 401.
    app.layer(cors(opts)).layer(middleware::from_fn(log_request))
}

/// The token of an `Authorization: Bearer <token>` header.
pub fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|t| !t.is_empty())
}

/// True when `given` is the token whose hash is `expected`. Both sides are
/// hashed and the hashes compared in constant time, so neither the content
/// nor the length of the token leaks through timing.
pub fn token_matches(given: &str, expected: &blake3::Hash) -> bool {
    blake3::hash(given.as_bytes()) == *expected
}

async fn require_token(State(expected): State<Arc<blake3::Hash>>, request: Request, next: Next) -> Response {
    // UTF-8, not just visible ASCII: a token may contain any character.
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| std::str::from_utf8(v.as_bytes()).ok())
        .and_then(bearer_token);
    match given {
        Some(token) if token_matches(token, &expected) => next.run(request).await,
        _ => {
            tracing::warn!(
                method = %request.method(),
                path = request.uri().path(),
                "request without a valid bearer token refused (401)"
            );
            let mut response = jsonrpc::error_response(
                StatusCode::UNAUTHORIZED,
                None,
                UNAUTHORIZED,
                "Unauthorized: send the header `Authorization: Bearer <token>` (mcp.token)",
            );
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer realm=\"vibe-analyzer\""));
            response
        }
    }
}

fn cors(opts: &HttpOptions) -> CorsLayer {
    let mcp_session = HeaderName::from_static("mcp-session-id");
    let mcp_version = HeaderName::from_static("mcp-protocol-version");
    let allow_origin = if opts.any_origin() {
        AllowOrigin::mirror_request()
    } else {
        let allowed = opts.origins();
        AllowOrigin::predicate(move |origin: &HeaderValue, _| {
            origin.to_str().map(|o| origin_allowed(o, &allowed)).unwrap_or(false)
        })
    };
    CorsLayer::new()
        .allow_origin(allow_origin)
        .allow_methods([Method::GET, Method::POST, Method::DELETE, Method::OPTIONS])
        .allow_headers([
            header::CONTENT_TYPE,
            header::ACCEPT,
            header::AUTHORIZATION,
            HeaderName::from_static("last-event-id"),
            mcp_session.clone(),
            mcp_version.clone(),
            // The routing headers of 2026-07-28.
            HeaderName::from_static("mcp-method"),
            HeaderName::from_static("mcp-name"),
        ])
        .expose_headers([mcp_session, mcp_version])
        .max_age(Duration::from_secs(600))
}

/// `scheme://host[:port]` against entries `scheme://host[:port|:*]` (no port
/// in an entry = any port) or `null`.
pub fn origin_allowed(origin: &str, allowed: &[String]) -> bool {
    let origin = origin.trim().to_ascii_lowercase();
    let parse = |s: &str| -> Option<(String, String, Option<String>)> {
        let (scheme, rest) = s.split_once("://")?;
        let rest = rest.trim_end_matches('/');
        let (host, port) = if let Some(stripped) = rest.strip_prefix('[') {
            let (h, after) = stripped.split_once(']')?;
            (format!("[{h}]"), after.strip_prefix(':').map(str::to_string))
        } else {
            match rest.rsplit_once(':') {
                Some((h, p)) => (h.to_string(), Some(p.to_string())),
                None => (rest.to_string(), None),
            }
        };
        Some((scheme.to_string(), host, port))
    };
    let default_port = |scheme: &str| if scheme == "https" { "443" } else { "80" }.to_string();
    allowed.iter().any(|entry| {
        let entry = entry.trim().to_ascii_lowercase();
        if entry == "null" || origin == "null" {
            return entry == origin;
        }
        let (Some((os, oh, op)), Some((es, eh, ep))) = (parse(&origin), parse(&entry)) else {
            return false;
        };
        os == es
            && oh == eh
            && match ep.as_deref() {
                None | Some("*") => true,
                Some(p) => op.unwrap_or_else(|| default_port(&os)) == p,
            }
    })
}

async fn log_request(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let session = request.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_string);
    let mut response = next.run(request).await;
    // rmcp answers a session DELETE with 202; clients expect 200 or 204.
    if method == Method::DELETE && response.status() == axum::http::StatusCode::ACCEPTED {
        *response.status_mut() = axum::http::StatusCode::NO_CONTENT;
    }
    tracing::debug!(
        %method,
        path,
        session,
        status = response.status().as_u16(),
        latency_ms = format!("{:.2}", started.elapsed().as_secs_f64() * 1000.0),
        "http request"
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_project_endpoint_names_its_project() {
        assert_eq!(crate::server::endpoint_project("/mcp/samples").as_deref(), Some("samples"));
        assert_eq!(crate::server::endpoint_project("/mcp/my%20docs").as_deref(), Some("my docs"));
        assert_eq!(crate::server::endpoint_project("/mcp/%D0%B4%D0%BE%D0%BA%D0%B8").as_deref(), Some("доки"));
        assert_eq!(crate::server::endpoint_project("/mcp"), None);
        assert_eq!(crate::server::endpoint_project("/mcp/"), None);
        assert_eq!(crate::server::endpoint_project("/"), None);
        assert_eq!(crate::server::endpoint_project("/mcp/%FF"), None, "not UTF-8: no project");
    }

    #[test]
    fn origins_match() {
        let allowed = HttpOptions {
            allowed_origins: vec!["https://webui.example".into(), "http://10.0.0.5:8080".into()],
            ..Default::default()
        }
        .origins();
        assert!(origin_allowed("http://localhost:6274", &allowed));
        assert!(origin_allowed("http://127.0.0.1", &allowed));
        assert!(origin_allowed("https://webui.example:8443", &allowed));
        assert!(origin_allowed("http://10.0.0.5:8080", &allowed));
        assert!(!origin_allowed("http://10.0.0.5:9090", &allowed));
        assert!(!origin_allowed("https://evil.example", &allowed));
        assert!(!origin_allowed("http://localhost.evil.example", &allowed));
        assert!(!origin_allowed("null", &allowed));
    }

    #[test]
    fn bearer_tokens() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("bearer   abc  "), Some("abc"));
        assert_eq!(bearer_token("BEARER abc"), Some("abc"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearer "), None);
        assert_eq!(bearer_token("abc"), None);
        let expected = blake3::hash(b"s3cret");
        assert!(token_matches("s3cret", &expected));
        assert!(!token_matches("s3cre", &expected));
        assert!(!token_matches("s3cret ", &expected));
        assert!(!token_matches("", &expected));
    }

    #[test]
    fn hosts_include_bind_address() {
        let o = HttpOptions {
            bind_host: "192.168.1.5".into(),
            allowed_hosts: vec!["host.docker.internal".into()],
            ..Default::default()
        };
        assert_eq!(o.hosts(), vec!["localhost", "127.0.0.1", "::1", "192.168.1.5", "host.docker.internal"]);
        let o = HttpOptions { bind_host: "0.0.0.0".into(), ..Default::default() };
        assert_eq!(o.hosts().len(), 3);
    }

    #[test]
    fn a_token_on_a_public_address_accepts_any_host() {
        let public = |token: Option<&str>| HttpOptions {
            bind_host: "0.0.0.0".into(),
            token: token.map(str::to_string),
            ..Default::default()
        };
        assert!(public(Some("s3cret")).any_host());
        assert!(!public(None).any_host(), "without a token the Host list stays");
        assert!(!public(Some("  ")).any_host());
        let local = HttpOptions { bind_host: "127.0.0.1".into(), token: Some("s3cret".into()), ..Default::default() };
        assert!(!local.any_host(), "a loopback server keeps its DNS-rebinding guard");
        assert!(is_loopback("::1") && is_loopback("[::1]") && is_loopback("localhost") && !is_loopback("10.0.0.5"));
    }
}
