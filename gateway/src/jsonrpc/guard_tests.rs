//! The guard's verdicts on well-formed, malformed and repaired messages.
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
    assert_eq!(m.id, Id::Number(1));
}

#[test]
fn messages_name_what_is_wrong() {
    let message = |body: &[u8]| id_and_message(check(body)).1;
    assert_eq!(message(b"[]"), "Invalid Request: batch requests are not supported");
    assert_eq!(message(b"\"x\""), "Invalid Request: a message must be a JSON object");
    assert_eq!(message(b"{not json"), "Parse error: key must be a string at line 1 column 2");
    assert_eq!(
        message(br#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#),
        "Invalid Request: `id` must be a string or an integer from -2^63 to 2^63-1"
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
                    "arguments": "{ \"query\": \"add\",  \"lang\": \"rust\" }", "extra": [1, {"k": 2}] },
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
        ("9223372036854775807", Id::Number(i64::MAX)),
        ("0", Id::Number(0)),
        ("-1", Id::Number(-1)),
        ("-9223372036854775808", Id::Number(i64::MIN)),
        (r#""\u00e9""#, Id::Text("é".into())),
    ];
    for (id, expected) in cases {
        let verdict = tool_call_without_params(id);
        assert_eq!(code(&verdict), Some((200, ErrorCode::INVALID_PARAMS)), "{id}");
        assert_eq!(id_and_message(verdict).0, Some(expected), "{id}");
    }
    // Over `i64::MAX`: rmcp cannot read it (it would answer 415), so the guard refuses it.
    for id in [
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775809",
        "1.0",
        "1e3",
        "true",
        "[1]",
        "null",
    ] {
        let verdict = tool_call_without_params(id);
        assert_eq!(code(&verdict), Some((400, ErrorCode::INVALID_REQUEST)), "{id}");
        assert_eq!(id_and_message(verdict).0, None, "{id}");
    }
}

#[tokio::test]
async fn error_responses_carry_the_id_as_given() {
    let cases = [
        (Some(Id::Number(i64::MAX)), "9223372036854775807"),
        (Some(Id::Number(-3)), "-3"),
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
    // A member of a request's `params` given twice, at any depth: -32602 for the id.
    for (method, params) in [
        ("tools/call", r#"{"name":"x","arguments":{},"arguments":5}"#),
        ("tools/call", r#"{"name":"x","name":"y"}"#),
        ("tools/call", r#"{"name":"x","_meta":{},"_meta":{}}"#),
        ("tools/call", r#"{"name":"x","_meta":{"progressToken":1,"progressToken":2}}"#),
        ("tools/list", r#"{"cursor":"a","cursor":"b"}"#),
        ("initialize", r#"{"protocolVersion":"2025-06-18","protocolVersion":"2024-11-05"}"#),
        ("initialize", r#"{"clientInfo":{"name":"a","version":"1","name":"b"}}"#),
        ("ping", r#"{"x":[{"y":1,"y":2}]}"#),
    ] {
        let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}}}"#);
        let verdict = check(body.as_bytes());
        assert_eq!(code(&verdict), Some((200, ErrorCode::INVALID_PARAMS)), "{params}");
        let (id, message) = id_and_message(verdict);
        assert_eq!(id, Some(Id::Number(1)));
        assert!(message.starts_with("Invalid params: duplicate field `"), "{params}: {message}");
    }
    let body =
        br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"a","protocolVersion":"b"}}"#;
    let (_, message) = id_and_message(check(body));
    assert_eq!(message, "Invalid params: duplicate field `protocolVersion` at line 1 column 95");
    // Other members given twice pass as before: outside `params` (rmcp
    // ignores them), inside a tool's arguments (read leniently: the last
    // wins), and in a notification (which no answer can name).
    for body in [
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","x":1,"x":2}"#.as_slice(),
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":1,"q":2}}}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/initialized","params":{"a":1,"a":2}}"#,
    ] {
        assert_eq!(check(body), Verdict::Pass, "{}", String::from_utf8_lossy(body));
    }
    let text_arguments =
        br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":"{\"q\":1,\"q\":2}"}}"#;
    assert!(matches!(check(text_arguments), Verdict::Repaired(_)));
}
