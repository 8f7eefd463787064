//! Integration tests of the gateway against the real OpenSearch.
//! One test binary per crate (as ripgrep does): every module below links the
//! crate once. Run one module with `cargo test -p <crate> --test it <module>::`.

mod admin_sync;
mod aliases;
mod backend_restart;
mod cluster;
mod common;
mod failover3;
mod injection;
mod malformed;
mod scenarios;
mod secured_backend;
mod security;
mod server;
#[path = "../../../tests/support/test_cluster.rs"]
mod test_cluster;
mod text_search;
mod tools_list;
