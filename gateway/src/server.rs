//! The MCP server: identity, instructions, protocol versions, the tool list
//! and `tools/call`, which goes through [`Gateway::call`] ([`crate::dispatch`]).
//!
//! Two revisions on one endpoint. A client of 2024-11-05 … 2025-11-25 opens
//! a session with `initialize`; a client of 2026-07-28 sends `server/discover`
//! or any request with `_meta` naming its protocol version and capabilities,
//! and no session. rmcp's Streamable HTTP service tells them apart and checks
//! the envelope and the routing headers (`MCP-Protocol-Version`, `Mcp-Method`,
//! `Mcp-Name`); the handler below answers both alike (rmcp adds `resultType`
//! and the cache hints for 2026-07-28 and strips them for older peers).

use std::borrow::Cow;

use axum::http::request::Parts;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, DiscoverResult, Implementation,
    InitializeRequestParams, InitializeResult, ListToolsResult, PaginatedRequestParams, ProtocolVersion,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde::Deserialize;
use vibe_common::config::McpProtocol;

use crate::gateway::Gateway;
use crate::normalize::RawArgs;
use crate::registry;
use crate::target::Scope;

/// Server name announced in `initialize`.
pub const SERVER_NAME: &str = "vibe-analyzer";
/// Server version announced in `initialize`.
pub const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Protocol versions this server speaks: the four reached by `initialize`,
/// then the stateless one (announced by `server/discover`, and named in the
/// `-32022` error a request of any other version gets).
pub const SUPPORTED_VERSIONS: [ProtocolVersion; 5] = [
    ProtocolVersion::V_2024_11_05,
    ProtocolVersion::V_2025_03_26,
    ProtocolVersion::V_2025_06_18,
    ProtocolVersion::V_2025_11_25,
    ProtocolVersion::V_2026_07_28,
];

pub fn protocol_version(p: McpProtocol) -> ProtocolVersion {
    match p.resolve() {
        McpProtocol::V2024_11_05 => ProtocolVersion::V_2024_11_05,
        McpProtocol::V2025_03_26 => ProtocolVersion::V_2025_03_26,
        McpProtocol::V2025_06_18 => ProtocolVersion::V_2025_06_18,
        McpProtocol::V2025_11_25 | McpProtocol::Latest => ProtocolVersion::V_2025_11_25,
    }
}

/// The versions spoken with `mcp.protocol` set to `p`: all of
/// [`SUPPORTED_VERSIONS`] for `latest`, else the one pinned.
pub fn supported_versions(p: McpProtocol) -> Cow<'static, [ProtocolVersion]> {
    match p {
        McpProtocol::Latest => Cow::Borrowed(&SUPPORTED_VERSIONS),
        pinned => Cow::Owned(vec![protocol_version(pinned)]),
    }
}

/// One per MCP session, or per request of 2026-07-28; all share the
/// [`Gateway`].
#[derive(Clone)]
pub struct VibeServer {
    gateway: Gateway,
}

impl VibeServer {
    pub fn new(gateway: Gateway) -> Self {
        Self { gateway }
    }
}

impl ServerHandler for VibeServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new(SERVER_NAME, SERVER_VERSION)
                    .with_title("Vibe Analyzer")
                    .with_description("Search code and knowledge bases indexed in OpenSearch"),
            )
            .with_instructions(registry::instructions())
            .with_protocol_version(protocol_version(self.gateway.protocol()))
    }

    /// As rmcp's default, with the endpoint's instructions
    /// ([`VibeServer::endpoint_instructions`]).
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        if let Some(instructions) = self.endpoint_instructions(&context).await {
            result.instructions = Some(instructions);
        }
        Ok(result)
    }

    /// `server/discover` (2026-07-28): as rmcp's default, with the
    /// endpoint's instructions, as `initialize` gives them.
    async fn discover(&self, context: RequestContext<RoleServer>) -> Result<DiscoverResult, ErrorData> {
        let mut result =
            DiscoverResult::from_server_info(self.supported_protocol_versions().into_owned(), self.get_info());
        if let Some(instructions) = self.endpoint_instructions(&context).await {
            result.instructions = Some(instructions);
        }
        Ok(result)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        supported_versions(self.gateway.protocol())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(registry::definitions(self.typed_output(&context))))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        registry::definition(name, self.gateway.typed_output())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let endpoint = endpoint_of(&context);
        // Any JSON object reads as arguments, so `ok()` drops nothing.
        let arguments = request.arguments.as_ref().and_then(|a| RawArgs::deserialize(a).ok());
        let outcome = self.gateway.call(&request.name, arguments.as_ref(), endpoint.as_deref()).await;
        let mut result = if outcome.is_error {
            CallToolResult::error(vec![ContentBlock::text(outcome.text)])
        } else {
            CallToolResult::success(vec![ContentBlock::text(outcome.text)])
        };
        if self.typed_output(&context) {
            // Answers hold strings, numbers, lists and maps with string keys only.
            result.structured_content = serde_json::to_value(&outcome.structured).ok();
        }
        Ok(result.into())
    }
}

impl VibeServer {
    /// On a project's endpoint (`/mcp/<project>`) whose name or path names
    /// one indexed project, instructions that say calls need no `target`
    /// there. `None` (the shared instructions) for an endpoint naming no
    /// project or several, or when the backend does not answer.
    async fn endpoint_instructions(&self, context: &RequestContext<RoleServer>) -> Option<String> {
        let endpoint = endpoint_of(context)?;
        match self.gateway.resolve(Some(&endpoint)).await {
            Ok(Scope::One(project)) => Some(registry::endpoint_instructions(&project.name)),
            _ => None,
        }
    }

    /// Whether this request's client gets typed output: the endpoint URL's
    /// `?typed_output=true|false` when it has one, else `mcp.typed_output`.
    fn typed_output(&self, context: &RequestContext<RoleServer>) -> bool {
        let query = context.extensions.get::<Parts>().and_then(|p| p.uri.query());
        query.and_then(typed_output_query).unwrap_or_else(|| self.gateway.typed_output())
    }
}

/// `typed_output` of a URL's query (`typed_output=true`, `=1`, `=false`,
/// `=0`; a bare `typed_output` is true); `None` when it is absent or unclear.
pub fn typed_output_query(query: &str) -> Option<bool> {
    query.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=').unwrap_or((pair, "true"));
        (key == "typed_output").then(|| match value.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" | "" => Some(true),
            "false" | "0" | "no" | "off" => Some(false),
            _ => None,
        })?
    })
}

/// The project a request's endpoint names (`/mcp/<project>`), from the HTTP
/// request rmcp hands each handler.
fn endpoint_of(context: &RequestContext<RoleServer>) -> Option<String> {
    context.extensions.get::<Parts>().and_then(|p| endpoint_project(p.uri.path()))
}

/// The project a request's path names: `/mcp/<project>` (percent-decoded)
/// is one project's endpoint, where a call that names no target searches
/// that project only. `/` and `/mcp` name none.
pub fn endpoint_project(path: &str) -> Option<String> {
    let rest = path.strip_prefix("/mcp/")?.trim_end_matches('/');
    let name = percent_encoding::percent_decode_str(rest).decode_utf8().ok()?;
    let name = name.trim();
    (!name.is_empty()).then(|| name.to_string())
}
