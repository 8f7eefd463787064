//! `show_projects`, `show_stats` and `show_tree`.

use serde_json::{json, Value};

use super::answer::{hits, scope_index};
use crate::error::ToolError;
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::params;
use crate::tree;
use vibe_common::units::human_size as size_human;

/// Most projects listed by `show_projects`.
const MAX_PROJECTS: u32 = 1000;
/// Most paths fetched for one tree (the index's default result window).
const MAX_TREE_FILES: u32 = 10_000;

/// The projects with when each was last indexed and, when this server ran a
/// sync, its outcome for the project: `ok`, or the error line that names it
/// (or the run's, when it failed before reaching the projects).
pub async fn projects(gw: &Gateway) -> Result<Value, ToolError> {
    let b = gw.backend();
    let response = b.run("show_projects", &b.names().meta(), params::projects(MAX_PROJECTS)).await?;
    let status = gw.sync_runner().status().await;
    let found = hits(&response);
    let roots: Vec<&str> = found.iter().filter_map(|h| h["_source"]["root"].as_str()).collect();
    let projects: Vec<Value> = found
        .iter()
        .map(|h| {
            let s = &h["_source"];
            let mut p =
                json!({ "path": s["root"], "name": s["name"], "summary": s["summary"].as_str().unwrap_or_default() });
            let indexed_at = s["indexed_at"].as_u64();
            if let Some(ms) = indexed_at {
                p["indexed_at"] = json!(super::freshness::iso_time(ms));
            }
            // The ids of the configs that index it (`id` in their config files).
            if s["owners"].as_array().is_some_and(|o| !o.is_empty()) {
                p["owners"] = s["owners"].clone();
            }
            if let Some(outcome) =
                status.last.as_ref().and_then(|l| l.outcome_for(s["root"].as_str().unwrap_or_default(), &roots))
            {
                p["last_sync"] = json!(outcome);
            }
            p
        })
        .collect();
    let total = response["hits"]["total"]["value"].as_u64().unwrap_or(projects.len() as u64);
    let mut answer = json!({ "projects": projects, "total": total });
    if let Some(secs) = status.running_secs {
        let progress = status.running.and_then(|r| r.last_line).unwrap_or_default();
        answer["sync"] = json!({ "state": "running", "running_secs": secs, "progress": progress });
    } else if let Some(last) = &status.last {
        let mut sync =
            json!({ "state": if last.exit_code == Some(0) { "ok" } else { "failed" }, "outcome": last.outcome() });
        if let Some(ms) = last.finished_at_ms {
            sync["finished_at"] = json!(super::freshness::iso_time(ms));
        }
        answer["sync"] = sync;
    }
    Ok(answer)
}

/// `2026-11-30T13:20:56Z`.
pub async fn stats(gw: &Gateway, args: &Args) -> Result<Value, ToolError> {
    let scope = gw.resolve(args.target.as_deref()).await?;
    let index = scope_index(gw, &scope);
    let r = gw.backend().run("show_stats", &index, params::stats()).await?;
    let aggs = &r["aggregations"];
    let num = |v: &Value| v["value"].as_f64().unwrap_or(0.0).round() as u64;
    let languages: Vec<Value> = aggs["languages"]["buckets"]
        .as_array()
        .map(|b| {
            b.iter()
                .map(|b| {
                    json!({
                        "language": b["key"],
                        "files": b["doc_count"],
                        "lines": num(&b["lines"]),
                        "ast_objects": num(&b["ast_objects"]),
                        "size_human": size_human(num(&b["size"])),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    let files = r["hits"]["total"]["value"].as_u64().unwrap_or(0);
    let mut answer = json!({
        "target": scope.project().map(|p| p.name.clone()),
        "languages": languages,
        "total": {
            "files": files,
            "lines": num(&aggs["lines"]),
            "ast_objects": num(&aggs["ast_objects"]),
            "size_human": size_human(num(&aggs["size"])),
        },
    });
    if scope.project().is_none() {
        answer["total"]["projects"] = json!(num(&aggs["projects"]));
    }
    if let Some(note) = scope.note() {
        answer["note"] = json!(note);
    }
    Ok(answer)
}

pub async fn tree(gw: &Gateway, args: &Args) -> Result<Value, ToolError> {
    let scope = gw.resolve(args.target.as_deref()).await?;
    let index = scope_index(gw, &scope);
    let r = gw.backend().run("show_tree", &index, params::tree(MAX_TREE_FILES)).await?;
    let field = |h: &Value, f: &str| h["fields"][f][0].as_str().unwrap_or_default().to_string();
    let found = hits(&r);
    // Group paths by project (the template sorts by project, then path).
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for h in &found {
        let project = field(h, "project");
        match groups.last_mut() {
            Some((p, paths)) if *p == project => paths.push(field(h, "path")),
            _ => groups.push((project, vec![field(h, "path")])),
        }
    }
    let (mut text, mut files, mut dirs) = (Vec::new(), 0, 0);
    for (project, paths) in &groups {
        let t = tree::render(project, paths);
        text.push(t.text);
        files += t.files;
        dirs += t.dirs;
    }
    let total = r["hits"]["total"]["value"].as_u64().unwrap_or(found.len() as u64);
    let mut answer = json!({
        "target": scope.project().map(|p| p.name.clone()),
        "tree": text.join("\n\n"),
        "total_files": files,
        "total_dirs": dirs,
    });
    if total > found.len() as u64 {
        answer["total_files"] = json!(total);
        answer["note"] = json!(format!("tree shows the first {} of {total} files", found.len()));
    }
    if let Some(note) = scope.note() {
        answer["note"] = json!(note);
    }
    Ok(answer)
}
