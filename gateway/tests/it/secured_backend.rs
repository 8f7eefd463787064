//! A secured OpenSearch: HTTPS with a private CA and HTTP basic auth, all from
//! the config (`opensearch.username/password/ca_cert/insecure`).
//!
//! The test node (tests/opensearch/start.sh) runs without the security
//! plugin, so it cannot require TLS or passwords itself. Instead this test
//! puts a small reverse proxy in front of the REAL node: it terminates TLS
//! with a certificate signed by a CA generated here (openssl), refuses every
//! request without the right `Authorization: Basic` header (401, as the
//! security plugin does), and forwards the rest unchanged. The gateway talks
//! to the proxy only; every answer still comes from the real OpenSearch.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::common::{answer, load_fixture, opensearch_url, McpClient};
use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use openssl::asn1::Asn1Time;
use openssl::bn::BigNum;
use openssl::hash::MessageDigest;
use openssl::pkey::{PKey, Private};
use openssl::rsa::Rsa;
use openssl::x509::extension::{
    AuthorityKeyIdentifier, BasicConstraints, ExtendedKeyUsage, KeyUsage, SubjectAlternativeName, SubjectKeyIdentifier,
};
use openssl::x509::{X509NameBuilder, X509};
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};
use tokio_native_tls::{TlsAcceptor, TlsStream};
use vibe_common::config::Config;
use vibe_gateway::ServeOptions;

const USER: &str = "vibe";
const PASSWORD: &str = "pä$$ w:rd";

struct Certs {
    ca_pem: Vec<u8>,
    leaf_pem: Vec<u8>,
    leaf_key_pem: Vec<u8>,
}

fn name(cn: &str) -> anyhow::Result<openssl::x509::X509Name> {
    let mut n = X509NameBuilder::new()?;
    n.append_entry_by_text("CN", cn)?;
    Ok(n.build())
}

fn rsa_key() -> anyhow::Result<PKey<Private>> {
    Ok(PKey::from_rsa(Rsa::generate(2048)?)?)
}

/// A throwaway CA and a server certificate for `localhost` / `127.0.0.1` signed by it.
fn make_certs() -> anyhow::Result<Certs> {
    let ca_key = rsa_key()?;
    let ca_name = name("Vibe Analyzer test CA")?;
    let mut b = X509::builder()?;
    b.set_version(2)?;
    let serial = BigNum::from_u32(1)?.to_asn1_integer()?;
    b.set_serial_number(&serial)?;
    b.set_subject_name(&ca_name)?;
    b.set_issuer_name(&ca_name)?;
    b.set_pubkey(&ca_key)?;
    let (not_before, not_after) = (Asn1Time::days_from_now(0)?, Asn1Time::days_from_now(2)?);
    b.set_not_before(&not_before)?;
    b.set_not_after(&not_after)?;
    b.append_extension(BasicConstraints::new().critical().ca().build()?)?;
    b.append_extension(KeyUsage::new().critical().key_cert_sign().crl_sign().build()?)?;
    let ski = SubjectKeyIdentifier::new().build(&b.x509v3_context(None, None))?;
    b.append_extension(ski)?;
    b.sign(&ca_key, MessageDigest::sha256())?;
    let ca = b.build();

    let key = rsa_key()?;
    let mut b = X509::builder()?;
    b.set_version(2)?;
    let serial = BigNum::from_u32(2)?.to_asn1_integer()?;
    b.set_serial_number(&serial)?;
    let subject = name("localhost")?;
    b.set_subject_name(&subject)?;
    b.set_issuer_name(ca.subject_name())?;
    b.set_pubkey(&key)?;
    let (not_before, not_after) = (Asn1Time::days_from_now(0)?, Asn1Time::days_from_now(2)?);
    b.set_not_before(&not_before)?;
    b.set_not_after(&not_after)?;
    b.append_extension(BasicConstraints::new().build()?)?;
    b.append_extension(KeyUsage::new().critical().digital_signature().key_encipherment().build()?)?;
    b.append_extension(ExtendedKeyUsage::new().server_auth().build()?)?;
    let san =
        SubjectAlternativeName::new().dns("localhost").ip("127.0.0.1").build(&b.x509v3_context(Some(&ca), None))?;
    b.append_extension(san)?;
    let aki = AuthorityKeyIdentifier::new().keyid(false).build(&b.x509v3_context(Some(&ca), None))?;
    b.append_extension(aki)?;
    b.sign(&ca_key, MessageDigest::sha256())?;
    let leaf = b.build();
    Ok(Certs { ca_pem: ca.to_pem()?, leaf_pem: leaf.to_pem()?, leaf_key_pem: key.private_key_to_pem_pkcs8()? })
}

/// A TCP listener that completes a TLS handshake before handing a connection to axum.
struct TlsListener {
    tcp: TcpListener,
    acceptor: TlsAcceptor,
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((tcp, addr)) = self.tcp.accept().await else { continue };
            // A client that rejects the certificate aborts the handshake: next connection.
            if let Ok(Ok(tls)) = tokio::time::timeout(Duration::from_secs(10), self.acceptor.accept(tcp)).await {
                return (tls, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}

#[derive(Clone)]
struct Proxy {
    upstream: String,
    expected_auth: String,
    http: reqwest::Client,
    forwarded: Arc<AtomicUsize>,
    refused: Arc<AtomicUsize>,
}

async fn forward(State(p): State<Proxy>, request: Request) -> Response {
    let auth = request.headers().get("authorization").and_then(|v| v.to_str().ok()).unwrap_or_default();
    if auth != p.expected_auth {
        p.refused.fetch_add(1, Ordering::SeqCst);
        let mut r = (
            StatusCode::UNAUTHORIZED,
            axum::Json(json!({ "error": { "type": "security_exception", "reason": "missing or wrong credentials" }, "status": 401 })),
        )
            .into_response();
        r.headers_mut().insert("www-authenticate", HeaderValue::from_static("Basic realm=\"OpenSearch Security\""));
        return r;
    }
    p.forwarded.fetch_add(1, Ordering::SeqCst);
    let method = reqwest::Method::from_bytes(request.method().as_str().as_bytes()).unwrap();
    let path = request.uri().path_and_query().map(|pq| pq.as_str().to_string()).unwrap_or_default();
    let content_type = request.headers().get("content-type").cloned();
    let body = to_bytes(request.into_body(), 256 * 1024 * 1024).await.unwrap_or_default();
    let mut req = p.http.request(method, format!("{}{path}", p.upstream)).body(body.to_vec());
    if let Some(ct) = content_type {
        req = req.header("content-type", ct.to_str().unwrap_or("application/json"));
    }
    match req.send().await {
        Ok(r) => {
            let status = StatusCode::from_u16(r.status().as_u16()).unwrap();
            let ct =
                r.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("application/json").to_string();
            let bytes = r.bytes().await.unwrap_or_default();
            Response::builder().status(status).header("content-type", ct).body(Body::from(bytes)).unwrap()
        }
        Err(e) => (StatusCode::BAD_GATEWAY, e.to_string()).into_response(),
    }
}

/// The proxy on TLS; answers its port. [`start_plain_proxy`] serves the same without TLS.
async fn start_proxy(certs: &Certs) -> anyhow::Result<(u16, Proxy)> {
    let identity = native_tls::Identity::from_pkcs8(&certs.leaf_pem, &certs.leaf_key_pem)?;
    let acceptor = TlsAcceptor::from(native_tls::TlsAcceptor::new(identity)?);
    let tcp = TcpListener::bind("127.0.0.1:0").await?;
    let port = tcp.local_addr()?.port();
    let proxy = new_proxy();
    let app = Router::new().fallback(forward).with_state(proxy.clone());
    tokio::spawn(async move { axum::serve(TlsListener { tcp, acceptor }, app).await });
    Ok((port, proxy))
}

/// The proxy on plain HTTP (basic auth without TLS); answers its port.
async fn start_plain_proxy() -> anyhow::Result<(u16, Proxy)> {
    let tcp = TcpListener::bind("127.0.0.1:0").await?;
    let port = tcp.local_addr()?.port();
    let proxy = new_proxy();
    let app = Router::new().fallback(forward).with_state(proxy.clone());
    tokio::spawn(async move { axum::serve(tcp, app).await });
    Ok((port, proxy))
}

fn new_proxy() -> Proxy {
    use openssl::base64::encode_block;
    Proxy {
        upstream: opensearch_url().trim_end_matches('/').to_string(),
        expected_auth: format!("Basic {}", encode_block(format!("{USER}:{PASSWORD}").as_bytes())),
        http: reqwest::Client::new(),
        forwarded: Arc::default(),
        refused: Arc::default(),
    }
}

fn opts() -> ServeOptions {
    ServeOptions { host: "127.0.0.1".into(), port: 0, ..Default::default() }
}

/// Two tool calls through a gateway configured with `config`; returns their results.
async fn calls(config: &Config) -> anyhow::Result<Vec<serde_json::Value>> {
    let server = vibe_gateway::spawn(config, opts()).await?;
    let (mut client, _) = McpClient::connect(&server.url(), "2025-11-25").await?;
    let a = client.call_tool("show_projects", json!({})).await?;
    let b = client.call_tool("search_documentation", json!({ "query": "Who is Kirikur?" })).await?;
    server.shutdown().await?;
    Ok(vec![a, b])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn basic_auth_and_tls_with_a_ca_file_or_insecure() -> anyhow::Result<()> {
    let fixture = load_fixture("gwt_tls").await?;
    let certs = make_certs()?;
    let dir = tempfile::tempdir()?;
    let ca_file = dir.path().join("ca.pem");
    std::fs::write(&ca_file, &certs.ca_pem)?;
    let (port, proxy) = start_proxy(&certs).await?;

    let secured = |user: Option<&str>, password: Option<&str>, ca: Option<&std::path::Path>, insecure: bool| {
        let mut c = fixture.clone();
        c.opensearch.hosts = vec![format!("https://localhost:{port}")];
        c.opensearch.username = user.map(str::to_string);
        c.opensearch.password = password.map(str::to_string);
        c.opensearch.ca_cert = ca.map(|p| p.to_path_buf());
        c.opensearch.insecure = insecure;
        c
    };

    // Basic auth + TLS verified against the CA file: real answers.
    let before = proxy.forwarded.load(Ordering::SeqCst);
    for r in calls(&secured(Some(USER), Some(PASSWORD), Some(&ca_file), false)).await? {
        assert_eq!(r["isError"], json!(false), "{r}");
    }
    let ok = calls(&secured(Some(USER), Some(PASSWORD), Some(&ca_file), false)).await?;
    assert_eq!(answer(&ok[0])["total"], json!(2));
    assert_eq!(answer(&ok[1])["results"][0]["path"], json!("legends/kirikur.md"));
    assert!(proxy.forwarded.load(Ordering::SeqCst) > before, "the requests went through the proxy");

    // `insecure: true` skips verification (no CA file needed).
    let ok = calls(&secured(Some(USER), Some(PASSWORD), None, true)).await?;
    assert_eq!(answer(&ok[0])["total"], json!(2), "{}", ok[0]);

    // Wrong or missing credentials: the node's 401, as a tool error.
    let refused = proxy.refused.load(Ordering::SeqCst);
    for (user, password) in [(Some(USER), Some("wrong")), (None, None), (Some("other"), Some(PASSWORD))] {
        for r in calls(&secured(user, password, Some(&ca_file), false)).await? {
            assert_eq!(r["isError"], json!(true), "{r}");
            let text = r["content"][0]["text"].as_str().unwrap();
            assert!(text.starts_with("search backend unavailable") && text.contains("401"), "{text}");
        }
    }
    assert!(proxy.refused.load(Ordering::SeqCst) > refused);

    // A certificate that does not chain to a trusted CA is refused (no CA file, not insecure).
    let forwarded = proxy.forwarded.load(Ordering::SeqCst);
    for r in calls(&secured(Some(USER), Some(PASSWORD), None, false)).await? {
        assert_eq!(r["isError"], json!(true), "{r}");
        let text = r["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("search backend unavailable"), "{text}");
    }
    // ... and so is a CA that did not sign it.
    let other = make_certs()?;
    let other_ca = dir.path().join("other-ca.pem");
    std::fs::write(&other_ca, &other.ca_pem)?;
    for r in calls(&secured(Some(USER), Some(PASSWORD), Some(&other_ca), false)).await? {
        assert_eq!(r["isError"], json!(true), "{r}");
    }
    assert_eq!(
        proxy.forwarded.load(Ordering::SeqCst),
        forwarded,
        "nothing reached the node without a trusted TLS session"
    );

    // A CA file that cannot be read stops the start with a clear error.
    let missing = secured(Some(USER), Some(PASSWORD), Some(&dir.path().join("missing.pem")), false);
    let err = vibe_gateway::spawn(&missing, opts()).await.err().expect("a missing CA file is an error");
    assert!(format!("{err:#}").contains("cannot read CA certificate"), "{err:#}");

    crate::common::cleanup(&fixture).await;
    Ok(())
}

/// `http://` hosts use the plain transport (no TLS stack); basic auth must work there too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn basic_auth_over_plain_http() -> anyhow::Result<()> {
    let fixture = load_fixture("gwt_plain_auth").await?;
    let (port, proxy) = start_plain_proxy().await?;
    let with = |user: Option<&str>, password: Option<&str>| {
        let mut c = fixture.clone();
        c.opensearch.hosts = vec![format!("http://127.0.0.1:{port}")];
        c.opensearch.username = user.map(str::to_string);
        c.opensearch.password = password.map(str::to_string);
        c
    };

    let ok = calls(&with(Some(USER), Some(PASSWORD))).await?;
    assert_eq!(answer(&ok[0])["total"], json!(2), "{}", ok[0]);
    assert_eq!(answer(&ok[1])["results"][0]["path"], json!("legends/kirikur.md"));
    assert!(proxy.forwarded.load(Ordering::SeqCst) > 0);

    for (user, password) in [(Some(USER), Some("wrong")), (None, None)] {
        for r in calls(&with(user, password)).await? {
            assert_eq!(r["isError"], json!(true), "{r}");
            let text = r["content"][0]["text"].as_str().unwrap();
            assert!(text.starts_with("search backend unavailable") && text.contains("401"), "{text}");
        }
    }
    assert!(proxy.refused.load(Ordering::SeqCst) > 0);
    crate::common::cleanup(&fixture).await;
    Ok(())
}
