//! Text rules both sides share: identifier words, short forms (first sentence, cuts),
//! human sizes and counts, the file tree drawing.

pub mod file_tree;
pub mod identifier;
pub mod summary;
pub mod units;
