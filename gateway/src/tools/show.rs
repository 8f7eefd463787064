//! `show_projects` and `show_stats`, within the answer budget: project
//! summaries are cut to their first sentence and a long list pages with
//! `offset`; a long list of languages keeps the largest.

use serde::Deserialize;
use vibe_common::document::project_meta::ProjectMeta;

use super::answer::scope_index;
use super::stale_marks::iso_time;
use crate::answers::{LanguageSize, ProjectShown, ProjectsAnswer, RunState, Sizes, StatsAnswer, SyncState, TotalSize};
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
pub async fn projects(gw: &Gateway, args: &Args) -> Result<ProjectsAnswer, ToolError> {
    let b = gw.backend();
    let response = b.run("show_projects", &b.names().meta(), template_params::projects(MAX_PROJECTS)).await?;
    let status = gw.sync_runner().status().await;
    let metas: Vec<ProjectMeta> = response.hits().iter().map(|h| ProjectMeta::from_source(&h.source)).collect();
    let roots: Vec<&str> = metas.iter().map(|m| m.root.as_str()).collect();
    let projects: Vec<ProjectShown> = metas
        .iter()
        .map(|m| {
            let summary = first_sentence(&m.summary, SUMMARY_CHARS);
            ProjectShown {
                path: m.root.clone(),
                name: m.name.clone(),
                summary: (!summary.is_empty()).then_some(summary),
                indexed_at: (m.indexed_at > 0).then(|| iso_time(m.indexed_at)),
                // The ids of the configs that index it (`id` in their config files).
                owners: m.owners.clone(),
                last_sync: status.last.as_ref().and_then(|l| l.outcome_for(&m.root, &roots)),
            }
        })
        .collect();
    let total = response.total().unwrap_or(projects.len() as u64);
    let sync = match (status.running_secs, &status.last) {
        (Some(secs), _) => Some(SyncState {
            state: RunState::Running,
            running_secs: Some(secs),
            progress: Some(status.running.and_then(|r| r.last_line).unwrap_or_default()),
            outcome: None,
            finished_at: None,
        }),
        (None, Some(last)) => Some(SyncState {
            state: if last.exit_code == Some(0) { RunState::Ok } else { RunState::Failed },
            running_secs: None,
            progress: None,
            outcome: Some(last.outcome()),
            finished_at: last.finished_at_ms.map(iso_time),
        }),
        (None, None) => None,
    };
    let mut answer =
        ProjectsAnswer { projects: Vec::new(), total, truncated: false, sync, next_offset: None, note: None };
    page(&mut answer, projects, args.offset as usize, gw.answer_budget());
    Ok(answer)
}

/// Puts the projects from `offset` that fit the budget in the answer, with
/// `truncated` and `next_offset` when more follow.
fn page(answer: &mut ProjectsAnswer, entries: Vec<ProjectShown>, offset: usize, budget: usize) {
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
    answer.projects = kept;
    if next < total {
        answer.truncated = true;
        answer.next_offset = Some(next as u64);
        answer.note = Some(format!(
            "projects {}-{next} of {total} (the answer budget is {budget} bytes): offset {next} goes on",
            offset + 1
        ));
    }
}

/// Files, lines, AST objects and size per language of a project or all,
/// largest first; the smallest are counted, not listed, over the budget.
pub async fn stats(gw: &Gateway, args: &Args) -> Result<StatsAnswer, ToolError> {
    let scope = gw.resolve(args.target.as_deref()).await?;
    let index = scope_index(gw, &scope);
    let r = gw.backend().run("show_stats", &index, template_params::stats()).await?;
    let aggs = StatsAggregations::deserialize(&r.aggregations).unwrap_or_else(|e| {
        tracing::warn!("show_stats: the aggregations do not read as the template's: {e}");
        StatsAggregations::default()
    });
    let languages: Vec<LanguageSize> = aggs
        .languages
        .buckets
        .iter()
        .map(|b| LanguageSize { language: b.key.clone(), sizes: b.sums.sizes(b.doc_count) })
        .collect();
    let files = r.total().unwrap_or(0);
    let mut answer = StatsAnswer {
        target: scope.project().map(|p| p.name.clone()),
        languages,
        total: TotalSize {
            sizes: aggs.sums.sizes(files),
            projects: scope.project().is_none().then(|| aggs.projects.rounded()),
        },
        note: scope.note(),
        more_languages: None,
        truncated: None,
    };
    // Languages come largest first: the smallest are counted when over the budget.
    let budget = gw.answer_budget();
    while json_len(&answer) + RESERVE > budget && answer.languages.pop().is_some() {
        answer.more_languages = Some(answer.more_languages.unwrap_or(0) + 1);
        answer.truncated = Some(true);
    }
    Ok(answer)
}

/// What `show_stats`'s template aggregates: the sums per language (largest
/// first) and over all files, and the number of projects.
#[derive(Deserialize, Default)]
#[serde(default)]
struct StatsAggregations {
    languages: Buckets,
    #[serde(flatten)]
    sums: Sums,
    projects: Metric,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Buckets {
    buckets: Vec<LanguageBucket>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct LanguageBucket {
    key: String,
    doc_count: u64,
    #[serde(flatten)]
    sums: Sums,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Sums {
    lines: Metric,
    ast_objects: Metric,
    size: Metric,
}

impl Sums {
    fn sizes(&self, files: u64) -> Sizes {
        Sizes {
            files,
            lines: self.lines.rounded(),
            ast_objects: self.ast_objects.rounded(),
            size_human: size_human(self.size.rounded()),
        }
    }
}

/// A metric aggregation's value (`null` over no documents).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Metric {
    value: Option<f64>,
}

impl Metric {
    fn rounded(&self) -> u64 {
        self.value.unwrap_or(0.0).round() as u64
    }
}
