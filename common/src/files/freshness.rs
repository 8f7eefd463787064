//! Whether a file changed since it was indexed, told from its metadata
//! alone (size and modification time), never by reading it: the indexer
//! stores both beside the hash, and answers compare them with the disk.

use std::fs::Metadata;
use std::time::UNIX_EPOCH;

/// A file's modification time in epoch milliseconds (0 when the system
/// cannot tell).
pub fn mtime_ms(md: &Metadata) -> u64 {
    md.modified().ok().and_then(|t| t.duration_since(UNIX_EPOCH).ok()).map_or(0, |d| d.as_millis() as u64)
}

/// What the index recorded of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Indexed {
    pub size: u64,
    /// The file's mtime when scanned; 0 for documents written before it was
    /// recorded (then [`Indexed::at`] bounds it).
    pub mtime: u64,
    /// When the document was written (epoch ms).
    pub at: u64,
}

/// Whether the file on disk (its metadata, or `None` when it is gone)
/// differs from what was indexed: another size, or another modification
/// time (later than the indexing itself when the mtime was not recorded).
pub fn changed(disk: Option<&Metadata>, indexed: Indexed) -> bool {
    let Some(md) = disk else { return true };
    if md.len() != indexed.size {
        return true;
    }
    let mtime = mtime_ms(md);
    if indexed.mtime > 0 {
        mtime != indexed.mtime
    } else {
        mtime > indexed.at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_and_mtime_tell_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.py");
        std::fs::write(&path, "x = 1\n").unwrap();
        let md = std::fs::metadata(&path).unwrap();
        let indexed = Indexed { size: 6, mtime: mtime_ms(&md), at: mtime_ms(&md) + 5 };
        assert!(!changed(Some(&md), indexed));
        assert!(changed(Some(&md), Indexed { size: 7, ..indexed }), "another size");
        assert!(changed(Some(&md), Indexed { mtime: indexed.mtime - 1000, ..indexed }), "touched");
        assert!(!changed(Some(&md), Indexed { mtime: 0, ..indexed }), "older document, modified before it");
        assert!(changed(Some(&md), Indexed { mtime: 0, at: indexed.mtime - 1000, ..indexed }), "modified after");
        assert!(changed(None, indexed), "deleted");
    }
}
