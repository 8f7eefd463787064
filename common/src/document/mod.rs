//! What the indices hold: the AST model and its kinds, a file's content
//! document, the meta document of a project, what an answer shows of a
//! definition, and a file's 3-grams and words.

pub mod ast;
pub mod content_doc;
pub mod grams;
pub mod kinds;
pub mod project_meta;
pub mod shown;
pub mod word_bag;
