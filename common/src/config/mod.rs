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
//!
//! Modules, one concern each:
//! * `model`: the serde structs and enums with their defaults;
//! * `load`: reading the file, errors with line:column, environment overrides;
//! * `migrate`: upgrades of older config versions;
//! * `validate`: safe defaults, clamping, path resolution, unknown keys;
//! * `write_json5`: writing the file back, from the serialized model and one table
//!   of `(dotted key, comment)` pairs (`write_json5::COMMENTS`);
//! * `sources`: `source add|remove|list` operations;
//! * `identity`: the owner identity of a config directory (`identity.json`);
//! * `config_error` and `paths`: the error type and the path / file helpers.
//!
//! Adding a key: a field in `model` (with its default), a comment in
//! `write_json5::COMMENTS`, a check in `validate` when the value has limits. The
//! tests of `write_json5` fail when a key has no comment or does not survive a
//! save and load.

mod config_error;
mod identity;
mod load;
mod migrate;
mod model;
mod paths;
mod sources;
mod validate;
mod write_json5;

pub use config_error::ConfigError;
pub use identity::{hostname, Identity, Origin as IdentityOrigin, Site, IDENTITY_FILE_NAME};
pub use model::{
    AnswerFormat, Config, DevConfig, EnvOverrides, LlmApi, McpConfig, McpProtocol, OllamaHost, OpenSearchConfig,
    ScanConfig, ANSWER_BUDGET_RANGE, DEFAULT_ANSWER_BUDGET, DEFAULT_INDEX_PREFIX, DEFAULT_LOG_LEVEL, DEFAULT_MCP_HOST,
    DEFAULT_MCP_PORT, DEFAULT_OLLAMA_HOST, DEFAULT_OLLAMA_MODEL, DEFAULT_OPENSEARCH_HOST, MAX_CHUNK_CHARS_RANGE,
};
pub use paths::write_atomic;
pub use sources::AddOutcome;

/// Version written by this build; older files are migrated to it.
pub const CONFIG_VERSION: &str = "0.2.0";
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

/// Helpers shared by the tests of the submodules.
#[cfg(test)]
mod test_util {
    use super::{Config, ConfigError, CONFIG_FILE_NAME};
    use std::path::{Path, PathBuf};

    pub fn write(dir: &Path, text: &str) -> PathBuf {
        let path = dir.join(CONFIG_FILE_NAME);
        std::fs::write(&path, text).unwrap();
        path
    }

    pub fn load(dir: &Path) -> Result<Config, ConfigError> {
        Config::load_or_create(Some(dir)).map(|(c, _)| c)
    }
}

#[cfg(test)]
mod tests {
    use super::load::line_col;
    use super::migrate::parse_version;
    use super::paths::normalize;
    use std::path::{Path, PathBuf};

    #[test]
    fn versions_and_paths() {
        assert_eq!(parse_version("0.0.1"), Some((0, 0, 1)));
        assert_eq!(parse_version("1.2"), None);
        assert_eq!(parse_version("1.2.3.4"), None);
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(normalize(Path::new("/..")), PathBuf::from("/"));
        assert_eq!(normalize(Path::new("../../x/./y/..")), PathBuf::from("../../x"));
        assert_eq!(line_col(b"ab\ncd", 4), (2, 2));
    }
}
