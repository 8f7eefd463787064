//! Validation of a parsed config: safe defaults for invalid values, clamped
//! ranges, paths resolved against the config directory, deduped sources, and
//! the keys of the file that the model does not know.

use super::model::{
    ANSWER_BUDGET_RANGE, DEFAULT_INDEX_PREFIX, DEFAULT_MCP_HOST, DEFAULT_MCP_PORT, DEFAULT_OLLAMA_HOST,
    DEFAULT_OLLAMA_MODEL, DEFAULT_OPENSEARCH_HOST, MAX_CHUNK_CHARS_RANGE,
};
use super::paths::{absolute, normalize, same_path};
use super::{Config, DevConfig, McpConfig, OllamaHost, OpenSearchConfig, CONFIG_VERSION};
use serde_json::Value;
use std::path::{Path, PathBuf};

impl Config {
    /// Replaces invalid values with safe defaults, clamps ranges, resolves
    /// relative paths against `config_dir` and dedupes sources. Returns a
    /// description of every change (the loader logs them as warnings).
    pub fn validate(&mut self, config_dir: &Path) -> Vec<String> {
        let mut w = Vec::new();
        let config_dir = absolute(config_dir);
        self.version = CONFIG_VERSION.to_string();
        validate_opensearch(&mut self.opensearch, &config_dir, &mut w);
        validate_mcp(&mut self.mcp, &mut w);
        for (i, o) in self.ollama.iter_mut().enumerate() {
            validate_ollama(o, &format!("ollama[{i}]"), &mut w);
        }
        self.sources = validated_sources(&self.sources, &config_dir, &mut w);
        if let Some(dev) = &mut self.dev {
            empty_to_none(&mut dev.log_level);
        }
        w
    }
}

fn validate_opensearch(os: &mut OpenSearchConfig, config_dir: &Path, w: &mut Vec<String>) {
    let mut hosts = Vec::new();
    for host in &os.hosts {
        let trimmed = host.trim().trim_end_matches('/').to_string();
        let ok = url::Url::parse(&trimmed)
            .map(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
            .unwrap_or(false);
        if !ok {
            w.push(format!("opensearch.hosts: {host:?} is not an http(s) URL, left out"));
        } else if !hosts.contains(&trimmed) {
            hosts.push(trimmed);
        }
    }
    if hosts.is_empty() {
        w.push(format!("opensearch.hosts has no usable URL, using {DEFAULT_OPENSEARCH_HOST}"));
        hosts.push(DEFAULT_OPENSEARCH_HOST.to_string());
    }
    os.hosts = hosts;
    if os.shards == 0 {
        w.push("opensearch.shards 0 is not allowed, using 1".to_string());
        os.shards = 1;
    }
    if os.lock_lease_secs == 0 {
        w.push("opensearch.lock_lease_secs 0 is not allowed, using 1".to_string());
        os.lock_lease_secs = 1;
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
            w.push(format!("opensearch.index_prefix {:?} lowercased to {prefix:?}", os.index_prefix));
        }
        os.index_prefix = prefix;
    } else {
        w.push(format!(
            "opensearch.index_prefix {:?} is not a valid index name prefix, using {DEFAULT_INDEX_PREFIX:?}",
            os.index_prefix
        ));
        os.index_prefix = DEFAULT_INDEX_PREFIX.to_string();
    }
}

fn validate_mcp(mcp: &mut McpConfig, w: &mut Vec<String>) {
    let host = mcp.host.trim().to_string();
    if host.is_empty() {
        w.push(format!("mcp.host is empty, using {DEFAULT_MCP_HOST}"));
        mcp.host = DEFAULT_MCP_HOST.to_string();
    } else {
        mcp.host = host;
    }
    if mcp.port == 0 {
        w.push(format!("mcp.port 0 is not allowed, using {DEFAULT_MCP_PORT}"));
        mcp.port = DEFAULT_MCP_PORT;
    }
    clean_list(&mut mcp.allowed_hosts);
    clean_list(&mut mcp.allowed_origins);
    empty_to_none(&mut mcp.token);
    let budget = mcp.answer_budget.clamp(*ANSWER_BUDGET_RANGE.start(), *ANSWER_BUDGET_RANGE.end());
    if budget != mcp.answer_budget {
        w.push(format!("mcp.answer_budget {} is out of range, using {budget}", mcp.answer_budget));
        mcp.answer_budget = budget;
    }
}

/// One Ollama host (`name` is `ollama[i]`); the request settings are in [`validate_llm_request`].
fn validate_ollama(o: &mut OllamaHost, name: &str, w: &mut Vec<String>) {
    let host = o.host.trim().trim_end_matches('/').to_string();
    if host.is_empty() {
        w.push(format!("{name}.host is empty, using {DEFAULT_OLLAMA_HOST}"));
        o.host = DEFAULT_OLLAMA_HOST.to_string();
    } else {
        o.host = host;
    }
    if o.api_key_env.as_deref().is_some_and(|v| v.trim().is_empty()) {
        w.push(format!("{name}.api_key_env is empty: no key is sent"));
        o.api_key_env = None;
    }
    if o.model.trim().is_empty() {
        w.push(format!("{name}.model is empty, using {DEFAULT_OLLAMA_MODEL}"));
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
    validate_llm_request(o, name, w);
}

/// An Ollama host's timeout and generation options.
fn validate_llm_request(o: &mut OllamaHost, name: &str, w: &mut Vec<String>) {
    let defaults = OllamaHost::default();
    if o.timeout_secs == 0 {
        w.push(format!("{name}.timeout_secs 0 replaced by {}", defaults.timeout_secs));
        o.timeout_secs = defaults.timeout_secs;
    }
    if !o.temperature.is_finite() {
        w.push(format!("{name}.temperature is not a number, using {}", defaults.temperature));
        o.temperature = defaults.temperature;
    } else if !(0.0..=1.0).contains(&o.temperature) {
        let clamped = o.temperature.clamp(0.0, 1.0);
        w.push(format!("{name}.temperature {} clamped to {clamped}", o.temperature));
        o.temperature = clamped;
    }
    if o.num_ctx == 0 {
        w.push(format!("{name}.num_ctx 0 replaced by {}", defaults.num_ctx));
        o.num_ctx = defaults.num_ctx;
    }
    if o.num_predict == 0 || o.num_predict < -2 {
        w.push(format!("{name}.num_predict {} replaced by {}", o.num_predict, defaults.num_predict));
        o.num_predict = defaults.num_predict;
    }
}

/// The sources: absolute against the config dir, normalized, deduped.
fn validated_sources(sources: &[PathBuf], config_dir: &Path, w: &mut Vec<String>) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::with_capacity(sources.len());
    for s in sources {
        if s.as_os_str().is_empty() {
            w.push("empty entry in sources removed".to_string());
            continue;
        }
        let abs = normalize(&config_dir.join(s));
        if out.iter().any(|existing| same_path(existing, &abs)) {
            w.push(format!("duplicate source {} removed", abs.display()));
            continue;
        }
        if !abs.exists() {
            w.push(format!("source {} does not exist", abs.display()));
        }
        out.push(abs);
    }
    out
}

/// A key of the file that [`Config`] does not know, and the known key of
/// the same object closest to it (`mcp.prot`: `mcp.port`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct UnknownKey {
    pub key: String,
    pub suggestion: Option<String>,
}

/// Dotted keys present in `value` but unknown to [`Config`].
pub(super) fn unknown_keys(value: &Value) -> Vec<UnknownKey> {
    let reference =
        Config { ollama: vec![OllamaHost::default()], dev: Some(DevConfig::default()), ..Config::default() };
    let reference = serde_json::to_value(&reference).expect("config serializes");
    let mut out = Vec::new();
    collect_unknown(value, &reference, "", &mut out);
    // Accepted spellings of an older version.
    out.retain(|u| u.key != "opensearch.host" && u.key != "id");
    out
}

fn collect_unknown(value: &Value, reference: &Value, prefix: &str, out: &mut Vec<UnknownKey>) {
    let dotted = |k: &str| if prefix.is_empty() { k.to_string() } else { format!("{prefix}.{k}") };
    match (value, reference) {
        (Value::Object(v), Value::Object(r)) => {
            for (k, child) in v {
                match r.get(k) {
                    Some(rc) => collect_unknown(child, rc, &dotted(k), out),
                    None => out.push(UnknownKey { key: dotted(k), suggestion: closest(k, r.keys()).map(&dotted) }),
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

/// The known key closest to `key` when it is near enough to be a typo: at
/// most a third of its letters apart, or one contains the other.
fn closest<'a>(key: &str, known: impl Iterator<Item = &'a String>) -> Option<&'a str> {
    let lower = key.to_lowercase();
    known
        .map(|k| (strsim::damerau_levenshtein(&lower, &k.to_lowercase()), k))
        .filter(|(d, k)| *d <= (key.chars().count() / 3).max(1) || k.contains(&lower) || lower.contains(k.as_str()))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.as_str())
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
        && p.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_util::{load, write};
    use crate::config::{CONFIG_FILE_NAME, DEFAULT_OPENSEARCH_HOST};

    #[test]
    fn values_are_clamped() {
        let tmp = tempfile::tempdir().unwrap();
        write(
            tmp.path(),
            r#"{
              version: "0.2.0",
              ollama: [
                { max_chunk_chars: 10, max_chunk_files: 0, temperature: 5, num_ctx: 0, timeout_secs: 0 },
                { max_chunk_chars: 1000000000, temperature: -1 },
                { temperature: NaN, num_predict: -7 },
              ],
              mcp: { port: 0, token: "", allowed_hosts: [" a ", "a", ""], answer_budget: 10 },
              opensearch: { index_prefix: "MyPrefix" },
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
        assert_eq!(c.mcp.answer_budget, 2_000);
        assert_eq!(c.opensearch.index_prefix, "myprefix");
        assert_eq!(c.opensearch.hosts, [DEFAULT_OPENSEARCH_HOST]);
        assert_eq!(c.log_level(), "debug");
        // A host that is no http(s) URL is an error, not a warning (load.rs).
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
    fn unknown_keys_are_reported() {
        let v: Value =
            json5::from_str("{ mcp: { prot: 1 }, ollama: [{ modle: 'x' }], extra: 1, dev: { log_level: 'x' } }")
                .unwrap();
        let mut keys: Vec<(String, Option<String>)> =
            unknown_keys(&v).into_iter().map(|u| (u.key, u.suggestion)).collect();
        keys.sort();
        let some = |k: &str| Some(k.to_string());
        assert_eq!(
            keys,
            vec![
                ("extra".into(), None),
                ("mcp.prot".into(), some("mcp.port")),
                ("ollama[0].modle".into(), some("ollama[0].model"))
            ]
        );
    }
}
