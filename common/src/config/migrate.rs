//! Migrations of older config versions to [`CONFIG_VERSION`](super::CONFIG_VERSION), applied to the
//! parsed JSON value before it is deserialized into the model.

use serde_json::{Map, Value};

pub(super) type Version = (u64, u64, u64);

pub(super) fn parse_version(s: &str) -> Option<Version> {
    let mut parts = s.split('.').map(|p| p.parse::<u64>().ok());
    let v = (parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(v)
}

/// Migration steps in order: `(target version, step)`. A file older than a
/// target runs that step. The last target must be [`CONFIG_VERSION`](super::CONFIG_VERSION).
type MigrationStep = fn(&mut Map<String, Value>);

const MIGRATIONS: &[(&str, MigrationStep)] = &[("0.2.0", migrate_to_0_2_0)];

pub(super) fn migrate(obj: &mut Map<String, Value>, from: Version) {
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

/// 0.1.0 -> 0.2.0: `opensearch.host` becomes the list `opensearch.hosts`
/// (an `id` of the file is adopted by the owner identity, `identity.json`).
fn migrate_to_0_2_0(obj: &mut Map<String, Value>) {
    if let Some(Value::Object(os)) = obj.get_mut("opensearch") {
        if let Some(host) = os.remove("host") {
            os.entry("hosts").or_insert_with(|| match host {
                Value::Array(list) => Value::Array(list),
                other => Value::Array(vec![other]),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::model::DEFAULT_INDEX_PREFIX;
    use super::*;
    use crate::config::test_util::{load, write};
    use crate::config::{Config, BACKUP_FILE_NAME, CONFIG_FILE_NAME, CONFIG_VERSION, ENV_OPENSEARCH_URL};

    #[test]
    fn migrates_0_1_0_file() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("src")).unwrap();
        let old = r#"// original Vibe Analyzer config
{
  "version": "0.1.0",
  "opensearch": { "host": "http://localhost:9200", "username": "admin", "password": "admin" },
  "mcp": { "host": "0.0.0.0", "port": 9021 },
  "ollama": [{ "host": "http://localhost:11434", "model": "llama3", "max_chunk_chars": 500 }],
  "sources": ["src"],
}
"#;
        let path = write(tmp.path(), old);
        let c = load(tmp.path()).unwrap();
        assert_eq!(c.version, CONFIG_VERSION);
        // An explicit 0.0.0.0 is kept (issue 12 item 5; it used to become loopback).
        assert_eq!(c.mcp.host, "0.0.0.0");
        assert_eq!(c.mcp.port, 9021);
        assert_eq!(
            c.opensearch.host(),
            std::env::var(ENV_OPENSEARCH_URL)
                .ok()
                .filter(|v| !v.trim().is_empty())
                .unwrap_or("http://localhost:9200".into())
        );
        assert!(c.id.is_empty(), "no id: the owner identity is not in config.json5");
        assert_eq!(c.opensearch.username.as_deref(), Some("admin"));
        assert_eq!(c.opensearch.index_prefix, DEFAULT_INDEX_PREFIX);
        assert_eq!(c.ollama[0].model, "llama3");
        assert_eq!(c.ollama[0].max_chunk_chars, 1000);
        assert_eq!(c.sources, vec![tmp.path().join("src")]);
        // Backup holds the old bytes, the file is upgraded and valid JSON5.
        assert_eq!(std::fs::read_to_string(tmp.path().join(BACKUP_FILE_NAME)).unwrap(), old);
        let new_text = std::fs::read_to_string(&path).unwrap();
        let value: Value = json5::from_str(&new_text).unwrap();
        assert_eq!(value["version"], CONFIG_VERSION);
        assert_eq!(value["mcp"]["host"], "0.0.0.0");
        assert_eq!(value["opensearch"]["index_prefix"], DEFAULT_INDEX_PREFIX);
        assert_eq!(value["opensearch"]["hosts"], serde_json::json!(["http://localhost:9200"]));
        assert!(value["opensearch"].get("host").is_none(), "host became hosts");
        assert!(value.get("id").is_none(), "no id is written into the file");
        // Loading again is a no-op.
        load(tmp.path()).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), new_text);
    }

    #[test]
    fn explicit_mcp_host_0_0_0_0_is_kept() {
        for version in ["version: '0.1.0',", ""] {
            let tmp = tempfile::tempdir().unwrap();
            let text = format!("{{ {version} mcp: {{ host: '0.0.0.0', port: 9021 }} }}");
            let path = write(tmp.path(), &text);
            let c = load(tmp.path()).unwrap();
            assert_eq!(c.mcp.host, "0.0.0.0", "{text}");
            assert_eq!(c.mcp.port, 9021);
            // The (migrated) file on disk keeps it, and so does a render of the config.
            let on_disk: Value = json5::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert_eq!(on_disk["mcp"]["host"], "0.0.0.0", "{text}");
            let rendered: Value = json5::from_str(&c.to_json5_string().unwrap()).unwrap();
            assert_eq!(rendered["mcp"]["host"], "0.0.0.0");
            let saved = tmp.path().join("saved").join(CONFIG_FILE_NAME);
            c.save(&saved).unwrap();
            assert_eq!(Config::load(&saved).unwrap().mcp.host, "0.0.0.0");
            // A migrated file was rewritten (with a backup), a current one was not.
            assert_eq!(tmp.path().join(BACKUP_FILE_NAME).exists(), !version.is_empty(), "{text}");
        }
    }
}
