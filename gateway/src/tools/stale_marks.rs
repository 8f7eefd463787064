//! How fresh an answer is: every file in an answer carries the hash it was
//! indexed with (shortened), when it was indexed, and `stale: true` when the
//! file on disk no longer matches (another size or modification time than
//! the index recorded, or deleted since). Nothing is read: a tool marks each
//! file it answers with what the index recorded ([`freshness`]), and
//! [`settle`] compares all the marks of one answer with the disk in one
//! blocking task, off the async runtime. The file looked at is the one the
//! index names (its root and path), never a caller's path.

use std::path::{Component, Path, PathBuf};

use vibe_common::files::freshness::{changed, Indexed};

use crate::answers::{Answer, DiskMark, FileResult, Freshness, IndexedFile};

/// Hex digits of the indexed hash shown in answers: enough to tell two
/// versions of a file apart, short enough for a small model's budget.
pub const HASH_CHARS: usize = 12;

/// A search result: the indexed file (`project`, `path`, `language`, its
/// freshness) and what was `found` in it.
pub fn file_result<M>(file: &IndexedFile, found: M) -> FileResult<M> {
    FileResult {
        project: file.root.clone().unwrap_or_default(),
        path: file.path.clone(),
        language: file.language.clone(),
        freshness: freshness(file, false),
        found,
    }
}

/// The freshness of an indexed file: its `hash` and `indexed_at`, and the
/// mark [`settle`] turns into `stale: true` when the file changed on disk
/// (and `stale: false` when it did not, with `say_fresh`: a file answer
/// says so).
pub fn freshness(file: &IndexedFile, say_fresh: bool) -> Freshness {
    let hash = file.hash.as_deref().unwrap_or_default();
    let (root, path) = (file.root.as_deref().unwrap_or_default(), file.path.as_str());
    let plain = Path::new(path).components().all(|c| matches!(c, Component::Normal(_)));
    let disk_mark = match (file.size, plain && !path.is_empty(), Path::new(root).is_absolute()) {
        (Some(size), true, true) => Some(DiskMark {
            root: root.to_string(),
            path: path.to_string(),
            size,
            mtime: file.mtime.unwrap_or(0),
            indexed_at: file.indexed_at.unwrap_or(0),
            say_fresh,
        }),
        _ => None,
    };
    Freshness {
        hash: (!hash.is_empty()).then(|| hash[..hash.len().min(HASH_CHARS)].to_string()),
        indexed_at: file.indexed_at.map(iso_time),
        disk_mark,
        ..Freshness::default()
    }
}

/// One file to compare with the disk.
struct Check {
    root: PathBuf,
    path: PathBuf,
    indexed: Indexed,
}

impl Check {
    fn of(mark: &DiskMark) -> Check {
        let indexed = Indexed { size: mark.size, mtime: mark.mtime, at: mark.indexed_at };
        Check { root: mark.root.clone().into(), path: mark.path.clone().into(), indexed }
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
pub async fn settle(answer: &mut Answer) {
    let mut files = answer.files_mut();
    let checks: Vec<Option<(Check, bool)>> =
        files.iter_mut().map(|f| f.disk_mark.take().map(|m| (Check::of(&m), m.say_fresh))).collect();
    if checks.iter().all(Option::is_none) {
        return;
    }
    let n = checks.len();
    let verdicts: Vec<Option<(Disk, bool)>> = tokio::task::spawn_blocking(move || {
        checks.iter().map(|c| c.as_ref().and_then(|(check, say)| check.on_disk().map(|d| (d, *say)))).collect()
    })
    .await
    .unwrap_or_else(|_| vec![None; n]);
    for (file, verdict) in files.into_iter().zip(verdicts) {
        match verdict {
            Some((Disk::Changed, _)) => file.stale = Some(true),
            Some((Disk::Gone, _)) => (file.stale, file.deleted) = (Some(true), Some(true)),
            Some((Disk::Same, true)) => file.stale = Some(false),
            _ => {}
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
    use crate::answers::{FileAnswer, Page, TextAnswer, TextFound, TextPage};
    use serde::{Deserialize, Deserializer};
    use serde_json::json;

    fn file<'de>(source: impl Deserializer<'de>) -> IndexedFile {
        IndexedFile::deserialize(source).unwrap()
    }

    fn answer_for(root: &str, path: &str, size: u64, mtime: u64, say_fresh: bool) -> Answer {
        let source = file(
            json!({ "root": root, "path": path, "hash": "0123456789abcdef", "indexed_at": 0, "size": size, "mtime": mtime }),
        );
        if say_fresh {
            let mut file = FileAnswer::of(&source, crate::answers::Content::default());
            file.freshness = freshness(&source, true);
            return Answer::Content(file);
        }
        let found = TextFound { matches: Vec::new(), more_matches: None, values: Vec::new() };
        let page: TextAnswer = Page {
            query: String::new(),
            total: 1,
            truncated: false,
            next_offset: None,
            note: None,
            results: vec![file_result(&source, found)],
            more: TextPage::default(),
        };
        Answer::Text(page)
    }

    fn file_of(a: &mut Answer) -> serde_json::Value {
        let file = a.files_mut().pop().expect("one file").clone();
        assert!(file.disk_mark.is_none(), "the mark is removed");
        serde_json::to_value(file).unwrap()
    }

    #[test]
    fn the_mark_is_what_the_index_recorded() {
        let source =
            file(json!({ "root": "/r", "path": "a.py", "hash": "0123456789abcdef", "indexed_at": 5, "size": 3 }));
        let fresh = freshness(&source, false);
        let mark =
            DiskMark { root: "/r".into(), path: "a.py".into(), size: 3, mtime: 0, indexed_at: 5, say_fresh: false };
        assert_eq!(fresh.disk_mark, Some(mark));
        assert_eq!(fresh.hash.as_deref(), Some("0123456789ab"));
        assert_eq!(fresh.indexed_size(), Some(3));
        assert!(serde_json::to_value(&fresh).unwrap().get("_disk").is_none(), "never part of an answer");
    }

    #[tokio::test]
    async fn changed_deleted_and_unknown_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_str().unwrap();
        std::fs::write(dir.path().join("a.py"), "x = 1\n").unwrap();
        let mtime = vibe_common::files::freshness::mtime_ms(&std::fs::metadata(dir.path().join("a.py")).unwrap());
        let mut fresh = answer_for(root, "a.py", 6, mtime, false);
        settle(&mut fresh).await;
        let file = file_of(&mut fresh);
        assert_eq!(file["hash"], "0123456789ab");
        assert_eq!(file["indexed_at"], "1970-01-01T00:00:00Z");
        assert!(file.get("stale").is_none(), "{file}");
        let mut answer = answer_for(root, "a.py", 6, mtime, true);
        settle(&mut answer).await;
        assert_eq!(file_of(&mut answer)["stale"], false, "a file answer says it is fresh");
        for (path, size, why) in [("a.py", 7, "changed size"), ("gone.py", 6, "deleted")] {
            let mut a = answer_for(root, path, size, mtime, false);
            settle(&mut a).await;
            let file = file_of(&mut a);
            assert_eq!(file["stale"], true, "{why}");
            assert_eq!(file.get("deleted").is_some(), path == "gone.py", "{why}: {file}");
        }
        for (root, path, why) in
            [("/no/such/root", "a.py", "not on this machine"), (root, "../a.py", "only plain paths")]
        {
            let mut a = answer_for(root, path, 6, mtime, true);
            settle(&mut a).await;
            assert!(file_of(&mut a).get("stale").is_none(), "{why}");
        }
    }
}
