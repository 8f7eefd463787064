//! Processing of one file: metadata, hash, binary detection, AST.

use super::binary::{is_binary_content, is_binary_path, SNIFF_LEN};
use super::{rel_path, ScanError, ScanOptions, ScannedFile, SkipReason};
use crate::extract;
use std::fs;
use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// Number of lines: newlines, plus one for a last line without a newline.
pub fn count_lines(bytes: &[u8]) -> u64 {
    if bytes.is_empty() {
        return 0;
    }
    let newlines = bytecount::count(bytes, b'\n') as u64;
    newlines + u64::from(bytes.last() != Some(&b'\n'))
}

fn io_error(file: &mut ScannedFile, e: std::io::Error) -> Option<ScanError> {
    file.skipped = Some(SkipReason::Unreadable);
    Some(ScanError::Io { path: file.rel_path.clone(), source: e })
}

/// Process one file: never fails, but may return the error that made it
/// skip (unreadable, extraction failure) next to the file.
pub fn scan_file(root: &Path, path: &Path, opts: &ScanOptions) -> (ScannedFile, Option<ScanError>) {
    let mut file = ScannedFile { rel_path: rel_path(root, path), ..Default::default() };
    let md = match fs::symlink_metadata(path) {
        Ok(md) => md,
        Err(e) => {
            let err = io_error(&mut file, e);
            return (file, err);
        }
    };
    if md.file_type().is_symlink() {
        file.skipped = Some(SkipReason::Symlink);
        return (file, None);
    }
    if !md.is_file() {
        file.skipped = Some(SkipReason::Special);
        return (file, None);
    }
    file.size = md.len();
    file.mtime = vibe_common::files::freshness::mtime_ms(&md);
    if file.size > opts.max_ast_file_size {
        let err = scan_large(&mut file, path, opts);
        return (file, err);
    }

    let err = READ_BUFFER.with_borrow_mut(|buf| {
        buf.clear();
        if let Err(e) = fs::File::open(path).and_then(|mut f| f.read_to_end(buf)) {
            return io_error(&mut file, e);
        }
        let err = scan_bytes(&mut file, path, buf, opts);
        if buf.capacity() > KEPT_BUFFER {
            *buf = Vec::new();
        }
        err
    });
    (file, err)
}

thread_local! {
    /// The bytes of the file being scanned, one buffer per worker reused from
    /// file to file (a fresh buffer per file costs page faults; the text is
    /// copied only when the index keeps it).
    static READ_BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A read buffer grown larger than this by a big file is not kept.
const KEPT_BUFFER: usize = 2 * 1024 * 1024;

/// Hash, sniff, count and extract a file read whole.
fn scan_bytes(file: &mut ScannedFile, path: &Path, bytes: &[u8], opts: &ScanOptions) -> Option<ScanError> {
    file.size = bytes.len() as u64;
    file.hash = blake3::hash(bytes).to_hex().to_string();
    let nul = is_binary_content(&bytes[..bytes.len().min(SNIFF_LEN)]);
    file.binary = is_binary_path(path) || (nul && !super::encoding::utf16_bom(bytes));
    let lang = if file.binary { None } else { extract::for_path(path) };
    file.language = lang.map(|l| l.name);
    // An unchanged file is only named and hashed: nothing else is needed to skip it.
    if let Some(skip) = &opts.skip {
        if skip(&file.rel_path, &file.version()) {
            file.skipped = Some(SkipReason::Unchanged);
            return None;
        }
    }
    if file.binary {
        file.skipped = Some(SkipReason::Binary);
        return None;
    }
    let decoded = super::encoding::decode(bytes, opts.default_encoding);
    file.encoding = decoded.encoding;
    let text: &str = &decoded.text;
    // A C header holding C++ syntax is C++ (`refine`).
    let lang = lang.map(|l| extract::refine(l, path, text));
    file.language = lang.map(|l| l.name);
    file.lines = count_lines(text.as_bytes());
    let mut err = None;
    if let (true, Some(lang)) = (opts.extract, lang) {
        match catch_unwind(AssertUnwindSafe(|| extract::extract(lang, text))) {
            Ok(Ok(ast)) => file.ast = Some(ast),
            Ok(Err(e)) => {
                file.skipped = Some(SkipReason::ExtractError);
                err = Some(ScanError::Extract { path: file.rel_path.clone(), source: e.into() });
            }
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                file.skipped = Some(SkipReason::ExtractError);
                err =
                    Some(ScanError::Extract { path: file.rel_path.clone(), source: format!("panicked: {msg}").into() });
            }
        }
    }
    if opts.keep_content {
        file.grams = (!text.is_empty()).then(|| vibe_common::document::grams::text_grams(text));
        let (words, bodies) = vibe_common::document::word_bag::file_bags(file.ast.as_ref(), text);
        file.words = (!text.is_empty()).then_some(words);
        file.bodies = bodies;
        file.content = Some(text.to_owned());
    }
    err
}

/// A file over the AST size limit: streamed through the hasher, never held whole.
fn scan_large(file: &mut ScannedFile, path: &Path, opts: &ScanOptions) -> Option<ScanError> {
    let mut f = match fs::File::open(path) {
        Ok(f) => f,
        Err(e) => return io_error(file, e),
    };
    let mut hasher = blake3::Hasher::new();
    let mut buf = vec![0u8; 256 * 1024];
    let mut size = 0u64;
    let mut newlines = 0u64;
    let mut last = None;
    let mut binary = is_binary_path(path);
    loop {
        let n = match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return io_error(file, e),
        };
        let chunk = &buf[..n];
        if size < SNIFF_LEN as u64 {
            let head = (SNIFF_LEN as u64 - size).min(n as u64) as usize;
            binary |= is_binary_content(&chunk[..head]);
        }
        hasher.update(chunk);
        if !binary {
            newlines += bytecount::count(chunk, b'\n') as u64;
        }
        last = chunk.last().copied();
        size += n as u64;
    }
    file.size = size;
    file.hash = hasher.finalize().to_hex().to_string();
    file.binary = binary;
    if !binary {
        file.language = extract::for_path(path).map(|l| l.name);
        file.lines = newlines + u64::from(last.is_some_and(|b| b != b'\n'));
    }
    file.skipped = Some(if binary { SkipReason::Binary } else { SkipReason::TooLarge });
    if let Some(skip) = &opts.skip {
        if skip(&file.rel_path, &file.version()) {
            file.skipped = Some(SkipReason::Unchanged);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        assert_eq!(count_lines(b""), 0);
        assert_eq!(count_lines(b"a"), 1);
        assert_eq!(count_lines(b"a\n"), 1);
        assert_eq!(count_lines(b"a\nb"), 2);
    }

    #[test]
    fn missing_file_is_unreadable_with_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let (f, err) = scan_file(dir.path(), &dir.path().join("gone.py"), &ScanOptions::default());
        assert_eq!(f.skipped, Some(SkipReason::Unreadable));
        assert_eq!(f.rel_path, "gone.py");
        let err = err.unwrap();
        assert_eq!(err.path(), "gone.py");
        assert!(matches!(err, ScanError::Io { .. }));
    }

    #[test]
    fn large_file_is_hashed_like_a_small_one() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big.txt");
        fs::write(&p, "line\n".repeat(1000)).unwrap();
        let small = scan_file(dir.path(), &p, &ScanOptions::default()).0;
        let opts = ScanOptions { max_ast_file_size: 100, ..Default::default() };
        let large = scan_file(dir.path(), &p, &opts).0;
        assert_eq!(small.hash, large.hash);
        assert_eq!(small.lines, 1000);
        assert_eq!(large.lines, 1000);
        assert_eq!(large.skipped, Some(SkipReason::TooLarge));
        assert_eq!(small.skipped, None);
    }

    #[test]
    fn unchanged_files_are_not_parsed() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.py");
        fs::write(&p, "def f():\n    pass\n").unwrap();
        let hash = blake3::hash(b"def f():\n    pass\n").to_hex().to_string();
        let mtime = vibe_common::files::freshness::mtime_ms(&fs::metadata(&p).unwrap());
        let version = crate::scanner::version(&hash, mtime);
        let opts = ScanOptions {
            skip: Some(std::sync::Arc::new(move |rel: &str, v: &str| rel == "a.py" && v == version)),
            keep_content: true,
            ..Default::default()
        };
        let (f, _) = scan_file(dir.path(), &p, &opts);
        assert_eq!(f.skipped, Some(SkipReason::Unchanged));
        assert_eq!(f.hash, hash);
        assert!(f.ast.is_none() && f.content.is_none());
        assert_eq!(f.language, Some("Python"));
        // Touched: the same hash, another mtime, written again.
        let later = fs::metadata(&p).unwrap().modified().unwrap() + std::time::Duration::from_secs(5);
        fs::File::options().write(true).open(&p).unwrap().set_modified(later).unwrap();
        let (f, _) = scan_file(dir.path(), &p, &opts);
        assert_eq!(f.skipped, None, "a touched file is indexed again");
    }
}
