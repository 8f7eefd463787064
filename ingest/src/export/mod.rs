//! Export of scanned sources (`scan ast`, and later `scan analyze`) as JSON,
//! JSON5, TOON or XML.
//!
//! The document is
//! `{ version: 1, generated_at, sources: [ { name, root, readme?, license?, files: [ … ], stats } ] }`
//! and is written by an [`Exporter`] piece by piece: `begin_source`, one
//! `file` per scanned file, `end_source`, `finish`. JSON, JSON5 and XML are
//! streamed file by file; TOON needs array lengths up front and keeps one
//! source's files (metadata and AST, never content) until `end_source`.

mod json;
mod json5;
mod toon;
mod xml;

use crate::scanner::{self, CountFile, ScanOptions, ScanReport, ScannedFile, SkipReason, SourceInfo, SourceStats};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use vibe_common::document::ast::AstData;

/// Version of the export document.
pub const EXPORT_VERSION: u32 = 1;

/// An export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    #[default]
    Json,
    Json5,
    Toon,
    Xml,
}

impl Format {
    /// File extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Json5 => "json5",
            Format::Toon => "toon",
            Format::Xml => "xml",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.extension())
    }
}

impl FromStr for Format {
    type Err = ExportError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "json" => Ok(Format::Json),
            "json5" => Ok(Format::Json5),
            "toon" => Ok(Format::Toon),
            "xml" => Ok(Format::Xml),
            _ => Err(ExportError::UnknownFormat(s.to_string())),
        }
    }
}

/// Export errors.
#[derive(Debug, thiserror::Error)]
/// Each message leaves its cause to the chain (`{err:#}`, `chain`): said
/// once, not twice.
pub enum ExportError {
    #[error("unknown export format `{0}` (expected json, json5, toon or xml)")]
    UnknownFormat(String),
    #[error("{path}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("write failed")]
    Write(#[from] io::Error),
    #[error("JSON serialization failed")]
    Json(#[from] serde_json::Error),
    #[error("JSON5 serialization failed")]
    Json5(#[from] ::json5::Error),
    #[error("TOON encoding failed")]
    Toon(#[from] ::toon_format::ToonError),
    #[error("XML serialization failed")]
    Xml(#[from] quick_xml::SeError),
    #[error("exporter misuse: {0}")]
    State(&'static str),
    #[error(transparent)]
    Scan(#[from] scanner::ScanError),
}

/// Per-file additions from `scan analyze` (LLM description and tags).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEnrichment {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// One file of the export document.
#[derive(Debug, Clone, Serialize)]
pub struct FileRecord<'a> {
    pub path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<&'a str>,
    pub lines: u64,
    pub size: u64,
    pub hash: &'a str,
    pub binary: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<SkipReason>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub tags: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ast: Option<&'a AstData>,
}

impl<'a> FileRecord<'a> {
    pub fn new(file: &'a ScannedFile, enrichment: Option<&'a FileEnrichment>) -> Self {
        FileRecord {
            path: &file.rel_path,
            language: file.language,
            lines: file.lines,
            size: file.size,
            hash: &file.hash,
            binary: file.binary,
            skipped: file.skipped,
            description: enrichment.and_then(|e| e.description.as_deref()),
            tags: enrichment.map_or(&[], |e| e.tags.as_slice()),
            ast: file.ast.as_ref(),
        }
    }
}

/// The part of a source known before its files: name, root, README, license.
#[derive(Serialize)]
struct SourceHeader<'a> {
    name: &'a str,
    root: String,
    /// The LLM's project summary (`scan analyze` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    readme: Option<&'a scanner::Readme>,
    #[serde(skip_serializing_if = "Option::is_none")]
    license: Option<&'a scanner::LicenseInfo>,
}

impl<'a> SourceHeader<'a> {
    fn new(info: &'a SourceInfo, summary: Option<&'a str>) -> Self {
        SourceHeader {
            name: &info.name,
            root: info.root.to_string_lossy().into_owned(),
            summary,
            readme: info.readme.as_ref(),
            license: info.license.as_ref(),
        }
    }
}

/// The document start: version and time.
#[derive(Serialize)]
struct DocHeader<'a> {
    version: u32,
    generated_at: &'a str,
}

/// Writes the pieces of a document in one format.
trait FormatWriter {
    fn begin(&mut self, w: &mut dyn Write, doc: &DocHeader) -> Result<(), ExportError>;
    fn begin_source(&mut self, w: &mut dyn Write, first: bool, src: &SourceHeader) -> Result<(), ExportError>;
    fn file(&mut self, w: &mut dyn Write, first: bool, file: &FileRecord) -> Result<(), ExportError>;
    fn end_source(&mut self, w: &mut dyn Write, files: usize, stats: &SourceStats) -> Result<(), ExportError>;
    fn finish(&mut self, w: &mut dyn Write, sources: usize) -> Result<(), ExportError>;
}

/// A serialized object without its closing `\n}`, so fields can follow.
fn without_closing_brace(s: String) -> String {
    match s.strip_suffix("\n}") {
        Some(open) => open.to_owned(),
        None => s.trim_end_matches('}').to_owned(),
    }
}

/// Indent every line but the first by `n` spaces.
pub(crate) fn indent_tail(s: &str, n: usize) -> String {
    let pad = " ".repeat(n);
    let mut out = String::with_capacity(s.len() + n * 8);
    for (i, line) in s.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&pad);
            }
        }
        out.push_str(line);
    }
    out
}

/// Streams an export document to a writer.
pub struct Exporter<W: Write> {
    w: W,
    fmt: Box<dyn FormatWriter + Send>,
    sources: usize,
    files: usize,
    in_source: bool,
}

impl<W: Write> Exporter<W> {
    /// Start a document generated now.
    pub fn new(w: W, format: Format) -> Result<Self, ExportError> {
        let now = chrono::Local::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, false);
        Self::with_generated_at(w, format, &now)
    }

    /// Start a document with the given `generated_at`.
    pub fn with_generated_at(mut w: W, format: Format, generated_at: &str) -> Result<Self, ExportError> {
        let mut fmt: Box<dyn FormatWriter + Send> = match format {
            Format::Json => Box::<json::JsonWriter>::default(),
            Format::Json5 => Box::new(json5::Json5Writer),
            Format::Toon => Box::new(toon::ToonWriter::default()),
            Format::Xml => Box::new(xml::XmlWriter),
        };
        fmt.begin(&mut w, &DocHeader { version: EXPORT_VERSION, generated_at })?;
        Ok(Exporter { w, fmt, sources: 0, files: 0, in_source: false })
    }

    pub fn begin_source(&mut self, info: &SourceInfo) -> Result<(), ExportError> {
        self.begin_source_with_summary(info, None)
    }

    /// Start a source whose header carries a project summary.
    pub fn begin_source_with_summary(&mut self, info: &SourceInfo, summary: Option<&str>) -> Result<(), ExportError> {
        if self.in_source {
            return Err(ExportError::State("begin_source inside a source"));
        }
        self.fmt.begin_source(&mut self.w, self.sources == 0, &SourceHeader::new(info, summary))?;
        self.in_source = true;
        self.files = 0;
        Ok(())
    }

    pub fn file(&mut self, file: &ScannedFile, enrichment: Option<&FileEnrichment>) -> Result<(), ExportError> {
        if !self.in_source {
            return Err(ExportError::State("file outside a source"));
        }
        self.fmt.file(&mut self.w, self.files == 0, &FileRecord::new(file, enrichment))?;
        self.files += 1;
        Ok(())
    }

    pub fn end_source(&mut self, stats: &SourceStats) -> Result<(), ExportError> {
        if !self.in_source {
            return Err(ExportError::State("end_source outside a source"));
        }
        self.fmt.end_source(&mut self.w, self.files, stats)?;
        self.in_source = false;
        self.sources += 1;
        Ok(())
    }

    /// Close the document and return the writer (flushed).
    pub fn finish(mut self) -> Result<W, ExportError> {
        if self.in_source {
            return Err(ExportError::State("finish inside a source"));
        }
        self.fmt.finish(&mut self.w, self.sources)?;
        self.w.flush()?;
        Ok(self.w)
    }
}

/// What exporting one source produced.
#[derive(Debug, Clone)]
pub struct SourceExport {
    pub info: SourceInfo,
    pub stats: SourceStats,
    pub report: ScanReport,
}

/// Scan one source and write it to `exporter`. `enrich` sees every file
/// before it is written and may return its enrichment (`scan analyze`);
/// `scan ast` passes `|_| None` (or uses it to drive a progress bar).
///
/// The source's header (README, license) is read while the scan starts:
/// identifying the license loads askalono's store (~0.06 s), so the first
/// files are held until the header is written.
pub fn export_source<W: Write>(
    exporter: &mut Exporter<W>,
    name: Option<&str>,
    root: &Path,
    opts: &ScanOptions,
    mut enrich: impl FnMut(&ScannedFile) -> Option<FileEnrichment>,
) -> Result<SourceExport, ExportError> {
    let bare = SourceInfo::bare(name, root)?;
    std::thread::scope(|s| {
        let details = bare.clone();
        let mut reading = Some(s.spawn(move || details.with_details()));
        let mut info: Option<SourceInfo> = None;
        type Held = Vec<(ScannedFile, Option<FileEnrichment>)>;
        let mut held: Held = Vec::new();
        // Once the header is read (at once when `wait`), write it and the
        // files held until then.
        let mut settle = |exporter: &mut Exporter<W>, info: &mut Option<SourceInfo>, held: &mut Held, wait: bool| {
            let Some(handle) = reading.take_if(|h| wait || h.is_finished()) else { return Ok::<_, ExportError>(()) };
            let read = handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            exporter.begin_source(&read)?;
            *info = Some(read);
            for (file, e) in held.drain(..) {
                exporter.file(&file, e.as_ref())?;
            }
            Ok(())
        };
        let mut stats = SourceStats::default();
        let report = scanner::try_scan(&bare.root, opts, |file| {
            stats.add(&file);
            let e = enrich(&file);
            settle(exporter, &mut info, &mut held, false)?;
            match info {
                Some(_) => exporter.file(&file, e.as_ref())?,
                None => held.push((file, e)),
            }
            Ok(())
        })?;
        settle(exporter, &mut info, &mut held, true)?;
        stats.finish();
        exporter.end_source(&stats)?;
        Ok(SourceExport { info: info.unwrap_or(bare), stats, report })
    })
}

/// `~/Downloads/vibe-analyzer-ast-<name>-<YYYYMMDD-HHMMSS>.<ext>` when the
/// Downloads folder exists; else the same name in the current directory
/// (no folder is created for it).
pub fn default_output_path(name: &str, format: Format) -> PathBuf {
    let dir = dirs::download_dir()
        .or_else(|| dirs::home_dir().map(|h| h.join("Downloads")))
        .filter(|d| d.is_dir())
        .unwrap_or_else(|| PathBuf::from("."));
    let safe: String =
        name.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' || c == '.' { c } else { '_' }).collect();
    let stamp = chrono::Local::now().format("%Y%m%d-%H%M%S");
    dir.join(format!("vibe-analyzer-ast-{safe}-{stamp}.{}", format.extension()))
}

/// Scan `sources` (name, root) in order and write them as one document.
/// Returns the writer and the totals; prints a per-source summary when there
/// are several sources.
pub fn export_sources<W: Write>(
    w: W,
    sources: &[(String, PathBuf)],
    format: Format,
    opts: &ScanOptions,
) -> Result<(W, ScanReport), ExportError> {
    let mut exporter = Exporter::new(w, format)?;
    let mut total = ScanReport::default();
    for (name, root) in sources {
        let progress = progress_bar(name);
        let in_flight = std::sync::Arc::new(scanner::in_flight::InFlight::default());
        let slow_files = scanner::in_flight::SlowFiles::watch(in_flight.clone(), Some(progress.clone()), name.clone());
        let opts = ScanOptions { in_flight: Some(in_flight), ..opts.clone() };
        let done = export_source(&mut exporter, Some(name), root, &opts, |f| {
            progress.inc(1);
            progress.set_message(f.rel_path.clone());
            None
        });
        drop(slow_files);
        progress.finish_and_clear();
        let done = done?;
        if sources.len() > 1 {
            eprintln!("{}: {}", name, done.report.summary());
        }
        total.merge(&done.report);
    }
    Ok((exporter.finish()?, total))
}

/// Bytes written at once: an export is tens of MB.
const WRITE_BUFFER: usize = 1 << 20;

/// The `scan ast` command: scan `sources` (name, root) and export them to
/// `output` (default: [`default_output_path`], named after the only source
/// or `all`; `-` = stdout). A file is written as `<output>.partial` and
/// renamed when complete. Prints the report and the output path to stderr;
/// returns the path and the totals.
pub fn run_scan_ast(
    sources: &[(String, PathBuf)],
    format: Format,
    output: Option<&Path>,
    default_encoding: Option<&'static encoding_rs::Encoding>,
) -> Result<(PathBuf, ScanReport), ExportError> {
    // Two exports of one tree are the same file.
    let opts = ScanOptions { ordered: true, default_encoding, ..ScanOptions::default() };
    if output == Some(Path::new("-")) {
        let stdout = io::stdout();
        let (_, total) = export_sources(BufWriter::with_capacity(WRITE_BUFFER, stdout.lock()), sources, format, &opts)?;
        print_report(&total);
        eprintln!("Exported to stdout");
        return Ok((PathBuf::from("-"), total));
    }
    let output = match output {
        Some(p) => p.to_path_buf(),
        None => {
            let name = match sources {
                [(name, _)] => name.as_str(),
                _ => "all",
            };
            default_output_path(name, format)
        }
    };
    let io_err = |p: &Path, e| ExportError::Io { path: p.display().to_string(), source: e };
    if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
    }
    let mut partial = output.clone().into_os_string();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let file = fs::File::create(&partial).map_err(|e| io_err(&partial, e))?;
    // Not synced to disk: an export can be made again, and waiting for the
    // disk (~0.1 s per 100 MB) would be most of a small run's tail. The
    // rename still means a reader never sees a partial file.
    let written = export_sources(BufWriter::with_capacity(WRITE_BUFFER, file), sources, format, &opts)
        .and_then(|(w, total)| w.into_inner().map(|_| total).map_err(|e| ExportError::Write(e.into_error())));
    let total = match written {
        Ok(t) => t,
        Err(e) => {
            let _ = fs::remove_file(&partial);
            return Err(e);
        }
    };
    fs::rename(&partial, &output).map_err(|e| io_err(&output, e))?;
    print_report(&total);
    eprintln!("Exported to {}", output.display());
    Ok((output, total))
}

fn print_report(total: &ScanReport) {
    eprintln!("{}", total.summary());
    for (path, msg) in total.errors.iter().take(20) {
        eprintln!("  error: {path}: {msg}");
    }
    if total.errors.len() > 20 {
        eprintln!("  … and {} more errors", total.errors.len() - 20);
    }
}

fn progress_bar(name: &str) -> indicatif::ProgressBar {
    let pb = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {prefix}: {pos} files {wide_msg}") {
        pb.set_style(style);
    }
    pb.set_prefix(name.to_string());
    pb.enable_steady_tick(std::time::Duration::from_millis(120));
    pb
}

#[cfg(test)]
mod export_tests;
