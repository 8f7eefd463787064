//! AST extraction: one generic engine driven by one tree-sitter query file per
//! language (`ingest/queries/<id>.scm`), plus Markdown's own extractor.

mod comments;
mod compiled;
mod direct;
mod doc_comments;
mod engine;
mod family;
pub mod grammars;
mod license_header;
mod markdown;
mod masks;
mod nesting;
mod references;
mod signature;

pub use compiled::{compile_query, CompiledQuery, ExtractError};
pub use grammars::{for_path, refine, Extractor, Language, LANGUAGES};

use vibe_common::document::ast::AstData;

/// Extract the AST of one file's source text.
pub fn extract(lang: &'static Language, source: &str) -> Result<AstData, ExtractError> {
    let ast = match lang.extractor {
        Extractor::Queries => engine::extract(lang, source)?,
        Extractor::Markdown => markdown::extract(lang, source)?,
    };
    Ok(ast.with_tags())
}
