//! Vibe Analyzer ingest side: scanner (walk + tree-sitter extraction),
//! export, LLM enrichment, indexer and the CLI that drives them.

pub mod allocator;
pub mod analyzer;
pub mod cli;
pub mod export;
pub mod extract;
pub mod indexer;
pub mod scanner;
pub mod watch;
