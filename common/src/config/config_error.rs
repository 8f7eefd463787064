//! [`ConfigError`]: every error of loading, saving and editing the configuration.

use super::CONFIG_VERSION;
use std::path::PathBuf;

/// Errors of loading, saving and editing the configuration.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot determine the home directory; pass --config-dir DIR")]
    NoHomeDir,
    #[error("cannot create config directory {}", .path.display())]
    CreateDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read {}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write {}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid JSON5. Line and column are 1-based.
    #[error("{}:{line}:{column}: invalid JSON5: {message} (the file was left unchanged)", .path.display())]
    Syntax { path: PathBuf, line: usize, column: usize, message: String },
    /// Valid JSON5, but not a valid configuration (wrong type, unknown enum value...).
    #[error("{}{}: invalid configuration: {message} (the file was left unchanged)", .path.display(), fmt_position(.position))]
    Invalid {
        path: PathBuf,
        /// 1-based (line, column) when known.
        position: Option<(usize, usize)>,
        message: String,
    },
    /// An OpenSearch host that is not an http(s) URL: it would be read as
    /// another host (`search:9200` has the scheme `search`).
    #[error("{place}: {host:?} is not an http(s) URL; write it with its scheme, e.g. {fix:?}")]
    BadHost { place: String, host: String, fix: String },
    #[error("{}: config version {version:?} is not supported by this build (it understands up to {CONFIG_VERSION}); the file was left unchanged", .path.display())]
    UnsupportedVersion { path: PathBuf, version: String },
    #[error("cannot serialize the configuration for {}", .path.display())]
    Serialize {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("path does not exist: {}", .path.display())]
    PathNotFound { path: PathBuf },
    /// A source is a folder: a file's project would be named after the file.
    #[error("{} is a file, not a folder: add the folder that holds it", .path.display())]
    NotADirectory { path: PathBuf },
    /// A folder inside a source, or one that holds a source: its files would be indexed twice.
    #[error("{} overlaps the source {}: its files would be indexed twice; remove one of them first, or keep the one that holds the other", .path.display(), .source_dir.display())]
    OverlappingSource { path: PathBuf, source_dir: PathBuf },
    #[error("cannot resolve path {}", .path.display())]
    Canonicalize {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("unknown source: {target}\n{}", fmt_candidates(.candidates))]
    UnknownSource {
        target: String,
        /// All configured sources.
        candidates: Vec<PathBuf>,
    },
    #[error("ambiguous source name {name:?}, it matches:\n{}\nuse the full path instead", fmt_list(.candidates))]
    AmbiguousSource {
        name: String,
        /// The configured sources with that directory name.
        candidates: Vec<PathBuf>,
    },
}

fn fmt_position(position: &Option<(usize, usize)>) -> String {
    match position {
        Some((line, column)) => format!(":{line}:{column}"),
        None => String::new(),
    }
}

fn fmt_list(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| format!("- {}", p.display())).collect::<Vec<_>>().join("\n")
}

fn fmt_candidates(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        "no sources are configured; add one with: vibe-analyzer source add PATH".to_string()
    } else {
        format!("configured sources:\n{}", fmt_list(paths))
    }
}
