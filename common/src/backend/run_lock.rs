//! One index run per project at a time, across processes and machines.
//!
//! Before a run writes a project (`scan index`, `scan watch`, `serve start
//! --watch`, the `scan index` that `admin_sync` starts) it takes the
//! project's lock: a document `lock-<hash>` in the meta index of locks
//! (`<prefix>_meta_locks`, [`crate::backend::naming::IndexNames::locks`]) that names the
//! run ([`Holder`]: owner id, host, pid, config dir, command, start time) and
//! carries a lease. Every node of a shared cluster sees it. OpenSearch's
//! optimistic concurrency decides who wins: a new lock is written with
//! `op_type=create`, and a lock is renewed, taken over or deleted only with
//! the `if_seq_no`/`if_primary_term` its holder last saw, so two runs can
//! never both hold it.
//!
//! The holder renews the lease every third of it while it runs. Its lock is
//! taken over once its holder is gone: the lease ran out by the taker's clock,
//! the document did not change for a whole lease as the taker watched it
//! (clocks that disagree), or the holder's process no longer exists on this
//! machine (same kernel and pid namespace). A holder that sees its lock taken
//! ([`RunLock::is_lost`]) must not publish what it wrote.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::backend::search::{Search, SearchError};

/// Default lease (`opensearch.lock_lease_secs`).
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);
/// Default wait of a run that meets another (`opensearch.lock_wait_secs`).
pub const DEFAULT_WAIT: Duration = Duration::from_secs(30);
/// How often a waiting run looks at the lock again.
const POLL: Duration = Duration::from_millis(250);
/// The field of a lock document that holds its [`Holder`].
const FIELD: &str = "run_lock";

/// How long a run waits for a project another run holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wait {
    /// Then it gives up and names the holder.
    UpTo(Duration),
    /// Until the holder ends or is gone (`--wait`).
    UntilFree,
}

/// How this process takes locks, and what it says about itself in them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockOptions {
    pub lease: Duration,
    pub wait: Wait,
    /// The command holding the lock, as a user would type it (`scan index`).
    pub command: String,
    /// The owner id of the config running it.
    pub owner: String,
    /// The config directory running it.
    pub config_dir: String,
}

impl Default for LockOptions {
    fn default() -> Self {
        Self {
            lease: DEFAULT_LEASE,
            wait: Wait::UpTo(DEFAULT_WAIT),
            command: "scan index".into(),
            owner: String::new(),
            config_dir: String::new(),
        }
    }
}

/// The run holding a project, as its lock document says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    /// Unique per taken lock.
    pub token: String,
    pub root: String,
    pub command: String,
    pub owner: String,
    pub host: String,
    pub pid: u32,
    pub config_dir: String,
    /// Kernel boot and pid namespace of the holder: a pid is checked only
    /// where it means the same process.
    pub process_space: String,
    pub started_at_ms: u64,
    pub expires_at_ms: u64,
    pub lease_ms: u64,
}

impl Holder {
    /// `` `scan index` (pid 4242 on devbox, config dir /home/u/.vibe-analyzer), running since 2025-05-01 10:00:03 UTC (41 s ago) ``
    pub fn describe(&self) -> String {
        let ago = now_ms().saturating_sub(self.started_at_ms) / 1000;
        let config =
            if self.config_dir.is_empty() { String::new() } else { format!(", config dir {}", self.config_dir) };
        format!(
            "`{}` (pid {} on {}{config}), running since {} ({ago} s ago)",
            self.command,
            self.pid,
            self.host,
            utc_time(self.started_at_ms)
        )
    }

    /// Whether the run that wrote this is gone: its lease ran out, or its
    /// process no longer exists on this machine.
    pub fn is_gone(&self) -> bool {
        if now_ms() > self.expires_at_ms {
            return true;
        }
        if self.process_space.is_empty() || self.process_space != *PROCESS_SPACE {
            return false;
        }
        if self.pid == std::process::id() {
            return !HELD.lock().map(|held| held.contains(&self.token)).unwrap_or(true);
        }
        !process_alive(self.pid)
    }
}

/// What a claim ended with.
#[derive(Debug)]
pub enum Claim {
    Won(Box<RunLock>),
    /// Another run holds the project (after the wait the options allow).
    HeldBy(Holder),
}

/// The id of a project's lock document in the lock index.
pub fn lock_id(hash: &str) -> String {
    format!("lock-{hash}")
}

/// `(seq_no, primary_term)` of a lock document as last seen.
type Version = (u64, u64);

/// A lock this process holds; renewed in the background until released.
pub struct RunLock {
    search: Search,
    path: String,
    holder: Holder,
    lease: Arc<Lease>,
    renewer: Option<tokio::task::JoinHandle<()>>,
    took_over: Option<Holder>,
}

impl std::fmt::Debug for RunLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunLock").field("path", &self.path).field("holder", &self.holder).finish()
    }
}

/// The state the renewal task shares with its lock.
#[derive(Debug)]
struct Lease {
    version: Mutex<Version>,
    /// Milliseconds since `born` of the last successful write.
    renewed_ms: AtomicU64,
    born: Instant,
    lost: AtomicBool,
    stop: tokio::sync::Notify,
}

impl Lease {
    fn renewed(&self, version: Version) {
        if let Ok(mut v) = self.version.lock() {
            *v = version;
        }
        self.renewed_ms.store(self.born.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    fn version(&self) -> Version {
        self.version.lock().map(|v| *v).unwrap_or_default()
    }
}

/// Tokens of the locks this process holds now.
static HELD: LazyLock<Mutex<HashSet<String>>> = LazyLock::new(|| Mutex::new(HashSet::new()));

impl RunLock {
    fn start(search: &Search, path: String, holder: Holder, version: Version, took_over: Option<Holder>) -> Self {
        if let Ok(mut held) = HELD.lock() {
            held.insert(holder.token.clone());
        }
        let lease = Arc::new(Lease {
            version: Mutex::new(version),
            renewed_ms: AtomicU64::new(0),
            born: Instant::now(),
            lost: AtomicBool::new(false),
            stop: tokio::sync::Notify::new(),
        });
        let renewer = tokio::spawn(renew(search.clone(), path.clone(), holder.clone(), lease.clone()));
        Self { search: search.clone(), path, holder, lease, renewer: Some(renewer), took_over }
    }

    /// The run whose lock this one took over, when its holder was gone.
    pub fn took_over(&self) -> Option<&Holder> {
        self.took_over.as_ref()
    }

    pub fn holder(&self) -> &Holder {
        &self.holder
    }

    /// True when another run may hold the project now: the lock was taken
    /// over, or not renewed for a whole lease (OpenSearch unreachable).
    pub fn is_lost(&self) -> bool {
        let elapsed = self.lease.born.elapsed().as_millis() as u64;
        let since_renewal = elapsed.saturating_sub(self.lease.renewed_ms.load(Ordering::Relaxed));
        self.lease.lost.load(Ordering::Relaxed) || since_renewal > self.holder.lease_ms
    }

    /// Stop renewing and delete the lock (only if it is still this run's).
    pub async fn release(mut self) -> Result<(), SearchError> {
        self.lease.stop.notify_one();
        if let Some(renewer) = self.renewer.take() {
            let _ = renewer.await;
        }
        let (seq_no, term) = self.lease.version();
        let path = format!("{}?if_seq_no={seq_no}&if_primary_term={term}", self.path);
        match self.search.delete(&path).await {
            Err(e) if e.status() == Some(409) => Ok(()), // taken over: not ours to delete
            done => done,
        }
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        if let Some(renewer) = self.renewer.take() {
            renewer.abort();
        }
        if let Ok(mut held) = HELD.lock() {
            held.remove(&self.holder.token);
        }
    }
}

/// Renew the lease every third of it until told to stop; a conflict means
/// another run took the lock over.
async fn renew(search: Search, path: String, mut holder: Holder, lease: Arc<Lease>) {
    let every = Duration::from_millis((holder.lease_ms / 3).max(100));
    loop {
        tokio::select! {
            _ = lease.stop.notified() => return,
            _ = tokio::time::sleep(every) => {}
        }
        holder.expires_at_ms = now_ms() + holder.lease_ms;
        let (seq_no, term) = lease.version();
        match search.put(&format!("{path}?if_seq_no={seq_no}&if_primary_term={term}"), &document(&holder)).await {
            Ok(answer) => lease.renewed(version_of(&answer)),
            Err(e) if e.status() == Some(409) => {
                lease.lost.store(true, Ordering::Relaxed);
                tracing::warn!("{}: another run took over this run's index lock", holder.root);
                return;
            }
            Err(e) => tracing::debug!("{}: renewing the index lock failed, retrying: {e}", holder.root),
        }
    }
}

/// One attempt at a lock.
enum Attempt {
    Won(Box<RunLock>),
    Busy(Holder),
    /// The lock changed under the attempt: try again at once.
    Again,
}

/// Take the lock of project `hash` (root `root`), waiting as `options` say.
/// `on_wait` is called once, with the holder, when the run starts waiting.
pub async fn claim(
    search: &Search,
    hash: &str,
    root: &str,
    options: &LockOptions,
    mut on_wait: impl FnMut(&Holder),
) -> Result<Claim, SearchError> {
    let started = Instant::now();
    let mut watched: Option<(Version, Instant)> = None;
    let mut told = false;
    loop {
        match attempt(search, hash, root, options, &mut watched).await? {
            Attempt::Won(lock) => return Ok(Claim::Won(lock)),
            Attempt::Again => continue,
            Attempt::Busy(holder) => {
                if matches!(options.wait, Wait::UpTo(max) if started.elapsed() >= max) {
                    return Ok(Claim::HeldBy(holder));
                }
                if !told {
                    on_wait(&holder);
                    told = true;
                }
                tokio::time::sleep(POLL).await;
            }
        }
    }
}

async fn attempt(
    search: &Search,
    hash: &str,
    root: &str,
    options: &LockOptions,
    watched: &mut Option<(Version, Instant)>,
) -> Result<Attempt, SearchError> {
    let path = format!("/{}/_doc/{}", search.names.locks(), lock_id(hash));
    let mine = new_holder(root, options);
    match search.put(&format!("{path}?op_type=create"), &document(&mine)).await {
        Ok(answer) => return Ok(Attempt::Won(Box::new(RunLock::start(search, path, mine, version_of(&answer), None)))),
        Err(e) if e.status() == Some(409) => {}
        Err(e) => return Err(e),
    }
    let Some(current) = search.get_opt(&path).await? else { return Ok(Attempt::Again) };
    let version = version_of(&current);
    let holder = holder_of(&current);
    // Unchanged for a whole lease as this run watched it: its holder stopped
    // renewing, whatever the clocks say.
    let lease = Duration::from_millis(holder.as_ref().map_or(0, |h| h.lease_ms));
    let stalled = match watched {
        Some((seen, since)) if *seen == version => since.elapsed() > lease,
        _ => {
            *watched = Some((version, Instant::now()));
            false
        }
    };
    if let Some(holder) = holder.filter(|h| !h.is_gone() && !stalled) {
        return Ok(Attempt::Busy(holder));
    }
    let (seq_no, term) = version;
    match search.put(&format!("{path}?if_seq_no={seq_no}&if_primary_term={term}"), &document(&mine)).await {
        Ok(answer) => {
            let previous = holder_of(&current);
            Ok(Attempt::Won(Box::new(RunLock::start(search, path, mine, version_of(&answer), previous))))
        }
        Err(e) if e.status() == Some(409) => Ok(Attempt::Again),
        Err(e) => Err(e),
    }
}

/// The live holders of the given projects' locks, by project hash (one request).
pub async fn live_holders(search: &Search, hashes: &[String]) -> Result<HashMap<String, Holder>, SearchError> {
    if hashes.is_empty() {
        return Ok(HashMap::new());
    }
    let ids: Vec<String> = hashes.iter().map(|h| lock_id(h)).collect();
    let path = format!("/{}/_mget", search.names.locks());
    let answer = match search.post(&path, &json!({ "ids": ids })).await {
        Err(e) if e.status() == Some(404) => return Ok(HashMap::new()), // no lock index yet
        answer => answer?,
    };
    Ok(answer["docs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|doc| {
            let hash = doc["_id"].as_str()?.strip_prefix("lock-")?.to_string();
            Some((hash, holder_of(doc).filter(|h| !h.is_gone())?))
        })
        .collect())
}

fn holder_of(doc: &Value) -> Option<Holder> {
    serde_json::from_value(doc["_source"][FIELD].clone()).ok()
}

fn document(holder: &Holder) -> Value {
    json!({ FIELD: holder })
}

fn version_of(answer: &Value) -> Version {
    (answer["_seq_no"].as_u64().unwrap_or(0), answer["_primary_term"].as_u64().unwrap_or(0))
}

fn new_holder(root: &str, options: &LockOptions) -> Holder {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let now = now_ms();
    let mut token = blake3::Hasher::new();
    token.update(&std::process::id().to_le_bytes());
    token.update(&COUNTER.fetch_add(1, Ordering::Relaxed).to_le_bytes());
    token.update(format!("{:?}{}", std::time::SystemTime::now(), crate::config::hostname()).as_bytes());
    let lease_ms = options.lease.as_millis() as u64;
    Holder {
        token: token.finalize().to_hex()[..16].to_string(),
        root: root.to_string(),
        command: options.command.clone(),
        owner: options.owner.clone(),
        host: crate::config::hostname(),
        pid: std::process::id(),
        config_dir: options.config_dir.clone(),
        process_space: PROCESS_SPACE.clone(),
        started_at_ms: now,
        expires_at_ms: now + lease_ms,
        lease_ms,
    }
}

/// This kernel boot and pid namespace (Linux), or empty: two processes with
/// the same value see the same pids.
static PROCESS_SPACE: LazyLock<String> = LazyLock::new(|| {
    let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap_or_default();
    let namespace = std::fs::read_link("/proc/self/ns/pid").map(|p| p.display().to_string()).unwrap_or_default();
    if boot.trim().is_empty() || namespace.is_empty() {
        return String::new();
    }
    blake3::hash(format!("{}|{namespace}", boot.trim()).as_bytes()).to_hex()[..16].to_string()
});

/// Whether a process runs (and is no zombie), read from `/proc`.
fn process_alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next());
            !matches!(state, Some('Z' | 'X'))
        }
        Err(_) => false,
    }
}

pub fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_millis() as u64
}

/// `2025-05-01 10:00:03 UTC`
pub fn utc_time(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC", rest / 3600, rest % 3600 / 60, rest % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_in_utc() {
        assert_eq!(utc_time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_time(1_714_557_603_000), "2024-05-01 10:00:03 UTC");
        assert_eq!(utc_time(951_782_400_000), "2000-02-29 00:00:00 UTC");
    }

    #[test]
    fn a_holder_is_gone_when_its_lease_ran_out_or_its_process_ended() {
        let options = LockOptions { lease: Duration::from_secs(60), ..Default::default() };
        let mut holder = new_holder("/src/a", &options);
        // This process, but a token it does not hold: a lock it left behind.
        assert!(holder.is_gone());
        HELD.lock().unwrap().insert(holder.token.clone());
        assert!(!holder.is_gone(), "held by this process");
        holder.expires_at_ms = now_ms() - 1;
        assert!(holder.is_gone(), "lease ran out");
        let mut elsewhere = new_holder("/src/a", &options);
        elsewhere.process_space = "another-machine".into();
        elsewhere.pid = u32::MAX;
        assert!(!elsewhere.is_gone(), "a pid of another machine says nothing");
        let mut dead = new_holder("/src/a", &options);
        dead.pid = u32::MAX - 1;
        assert_eq!(dead.is_gone(), !PROCESS_SPACE.is_empty(), "no such process here");
        assert!(holder.describe().starts_with("`scan index` (pid "), "{}", holder.describe());
    }
}
