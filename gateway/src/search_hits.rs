//! What a stored template's search answers, as the tools read it: how many
//! documents matched, the hits (each one's `_source`, doc values, inner
//! hits, sort values and highlights) and the aggregations.
//!
//! This is where the JSON OpenSearch sends ends: the parts whose shape is a
//! template's own (`_source`, doc values, aggregations) are kept as it came
//! and read here, into the type a tool names ([`Hit::read`],
//! [`Hit::source_as`], [`Response::buckets`]) or as text and numbers.

use std::collections::HashMap;

use serde::de::DeserializeOwned;
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

/// One bucket of an aggregation: its key (none for a `filters` bucket),
/// how many documents fell in it, and the count of its `files`
/// sub-aggregation when it has one.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Bucket {
    pub key: String,
    pub doc_count: u64,
    pub files: Option<Count>,
}

/// A sub-aggregation that only counts documents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
pub struct Count {
    pub doc_count: u64,
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

    /// The buckets of the aggregation at `path` (`roots`, `symbols/kept/names`),
    /// in order; a keyed one's (named `filters`) each with its name as its
    /// key. A bucket of another shape is left out, a missing aggregation has none.
    pub fn buckets(&self, path: &str) -> Vec<Bucket> {
        match self.aggregations.pointer(&format!("/{path}/buckets")) {
            Some(Value::Array(listed)) => listed.iter().filter_map(|b| Bucket::deserialize(b).ok()).collect(),
            Some(Value::Object(keyed)) => keyed
                .iter()
                .filter_map(|(key, b)| Some(Bucket { key: key.clone(), ..Bucket::deserialize(b).ok()? }))
                .collect(),
            _ => Vec::new(),
        }
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

    /// The doc values of `field` that are whole numbers (as numbers or
    /// numeric strings, as OpenSearch sends a date or a long).
    pub fn numbers(&self, field: &str) -> Vec<u64> {
        self.values(field).iter().filter_map(whole_number).collect()
    }

    /// A `_source` field as text.
    pub fn source_text(&self, field: &str) -> Option<&str> {
        self.source[field].as_str()
    }

    /// The `_source` as `T`, which may borrow from it.
    pub fn source_as<'a, T: Deserialize<'a>>(&'a self) -> Result<T, serde_json::Error> {
        T::deserialize(&self.source)
    }

    /// What the hit holds of its document, as `T`: its `_source` and the
    /// fields the template read from doc values instead, by their last name
    /// (`references.line` is `line`; a list each: its first value; a date
    /// or a long as a number). The searches that answer many files read
    /// doc values only and never load a file's `_source`.
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        T::deserialize(&self.document())
    }

    fn document(&self) -> Value {
        let mut out = self.source.as_object().cloned().unwrap_or_default();
        for (key, values) in &self.fields {
            let Some(first) = values.get(0) else { continue };
            let name = key.rsplit('.').next().unwrap_or(key);
            let value = match (name, first) {
                ("indexed_at" | "size" | "mtime" | "line", Value::String(_)) => {
                    whole_number(first).map_or(first.clone(), Value::from)
                }
                _ => first.clone(),
            };
            out.insert(name.to_string(), value);
        }
        Value::Object(out)
    }

    /// The first sort value, when it is a number (a score).
    pub fn first_sort_number(&self) -> Option<f64> {
        self.sort.first().and_then(Value::as_f64)
    }

    /// The highlighted values of `field`.
    pub fn highlights(&self, field: &str) -> Vec<String> {
        let found = self.highlight.get(field).and_then(Value::as_array);
        found.into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
    }
}

fn whole_number(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| v.as_str()?.parse().ok())
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

    #[test]
    fn buckets_read_listed_and_keyed_and_skip_other_shapes() {
        let r = Response::of(json!({ "aggregations": {
            "roots": { "buckets": [{ "key": "/a", "doc_count": 3 }, { "key": 7, "doc_count": 1 }, { "key": "/b", "doc_count": 2, "files": { "doc_count": 1 } }] },
            "reach": { "buckets": { "0": { "doc_count": 4 }, "_": { "doc_count": 0 } } } } }));
        let roots: Vec<(String, u64, Option<u64>)> =
            r.buckets("roots").into_iter().map(|b| (b.key, b.doc_count, b.files.map(|f| f.doc_count))).collect();
        assert_eq!(roots, [("/a".to_string(), 3, None), ("/b".to_string(), 2, Some(1))]);
        let reach: Vec<(String, u64)> = r.buckets("reach").into_iter().map(|b| (b.key, b.doc_count)).collect();
        assert_eq!(reach, [("0".to_string(), 4), ("_".to_string(), 0)]);
        assert!(r.buckets("names").is_empty());
    }

    #[test]
    fn a_hit_reads_numbers_highlights_and_its_first_sort_value() {
        let hit: Hit =
            serde_json::from_value(json!({ "sort": [2.5, "a.py"], "highlight": { "ast.imports": ["os", 3] },
            "fields": { "references.line": [3, "9", "x", -1] } }))
            .unwrap();
        assert_eq!((hit.numbers("references.line"), hit.first_sort_number()), (vec![3, 9], Some(2.5)));
        assert_eq!(hit.highlights("ast.imports"), ["os"]);
        assert_eq!((Hit::default().first_sort_number(), Hit::default().highlights("x").len()), (None, 0));
    }
}
