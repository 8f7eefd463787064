//! Project statistics read back from the AST index, so they cover
//! unchanged files too. Used for the meta document and `stats info`.

use serde_json::{json, Value};
use vibe_common::backend::search::{Search, SearchError};

use crate::scanner::{LanguageStats, SourceStats, OTHER_LANGUAGE};

/// Aggregate the statistics of the documents behind an index or alias.
pub async fn project_stats(search: &Search, index: &str) -> Result<SourceStats, SearchError> {
    let body = json!({
        "size": 0,
        "track_total_hits": true,
        "aggs": {
            "languages": {
                "terms": { "field": "language", "missing": OTHER_LANGUAGE, "size": 500 },
                "aggs": {
                    "lines": { "sum": { "field": "lines" } },
                    "size": { "sum": { "field": "size" } },
                    "ast_objects": { "sum": { "field": "ast_objects" } }
                }
            },
            "binary": { "filter": { "term": { "binary": true } } }
        }
    });
    let r = search.post(&format!("/{index}/_search"), &body).await?;
    Ok(stats_from_aggregation(&r))
}

fn sum(v: &Value) -> u64 {
    v["value"].as_f64().unwrap_or(0.0) as u64
}

fn stats_from_aggregation(r: &Value) -> SourceStats {
    let mut stats = SourceStats::default();
    for b in r["aggregations"]["languages"]["buckets"].as_array().into_iter().flatten() {
        let l = LanguageStats {
            language: b["key"].as_str().unwrap_or(OTHER_LANGUAGE).to_string(),
            files: b["doc_count"].as_u64().unwrap_or(0),
            lines: sum(&b["lines"]),
            ast_objects: sum(&b["ast_objects"]),
            size: sum(&b["size"]),
        };
        stats.files += l.files;
        stats.lines += l.lines;
        stats.ast_objects += l.ast_objects;
        stats.total_size += l.size;
        stats.languages.push(l);
    }
    stats.binary_files = r["aggregations"]["binary"]["doc_count"].as_u64().unwrap_or(0);
    stats.text_files = stats.files - stats.binary_files.min(stats.files);
    stats.finish();
    stats
}
