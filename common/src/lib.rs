//! Shared pieces of Vibe Analyzer used by both the ingest CLI and the MCP gateway:
//! configuration, the document model, index naming, OpenSearch access and the
//! embedded, versioned OpenSearch templates.

pub mod ast;
pub mod config;
pub mod error_chain;
pub mod file_tree;
pub mod freshness;
pub mod grams;
pub mod identifier;
pub mod kinds;
pub mod languages;
pub mod naming;
pub mod plain_http;
pub mod project_meta;
pub mod projects;
pub mod refusal;
pub mod run_lock;
pub mod search;
pub mod shown;
pub mod signal;
pub mod summary;
pub mod templates;
pub mod units;
pub mod word_bag;
