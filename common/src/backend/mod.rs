//! OpenSearch, as both sides reach it: the client and its transport, index and alias names,
//! the embedded templates, refusals in words, the run lock and the indexed projects.

pub mod naming;
pub mod plain_http;
pub mod projects;
pub mod refusal;
pub mod run_lock;
pub mod search;
pub mod templates;
