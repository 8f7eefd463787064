//! The gateway's shared state, which every tool reads: the search backend,
//! the project catalog (target resolution), the `admin_sync` runner and the
//! configured protocol. It knows no tool: [`Gateway::call`] (in
//! [`crate::dispatch`]) sits above the tools.

use std::sync::Arc;

use vibe_common::config::{AnswerFormat, Config, McpProtocol};
use vibe_common::search::Search;

use crate::backend::{Backend, BackendError};
use crate::error::ToolError;
use crate::sync::{SyncRunner, SyncStart};
use crate::target::{Catalog, Project, Scope};

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
}

impl Gateway {
    pub fn new(config: &Config, sync: SyncRunner) -> anyhow::Result<Self> {
        let search = Search::new(&config.opensearch)?;
        Ok(Self::with_search(search, sync, config.mcp.protocol, config.mcp.answer_budget)
            .with_answer_format(config.mcp.answer_format))
    }

    /// The same gateway answering in `format` (before it is shared).
    pub fn with_answer_format(mut self, format: AnswerFormat) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            inner.answer_format = format;
        }
        self
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

    /// Starts `admin_sync`'s index run; the project cache is dropped when it ends.
    pub async fn start_sync(&self) -> std::io::Result<SyncStart> {
        let me = self.clone();
        self.inner
            .sync
            .start(move |_code| {
                tokio::spawn(async move { me.inner.catalog.invalidate().await });
            })
            .await
    }
}
