//! Running a scan: walker threads visit the tree, scan each file and send
//! it, with any warning or walk error, to the one thread that counts them
//! into the report and hands the files to the sink ([`try_scan`]); in path
//! order with [`ScanOptions::ordered`] (`ordered`, below).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::{canonical_root, rel_path, scan_file, walk, ScanError, ScanOptions, ScanReport, ScannedFile, SkipReason};

/// What a walker thread tells the receiving one.
pub(super) enum Msg {
    File(Box<ScannedFile>, Option<ScanError>),
    /// An error that does not stand for a file (e.g. a bad ignore file).
    Warning(ScanError),
    /// The walker could not visit a path.
    WalkError(ScanError),
}

fn walk_error_path(err: &ignore::Error) -> Option<PathBuf> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => walk_error_path(err),
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        ignore::Error::Partial(errs) => errs.iter().find_map(walk_error_path),
        _ => None,
    }
}

/// Scan `root` (a directory, or a single file), handing each file to `sink`
/// as soon as it is processed. Fails only if the root cannot be opened.
pub fn scan(root: &Path, opts: &ScanOptions, mut sink: impl FnMut(ScannedFile)) -> Result<ScanReport, ScanError> {
    try_scan(root, opts, |f| {
        sink(f);
        Ok(())
    })
}

/// What either way of running a scan walks: the root, the options, the
/// threads, and where the folders left out are counted.
pub(super) struct Walk<'a> {
    pub root: &'a Path,
    pub opts: &'a ScanOptions,
    pub threads: usize,
    pub counts: Arc<walk::DirCounts>,
}

/// Like [`scan`], but the consumer may fail; the scan then stops and returns
/// [`ScanError::Consumer`].
pub fn try_scan(
    root: &Path,
    opts: &ScanOptions,
    mut sink: impl FnMut(ScannedFile) -> anyhow::Result<()>,
) -> Result<ScanReport, ScanError> {
    let start = Instant::now();
    let root = canonical_root(root)?;
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    let quit = AtomicBool::new(false);
    let mut report = ScanReport::default();
    let dir_counts = Arc::new(walk::DirCounts::default());

    let walk = Walk { root: &root, opts, threads, counts: dir_counts.clone() };
    let failure = if opts.ordered {
        ordered::scan(walk, &mut report, &mut sink, &quit)
    } else {
        unordered(walk, &mut report, &mut sink, &quit)
    };
    report.elapsed = start.elapsed();
    report.excluded_dirs = dir_counts.counts().into_iter().map(|(r, n)| (r.to_string(), n)).collect();
    match failure {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// The scan whose walker threads scan each file as they meet it: files
/// reach the sink in whatever order they finish.
fn unordered(
    Walk { root, opts, threads, counts }: Walk<'_>,
    report: &mut ScanReport,
    sink: &mut impl FnMut(ScannedFile) -> anyhow::Result<()>,
    quit: &AtomicBool,
) -> Option<ScanError> {
    let (tx, rx) = crossbeam_channel::bounded::<Msg>(threads * QUEUED_PER_THREAD);
    std::thread::scope(|s| {
        s.spawn(move || {
            let walker = walk::counting_builder(root, threads, counts).build_parallel();
            walker.run(|| {
                let tx = tx.clone();
                Box::new(move |res| {
                    if quit.load(Ordering::Relaxed) {
                        return ignore::WalkState::Quit;
                    }
                    visit(root, opts, res, &tx)
                })
            });
            drop(tx);
        });
        let failure = receive(rx.iter(), report, sink, quit);
        // Dropping the receiver makes pending sends fail, so the walker quits.
        drop(rx);
        failure
    })
}

/// Messages queued per walker thread before the walk waits for the consumer.
pub(super) const QUEUED_PER_THREAD: usize = 4;

/// One entry of the walk (on a walker thread): a file is scanned and sent.
fn visit(
    root: &Path,
    opts: &ScanOptions,
    res: Result<ignore::DirEntry, ignore::Error>,
    tx: &crossbeam_channel::Sender<Msg>,
) -> ignore::WalkState {
    for msg in entry_messages(root, opts, res) {
        if tx.send(msg).is_err() {
            return ignore::WalkState::Quit;
        }
    }
    ignore::WalkState::Continue
}

/// What one entry of the walk tells: a warning about it, then the file
/// scanned; nothing for a folder; the error of a path it could not visit.
pub(super) fn entry_messages(
    root: &Path,
    opts: &ScanOptions,
    res: Result<ignore::DirEntry, ignore::Error>,
) -> Vec<Msg> {
    let mut out = Vec::new();
    match res {
        Ok(entry) => {
            if let Some(err) = entry.error() {
                out.push(Msg::Warning(ScanError::Walk { path: rel_path(root, entry.path()), source: err.clone() }));
            }
            if !entry.file_type().is_some_and(|t| t.is_dir()) {
                if let Some(in_flight) = &opts.in_flight {
                    in_flight.start(rel_path(root, entry.path()));
                }
                let (file, err) = scan_file(root, entry.path(), opts);
                if let Some(in_flight) = &opts.in_flight {
                    in_flight.end();
                }
                out.push(Msg::File(Box::new(file), err));
            }
        }
        Err(err) => {
            let path = walk_error_path(&err).map(|p| rel_path(root, &p)).unwrap_or_default();
            out.push(Msg::WalkError(ScanError::Walk { path, source: err }));
        }
    }
    out
}

/// Count what the walkers send into `report` and hand the files to `sink`;
/// returns the consumer's failure, after which `quit` stops the walk.
pub(super) fn receive(
    messages: impl Iterator<Item = Msg>,
    report: &mut ScanReport,
    sink: &mut impl FnMut(ScannedFile) -> anyhow::Result<()>,
    quit: &AtomicBool,
) -> Option<ScanError> {
    for msg in messages {
        match msg {
            Msg::File(file, err) => {
                report.record(&file);
                if let Some(e) = err {
                    report.errors.push(e.report_line());
                }
                let path = file.rel_path.clone();
                if let Err(e) = sink(*file) {
                    quit.store(true, Ordering::Relaxed);
                    return Some(ScanError::Consumer { path, source: e.into() });
                }
            }
            Msg::Warning(e) => report.errors.push(e.report_line()),
            Msg::WalkError(e) => {
                report.files_seen += 1;
                *report.skipped.entry(SkipReason::WalkError).or_default() += 1;
                report.errors.push(e.report_line());
            }
        }
    }
    None
}

mod ordered {
    //! The scan in path order (`ScanOptions::ordered`, `scan ast`): one thread
    //! walks the tree sorted by path and numbers its entries, worker threads
    //! scan them, and the files reach the sink in their walk's order, so two
    //! exports of one tree are the same file. At most [`WINDOW`] entries are
    //! out between the walk and the sink: a slow file holds the others back
    //! without their piling up in memory.
    use std::collections::{BTreeMap, VecDeque};
    use std::sync::atomic::AtomicBool;

    use crossbeam_channel::{bounded, Receiver, Sender};

    use super::{entry_messages, receive, walk, Msg, ScanError, ScanReport, ScannedFile, Walk, QUEUED_PER_THREAD};

    /// Entries walked but not yet handed to the sink, at most.
    const WINDOW: usize = 256;

    /// Scans `root` in path order; returns the consumer's failure, as
    /// `receive` does.
    pub(super) fn scan(
        Walk { root, opts, threads, counts }: Walk<'_>,
        report: &mut ScanReport,
        sink: &mut impl FnMut(ScannedFile) -> anyhow::Result<()>,
        quit: &AtomicBool,
    ) -> Option<ScanError> {
        type Entry = (usize, Result<ignore::DirEntry, ignore::Error>);
        let (jobs, to_scan) = bounded::<Entry>(threads * QUEUED_PER_THREAD);
        let (scanned, results) = bounded::<(usize, Vec<Msg>)>(threads * QUEUED_PER_THREAD);
        let (give_back, tokens) = bounded::<()>(WINDOW);
        for _ in 0..WINDOW {
            let _ = give_back.send(());
        }
        std::thread::scope(|s| {
            s.spawn(move || {
                let mut builder = walk::counting_builder(root, 1, counts);
                builder.sort_by_file_path(|a, b| a.cmp(b));
                for entry in builder.build().enumerate() {
                    // The sink gives a token back for each entry it has seen.
                    if tokens.recv().is_err() || jobs.send(entry).is_err() {
                        break;
                    }
                }
            });
            for _ in 0..threads {
                let (to_scan, scanned) = (to_scan.clone(), scanned.clone());
                s.spawn(move || {
                    for (i, res) in to_scan.iter() {
                        if scanned.send((i, entry_messages(root, opts, res))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop((to_scan, scanned));
            // Dropping `InOrder` (its receiver and its tokens) stops the walk and the workers.
            let in_order = InOrder { results, give_back, next: 0, pending: BTreeMap::new(), ready: VecDeque::new() };
            receive(in_order, report, sink, quit)
        })
    }

    /// The workers' messages in the walk's order.
    struct InOrder {
        results: Receiver<(usize, Vec<Msg>)>,
        give_back: Sender<()>,
        next: usize,
        pending: BTreeMap<usize, Vec<Msg>>,
        ready: VecDeque<Msg>,
    }

    impl Iterator for InOrder {
        type Item = Msg;

        fn next(&mut self) -> Option<Msg> {
            loop {
                if let Some(msg) = self.ready.pop_front() {
                    return Some(msg);
                }
                if let Some(msgs) = self.pending.remove(&self.next) {
                    self.next += 1;
                    let _ = self.give_back.send(());
                    self.ready.extend(msgs);
                    continue;
                }
                let (i, msgs) = self.results.recv().ok()?;
                self.pending.insert(i, msgs);
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::super::{try_scan, ScanOptions};
        use super::*;
        use std::path::Path;

        fn order(root: &Path, threads: usize) -> Vec<String> {
            let opts = ScanOptions { ordered: true, threads, ..ScanOptions::default() };
            let mut paths = Vec::new();
            try_scan(root, &opts, |f| {
                paths.push(f.rel_path);
                Ok(())
            })
            .unwrap();
            paths
        }

        #[test]
        fn files_reach_the_sink_in_path_order_whatever_the_threads() {
            let dir = tempfile::tempdir().unwrap();
            for i in (0..WINDOW + 40).rev() {
                let sub = dir.path().join(format!("d{}", i % 7));
                std::fs::create_dir_all(&sub).unwrap();
                // Files of very different sizes finish out of order.
                let body = "x = 1\n".repeat(if i % 13 == 0 { 2_000 } else { 1 });
                std::fs::write(sub.join(format!("f{i:04}.py")), body).unwrap();
            }
            let one = order(dir.path(), 1);
            assert_eq!(one.len(), WINDOW + 40);
            let mut sorted = one.clone();
            sorted.sort();
            assert_eq!(one, sorted, "one folder level: the walk's order is the paths' order");
            for threads in [2, 4, 8] {
                assert_eq!(order(dir.path(), threads), one, "{threads} threads");
            }
        }
    }
}
