//! The gateway's shared state, which every tool reads: the search backend,
//! the project catalog (target resolution), the `admin_sync` runner and the
//! configured protocol. It knows no tool: [`Gateway::call`] (in
//! [`crate::dispatch`]) sits above the tools.

use std::path::PathBuf;
use std::sync::Arc;

use vibe_common::backend::naming::project_hash;
use vibe_common::backend::run_lock::{self, Holder};
use vibe_common::backend::search::Search;
use vibe_common::config::{AnswerFormat, Config, McpProtocol};

use crate::backend::{Backend, BackendError};
use crate::sync::{SyncRunner, SyncStart};
use crate::target::{Catalog, Project, Scope};
use crate::tool_error::ToolError;

/// Cheap to clone; every MCP session shares one.
#[derive(Clone)]
pub struct Gateway {
    inner: Arc<Inner>,
}

struct Inner {
    backend: Backend,
    catalog: Catalog,
    sync: SyncRunner,
    protocol: McpProtocol,
    /// `mcp.answer_budget`: most bytes of one answer's text.
    answer_budget: usize,
    /// `mcp.answer_format`: what an answer's text content is.
    answer_format: AnswerFormat,
    /// `mcp.typed_output`: `outputSchema` and `structuredContent` by default.
    typed_output: bool,
    /// The config's sources, read when `admin_sync` asks which of them
    /// another index run holds.
    sources: SourcesFn,
}

/// The configured sources, read again at each call.
pub type SourcesFn = Arc<dyn Fn() -> Vec<PathBuf> + Send + Sync>;

impl Gateway {
    pub fn new(config: &Config, sync: SyncRunner) -> anyhow::Result<Self> {
        let search = Search::new(&config.opensearch)?;
        let sources = config.sources.clone();
        Ok(Self::with_search(search, sync, config.mcp.protocol, config.mcp.answer_budget)
            .with_answer_format(config.mcp.answer_format, config.mcp.typed_output)
            .with_sources(Arc::new(move || sources.clone())))
    }

    /// The same gateway reading the config's sources with `sources` (before it is shared).
    pub fn with_sources(mut self, sources: SourcesFn) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            inner.sources = sources;
        }
        self
    }

    /// The same gateway answering in `format`, with typed output or not
    /// (before it is shared).
    pub fn with_answer_format(mut self, format: AnswerFormat, typed_output: bool) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            inner.answer_format = format;
            inner.typed_output = typed_output;
        }
        self
    }

    /// Whether tools declare an `outputSchema` and answers carry
    /// `structuredContent` (`mcp.typed_output`; an endpoint may override it).
    pub fn typed_output(&self) -> bool {
        self.inner.typed_output
    }

    /// What an answer's text content is (`mcp.answer_format`).
    pub fn answer_format(&self) -> AnswerFormat {
        self.inner.answer_format
    }

    pub fn with_search(search: Search, sync: SyncRunner, protocol: McpProtocol, answer_budget: usize) -> Self {
        let inner = Inner {
            backend: Backend::new(search),
            catalog: Catalog::new(),
            sync,
            protocol,
            answer_budget,
            answer_format: AnswerFormat::default(),
            typed_output: false,
            sources: Arc::new(Vec::new),
        };
        Self { inner: Arc::new(inner) }
    }

    /// Most bytes of one answer's text (`mcp.answer_budget`).
    pub fn answer_budget(&self) -> usize {
        self.inner.answer_budget
    }

    pub fn backend(&self) -> &Backend {
        &self.inner.backend
    }

    pub fn protocol(&self) -> McpProtocol {
        self.inner.protocol
    }

    pub fn sync_runner(&self) -> &SyncRunner {
        &self.inner.sync
    }

    /// The project(s) a target names. A target several projects answer to is
    /// an error that lists them.
    pub async fn resolve(&self, target: Option<&str>) -> Result<Scope, ToolError> {
        match self.inner.catalog.resolve(&self.inner.backend, target).await? {
            Scope::Ambiguous { target, candidates } => {
                let list: Vec<String> = candidates.iter().map(|p| format!("{} ({})", p.name, p.root)).collect();
                Err(ToolError::Ambiguous(format!(
                    "target {target:?} names {} projects: {}; pass one of their paths as target",
                    list.len(),
                    list.join(", ")
                )))
            }
            scope => Ok(scope),
        }
    }

    pub async fn split_absolute(&self, path: &str) -> Result<Option<(Project, String)>, BackendError> {
        self.inner.catalog.split_absolute(&self.inner.backend, path).await
    }

    /// Starts `admin_sync`'s index run; the project cache is dropped when it
    /// ends. Another run already indexing one of the config's projects (a
    /// `scan index` by hand, a watcher, another machine) is named instead.
    pub async fn start_sync(&self) -> std::io::Result<SyncStart> {
        if !self.inner.sync.is_running().await {
            if let Some(holder) = self.run_holding_a_source().await {
                return Ok(SyncStart::HeldElsewhere { holder });
            }
        }
        let me = self.clone();
        self.inner
            .sync
            .start(move |_code| {
                tokio::spawn(async move { me.inner.catalog.invalidate().await });
            })
            .await
    }

    /// The longest-running live index run holding one of the config's projects.
    async fn run_holding_a_source(&self) -> Option<Holder> {
        let roots = (self.inner.sources)();
        let hashes: Vec<String> =
            roots.iter().filter_map(|r| r.canonicalize().ok()).map(|r| project_hash(&r)).collect();
        match run_lock::live_holders(self.inner.backend.search(), &hashes).await {
            Ok(holders) => holders.into_values().min_by_key(|h| h.started_at_ms),
            Err(e) => {
                tracing::debug!("admin_sync: the index locks could not be read: {e}");
                None
            }
        }
    }
}
