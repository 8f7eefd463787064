//! The scan in path order (`ScanOptions::ordered`, `scan ast`): one thread
//! walks the tree sorted by path and numbers its entries, worker threads
//! scan them, and the files reach the sink in their walk's order, so two
//! exports of one tree are the same file. At most [`WINDOW`] entries are
//! out between the walk and the sink: a slow file holds the others back
//! without their piling up in memory.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::AtomicBool;

use crossbeam_channel::{bounded, Receiver, Sender};

use super::run::{entry_messages, receive, Msg, Walk, QUEUED_PER_THREAD};
use super::{walk, ScanError, ScanReport, ScannedFile};

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
