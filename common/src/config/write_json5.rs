//! Writing the config file back: JSON5 rendered from the serialized model,
//! with the comments of [`COMMENTS`].
//!
//! Values come from serializing [`Config`], so every field of the model is
//! written; keys are ordered and commented by [`COMMENTS`]. A key missing from
//! the table is still written (after the known ones, without a comment), and
//! the tests below fail until it gets a comment.

use super::paths::write_atomic;
use super::{Config, ConfigError, DevConfig, OllamaHost};
use serde_json::{Map, Value};
use std::fmt::Write as _;
use std::path::Path;

/// `(dotted key, comment)` of every key of the file, in the order the keys are
/// written. `ollama[].host` is the `host` of each element of the `ollama` list.
/// Top-level keys and sections get their comment on the line above (a
/// sentence); the other keys get it at the end of their line.
pub(super) const COMMENTS: &[(&str, &str)] = &[
    ("version", "Config format version; older files are migrated (a .bak copy is kept)."),
    ("id", "Owner id of an older config; moved to identity.json (not to be copied) on the next run."),
    ("opensearch", "OpenSearch cluster holding the indexes."),
    ("opensearch.hosts", "nodes of one cluster, round-robin with failover; $VIBE_OPENSEARCH_URL (a,b) overrides"),
    ("opensearch.username", "basic auth user; null = no authentication"),
    ("opensearch.password", "basic auth password"),
    ("opensearch.ca_cert", "PEM file of a custom CA"),
    ("opensearch.insecure", "true = skip TLS certificate checks (testing only)"),
    ("opensearch.index_prefix", "prefix of every index name"),
    ("opensearch.shards", "primary shards of each new index generation"),
    ("opensearch.replicas", "replicas of each new generation; null = auto (0 on one node, 1 on two or more)"),
    (
        "opensearch.lock_lease_secs",
        "lease of an index run's lock on a project; a run whose holder died is taken over after it",
    ),
    (
        "opensearch.lock_wait_secs",
        "how long scan index waits for a project another run holds (then exit code 4; --wait waits on)",
    ),
    ("mcp", "MCP gateway (`vibe-analyzer serve start`)."),
    ("mcp.host", "listen address; keep loopback unless you need remote access"),
    ("mcp.port", "listen port"),
    ("mcp.protocol", "2024-11-05 | 2025-03-26 | 2025-06-18 | 2025-11-25 | latest"),
    ("mcp.allowed_hosts", "extra accepted Host headers; empty = loopback only"),
    ("mcp.allowed_origins", "accepted browser Origins; empty = none"),
    ("mcp.token", "bearer token required from clients; overridden by $VIBE_MCP_TOKEN"),
    ("mcp.answer_budget", "most bytes of one tool answer (2000..=1000000); 12000 fits a small model's context"),
    ("mcp.answer_format", "text = plain text written for a model | json = the answer's JSON as text"),
    (
        "mcp.typed_output",
        "true = outputSchema and structuredContent for programs; Claude Code and Codex then show their model the JSON, not the text",
    ),
    ("ollama", "Model hosts for LLM enrichment (`scan index`), Ollama or OpenAI-compatible; empty = no enrichment."),
    ("ollama[].host", "URL of the host"),
    ("ollama[].api", "ollama | openai (llama.cpp's server, vLLM, LM Studio: /v1/chat/completions)"),
    ("ollama[].api_key_env", "environment variable holding the API key (bearer token); null = no key"),
    ("ollama[].model", "model name"),
    ("ollama[].json_schema", "true = send the answer's JSON schema (Ollama format, OpenAI response_format)"),
    ("ollama[].max_chunk_chars", "per LLM request, 1000..=100000"),
    ("ollama[].max_chunk_files", "files per LLM request, >= 1"),
    ("ollama[].timeout_secs", "seconds per LLM request"),
    ("ollama[].temperature", "0..=1"),
    ("ollama[].seed", "sampling seed"),
    ("ollama[].num_ctx", "context window (tokens)"),
    ("ollama[].num_predict", "max generated tokens; -1 = unlimited, -2 = fill the context"),
    ("ollama[].ast_imports", "send imports to the LLM"),
    ("ollama[].ast_variables", "send variables to the LLM"),
    ("ollama[].ast_functions", "send functions to the LLM"),
    ("ollama[].ast_enums", "send enums to the LLM"),
    ("ollama[].ast_interfaces", "send interfaces to the LLM"),
    ("sources", "Source directories (`vibe-analyzer source add|remove|list`)."),
    ("scan", "How files are read."),
    (
        "scan.default_encoding",
        "encoding of a non-UTF-8 file whose detection rests on little, e.g. \"windows-1251\", \"gbk\"; \"\" = the detected one",
    ),
    ("dev", "Developer settings."),
    ("dev.log_level", "tracing filter, e.g. \"debug\" or \"vibe_ingest=trace\" (RUST_LOG wins)"),
];

const HEADER: &str = "\
// Vibe Analyzer configuration (JSON5: comments and trailing commas are allowed).
// Relative paths (sources, opensearch.ca_cert) are resolved against this file's directory.
// This file is rewritten by `vibe-analyzer source add|remove`: comments are not kept.
";

const INDENT: &str = "  ";

impl Config {
    /// Writes the config as commented JSON5, atomically (temp file + rename).
    /// Environment overrides are not persisted: the file's values are written.
    pub fn save(&self, path: &Path) -> Result<(), ConfigError> {
        let text = self
            .file_view()
            .to_json5_string()
            .map_err(|source| ConfigError::Serialize { path: path.to_path_buf(), source })?;
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|source| ConfigError::CreateDir { path: parent.to_path_buf(), source })?;
        }
        write_atomic(path, text.as_bytes())
    }

    /// Renders the config as JSON5 with short comments (as written by [`Config::save`],
    /// but including env overrides if any are applied).
    pub fn to_json5_string(&self) -> Result<String, serde_json::Error> {
        let value = serde_json::to_value(self)?;
        let Value::Object(map) = &value else { unreachable!("a struct serializes to an object") };
        let mut s = String::from(HEADER);
        s.push_str("{\n");
        render_object(&mut s, map, "", 1)?;
        s.push_str("}\n");
        Ok(s)
    }
}

/// The comment of a dotted key.
fn comment(key: &str) -> Option<&'static str> {
    COMMENTS.iter().find(|(k, _)| *k == key).map(|(_, c)| *c)
}

/// What an empty list or an absent section could hold, written commented out
/// in its place so that the user sees the keys.
fn example(key: &str) -> Result<Option<Value>, serde_json::Error> {
    match key {
        "ollama" => serde_json::to_value(OllamaHost::default()).map(Some),
        "dev" => serde_json::to_value(DevConfig { log_level: Some("debug".to_string()) }).map(Some),
        _ => Ok(None),
    }
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

/// The keys of `map` (the object at `prefix`): first those of [`COMMENTS`] in
/// its order, then any other key in the model's order.
fn ordered_keys<'a>(map: &'a Map<String, Value>, prefix: &str) -> Vec<&'a str> {
    let child = |key: &'static str| -> Option<&'static str> {
        let rest = match prefix {
            "" => key,
            _ => key.strip_prefix(prefix)?.strip_prefix('.')?,
        };
        (!rest.contains('.')).then_some(rest)
    };
    let mut keys: Vec<&str> =
        COMMENTS.iter().filter_map(|(key, _)| child(key)).filter(|name| map.contains_key(*name)).collect();
    let others: Vec<&str> = map.keys().map(String::as_str).filter(|k| !keys.contains(k)).collect();
    keys.extend(others);
    keys
}

/// Writes the entries of an object, one per line, at `depth` levels of indent.
fn render_object(
    out: &mut String,
    map: &Map<String, Value>,
    prefix: &str,
    depth: usize,
) -> Result<(), serde_json::Error> {
    let pad = INDENT.repeat(depth);
    for (i, name) in ordered_keys(map, prefix).into_iter().enumerate() {
        let key = join(prefix, name);
        let value = &map[name];
        let above = depth == 1 || is_section(value);
        if depth == 1 && i > 0 {
            out.push('\n');
        }
        let comment = comment(&key);
        if let (true, Some(c)) = (above, comment) {
            let _ = writeln!(out, "{pad}// {c}");
        }
        let trailing = comment.filter(|_| !above);
        let empty_list = value.as_array().is_some_and(Vec::is_empty);
        match example(&key)? {
            Some(example) if value.is_null() => {
                let mut entry = String::new();
                render_entry(&mut entry, name, &example, &key, depth, trailing)?;
                comment_out(out, &entry, depth);
            }
            Some(example) if empty_list => {
                let _ = writeln!(out, "{pad}{}: [", key_text(name)?);
                let mut item = format!("{pad}{INDENT}");
                render_value(&mut item, &example, &format!("{key}[]"), depth + 1)?;
                item.push_str(",\n");
                comment_out(out, &item, depth + 1);
                let _ = writeln!(out, "{pad}],");
            }
            _ => render_entry(out, name, value, &key, depth, trailing)?,
        }
    }
    Ok(())
}

/// `name: value,` with an optional comment at the end of the line.
fn render_entry(
    out: &mut String,
    name: &str,
    value: &Value,
    key: &str,
    depth: usize,
    trailing: Option<&str>,
) -> Result<(), serde_json::Error> {
    let _ = write!(out, "{}{}: ", INDENT.repeat(depth), key_text(name)?);
    render_value(out, value, key, depth)?;
    match trailing {
        Some(c) => {
            let _ = writeln!(out, ", // {c}");
        }
        None => out.push_str(",\n"),
    }
    Ok(())
}

/// A value starting at the current position; its inner lines are indented
/// one level deeper than `depth`, its closing bracket at `depth`.
fn render_value(out: &mut String, value: &Value, key: &str, depth: usize) -> Result<(), serde_json::Error> {
    let pad = INDENT.repeat(depth);
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push_str("{\n");
            render_object(out, map, key, depth + 1)?;
            let _ = write!(out, "{pad}}}");
        }
        Value::Array(items) if !items.is_empty() => {
            out.push_str("[\n");
            let item_key = format!("{key}[]");
            for item in items {
                let _ = write!(out, "{pad}{INDENT}");
                render_value(out, item, &item_key, depth + 1)?;
                out.push_str(",\n");
            }
            let _ = write!(out, "{pad}]");
        }
        other => out.push_str(&serde_json::to_string(other)?),
    }
    Ok(())
}

/// An object, or a list of objects: its comment goes on the line above.
fn is_section(value: &Value) -> bool {
    match value {
        Value::Object(_) => true,
        Value::Array(items) => items.first().is_some_and(Value::is_object),
        _ => false,
    }
}

/// A bare identifier when the key is one, else a quoted string.
fn key_text(name: &str) -> Result<String, serde_json::Error> {
    let mut chars = name.chars();
    let identifier = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier {
        Ok(name.to_string())
    } else {
        serde_json::to_string(name)
    }
}

/// Appends `text` (lines indented `depth` levels) with `// ` after the indent.
fn comment_out(out: &mut String, text: &str, depth: usize) {
    let pad = INDENT.repeat(depth);
    for line in text.lines() {
        let rest = line.strip_prefix(pad.as_str()).unwrap_or(line);
        let _ = writeln!(out, "{pad}// {rest}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{McpConfig, McpProtocol, OpenSearchConfig, CONFIG_FILE_NAME};

    #[test]
    fn full_config_round_trips() {
        let tmp = tempfile::tempdir().unwrap();
        let config = Config {
            opensearch: OpenSearchConfig {
                hosts: vec!["https://search.example:9200".into()],
                username: Some("admin".into()),
                password: Some("p\"a'ss\\word // not a comment".into()),
                ca_cert: Some(tmp.path().join("ca.pem")),
                insecure: true,
                index_prefix: "team-a".into(),
                shards: 2,
                replicas: None,
                ..OpenSearchConfig::default()
            },
            mcp: McpConfig {
                host: "0.0.0.0".into(),
                port: 8080,
                protocol: McpProtocol::V2025_06_18,
                allowed_hosts: vec!["vibe.example".into()],
                allowed_origins: vec!["https://a.example".into(), "https://b.example".into()],
                token: Some("sëcret".into()),
                answer_budget: 20_000,
                answer_format: crate::config::AnswerFormat::Json,
                typed_output: true,
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
            dev: Some(DevConfig { log_level: Some("vibe_ingest=debug".into()) }),
            ..Config::default()
        };
        let path = tmp.path().join(CONFIG_FILE_NAME);
        config.save(&path).unwrap();
        let loaded = Config::load(&path).unwrap();
        assert_eq!(loaded, config);
        // Rendering is stable.
        assert_eq!(loaded.to_json5_string().unwrap(), config.to_json5_string().unwrap());
    }

    /// A config where every field, optional or not, differs from its default
    /// (except `version`, which has one valid value). No `..Default::default()`:
    /// a new field breaks the build here until it is given a value.
    fn every_field_set(dir: &Path) -> Config {
        Config {
            version: crate::config::CONFIG_VERSION.to_string(),
            id: "laptop-0a1b2c3d".into(),
            opensearch: OpenSearchConfig {
                hosts: vec!["https://search.example:9201".into(), "https://search2.example:9201".into()],
                username: Some("user \"x\"".into()),
                password: Some("pa/*ss*/word".into()),
                ca_cert: Some(dir.join("certs/ca.pem")),
                insecure: true,
                index_prefix: "team-b".into(),
                shards: 3,
                replicas: Some(2),
                lock_lease_secs: 17,
                lock_wait_secs: 4,
            },
            mcp: McpConfig {
                host: "0.0.0.0".into(),
                port: 9999,
                protocol: McpProtocol::V2024_11_05,
                allowed_hosts: vec!["a.example".into(), "b.example".into()],
                allowed_origins: vec!["https://c.example".into()],
                token: Some("tök'en".into()),
                answer_budget: 8_000,
                answer_format: crate::config::AnswerFormat::Json,
                typed_output: true,
            },
            ollama: vec![OllamaHost {
                host: "http://gpu:1".into(),
                api: crate::config::LlmApi::Openai,
                api_key_env: Some("GPU_KEY".into()),
                model: "m:1b".into(),
                json_schema: false,
                max_chunk_chars: 2000,
                max_chunk_files: 7,
                timeout_secs: 5,
                temperature: 0.5,
                seed: -1,
                num_ctx: 8192,
                num_predict: -2,
                ast_imports: true,
                ast_variables: true,
                ast_functions: false,
                ast_enums: false,
                ast_interfaces: false,
            }],
            sources: vec![dir.join("src one"), dir.join("two")],
            scan: crate::config::ScanConfig { default_encoding: "windows-1251".into() },
            dev: Some(DevConfig { log_level: Some("trace".into()) }),
            env_overrides: Default::default(),
        }
    }

    /// Every dotted key of a serialized config (sections and leaves; `ollama[]`
    /// for the elements of a list of objects).
    fn keys(value: &Value, prefix: &str, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (name, child) in map {
                    let key = join(prefix, name);
                    out.push(key.clone());
                    keys(child, &key, out);
                }
            }
            Value::Array(items) => {
                for item in items.iter().filter(|i| i.is_object()) {
                    keys(item, &format!("{prefix}[]"), out);
                }
            }
            _ => {}
        }
    }

    /// `(path, value)` of every leaf; lists of scalars are one leaf.
    fn leaves(value: &Value, prefix: &str, out: &mut Vec<(String, Value)>) {
        match value {
            Value::Object(map) => {
                for (name, child) in map {
                    leaves(child, &join(prefix, name), out);
                }
            }
            Value::Array(items) if items.iter().any(Value::is_object) => {
                for (i, item) in items.iter().enumerate() {
                    leaves(item, &format!("{prefix}[{i}]"), out);
                }
            }
            other => out.push((prefix.to_string(), other.clone())),
        }
    }

    #[test]
    fn every_key_has_a_comment() {
        let tmp = tempfile::tempdir().unwrap();
        let mut found = Vec::new();
        for config in [Config::default(), every_field_set(tmp.path())] {
            keys(&serde_json::to_value(&config).unwrap(), "", &mut found);
        }
        found.sort();
        found.dedup();
        let missing: Vec<_> = found.iter().filter(|k| comment(k).is_none()).collect();
        assert!(missing.is_empty(), "keys without a comment in COMMENTS: {missing:?}");
        let table: Vec<&str> = COMMENTS.iter().map(|(k, _)| *k).collect();
        let stale: Vec<_> = table.iter().filter(|k| !found.iter().any(|f| f == *k)).collect();
        assert!(stale.is_empty(), "COMMENTS keys that the model does not have: {stale:?}");
        let mut unique = table.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), table.len(), "a key is twice in COMMENTS");
        assert!(COMMENTS.iter().all(|(_, c)| !c.trim().is_empty() && !c.contains('\n')));
        // Comments that name values of the code.
        let protocols: Vec<_> = McpProtocol::ALL.iter().map(|p| p.as_str()).collect();
        assert_eq!(comment("mcp.protocol"), Some(protocols.join(" | ").as_str()));
        assert!(comment("opensearch.hosts").unwrap().contains(crate::config::ENV_OPENSEARCH_URL));
        assert!(comment("mcp.token").unwrap().contains(crate::config::ENV_MCP_TOKEN));
        let range = crate::config::MAX_CHUNK_CHARS_RANGE;
        let range = format!("{}..={}", range.start(), range.end());
        assert!(comment("ollama[].max_chunk_chars").unwrap().contains(&range));
    }

    #[test]
    fn every_value_survives_render_and_load() {
        let tmp = tempfile::tempdir().unwrap();
        let config = every_field_set(tmp.path());
        // Every leaf really differs from its default.
        // (`id` is written only when set: an older file's owner id.)
        let reference = Config {
            id: "old-id".into(),
            ollama: vec![OllamaHost::default(); config.ollama.len()],
            dev: Some(DevConfig::default()),
            ..Config::default()
        };
        let mut set = Vec::new();
        leaves(&serde_json::to_value(&config).unwrap(), "", &mut set);
        let mut defaults = Vec::new();
        leaves(&serde_json::to_value(&reference).unwrap(), "", &mut defaults);
        assert_eq!(set.len(), defaults.len());
        for ((key, value), (default_key, default)) in set.iter().zip(&defaults) {
            assert_eq!(key, default_key);
            if key != "version" {
                assert_ne!(value, default, "{key} has its default value in every_field_set");
            }
        }
        // load -> render -> load.
        let path = tmp.path().join(CONFIG_FILE_NAME);
        config.save(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let loaded = Config::load(&path).unwrap();
        assert_eq!(loaded, config, "{text}");
        loaded.save(&path).unwrap();
        assert_eq!(Config::load(&path).unwrap(), config);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        // Every key is written with its comment.
        for (key, c) in COMMENTS {
            assert!(text.contains(&format!("// {c}")), "comment of {key} missing:\n{text}");
        }
    }

    #[test]
    fn keys_without_a_comment_are_still_written() {
        // (Unknown keys keep the map's order: sorted, or as written when
        // serde_json's `preserve_order` is on in a workspace build; the input
        // is sorted so both agree.)
        let map: Map<String, Value> =
            serde_json::from_str(r#"{ "port": 2, "new key": { "x": [true] }, "zeta": 1 }"#).unwrap();
        let mut out = String::new();
        render_object(&mut out, &map, "mcp", 2).unwrap();
        assert_eq!(
            out,
            "    port: 2, // listen port\n    \"new key\": {\n      x: [\n        true,\n      ],\n    },\n    zeta: 1,\n"
        );
    }

    #[test]
    fn default_file_look() {
        let text = Config::default().to_json5_string().unwrap();
        assert!(text.starts_with(HEADER), "{text}");
        for line in [
            "{\n  // Config format version; older files are migrated (a .bak copy is kept).\n  version: \"0.2.0\",\n\n",
            "  opensearch: {\n    hosts: [\n      \"http://127.0.0.1:9200\",\n    ], // nodes of one cluster",
            "    allowed_hosts: [], // extra accepted Host headers; empty = loopback only\n",
            "  ollama: [\n    // {\n    //   host: \"http://127.0.0.1:11434\", // URL of the host\n    //   api: \"ollama\", // ollama | openai",
            "    // },\n  ],\n",
            "  // Developer settings.\n  // dev: {\n  //   log_level: \"debug\",",
        ] {
            assert!(text.contains(line), "{line:?} not in:\n{text}");
        }
        let value: Value = json5::from_str(&text).unwrap();
        assert_eq!(serde_json::from_value::<Config>(value).unwrap(), Config::default());
    }
}
