//! A guard in front of the MCP transport for what a client POSTs: the body
//! is read (at most [`MAX_BODY_BYTES`]) and
//! checked before rmcp sees it, so that every malformed message gets a clean
//! JSON-RPC error instead of a transport status (rmcp answers unparsable JSON
//! with 415 and a bad `tools/call` with "method not found"):
//!
//! * not JSON (or not UTF-8, or a lone surrogate) → HTTP 400, `-32700`;
//! * a batch, or not a JSON-RPC 2.0 request/notification/response → HTTP 400, `-32600`;
//! * a member the guard reads (`jsonrpc`, `id`, `method`, `params`, `result`,
//!   `error`) given twice → HTTP 400, `-32600` (rmcp would answer 415);
//! * `tools/call` without an object `params` or a string `name`, with
//!   `arguments` that are not an object, or with `name` or `arguments` given
//!   twice → `-32602` for that request id;
//! * too large → HTTP 413, `-32600`.
//!
//! One mangling is repaired instead: `arguments` sent as a JSON string
//! (`"{\"query\": \"x\"}"`) is parsed, and a plain string becomes the query.
//!
//! The body is read with typed serde, never into a JSON tree: `WellFormed`
//! decodes every string in it (which is what refuses a lone surrogate: serde's
//! skipping, `IgnoredAny` or `RawValue`, does not check `\u` escapes) and keeps
//! only what the top level is; `Envelope` and `ToolCall` then borrow the
//! members the guard reads as raw JSON, each parsed into a small type
//! ([`Id`], `Version`, `AnyObject`, `String`). A repair rebuilds the body
//! from its members as raw JSON, only `params.arguments` replaced.
//!
//! The error codes are rmcp's ([`ErrorCode`]); [`error_response`] also
//! serves the HTTP layer's 401 ([`UNAUTHORIZED`]).

use std::collections::BTreeMap;
use std::fmt;

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::model::ErrorCode;
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::{to_raw_value, RawValue};

/// Largest request body accepted (a bigger one gets 413).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// A request without the bearer token (JSON-RPC's server-error range: rmcp
/// has no code for it).
pub const UNAUTHORIZED: ErrorCode = ErrorCode(-32001);

/// A request id, as it goes back into the error response: a string or an
/// integer (a fraction, an object, `null`... is refused).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Id {
    /// An integer from 0 to `u64::MAX` (serde_json reads each as a `u64`).
    Unsigned(u64),
    /// A negative integer, down to `i64::MIN`.
    Negative(i64),
    Text(String),
}

/// What to do with one incoming message.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Pass it on as it came.
    Pass,
    /// Pass this repaired message (JSON text) on instead.
    Repaired(String),
    /// Answer with this HTTP status and JSON-RPC error (`id` null when none).
    Reject { status: StatusCode, id: Option<Id>, code: ErrorCode, message: String },
}

fn reject(status: StatusCode, id: Option<Id>, code: ErrorCode, message: impl Into<String>) -> Verdict {
    Verdict::Reject { status, id, code, message: message.into() }
}

/// HTTP 400, `-32700`.
fn parse_error(error: &serde_json::Error) -> Verdict {
    reject(StatusCode::BAD_REQUEST, None, ErrorCode::PARSE_ERROR, format!("Parse error: {error}"))
}

/// HTTP 400, `-32600`.
fn invalid_request(id: Option<Id>, message: &str) -> Verdict {
    reject(StatusCode::BAD_REQUEST, id, ErrorCode::INVALID_REQUEST, format!("Invalid Request: {message}"))
}

/// `-32602` for that request id.
fn invalid_params(id: Option<Id>, message: &str) -> Verdict {
    reject(StatusCode::OK, id, ErrorCode::INVALID_PARAMS, format!("Invalid params: {message}"))
}

/// What a JSON text is at its top level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Object,
    Array,
    Scalar,
}

/// A JSON value decoded in full, then dropped: only its [`Shape`] is kept.
/// `deserialize_any` decodes every string, map keys included, so a lone
/// surrogate (`"\ud800"`) fails here, as invalid UTF-8 does.
struct WellFormed(Shape);

impl<'de> Deserialize<'de> for WellFormed {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(WellFormedVisitor)
    }
}

struct WellFormedVisitor;

impl<'de> Visitor<'de> for WellFormedVisitor {
    type Value = WellFormed;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<WellFormed, E> {
        Ok(WellFormed(Shape::Scalar))
    }

    fn visit_i64<E>(self, _: i64) -> Result<WellFormed, E> {
        Ok(WellFormed(Shape::Scalar))
    }

    fn visit_u64<E>(self, _: u64) -> Result<WellFormed, E> {
        Ok(WellFormed(Shape::Scalar))
    }

    fn visit_f64<E>(self, _: f64) -> Result<WellFormed, E> {
        Ok(WellFormed(Shape::Scalar))
    }

    fn visit_str<E>(self, _: &str) -> Result<WellFormed, E> {
        Ok(WellFormed(Shape::Scalar))
    }

    fn visit_unit<E>(self) -> Result<WellFormed, E> {
        Ok(WellFormed(Shape::Scalar))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut elements: A) -> Result<WellFormed, A::Error> {
        while elements.next_element::<WellFormed>()?.is_some() {}
        Ok(WellFormed(Shape::Array))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<WellFormed, A::Error> {
        while members.next_entry::<WellFormed, WellFormed>()?.is_some() {}
        Ok(WellFormed(Shape::Object))
    }
}

/// Any JSON object, its members skipped (a derived struct would also accept
/// an array, its fields by position).
struct AnyObject;

impl<'de> Deserialize<'de> for AnyObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(IgnoredAny).map(|_| AnyObject)
    }
}

/// `"jsonrpc": "2.0"`, the only version accepted.
#[derive(Deserialize)]
enum Version {
    #[serde(rename = "2.0")]
    V2,
}

/// The members of a message that the guard reads, as raw JSON borrowed from
/// the body (each is parsed on its own, in the order of the checks). A member
/// given as `null` is present (`Some`), unlike with a plain `Option` field;
/// one given twice is an error ("duplicate field"), as it is for rmcp.
#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    jsonrpc: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    id: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    method: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    params: Option<&'a RawValue>,
    #[serde(default, deserialize_with = "present")]
    result: Option<IgnoredAny>,
    #[serde(default, deserialize_with = "present")]
    error: Option<IgnoredAny>,
}

/// A member that is there, even as `null` (with `#[serde(default)]` for one
/// that is not).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// The members of a `tools/call` request that the guard reads, from the whole
/// body (so that an error's line and column are the body's).
#[derive(Deserialize)]
struct ToolCall<'a> {
    #[serde(borrow)]
    params: Option<ToolCallParams<'a>>,
}

/// `params` of a `tools/call` (known to be an object by then): the tool's
/// `name` and its `arguments`, as raw JSON (`null` reads as absent).
#[derive(Deserialize)]
struct ToolCallParams<'a> {
    #[serde(borrow)]
    name: Option<&'a RawValue>,
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
}

/// `{"query": <the string>}`: `arguments` sent as plain text.
#[derive(Serialize)]
struct QueryArguments<'a> {
    query: &'a str,
}

/// One member of a message or of its `params` parsed as `T`.
fn parse<'a, T: Deserialize<'a>>(member: &'a RawValue) -> serde_json::Result<T> {
    serde_json::from_str(member.get())
}

/// Checks (and possibly repairs) one POSTed body.
pub fn check(body: &[u8]) -> Verdict {
    match check_message(body) {
        Ok(verdict) | Err(verdict) => verdict,
    }
}

/// [`check`], with `Err` for a verdict reached before the end.
fn check_message(body: &[u8]) -> Result<Verdict, Verdict> {
    match serde_json::from_slice::<WellFormed>(body) {
        Ok(WellFormed(Shape::Object)) => {}
        Ok(WellFormed(Shape::Array)) => return Err(invalid_request(None, "batch requests are not supported")),
        Ok(WellFormed(Shape::Scalar)) => return Err(invalid_request(None, "a message must be a JSON object")),
        Err(e) => return Err(parse_error(&e)),
    }
    let message: Envelope = serde_json::from_slice(body).map_err(|e| invalid_request(None, &e.to_string()))?;
    let (id, method) = envelope(&message)?;
    match id {
        Some(id) if method == "tools/call" => Ok(check_tool_call(body, id)),
        _ => Ok(Verdict::Pass),
    }
}

/// The JSON-RPC 2.0 envelope of a request or notification: its `id` and
/// `method`, once `params` is known to be an object (or absent). A response
/// to a server request passes (`Err(Verdict::Pass)`).
fn envelope(message: &Envelope) -> Result<(Option<Id>, String), Verdict> {
    let id = match message.id {
        Some(id) => Some(parse::<Id>(id).map_err(|_| invalid_request(None, "`id` must be a string or an integer"))?),
        None => None,
    };
    if message.jsonrpc.is_none_or(|version| parse::<Version>(version).is_err()) {
        return Err(invalid_request(id, "`jsonrpc` must be \"2.0\""));
    }
    let method = match message.method {
        Some(method) => {
            parse::<String>(method).map_err(|_| invalid_request(id.clone(), "`method` must be a string"))?
        }
        // A response to a server request.
        None if id.is_some() && (message.result.is_some() || message.error.is_some()) => return Err(Verdict::Pass),
        None => return Err(invalid_request(id, "no `method`")),
    };
    if let Some(params) = message.params {
        if parse::<Option<AnyObject>>(params).is_err() {
            return Err(invalid_params(id, "`params` must be an object"));
        }
    }
    Ok((id, method))
}

/// A `tools/call` request: `params` names a tool; `arguments` sent as a
/// string is repaired.
fn check_tool_call(body: &[u8], id: Id) -> Verdict {
    let call: ToolCall = match serde_json::from_slice(body) {
        Ok(call) => call,
        Err(e) => return invalid_params(Some(id), &e.to_string()),
    };
    let Some(params) = call.params else {
        return invalid_params(Some(id), "tools/call needs `params` with the tool `name`");
    };
    if params.name.is_none_or(|name| parse::<String>(name).is_err()) {
        return invalid_params(Some(id), "`params.name` must be a string, the name of a tool (see tools/list)");
    }
    let Some(arguments) = params.arguments else {
        return Verdict::Pass;
    };
    if parse::<AnyObject>(arguments).is_ok() {
        return Verdict::Pass;
    }
    let Ok(text) = parse::<String>(arguments) else {
        return invalid_params(Some(id), "`params.arguments` must be an object, e.g. {\"query\": \"...\"}");
    };
    match arguments_from_text(text).and_then(|arguments| with_arguments(body, &arguments)) {
        Ok(repaired) => Verdict::Repaired(repaired),
        // Not expected: the body has been read as JSON above.
        Err(e) => parse_error(&e),
    }
}

/// `arguments` sent as a string, made an object: the object the string holds
/// as JSON, else `{"query": <the string>}`.
fn arguments_from_text(text: String) -> serde_json::Result<Box<RawValue>> {
    match serde_json::from_str::<WellFormed>(&text) {
        Ok(WellFormed(Shape::Object)) => RawValue::from_string(text),
        _ => to_raw_value(&QueryArguments { query: &text }),
    }
}

/// The message again, `params.arguments` replaced. Its other members and
/// those of `params` are copied as raw JSON; they come out in key order, a
/// repeated one once (the last), as from a `serde_json::Map`.
fn with_arguments(body: &[u8], arguments: &RawValue) -> serde_json::Result<String> {
    let mut message: BTreeMap<String, &RawValue> = serde_json::from_slice(body)?;
    let params = message.get("params").copied().map_or("{}", RawValue::get);
    let mut params: BTreeMap<String, &RawValue> = serde_json::from_str(params)?;
    params.insert("arguments".into(), arguments);
    let params = to_raw_value(&params)?;
    message.insert("params".into(), &params);
    serde_json::to_string(&message)
}

/// The body of a JSON-RPC error response.
#[derive(Serialize)]
struct ErrorResponse<'a> {
    jsonrpc: &'static str,
    id: Option<Id>,
    error: ErrorObject<'a>,
}

/// The `error` member of an [`ErrorResponse`].
#[derive(Serialize)]
struct ErrorObject<'a> {
    code: ErrorCode,
    message: &'a str,
}

/// The JSON-RPC error response (`"id": null` when `id` is `None`).
pub fn error_response(status: StatusCode, id: Option<Id>, code: ErrorCode, message: &str) -> Response {
    let body = ErrorResponse { jsonrpc: "2.0", id, error: ErrorObject { code, message } };
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
                    None,
                    ErrorCode::INVALID_REQUEST,
                    &format!("Payload Too Large: the request body exceeds {MAX_BODY_BYTES} bytes"),
                )
            } else {
                error_response(
                    StatusCode::BAD_REQUEST,
                    None,
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
            let repaired = Bytes::from(message);
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
    use serde_json::json;

    fn code(v: &Verdict) -> Option<(u16, ErrorCode)> {
        match v {
            Verdict::Reject { status, code, .. } => Some((status.as_u16(), *code)),
            _ => None,
        }
    }

    /// The id and message of a rejection.
    fn id_and_message(v: Verdict) -> (Option<Id>, String) {
        match v {
            Verdict::Reject { id, message, .. } => (id, message),
            other => panic!("not rejected: {other:?}"),
        }
    }

    fn call(params: impl Serialize) -> String {
        json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params }).to_string()
    }

    /// The parts of a repaired `tools/call` that `verdicts` looks at.
    #[derive(Deserialize)]
    struct RepairedCall {
        id: Id,
        params: RepairedParams,
    }

    #[derive(Deserialize)]
    struct RepairedParams {
        arguments: BTreeMap<String, String>,
    }

    fn repaired_text(v: Verdict) -> String {
        match v {
            Verdict::Repaired(message) => message,
            other => panic!("not repaired: {other:?}"),
        }
    }

    fn query(text: &str) -> BTreeMap<String, String> {
        BTreeMap::from([("query".to_string(), text.to_string())])
    }

    #[test]
    fn verdicts() {
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
        let m = repaired_text(check(call(json!({ "name": "x", "arguments": "{\"query\": \"add\"}" })).as_bytes()));
        let m: RepairedCall = serde_json::from_str(&m).unwrap();
        assert_eq!(m.params.arguments, query("add"));
        let m = repaired_text(check(call(json!({ "name": "x", "arguments": "who is Kirikur" })).as_bytes()));
        let m: RepairedCall = serde_json::from_str(&m).unwrap();
        assert_eq!(m.params.arguments, query("who is Kirikur"));
        assert_eq!(m.id, Id::Unsigned(1));
    }

    #[test]
    fn messages_name_what_is_wrong() {
        let message = |body: &[u8]| id_and_message(check(body)).1;
        assert_eq!(message(b"[]"), "Invalid Request: batch requests are not supported");
        assert_eq!(message(b"\"x\""), "Invalid Request: a message must be a JSON object");
        assert_eq!(message(b"{not json"), "Parse error: key must be a string at line 1 column 2");
        assert_eq!(
            message(br#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#),
            "Invalid Request: `id` must be a string or an integer"
        );
        assert_eq!(message(br#"{"id":1,"method":"tools/list"}"#), "Invalid Request: `jsonrpc` must be \"2.0\"");
        assert_eq!(message(br#"{"jsonrpc":"2.0","id":1,"method":null}"#), "Invalid Request: `method` must be a string");
        assert_eq!(message(br#"{"jsonrpc":"2.0","id":1,"params":{}}"#), "Invalid Request: no `method`");
        assert_eq!(
            message(br#"{"jsonrpc":"2.0","method":"x","params":[1]}"#),
            "Invalid params: `params` must be an object"
        );
        assert_eq!(
            message(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}"#),
            "Invalid params: tools/call needs `params` with the tool `name`"
        );
        assert_eq!(
            message(call(json!({ "name": null })).as_bytes()),
            "Invalid params: `params.name` must be a string, the name of a tool (see tools/list)"
        );
        assert_eq!(
            message(call(json!({ "name": "x", "arguments": true })).as_bytes()),
            "Invalid params: `params.arguments` must be an object, e.g. {\"query\": \"...\"}"
        );
    }

    #[test]
    fn a_member_given_as_null_is_present() {
        assert_eq!(check(br#"{"jsonrpc":"2.0","id":1,"result":null}"#), Verdict::Pass);
        assert_eq!(check(br#"{"jsonrpc":"2.0","id":1,"error":null}"#), Verdict::Pass);
        assert_eq!(check(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":null}"#), Verdict::Pass);
        assert_eq!(check(call(json!({ "name": "x", "arguments": null })).as_bytes()), Verdict::Pass);
        // A `null` id is refused (and the error's id is then null).
        let (id, _) = id_and_message(check(br#"{"jsonrpc":"2.0","id":null,"result":{}}"#));
        assert_eq!(id, None);
        assert_eq!(
            code(&check(br#"{"jsonrpc":null,"id":1,"method":"tools/list"}"#)),
            Some((400, ErrorCode::INVALID_REQUEST))
        );
    }

    #[test]
    fn lone_surrogates_and_invalid_utf8_anywhere_are_parse_errors() {
        let bodies: [&[u8]; 7] = [
            // A map key, at the top and nested.
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","\ud800":1}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"a":{"\udfff":1}}}"#,
            // Inside nested arrays.
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":[1,["\ud800"]]}}}"#,
            br#"[[{"a":"\udc00"}]]"#,
            // In `arguments` sent as a string (the one that would be repaired).
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":"\ud800"}}"#,
            // Invalid UTF-8 in a nested string, and in a nested key.
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{\"q\":[\"a\xffb\"]}}}",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"a\":{\"k\xc3\":1}}}",
        ];
        for body in bodies {
            let shown = String::from_utf8_lossy(body);
            let verdict = check(body);
            assert_eq!(code(&verdict), Some((400, ErrorCode::PARSE_ERROR)), "{shown}");
            let (id, message) = id_and_message(verdict);
            assert_eq!(id, None, "{shown}");
            assert!(message.starts_with("Parse error: "), "{shown}: {message}");
        }
        // A surrogate pair is a character, and passes.
        let pair = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"\ud83d\ude00":["\ud83d\ude00"]}}"#;
        assert_eq!(check(pair), Verdict::Pass);
    }

    /// Each member of a JSON object as its raw text (duplicates: the last).
    fn raw_members(json: &str) -> BTreeMap<String, Box<RawValue>> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_repair_changes_only_the_arguments() {
        // Whitespace, escapes and number forms that a re-serialized tree would
        // have normalized.
        let body = r#"{ "jsonrpc" : "2.0", "id": "req-\u0037", "method": "tools\/call",
            "params": { "_meta": { "progressToken": "t\u00e9", "n": [1.50, -0, 2e3] }, "name": "x",
                        "arguments": "{ \"query\": \"add\",  \"lang\": \"rust\" }", "extra": 1, "extra": 2 },
            "extension": [true, null, {"k": "v"}] }"#;
        let repaired = repaired_text(check(body.as_bytes()));
        let (before, after) = (raw_members(body), raw_members(&repaired));
        assert_eq!(before.keys().collect::<Vec<_>>(), after.keys().collect::<Vec<_>>());
        for member in ["jsonrpc", "id", "method", "extension"] {
            assert_eq!(before[member].get(), after[member].get(), "{member}");
        }
        let (params_before, params_after) = (raw_members(before["params"].get()), raw_members(after["params"].get()));
        assert_eq!(params_before.keys().collect::<Vec<_>>(), params_after.keys().collect::<Vec<_>>());
        for member in ["_meta", "name", "extra"] {
            assert_eq!(params_before[member].get(), params_after[member].get(), "params.{member}");
        }
        assert_eq!(params_after["extra"].get(), "2", "a repeated member: the last, as serde_json's Map keeps");
        assert_eq!(params_after["arguments"].get(), r#"{ "query": "add",  "lang": "rust" }"#);
        let call: RepairedCall = serde_json::from_str(&repaired).unwrap();
        let mut arguments = query("add");
        arguments.insert("lang".into(), "rust".into());
        assert_eq!((call.id, call.params.arguments), (Id::Text("req-7".into()), arguments));
    }

    #[test]
    fn ids_big_negative_and_out_of_range() {
        let tool_call_without_params =
            |id: &str| check(format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call"}}"#).as_bytes());
        let cases = [
            ("18446744073709551615", Id::Unsigned(u64::MAX)),
            ("0", Id::Unsigned(0)),
            ("-1", Id::Negative(-1)),
            ("-9223372036854775808", Id::Negative(i64::MIN)),
            (r#""\u00e9""#, Id::Text("é".into())),
        ];
        for (id, expected) in cases {
            let verdict = tool_call_without_params(id);
            assert_eq!(code(&verdict), Some((200, ErrorCode::INVALID_PARAMS)), "{id}");
            assert_eq!(id_and_message(verdict).0, Some(expected), "{id}");
        }
        for id in ["18446744073709551616", "-9223372036854775809", "1.0", "1e3", "true", "[1]", "null"] {
            let verdict = tool_call_without_params(id);
            assert_eq!(code(&verdict), Some((400, ErrorCode::INVALID_REQUEST)), "{id}");
            assert_eq!(id_and_message(verdict).0, None, "{id}");
        }
    }

    #[tokio::test]
    async fn error_responses_carry_the_id_as_given() {
        let cases = [
            (Some(Id::Unsigned(u64::MAX)), "18446744073709551615"),
            (Some(Id::Negative(-3)), "-3"),
            (Some(Id::Text("a\"b".into())), r#""a\"b""#),
            (None, "null"),
        ];
        for (id, written) in cases {
            let response = error_response(StatusCode::BAD_REQUEST, id, ErrorCode::INVALID_REQUEST, "m");
            assert_eq!(response.status(), StatusCode::BAD_REQUEST);
            let body = to_bytes(response.into_body(), usize::MAX).await.unwrap();
            let expected = format!(r#"{{"jsonrpc":"2.0","id":{written},"error":{{"code":-32600,"message":"m"}}}}"#);
            assert_eq!(String::from_utf8_lossy(&body), expected);
        }
    }

    #[test]
    fn duplicate_members() {
        // A member the guard reads, given twice: refused, as rmcp would
        // (with a 415 and no JSON-RPC error).
        for body in [
            br#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}"#.as_slice(),
            br#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","method":"tools/list"}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{},"params":{}}"#,
            br#"{"jsonrpc":"2.0","id":1,"result":{},"result":{}}"#,
        ] {
            let shown = String::from_utf8_lossy(body);
            let verdict = check(body);
            assert_eq!(code(&verdict), Some((400, ErrorCode::INVALID_REQUEST)), "{shown}");
            let (id, message) = id_and_message(verdict);
            assert_eq!(id, None, "{shown}");
            assert!(message.starts_with("Invalid Request: duplicate field `"), "{shown}: {message}");
        }
        let (id, message) = id_and_message(check(br#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}"#));
        assert_eq!((id, message.as_str()), (None, "Invalid Request: duplicate field `id` at line 1 column 28"));
        // `name` or `arguments` of a tools/call given twice: -32602 for the id.
        for params in [r#"{"name":"x","arguments":{},"arguments":5}"#, r#"{"name":"x","name":"y"}"#] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{params}}}"#);
            let verdict = check(body.as_bytes());
            assert_eq!(code(&verdict), Some((200, ErrorCode::INVALID_PARAMS)), "{params}");
            let (id, message) = id_and_message(verdict);
            assert_eq!(id, Some(Id::Unsigned(1)));
            assert!(message.starts_with("Invalid params: duplicate field `"), "{params}: {message}");
        }
        // Other members given twice pass as before (rmcp decides).
        for body in [
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","x":1,"x":2}"#.as_slice(),
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"x","name":"y"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":1,"q":2}}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{},"_meta":{}}}"#,
        ] {
            assert_eq!(check(body), Verdict::Pass, "{}", String::from_utf8_lossy(body));
        }
    }
}
