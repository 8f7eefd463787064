//! How fresh an answer is: every file in an answer carries the hash it was
//! indexed with (shortened), when it was indexed, and `stale: true` when the
//! file on disk no longer matches (changed or deleted since). The file read
//! is the one the index names (its root and path), never a caller's path.

use std::path::{Component, Path};

use serde_json::{json, Map, Value};

/// Hex digits of the indexed hash shown in answers: enough to tell two
/// versions of a file apart, short enough for a small model's budget.
pub const HASH_CHARS: usize = 12;

/// `project`, `path` and `language` of an indexed file, then its freshness.
pub fn file_header(source: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("project".into(), source["root"].clone());
    out.insert("path".into(), source["path"].clone());
    out.insert("language".into(), source["language"].clone());
    add(&mut out, source);
    out
}

/// Adds `hash`, `indexed_at` and, when the file changed on disk, `stale:
/// true`. Answers whether it is stale (`None`: cannot tell here).
pub fn add(out: &mut Map<String, Value>, source: &Value) -> Option<bool> {
    let hash = source["hash"].as_str().unwrap_or_default();
    if !hash.is_empty() {
        out.insert("hash".into(), json!(&hash[..hash.len().min(HASH_CHARS)]));
    }
    if let Some(ms) = source["indexed_at"].as_u64() {
        out.insert("indexed_at".into(), json!(iso_time(ms)));
    }
    let (root, path) = (source["root"].as_str().unwrap_or_default(), source["path"].as_str().unwrap_or_default());
    let stale = is_stale(root, path, hash);
    if stale == Some(true) {
        out.insert("stale".into(), json!(true));
    }
    stale
}

/// Whether the file at `root/path` differs from what was indexed (`hash`):
/// `Some(true)` when it changed or is gone, `None` when this machine cannot
/// tell (the project's root is not here, as for a remote gateway).
pub fn is_stale(root: &str, path: &str, hash: &str) -> Option<bool> {
    let root = Path::new(root);
    let rel = Path::new(path);
    let plain = rel.components().all(|c| matches!(c, Component::Normal(_)));
    if hash.is_empty() || !plain || !root.is_absolute() || !root.is_dir() {
        return None;
    }
    match std::fs::read(root.join(rel)) {
        Ok(bytes) => Some(blake3::hash(&bytes).to_hex().as_str() != hash),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(true),
        Err(_) => None,
    }
}

/// RFC 3339 time, to the second, of epoch milliseconds.
pub fn iso_time(ms: u64) -> String {
    chrono::DateTime::from_timestamp_millis(ms as i64)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_deleted_and_unknown_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap();
        std::fs::write(dir.path().join("a.py"), "x = 1\n").unwrap();
        let hash = blake3::hash(b"x = 1\n").to_hex().to_string();
        assert_eq!(is_stale(root, "a.py", &hash), Some(false));
        std::fs::write(dir.path().join("a.py"), "x = 2\n").unwrap();
        assert_eq!(is_stale(root, "a.py", &hash), Some(true), "changed");
        assert_eq!(is_stale(root, "gone.py", &hash), Some(true), "deleted");
        assert_eq!(is_stale("/no/such/root", "a.py", &hash), None, "not on this machine");
        assert_eq!(is_stale(root, "../a.py", &hash), None, "only plain relative paths");
        let mut out = Map::new();
        add(&mut out, &json!({ "root": root, "path": "a.py", "hash": hash, "indexed_at": 0 }));
        assert_eq!(out["hash"], json!(&hash[..HASH_CHARS]));
        assert_eq!(out["indexed_at"], "1970-01-01T00:00:00Z");
        assert_eq!(out["stale"], true);
    }
}
