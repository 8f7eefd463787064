//! Integration tests of the shared crate.
//! One test binary per crate (as ripgrep does): every module below links the
//! crate once. Run one module with `cargo test -p <crate> --test it <module>::`.

mod docs;
mod failover;
mod templates;
