//! `admin_sync`: an incremental re-index in a child process.
//!
//! The gateway does not link the scanner. It runs a command (by default the
//! current executable as `vibe-analyzer [--config-dir D] scan index`) in the
//! background, one run at a time, and never waits for it: queries keep being
//! answered from the current index generation while it runs.

use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::Mutex;

/// Outcome of a request to start a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyncStart {
    Started { pid: Option<u32> },
    AlreadyRunning { since_secs: u64 },
}

#[derive(Default)]
struct State {
    running_since: Option<Instant>,
}

/// Starts index runs, one at a time.
#[derive(Clone)]
pub struct SyncRunner {
    command: Arc<Vec<String>>,
    log_file: Option<PathBuf>,
    state: Arc<Mutex<State>>,
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

    /// Starts a run unless one is running. Returns immediately; `on_exit` is
    /// called (in a background task) when the run ends.
    pub async fn start<F>(&self, on_exit: F) -> std::io::Result<SyncStart>
    where
        F: FnOnce(Option<i32>) + Send + 'static,
    {
        let mut state = self.state.lock().await;
        if let Some(since) = state.running_since {
            return Ok(SyncStart::AlreadyRunning { since_secs: since.elapsed().as_secs() });
        }
        let Some((program, args)) = self.command.split_first() else {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "empty sync command"));
        };
        let (stdout, stderr) = match &self.log_file {
            Some(path) => {
                let file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
                (Stdio::from(file.try_clone()?), Stdio::from(file))
            }
            None => (Stdio::null(), Stdio::null()),
        };
        let mut child = tokio::process::Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr)
            .kill_on_drop(false)
            .spawn()?;
        let pid = child.id();
        state.running_since = Some(Instant::now());
        tracing::info!(pid, command = ?self.command, "index run started");
        let shared = self.state.clone();
        tokio::spawn(async move {
            let status = child.wait().await;
            let code = status.as_ref().ok().and_then(|s| s.code());
            match &status {
                Ok(s) if s.success() => tracing::info!(pid, "index run finished"),
                Ok(s) => tracing::warn!(pid, status = %s, "index run failed"),
                Err(e) => tracing::warn!(pid, error = %e, "index run: cannot wait for the child"),
            }
            shared.lock().await.running_since = None;
            on_exit(code);
        });
        Ok(SyncStart::Started { pid })
    }
}
