//! Shared pieces of Vibe Analyzer used by both the ingest CLI and the MCP
//! gateway, grouped by what they are about: the configuration (`config`),
//! OpenSearch as both sides reach it (`backend`), what the indices hold
//! (`document`), text rules (`text`), source files (`files`), and the
//! error chain and signals every command shares.

pub mod backend;
pub mod config;
pub mod document;
pub mod error_chain;
pub mod files;
pub mod signal;
pub mod text;
