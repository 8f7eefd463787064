//! The extra OpenSearch nodes some integration tests start, kill and restart
//! through tests/opensearch/start.sh: one definition of how, included by each
//! test crate with `#[path = "../../../tests/support/test_cluster.rs"]`.

#![allow(dead_code)] // each crate uses part of it

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// Nodes on HTTP ports `port..port + nodes`, living under `home`.
pub struct TestCluster {
    pub port: u16,
    pub nodes: u16,
    pub home: PathBuf,
    /// Extra environment for start.sh (e.g. `OPENSEARCH_TRANSPORT_PORT`).
    pub env: Vec<(&'static str, String)>,
}

impl TestCluster {
    /// `nodes` nodes from `port`, under `<tmp>/<dir>`.
    pub fn new(port: u16, nodes: u16, dir: &str) -> Self {
        Self { port, nodes, home: std::env::temp_dir().join(dir), env: Vec::new() }
    }

    /// The three-node cluster of the `failover3` tests (`VIBE_FAILOVER3_PORT`,
    /// default 9270, and `VIBE_FAILOVER3_HOME`), shared with bench/failover3.sh.
    pub fn three_nodes() -> Self {
        let port = std::env::var("VIBE_FAILOVER3_PORT").ok().and_then(|p| p.parse().ok()).unwrap_or(9270);
        let home = std::env::var_os("VIBE_FAILOVER3_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| std::env::temp_dir().join("vibe-os-failover3"));
        Self { port, nodes: 3, home, env: Vec::new() }
    }

    /// Every node's URL.
    pub fn hosts(&self) -> Vec<String> {
        (self.port..self.port + self.nodes).map(|p| format!("http://127.0.0.1:{p}")).collect()
    }

    /// `start.sh <cmd>` (start reuses live nodes and restarts dead ones);
    /// `fresh` wipes the nodes' data first.
    pub fn run(&self, cmd: &str, fresh: bool) -> bool {
        Command::new("bash")
            .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/opensearch/start.sh"))
            .arg(cmd)
            .env("OPENSEARCH_PORT", self.port.to_string())
            .env("OPENSEARCH_NODES", self.nodes.to_string())
            .env("OPENSEARCH_HEAP", std::env::var("OPENSEARCH_HEAP").unwrap_or_else(|_| "512m".into()))
            .env("VIBE_OS_HOME", &self.home)
            .env("OPENSEARCH_FRESH", if fresh { "1" } else { "0" })
            .envs(self.env.iter().map(|(k, v)| (*k, v.as_str())))
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    }

    /// The HTTP port of the node named `vibe-node-<i>` (start.sh's names).
    pub fn port_of(&self, node_name: &str) -> Option<u16> {
        let i: u16 = node_name.trim_start_matches("vibe-node-").parse().ok()?;
        Some(self.port + i - 1)
    }

    /// SIGKILLs the node on `http_port` and waits until the port is closed.
    /// start.sh names the pid file `node-<port>.pid` (OpenSearch 2.x) or
    /// `node-<port>-v3.pid` (3.x: `OPENSEARCH_VERSION=3.…`, inherited here).
    pub fn kill(&self, http_port: u16) {
        let v3 = std::env::var("OPENSEARCH_VERSION").is_ok_and(|v| v.starts_with("3."));
        let file = self.home.join(format!("node-{http_port}{}.pid", if v3 { "-v3" } else { "" }));
        let pid = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("no pid file {} for the node on {http_port}: {e}", file.display()));
        assert!(Command::new("kill").args(["-9", pid.trim()]).status().unwrap().success());
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", http_port)).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("the node on {http_port} still answers after SIGKILL");
    }
}
