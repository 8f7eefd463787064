//! The scanner: walks a source tree and streams one [`ScannedFile`] per file
//! to a consumer, reading, hashing and parsing files in parallel on the
//! walker's threads.
//!
//! Memory stays bounded: each worker holds one file at a time (at most
//! [`MAX_AST_FILE_SIZE`] bytes; larger files are streamed through the hasher)
//! and results flow through a bounded channel to the consumer, which runs on
//! the calling thread. A failure on one file never stops the run: the file is
//! still reported, with its [`SkipReason`], and the error is listed in the
//! [`ScanReport`].

pub mod binary;
pub mod count_file;
pub mod encoding;
mod file;
pub mod in_flight;
pub mod license;
pub mod readme;
mod run;
pub mod walk;

pub use count_file::{CountFile, LanguageStats, SourceStats, OTHER_LANGUAGE};
pub use file::{count_lines, scan_file};
pub use license::{detect_license, LicenseInfo};
pub use readme::{find_readme, Readme};
pub use run::{scan, try_scan};

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use vibe_common::document::ast::AstData;
use vibe_common::error_chain::{chain, BoxError};

/// Files larger than this get no AST (metadata and hash only).
pub const MAX_AST_FILE_SIZE: u64 = 10 * 1024 * 1024;

/// Decides, from a file's relative path and BLAKE3 hex hash, that it is
/// unchanged and need not be parsed.
pub type SkipFn = Arc<dyn Fn(&str, &str) -> bool + Send + Sync>;

/// What the scanner does with each file.
#[derive(Clone)]
pub struct ScanOptions {
    /// Keep the text of text files in [`ScannedFile::content`].
    pub keep_content: bool,
    /// Extract ASTs (on by default).
    pub extract: bool,
    /// Files for which this returns true, given the path and the
    /// [`ScannedFile::version`], are hashed but not parsed, and are reported
    /// with [`SkipReason::Unchanged`].
    pub skip: Option<SkipFn>,
    /// Worker threads; 0 = one per core.
    pub threads: usize,
    /// Files above this size get no AST ([`SkipReason::TooLarge`]).
    pub max_ast_file_size: u64,
    /// Hand files to the sink in path order, whatever the threads: two
    /// exports of one tree are the same (`run::ordered`).
    pub ordered: bool,
    /// Where the files being scanned are told, for naming one that takes long.
    pub in_flight: Option<Arc<in_flight::InFlight>>,
    /// The encoding of a non-UTF-8 file whose detection rests on little
    /// (`scan.default_encoding`, [`encoding::decode`]).
    pub default_encoding: Option<&'static encoding_rs::Encoding>,
}

impl Default for ScanOptions {
    fn default() -> Self {
        Self {
            keep_content: false,
            extract: true,
            skip: None,
            threads: 0,
            max_ast_file_size: MAX_AST_FILE_SIZE,
            ordered: false,
            in_flight: None,
            default_encoding: None,
        }
    }
}

impl fmt::Debug for ScanOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScanOptions")
            .field("keep_content", &self.keep_content)
            .field("extract", &self.extract)
            .field("skip", &self.skip.as_ref().map(|_| "<fn>"))
            .field("threads", &self.threads)
            .field("max_ast_file_size", &self.max_ast_file_size)
            .field("ordered", &self.ordered)
            .finish()
    }
}

/// Why a file has no AST (or no content at all).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// Binary by extension, name or content (NUL byte in the first 8 KiB).
    Binary,
    /// Larger than the AST size limit.
    TooLarge,
    /// Not valid UTF-8 (and no NUL byte).
    InvalidUtf8,
    /// Could not be read.
    Unreadable,
    /// The extraction engine failed (or panicked) on it.
    ExtractError,
    /// A symbolic link (never followed).
    Symlink,
    /// Not a regular file: FIFO, socket, device.
    Special,
    /// The walker reported an error for this path (e.g. an unreadable directory).
    WalkError,
    /// The `skip` callback said it is unchanged; counted in `ScanReport::unchanged`.
    Unchanged,
}

impl SkipReason {
    pub const ALL: [SkipReason; 9] = [
        Self::Binary,
        Self::TooLarge,
        Self::InvalidUtf8,
        Self::Unreadable,
        Self::ExtractError,
        Self::Symlink,
        Self::Special,
        Self::WalkError,
        Self::Unchanged,
    ];

    /// Whether the file's content is not stored for this reason.
    pub fn explains_empty_content(self) -> bool {
        matches!(self, Self::Binary | Self::TooLarge | Self::InvalidUtf8)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Binary => "binary",
            Self::TooLarge => "too_large",
            Self::InvalidUtf8 => "invalid_utf8",
            Self::Unreadable => "unreadable",
            Self::ExtractError => "extract_error",
            Self::Symlink => "symlink",
            Self::Special => "special",
            Self::WalkError => "walk_error",
            Self::Unchanged => "unchanged",
        }
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One file as the scanner saw it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ScannedFile {
    /// Path relative to the source root, with forward slashes.
    pub rel_path: String,
    /// `Language::name`, by extension; `None` for binary files and unknown extensions.
    pub language: Option<&'static str>,
    /// Number of lines (0 for binary files, and for files skipped as unchanged).
    pub lines: u64,
    /// Size in bytes.
    pub size: u64,
    /// Last modification, epoch milliseconds (0 when the system cannot
    /// tell): with the size, how an answer tells a file changed since it was
    /// indexed without reading it.
    #[serde(skip)]
    pub mtime: u64,
    /// BLAKE3 of the content, hex; empty if the file could not be read.
    pub hash: String,
    pub binary: bool,
    /// The encoding the text was decoded from when it is not UTF-8
    /// (`windows-1251`, `utf-16le`): lines and text are the decoded file's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<&'static str>,
    /// The text, for text files, when [`ScanOptions::keep_content`] is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// The text's distinct grams ([`vibe_common::document::grams::text_grams`]), with
    /// the content when it is not empty: computed here, on the scanner's
    /// threads, for the files index.
    #[serde(skip)]
    pub grams: Option<String>,
    /// The text's word bag ([`vibe_common::document::word_bag::word_bag`]), for the
    /// analysis index's word search; computed with the grams.
    #[serde(skip)]
    pub words: Option<String>,
    /// The word bag of each AST element's own lines
    /// ([`vibe_common::document::word_bag::element_bodies`]), computed with the grams.
    #[serde(skip)]
    pub bodies: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ast: Option<AstData>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<SkipReason>,
}

impl ScannedFile {
    /// The hash and the modification time, as `hash@mtime`: what the
    /// index stores of a file's version. A file touched but not changed is
    /// written again, so that its stored mtime keeps telling answers it is
    /// fresh.
    pub fn version(&self) -> String {
        version(&self.hash, self.mtime)
    }
}

/// `hash@mtime`, [`ScannedFile::version`].
pub fn version(hash: &str, mtime: u64) -> String {
    format!("{hash}@{mtime}")
}

/// Errors of the scanner; each carries the path it is about, prints it
/// first, and keeps its cause as its source.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    #[error("{path}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not a directory or file")]
    BadRoot { path: String },
    #[error("{path}: extraction failed")]
    Extract {
        path: String,
        #[source]
        source: BoxError,
    },
    #[error("{path}")]
    Walk {
        path: String,
        #[source]
        source: ignore::Error,
    },
    #[error("{path}: scan stopped by its consumer")]
    Consumer {
        path: String,
        #[source]
        source: BoxError,
    },
}

impl ScanError {
    /// The path the error is about.
    pub fn path(&self) -> &str {
        match self {
            Self::Io { path, .. }
            | Self::BadRoot { path }
            | Self::Extract { path, .. }
            | Self::Walk { path, .. }
            | Self::Consumer { path, .. } => path,
        }
    }

    /// The path and what went wrong with it (the error's chain after the
    /// path): one line of a report.
    pub fn report_line(&self) -> (String, String) {
        let line = chain(self);
        let path = self.path();
        let message = line.strip_prefix(path).and_then(|l| l.strip_prefix(": ")).unwrap_or(&line);
        (path.to_string(), message.to_string())
    }
}

/// Totals of one scan. `files_seen == parsed + text + unchanged + Σ skipped`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ScanReport {
    /// Every non-directory entry reported by the walker (and walker errors).
    pub files_seen: u64,
    /// Files with an extracted AST.
    pub parsed: u64,
    /// Text files without an AST because no language handles them (or extraction is off).
    pub text: u64,
    /// Files the `skip` callback declared unchanged.
    pub unchanged: u64,
    /// Files without AST for another reason, by reason (never `unchanged`).
    pub skipped: BTreeMap<SkipReason, u64>,
    /// Files read from another encoding than UTF-8, by encoding.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub decoded: BTreeMap<String, u64>,
    /// (path, message) of every error: unreadable files, extraction failures, walker errors.
    pub errors: Vec<(String, String)>,
    /// Directories not descended into, by default rule ([`walk::DIR_RULES`]
    /// order): `(rule, directories)`; their files are not in `files_seen`.
    pub excluded_dirs: Vec<(String, u64)>,
    #[serde(serialize_with = "ser_secs")]
    pub elapsed: Duration,
}

fn ser_secs<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl ScanReport {
    /// Count one delivered file.
    pub fn record(&mut self, file: &ScannedFile) {
        self.files_seen += 1;
        if let Some(encoding) = file.encoding {
            *self.decoded.entry(encoding.to_string()).or_default() += 1;
        }
        match file.skipped {
            Some(SkipReason::Unchanged) => self.unchanged += 1,
            Some(r) => *self.skipped.entry(r).or_default() += 1,
            None if file.ast.is_some() => self.parsed += 1,
            None => self.text += 1,
        }
    }

    pub fn skipped_total(&self) -> u64 {
        self.skipped.values().sum()
    }

    /// Add another report's counts (for totals over several sources).
    pub fn merge(&mut self, other: &ScanReport) {
        self.files_seen += other.files_seen;
        self.parsed += other.parsed;
        self.text += other.text;
        self.unchanged += other.unchanged;
        for (r, n) in &other.skipped {
            *self.skipped.entry(*r).or_default() += n;
        }
        for (e, n) in &other.decoded {
            *self.decoded.entry(e.clone()).or_default() += n;
        }
        self.errors.extend(other.errors.iter().cloned());
        self.elapsed += other.elapsed;
        for (rule, n) in &other.excluded_dirs {
            match self.excluded_dirs.iter_mut().find(|(r, _)| r == rule) {
                Some((_, total)) => *total += n,
                None => self.excluded_dirs.push((rule.clone(), *n)),
            }
        }
        let order = |r: &str| walk::DIR_RULES.iter().position(|d| *d == r);
        self.excluded_dirs.sort_by_key(|(r, _)| order(r));
    }

    /// `Scanned N files: parsed N, text N, skipped N (binary: N, …), errors N in X.Xs`
    pub fn summary(&self) -> String {
        let mut s = format!("Scanned {} files: parsed {}", self.files_seen, self.parsed);
        if self.text > 0 {
            s += &format!(", text {}", self.text);
        }
        if self.unchanged > 0 {
            s += &format!(", unchanged {}", self.unchanged);
        }
        s += &format!(", skipped {}", self.skipped_total());
        if !self.skipped.is_empty() {
            let parts: Vec<String> = self.skipped.iter().map(|(r, n)| format!("{r}: {n}")).collect();
            s += &format!(" ({})", parts.join(", "));
        }
        if !self.decoded.is_empty() {
            let parts: Vec<String> = self.decoded.iter().map(|(e, n)| format!("{e}: {n}")).collect();
            s += &format!(", decoded {} ({})", self.decoded.values().sum::<u64>(), parts.join(", "));
        }
        if !self.excluded_dirs.is_empty() {
            let total: u64 = self.excluded_dirs.iter().map(|(_, n)| n).sum();
            let parts: Vec<String> = self.excluded_dirs.iter().map(|(r, n)| format!("{r}: {n}")).collect();
            s += &format!(", excluded dirs {total} ({})", parts.join(", "));
        }
        s += &format!(", errors {} in {:.1}s", self.errors.len(), self.elapsed.as_secs_f64());
        s
    }
}

/// A source: its name, root, README and license.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceInfo {
    pub name: String,
    /// Absolute (canonical) root.
    pub root: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readme: Option<Readme>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub license: Option<LicenseInfo>,
}

impl SourceInfo {
    /// Read a source's README and license. `name` defaults to the root's directory name.
    pub fn load(name: Option<&str>, root: &Path) -> Result<SourceInfo, ScanError> {
        Ok(Self::bare(name, root)?.with_details())
    }

    /// This source with its README and license read (license detection
    /// loads the askalono store: ~0.06 s).
    pub fn with_details(mut self) -> SourceInfo {
        if self.root.is_dir() {
            self.readme = find_readme(&self.root);
            self.license = detect_license(&self.root);
        }
        self
    }

    /// Like [`SourceInfo::load`] without the README and license (license
    /// detection loads the askalono store: ~0.1 s).
    pub fn bare(name: Option<&str>, root: &Path) -> Result<SourceInfo, ScanError> {
        let root = canonical_root(root)?;
        let name = match name {
            Some(n) => n.to_string(),
            None => root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "root".into()),
        };
        Ok(SourceInfo { name, root, readme: None, license: None })
    }
}

/// `path` relative to `root`, with forward slashes; the file name if `path` is `root`.
pub fn rel_path(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<String> = rel
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    if parts.is_empty() {
        path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    } else {
        parts.join("/")
    }
}

fn canonical_root(root: &Path) -> Result<PathBuf, ScanError> {
    let root = root.canonicalize().map_err(|e| ScanError::Io { path: root.display().to_string(), source: e })?;
    if !(root.is_dir() || root.is_file()) {
        return Err(ScanError::BadRoot { path: root.display().to_string() });
    }
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rel_paths_use_forward_slashes() {
        assert_eq!(rel_path(Path::new("/a/b"), Path::new("/a/b/c/d.rs")), "c/d.rs");
        assert_eq!(rel_path(Path::new("/a/b/f.rs"), Path::new("/a/b/f.rs")), "f.rs");
    }

    #[test]
    fn summary_line() {
        let mut r = ScanReport { files_seen: 5, parsed: 2, text: 1, ..Default::default() };
        r.skipped.insert(SkipReason::Binary, 1);
        r.skipped.insert(SkipReason::TooLarge, 1);
        r.elapsed = Duration::from_millis(1234);
        assert_eq!(
            r.summary(),
            "Scanned 5 files: parsed 2, text 1, skipped 2 (binary: 1, too_large: 1), errors 0 in 1.2s"
        );
        let other = ScanReport { excluded_dirs: vec![("node_modules".into(), 2)], ..Default::default() };
        r.merge(&other);
        r.merge(&ScanReport { excluded_dirs: vec![(walk::VENV_RULE.into(), 1), (".git".into(), 1)], ..other });
        assert!(
            r.summary()
                .ends_with("excluded dirs 4 (node_modules: 2, .git: 1, python venv (pyvenv.cfg): 1), errors 0 in 1.2s"),
            "{}",
            r.summary()
        );
    }
}
