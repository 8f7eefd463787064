//! `vibe-analyzer scan analyze`: AST plus LLM enrichment, exported in the
//! formats of `scan ast`; never touches OpenSearch.
//!
//! Every configured model host is checked first (reachable, model
//! installed, warm-up). Then, source by source: scan (ASTs only, no
//! content), enrich every file with an AST on all hosts, summarize the
//! README, and write the source to the export document.

use std::collections::HashMap;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::{Ctx, PartialFailure, ScanExportArgs};
use vibe_ingest::analyzer::{Analyzer, ClusterOptions, ClusterReport, FileInput};
use vibe_ingest::export::{self, Exporter, FileEnrichment, Format};
use vibe_ingest::scanner::{
    self, CountFile, ScanOptions, ScanReport, ScannedFile, SkipReason, SourceInfo, SourceStats,
};

/// What `scan analyze` did.
#[derive(Debug, Clone, Default)]
pub struct AnalyzeOutcome {
    pub output: PathBuf,
    pub scan: ScanReport,
    pub enrichment: ClusterReport,
    /// Project summaries from the README, by source name.
    pub summaries: Vec<(String, String)>,
    /// Sources whose README no host summarized, with why (their export has no summary).
    pub summary_failures: Vec<(String, String)>,
}

pub fn run(ctx: &Ctx, args: ScanExportArgs) -> anyhow::Result<()> {
    let outcome = analyze(ctx, &args, ClusterOptions::default())?;
    let failed = [SkipReason::Unreadable, SkipReason::ExtractError, SkipReason::WalkError]
        .iter()
        .map(|r| outcome.scan.skipped.get(r).copied().unwrap_or(0))
        .sum::<u64>();
    PartialFailure::check(failed as usize, outcome.scan.files_seen as usize)
}

/// The command with explicit retry options (tests use short delays).
pub fn analyze(ctx: &Ctx, args: &ScanExportArgs, options: ClusterOptions) -> anyhow::Result<AnalyzeOutcome> {
    if ctx.config.ollama.is_empty() {
        anyhow::bail!(
            "no model host is configured, so scan analyze cannot enrich anything: add a host to the \"ollama\" section of {} \
             (see ingest/prompts/README.md), or use `scan ast` for the AST alone",
            ctx.config_path.display()
        );
    }
    let format = args.resolved_format()?;
    let sources = sources(ctx, args.target.as_deref())?;
    let runtime = tokio::runtime::Runtime::new()?;
    let analyzer = Analyzer::new(&ctx.config.ollama)?.with_options(options);
    runtime.block_on(analyzer.check()).map_err(|e| {
        anyhow::anyhow!("{e}\nStart the host(s) or fix the \"ollama\" section of {}", ctx.config_path.display())
    })?;

    let mut outcome = AnalyzeOutcome::default();
    let scan_opts = ScanOptions { default_encoding: ctx.config.scan.default_encoding(), ..Default::default() };
    let write = |w: &mut dyn Write, outcome: &mut AnalyzeOutcome| -> anyhow::Result<()> {
        let mut exporter = Exporter::new(w, format)?;
        for (name, root) in &sources {
            analyze_source((&runtime, &analyzer, &scan_opts), &mut exporter, name, root, outcome)?;
        }
        exporter.finish()?;
        Ok(())
    };

    if args.output.as_deref() == Some(Path::new("-")) {
        let stdout = std::io::stdout();
        let mut w = BufWriter::new(stdout.lock());
        write(&mut w, &mut outcome)?;
        w.flush()?;
        outcome.output = PathBuf::from("-");
    } else {
        let output = match &args.output {
            Some(p) => p.clone(),
            None => default_output_path(if sources.len() == 1 { &sources[0].0 } else { "all" }, format),
        };
        if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let mut partial = output.clone().into_os_string();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        let file = fs::File::create(&partial).with_context(|| format!("cannot create {}", partial.display()))?;
        let mut w = BufWriter::new(file);
        let written = write(&mut w, &mut outcome).and_then(|_| {
            let file = w.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            Ok(())
        });
        if let Err(e) = written {
            let _ = fs::remove_file(&partial);
            return Err(e);
        }
        fs::rename(&partial, &output).with_context(|| format!("cannot write {}", output.display()))?;
        outcome.output = output;
    }

    eprintln!("{}", outcome.scan.summary());
    for (path, msg) in outcome.scan.errors.iter().take(20) {
        eprintln!("  error: {path}: {msg}");
    }
    for (name, summary) in &outcome.summaries {
        eprintln!("{name}: {summary}");
    }
    for (name, why) in &outcome.summary_failures {
        eprintln!("{name}: no project summary ({why})");
    }
    eprintln!("{}", outcome.enrichment);
    eprintln!(
        "Exported to {}",
        if outcome.output == Path::new("-") { "stdout".into() } else { outcome.output.display().to_string() }
    );
    Ok(outcome)
}

/// Scan, enrich and export one source.
fn analyze_source(
    (runtime, analyzer, scan_opts): (&tokio::runtime::Runtime, &Analyzer, &ScanOptions),
    exporter: &mut Exporter<&mut dyn Write>,
    name: &str,
    root: &Path,
    outcome: &mut AnalyzeOutcome,
) -> anyhow::Result<()> {
    let info = SourceInfo::load(Some(name), root)?;
    let mut files: Vec<ScannedFile> = Vec::new();
    let report = scanner::scan(&info.root, scan_opts, |f| files.push(f))?;
    files.sort_by(|a, b| a.rel_path.cmp(&b.rel_path));

    let inputs: Vec<FileInput> = files.iter().filter_map(FileInput::from_scanned).collect();
    let progress = progress_bar(name, inputs.len() as u64);
    let mut options = analyzer.options.clone();
    options.progress = progress.clone();
    let result = runtime.block_on(analyzer.enrich_with(name, inputs, &options));
    if let Some(p) = &progress {
        p.finish_and_clear();
    }
    if let Some(report) = result.as_ref().err().and_then(|e| e.report()) {
        eprintln!("{report}");
    }
    let (enriched, enrich_report) = result.with_context(|| format!("LLM enrichment of {name}"))?;
    outcome.enrichment.merge(&enrich_report);
    let summary = match info.readme.as_ref().map(|r| runtime.block_on(analyzer.summarize(name, &r.content))) {
        Some(Ok(s)) => {
            outcome.summaries.push((name.to_string(), s.clone()));
            Some(s)
        }
        Some(Err(e)) => {
            outcome.summary_failures.push((name.to_string(), vibe_common::error_chain::chain(&e)));
            None
        }
        None => None,
    };

    let enrichment: HashMap<&str, FileEnrichment> = enriched
        .iter()
        .map(|(path, e)| {
            let fe = FileEnrichment { description: Some(e.description.clone()), tags: e.tags.clone() };
            (path.as_str(), fe)
        })
        .collect();
    let mut stats = SourceStats::default();
    exporter.begin_source_with_summary(&info, summary.as_deref())?;
    for file in &files {
        stats.add(file);
        exporter.file(file, enrichment.get(file.rel_path.as_str()))?;
    }
    stats.finish();
    exporter.end_source(&stats)?;
    outcome.scan.merge(&report);
    Ok(())
}

/// The configured source by path or name, or all sources; an existing path
/// that is not configured is analyzed too (nothing is stored).
fn sources(ctx: &Ctx, target: Option<&str>) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let roots = match (ctx.present_targets(target), target) {
        (Ok((roots, _gone)), _) => roots,
        (Err(_), Some(t)) if Path::new(t).exists() => vec![PathBuf::from(t)],
        (Err(e), _) => return Err(e),
    };
    Ok(roots
        .into_iter()
        .map(|root| {
            let abs = fs::canonicalize(&root).unwrap_or(root);
            let name = abs.file_name().map_or_else(|| "root".to_string(), |n| n.to_string_lossy().into_owned());
            (name, abs)
        })
        .collect())
}

/// `~/Downloads/vibe-analyzer-analyze-<name>-<YYYYMMDD-HHMMSS>.<ext>`
pub fn default_output_path(name: &str, format: Format) -> PathBuf {
    let ast = export::default_output_path(name, format);
    let file = ast.file_name().map(|f| f.to_string_lossy().replacen("vibe-analyzer-ast-", "vibe-analyzer-analyze-", 1));
    match file {
        Some(f) => ast.with_file_name(f),
        None => ast,
    }
}

fn progress_bar(name: &str, total: u64) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if total == 0 || !std::io::stderr().is_terminal() {
        return None;
    }
    let pb = indicatif::ProgressBar::new(total);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{spinner} {prefix}: enriching {pos}/{len} files ({elapsed})")
    {
        pb.set_style(style);
    }
    pb.set_prefix(name.to_string());
    pb.enable_steady_tick(std::time::Duration::from_millis(120));
    Some(pb)
}
