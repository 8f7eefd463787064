//! How fresh an answer is: every file in an answer carries the hash it was
//! indexed with (shortened), when it was indexed, and `stale: true` when the
//! file on disk no longer matches (another size or modification time than
//! the index recorded, or deleted since). Nothing is read: a tool marks each
//! file it answers with what the index recorded ([`add`]), and
//! [`settle`] compares all the marks of one answer with the disk in one
//! blocking task, off the async runtime. The file looked at is the one the
//! index names (its root and path), never a caller's path.

use std::path::{Component, Path, PathBuf};

use serde_json::{json, Map, Value};
use vibe_common::files::freshness::{changed, Indexed};

use crate::answers::{to_value, FileResult, Freshness, NoMore};

/// Hex digits of the indexed hash shown in answers: enough to tell two
/// versions of a file apart, short enough for a small model's budget.
pub const HASH_CHARS: usize = 12;

/// The private key of a file's mark, removed by [`settle`].
const MARK: &str = "_disk";

/// `project`, `path` and `language` of an indexed file, then its freshness.
pub fn file_header(source: &Value) -> Map<String, Value> {
    match to_value(&file_result(source, NoMore {})) {
        Value::Object(header) => header,
        _ => Map::new(),
    }
}

/// A search result: the indexed file (`project`, `path`, `language`, its
/// freshness) and what was `found` in it.
pub fn file_result<M>(source: &Value, found: M) -> FileResult<M> {
    let text = |key: &str| source[key].as_str().map(str::to_string);
    FileResult {
        project: text("root").unwrap_or_default(),
        path: text("path").unwrap_or_default(),
        language: text("language"),
        freshness: freshness(source, false),
        found,
    }
}

/// Adds `hash`, `indexed_at` and the mark [`settle`] turns into `stale:
/// true` when the file changed on disk (and `stale: false` when it did not,
/// with `say_fresh`: a file answer says so).
pub fn add(out: &mut Map<String, Value>, source: &Value, say_fresh: bool) {
    if let Value::Object(fields) = to_value(&freshness(source, say_fresh)) {
        out.extend(fields);
    }
}

/// The freshness of an indexed file as a typed answer holds it: what
/// [`add`] adds.
pub fn freshness(source: &Value, say_fresh: bool) -> Freshness {
    let hash = source["hash"].as_str().unwrap_or_default();
    let (root, path) = (source["root"].as_str().unwrap_or_default(), source["path"].as_str().unwrap_or_default());
    let plain = Path::new(path).components().all(|c| matches!(c, Component::Normal(_)));
    let disk_mark = match (source["size"].as_u64(), plain && !path.is_empty(), Path::new(root).is_absolute()) {
        (Some(size), true, true) => Some(json!([
            root,
            path,
            size,
            source["mtime"].as_u64().unwrap_or(0),
            source["indexed_at"].as_u64().unwrap_or(0),
            say_fresh
        ])),
        _ => None,
    };
    Freshness {
        hash: (!hash.is_empty()).then(|| hash[..hash.len().min(HASH_CHARS)].to_string()),
        indexed_at: source["indexed_at"].as_u64().map(iso_time),
        disk_mark,
        ..Freshness::default()
    }
}

/// The size the index recorded of the file an answer or result names (from
/// its mark, before [`settle`]).
pub fn indexed_size(file: &Value) -> Option<u64> {
    file[MARK][2].as_u64()
}

/// One file to compare with the disk.
struct Check {
    root: PathBuf,
    path: PathBuf,
    indexed: Indexed,
}

impl Check {
    fn of(mark: &Value) -> Option<(Check, bool)> {
        let indexed = Indexed { size: mark[2].as_u64()?, mtime: mark[3].as_u64()?, at: mark[4].as_u64()? };
        let check = Check { root: mark[0].as_str()?.into(), path: mark[1].as_str()?.into(), indexed };
        Some((check, mark[5].as_bool().unwrap_or(false)))
    }

    /// The file on disk against what was indexed; `None` when this machine
    /// cannot tell (the project's root is not here, as for a remote gateway).
    fn on_disk(&self) -> Option<Disk> {
        if !self.root.is_dir() {
            return None;
        }
        match std::fs::metadata(self.root.join(&self.path)) {
            Ok(md) if changed(Some(&md), self.indexed) => Some(Disk::Changed),
            Ok(_) => Some(Disk::Same),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(Disk::Gone),
            Err(_) => None,
        }
    }
}

/// A file on disk, against what was indexed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Disk {
    Same,
    Changed,
    Gone,
}

/// Compares every marked file of the answer with the disk, in one blocking
/// task: `stale: true` where it changed, `stale: false` where a file answer
/// asked and it did not; the marks are removed.
pub async fn settle(answer: &mut Value) {
    let mut marks: Vec<Value> = Vec::new();
    visit(answer, &mut |file| marks.extend(file.get(MARK).cloned()));
    if marks.is_empty() {
        return;
    }
    let checks: Vec<Option<(Check, bool)>> = marks.iter().map(Check::of).collect();
    let verdicts = tokio::task::spawn_blocking(move || {
        checks.iter().map(|c| c.as_ref().and_then(|(check, say)| check.on_disk().map(|d| (d, *say)))).collect()
    })
    .await
    .unwrap_or_else(|_| vec![None; marks.len()]);
    let mut verdicts: std::vec::IntoIter<Option<(Disk, bool)>> = verdicts.into_iter();
    visit(answer, &mut |file| {
        if file.remove(MARK).is_some() {
            match verdicts.next().flatten() {
                Some((Disk::Changed, _)) => {
                    file.insert("stale".into(), json!(true));
                }
                Some((Disk::Gone, _)) => {
                    file.insert("stale".into(), json!(true));
                    file.insert("deleted".into(), json!(true));
                }
                Some((Disk::Same, true)) => {
                    file.insert("stale".into(), json!(false));
                }
                _ => {}
            }
        }
    });
}

/// Calls `f` on the answer's object and on each of its results, in order.
fn visit(answer: &mut Value, f: &mut dyn FnMut(&mut Map<String, Value>)) {
    let Some(top) = answer.as_object_mut() else { return };
    f(top);
    if let Some(results) = top.get_mut("results").and_then(Value::as_array_mut) {
        for r in results.iter_mut().filter_map(Value::as_object_mut) {
            f(r);
        }
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

    fn answer_for(root: &str, path: &str, size: u64, mtime: u64, say_fresh: bool) -> Value {
        let mut out = Map::new();
        let source = json!({ "root": root, "path": path, "hash": "0123456789abcdef", "indexed_at": 0, "size": size, "mtime": mtime });
        add(&mut out, &source, say_fresh);
        json!({ "results": [Value::Object(out)] })
    }

    /// The typed freshness writes the mark under the key `settle` reads.
    #[test]
    fn a_typed_answer_carries_the_mark_settle_reads() {
        let source = json!({ "root": "/r", "path": "a.py", "hash": "0123456789abcdef", "indexed_at": 5, "size": 3 });
        let fields = to_value(&freshness(&source, false));
        assert_eq!(fields[MARK], json!(["/r", "a.py", 3, 0, 5, false]));
        assert_eq!(fields["hash"], json!("0123456789ab"));
        assert_eq!(indexed_size(&fields), Some(3));
    }

    #[tokio::test]
    async fn changed_deleted_and_unknown_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap();
        std::fs::write(dir.path().join("a.py"), "x = 1\n").unwrap();
        let mtime = vibe_common::files::freshness::mtime_ms(&std::fs::metadata(dir.path().join("a.py")).unwrap());
        let mut fresh = answer_for(root, "a.py", 6, mtime, false);
        settle(&mut fresh).await;
        assert_eq!(fresh["results"][0]["hash"], "0123456789ab");
        assert_eq!(fresh["results"][0]["indexed_at"], "1970-01-01T00:00:00Z");
        assert!(fresh["results"][0].get("stale").is_none(), "{fresh}");
        assert!(fresh["results"][0].get(MARK).is_none(), "the mark is removed: {fresh}");
        let mut file = answer_for(root, "a.py", 6, mtime, true);
        settle(&mut file).await;
        assert_eq!(file["results"][0]["stale"], false, "a file answer says it is fresh");
        for (path, size, why) in [("a.py", 7, "changed size"), ("gone.py", 6, "deleted")] {
            let mut a = answer_for(root, path, size, mtime, false);
            settle(&mut a).await;
            assert_eq!(a["results"][0]["stale"], true, "{why}");
            assert_eq!(a["results"][0].get("deleted").is_some(), path == "gone.py", "{why}: {a}");
        }
        for (root, path, why) in
            [("/no/such/root", "a.py", "not on this machine"), (root, "../a.py", "only plain paths")]
        {
            let mut a = answer_for(root, path, 6, mtime, true);
            settle(&mut a).await;
            assert!(a["results"][0].get("stale").is_none(), "{why}: {a}");
        }
    }
}
