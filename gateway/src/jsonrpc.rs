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
//!   `arguments` that are not an object, or with `name`, `arguments` or
//!   `_meta` given twice → `-32602` for that request id;
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
//! A well-formed request whose protocol version the server does not speak
//! is refused next ([`version`]: HTTP 400, `-32022`, naming the versions it
//! does).
//!
//! The error codes are rmcp's ([`ErrorCode`]); [`error_response`] also
//! serves the HTTP layer's 401 ([`UNAUTHORIZED`]).

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::model::ErrorCode;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::{to_raw_value, RawValue};

pub mod version;

pub use version::{check_version, Spoken, UnsupportedVersion};

/// Largest request body accepted (a bigger one gets 413).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// A request without the bearer token (JSON-RPC's server-error range: rmcp
/// has no code for it).
pub const UNAUTHORIZED: ErrorCode = ErrorCode(-32001);

/// A request id, as it goes back into the error response: a string or an
/// integer that fits an `i64`, as rmcp reads ids (a larger one, a fraction,
/// an object, `null`... is refused here, where rmcp would answer 415).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Id {
    Number(i64),
    Text(String),
}

/// What an id must be.
const ID_RULE: &str = "`id` must be a string or an integer from -2^63 to 2^63-1";

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
///
/// With `MEMBERS_ONCE`, an object that names a member twice, at any depth,
/// is an error too: rmcp answers a known member given twice with a bare 415
/// (or reads an `initialize` as another message), so the guard refuses them
/// all in a request's `params`. With `ARGUMENTS_AS_SENT` as well, the value of
/// a top-level `arguments` member is not held to that: a tool's arguments are
/// read leniently (the last of two wins).
struct WellFormed<const MEMBERS_ONCE: bool = false, const ARGUMENTS_AS_SENT: bool = false>(Shape);

impl<'de, const MEMBERS_ONCE: bool, const ARGUMENTS_AS_SENT: bool> Deserialize<'de>
    for WellFormed<MEMBERS_ONCE, ARGUMENTS_AS_SENT>
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(WellFormedVisitor::<MEMBERS_ONCE, ARGUMENTS_AS_SENT>)
    }
}

struct WellFormedVisitor<const MEMBERS_ONCE: bool, const ARGUMENTS_AS_SENT: bool>;

impl<'de, const MEMBERS_ONCE: bool, const ARGUMENTS_AS_SENT: bool> Visitor<'de>
    for WellFormedVisitor<MEMBERS_ONCE, ARGUMENTS_AS_SENT>
{
    type Value = WellFormed<MEMBERS_ONCE, ARGUMENTS_AS_SENT>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(WellFormed(Shape::Scalar))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(WellFormed(Shape::Scalar))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(WellFormed(Shape::Scalar))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(WellFormed(Shape::Scalar))
    }

    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(WellFormed(Shape::Scalar))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(WellFormed(Shape::Scalar))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut elements: A) -> Result<Self::Value, A::Error> {
        while elements.next_element::<WellFormed<MEMBERS_ONCE>>()?.is_some() {}
        Ok(WellFormed(Shape::Array))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        if !MEMBERS_ONCE {
            while members.next_entry::<WellFormed, WellFormed>()?.is_some() {}
            return Ok(WellFormed(Shape::Object));
        }
        let mut seen = HashSet::new();
        while let Some(name) = members.next_key::<String>()? {
            if seen.contains(&name) {
                return Err(de::Error::custom(format_args!("duplicate field `{name}`")));
            }
            if ARGUMENTS_AS_SENT && name == "arguments" {
                members.next_value::<WellFormed>()?;
            } else {
                members.next_value::<WellFormed<true>>()?;
            }
            seen.insert(name);
        }
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

/// The `params` of a request, from the whole body (so that an error's line
/// and column are the body's).
#[derive(Deserialize)]
struct ParamsOf<T> {
    #[serde(rename = "params")]
    _params: Option<T>,
}

/// The first member of a request's `params` given twice (at any depth, not
/// inside a tool's `arguments`), as an error message.
fn duplicate_in_params(body: &[u8], tool_call: bool) -> Option<String> {
    let read = match tool_call {
        true => serde_json::from_slice::<ParamsOf<WellFormed<true, true>>>(body).map(drop),
        false => serde_json::from_slice::<ParamsOf<WellFormed<true>>>(body).map(drop),
    };
    read.err().map(|e| e.to_string())
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
    let Some(id) = id else { return Ok(Verdict::Pass) };
    let tool_call = method == "tools/call";
    if let Some(duplicate) = duplicate_in_params(body, tool_call) {
        return Err(invalid_params(Some(id), &duplicate));
    }
    Ok(if tool_call { check_tool_call(body, id) } else { Verdict::Pass })
}

/// The JSON-RPC 2.0 envelope of a request or notification: its `id` and
/// `method`, once `params` is known to be an object (or absent). A response
/// to a server request passes (`Err(Verdict::Pass)`).
fn envelope(message: &Envelope) -> Result<(Option<Id>, String), Verdict> {
    let id = match message.id {
        Some(id) => Some(parse::<Id>(id).map_err(|_| invalid_request(None, ID_RULE))?),
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
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<&'a UnsupportedVersion>,
}

/// The JSON-RPC error response (`"id": null` when `id` is `None`).
pub fn error_response(status: StatusCode, id: Option<Id>, code: ErrorCode, message: &str) -> Response {
    let body = ErrorResponse { jsonrpc: "2.0", id, error: ErrorObject { code, message, data: None } };
    (status, axum::Json(body)).into_response()
}

/// The `-32022` response to a request of a version the server does not speak.
fn refusal_response(refusal: version::Refusal) -> Response {
    let version::Refusal { status, id, code, message, data } = refusal;
    let body = ErrorResponse { jsonrpc: "2.0", id, error: ErrorObject { code, message: &message, data: Some(&data) } };
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

/// The middleware: checks every JSON POST (see the module documentation)
/// against the protocol versions the server speaks.
pub async fn guard(State(spoken): State<Spoken>, request: Request, next: Next) -> Response {
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
    if let Some(refusal) = check_version(&parts.headers, &body, &spoken) {
        tracing::info!(requested = refusal.data.requested, "request of an unsupported protocol version refused");
        return refusal_response(refusal);
    }
    next.run(Request::from_parts(parts, Body::from(body))).await
}

#[cfg(test)]
mod guard_tests;
