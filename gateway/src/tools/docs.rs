//! `search_documentation` (and its alias `search_knowledge`): Markdown files
//! ranked by headings, previews, links and tags, knowledge files boosted.

use serde_json::{json, Value};

use super::answer::{hits, paged, scope_index};
use crate::error::ToolError;
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::params;

/// Most headings and links reported per document.
const MAX_HEADINGS: usize = 20;
const MAX_LINKS: usize = 10;

pub async fn search(gw: &Gateway, args: &Args) -> Result<Value, ToolError> {
    let scope = gw.resolve(args.target.as_deref()).await?;
    let index = scope_index(gw, &scope);
    let p = params::documentation(&args.query, args.limit, args.offset);
    let response = gw.backend().run("search_documentation", &index, p).await?;
    let analysis = params::analyze(&args.query);
    let results: Vec<Value> = hits(&response)
        .iter()
        .map(|hit| {
            let s = &hit["_source"];
            let ast = &s["ast"];
            let frontmatter = if ast["frontmatter"].is_object() { ast["frontmatter"].clone() } else { json!({}) };
            let mut out = json!({
                "project": s["root"],
                "path": s["path"],
                "frontmatter": frontmatter,
                "headings": headings(&ast["headings"], &analysis),
                "links": links(&ast["links"]),
                "code_blocks": ast["code_blocks"].as_array().cloned().unwrap_or_default(),
            });
            if let Some(o) = out.as_object_mut() {
                let _ = super::freshness::add(o, s);
            }
            out
        })
        .collect();
    let mut answer = paged(&args.query, results, &response, args);
    if let Some(note) = scope.note() {
        answer["note"] = json!(note);
    }
    Ok(answer)
}

/// `{level, title, preview}` in document order. A long document keeps the
/// headings that mention a query word first, then the first others.
fn headings(v: &Value, analysis: &params::QueryAnalysis) -> Vec<Value> {
    let all = v.as_array().cloned().unwrap_or_default();
    let slim = |h: &Value| {
        json!({
            "level": h["level"],
            "title": h["title"],
            "preview": h["preview"].as_str().unwrap_or_default(),
        })
    };
    if all.len() <= MAX_HEADINGS {
        return all.iter().map(slim).collect();
    }
    let mentions = |h: &Value| {
        let text = format!("{} {}", h["title"].as_str().unwrap_or_default(), h["preview"].as_str().unwrap_or_default())
            .to_lowercase();
        analysis.words.iter().any(|w| text.contains(w.prefix.as_deref().unwrap_or(&w.word)))
    };
    let mut keep = vec![false; all.len()];
    let mut n = 0;
    for (i, h) in all.iter().enumerate() {
        if n < MAX_HEADINGS && mentions(h) {
            keep[i] = true;
            n += 1;
        }
    }
    for k in keep.iter_mut() {
        if n >= MAX_HEADINGS {
            break;
        }
        if !*k {
            *k = true;
            n += 1;
        }
    }
    all.iter().zip(keep).filter(|(_, k)| *k).map(|(h, _)| slim(h)).collect()
}

fn links(v: &Value) -> Vec<Value> {
    v.as_array()
        .map(|l| l.iter().take(MAX_LINKS).map(|l| json!({ "text": l["text"], "url": l["url"] })).collect())
        .unwrap_or_default()
}
