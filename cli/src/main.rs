/// mimalloc for Rust allocations; tree-sitter's C allocations go through it
/// too (see `vibe_ingest::allocator`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    vibe_ingest::allocator::route_tree_sitter_to_mimalloc();
    vibe_cli::main()
}
