//! What a stored template's search answers, as the tools read it: how many
//! documents matched, the hits (each one's `_source`, doc values, inner
//! hits, sort values and highlights) and the aggregations. The parts whose
//! shape is a template's own (`_source`, doc values, aggregations) stay
//! JSON; [`crate::tools::answer::source`] reads a hit's file from them.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::{Map, Value};

/// The answer of one search.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Response {
    #[serde(default)]
    pub hits: Hits,
    #[serde(default)]
    pub aggregations: Value,
}

/// Hits, and how many documents matched (when the search counted them).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Hits {
    #[serde(default)]
    pub total: Option<Total>,
    #[serde(default)]
    pub hits: Vec<Hit>,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub struct Total {
    pub value: u64,
}

/// One document found (or one nested document of an inner hit).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Hit {
    #[serde(rename = "_score", default)]
    pub score: Option<f64>,
    #[serde(rename = "_source", default)]
    pub source: Value,
    /// Doc values, by field: a list each.
    #[serde(default)]
    pub fields: Map<String, Value>,
    #[serde(default)]
    pub inner_hits: HashMap<String, InnerHits>,
    #[serde(default)]
    pub sort: Vec<Value>,
    #[serde(default)]
    pub highlight: Map<String, Value>,
}

/// A hit's inner hits of one name.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct InnerHits {
    #[serde(default)]
    pub hits: Hits,
}

impl Response {
    /// A search's answer as OpenSearch sent it; an answer of another shape
    /// reads as no hits.
    pub fn of(json: Value) -> Response {
        serde_json::from_value(json).unwrap_or_default()
    }

    /// How many documents matched, when the search counted them.
    pub fn total(&self) -> Option<u64> {
        self.hits.total.map(|t| t.value)
    }

    pub fn hits(&self) -> &[Hit] {
        &self.hits.hits
    }
}

impl Hit {
    /// The inner hits of `name` (none when there are none).
    pub fn inner(&self, name: &str) -> &[Hit] {
        self.inner_hits.get(name).map_or(&[], |i| &i.hits.hits)
    }

    /// How many nested documents matched under `name`, when counted.
    pub fn inner_total(&self, name: &str) -> Option<u64> {
        self.inner_hits.get(name)?.hits.total.map(|t| t.value)
    }

    /// The doc values of `field` (none when it has none).
    pub fn values(&self, field: &str) -> &[Value] {
        self.fields.get(field).and_then(Value::as_array).map_or(&[], Vec::as_slice)
    }

    /// The first doc value of `field` as text.
    pub fn text(&self, field: &str) -> Option<&str> {
        self.values(field).first()?.as_str()
    }

    /// A `_source` field as text.
    pub fn source_text(&self, field: &str) -> Option<&str> {
        self.source[field].as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_response_reads_its_hits_inner_hits_and_doc_values() {
        let r = Response::of(json!({ "hits": { "total": { "value": 7 }, "hits": [{
            "_score": null, "_source": { "path": "a.py" }, "sort": [3.5, "a.py"],
            "fields": { "root": ["/p"], "references.line": [3, 9] },
            "inner_hits": { "symbols": { "hits": { "total": { "value": 2 }, "hits": [{ "_score": 1.5 }] } } } }] } }));
        assert_eq!(r.total(), Some(7));
        let hit = &r.hits()[0];
        assert_eq!((hit.score, hit.source_text("path"), hit.text("root")), (None, Some("a.py"), Some("/p")));
        assert_eq!(hit.values("references.line").len(), 2);
        assert_eq!((hit.inner("symbols").len(), hit.inner_total("symbols")), (1, Some(2)));
        assert!(hit.inner("elements").is_empty() && hit.inner_total("elements").is_none());
        // No total when the search did not count; no hits from an error's shape.
        assert_eq!(Response::of(json!({ "hits": { "hits": [] } })).total(), None);
        assert!(Response::of(json!({ "error": "x" })).hits().is_empty());
    }
}
