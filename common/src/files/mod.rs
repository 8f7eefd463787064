//! Source files: which language a file is, and whether it changed since it was indexed.

pub mod freshness;
pub mod languages;
