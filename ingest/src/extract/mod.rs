//! AST extraction: one generic engine driven by one tree-sitter query file per
//! language (`ingest/queries/<id>.scm`), plus Markdown's own extractor.

mod comments;
mod engine;
mod family;
mod license_header;
mod narrowing;
mod nesting;
pub mod languages;
mod markdown;

pub use engine::{compile_query, CompiledQuery, ExtractError};
pub use languages::{for_path, Language, LANGUAGES};

use vibe_common::ast::AstData;

/// Extract the AST of one file's source text.
pub fn extract(lang: &'static Language, source: &str) -> Result<AstData, ExtractError> {
    let ast = if lang.id == "markdown" {
        markdown::extract(lang, source)?
    } else {
        engine::extract(lang, source)?
    };
    Ok(ast.with_tags())
}
