//! `vibe-analyzer scan ...` (ast/analyze: being written by the scanner engineer).

use super::{Ctx, ScanCommand};

pub fn run(ctx: &Ctx, args: ScanCommand) -> anyhow::Result<()> {
    match args {
        ScanCommand::Index(a) => super::index::run(ctx, a),
        ScanCommand::Ast(a) => ast(ctx, a),
        ScanCommand::Analyze(a) => super::analyze::run(ctx, a),
        ScanCommand::Watch(a) => super::watch::run(ctx, a),
        ScanCommand::Prune(a) => super::prune::run(ctx, a),
    }
}

/// `scan ast`: extract every file's AST and export it (never touches OpenSearch).
fn ast(ctx: &Ctx, args: super::ScanExportArgs) -> anyhow::Result<()> {
    use super::PartialFailure;
    use vibe_ingest::export;
    use vibe_ingest::scanner::SkipReason;

    let format = args.resolved_format()?;
    // A configured source by path or name; an unconfigured existing path is
    // scanned too (nothing is stored for `scan ast`).
    let (roots, gone) = match (ctx.present_targets(args.target.as_deref()), args.target.as_deref()) {
        (Ok(found), _) => found,
        (Err(_), Some(t)) if std::path::Path::new(t).exists() => (vec![std::path::PathBuf::from(t)], 0),
        (Err(e), _) => return Err(e),
    };
    let sources: Vec<(String, std::path::PathBuf)> = roots
        .into_iter()
        .map(|root| {
            let abs = std::fs::canonicalize(&root).unwrap_or(root);
            let name = abs.file_name().map_or_else(|| "root".to_string(), |n| n.to_string_lossy().into_owned());
            (name, abs)
        })
        .collect();
    let (_, report) =
        export::run_scan_ast(&sources, format, args.output.as_deref(), ctx.config.scan.default_encoding())?;
    let failed = [SkipReason::Unreadable, SkipReason::ExtractError, SkipReason::WalkError]
        .iter()
        .map(|r| report.skipped.get(r).copied().unwrap_or(0))
        .sum::<u64>();
    PartialFailure::check(failed as usize + gone, report.files_seen as usize + gone)
}
