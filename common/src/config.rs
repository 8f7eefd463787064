//! Configuration of Vibe Analyzer: `~/.vibe-analyzer/config.json5`.
//!
//! * [`Config::load_or_create`] creates the file with commented defaults on the
//!   first run, otherwise parses it (JSON5), migrates older versions (keeping a
//!   `config.json5.bak` copy of the old file), validates it with safe defaults
//!   and applies the environment overrides (`VIBE_OPENSEARCH_URL`,
//!   `VIBE_MCP_TOKEN`).
//! * A file that is not valid JSON5 (or has values of the wrong type) is an
//!   error naming the file, line and column; such a file is never overwritten.
//! * [`Config::save`] renders JSON5 with short comments and writes it
//!   atomically (temporary file + rename). User comments are not preserved.
//! * Relative paths in the file (`sources`, `opensearch.ca_cert`) are resolved
//!   against the directory of the config file, never against the current
//!   working directory, so the meaning of the file does not depend on where the
//!   command is started.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Version written by this build; older files are migrated to it.
pub const CONFIG_VERSION: &str = "0.1.0";
/// Name of the config file inside the config directory.
pub const CONFIG_FILE_NAME: &str = "config.json5";
/// Name of the backup of a migrated config file.
pub const BACKUP_FILE_NAME: &str = "config.json5.bak";
/// Name of the default config directory inside the home directory.
pub const DEFAULT_DIR_NAME: &str = ".vibe-analyzer";
/// Overrides `opensearch.host` when set (and not empty).
pub const ENV_OPENSEARCH_URL: &str = "VIBE_OPENSEARCH_URL";
/// Overrides `mcp.token` when set (and not empty).
pub const ENV_MCP_TOKEN: &str = "VIBE_MCP_TOKEN";

pub const DEFAULT_OPENSEARCH_HOST: &str = "http://127.0.0.1:9200";
pub const DEFAULT_INDEX_PREFIX: &str = "vibe";
pub const DEFAULT_MCP_HOST: &str = "127.0.0.1";
pub const DEFAULT_MCP_PORT: u16 = 9020;
pub const DEFAULT_OLLAMA_HOST: &str = "http://127.0.0.1:11434";
pub const DEFAULT_OLLAMA_MODEL: &str = "qwen2.5-coder:3b-instruct";
pub const DEFAULT_LOG_LEVEL: &str = "warn";
/// Allowed range of `ollama[].max_chunk_chars`.
pub const MAX_CHUNK_CHARS_RANGE: std::ops::RangeInclusive<usize> = 1000..=100_000;

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// Errors of loading, saving and editing the configuration.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot determine the home directory; pass --config-dir DIR")]
    NoHomeDir,
    #[error("cannot create config directory {}: {source}", .path.display())]
    CreateDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid JSON5. Line and column are 1-based.
    #[error("{}:{line}:{column}: invalid JSON5: {message} (the file was left unchanged)", .path.display())]
    Syntax {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// Valid JSON5, but not a valid configuration (wrong type, unknown enum value...).
    #[error("{}{}: invalid configuration: {message} (the file was left unchanged)", .path.display(), fmt_position(.position))]
    Invalid {
        path: PathBuf,
        /// 1-based (line, column) when known.
        position: Option<(usize, usize)>,
        message: String,
    },
    #[error("{}: config version {version:?} is not supported by this build (it understands up to {CONFIG_VERSION}); the file was left unchanged", .path.display())]
    UnsupportedVersion { path: PathBuf, version: String },
    #[error("cannot serialize the configuration for {}: {source}", .path.display())]
    Serialize {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("path does not exist: {}", .path.display())]
    PathNotFound { path: PathBuf },
    #[error("cannot resolve path {}: {source}", .path.display())]
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
    paths
        .iter()
        .map(|p| format!("- {}", p.display()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn fmt_candidates(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        "no sources are configured; add one with: vibe-analyzer source add PATH".to_string()
    } else {
        format!("configured sources:\n{}", fmt_list(paths))
    }
}

// ---------------------------------------------------------------------------
// Model
// ---------------------------------------------------------------------------

/// The whole configuration. Every field has a default, so missing sections of
/// the file are filled in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    pub version: String,
    pub opensearch: OpenSearchConfig,
    pub mcp: McpConfig,
    /// Ollama hosts used for LLM enrichment; empty = no enrichment.
    pub ollama: Vec<OllamaHost>,
    /// Source directories, absolute (relative entries of the file are resolved
    /// against the config directory).
    pub sources: Vec<PathBuf>,
    pub dev: Option<DevConfig>,
    /// Values replaced by environment variables at load time; [`Config::save`]
    /// writes the file's own values back instead of the overrides.
    #[serde(skip)]
    pub env_overrides: EnvOverrides,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            version: CONFIG_VERSION.to_string(),
            opensearch: OpenSearchConfig::default(),
            mcp: McpConfig::default(),
            ollama: Vec::new(),
            sources: Vec::new(),
            dev: None,
            env_overrides: EnvOverrides::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OpenSearchConfig {
    pub host: String,
    pub username: Option<String>,
    pub password: Option<String>,
    /// PEM file of a custom CA (absolute after loading).
    pub ca_cert: Option<PathBuf>,
    /// Skip TLS certificate verification.
    pub insecure: bool,
    pub index_prefix: String,
}

impl Default for OpenSearchConfig {
    fn default() -> Self {
        Self {
            host: DEFAULT_OPENSEARCH_HOST.to_string(),
            username: None,
            password: None,
            ca_cert: None,
            insecure: false,
            index_prefix: DEFAULT_INDEX_PREFIX.to_string(),
        }
    }
}

/// MCP protocol revision offered by the gateway.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum McpProtocol {
    #[serde(rename = "2024-11-05")]
    V2024_11_05,
    #[serde(rename = "2025-03-26")]
    V2025_03_26,
    #[serde(rename = "2025-06-18")]
    V2025_06_18,
    #[serde(rename = "2025-11-25")]
    V2025_11_25,
    /// The newest revision this build supports (see [`McpProtocol::resolve`]).
    #[default]
    #[serde(rename = "latest")]
    Latest,
}

impl McpProtocol {
    pub const ALL: [McpProtocol; 5] = [
        Self::V2024_11_05,
        Self::V2025_03_26,
        Self::V2025_06_18,
        Self::V2025_11_25,
        Self::Latest,
    ];

    /// The string used in the config file (`"latest"` for [`McpProtocol::Latest`]).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::V2024_11_05 => "2024-11-05",
            Self::V2025_03_26 => "2025-03-26",
            Self::V2025_06_18 => "2025-06-18",
            Self::V2025_11_25 => "2025-11-25",
            Self::Latest => "latest",
        }
    }

    /// A concrete revision: `Latest` becomes the newest dated one.
    pub fn resolve(self) -> McpProtocol {
        match self {
            Self::Latest => Self::V2025_11_25,
            other => other,
        }
    }
}

impl std::fmt::Display for McpProtocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for McpProtocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| {
                let all: Vec<_> = Self::ALL.iter().map(|p| p.as_str()).collect();
                format!(
                    "unknown MCP protocol {s:?}, expected one of {}",
                    all.join(", ")
                )
            })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct McpConfig {
    pub host: String,
    pub port: u16,
    pub protocol: McpProtocol,
    /// Extra accepted `Host` header values; empty = loopback only.
    pub allowed_hosts: Vec<String>,
    /// Accepted browser `Origin`s; empty = none.
    pub allowed_origins: Vec<String>,
    /// Bearer token required from clients (overridden by `VIBE_MCP_TOKEN`).
    pub token: Option<String>,
}

impl Default for McpConfig {
    fn default() -> Self {
        Self {
            host: DEFAULT_MCP_HOST.to_string(),
            port: DEFAULT_MCP_PORT,
            protocol: McpProtocol::Latest,
            allowed_hosts: Vec::new(),
            allowed_origins: Vec::new(),
            token: None,
        }
    }
}

/// One Ollama host and the settings of the LLM requests sent to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OllamaHost {
    pub host: String,
    pub model: String,
    /// Characters of source per LLM request (clamped to 1000..=100000).
    pub max_chunk_chars: usize,
    /// Files per LLM request (at least 1).
    pub max_chunk_files: usize,
    pub timeout_secs: u64,
    /// Clamped to 0..=1.
    pub temperature: f64,
    pub seed: i64,
    pub num_ctx: u32,
    /// Ollama semantics: -1 = unlimited, -2 = fill the context.
    pub num_predict: i32,
    pub ast_imports: bool,
    pub ast_variables: bool,
    pub ast_functions: bool,
    pub ast_enums: bool,
    pub ast_interfaces: bool,
}

impl Default for OllamaHost {
    fn default() -> Self {
        Self {
            host: DEFAULT_OLLAMA_HOST.to_string(),
            model: DEFAULT_OLLAMA_MODEL.to_string(),
            max_chunk_chars: 4000,
            max_chunk_files: 3,
            timeout_secs: 60,
            temperature: 0.1,
            seed: 42,
            num_ctx: 4096,
            num_predict: 2048,
            ast_imports: false,
            ast_variables: false,
            ast_functions: true,
            ast_enums: true,
            ast_interfaces: true,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DevConfig {
    /// tracing filter, e.g. `"debug"` or `"vibe_ingest=trace"` (`RUST_LOG` wins).
    pub log_level: Option<String>,
}

/// Values of the file that were replaced by environment variables, as
/// `(value in the file, value from the environment)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EnvOverrides {
    pub opensearch_host: Option<(String, String)>,
    pub mcp_token: Option<(Option<String>, String)>,
}

/// Result of [`Config::add_source`]; both carry the canonical absolute path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddOutcome {
    Added(PathBuf),
    AlreadyPresent(PathBuf),
}

impl AddOutcome {
    pub fn path(&self) -> &Path {
        match self {
            Self::Added(p) | Self::AlreadyPresent(p) => p,
        }
    }
}

// ---------------------------------------------------------------------------
// Load / create / save
// ---------------------------------------------------------------------------

impl Config {
    /// `~/.vibe-analyzer`.
    pub fn default_dir() -> Result<PathBuf, ConfigError> {
        dirs::home_dir()
            .map(|home| home.join(DEFAULT_DIR_NAME))
            .ok_or(ConfigError::NoHomeDir)
    }

    /// Loads `<dir>/config.json5` (dir defaults to [`Config::default_dir`]),
    /// creating the directory and a commented default file when missing.
    /// Returns the validated config (env overrides applied) and the file path.
    pub fn load_or_create(config_dir: Option<&Path>) -> Result<(Config, PathBuf), ConfigError> {
        let dir = match config_dir {
            Some(dir) => absolute(dir),
            None => Self::default_dir()?,
        };
        std::fs::create_dir_all(&dir).map_err(|source| ConfigError::CreateDir {
            path: dir.clone(),
            source,
        })?;
        let path = dir.join(CONFIG_FILE_NAME);
        let mut config = match std::fs::read(&path) {
            Ok(bytes) => Self::load_bytes(&path, &dir, &bytes)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let config = Config::default();
                config.save(&path)?;
                tracing::info!(path = %path.display(), "created default configuration");
                config
            }
            Err(source) => return Err(ConfigError::Read { path, source }),
        };
        config.apply_env_overrides();
        Ok((config, path))
    }

    /// Loads an existing file without creating, migrating on disk or applying
    /// env overrides (a migrated config is returned in memory only).
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let path = absolute(path);
        let bytes = std::fs::read(&path).map_err(|source| ConfigError::Read {
            path: path.clone(),
            source,
        })?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let (config, _) = Self::parse(&path, &dir, &bytes)?;
        Ok(config)
    }

    /// Parses + validates; migrates older files on disk (with a backup).
    fn load_bytes(path: &Path, dir: &Path, bytes: &[u8]) -> Result<Config, ConfigError> {
        let (config, migrated_from) = Self::parse(path, dir, bytes)?;
        if let Some(old) = migrated_from {
            let backup = dir.join(BACKUP_FILE_NAME);
            match write_atomic(&backup, bytes).and_then(|()| config.save(path)) {
                Ok(()) => tracing::warn!(
                    "migrated {} from version {old} to {CONFIG_VERSION} (old file kept as {})",
                    path.display(),
                    backup.display()
                ),
                Err(e) => tracing::warn!(
                    "config {} migrated from version {old} in memory only: {e}",
                    path.display()
                ),
            }
        }
        Ok(config)
    }

    /// Returns the config and, when the file was migrated, its old version.
    fn parse(
        path: &Path,
        dir: &Path,
        bytes: &[u8],
    ) -> Result<(Config, Option<String>), ConfigError> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let (line, column) = line_col(bytes, e.valid_up_to());
            ConfigError::Syntax {
                path: path.to_path_buf(),
                line,
                column,
                message: "the file is not valid UTF-8".to_string(),
            }
        })?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut value: Value = json5::from_str(text).map_err(|e| {
            let (line, column) = position_of(&e);
            ConfigError::Syntax {
                path: path.to_path_buf(),
                line,
                column,
                message: message_of(&e),
            }
        })?;
        let Value::Object(obj) = &mut value else {
            return Err(ConfigError::Invalid {
                path: path.to_path_buf(),
                position: Some((1, 1)),
                message: "the top level must be an object `{ ... }`".to_string(),
            });
        };
        let version = match obj.get("version") {
            None | Some(Value::Null) => CONFIG_VERSION.to_string(),
            Some(Value::String(s)) => s.trim().to_string(),
            Some(other) => {
                return Err(ConfigError::Invalid {
                    path: path.to_path_buf(),
                    position: None,
                    message: format!("`version` must be a string, found {other}"),
                })
            }
        };
        let Some(parsed) = parse_version(&version) else {
            return Err(ConfigError::Invalid {
                path: path.to_path_buf(),
                position: None,
                message: format!("`version` {version:?} is not of the form MAJOR.MINOR.PATCH"),
            });
        };
        let current = parse_version(CONFIG_VERSION).expect("valid CONFIG_VERSION");
        if parsed > current {
            return Err(ConfigError::UnsupportedVersion {
                path: path.to_path_buf(),
                version,
            });
        }
        for key in unknown_keys(&value) {
            tracing::warn!("{}: unknown key `{key}` ignored", path.display());
        }

        let (mut config, migrated_from) = if parsed < current {
            let Value::Object(obj) = &mut value else {
                unreachable!()
            };
            migrate(obj, parsed);
            let config: Config =
                serde_json::from_value(value).map_err(|e| ConfigError::Invalid {
                    path: path.to_path_buf(),
                    position: None,
                    message: e.to_string(),
                })?;
            (config, Some(version))
        } else {
            // Deserialize from the text so type errors carry a position.
            let config: Config = json5::from_str(text).map_err(|e| ConfigError::Invalid {
                path: path.to_path_buf(),
                position: e.position().map(|p| (p.line + 1, p.column + 1)),
                message: message_of(&e),
            })?;
            (config, None)
        };
        for warning in config.validate(dir) {
            tracing::warn!("{}: {warning}", path.display());
        }
        Ok((config, migrated_from))
    }

    /// Writes the config as commented JSON5, atomically (temp file + rename).
    /// Environment overrides are not persisted: the file's values are written.
    pub fn save(&self, path: &Path) -> Result<(), ConfigError> {
        let text = self
            .file_view()
            .to_json5_string()
            .map_err(|source| ConfigError::Serialize {
                path: path.to_path_buf(),
                source,
            })?;
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| ConfigError::CreateDir {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        write_atomic(path, text.as_bytes())
    }

    /// The config as it should be stored: env overrides replaced by the file's values.
    fn file_view(&self) -> std::borrow::Cow<'_, Config> {
        let ov = &self.env_overrides;
        if ov.opensearch_host.is_none() && ov.mcp_token.is_none() {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut c = self.clone();
        if let Some((file, env)) = &ov.opensearch_host {
            if &c.opensearch.host == env {
                c.opensearch.host = file.clone();
            }
        }
        if let Some((file, env)) = &ov.mcp_token {
            if c.mcp.token.as_ref() == Some(env) {
                c.mcp.token = file.clone();
            }
        }
        c.env_overrides = EnvOverrides::default();
        std::borrow::Cow::Owned(c)
    }

    /// Applies `VIBE_OPENSEARCH_URL` and `VIBE_MCP_TOKEN` (empty values are ignored).
    pub fn apply_env_overrides(&mut self) {
        self.apply_overrides_from(|name| std::env::var(name).ok());
    }

    /// [`Config::apply_env_overrides`] with a custom variable lookup (for tests).
    pub fn apply_overrides_from(&mut self, get: impl Fn(&str) -> Option<String>) {
        let get = |name| {
            get(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        if let Some(url) = get(ENV_OPENSEARCH_URL) {
            let file = match self.env_overrides.opensearch_host.take() {
                Some((file, _)) => file,
                None => self.opensearch.host.clone(),
            };
            self.opensearch.host = url.clone();
            self.env_overrides.opensearch_host = Some((file, url));
        }
        if let Some(token) = get(ENV_MCP_TOKEN) {
            let file = match self.env_overrides.mcp_token.take() {
                Some((file, _)) => file,
                None => self.mcp.token.clone(),
            };
            self.mcp.token = Some(token.clone());
            self.env_overrides.mcp_token = Some((file, token));
        }
    }

    /// tracing filter from `dev.log_level`, `"warn"` when unset.
    pub fn log_level(&self) -> &str {
        self.dev
            .as_ref()
            .and_then(|d| d.log_level.as_deref())
            .unwrap_or(DEFAULT_LOG_LEVEL)
    }

    // -----------------------------------------------------------------------
    // Validation
    // -----------------------------------------------------------------------

    /// Replaces invalid values with safe defaults, clamps ranges, resolves
    /// relative paths against `config_dir` and dedupes sources. Returns a
    /// description of every change (the loader logs them as warnings).
    pub fn validate(&mut self, config_dir: &Path) -> Vec<String> {
        let mut w = Vec::new();
        let config_dir = absolute(config_dir);
        self.version = CONFIG_VERSION.to_string();

        // opensearch
        let os = &mut self.opensearch;
        let host = os.host.trim().trim_end_matches('/').to_string();
        let host_ok = url::Url::parse(&host)
            .map(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
            .unwrap_or(false);
        if host_ok {
            os.host = host;
        } else {
            w.push(format!(
                "opensearch.host {:?} is not an http(s) URL, using {DEFAULT_OPENSEARCH_HOST}",
                os.host
            ));
            os.host = DEFAULT_OPENSEARCH_HOST.to_string();
        }
        empty_to_none(&mut os.username);
        empty_to_none(&mut os.password);
        if let Some(ca) = &os.ca_cert {
            if ca.as_os_str().is_empty() {
                os.ca_cert = None;
            } else {
                os.ca_cert = Some(normalize(&config_dir.join(ca)));
            }
        }
        let prefix = os.index_prefix.trim().to_lowercase();
        if is_valid_index_prefix(&prefix) {
            if prefix != os.index_prefix {
                w.push(format!(
                    "opensearch.index_prefix {:?} lowercased to {prefix:?}",
                    os.index_prefix
                ));
            }
            os.index_prefix = prefix;
        } else {
            w.push(format!(
                "opensearch.index_prefix {:?} is not a valid index name prefix, using {DEFAULT_INDEX_PREFIX:?}",
                os.index_prefix
            ));
            os.index_prefix = DEFAULT_INDEX_PREFIX.to_string();
        }

        // mcp
        let mcp = &mut self.mcp;
        let host = mcp.host.trim().to_string();
        if host.is_empty() {
            w.push(format!("mcp.host is empty, using {DEFAULT_MCP_HOST}"));
            mcp.host = DEFAULT_MCP_HOST.to_string();
        } else {
            mcp.host = host;
        }
        if mcp.port == 0 {
            w.push(format!(
                "mcp.port 0 is not allowed, using {DEFAULT_MCP_PORT}"
            ));
            mcp.port = DEFAULT_MCP_PORT;
        }
        clean_list(&mut mcp.allowed_hosts);
        clean_list(&mut mcp.allowed_origins);
        empty_to_none(&mut mcp.token);

        // ollama
        let defaults = OllamaHost::default();
        for (i, o) in self.ollama.iter_mut().enumerate() {
            let name = format!("ollama[{i}]");
            let host = o.host.trim().trim_end_matches('/').to_string();
            if host.is_empty() {
                w.push(format!("{name}.host is empty, using {DEFAULT_OLLAMA_HOST}"));
                o.host = DEFAULT_OLLAMA_HOST.to_string();
            } else {
                o.host = host;
            }
            if o.model.trim().is_empty() {
                w.push(format!(
                    "{name}.model is empty, using {DEFAULT_OLLAMA_MODEL}"
                ));
                o.model = DEFAULT_OLLAMA_MODEL.to_string();
            }
            let range = MAX_CHUNK_CHARS_RANGE;
            let clamped = o.max_chunk_chars.clamp(*range.start(), *range.end());
            if clamped != o.max_chunk_chars {
                w.push(format!(
                    "{name}.max_chunk_chars {} clamped to {clamped} (allowed {}..={})",
                    o.max_chunk_chars,
                    range.start(),
                    range.end()
                ));
                o.max_chunk_chars = clamped;
            }
            if o.max_chunk_files == 0 {
                w.push(format!("{name}.max_chunk_files 0 raised to 1"));
                o.max_chunk_files = 1;
            }
            if o.timeout_secs == 0 {
                w.push(format!(
                    "{name}.timeout_secs 0 replaced by {}",
                    defaults.timeout_secs
                ));
                o.timeout_secs = defaults.timeout_secs;
            }
            if !o.temperature.is_finite() {
                w.push(format!(
                    "{name}.temperature is not a number, using {}",
                    defaults.temperature
                ));
                o.temperature = defaults.temperature;
            } else if !(0.0..=1.0).contains(&o.temperature) {
                let clamped = o.temperature.clamp(0.0, 1.0);
                w.push(format!(
                    "{name}.temperature {} clamped to {clamped}",
                    o.temperature
                ));
                o.temperature = clamped;
            }
            if o.num_ctx == 0 {
                w.push(format!("{name}.num_ctx 0 replaced by {}", defaults.num_ctx));
                o.num_ctx = defaults.num_ctx;
            }
            if o.num_predict == 0 || o.num_predict < -2 {
                w.push(format!(
                    "{name}.num_predict {} replaced by {}",
                    o.num_predict, defaults.num_predict
                ));
                o.num_predict = defaults.num_predict;
            }
        }

        // sources: absolute against the config dir, normalized, deduped.
        let mut sources: Vec<PathBuf> = Vec::with_capacity(self.sources.len());
        for s in &self.sources {
            if s.as_os_str().is_empty() {
                w.push("empty entry in sources removed".to_string());
                continue;
            }
            let abs = normalize(&config_dir.join(s));
            if sources.iter().any(|existing| same_path(existing, &abs)) {
                w.push(format!("duplicate source {} removed", abs.display()));
                continue;
            }
            if !abs.exists() {
                w.push(format!("source {} does not exist", abs.display()));
            }
            sources.push(abs);
        }
        self.sources = sources;

        // dev
        if let Some(dev) = &mut self.dev {
            empty_to_none(&mut dev.log_level);
        }
        w
    }

    // -----------------------------------------------------------------------
    // Sources
    // -----------------------------------------------------------------------

    /// Adds an existing path (relative paths are taken from the current
    /// directory), stored canonicalized. Does not save.
    pub fn add_source(&mut self, path: impl AsRef<Path>) -> Result<AddOutcome, ConfigError> {
        let path = path.as_ref();
        if !path.exists() {
            return Err(ConfigError::PathNotFound {
                path: path.to_path_buf(),
            });
        }
        let canonical =
            std::fs::canonicalize(path).map_err(|source| ConfigError::Canonicalize {
                path: path.to_path_buf(),
                source,
            })?;
        if let Some(existing) = self.sources.iter().find(|s| same_path(s, &canonical)) {
            return Ok(AddOutcome::AlreadyPresent(existing.clone()));
        }
        self.sources.push(canonical.clone());
        Ok(AddOutcome::Added(canonical))
    }

    /// Finds a configured source by path (absolute, or relative to the current
    /// directory) or by directory name when that name is unique.
    pub fn resolve_source(&self, path_or_name: &str) -> Result<PathBuf, ConfigError> {
        let target = path_or_name.trim();
        let unknown = || ConfigError::UnknownSource {
            target: path_or_name.to_string(),
            candidates: self.sources.clone(),
        };
        if target.is_empty() {
            return Err(unknown());
        }
        let looks_like_path = target.contains('/')
            || target.contains(std::path::MAIN_SEPARATOR)
            || target == "."
            || target == ".."
            || Path::new(target).is_absolute();
        if !looks_like_path {
            let matches: Vec<PathBuf> = self
                .sources
                .iter()
                .filter(|s| s.file_name().is_some_and(|n| n == target))
                .cloned()
                .collect();
            match matches.len() {
                0 => {}
                1 => return Ok(matches.into_iter().next().unwrap()),
                _ => {
                    return Err(ConfigError::AmbiguousSource {
                        name: target.to_string(),
                        candidates: matches,
                    })
                }
            }
        }
        let candidate = normalize(&absolute(Path::new(target)));
        self.sources
            .iter()
            .find(|s| same_path(s, &candidate))
            .cloned()
            .ok_or_else(unknown)
    }

    /// Removes a source found by [`Config::resolve_source`]; returns its path.
    /// Does not save.
    pub fn remove_source(&mut self, path_or_name: &str) -> Result<PathBuf, ConfigError> {
        let path = self.resolve_source(path_or_name)?;
        self.sources.retain(|s| s != &path);
        Ok(path)
    }

    // -----------------------------------------------------------------------
    // Rendering
    // -----------------------------------------------------------------------

    /// Renders the config as JSON5 with short comments (as written by [`Config::save`],
    /// but including env overrides if any are applied).
    pub fn to_json5_string(&self) -> Result<String, serde_json::Error> {
        let mut s = String::new();
        let os = &self.opensearch;
        let mcp = &self.mcp;
        let protocols: Vec<_> = McpProtocol::ALL.iter().map(|p| p.as_str()).collect();
        // `write!` into a String cannot fail.
        let _ = writeln!(
            s,
            "// Vibe Analyzer configuration (JSON5: comments and trailing commas are allowed)."
        );
        let _ = writeln!(s, "// Relative paths (sources, opensearch.ca_cert) are resolved against this file's directory.");
        let _ = writeln!(s, "// This file is rewritten by `vibe-analyzer source add|remove`: comments are not kept.");
        s.push_str("{\n");
        let _ = writeln!(
            s,
            "  // Config format version; older files are migrated (a .bak copy is kept)."
        );
        let _ = writeln!(s, "  version: {},", to_json(&self.version)?);
        s.push('\n');
        let _ = writeln!(s, "  // OpenSearch cluster holding the indexes.");
        s.push_str("  opensearch: {\n");
        let _ = writeln!(
            s,
            "    host: {}, // overridden by ${ENV_OPENSEARCH_URL}",
            to_json(&os.host)?
        );
        let _ = writeln!(s, "    username: {},", to_json(&os.username)?);
        let _ = writeln!(s, "    password: {},", to_json(&os.password)?);
        let _ = writeln!(
            s,
            "    ca_cert: {}, // PEM file of a custom CA",
            to_json(&os.ca_cert)?
        );
        let _ = writeln!(
            s,
            "    insecure: {}, // true = skip TLS certificate checks (testing only)",
            to_json(&os.insecure)?
        );
        let _ = writeln!(
            s,
            "    index_prefix: {}, // prefix of every index name",
            to_json(&os.index_prefix)?
        );
        s.push_str("  },\n\n");
        let _ = writeln!(s, "  // MCP gateway (`vibe-analyzer serve start`).");
        s.push_str("  mcp: {\n");
        let _ = writeln!(
            s,
            "    host: {}, // listen address; keep loopback unless you need remote access",
            to_json(&mcp.host)?
        );
        let _ = writeln!(s, "    port: {},", to_json(&mcp.port)?);
        let _ = writeln!(
            s,
            "    protocol: {}, // {}",
            to_json(&mcp.protocol)?,
            protocols.join(" | ")
        );
        let _ = writeln!(
            s,
            "    allowed_hosts: {}, // extra accepted Host headers; empty = loopback only",
            render_list(&mcp.allowed_hosts, 4)?
        );
        let _ = writeln!(
            s,
            "    allowed_origins: {}, // accepted browser Origins; empty = none",
            render_list(&mcp.allowed_origins, 4)?
        );
        let _ = writeln!(
            s,
            "    token: {}, // bearer token required from clients; overridden by ${ENV_MCP_TOKEN}",
            to_json(&mcp.token)?
        );
        s.push_str("  },\n\n");
        let _ = writeln!(
            s,
            "  // Ollama hosts for LLM enrichment (`scan index`); empty = no enrichment."
        );
        if self.ollama.is_empty() {
            s.push_str("  ollama: [\n");
            let example = render_ollama_host(&OllamaHost::default())?;
            for line in example.lines() {
                let _ = writeln!(s, "    // {line}");
            }
            s.push_str("  ],\n\n");
        } else {
            s.push_str("  ollama: [\n");
            for host in &self.ollama {
                for line in render_ollama_host(host)?.lines() {
                    let _ = writeln!(s, "    {line}");
                }
            }
            s.push_str("  ],\n\n");
        }
        let _ = writeln!(
            s,
            "  // Source directories (`vibe-analyzer source add|remove|list`)."
        );
        let _ = writeln!(s, "  sources: {},", render_list(&self.sources, 2)?);
        s.push('\n');
        let _ = writeln!(
            s,
            "  // Developer settings; log_level is a tracing filter (RUST_LOG wins)."
        );
        match &self.dev {
            None => s.push_str("  // dev: { log_level: \"debug\" },\n"),
            Some(dev) => {
                let _ = writeln!(s, "  dev: {{ log_level: {} }},", to_json(&dev.log_level)?);
            }
        }
        s.push_str("}\n");
        Ok(s)
    }
}

/// Compact JSON of one value (valid JSON5).
fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string(value)
}

fn render_list<T: Serialize>(items: &[T], indent: usize) -> Result<String, serde_json::Error> {
    if items.is_empty() {
        return Ok("[]".to_string());
    }
    let pad = " ".repeat(indent + 2);
    let mut s = String::from("[\n");
    for item in items {
        let _ = writeln!(s, "{pad}{},", serde_json::to_string(item)?);
    }
    let _ = write!(s, "{}]", " ".repeat(indent));
    Ok(s)
}

fn render_ollama_host(o: &OllamaHost) -> Result<String, serde_json::Error> {
    let mut s = String::from("{\n");
    let _ = writeln!(s, "  host: {},", to_json(&o.host)?);
    let _ = writeln!(s, "  model: {},", to_json(&o.model)?);
    let _ = writeln!(
        s,
        "  max_chunk_chars: {}, // per LLM request, 1000..=100000",
        to_json(&o.max_chunk_chars)?
    );
    let _ = writeln!(
        s,
        "  max_chunk_files: {}, // files per LLM request, >= 1",
        to_json(&o.max_chunk_files)?
    );
    let _ = writeln!(s, "  timeout_secs: {},", to_json(&o.timeout_secs)?);
    let _ = writeln!(s, "  temperature: {}, // 0..=1", to_json(&o.temperature)?);
    let _ = writeln!(s, "  seed: {},", to_json(&o.seed)?);
    let _ = writeln!(
        s,
        "  num_ctx: {}, // context window (tokens)",
        to_json(&o.num_ctx)?
    );
    let _ = writeln!(
        s,
        "  num_predict: {}, // max generated tokens",
        to_json(&o.num_predict)?
    );
    let _ = writeln!(s, "  // AST elements sent to the LLM:");
    let _ = writeln!(s, "  ast_imports: {},", to_json(&o.ast_imports)?);
    let _ = writeln!(s, "  ast_variables: {},", to_json(&o.ast_variables)?);
    let _ = writeln!(s, "  ast_functions: {},", to_json(&o.ast_functions)?);
    let _ = writeln!(s, "  ast_enums: {},", to_json(&o.ast_enums)?);
    let _ = writeln!(s, "  ast_interfaces: {},", to_json(&o.ast_interfaces)?);
    s.push_str("},\n");
    Ok(s)
}

// ---------------------------------------------------------------------------
// Migration
// ---------------------------------------------------------------------------

type Version = (u64, u64, u64);

fn parse_version(s: &str) -> Option<Version> {
    let mut parts = s.split('.').map(|p| p.parse::<u64>().ok());
    let v = (parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(v)
}

/// Migration steps in order: `(target version, step)`. A file older than a
/// target runs that step. The last target must be [`CONFIG_VERSION`].
type MigrationStep = fn(&mut Map<String, Value>);

const MIGRATIONS: &[(&str, MigrationStep)] = &[("0.1.0", migrate_to_0_1_0)];

fn migrate(obj: &mut Map<String, Value>, from: Version) {
    let mut current = from;
    for (target, step) in MIGRATIONS {
        let target_v = parse_version(target).expect("valid migration version");
        if current < target_v {
            step(obj);
            obj.insert("version".to_string(), Value::String(target.to_string()));
            current = target_v;
        }
    }
}

/// 0.0.x (the original format) -> 0.1.0:
/// * `mcp.host "0.0.0.0"` (the old default, listening on every interface)
///   becomes loopback: 0.1.0 only accepts loopback `Host` headers unless
///   `mcp.allowed_hosts` is set, so remote access must be opted into again.
/// * `opensearch.index_prefix` is added (`"vibe"`), `dev` stays absent.
/// * A single `ollama` object (not a list) is wrapped into a list.
fn migrate_to_0_1_0(obj: &mut Map<String, Value>) {
    if let Some(Value::Object(mcp)) = obj.get_mut("mcp") {
        if mcp.get("host").and_then(Value::as_str) == Some("0.0.0.0") {
            tracing::warn!("migration: mcp.host 0.0.0.0 changed to {DEFAULT_MCP_HOST} (set mcp.host and mcp.allowed_hosts for remote access)");
            mcp.insert(
                "host".to_string(),
                Value::String(DEFAULT_MCP_HOST.to_string()),
            );
        }
    }
    if let Some(Value::Object(os)) = obj.get_mut("opensearch") {
        os.entry("index_prefix")
            .or_insert_with(|| Value::String(DEFAULT_INDEX_PREFIX.to_string()));
    }
    match obj.get("ollama") {
        Some(Value::Object(_)) => {
            let single = obj.remove("ollama").unwrap();
            obj.insert("ollama".to_string(), Value::Array(vec![single]));
        }
        Some(Value::Null) => {
            obj.remove("ollama");
        }
        _ => {}
    }
}

/// Dotted keys present in `value` but unknown to [`Config`].
fn unknown_keys(value: &Value) -> Vec<String> {
    let reference = Config {
        ollama: vec![OllamaHost::default()],
        dev: Some(DevConfig::default()),
        ..Config::default()
    };
    let reference = serde_json::to_value(&reference).expect("config serializes");
    let mut out = Vec::new();
    collect_unknown(value, &reference, "", &mut out);
    out
}

fn collect_unknown(value: &Value, reference: &Value, prefix: &str, out: &mut Vec<String>) {
    match (value, reference) {
        (Value::Object(v), Value::Object(r)) => {
            for (k, child) in v {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                match r.get(k) {
                    Some(rc) => collect_unknown(child, rc, &key, out),
                    None => out.push(key),
                }
            }
        }
        (Value::Array(v), Value::Array(r)) => {
            if let Some(rc @ Value::Object(_)) = r.first() {
                for (i, child) in v.iter().enumerate() {
                    collect_unknown(child, rc, &format!("{prefix}[{i}]"), out);
                }
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn position_of(e: &json5::Error) -> (usize, usize) {
    e.position()
        .map(|p| (p.line + 1, p.column + 1))
        .unwrap_or((1, 1))
}

/// The error message without json5's " at line X column Y" suffix.
fn message_of(e: &json5::Error) -> String {
    let text = e.to_string();
    match e.position() {
        Some(p) => text
            .strip_suffix(&format!(" at {p}"))
            .map(str::to_string)
            .unwrap_or(text),
        None => text,
    }
}

/// 1-based line and column of a byte offset.
fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

fn empty_to_none(v: &mut Option<String>) {
    if v.as_deref().is_some_and(|s| s.trim().is_empty()) {
        *v = None;
    }
}

fn clean_list(list: &mut Vec<String>) {
    let mut seen = Vec::with_capacity(list.len());
    for item in list.drain(..) {
        let item = item.trim().to_string();
        if !item.is_empty() && !seen.contains(&item) {
            seen.push(item);
        }
    }
    *list = seen;
}

fn is_valid_index_prefix(p: &str) -> bool {
    !p.is_empty()
        && p.len() <= 100
        && !p.starts_with(['_', '-', '+', '.'])
        && p.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.'))
}

/// Absolute path against the current directory (no symlink resolution).
fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        normalize(p)
    } else {
        match std::env::current_dir() {
            Ok(cwd) => normalize(&cwd.join(p)),
            Err(_) => normalize(p),
        }
    }
}

/// Lexical normalization: drops `.` and resolves `..` without touching the disk.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(".."),
            },
            other => out.push(other),
        }
    }
    out
}

/// Same path lexically, or the same file once symlinks are resolved.
fn same_path(a: &Path, b: &Path) -> bool {
    if normalize(a) == normalize(b) {
        return true;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to a temporary file next to `path`, then renames it over
/// `path`. New files get mode 0600 on Unix (the config may hold passwords);
/// existing files keep their permissions.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ConfigError> {
    let err = |source| ConfigError::Write {
        path: path.to_path_buf(),
        source,
    };
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(
        ".{name}.tmp-{}-{}",
        std::process::id(),
        TMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| -> std::io::Result<()> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(&tmp)?;
        file.write_all(bytes)?;
        if let Ok(meta) = std::fs::metadata(path) {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)?;
        #[cfg(unix)]
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(err)
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, text: &str) -> PathBuf {
        let path = dir.join(CONFIG_FILE_NAME);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn load(dir: &Path) -> Result<Config, ConfigError> {
        Config::load_or_create(Some(dir)).map(|(c, _)| c)
    }

    #[test]
    fn creates_commented_default_file() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("nested/cfg");
        let (config, path) = Config::load_or_create(Some(&dir)).unwrap();
        assert_eq!(path, dir.join(CONFIG_FILE_NAME));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("// "), "has comments");
        assert!(text.contains("// {"), "commented-out ollama example");
        let value: Value = json5::from_str(&text).unwrap();
        assert_eq!(value["version"], CONFIG_VERSION);
        assert_eq!(value["ollama"], Value::Array(vec![]));
        assert_eq!(value["sources"], Value::Array(vec![]));
        assert!(config.ollama.is_empty());
        let mut expected = Config { env_overrides: config.env_overrides.clone(), ..Config::default() };
        expected.opensearch.host = config.opensearch.host.clone();
        expected.mcp.token = config.mcp.token.clone();
        assert_eq!(config, expected);
        // Second run reads the same file back.
        let again = Config::load(&path).unwrap();
        assert_eq!(again, Config::default());
    }

    #[test]
    fn full_config_round_trips() {
        let tmp = tempfile::tempdir().unwrap();
        let config = Config {
            opensearch: OpenSearchConfig {
                host: "https://search.example:9200".into(),
                username: Some("admin".into()),
                password: Some("p\"a'ss\\word // not a comment".into()),
                ca_cert: Some(tmp.path().join("ca.pem")),
                insecure: true,
                index_prefix: "team-a".into(),
            },
            mcp: McpConfig {
                host: "0.0.0.0".into(),
                port: 8080,
                protocol: McpProtocol::V2025_06_18,
                allowed_hosts: vec!["vibe.example".into()],
                allowed_origins: vec!["https://a.example".into(), "https://b.example".into()],
                token: Some("sëcret".into()),
            },
            ollama: vec![
                OllamaHost::default(),
                OllamaHost {
                    host: "http://gpu:11434".into(),
                    model: "llama3".into(),
                    max_chunk_chars: 12345,
                    temperature: 0.75,
                    seed: -3,
                    num_predict: -1,
                    ast_imports: true,
                    ..OllamaHost::default()
                },
            ],
            sources: vec![tmp.path().join("a b"), tmp.path().join("ünï")],
            dev: Some(DevConfig {
                log_level: Some("vibe_ingest=debug".into()),
            }),
            ..Config::default()
        };
        let path = tmp.path().join(CONFIG_FILE_NAME);
        config.save(&path).unwrap();
        let loaded = Config::load(&path).unwrap();
        assert_eq!(loaded, config);
        // Rendering is stable.
        assert_eq!(
            loaded.to_json5_string().unwrap(),
            config.to_json5_string().unwrap()
        );
    }

    #[test]
    fn missing_sections_are_filled_in() {
        let tmp = tempfile::tempdir().unwrap();
        write(
            tmp.path(),
            "{ mcp: { port: 1234 }, ollama: [{ host: 'http://x:1' }] }",
        );
        let config = Config::load(&tmp.path().join(CONFIG_FILE_NAME)).unwrap();
        assert_eq!(config.version, CONFIG_VERSION);
        assert_eq!(config.mcp.port, 1234);
        assert_eq!(config.mcp.host, DEFAULT_MCP_HOST);
        assert_eq!(config.opensearch, OpenSearchConfig::default());
        assert_eq!(config.ollama.len(), 1);
        assert_eq!(config.ollama[0].host, "http://x:1");
        assert_eq!(config.ollama[0].model, DEFAULT_OLLAMA_MODEL);
        assert!(config.dev.is_none());
        assert_eq!(config.log_level(), "warn");
    }

    #[test]
    fn values_are_clamped() {
        let tmp = tempfile::tempdir().unwrap();
        write(
            tmp.path(),
            r#"{
              version: "0.1.0",
              ollama: [
                { max_chunk_chars: 10, max_chunk_files: 0, temperature: 5, num_ctx: 0, timeout_secs: 0 },
                { max_chunk_chars: 1000000000, temperature: -1 },
                { temperature: NaN, num_predict: -7 },
              ],
              mcp: { port: 0, token: "", allowed_hosts: [" a ", "a", ""] },
              opensearch: { index_prefix: "MyPrefix", host: "not a url" },
              dev: { log_level: "debug" },
            }"#,
        );
        let c = Config::load(&tmp.path().join(CONFIG_FILE_NAME)).unwrap();
        assert_eq!(c.ollama[0].max_chunk_chars, 1000);
        assert_eq!(c.ollama[0].max_chunk_files, 1);
        assert_eq!(c.ollama[0].temperature, 1.0);
        assert_eq!(c.ollama[0].num_ctx, 4096);
        assert_eq!(c.ollama[0].timeout_secs, 60);
        assert_eq!(c.ollama[1].max_chunk_chars, 100_000);
        assert_eq!(c.ollama[1].temperature, 0.0);
        assert_eq!(c.ollama[2].temperature, 0.1);
        assert_eq!(c.ollama[2].num_predict, 2048);
        assert_eq!(c.mcp.port, DEFAULT_MCP_PORT);
        assert_eq!(c.mcp.token, None);
        assert_eq!(c.mcp.allowed_hosts, vec!["a".to_string()]);
        assert_eq!(c.opensearch.index_prefix, "myprefix");
        assert_eq!(c.opensearch.host, DEFAULT_OPENSEARCH_HOST);
        assert_eq!(c.log_level(), "debug");
    }

    #[test]
    fn relative_paths_resolve_against_config_dir_and_dedupe() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("cfg");
        std::fs::create_dir_all(dir.join("proj")).unwrap();
        let abs = dir.join("proj");
        write(
            &dir,
            &format!(
                "{{ sources: ['proj', './proj', {:?}, '../other'], opensearch: {{ ca_cert: 'ca.pem' }} }}",
                abs.display().to_string()
            ),
        );
        let c = load(&dir).unwrap();
        assert_eq!(c.sources, vec![abs, tmp.path().join("other")]);
        assert_eq!(c.opensearch.ca_cert, Some(dir.join("ca.pem")));
    }

    #[test]
    fn invalid_json5_is_an_error_with_position_and_file_is_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        let text = "{\n  version: \"0.1.0\",\n  mcp: { port: 9020 \n  sources: [],\n}\n";
        let path = write(tmp.path(), text);
        let err = load(tmp.path()).unwrap_err();
        match &err {
            ConfigError::Syntax {
                path: p,
                line,
                column,
                ..
            } => {
                assert_eq!(p, &path);
                assert_eq!((*line, *column), (4, 3));
            }
            other => panic!("unexpected error {other:?}"),
        }
        let msg = err.to_string();
        assert!(msg.contains(&format!("{}:4:3", path.display())), "{msg}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        assert!(!tmp.path().join(BACKUP_FILE_NAME).exists());
    }

    #[test]
    fn wrong_type_is_an_error_with_position() {
        let tmp = tempfile::tempdir().unwrap();
        let text = "{\n  mcp: {\n    port: 'high',\n  },\n}\n";
        let path = write(tmp.path(), text);
        let err = load(tmp.path()).unwrap_err();
        assert!(
            matches!(
                err,
                ConfigError::Invalid {
                    position: Some((3, _)),
                    ..
                }
            ),
            "{err:?}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);

        write(tmp.path(), "{ mcp: { protocol: '1999-01-01' } }");
        let err = load(tmp.path()).unwrap_err();
        assert!(err.to_string().contains("1999-01-01"), "{err}");

        write(tmp.path(), "[1, 2]");
        assert!(matches!(
            load(tmp.path()).unwrap_err(),
            ConfigError::Invalid { .. }
        ));
    }

    #[test]
    fn newer_version_is_refused_and_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        let text = "{ version: '9.0.0' }";
        let path = write(tmp.path(), text);
        let err = load(tmp.path()).unwrap_err();
        assert!(
            matches!(err, ConfigError::UnsupportedVersion { .. }),
            "{err:?}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn migrates_0_0_1_file() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("src")).unwrap();
        let old = r#"// original Vibe Analyzer config
{
  "version": "0.0.1",
  "opensearch": { "host": "http://localhost:9200", "username": "admin", "password": "admin" },
  "mcp": { "host": "0.0.0.0", "port": 9021 },
  "ollama": [{ "host": "http://localhost:11434", "model": "llama3", "max_chunk_chars": 500 }],
  "sources": ["src"],
}
"#;
        let path = write(tmp.path(), old);
        let c = load(tmp.path()).unwrap();
        assert_eq!(c.version, CONFIG_VERSION);
        assert_eq!(c.mcp.host, DEFAULT_MCP_HOST);
        assert_eq!(c.mcp.port, 9021);
        assert_eq!(
            c.opensearch.host,
            std::env::var(ENV_OPENSEARCH_URL)
                .ok()
                .filter(|v| !v.trim().is_empty())
                .unwrap_or("http://localhost:9200".into())
        );
        assert_eq!(c.opensearch.username.as_deref(), Some("admin"));
        assert_eq!(c.opensearch.index_prefix, DEFAULT_INDEX_PREFIX);
        assert_eq!(c.ollama[0].model, "llama3");
        assert_eq!(c.ollama[0].max_chunk_chars, 1000);
        assert_eq!(c.sources, vec![tmp.path().join("src")]);
        // Backup holds the old bytes, the file is upgraded and valid JSON5.
        assert_eq!(
            std::fs::read_to_string(tmp.path().join(BACKUP_FILE_NAME)).unwrap(),
            old
        );
        let new_text = std::fs::read_to_string(&path).unwrap();
        let value: Value = json5::from_str(&new_text).unwrap();
        assert_eq!(value["version"], CONFIG_VERSION);
        assert_eq!(value["mcp"]["host"], DEFAULT_MCP_HOST);
        assert_eq!(value["opensearch"]["index_prefix"], DEFAULT_INDEX_PREFIX);
        assert_eq!(value["opensearch"]["host"], "http://localhost:9200");
        // Loading again is a no-op.
        load(tmp.path()).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), new_text);
    }

    #[test]
    fn migration_wraps_single_ollama_object() {
        let mut obj =
            json5::from_str::<Value>("{ version: '0.0.1', ollama: { host: 'http://h:1' } }")
                .unwrap();
        let Value::Object(map) = &mut obj else {
            unreachable!()
        };
        migrate(map, (0, 0, 1));
        let c: Config = serde_json::from_value(obj).unwrap();
        assert_eq!(c.version, CONFIG_VERSION);
        assert_eq!(c.ollama[0].host, "http://h:1");
    }

    #[test]
    fn env_overrides_are_not_saved() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(CONFIG_FILE_NAME);
        let mut c = Config::default();
        c.mcp.token = Some("file-token".into());
        c.apply_overrides_from(|name| match name {
            ENV_OPENSEARCH_URL => Some("http://env:9200".into()),
            ENV_MCP_TOKEN => Some("env-token".into()),
            _ => None,
        });
        assert_eq!(c.opensearch.host, "http://env:9200");
        assert_eq!(c.mcp.token.as_deref(), Some("env-token"));
        c.save(&path).unwrap();
        let saved = Config::load(&path).unwrap();
        assert_eq!(saved.opensearch.host, DEFAULT_OPENSEARCH_HOST);
        assert_eq!(saved.mcp.token.as_deref(), Some("file-token"));
        // Empty variables are ignored.
        let mut d = Config::default();
        d.apply_overrides_from(|_| Some("  ".into()));
        assert_eq!(d, Config::default());
    }

    #[test]
    fn source_add_resolve_remove() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        let a = root.join("a/x/app");
        let b = root.join("b/y/app");
        let lib = root.join("lib");
        for d in [&a, &b, &lib] {
            std::fs::create_dir_all(d).unwrap();
        }
        let mut c = Config::default();
        assert!(matches!(
            c.add_source(root.join("missing")),
            Err(ConfigError::PathNotFound { .. })
        ));
        assert_eq!(c.add_source(&a).unwrap(), AddOutcome::Added(a.clone()));
        assert_eq!(
            c.add_source(root.join("a/x/../x/app/.")).unwrap(),
            AddOutcome::AlreadyPresent(a.clone())
        );
        c.add_source(&b).unwrap();
        c.add_source(&lib).unwrap();
        assert_eq!(c.sources, vec![a.clone(), b.clone(), lib.clone()]);

        assert_eq!(c.resolve_source("lib").unwrap(), lib);
        assert_eq!(c.resolve_source(b.to_str().unwrap()).unwrap(), b);
        let err = c.resolve_source("app").unwrap_err();
        assert!(matches!(err, ConfigError::AmbiguousSource { .. }));
        let msg = err.to_string();
        assert!(
            msg.contains(a.to_str().unwrap()) && msg.contains(b.to_str().unwrap()),
            "{msg}"
        );
        let err = c.resolve_source("nope").unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("unknown source: nope") && msg.contains(lib.to_str().unwrap()),
            "{msg}"
        );

        assert_eq!(c.remove_source("lib").unwrap(), lib);
        assert_eq!(c.remove_source(a.to_str().unwrap()).unwrap(), a);
        assert_eq!(c.sources, vec![b.clone()]);
        // Now the name is unique.
        assert_eq!(c.remove_source("app").unwrap(), b);
        assert!(c.sources.is_empty());
        assert!(Config::default()
            .resolve_source("x")
            .unwrap_err()
            .to_string()
            .contains("no sources are configured"));
    }

    #[test]
    fn unknown_keys_are_reported() {
        let v: Value = json5::from_str(
            "{ mcp: { prot: 1 }, ollama: [{ modle: 'x' }], extra: 1, dev: { log_level: 'x' } }",
        )
        .unwrap();
        let mut keys = unknown_keys(&v);
        keys.sort();
        assert_eq!(keys, vec!["extra", "mcp.prot", "ollama[0].modle"]);
    }

    #[test]
    fn protocol_strings() {
        for p in McpProtocol::ALL {
            assert_eq!(p.as_str().parse::<McpProtocol>().unwrap(), p);
            assert_eq!(
                serde_json::to_string(&p).unwrap(),
                format!("\"{}\"", p.as_str())
            );
        }
        assert_eq!(McpProtocol::Latest.resolve(), McpProtocol::V2025_11_25);
        assert!("2020-01-01".parse::<McpProtocol>().is_err());
    }

    #[test]
    fn versions_and_paths() {
        assert_eq!(parse_version("0.0.1"), Some((0, 0, 1)));
        assert_eq!(parse_version("1.2"), None);
        assert_eq!(parse_version("1.2.3.4"), None);
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(normalize(Path::new("/..")), PathBuf::from("/"));
        assert_eq!(
            normalize(Path::new("../../x/./y/..")),
            PathBuf::from("../../x")
        );
        assert_eq!(line_col(b"ab\ncd", 4), (2, 2));
    }
}
