//! Reading the config file: JSON5 parsing with line:column errors, version
//! check and migration, validation, and the environment overrides.

use super::migrate::{migrate, parse_version};
use super::paths::{absolute, write_atomic};
use super::validate::unknown_keys;
use super::{
    Config, ConfigError, EnvOverrides, BACKUP_FILE_NAME, CONFIG_FILE_NAME, CONFIG_VERSION, DEFAULT_DIR_NAME,
    ENV_MCP_TOKEN, ENV_OPENSEARCH_URL,
};
use serde_json::Value;
use std::path::{Path, PathBuf};

impl Config {
    /// `~/.vibe-analyzer`.
    pub fn default_dir() -> Result<PathBuf, ConfigError> {
        dirs::home_dir().map(|home| home.join(DEFAULT_DIR_NAME)).ok_or(ConfigError::NoHomeDir)
    }

    /// Loads `<dir>/config.json5` (dir defaults to [`Config::default_dir`]),
    /// creating the directory and a commented default file when missing.
    /// Returns the validated config (env overrides applied) and the file path.
    pub fn load_or_create(config_dir: Option<&Path>) -> Result<(Config, PathBuf), ConfigError> {
        let dir = match config_dir {
            Some(dir) => absolute(dir),
            None => Self::default_dir()?,
        };
        std::fs::create_dir_all(&dir).map_err(|source| ConfigError::CreateDir { path: dir.clone(), source })?;
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
        if config.env_overrides.opensearch_hosts.is_some() {
            check_hosts(&config.opensearch.hosts, ENV_OPENSEARCH_URL)?;
        }
        Ok((config, path))
    }

    /// Loads an existing file without creating, migrating on disk or applying
    /// env overrides (a migrated config is returned in memory only).
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let path = absolute(path);
        let bytes = std::fs::read(&path).map_err(|source| ConfigError::Read { path: path.clone(), source })?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let (config, _) = Self::parse(&path, &dir, &bytes)?;
        Ok(config)
    }

    /// Parses + validates; migrates older files on disk (with a backup).
    /// The owner id is not in the file ([`super::Identity`]); the `id` of an
    /// older file is read into [`Config::id`] for the identity to adopt.
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
                    "config {} migrated from version {old} in memory only: {}",
                    path.display(),
                    crate::error_chain::chain(&e)
                ),
            }
        }
        Ok(config)
    }

    /// Returns the config and, when the file was migrated, its old version.
    fn parse(path: &Path, dir: &Path, bytes: &[u8]) -> Result<(Config, Option<String>), ConfigError> {
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
            let (line, column) = position_of(&e, text);
            ConfigError::Syntax { path: path.to_path_buf(), line, column, message: message_of(&e) }
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
            return Err(ConfigError::UnsupportedVersion { path: path.to_path_buf(), version });
        }
        if let Some(first) = unknown_keys(&value).into_iter().next() {
            let fix = match &first.suggestion {
                Some(known) => format!("did you mean `{known}`?"),
                None => "remove it, or see the comments of a new config (`--config-dir` of an empty folder)".into(),
            };
            return Err(ConfigError::Invalid {
                path: path.to_path_buf(),
                position: key_position(text, &first.key),
                message: format!("unknown key `{}`: {fix}", first.key),
            });
        }

        let (mut config, migrated_from) = if parsed < current {
            let Value::Object(obj) = &mut value else { unreachable!() };
            migrate(obj, parsed);
            let config: Config = serde_json::from_value(value).map_err(|e| ConfigError::Invalid {
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
        check_values(&config, path, text)?;
        for warning in config.validate(dir) {
            tracing::warn!("{}: {warning}", path.display());
        }
        Ok((config, migrated_from))
    }

    /// The config as it should be stored: env overrides replaced by the file's values.
    pub(super) fn file_view(&self) -> std::borrow::Cow<'_, Config> {
        let ov = &self.env_overrides;
        if ov.opensearch_hosts.is_none() && ov.mcp_token.is_none() {
            return std::borrow::Cow::Borrowed(self);
        }
        let mut c = self.clone();
        if let Some((file, env)) = &ov.opensearch_hosts {
            if &c.opensearch.hosts == env {
                c.opensearch.hosts = file.clone();
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
        let get = |name| get(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        // A comma-separated list of nodes.
        let hosts = get(ENV_OPENSEARCH_URL).map(|v| {
            v.split(',')
                .map(|h| h.trim().trim_end_matches('/').to_string())
                .filter(|h| !h.is_empty())
                .collect::<Vec<_>>()
        });
        if let Some(hosts) = hosts.filter(|h| !h.is_empty()) {
            let file = match self.env_overrides.opensearch_hosts.take() {
                Some((file, _)) => file,
                None => self.opensearch.hosts.clone(),
            };
            self.opensearch.hosts = hosts.clone();
            self.env_overrides.opensearch_hosts = Some((file, hosts));
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
}

/// Every host an http(s) URL with a host name: `search.internal:9200`
/// would parse as the scheme `search.internal`, and a run would go elsewhere.
/// The values no run could work with: a host without its scheme, an
/// encoding label `encoding_rs` does not know.
fn check_values(config: &Config, path: &Path, text: &str) -> Result<(), ConfigError> {
    check_hosts(&config.opensearch.hosts, &format!("{}: opensearch.hosts", path.display()))?;
    let label = config.scan.default_encoding.trim();
    if !label.is_empty() && config.scan.default_encoding().is_none() {
        return Err(ConfigError::Invalid {
            path: path.to_path_buf(),
            position: key_position(text, "scan.default_encoding"),
            message: format!(
                "scan.default_encoding: {label:?} is no encoding label; write one such as \"windows-1251\", \"koi8-r\", \"gbk\" or \"shift_jis\""
            ),
        });
    }
    Ok(())
}

fn check_hosts(hosts: &[String], place: &str) -> Result<(), ConfigError> {
    for host in hosts {
        let trimmed = host.trim();
        let ok = url::Url::parse(trimmed)
            .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some_and(|h| !h.is_empty()));
        if !ok {
            let bare = trimmed.split_once("://").map_or(trimmed, |(_, rest)| rest);
            return Err(ConfigError::BadHost {
                place: place.to_string(),
                host: host.clone(),
                fix: format!("http://{bare}"),
            });
        }
    }
    Ok(())
}

/// 1-based line and column of a syntax error. When the text ends too early
/// (an unclosed object, string or comment), json5 reports the start of the
/// enclosing value (`1:1` for the whole file): such an error is placed at the
/// end of the text instead, right after its last token.
fn position_of(e: &json5::Error, text: &str) -> (usize, usize) {
    use json5::ErrorCode as C;
    let at_end = matches!(
        e.code(),
        Some(
            C::EofParsingArray
                | C::EofParsingBool
                | C::EofParsingComment
                | C::EofParsingEscapeSequence
                | C::EofParsingIdentifier
                | C::EofParsingNull
                | C::EofParsingNumber
                | C::EofParsingObject
                | C::EofParsingString
                | C::EofParsingValue
        )
    );
    let position = match at_end {
        true => Some(json5::Position::from_offset(text.trim_end().len(), text)),
        false => e.position(),
    };
    position.map_or((1, 1), |p| (p.line + 1, p.column + 1))
}

/// Where an unknown key is written (its last segment as a key: `prot:`
/// or `"prot":`), 1-based, when it can be found.
fn key_position(text: &str, dotted: &str) -> Option<(usize, usize)> {
    let last = dotted.rsplit('.').next()?;
    let last = last.split('[').next()?;
    let bytes = text.as_bytes();
    text.match_indices(last)
        .map(|(at, _)| at)
        .find(|&at| {
            let before = text[..at].trim_end_matches(['"', '\'']);
            let after = text[at + last.len()..].trim_start_matches(['"', '\'']).trim_start();
            let starts = before.ends_with(|c: char| c.is_whitespace() || c == '{' || c == ',') || before.is_empty();
            starts && after.starts_with(':')
        })
        .map(|at| line_col(bytes, at))
}

/// The error message without json5's " at line X column Y" suffix.
fn message_of(e: &json5::Error) -> String {
    let text = e.to_string();
    match e.position() {
        Some(p) => text.strip_suffix(&format!(" at {p}")).map(str::to_string).unwrap_or(text),
        None => text,
    }
}

/// 1-based line and column of a byte offset.
pub(super) fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_util::{load, write};
    use crate::config::{OpenSearchConfig, DEFAULT_MCP_HOST, DEFAULT_OLLAMA_MODEL, DEFAULT_OPENSEARCH_HOST};

    #[test]
    fn a_single_host_and_an_env_list_of_nodes() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(tmp.path(), "{ version: '0.2.0', id: 'x-1', opensearch: { host: 'http://a:1/' } }");
        // Config::load applies no environment ($VIBE_OPENSEARCH_URL is set under scripts/test.sh).
        let mut c = Config::load(&path).unwrap();
        assert_eq!(c.opensearch.hosts, ["http://a:1"]);
        assert_eq!(c.id, "x-1");
        assert!(super::unknown_keys(&json5::from_str("{ opensearch: { host: 'h' } }").unwrap()).is_empty());
        c.apply_overrides_from(|name| (name == ENV_OPENSEARCH_URL).then(|| " http://b:2, http://c:3/ ,".into()));
        assert_eq!(c.opensearch.hosts, ["http://b:2", "http://c:3"]);
        assert_eq!(c.file_view().opensearch.hosts, ["http://a:1"], "the file keeps its own hosts");
    }

    #[test]
    fn a_host_without_its_scheme_is_an_error_naming_the_fix() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(tmp.path(), "{ version: '0.2.0', opensearch: { hosts: ['search.internal:9200'] } }");
        let err = Config::load(&path).unwrap_err().to_string();
        assert!(err.contains("opensearch.hosts: \"search.internal:9200\" is not an http(s) URL"), "{err}");
        assert!(err.contains("\"http://search.internal:9200\""), "{err}");
        // The same from the environment names the variable.
        let err = check_hosts(&["localhost:9200".into()], ENV_OPENSEARCH_URL).unwrap_err().to_string();
        assert!(err.starts_with("VIBE_OPENSEARCH_URL: \"localhost:9200\""), "{err}");
        assert!(check_hosts(&["https://a:1".into(), "http://b".into()], "x").is_ok());
    }

    #[test]
    fn an_unknown_key_is_an_error_naming_the_known_one() {
        let tmp = tempfile::tempdir().unwrap();
        let text = "{\n  version: '0.2.0',\n  mcp: {\n    \"prot\": 9000,\n  },\n}\n";
        let path = write(tmp.path(), text);
        let err = Config::load(&path).unwrap_err().to_string();
        assert!(err.contains(":4:6: invalid configuration: unknown key `mcp.prot`: did you mean `mcp.port`?"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "the file is left as it was");
        let path = write(tmp.path(), "{ version: '0.2.0', colour: 'blue' }");
        let err = Config::load(&path).unwrap_err().to_string();
        assert!(err.contains("unknown key `colour`: remove it"), "{err}");
    }

    #[test]
    fn a_default_encoding_is_a_label_encoding_rs_knows() {
        let tmp = tempfile::tempdir().unwrap();
        let path = write(tmp.path(), "{ version: '0.2.0', scan: { default_encoding: 'cp1251' } }");
        assert_eq!(Config::load(&path).unwrap().scan.default_encoding(), Some(encoding_rs::WINDOWS_1251));
        let path = write(tmp.path(), "{ version: '0.2.0', scan: { default_encoding: 'cyrillic-dos' } }");
        let err = Config::load(&path).unwrap_err().to_string();
        assert!(err.contains("scan.default_encoding: \"cyrillic-dos\" is no encoding label"), "{err}");
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
        expected.opensearch.hosts = config.opensearch.hosts.clone();
        expected.mcp.token = config.mcp.token.clone();
        // The owner id lives in identity.json, never in the file people copy.
        assert!(config.id.is_empty() && value.get("id").is_none(), "{text}");
        assert_eq!(config, expected);
        // Second run reads the same file back.
        let again = Config::load(&path).unwrap();
        assert_eq!(again, Config::default());
    }

    #[test]
    fn missing_sections_are_filled_in() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), "{ mcp: { port: 1234 }, ollama: [{ host: 'http://x:1' }] }");
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
    fn invalid_json5_is_an_error_with_position_and_file_is_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        let text = "{\n  version: \"0.1.0\",\n  mcp: { port: 9020 \n  sources: [],\n}\n";
        let path = write(tmp.path(), text);
        let err = load(tmp.path()).unwrap_err();
        match &err {
            ConfigError::Syntax { path: p, line, column, .. } => {
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
        assert!(matches!(err, ConfigError::Invalid { position: Some((3, _)), .. }), "{err:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);

        write(tmp.path(), "{ mcp: { protocol: '1999-01-01' } }");
        let err = load(tmp.path()).unwrap_err();
        assert!(err.to_string().contains("1999-01-01"), "{err}");

        write(tmp.path(), "[1, 2]");
        assert!(matches!(load(tmp.path()).unwrap_err(), ConfigError::Invalid { .. }));
    }

    #[test]
    fn newer_version_is_refused_and_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        let text = "{ version: '9.0.0' }";
        let path = write(tmp.path(), text);
        let err = load(tmp.path()).unwrap_err();
        assert!(matches!(err, ConfigError::UnsupportedVersion { .. }), "{err:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
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
        assert_eq!(c.opensearch.hosts, ["http://env:9200"]);
        assert_eq!(c.mcp.token.as_deref(), Some("env-token"));
        c.save(&path).unwrap();
        let saved = Config::load(&path).unwrap();
        assert_eq!(saved.opensearch.hosts, [DEFAULT_OPENSEARCH_HOST]);
        assert_eq!(saved.mcp.token.as_deref(), Some("file-token"));
        // Empty variables are ignored.
        let mut d = Config::default();
        d.apply_overrides_from(|_| Some("  ".into()));
        assert_eq!(d, Config::default());
    }

    #[test]
    fn syntax_error_at_the_end_of_the_file_has_its_real_position() {
        let tmp = tempfile::tempdir().unwrap();
        // (text, 1-based line and column of the error): the end of the last token.
        let cases = [
            ("{\n  version: \"0.1.0\",\n  mcp: { port: 9020 },\n", (3, 23)),
            ("{\n  sources: [\n    \"/a\",\n\n  \n", (3, 10)),
            ("{ mcp: { token: \"abc", (1, 21)),
            ("\u{feff}{\r\n  version: \"0.1.0\" /* open comment\r\n", (2, 35)),
            ("", (1, 1)),
        ];
        for (text, expected) in cases {
            let path = write(tmp.path(), text);
            let err = load(tmp.path()).unwrap_err();
            match &err {
                ConfigError::Syntax { line, column, message, .. } => {
                    assert_eq!((*line, *column), expected, "{text:?}: {message}");
                    assert!(message.starts_with("EOF"), "{message}");
                }
                other => panic!("{text:?}: unexpected error {other:?}"),
            }
            let (line, column) = expected;
            assert!(err.to_string().contains(&format!("{}:{line}:{column}:", path.display())), "{err}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
    }
}
