//! `admin_sync`: an incremental re-index in a child process.
//!
//! The gateway does not link the scanner. It runs a command (by default the
//! current executable as `vibe-analyzer [--config-dir D] scan index`) in the
//! background, one run at a time, and never waits for it: queries keep being
//! answered from the current index generation while it runs. The child's
//! output goes to the log file line by line; the runner keeps the last line
//! (the run's progress) and the outcome of the last finished run, so that an
//! assistant can ask how the sync is going (`admin_sync` while one runs,
//! `show_projects` after).

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// Outcome of a request to start a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyncStart {
    Started {
        pid: Option<u32>,
    },
    AlreadyRunning {
        since_secs: u64,
        progress: Option<String>,
    },
    /// Another index run (not started by this server) holds one of the
    /// config's projects ([`vibe_common::backend::run_lock`]).
    HeldElsewhere {
        holder: vibe_common::backend::run_lock::Holder,
    },
}

/// One index run, as the runner saw it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RunRecord {
    /// Milliseconds since the Unix epoch.
    pub started_at_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_at_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// The last line the run printed (its progress while it runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_line: Option<String>,
    /// The first error line, or why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Every error line (at most [`MAX_ERROR_LINES`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

impl RunRecord {
    /// `ok`, or the error line of a failed run (`None` while running).
    pub fn outcome(&self) -> Option<String> {
        self.finished_at_ms?;
        match (&self.error, self.exit_code) {
            (_, Some(0)) => Some("ok".into()),
            (Some(e), _) => Some(e.clone()),
            (None, Some(code)) => Some(format!("failed with exit code {code}")),
            (None, None) => Some("failed: killed by a signal".into()),
        }
    }
}

impl RunRecord {
    /// The outcome for one project: the first error line that names its root;
    /// else `ok` when the run finished well or failed only for other roots;
    /// else the run's own outcome (it failed before reaching any project).
    pub fn outcome_for(&self, root: &str, all_roots: &[&str]) -> Option<String> {
        let outcome = self.outcome()?;
        let names = |line: &str, root: &str| {
            line.match_indices(root)
                .any(|(i, _)| matches!(line[i + root.len()..].chars().next(), None | Some('/' | ':' | ' ')))
        };
        // A line belongs to the deepest root it names (projects may nest).
        let owner = |line: &str| all_roots.iter().filter(|r| names(line, r)).max_by_key(|r| r.len()).copied();
        if let Some(line) = self.errors.iter().find(|l| owner(l) == Some(root)) {
            return Some(line.clone());
        }
        let others_failed = self.errors.iter().any(|l| all_roots.iter().any(|r| names(l, r)));
        Some(if self.exit_code == Some(0) || others_failed { "ok".into() } else { outcome })
    }
}

/// The running run and the last finished one.
#[derive(Debug, Clone, Default)]
pub struct SyncStatus {
    pub running: Option<RunRecord>,
    pub running_secs: Option<u64>,
    pub last: Option<RunRecord>,
}

#[derive(Default)]
struct State {
    running_since: Option<Instant>,
    current: Option<RunRecord>,
    last: Option<RunRecord>,
}

/// Starts index runs, one at a time.
#[derive(Clone)]
pub struct SyncRunner {
    command: Arc<Vec<String>>,
    log_file: Option<PathBuf>,
    state: Arc<Mutex<State>>,
}

/// Most characters kept of a progress or error line.
const MAX_LINE_CHARS: usize = 300;
/// Most error lines kept of one run.
pub const MAX_ERROR_LINES: usize = 100;

pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

/// Whether an output line reports a failure.
fn is_error_line(line: &str) -> bool {
    let l = line.trim_start().to_ascii_lowercase();
    l.starts_with("error") || l.starts_with("fatal") || l.contains(" error:") || l.contains("failed:")
}

impl SyncRunner {
    /// `command[0]` is the program, the rest its arguments. `log_file`
    /// receives the child's stdout and stderr (appended); `None` discards them.
    pub fn new(command: Vec<String>, log_file: Option<PathBuf>) -> Self {
        Self { command: Arc::new(command), log_file, state: Arc::new(Mutex::new(State::default())) }
    }

    /// The default command: this executable, `[--config-dir D] scan index`.
    pub fn default_command(config_dir: Option<&std::path::Path>) -> Vec<String> {
        let exe =
            std::env::current_exe().map(|p| p.display().to_string()).unwrap_or_else(|_| "vibe-analyzer".to_string());
        let mut cmd = vec![exe];
        if let Some(dir) = config_dir {
            cmd.push("--config-dir".into());
            cmd.push(dir.display().to_string());
        }
        cmd.push("scan".into());
        cmd.push("index".into());
        cmd
    }

    pub fn command(&self) -> &[String] {
        &self.command
    }

    pub async fn is_running(&self) -> bool {
        self.state.lock().await.running_since.is_some()
    }

    /// The running run (with its progress) and the last finished one.
    pub async fn status(&self) -> SyncStatus {
        let state = self.state.lock().await;
        SyncStatus {
            running: state.current.clone(),
            running_secs: state.running_since.map(|s| s.elapsed().as_secs()),
            last: state.last.clone(),
        }
    }

    /// Starts a run unless one is running. Returns immediately; `on_exit` is
    /// called (in a background task) when the run ends.
    pub async fn start<F>(&self, on_exit: F) -> std::io::Result<SyncStart>
    where
        F: FnOnce(Option<i32>) + Send + 'static,
    {
        let mut state = self.state.lock().await;
        if let Some(since) = state.running_since {
            let progress = state.current.as_ref().and_then(|r| r.last_line.clone());
            return Ok(SyncStart::AlreadyRunning { since_secs: since.elapsed().as_secs(), progress });
        }
        let Some((program, args)) = self.command.split_first() else {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty sync command"));
        };
        let log = match &self.log_file {
            Some(path) => Some(tokio::fs::OpenOptions::new().create(true).append(true).open(path).await?),
            None => None,
        };
        let mut child = tokio::process::Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(false)
            .spawn()?;
        let pid = child.id();
        state.running_since = Some(Instant::now());
        state.current = Some(RunRecord { started_at_ms: now_ms(), ..RunRecord::default() });
        drop(state);
        tracing::info!(pid, command = ?self.command, "index run started");
        let log = Arc::new(Mutex::new(log));
        let readers: Vec<_> = [
            child.stdout.take().map(|o| Box::new(o) as Box<dyn AsyncRead + Send + Unpin>),
            child.stderr.take().map(|e| Box::new(e) as Box<dyn AsyncRead + Send + Unpin>),
        ]
        .into_iter()
        .flatten()
        .map(|stream| tokio::spawn(follow(stream, log.clone(), self.state.clone())))
        .collect();
        let shared = self.state.clone();
        tokio::spawn(async move {
            let status = child.wait().await;
            for r in readers {
                let _ = r.await;
            }
            let code = status.as_ref().ok().and_then(|s| s.code());
            match &status {
                Ok(s) if s.success() => tracing::info!(pid, "index run finished"),
                Ok(s) => tracing::warn!(pid, status = %s, "index run failed"),
                Err(e) => tracing::warn!(pid, error = %e, "index run: cannot wait for the child"),
            }
            let mut state = shared.lock().await;
            let mut record = state.current.take().unwrap_or_default();
            record.finished_at_ms = Some(now_ms());
            record.exit_code = code;
            if code != Some(0) && record.error.is_none() {
                record.error = match (&status, &record.last_line) {
                    (Err(e), _) => Some(format!("cannot wait for the index run: {e}")),
                    (_, Some(line)) => Some(line.clone()),
                    (_, None) => None,
                };
            }
            state.last = Some(record);
            state.running_since = None;
            drop(state);
            on_exit(code);
        });
        Ok(SyncStart::Started { pid })
    }
}

/// Copies one output stream of the child to the log, line by line, keeping
/// the last line and the first error line in the current record.
async fn follow(
    stream: Box<dyn AsyncRead + Send + Unpin>,
    log: Arc<Mutex<Option<tokio::fs::File>>>,
    state: Arc<Mutex<State>>,
) {
    let mut lines = BufReader::new(stream).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        if let Some(file) = log.lock().await.as_mut() {
            let _ = file.write_all(format!("{line}\n").as_bytes()).await;
        }
        let text: String = line.trim().chars().take(MAX_LINE_CHARS).collect();
        if text.is_empty() {
            continue;
        }
        let mut state = state.lock().await;
        if let Some(record) = state.current.as_mut() {
            if is_error_line(&text) {
                if record.error.is_none() {
                    record.error = Some(text.clone());
                }
                if record.errors.len() < MAX_ERROR_LINES {
                    record.errors.push(text.clone());
                }
            }
            record.last_line = Some(text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes() {
        let mut r = RunRecord { started_at_ms: 1, ..RunRecord::default() };
        assert_eq!(r.outcome(), None);
        r.finished_at_ms = Some(2);
        r.exit_code = Some(0);
        assert_eq!(r.outcome().as_deref(), Some("ok"));
        r.exit_code = Some(2);
        assert_eq!(r.outcome().as_deref(), Some("failed with exit code 2"));
        r.error = Some("Error: OpenSearch at http://x is not reachable".into());
        assert_eq!(r.outcome().as_deref(), Some("Error: OpenSearch at http://x is not reachable"));
        r.exit_code = Some(0);
        assert_eq!(r.outcome().as_deref(), Some("ok"), "a run that finished well is ok");
        assert!(is_error_line("error: cannot read config"));
        // Per project: its own error line, ok when only others failed, else the run's failure.
        let r = RunRecord {
            started_at_ms: 1,
            finished_at_ms: Some(2),
            exit_code: Some(2),
            error: Some("error: /w/b: No such file or directory".into()),
            errors: vec!["error: /w/b: No such file or directory".into()],
            ..RunRecord::default()
        };
        assert_eq!(r.outcome_for("/w/b", &["/w/a", "/w/b"]).as_deref(), Some("error: /w/b: No such file or directory"));
        assert_eq!(r.outcome_for("/w/a", &["/w/a", "/w/b"]).as_deref(), Some("ok"));
        assert_eq!(r.outcome_for("/w", &["/w", "/w/b"]).as_deref(), Some("ok"), "a root that is a prefix of another");
        let down = RunRecord { errors: vec!["error: OpenSearch is not reachable".into()], ..r.clone() };
        assert_eq!(down.outcome_for("/w/a", &["/w/a"]).as_deref(), Some("error: /w/b: No such file or directory"));
        assert!(!is_error_line("samples: Scanned 15 files: parsed 14, text 1, skipped 0, errors 0 in 1.1s"));
    }
}
