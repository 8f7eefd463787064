//! The files being scanned right now, so that one that takes long is named
//! while it is: a progress bar that sits still says on what, and a run
//! without one (not on a terminal) says it in a line.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::thread::{JoinHandle, ThreadId};
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, RecvTimeoutError, Sender};

/// The file each scanning thread is on, and since when.
#[derive(Debug, Default)]
pub struct InFlight {
    files: Mutex<HashMap<ThreadId, (String, Instant)>>,
}

impl InFlight {
    pub(super) fn start(&self, path: String) {
        if let Ok(mut files) = self.files.lock() {
            files.insert(std::thread::current().id(), (path, Instant::now()));
        }
    }

    pub(super) fn end(&self) {
        if let Ok(mut files) = self.files.lock() {
            files.remove(&std::thread::current().id());
        }
    }

    /// The file scanned the longest now, and for how long.
    pub fn longest(&self) -> Option<(String, Duration)> {
        let files = self.files.lock().ok()?;
        files.values().min_by_key(|(_, since)| *since).map(|(path, since)| (path.clone(), since.elapsed()))
    }
}

/// A file taking this long is named on the progress bar...
const ON_BAR_AFTER: Duration = Duration::from_secs(1);
/// ... and, with no bar, in a line on stderr.
const IN_A_LINE_AFTER: Duration = Duration::from_secs(10);
const EVERY: Duration = Duration::from_millis(500);

/// What to tell of the slowest file at one look.
#[derive(Debug, PartialEq, Eq)]
enum Tell {
    /// The bar's message while the file lasts.
    OnBar(String),
    /// The file is done: the bar's message as it was.
    BarAsBefore,
    /// No bar: one line, once per file.
    Line(String),
}

/// What was told so far.
#[derive(Debug, Default)]
struct Teller {
    on_bar: bool,
    line_for: Option<String>,
}

impl Teller {
    fn tick(&mut self, label: &str, bar: bool, slow: Option<(String, Duration)>) -> Option<Tell> {
        match (bar, slow.filter(|(_, took)| *took >= ON_BAR_AFTER)) {
            (true, Some((path, took))) => {
                self.on_bar = true;
                Some(Tell::OnBar(format!("{label}: scanning {path} ({} s)", took.as_secs())))
            }
            (true, None) if self.on_bar => {
                self.on_bar = false;
                Some(Tell::BarAsBefore)
            }
            (false, Some((path, took))) if took >= IN_A_LINE_AFTER && self.line_for.as_ref() != Some(&path) => {
                let line = format!("{label}: {path} is taking long ({} s so far)", took.as_secs());
                self.line_for = Some(path);
                Some(Tell::Line(line))
            }
            _ => None,
        }
    }
}

/// Watches `in_flight` until dropped, naming a file that takes long: on
/// `bar` (its message, given back when the file is done) when stderr is a
/// terminal, else once per file in a line on stderr, after `label`.
pub struct SlowFiles {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl SlowFiles {
    pub fn watch(in_flight: Arc<InFlight>, bar: Option<indicatif::ProgressBar>, label: String) -> Self {
        let (stop, stopped) = bounded::<()>(0);
        let bar = bar.filter(|_| std::io::stderr().is_terminal());
        let thread = std::thread::spawn(move || {
            let (mut teller, mut kept): (Teller, Option<String>) = (Teller::default(), None);
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(EVERY) {
                match (teller.tick(&label, bar.is_some(), in_flight.longest()), &bar) {
                    (Some(Tell::OnBar(message)), Some(bar)) => {
                        kept.get_or_insert_with(|| bar.message());
                        bar.set_message(message);
                    }
                    (Some(Tell::BarAsBefore), Some(bar)) => bar.set_message(kept.take().unwrap_or_default()),
                    (Some(Tell::Line(line)), _) => eprintln!("{line}"),
                    _ => {}
                }
            }
        });
        SlowFiles { stop: Some(stop), thread: Some(thread) }
    }
}

impl Drop for SlowFiles {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_scanned_longest_is_named() {
        let in_flight = Arc::new(InFlight::default());
        assert!(in_flight.longest().is_none());
        in_flight.start("big.py".into());
        let other = in_flight.clone();
        std::thread::spawn(move || other.start("small.py".into())).join().unwrap();
        let (path, _) = in_flight.longest().unwrap();
        assert_eq!(path, "big.py");
        in_flight.end();
        assert_eq!(in_flight.longest().unwrap().0, "small.py", "another thread's file is still in flight");
    }

    #[test]
    fn a_slow_file_is_told_on_the_bar_while_it_lasts_or_in_one_line() {
        let slow = |path: &str, secs: u64| Some((path.to_string(), Duration::from_secs(secs)));
        let mut bar = Teller::default();
        assert_eq!(bar.tick("shop", true, slow("a.py", 0)), None, "a quick file is not named");
        assert_eq!(bar.tick("shop", true, slow("big.py", 3)), Some(Tell::OnBar("shop: scanning big.py (3 s)".into())));
        assert_eq!(bar.tick("shop", true, None), Some(Tell::BarAsBefore));
        assert_eq!(bar.tick("shop", true, None), None);
        let mut line = Teller::default();
        assert_eq!(line.tick("shop", false, slow("big.py", 3)), None, "a line waits longer than the bar");
        let told = Some(Tell::Line("shop: big.py is taking long (12 s so far)".into()));
        assert_eq!(line.tick("shop", false, slow("big.py", 12)), told);
        assert_eq!(line.tick("shop", false, slow("big.py", 13)), None, "once per file");
        assert!(matches!(line.tick("shop", false, slow("huge.py", 11)), Some(Tell::Line(_))));
    }
}
