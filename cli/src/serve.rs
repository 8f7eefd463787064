//! `vibe-analyzer serve start|status|stop`: the MCP gateway in the foreground,
//! with a pid file (`<config dir>/serve.pid`) that `status` and `stop` read.

use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use vibe_common::backend::search::Search;

use super::{Ctx, NotRunning, ServeCommand, ServeStartArgs};

/// Name of the pid file in the config directory.
pub const PID_FILE: &str = "serve.pid";
/// How long `serve stop` waits for the server to exit.
const STOP_TIMEOUT: Duration = Duration::from_secs(10);
/// How long `serve start --watch` waits for its watcher once the server stopped.
const WATCH_STOP_TIMEOUT: Duration = Duration::from_secs(5);

/// What `serve start` records about itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PidInfo {
    pub pid: u32,
    pub host: String,
    pub port: u16,
}

impl PidInfo {
    fn url(&self) -> String {
        let host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        format!("http://{host}:{}", self.port)
    }
}

pub fn run(ctx: &Ctx, args: ServeCommand) -> anyhow::Result<()> {
    match args {
        ServeCommand::Start(a) => start(ctx, a),
        ServeCommand::Status => status(ctx),
        ServeCommand::Stop => stop(ctx),
    }
}

fn pid_path(ctx: &Ctx) -> PathBuf {
    ctx.config_dir.join(PID_FILE)
}

fn start(ctx: &Ctx, args: ServeStartArgs) -> anyhow::Result<()> {
    let pid_file = pid_path(ctx);
    if let Some(info) = read_pid(&pid_file) {
        if is_alive(info.pid) && port_answers(&info.host, info.port) {
            anyhow::bail!(
                "the MCP server is already running (pid {}) on {}; stop it with: {}",
                info.pid,
                info.url(),
                ctx.command("serve stop")
            );
        }
        let _ = std::fs::remove_file(&pid_file);
    }
    let mut opts = vibe_gateway::ServeOptions::from_config(&ctx.config, Some(ctx.config_dir.clone()));
    if let Some(host) = args.host {
        opts.host = host;
    }
    if let Some(port) = args.port {
        opts.port = port;
    }
    let watch = match args.watch {
        true => Some((
            super::watch::options(ctx, None, args.no_llm, "serve start --watch")?,
            Search::new(&ctx.config.opensearch)?,
        )),
        false => None,
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let older_format = older_format_warning(ctx).await;
        let server = vibe_gateway::spawn(&ctx.config, opts.clone()).await?;
        let info = PidInfo { pid: std::process::id(), host: opts.host.clone(), port: server.addr.port() };
        write_pid(&pid_file, &info)?;
        eprintln!(
            "vibe-analyzer MCP server listening on http://{} (endpoints /, /mcp and /mcp/<project>), pid {}",
            server.addr, info.pid
        );
        if let Some(warning) = older_format {
            eprintln!("{warning}");
        }
        // The watcher runs beside the server and stops with it.
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let watcher = watch.map(|(opts, search)| {
            tokio::spawn(async move {
                let shutdown = async {
                    let _ = stopped.await;
                };
                if let Err(e) = vibe_ingest::watch::run(&search, opts, shutdown, |line| eprintln!("{line}")).await {
                    eprintln!("watch: {e:#}");
                }
            })
        });
        let result = vibe_gateway::run_until_signal(server).await;
        let _ = stop.send(());
        if let Some(watcher) = watcher {
            if tokio::time::timeout(WATCH_STOP_TIMEOUT, watcher).await.is_err() {
                eprintln!("watch: did not stop within {}s", WATCH_STOP_TIMEOUT.as_secs());
            }
        }
        // Remove the pid file only if it is still ours.
        if read_pid(&pid_file).is_some_and(|p| p.pid == info.pid) {
            let _ = std::fs::remove_file(&pid_file);
        }
        result
    })
}

/// How long `serve start` waits for the projects' meta documents before
/// it leaves out [`older_format_warning`] (the server runs either way).
const FORMAT_CHECK_TIMEOUT: Duration = Duration::from_secs(5);

/// A warning naming the projects indexed with another index format than
/// this binary's (an upgrade): they answer from what the older version
/// indexed until the next `scan index` rebuilds them
/// ([`vibe_ingest::indexer::format`]). `None` when all are current, or when
/// OpenSearch does not answer (the server says so on each call).
async fn older_format_warning(ctx: &Ctx) -> Option<String> {
    let search = Search::new(&ctx.config.opensearch).ok()?;
    let read = vibe_ingest::indexer::store::meta_projects(&search);
    let projects = tokio::time::timeout(FORMAT_CHECK_TIMEOUT, read).await.ok()?.ok()?;
    let current = vibe_ingest::indexer::format::current();
    let older: Vec<String> = projects
        .values()
        .filter(|m| m.index_format.as_deref() != Some(current))
        .map(|m| m.root.clone().unwrap_or_else(|| "(unknown root)".into()))
        .collect();
    (!older.is_empty()).then(|| {
        format!(
            "warning: {} project(s) were indexed by another version of vibe-analyzer: {}. Until \
             `{}` rebuilds them, their answers may lack what this version shows.",
            older.len(),
            older.join(", "),
            ctx.command("scan index")
        )
    })
}

/// Prints the server's state; when it is not running, also answers
/// [`NotRunning`] (exit code 3).
fn status(ctx: &Ctx) -> anyhow::Result<()> {
    let pid_file = pid_path(ctx);
    let Some(info) = read_pid(&pid_file) else {
        println!("not running");
        return Err(NotRunning.into());
    };
    match (is_alive(info.pid), port_answers(&info.host, info.port)) {
        (true, true) => println!("running (pid {}) on {}", info.pid, info.url()),
        (true, false) => println!("starting or not answering (pid {}, {} does not answer)", info.pid, info.url()),
        (false, _) => {
            let _ = std::fs::remove_file(&pid_file);
            println!("not running (removed a stale pid file for pid {})", info.pid);
            return Err(NotRunning.into());
        }
    }
    Ok(())
}

fn stop(ctx: &Ctx) -> anyhow::Result<()> {
    let pid_file = pid_path(ctx);
    let Some(info) = read_pid(&pid_file) else {
        println!("not running");
        return Ok(());
    };
    if !is_alive(info.pid) {
        let _ = std::fs::remove_file(&pid_file);
        println!("not running (removed a stale pid file for pid {})", info.pid);
        return Ok(());
    }
    signal(info.pid, "TERM")?;
    let deadline = Instant::now() + STOP_TIMEOUT;
    while is_alive(info.pid) {
        if Instant::now() > deadline {
            anyhow::bail!(
                "the MCP server (pid {}) did not stop within {}s; kill it with: kill -9 {}",
                info.pid,
                STOP_TIMEOUT.as_secs(),
                info.pid
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    if read_pid(&pid_file).is_some_and(|p| p.pid == info.pid) {
        let _ = std::fs::remove_file(&pid_file);
    }
    println!("stopped (pid {})", info.pid);
    Ok(())
}

fn read_pid(path: &Path) -> Option<PidInfo> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

fn write_pid(path: &Path, info: &PidInfo) -> anyhow::Result<()> {
    let tmp = path.with_extension("pid.tmp");
    std::fs::write(&tmp, serde_json::to_string(info)?).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// A live process (a zombie counts as dead).
fn is_alive(pid: u32) -> bool {
    let proc_stat = PathBuf::from(format!("/proc/{pid}/stat"));
    if Path::new("/proc/self/stat").exists() {
        return match std::fs::read_to_string(&proc_stat) {
            // The state follows the parenthesized command name.
            Ok(stat) => stat
                .rsplit_once(')')
                .map(|(_, rest)| rest.trim_start())
                .is_some_and(|rest| !rest.starts_with('Z') && !rest.starts_with('X')),
            Err(_) => false,
        };
    }
    std::process::Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn signal(pid: u32, name: &str) -> anyhow::Result<()> {
    let status = std::process::Command::new("kill")
        .args([format!("-{name}"), pid.to_string()])
        .status()
        .context("cannot run kill")?;
    anyhow::ensure!(status.success(), "kill -{name} {pid} failed");
    Ok(())
}

/// Whether something accepts TCP connections on host:port (a wildcard host is
/// checked on loopback).
fn port_answers(host: &str, port: u16) -> bool {
    let host = match host.trim() {
        "0.0.0.0" | "" => "127.0.0.1",
        "::" | "[::]" => "::1",
        h => h.trim_matches(|c| c == '[' || c == ']'),
    };
    let addrs: Vec<SocketAddr> = (host, port).to_socket_addrs().map(|a| a.collect()).unwrap_or_default();
    addrs.iter().any(|a| TcpStream::connect_timeout(a, Duration::from_secs(1)).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pid_file_round_trip_and_liveness() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(PID_FILE);
        let info = PidInfo { pid: std::process::id(), host: "127.0.0.1".into(), port: 9 };
        write_pid(&path, &info).unwrap();
        assert_eq!(read_pid(&path), Some(info));
        assert!(is_alive(std::process::id()));
        assert!(!is_alive(u32::MAX - 1));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        assert!(port_answers("0.0.0.0", listener.local_addr().unwrap().port()));
    }
}
