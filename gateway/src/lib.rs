//! The MCP gateway of Vibe Analyzer.
//!
//! Every tool call maps to one stored OpenSearch search template
//! (`search-templates/`); the gateway only resolves the tool, normalizes the
//! arguments, computes the template parameters and shapes the answer.
//!
//! * [`serve`] runs the server until Ctrl-C or SIGTERM.
//! * [`spawn`] starts it in the background (tests, embedding) and returns its
//!   address and a handle to stop it.
//! * [`http::router`] builds the axum app for a [`Gateway`].
//!
//! Modules, each using only modules below it: [`http`] (transport,
//! Host/Origin validation, bearer token, CORS) over [`jsonrpc`] (malformed
//! messages, JSON-RPC errors); [`server`] (MCP handler) over [`dispatch`]
//! (one tool call) over [`tools`] (the answers) over [`gateway`] (shared
//! state) over [`target`] (project resolution), [`sync`] (`admin_sync`
//! runs), [`backend`] (stored templates; what a search answers in
//! [`search_hits`]) and [`tool_error`]; [`render`] (an answer's text) and
//! [`budget`] (the answer budget, which every answer keeps to);
//! [`template_params`] (template parameters), [`tree_at_depth`] (file tree
//! rendering), [`normalize`] (tool names and arguments) over [`registry`]
//! (the tools declared) and [`answer_schema`] (the shape of their answers)
//! over [`answers`] (the answer types).

pub mod answer_schema;
pub mod answers;
pub mod backend;
pub mod budget;
pub mod dispatch;
pub mod gateway;
pub mod http;
pub mod jsonrpc;
pub mod normalize;
pub mod registry;
pub mod render;
pub mod search_hits;
pub mod server;
pub mod symbol_pass;
pub mod sync;
pub mod target;
pub mod template_params;
pub mod tool_error;
pub mod tool_inputs;
pub mod tools;
pub mod tree_at_depth;

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use tokio_util::sync::CancellationToken;
use vibe_common::config::Config;

pub use gateway::Gateway;
pub use http::HttpOptions;
pub use sync::SyncRunner;

/// How to run the server. Everything not here comes from the config.
#[derive(Debug, Clone, Default)]
pub struct ServeOptions {
    /// Listen address (`mcp.host` by default, usually `127.0.0.1`).
    pub host: String,
    /// Listen port (`mcp.port`; 0 picks a free one).
    pub port: u16,
    /// The config directory, passed to the index command of `admin_sync` and
    /// where its log (`sync.log`) goes.
    pub config_dir: Option<PathBuf>,
    /// The `admin_sync` command (program and arguments); default: this
    /// executable with `[--config-dir D] scan index`.
    pub sync_command: Option<Vec<String>>,
}

impl ServeOptions {
    /// Host and port from the config.
    pub fn from_config(config: &Config, config_dir: Option<PathBuf>) -> Self {
        Self { host: config.mcp.host.clone(), port: config.mcp.port, config_dir, sync_command: None }
    }
}

/// A server started by [`spawn`].
pub struct RunningServer {
    pub addr: SocketAddr,
    pub gateway: Gateway,
    cancel: CancellationToken,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl RunningServer {
    /// `http://addr/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    /// Stops accepting requests, ends every session and waits for the server.
    pub async fn shutdown(self) -> anyhow::Result<()> {
        self.cancel.cancel();
        self.task.await.context("server task")?.context("server")?;
        Ok(())
    }

    /// A token that stops the server when cancelled.
    pub fn cancel_token(&self) -> CancellationToken {
        self.cancel.clone()
    }

    /// Waits until the server stops (after [`RunningServer::cancel_token`] is cancelled).
    pub async fn wait(self) -> anyhow::Result<()> {
        self.task.await.context("server task")?.context("server")?;
        Ok(())
    }
}

/// Binds and starts the server in the background. Templates are installed
/// when OpenSearch answers; if it does not, the server starts anyway and
/// tools answer "search backend unavailable" until it is back.
pub async fn spawn(config: &Config, opts: ServeOptions) -> anyhow::Result<RunningServer> {
    let sync_command =
        opts.sync_command.clone().unwrap_or_else(|| SyncRunner::default_command(opts.config_dir.as_deref()));
    let log_file = opts.config_dir.as_ref().map(|d| d.join("sync.log"));
    let mut gateway = Gateway::new(config, SyncRunner::new(sync_command, log_file))?;
    if let Some(dir) = opts.config_dir.clone() {
        // `source add` while the server runs: admin_sync checks the sources the config lists now.
        let fallback = config.sources.clone();
        gateway = gateway.with_sources(std::sync::Arc::new(move || match Config::load_or_create(Some(&dir)) {
            Ok((config, _)) => config.sources,
            Err(_) => fallback.clone(),
        }));
    }
    match gateway.backend().install().await {
        Ok(()) => tracing::info!(host = gateway.backend().search().host(), "search templates installed"),
        Err(e) => tracing::warn!("{e}; templates will be installed on first use"),
    }
    let cancel = CancellationToken::new();
    let http_opts = HttpOptions {
        bind_host: opts.host.clone(),
        allowed_hosts: config.mcp.allowed_hosts.clone(),
        allowed_origins: config.mcp.allowed_origins.clone(),
        token: config.mcp.token.clone(),
        cancel: cancel.clone(),
    };
    let token_set = http_opts.token.as_deref().is_some_and(|t| !t.trim().is_empty());
    if token_set {
        tracing::info!("bearer token required (mcp.token / VIBE_MCP_TOKEN)");
    } else if !matches!(opts.host.as_str(), "127.0.0.1" | "localhost" | "::1" | "[::1]") {
        tracing::warn!("listening on {} without a bearer token: set mcp.token or VIBE_MCP_TOKEN", opts.host);
    }
    let app = http::router(gateway.clone(), &http_opts);
    let bind = if opts.host.contains(':') && !opts.host.starts_with('[') {
        format!("[{}]:{}", opts.host, opts.port)
    } else {
        format!("{}:{}", opts.host, opts.port)
    };
    let listener = tokio::net::TcpListener::bind(&bind).await.with_context(|| format!("cannot listen on {bind}"))?;
    let addr = listener.local_addr()?;
    let stop = cancel.clone();
    // Small SSE writes must not wait for delayed ACKs (Nagle): no 40 ms stalls.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("cannot set TCP_NODELAY: {e}");
        }
    });
    let task = tokio::spawn(async move {
        axum::serve(listener, app).with_graceful_shutdown(async move { stop.cancelled_owned().await }).await
    });
    Ok(RunningServer { addr, gateway, cancel, task })
}

/// Runs the server in the foreground until Ctrl-C or SIGTERM.
pub async fn serve(config: Config, opts: ServeOptions) -> anyhow::Result<()> {
    let server = spawn(&config, opts).await?;
    eprintln!("vibe-analyzer MCP server listening on http://{} (endpoints /, /mcp and /mcp/<project>)", server.addr);
    run_until_signal(server).await
}

/// Waits for Ctrl-C or SIGTERM, then stops a spawned server gracefully.
pub async fn run_until_signal(server: RunningServer) -> anyhow::Result<()> {
    let cancel = server.cancel_token();
    tokio::spawn(async move {
        vibe_common::signal::shutdown_signal().await;
        tracing::info!("shutting down");
        cancel.cancel();
    });
    server.wait().await
}
