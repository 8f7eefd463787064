fn main() -> std::process::ExitCode {
    vibe_ingest::cli::main()
}
