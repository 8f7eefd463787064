//! How `symbols.show` is kept: what a search answer shows of a definition
//! (`{name, kind, owner?, lines?, signature, doc?, code?, code_skip?}`) as
//! compact JSON in a `binary` field's doc values, which OpenSearch takes and
//! returns in base64.
//!
//! Binary doc values are read straight from the segment. A `keyword`'s
//! doc values keep their terms in LZ4 blocks of 64: every inner hit of a
//! search decompressed up to 64 neighbours' JSON to read its own (17 % of
//! OpenSearch's CPU samples under load, issue 33).

use std::borrow::Cow;

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::{alphabet, Engine as _};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::kinds::ElementKind;

/// What a search answer shows of a definition (`symbols.show`, before its
/// base64): the indexer writes it (borrowing from the scan), the gateway
/// reads it back (owning it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown<'a> {
    pub name: Cow<'a, str>,
    pub kind: ElementKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<String>,
    pub signature: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<Cow<'a, str>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_skip: Option<String>,
    /// The functions and methods of the file a short function or method
    /// calls (at most [`DELEGATE_LINES`] long): an answer shows the first
    /// after it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<Cow<'a, str>>,
    /// The named values a function or method reads (constants, statics,
    /// enum members, upper-case names; at most [`MAX_READS`]), in order of
    /// their first read: an answer shows each one's definition under it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<Cow<'a, str>>,
}

/// The [`Shown`] an inner hit's `fields."symbols.show"` holds; `None` for
/// an absent or unreadable value.
pub fn read(field: &Value) -> Option<Shown<'static>> {
    Shown::deserialize(decode(field)?).ok()
}

/// A function or method of at most this many lines records the functions
/// of its file it calls (`calls`): it may hand its work to one of them.
pub const DELEGATE_LINES: u32 = 12;

/// Named values a function or method records (`reads`).
pub const MAX_READS: usize = 8;

/// Standard base64 that decodes with or without the padding (OpenSearch
/// returns binary doc values unpadded).
const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The document value of `symbols.show` for `shown`.
pub fn encode(shown: &Value) -> String {
    encode_serialized(shown)
}

/// [`encode`] of what serializes as `shown`'s JSON (the indexer's struct,
/// not built as a [`Value`] first).
pub fn encode_serialized(shown: &impl serde::Serialize) -> String {
    ENGINE.encode(serde_json::to_vec(shown).expect("JSON to memory"))
}

/// What an inner hit's `fields."symbols.show"` holds, decoded; `None` for
/// an absent or unreadable value. An index written before the binary field
/// (a `keyword`: the JSON itself, which no base64 text starts with) still
/// reads, until `scan index` rebuilds it for the new format.
pub fn decode(field: &Value) -> Option<Value> {
    let text = field.as_str()?;
    if text.starts_with('{') {
        return serde_json::from_str(text).ok();
    }
    serde_json::from_slice(&ENGINE.decode(text).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_value_comes_back_padded_or_not() {
        let shown = json!({ "name": "キー", "kind": "function", "code": "def f():\n    return \"x\"" });
        let stored = encode(&shown);
        assert_eq!(decode(&json!(stored)), Some(shown.clone()));
        assert_eq!(decode(&json!(stored.trim_end_matches('='))), Some(shown));
    }

    #[test]
    fn the_json_of_an_older_index_reads_too() {
        let shown = json!({ "name": "add", "kind": "function", "lines": "3-5" });
        assert_eq!(decode(&json!(shown.to_string())), Some(shown));
    }

    #[test]
    fn anything_else_is_none() {
        assert_eq!(decode(&json!("not base64!")), None);
        assert_eq!(decode(&json!(ENGINE.encode("not json"))), None);
        assert_eq!(decode(&Value::Null), None);
    }

    #[test]
    fn what_the_indexer_writes_the_gateway_reads() {
        let written = Shown {
            name: Cow::Borrowed("get"),
            kind: ElementKind::Method,
            owner: Some(Cow::Borrowed("Map")),
            lines: Some("3-9".into()),
            signature: "fn get(&self)".into(),
            doc: None,
            code: Some("fn get(&self) {".into()),
            code_skip: None,
            calls: vec![Cow::Borrowed("find")],
            reads: vec![Cow::Borrowed("LIMIT")],
        };
        let field = json!(encode_serialized(&written));
        assert_eq!(read(&field), Some(written));
        assert_eq!(read(&json!("not base64 JSON")), None);
        assert_eq!(read(&json!(encode(&json!({ "name": "x" })))), None, "a value without its kind");
    }
}
