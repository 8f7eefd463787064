//! Vibe Analyzer ingest side: scanner (walk + tree-sitter extraction),
//! export, LLM enrichment and indexer; the CLI that drives them is the
//! `vibe-analyzer` package (`cli/`).

pub mod allocator;
pub mod analyzer;
pub mod export;
pub mod extract;
pub mod indexer;
pub mod scanner;
pub mod watch;
