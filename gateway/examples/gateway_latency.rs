//! Latency of each search tool through MCP against the same stored template
//! called directly (`_search/template`), and the gateway's added cost.
//!
//!     cargo run --release -p vibe-gateway --example gateway_latency -- \
//!         --url http://127.0.0.1:9020/mcp --config-dir ~/.vibe-analyzer [--iterations 300] [--target NAME]
//!
//! Both paths use one keep-alive HTTP connection and are measured
//! interleaved, so drift in OpenSearch affects both alike. The template
//! parameters come from the gateway's own code (`vibe_gateway::template_params`).
//! See bench/gateway_latency.sh for a complete run on a large tree.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Parser;
use serde_json::{json, Value};
use vibe_common::backend::templates;
use vibe_common::config::Config;
use vibe_gateway::template_params;

/// Latency of each search tool through MCP against the same stored template.
#[derive(Parser)]
struct Opts {
    /// The gateway's MCP endpoint.
    #[arg(long, default_value = "http://127.0.0.1:9020/mcp")]
    url: String,
    /// The config dir of the indexed tree (OpenSearch host, index prefix).
    #[arg(long)]
    config_dir: Option<PathBuf>,
    /// Calls per tool and path.
    #[arg(long, default_value_t = 300)]
    iterations: usize,
    /// A project name or root; default: all projects.
    #[arg(long)]
    target: Option<String>,
}

struct Mcp {
    http: reqwest::Client,
    url: String,
    session: String,
    protocol: String,
    id: u64,
}

fn sse_message(body: &str, id: u64) -> Option<Value> {
    body.split("\n\n")
        .filter_map(|e| {
            let data: Vec<&str> = e.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim_start).collect();
            serde_json::from_str::<Value>(&data.join("\n")).ok()
        })
        .find(|m| m["id"] == json!(id))
        .or_else(|| serde_json::from_str::<Value>(body).ok().filter(|m| m["id"] == json!(id)))
}

impl Mcp {
    async fn connect(http: reqwest::Client, url: &str) -> Result<Self> {
        let init = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "bench", "version": "1" } } });
        let r = http
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(init.to_string())
            .send()
            .await?;
        let session = r.headers().get("mcp-session-id").context("no session id")?.to_str()?.to_string();
        let body = r.text().await?;
        let protocol = sse_message(&body, 0).context("no initialize result")?["result"]["protocolVersion"]
            .as_str()
            .unwrap_or("2025-11-25")
            .to_string();
        let mcp = Mcp { http, url: url.to_string(), session, protocol, id: 0 };
        mcp.post(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })).send().await?;
        Ok(mcp)
    }

    fn post(&self, body: &Value) -> reqwest::RequestBuilder {
        self.http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", &self.session)
            .header("mcp-protocol-version", &self.protocol)
            .body(body.to_string())
    }

    async fn call(&mut self, tool: &str, args: &Value) -> Result<Value> {
        self.id += 1;
        let id = self.id;
        let body = self.post(&json!({ "jsonrpc": "2.0", "id": id, "method": "tools/call", "params": { "name": tool, "arguments": args } })).send().await?.text().await?;
        let msg = sse_message(&body, id).with_context(|| format!("no response in {body:?}"))?;
        if msg["result"]["isError"] == json!(true) {
            bail!("{tool}: {}", msg["result"]["content"][0]["text"]);
        }
        Ok(msg["result"].clone())
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<()> {
    let o = Opts::parse();
    let (config, _) = Config::load_or_create(o.config_dir.as_deref())?;
    let names = vibe_common::backend::naming::IndexNames::new(&config.opensearch.index_prefix);
    let http = reqwest::Client::builder().pool_max_idle_per_host(4).build()?;
    let mut mcp = Mcp::connect(http.clone(), &o.url).await?;

    // The index expression the gateway uses for the target.
    let index = match &o.target {
        None => names.all_ast(),
        Some(t) => {
            let r = mcp.call("show_projects", &json!({})).await?;
            let p = r["structuredContent"]["projects"].as_array().cloned().unwrap_or_default();
            let root = p.iter().find(|p| p["name"] == json!(t)).with_context(|| format!("no project {t}"))?["path"]
                .as_str()
                .unwrap()
                .to_string();
            names.ast_alias(&vibe_common::backend::naming::project_hash(std::path::Path::new(&root)))
        }
    };
    let direct_url = format!(
        "{}/{index}/_search/template?ignore_unavailable=true&allow_no_indices=true",
        config.opensearch.host().trim_end_matches('/')
    );

    let cases: Vec<(&str, &str)> = vec![
        ("search_by_code_functions", "parse"),
        ("search_by_code_classes", "Parser"),
        ("search_by_code_variables", "MAX"),
        ("search_by_code_imports", "json"),
        ("search_documentation", "how to install"),
        ("search_knowledge", "Кто такой Бакобур?"),
    ];
    println!(
        "{:<26} {:<20} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10}",
        "tool", "query", "mcp p50", "mcp p99", "os p50", "os p99", "added p50", "added p99"
    );
    let mut worst_added = 0.0_f64;
    for (tool, query) in cases {
        let mut args = json!({ "query": query, "limit": 3 });
        if let Some(t) = &o.target {
            args["target"] = json!(t);
        }
        let (template, p) = match tool {
            "search_knowledge" | "search_documentation" => {
                ("search_documentation", serde_json::to_value(template_params::documentation(query, 3, 0))?)
            }
            "search_by_code_imports" => (tool, serde_json::to_value(template_params::imports(query, 3, 0))?),
            _ => (
                vibe_gateway::tools::code::SYMBOLS_TEMPLATE,
                serde_json::to_value(template_params::code(tool, query, 3, 0, template_params::Pass::Exact))?,
            ),
        };
        let body = json!({ "id": templates::search_template_id(&names, template), "params": p }).to_string();
        let direct = || {
            let req = http.post(&direct_url).header("content-type", "application/json").body(body.clone());
            async move {
                let r = req.send().await?;
                let status = r.status();
                let text = r.text().await?;
                anyhow::ensure!(status.is_success(), "direct: {status} {text}");
                Ok::<_, anyhow::Error>(text)
            }
        };
        for _ in 0..20 {
            direct().await?;
            mcp.call(tool, &args).await?;
        }
        let (mut via_mcp, mut via_os, mut added) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..o.iterations {
            let t = Instant::now();
            direct().await?;
            let d = t.elapsed().as_secs_f64() * 1000.0;
            let t = Instant::now();
            mcp.call(tool, &args).await?;
            let m = t.elapsed().as_secs_f64() * 1000.0;
            via_os.push(d);
            via_mcp.push(m);
            added.push(m - d);
        }
        for v in [&mut via_mcp, &mut via_os, &mut added] {
            v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        }
        let added_p50 = percentile(&via_mcp, 0.5) - percentile(&via_os, 0.5);
        worst_added = worst_added.max(added_p50);
        println!(
            "{:<26} {:<20} {:>7.2}ms {:>7.2}ms {:>7.2}ms {:>7.2}ms {:>8.2}ms {:>8.2}ms",
            tool,
            query.chars().take(20).collect::<String>(),
            percentile(&via_mcp, 0.5),
            percentile(&via_mcp, 0.99),
            percentile(&via_os, 0.5),
            percentile(&via_os, 0.99),
            added_p50,
            percentile(&added, 0.99),
        );
    }
    println!(
        "\nadded cost at p50 (mcp p50 - direct p50), worst tool: {worst_added:.2} ms (target <= 2 ms): {}",
        if worst_added <= 2.0 { "OK" } else { "OVER" }
    );
    Ok(())
}
