//! A guard in front of the MCP transport for what a client POSTs: the body
//! is read (at most [`MAX_BODY_BYTES`]) and
//! checked before rmcp sees it, so that every malformed message gets a clean
//! JSON-RPC error instead of a transport status (rmcp answers unparsable JSON
//! with 415 and a bad `tools/call` with "method not found"):
//!
//! * not JSON (or not UTF-8, or a lone surrogate) → HTTP 400, `-32700`;
//! * a batch, or not a JSON-RPC 2.0 request/notification/response → HTTP 400, `-32600`;
//! * `tools/call` without an object `params` or a string `name`, or with
//!   `arguments` that are not an object → `-32602` for that request id;
//! * too large → HTTP 413, `-32600`.
//!
//! One mangling is repaired instead: `arguments` sent as a JSON string
//! (`"{\"query\": \"x\"}"`) is parsed, and a plain string becomes the query.
//!
//! The error codes are rmcp's ([`ErrorCode`]); [`error_response`] also
//! serves the HTTP layer's 401 ([`UNAUTHORIZED`]).

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::model::ErrorCode;
use serde_json::{json, Map, Value};

/// Largest request body accepted (a bigger one gets 413).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// A request without the bearer token (JSON-RPC's server-error range: rmcp
/// has no code for it).
pub const UNAUTHORIZED: ErrorCode = ErrorCode(-32001);

/// What to do with one incoming message.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Pass it on as it came.
    Pass,
    /// Pass this repaired message on instead.
    Repaired(Value),
    /// Answer with this HTTP status and JSON-RPC error.
    Reject { status: StatusCode, id: Value, code: ErrorCode, message: String },
}

fn reject(status: StatusCode, id: Value, code: ErrorCode, message: impl Into<String>) -> Verdict {
    Verdict::Reject { status, id, code, message: message.into() }
}

/// HTTP 400, `-32600`.
fn invalid_request(id: Value, message: &str) -> Verdict {
    reject(StatusCode::BAD_REQUEST, id, ErrorCode::INVALID_REQUEST, format!("Invalid Request: {message}"))
}

/// `-32602` for that request id.
fn invalid_params(id: Value, message: &str) -> Verdict {
    reject(StatusCode::OK, id, ErrorCode::INVALID_PARAMS, format!("Invalid params: {message}"))
}

/// Checks (and possibly repairs) one POSTed body.
pub fn check(body: &[u8]) -> Verdict {
    let obj = match parse_object(body) {
        Ok(obj) => obj,
        Err(verdict) => return verdict,
    };
    let (id, method) = match envelope(&obj) {
        Ok(found) => found,
        Err(verdict) => return verdict,
    };
    if method != "tools/call" {
        return Verdict::Pass;
    }
    let Some(id) = id else {
        return Verdict::Pass;
    };
    check_tool_call(obj, id)
}

/// The message as a JSON object.
fn parse_object(body: &[u8]) -> Result<Map<String, Value>, Verdict> {
    let message: Value = serde_json::from_slice(body).map_err(|e| {
        reject(StatusCode::BAD_REQUEST, Value::Null, ErrorCode::PARSE_ERROR, format!("Parse error: {e}"))
    })?;
    match message {
        Value::Object(obj) => Ok(obj),
        other => Err(invalid_request(
            Value::Null,
            if other.is_array() { "batch requests are not supported" } else { "a message must be a JSON object" },
        )),
    }
}

/// The JSON-RPC 2.0 envelope of a request or notification: its `id` and
/// `method`, once `params` is known to be an object (or absent). A response
/// to a server request passes (`Err(Verdict::Pass)`).
fn envelope(obj: &Map<String, Value>) -> Result<(Option<Value>, String), Verdict> {
    let id = obj.get("id").cloned();
    if let Some(id) = &id {
        if !(id.is_string() || id.is_i64() || id.is_u64()) {
            return Err(invalid_request(Value::Null, "`id` must be a string or an integer"));
        }
    }
    let id_or_null = id.clone().unwrap_or(Value::Null);
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid_request(id_or_null, "`jsonrpc` must be \"2.0\""));
    }
    let method = match obj.get("method") {
        Some(Value::String(m)) => m.clone(),
        Some(_) => return Err(invalid_request(id_or_null, "`method` must be a string")),
        // A response to a server request.
        None if id.is_some() && (obj.contains_key("result") || obj.contains_key("error")) => return Err(Verdict::Pass),
        None => return Err(invalid_request(id_or_null, "no `method`")),
    };
    if let Some(params) = obj.get("params") {
        if !(params.is_object() || params.is_null()) {
            return Err(invalid_params(id_or_null, "`params` must be an object"));
        }
    }
    Ok((id, method))
}

/// A `tools/call` request: `params` names a tool; `arguments` sent as a
/// string is repaired.
fn check_tool_call(mut obj: Map<String, Value>, id: Value) -> Verdict {
    let Some(params) = obj.get("params").and_then(Value::as_object) else {
        return invalid_params(id, "tools/call needs `params` with the tool `name`");
    };
    if !matches!(params.get("name"), Some(Value::String(_))) {
        return invalid_params(id, "`params.name` must be a string, the name of a tool (see tools/list)");
    }
    let repaired = match params.get("arguments") {
        None | Some(Value::Null) | Some(Value::Object(_)) => return Verdict::Pass,
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(inner)) => Value::Object(inner),
            _ => {
                let mut m = Map::new();
                m.insert("query".into(), Value::String(s.clone()));
                Value::Object(m)
            }
        },
        Some(_) => {
            return invalid_params(id, "`params.arguments` must be an object, e.g. {\"query\": \"...\"}");
        }
    };
    if let Some(Value::Object(params)) = obj.get_mut("params") {
        params.insert("arguments".into(), repaired);
    }
    Verdict::Repaired(Value::Object(obj))
}

/// The JSON-RPC error response.
pub fn error_response(status: StatusCode, id: Value, code: ErrorCode, message: &str) -> Response {
    let body = json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } });
    (status, axum::Json(body)).into_response()
}

fn is_json(request: &Request) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// The middleware: checks every JSON POST (see the module documentation).
pub async fn guard(request: Request, next: Next) -> Response {
    if request.method() != Method::POST || !is_json(&request) {
        return next.run(request).await;
    }
    let (mut parts, body) = request.into_parts();
    let bytes: Bytes = match to_bytes(body, MAX_BODY_BYTES).await {
        Ok(b) => b,
        Err(e) => {
            let too_large = e.to_string().contains("length limit");
            return if too_large {
                error_response(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    Value::Null,
                    ErrorCode::INVALID_REQUEST,
                    &format!("Payload Too Large: the request body exceeds {MAX_BODY_BYTES} bytes"),
                )
            } else {
                error_response(
                    StatusCode::BAD_REQUEST,
                    Value::Null,
                    ErrorCode::PARSE_ERROR,
                    &format!("cannot read the body: {e}"),
                )
            };
        }
    };
    let body = match check(&bytes) {
        Verdict::Pass => bytes,
        Verdict::Repaired(message) => {
            tracing::debug!("tools/call arguments sent as a string: parsed");
            let repaired = Bytes::from(message.to_string());
            parts.headers.insert(header::CONTENT_LENGTH, HeaderValue::from(repaired.len()));
            repaired
        }
        Verdict::Reject { status, id, code, message } => {
            tracing::info!(status = status.as_u16(), code = code.0, "malformed message rejected: {message}");
            return error_response(status, id, code, &message);
        }
    };
    next.run(Request::from_parts(parts, Body::from(body))).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(v: &Verdict) -> Option<(u16, ErrorCode)> {
        match v {
            Verdict::Reject { status, code, .. } => Some((status.as_u16(), *code)),
            _ => None,
        }
    }

    #[test]
    fn verdicts() {
        let call =
            |params: Value| json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params }).to_string();
        assert_eq!(check(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#), Verdict::Pass);
        assert_eq!(check(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#), Verdict::Pass);
        assert_eq!(check(br#"{"jsonrpc":"2.0","id":"a","result":{}}"#), Verdict::Pass);
        assert_eq!(check(call(json!({ "name": "x", "arguments": { "q": 1 } })).as_bytes()), Verdict::Pass);
        assert_eq!(check(call(json!({ "name": "x" })).as_bytes()), Verdict::Pass);
        assert_eq!(code(&check(b"{not json")), Some((400, ErrorCode::PARSE_ERROR)));
        assert_eq!(code(&check(b"")), Some((400, ErrorCode::PARSE_ERROR)));
        assert_eq!(code(&check(b"{\"a\":\"\\ud800\"}")), Some((400, ErrorCode::PARSE_ERROR)));
        assert_eq!(code(&check(&[b'"', 0xff, b'"'])), Some((400, ErrorCode::PARSE_ERROR)));
        assert_eq!(code(&check(b"[]")), Some((400, ErrorCode::INVALID_REQUEST)));
        assert_eq!(code(&check(b"42")), Some((400, ErrorCode::INVALID_REQUEST)));
        assert_eq!(
            code(&check(br#"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#)),
            Some((400, ErrorCode::INVALID_REQUEST))
        );
        assert_eq!(
            code(&check(br#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}"#)),
            Some((400, ErrorCode::INVALID_REQUEST))
        );
        assert_eq!(
            code(&check(br#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#)),
            Some((400, ErrorCode::INVALID_REQUEST))
        );
        assert_eq!(code(&check(br#"{"jsonrpc":"2.0","id":1}"#)), Some((400, ErrorCode::INVALID_REQUEST)));
        assert_eq!(code(&check(br#"{"jsonrpc":"2.0","id":1,"method":7}"#)), Some((400, ErrorCode::INVALID_REQUEST)));
        assert_eq!(
            code(&check(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}"#)),
            Some((200, ErrorCode::INVALID_PARAMS))
        );
        assert_eq!(
            code(&check(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#)),
            Some((200, ErrorCode::INVALID_PARAMS))
        );
        assert_eq!(code(&check(call(json!({ "name": 42 })).as_bytes())), Some((200, ErrorCode::INVALID_PARAMS)));
        assert_eq!(code(&check(call(json!({ "arguments": {} })).as_bytes())), Some((200, ErrorCode::INVALID_PARAMS)));
        assert_eq!(
            code(&check(call(json!({ "name": "x", "arguments": [1] })).as_bytes())),
            Some((200, ErrorCode::INVALID_PARAMS))
        );
        assert_eq!(
            code(&check(call(json!({ "name": "x", "arguments": 5 })).as_bytes())),
            Some((200, ErrorCode::INVALID_PARAMS))
        );
        // Arguments sent as a string are repaired.
        let Verdict::Repaired(m) = check(call(json!({ "name": "x", "arguments": "{\"query\": \"add\"}" })).as_bytes())
        else {
            panic!("not repaired");
        };
        assert_eq!(m["params"]["arguments"], json!({ "query": "add" }));
        let Verdict::Repaired(m) = check(call(json!({ "name": "x", "arguments": "who is Kirikur" })).as_bytes()) else {
            panic!("not repaired");
        };
        assert_eq!(m["params"]["arguments"], json!({ "query": "who is Kirikur" }));
        assert_eq!(m["id"], 1);
    }
}
