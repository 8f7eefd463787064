//! The tools: the code that shapes each tool's answer (the tools are
//! declared in [`crate::registry`], run by [`crate::dispatch`]). A tool uses
//! the shared state ([`crate::gateway::Gateway`]) and the helpers below it
//! ([`answer`], [`stale_marks`]), never another tool.

pub mod admin;
pub mod answer;
pub mod code;
pub mod content;
pub mod delegate;
pub mod docs;
pub mod excerpt;
pub mod files;
pub mod find_references;
pub mod glob;
pub mod hierarchy;
pub mod map;
pub mod named_values;
pub mod outline;
pub mod passages;
pub mod sections;
pub mod show;
pub mod stale_marks;
pub mod text;
pub mod tree;
pub mod word_lines;

pub use crate::tool_error::ToolError;
