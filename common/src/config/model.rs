//! The configuration model: the serde structs and enums of the file and their
//! defaults. Every field has a default, so missing sections are filled in.

use super::CONFIG_VERSION;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

pub const DEFAULT_OPENSEARCH_HOST: &str = "http://127.0.0.1:9200";
pub const DEFAULT_INDEX_PREFIX: &str = "vibe";
pub const DEFAULT_MCP_HOST: &str = "127.0.0.1";
pub const DEFAULT_MCP_PORT: u16 = 9020;
/// Default `mcp.answer_budget`: bytes of one tool answer's text. About 3,000
/// to 4,000 tokens of JSON and code, a third of an 8K-token context: a 3B-8B
/// model keeps room for the instructions, the tool list, the question and
/// its own reply (reasons in the README).
pub const DEFAULT_ANSWER_BUDGET: usize = 12_000;
/// Allowed range of `mcp.answer_budget` (below 2,000 bytes an outline or a
/// page of lines has too little room to be useful).
pub const ANSWER_BUDGET_RANGE: std::ops::RangeInclusive<usize> = 2_000..=1_000_000;
pub const DEFAULT_OLLAMA_HOST: &str = "http://127.0.0.1:11434";
pub const DEFAULT_OLLAMA_MODEL: &str = "qwen2.5-coder:3b-instruct";
pub const DEFAULT_LOG_LEVEL: &str = "warn";
/// Allowed range of `ollama[].max_chunk_chars`.
pub const MAX_CHUNK_CHARS_RANGE: std::ops::RangeInclusive<usize> = 1000..=100_000;

/// The whole configuration. Every field has a default, so missing sections of
/// the file are filled in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    pub version: String,
    /// The owner id of configs before `identity.json` (read from older
    /// files only, for the identity to adopt; never written back). The owner
    /// id itself is [`super::Identity`], kept out of the file people copy.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub id: String,
    pub opensearch: OpenSearchConfig,
    pub mcp: McpConfig,
    /// Ollama hosts used for LLM enrichment; empty = no enrichment.
    pub ollama: Vec<OllamaHost>,
    /// Source directories, absolute (relative entries of the file are resolved
    /// against the config directory).
    pub sources: Vec<PathBuf>,
    pub scan: ScanConfig,
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
            id: String::new(),
            opensearch: OpenSearchConfig::default(),
            mcp: McpConfig::default(),
            ollama: Vec::new(),
            sources: Vec::new(),
            scan: ScanConfig::default(),
            dev: None,
            env_overrides: EnvOverrides::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OpenSearchConfig {
    /// Nodes of one cluster, tried round-robin; a failing node is skipped and
    /// retried later. A single `host` in a file is read as a one-node list.
    #[serde(alias = "host", deserialize_with = "one_or_many")]
    pub hosts: Vec<String>,
    pub username: Option<String>,
    pub password: Option<String>,
    /// PEM file of a custom CA (absolute after loading).
    pub ca_cert: Option<PathBuf>,
    /// Skip TLS certificate verification.
    pub insecure: bool,
    pub index_prefix: String,
    /// Primary shards of each new index generation.
    pub shards: u32,
    /// Replicas of each new index generation; `None` = `auto_expand_replicas
    /// "0-1"` (green on one node, one replica once a second node joins).
    pub replicas: Option<u32>,
    /// Lease of a run's lock on a project (seconds): renewed while the run
    /// goes on; once it runs out, another run may take the project over.
    pub lock_lease_secs: u64,
    /// How long a run waits for a project another run holds before it
    /// names that run and gives up (exit code 4); `--wait` waits on.
    pub lock_wait_secs: u64,
}

impl OpenSearchConfig {
    /// The first host, for messages that name one.
    pub fn host(&self) -> &str {
        self.hosts.first().map(String::as_str).unwrap_or(DEFAULT_OPENSEARCH_HOST)
    }
}

/// A list, or a single string read as a one-element list.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

impl Default for OpenSearchConfig {
    fn default() -> Self {
        Self {
            hosts: vec![DEFAULT_OPENSEARCH_HOST.to_string()],
            username: None,
            password: None,
            ca_cert: None,
            insecure: false,
            index_prefix: DEFAULT_INDEX_PREFIX.to_string(),
            shards: 1,
            replicas: None,
            lock_lease_secs: crate::backend::run_lock::DEFAULT_LEASE.as_secs(),
            lock_wait_secs: crate::backend::run_lock::DEFAULT_WAIT.as_secs(),
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
    pub const ALL: [McpProtocol; 5] =
        [Self::V2024_11_05, Self::V2025_03_26, Self::V2025_06_18, Self::V2025_11_25, Self::Latest];

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
        Self::ALL.into_iter().find(|p| p.as_str() == s).ok_or_else(|| {
            let all: Vec<_> = Self::ALL.iter().map(|p| p.as_str()).collect();
            format!("unknown MCP protocol {s:?}, expected one of {}", all.join(", "))
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
    /// Most bytes of one tool answer's text (clamped to [`ANSWER_BUDGET_RANGE`]).
    pub answer_budget: usize,
    /// What a tool answer's text content is: plain text for a model, or
    /// the compact JSON of `structuredContent` (clients that parse it).
    pub answer_format: AnswerFormat,
    /// Typed output: each tool declares an `outputSchema` and each answer
    /// carries `structuredContent` beside its text. Off by default: clients
    /// such as Claude Code and Codex hand their model the structured JSON
    /// instead of the compact text. An endpoint URL's `?typed_output=true`
    /// or `=false` overrides it for its clients.
    pub typed_output: bool,
}

/// `mcp.answer_format`: the text content of a tool answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnswerFormat {
    /// Compact plain text written for a model: the project named once,
    /// code as numbered lines, no hashes or timestamps.
    #[default]
    Text,
    /// The answer's JSON (as `structuredContent`), compact.
    Json,
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
            answer_budget: DEFAULT_ANSWER_BUDGET,
            answer_format: AnswerFormat::Text,
            typed_output: false,
        }
    }
}

/// The API a model host speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LlmApi {
    /// Ollama's own API: `GET /`, `GET /api/tags`, `POST /api/generate`.
    #[default]
    Ollama,
    /// OpenAI's: `GET /v1/models`, `POST /v1/chat/completions` (llama.cpp's
    /// server, vLLM, LM Studio, Ollama's `/v1`).
    Openai,
}

/// One model host (Ollama or OpenAI-compatible) and the settings of the LLM
/// requests sent to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OllamaHost {
    pub host: String,
    pub api: LlmApi,
    /// The environment variable holding the API key (sent as a bearer
    /// token); the key itself is never written in the config.
    pub api_key_env: Option<String>,
    pub model: String,
    /// Send the JSON schema of the expected answer (Ollama `format`, OpenAI
    /// `response_format`), so a server that enforces it answers valid JSON.
    pub json_schema: bool,
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
            api: LlmApi::Ollama,
            api_key_env: None,
            model: DEFAULT_OLLAMA_MODEL.to_string(),
            json_schema: true,
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

/// How the scanner reads the sources.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ScanConfig {
    /// The encoding of a file that is not UTF-8 when its detection rests on
    /// little (a short file, a comment of a few letters): a WHATWG label
    /// (`windows-1251`, `koi8-r`, `gbk`, `shift_jis`); empty = the guess.
    pub default_encoding: String,
}

impl ScanConfig {
    /// The encoding `default_encoding` names; `None` when empty or no label.
    pub fn default_encoding(&self) -> Option<&'static encoding_rs::Encoding> {
        encoding_rs::Encoding::for_label(self.default_encoding.trim().as_bytes())
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
    pub opensearch_hosts: Option<(Vec<String>, Vec<String>)>,
    pub mcp_token: Option<(Option<String>, String)>,
}

impl Config {
    /// tracing filter from `dev.log_level`, `"warn"` when unset.
    pub fn log_level(&self) -> &str {
        self.dev.as_ref().and_then(|d| d.log_level.as_deref()).unwrap_or(DEFAULT_LOG_LEVEL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_strings() {
        for p in McpProtocol::ALL {
            assert_eq!(p.as_str().parse::<McpProtocol>().unwrap(), p);
            assert_eq!(serde_json::to_string(&p).unwrap(), format!("\"{}\"", p.as_str()));
        }
        assert_eq!(McpProtocol::Latest.resolve(), McpProtocol::V2025_11_25);
        assert!("2020-01-01".parse::<McpProtocol>().is_err());
    }
}
