//! The protocol version a POSTed request names, checked before rmcp sees it.
//!
//! A 2026-07-28 request names its revision twice: in `params._meta` under
//! [`VERSION_META_KEY`] and in the `MCP-Protocol-Version` header; a request of
//! a session names it in the header. A version this server does not speak
//! gets HTTP 400 with `-32022`, whose message and `data.supported` name the
//! versions it does (rmcp answers a header-only one with a plain-text 400 and
//! names them in `data` only). `initialize` is not checked: the handshake
//! negotiates in its body. Two different versions in one request pass on:
//! rmcp answers them with `-32020` (the header does not match the body).

use std::sync::Arc;

use axum::http::{HeaderMap, StatusCode};
use rmcp::model::ErrorCode;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::Id;

/// The `_meta` key of a request's protocol version (2026-07-28).
pub const VERSION_META_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The header that names a request's protocol version.
pub const VERSION_HEADER: &str = "mcp-protocol-version";

/// The protocol versions the server speaks, oldest first.
#[derive(Debug, Clone)]
pub struct Spoken(Arc<[String]>);

impl Spoken {
    pub fn new<S: ToString>(versions: impl IntoIterator<Item = S>) -> Self {
        Self(versions.into_iter().map(|v| v.to_string()).collect())
    }

    fn speaks(&self, version: &str) -> bool {
        self.0.iter().any(|v| v == version)
    }
}

/// `data` of a `-32022` error, as the 2026-07-28 schema has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnsupportedVersion {
    pub supported: Vec<String>,
    pub requested: String,
}

/// A request refused for its version: the id to answer and the error.
#[derive(Debug, PartialEq)]
pub struct Refusal {
    pub status: StatusCode,
    pub id: Option<Id>,
    pub code: ErrorCode,
    pub message: String,
    pub data: UnsupportedVersion,
}

/// The members of a request this check reads (`null` reads as absent).
#[derive(Deserialize)]
struct Stamped<'a> {
    id: Option<Id>,
    method: Option<String>,
    #[serde(borrow)]
    params: Option<StampedParams<'a>>,
}

/// `params._meta` of a request.
#[derive(Deserialize)]
struct StampedParams<'a> {
    #[serde(rename = "_meta", borrow)]
    meta: Option<Meta<'a>>,
}

/// The version in `_meta`, as raw JSON (a string is read; anything else is
/// rmcp's to refuse).
#[derive(Deserialize)]
struct Meta<'a> {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion", borrow)]
    version: Option<&'a RawValue>,
}

/// The refusal of a request (well formed: [`super::check`] passed it) whose
/// `_meta` or header names a version not in `spoken`; `None` to pass it on.
pub fn check_version(headers: &HeaderMap, body: &[u8], spoken: &Spoken) -> Option<Refusal> {
    let request: Stamped = serde_json::from_slice(body).ok()?;
    let method = request.method.as_deref()?;
    if method == "initialize" {
        return None;
    }
    let in_meta = request
        .params
        .and_then(|p| p.meta)
        .and_then(|m| m.version)
        .and_then(|v| serde_json::from_str::<String>(v.get()).ok());
    let in_header = headers.get(VERSION_HEADER).and_then(|v| v.to_str().ok()).map(str::to_string);
    let requested = match (in_meta, in_header) {
        (Some(meta), Some(header)) if meta != header => return None,
        (Some(version), _) | (None, Some(version)) => version,
        (None, None) => return None,
    };
    if spoken.speaks(&requested) {
        return None;
    }
    let message = format!("Unsupported protocol version \"{requested}\": this server speaks {}", spoken.0.join(", "));
    Some(Refusal {
        status: StatusCode::BAD_REQUEST,
        id: request.id,
        code: ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
        message,
        data: UnsupportedVersion { supported: spoken.0.to_vec(), requested },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn spoken() -> Spoken {
        Spoken::new(["2025-11-25", "2026-07-28"])
    }

    fn headers(version: Option<&'static str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(v) = version {
            headers.insert(VERSION_HEADER, HeaderValue::from_static(v));
        }
        headers
    }

    fn request(method: &str, version: Option<&str>) -> Vec<u8> {
        let meta = version
            .map(|v| serde_json::json!({ VERSION_META_KEY: v, "io.modelcontextprotocol/clientCapabilities": {} }));
        serde_json::to_vec(&serde_json::json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": {"_meta": meta}}))
            .unwrap()
    }

    #[test]
    fn a_version_spoken_passes() {
        assert_eq!(
            check_version(&headers(Some("2026-07-28")), &request("tools/list", Some("2026-07-28")), &spoken()),
            None
        );
        assert_eq!(check_version(&headers(Some("2025-11-25")), &request("tools/list", None), &spoken()), None);
        assert_eq!(check_version(&headers(None), &request("tools/list", None), &spoken()), None);
    }

    #[test]
    fn a_version_not_spoken_is_named_with_those_spoken() {
        for (header, meta) in
            [(Some("2099-01-01"), Some("2099-01-01")), (None, Some("2099-01-01")), (Some("2099-01-01"), None)]
        {
            let refusal = check_version(&headers(header), &request("server/discover", meta), &spoken()).unwrap();
            assert_eq!(refusal.status, StatusCode::BAD_REQUEST);
            assert_eq!(refusal.code, ErrorCode(-32022));
            assert_eq!(refusal.id, Some(Id::Number(7)));
            assert_eq!(refusal.data.requested, "2099-01-01");
            assert_eq!(refusal.data.supported, ["2025-11-25", "2026-07-28"]);
            assert_eq!(
                refusal.message,
                "Unsupported protocol version \"2099-01-01\": this server speaks 2025-11-25, 2026-07-28"
            );
        }
    }

    #[test]
    fn initialize_and_disagreeing_versions_are_left_to_rmcp() {
        assert_eq!(check_version(&headers(Some("2099-01-01")), &request("initialize", None), &spoken()), None);
        assert_eq!(
            check_version(&headers(Some("2099-01-01")), &request("tools/list", Some("2026-07-28")), &spoken()),
            None
        );
        let response = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        assert_eq!(check_version(&headers(Some("2099-01-01")), response, &spoken()), None);
    }
}
