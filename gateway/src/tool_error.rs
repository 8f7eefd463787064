//! Why a tool call failed ([`ToolError`]): what the client reads as the
//! error of a `tools/call` (`isError`). Below the shared state and the tools,
//! which all return it.

use crate::backend::BackendError;
use crate::normalize::Resolution;

/// Why a tool call failed; the message is what the client sees (`isError`).
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error(transparent)]
    Backend(#[from] BackendError),
    #[error("{0}")]
    Ambiguous(String),
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Failed(String),
    /// A tool name that did not resolve (the message lists the tools, or the
    /// two that fit equally well).
    #[error("unknown tool {0:?}")]
    UnknownTool(String, Resolution),
}
