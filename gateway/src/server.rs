//! The MCP server: identity, instructions, protocol versions, the tool list
//! and `tools/call`, which goes through [`Gateway::call`].

use std::borrow::Cow;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use vibe_common::config::McpProtocol;

use crate::gateway::Gateway;
use crate::tools;

/// Server name announced in `initialize`.
pub const SERVER_NAME: &str = "vibe-analyzer";
/// Server version announced in `initialize`.
pub const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// `ServerInfo.instructions`: how a model should use the tools.
pub const INSTRUCTIONS: &str = "Vibe Analyzer searches indexed code projects and knowledge bases. \
Rules: 1) Use the tools to answer and answer concisely from their results. \
2) One call is enough: call one tool, then answer; do not chain calls. \
3) Use only the tools listed here. \
Which tool: questions about people, legends, rules, guidelines, processes or docs (who is, what is, how to) -> search_documentation; \
functions or methods -> search_by_code_functions; classes, structs, interfaces -> search_by_code_classes; \
variables, constants, enums -> search_by_code_variables; imports or dependencies -> search_by_code_imports; \
a file's text -> get_file_content; a file's structure -> get_file_ast; \
projects -> show_projects; statistics -> show_stats; file tree -> show_tree; update or reindex -> admin_sync. \
`target` is a project name or path and may be omitted; `limit` is 1-10 (default 3).";

/// Protocol versions this server speaks.
pub const SUPPORTED_VERSIONS: [ProtocolVersion; 4] = [
    ProtocolVersion::V_2024_11_05,
    ProtocolVersion::V_2025_03_26,
    ProtocolVersion::V_2025_06_18,
    ProtocolVersion::V_2025_11_25,
];

pub fn protocol_version(p: McpProtocol) -> ProtocolVersion {
    match p.resolve() {
        McpProtocol::V2024_11_05 => ProtocolVersion::V_2024_11_05,
        McpProtocol::V2025_03_26 => ProtocolVersion::V_2025_03_26,
        McpProtocol::V2025_06_18 => ProtocolVersion::V_2025_06_18,
        McpProtocol::V2025_11_25 | McpProtocol::Latest => ProtocolVersion::V_2025_11_25,
    }
}

/// One per MCP session; all share the [`Gateway`].
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
            .with_instructions(INSTRUCTIONS)
            .with_protocol_version(protocol_version(self.gateway.protocol()))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        match self.gateway.protocol() {
            McpProtocol::Latest => Cow::Borrowed(&SUPPORTED_VERSIONS),
            pinned => Cow::Owned(vec![protocol_version(pinned)]),
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::definitions()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::definition(name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let outcome = self.gateway.call(&request.name, request.arguments.as_ref()).await;
        let mut result = if outcome.is_error {
            CallToolResult::error(vec![ContentBlock::text(outcome.text)])
        } else {
            CallToolResult::success(vec![ContentBlock::text(outcome.text)])
        };
        result.structured_content = Some(outcome.value);
        Ok(result.into())
    }
}
