//! `show_projects` and `show_stats`, within the answer budget: project
//! summaries are cut to their first sentence and a long list pages with
//! `offset`; a long list of languages keeps the largest.

use serde_json::{json, Value};
use vibe_common::document::project_meta::ProjectMeta;

use super::answer::{hits, scope_index};
use crate::budget::{first_sentence, json_len, RESERVE};
use crate::gateway::Gateway;
use crate::normalize::Args;
use crate::template_params;
use crate::tool_error::ToolError;
use vibe_common::text::units::human_size as size_human;

/// Most projects listed by `show_projects`.
const MAX_PROJECTS: u32 = 1000;
/// A project's summary is cut to its first sentence, at most this many characters.
const SUMMARY_CHARS: usize = 120;

/// The projects with when each was last indexed and, when this server ran a
/// sync, its outcome for the project: `ok`, or the error line that names it
/// (or the run's, when it failed before reaching the projects).
pub async fn projects(gw: &Gateway, args: &Args) -> Result<Value, ToolError> {
    let b = gw.backend();
    let response = b.run("show_projects", &b.names().meta(), template_params::projects(MAX_PROJECTS)).await?;
    let status = gw.sync_runner().status().await;
    let metas: Vec<ProjectMeta> = hits(&response).iter().map(|h| ProjectMeta::from_source(&h["_source"])).collect();
    let roots: Vec<&str> = metas.iter().map(|m| m.root.as_str()).collect();
    let projects: Vec<Value> = metas
        .iter()
        .map(|m| {
            let summary = first_sentence(&m.summary, SUMMARY_CHARS);
            let mut p = json!({ "path": m.root, "name": m.name });
            if !summary.is_empty() {
                p["summary"] = json!(summary);
            }
            if m.indexed_at > 0 {
                p["indexed_at"] = json!(super::stale_marks::iso_time(m.indexed_at));
            }
            // The ids of the configs that index it (`id` in their config files).
            if !m.owners.is_empty() {
                p["owners"] = json!(m.owners);
            }
            if let Some(outcome) = status.last.as_ref().and_then(|l| l.outcome_for(&m.root, &roots)) {
                p["last_sync"] = json!(outcome);
            }
            p
        })
        .collect();
    let total = response["hits"]["total"]["value"].as_u64().unwrap_or(projects.len() as u64);
    let mut answer = json!({ "projects": [], "total": total, "truncated": false });
    if let Some(secs) = status.running_secs {
        let progress = status.running.and_then(|r| r.last_line).unwrap_or_default();
        answer["sync"] = json!({ "state": "running", "running_secs": secs, "progress": progress });
    } else if let Some(last) = &status.last {
        let mut sync =
            json!({ "state": if last.exit_code == Some(0) { "ok" } else { "failed" }, "outcome": last.outcome() });
        if let Some(ms) = last.finished_at_ms {
            sync["finished_at"] = json!(super::stale_marks::iso_time(ms));
        }
        answer["sync"] = sync;
    }
    page(&mut answer, "projects", projects, args.offset as usize, gw.answer_budget());
    Ok(answer)
}

/// Puts the entries from `offset` that fit the budget under `key`, with
/// `truncated` and `next_offset` when more follow.
fn page(answer: &mut Value, key: &str, entries: Vec<Value>, offset: usize, budget: usize) {
    let total = entries.len();
    let offset = offset.min(total);
    let room = budget.saturating_sub(json_len(answer) + RESERVE);
    let (mut used, mut kept) = (0, Vec::new());
    for e in entries.into_iter().skip(offset) {
        let size = json_len(&e) + 1;
        if used + size > room && !kept.is_empty() {
            break;
        }
        used += size;
        kept.push(e);
    }
    let next = offset + kept.len();
    answer[key] = Value::Array(kept);
    if next < total {
        answer["truncated"] = json!(true);
        answer["next_offset"] = json!(next);
        answer["note"] = json!(format!(
            "{key} {}-{next} of {total} (the answer budget is {budget} bytes): offset {next} goes on",
            offset + 1
        ));
    }
}

/// `2026-11-30T13:20:56Z`.
pub async fn stats(gw: &Gateway, args: &Args) -> Result<Value, ToolError> {
    let scope = gw.resolve(args.target.as_deref()).await?;
    let index = scope_index(gw, &scope);
    let r = gw.backend().run("show_stats", &index, template_params::stats()).await?;
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
    // Languages come largest first: the smallest are counted when over the budget.
    let budget = gw.answer_budget();
    while json_len(&answer) + RESERVE > budget {
        let Some(list) = answer["languages"].as_array_mut() else { break };
        if list.pop().is_none() {
            break;
        }
        let n = answer["more_languages"].as_u64().unwrap_or(0) + 1;
        answer["more_languages"] = json!(n);
        answer["truncated"] = json!(true);
    }
    Ok(answer)
}
