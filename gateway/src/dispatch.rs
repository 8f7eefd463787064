//! One entry point for a tool call, above the tools: [`Gateway::call`]
//! resolves the tool name, normalizes the arguments, runs the tool the
//! registry names ([`run`]: each [`Run`] to its code in [`crate::tools`]) and
//! logs tool, normalized parameters and latency.

use std::time::Instant;

use serde::Serialize;

use crate::answers::{Answer, ErrorAnswer};
use crate::budget;
use crate::gateway::Gateway;
use crate::normalize::{self, Args, RawArgs, Resolution};
use crate::registry::{self, Run};
use crate::render;
use crate::target::Scope;
use crate::tool_error::ToolError;
use crate::tools::{admin, code, docs, files, find_references, show, stale_marks, text, tree};

/// The outcome of one tool call, ready to be turned into an MCP result.
#[derive(Debug, Clone)]
pub struct CallOutcome {
    /// The canonical tool, when the name resolved.
    pub tool: Option<&'static str>,
    pub args: Args,
    /// The answer (success) or `{ "error": message }`.
    pub structured: Structured,
    pub is_error: bool,
    /// The text content: the answer rendered ([`render::text`]), or the error message.
    pub text: String,
}

/// What a call's `structuredContent` is made of, serialized only for a
/// client that gets it.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Structured {
    Answer(Box<Answer>),
    Error(ErrorAnswer),
}

impl Gateway {
    /// One tool call, by requested name and raw arguments, on the endpoint of
    /// one project (`/mcp/<project>`: the target of a call that names none)
    /// or of all. Never fails: every problem becomes an error outcome the
    /// client can read.
    pub async fn call(
        &self,
        requested: &str,
        raw_args: Option<&RawArgs>,
        endpoint_project: Option<&str>,
    ) -> CallOutcome {
        let started = Instant::now();
        // A relay tool (`use_mcp_tool`, `call_tool`) naming one of ours: the inner call.
        let relayed = normalize::relayed_call(requested, raw_args);
        let (requested, raw_args) = match &relayed {
            Some((name, args)) => (name.as_str(), args.as_ref()),
            None => (requested, raw_args),
        };
        let (tool, mut args, resolution) = resolve_call(requested, raw_args);
        let endpoint_note = match (endpoint_project, tool.and_then(registry::spec)) {
            (Some(project), Some(spec)) if spec.takes("target") => self.scope_to_endpoint(project, &mut args).await,
            _ => None,
        };
        let shown: String = requested.chars().take(100).collect();
        if let Some(t) = tool {
            if t != requested {
                tracing::info!("Resolving '{}' -> '{t}'", shown.escape_debug());
            }
        }
        let result = match tool {
            Some(t) => self.answer(t, &args, endpoint_note.as_deref()).await,
            None => Err(ToolError::UnknownTool(requested.to_string(), resolution)),
        };
        let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        let params = serde_json::to_string(&args).unwrap_or_default();
        let outcome = match result {
            Ok(answer) => {
                let results = answer.results_len();
                tracing::info!(tool = tool.unwrap_or(shown.as_str()), params = %params, latency_ms = format!("{elapsed_ms:.2}"), results, "tool call");
                let text = render::fit(
                    render::text(&answer, self.answer_format(), args.target.is_some()),
                    self.answer_budget(),
                );
                CallOutcome { tool, args, structured: Structured::Answer(Box::new(answer)), is_error: false, text }
            }
            Err(e) => {
                let mut error = match &e {
                    ToolError::UnknownTool(name, Resolution::Ambiguous(a, b)) => normalize::ambiguous_tool(name, a, b),
                    ToolError::UnknownTool(name, _) => normalize::unknown_tool(name),
                    other => ErrorAnswer::of(budget::fit_message(&other.to_string(), self.answer_budget())),
                };
                let message = budget::fit_message(&error.error, self.answer_budget());
                if matches!(e, ToolError::Backend(_)) {
                    tracing::warn!(tool = tool.unwrap_or(shown.as_str()), params = %params, latency_ms = format!("{elapsed_ms:.2}"), error = %message, "tool call failed");
                } else {
                    tracing::info!(tool = tool.unwrap_or(shown.as_str()), params = %params, latency_ms = format!("{elapsed_ms:.2}"), error = %message, "tool call rejected");
                }
                error.error.clone_from(&message);
                CallOutcome { tool, args, structured: Structured::Error(error), is_error: true, text: message }
            }
        };
        outcome
    }
}

impl Gateway {
    /// The answer of a resolved call: the tool's, its files compared with
    /// the disk ([`stale_marks::settle`]), the endpoint's note, within the
    /// answer budget.
    async fn answer(&self, tool: &'static str, args: &Args, note: Option<&str>) -> Result<Answer, ToolError> {
        let mut answer = run(self, tool, args).await?;
        let merged = answer.merge_identical();
        if merged > 0 {
            answer.add_note(&format!("{merged} files with identical content are listed under same_content"));
        }
        stale_marks::settle(&mut answer).await;
        if let Some(note) = note {
            answer.add_note(note);
        }
        Ok(answer.within(self.answer_budget(), args.offset))
    }

    /// On a project's endpoint (`/mcp/<project>`), a call that names no
    /// project searches the endpoint's: one without a target (unless it asks
    /// for every project), and one whose target names no project (a small
    /// model's guess), which the returned note for the answer tells.
    async fn scope_to_endpoint(&self, project: &str, args: &mut Args) -> Option<String> {
        let Some(target) = args.target.clone() else {
            if !args.every_project {
                args.target = Some(project.to_string());
            }
            return None;
        };
        if target == project {
            return None;
        }
        match self.resolve(Some(&target)).await {
            Ok(Scope::All { unknown: Some(_) }) => {
                args.target = Some(project.to_string());
                Some(format!("unknown target {target:?}: searched this endpoint's project {project:?}"))
            }
            _ => None,
        }
    }
}

/// The tool a requested name and its raw arguments mean, the arguments
/// normalized for it, and how the name resolved.
fn resolve_call(requested: &str, raw_args: Option<&RawArgs>) -> (Option<&'static str>, Args, Resolution) {
    let resolution = normalize::resolve_with_args(requested, raw_args);
    let mut tool = match resolution {
        Resolution::Tool(t) => Some(t),
        _ => None,
    };
    let mut args = Args::for_tool(raw_args, tool.and_then(registry::spec));
    // Arguments that cannot serve the tool a name resolved to, but serve the
    // one its meaning plus the arguments' shape point at: that one is meant
    // (`show_structure` of a project, `find_symbol` with a kind).
    if let Some(spec) = tool.filter(|t| *t != requested).and_then(registry::spec) {
        let kind_hint = matches!(normalize::args_shape(raw_args), normalize::Shape::Kind(_)) && !spec.takes("kind");
        if !args.fits(spec) || kind_hint {
            if let Some(normalize::Meaning::Tool(other)) = normalize::meaning_with_args(requested, raw_args) {
                let other_args = Args::for_tool(raw_args, registry::spec(other));
                if other != spec.name && registry::spec(other).is_some_and(|o| other_args.fits(o)) {
                    tool = Some(other);
                    args = other_args;
                }
            }
        }
    }
    // `search_regex`, `outgoing_calls`: the name says what the arguments do not.
    if let Some(spec) = tool.filter(|t| *t != requested).and_then(registry::spec) {
        args.apply_name(spec, &normalize::normalize_name(requested), raw_args);
    }
    (tool, args, resolution)
}

/// Runs a canonical tool with normalized arguments: the code of its [`Run`].
pub async fn run(gw: &Gateway, tool: &'static str, args: &Args) -> Result<Answer, ToolError> {
    let Some(spec) = registry::spec(tool) else {
        return Err(ToolError::UnknownTool(tool.to_string(), Resolution::Unknown));
    };
    Ok(match spec.run {
        Run::AdminSync => Answer::Sync(admin::sync(gw).await?),
        Run::FileContent => files::get(gw, files::Want::Content, args).await?,
        Run::FileAst => files::get(gw, files::Want::Ast, args).await?,
        Run::Projects => Answer::Projects(show::projects(gw, args).await?),
        Run::Stats => Answer::Stats(show::stats(gw, args).await?),
        Run::Tree => Answer::Tree(tree::tree(gw, args).await?),
        Run::Imports => Answer::Imports(code::imports(gw, spec, args).await?),
        Run::Symbols => Answer::Symbols(code::symbols(gw, spec, args).await?),
        Run::Documentation => Answer::Documentation(docs::search(gw, args).await?),
        Run::Text => Answer::Text(text::search(gw, args).await?),
        Run::References => Answer::References(find_references::find(gw, args).await?),
    })
}
