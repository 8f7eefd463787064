//! Shared test support: fixture documents loaded into a real OpenSearch under
//! a per-test index prefix (through the real index and search templates), a
//! minimal Streamable HTTP MCP client, and the scenario checker.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use serde_json::{json, Value};
use vibe_common::backend::search::Search;
use vibe_common::backend::templates;
use vibe_common::config::Config;

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

pub fn opensearch_url() -> String {
    std::env::var("VIBE_OPENSEARCH_URL")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "http://127.0.0.1:9200".into())
}

/// A config pointing at the test OpenSearch with its own index prefix.
pub fn config(prefix: &str) -> Config {
    let mut c = Config::default();
    c.opensearch.hosts = vec![opensearch_url()];
    c.opensearch.index_prefix = prefix.to_string();
    // The tests read typed answers; the default (text alone) has its own test.
    c.mcp.typed_output = true;
    c
}

/// Removes everything stored under `prefix` (indices, aliases, meta, stored
/// search templates).
pub async fn wipe(search: &Search) -> Result<()> {
    let p = &search.names.prefix;
    search.delete(&format!("/{p}_data_*,{p}_meta*?expand_wildcards=all")).await?;
    let scripts = search.get("/_cluster/state/metadata?filter_path=metadata.stored_scripts").await?;
    if let Some(map) = scripts["metadata"]["stored_scripts"].as_object() {
        for id in map.keys().filter(|k| k.starts_with(&format!("{p}_"))) {
            search.delete(&format!("/_scripts/{id}")).await?;
        }
    }
    Ok(())
}

/// Loads `gateway/tests/fixtures/indexed.json` (documents written by the real
/// indexer for tests/fixtures/{samples,knowledge}) under `prefix`, the way the
/// indexer lays them out: `_data_*_g1` indices behind the reader aliases.
pub async fn load_fixture(prefix: &str) -> Result<Config> {
    load_fixture_at(prefix, &opensearch_url()).await
}

/// [`load_fixture`] into the OpenSearch at `url`.
pub async fn load_fixture_at(prefix: &str, url: &str) -> Result<Config> {
    let mut config = config(prefix);
    config.opensearch.hosts = vec![url.to_string()];
    let search = Search::new(&config.opensearch)?;
    search.ping().await.context("OpenSearch must run (bash tests/opensearch/start.sh)")?;
    wipe(&search).await?;
    templates::install(&search).await?;
    let snapshot: Value =
        serde_json::from_str(&std::fs::read_to_string(repo_root().join("gateway/tests/fixtures/indexed.json"))?)?;
    let names = &search.names;
    let mut bulk = String::new();
    for project in snapshot["projects"].as_array().ok_or_else(|| anyhow!("bad snapshot"))? {
        let meta = &project["meta"];
        let hash = meta["hash"].as_str().ok_or_else(|| anyhow!("meta without hash"))?;
        let analysis = names.ast_index(hash, "g1");
        let files = names.files_index(hash, "g1");
        search.put(&format!("/{analysis}"), &json!({})).await?;
        search.put(&format!("/{files}"), &json!({})).await?;
        search
            .post(
                "/_aliases",
                &json!({ "actions": [
                    { "add": { "index": analysis, "alias": names.ast_alias(hash) } },
                    { "add": { "index": files, "alias": names.files_alias(hash) } },
                ]}),
            )
            .await?;
        let mut meta = meta.clone();
        meta["generation"] = json!("g1");
        bulk.push_str(&format!("{}\n{}\n", json!({ "index": { "_index": names.meta(), "_id": hash } }), meta));
        for (docs, index) in [(&project["analysis"], &analysis), (&project["files"], &files)] {
            for doc in docs.as_array().into_iter().flatten() {
                // The snapshot leaves the grams out (refresh_snapshot.sh): computed as the indexer does.
                let mut doc = doc.clone();
                if let Some(content) = doc["content"].as_str().filter(|c| !c.is_empty() && index == &files) {
                    doc["grams"] = json!(vibe_common::document::grams::text_grams(content));
                }
                bulk.push_str(&format!("{}\n{}\n", json!({ "index": { "_index": index, "_id": doc["path"] } }), doc));
            }
        }
    }
    let r = search.bulk(bulk.into_bytes()).await?;
    if r["errors"].as_bool() == Some(true) {
        bail!("bulk errors: {}", r.to_string().chars().take(2000).collect::<String>());
    }
    let p = &names.prefix;
    search.post(&format!("/{p}_data_*,{p}_meta/_refresh"), &json!({})).await?;
    Ok(config)
}

// ---------------------------------------------------------------------------
// A minimal Streamable HTTP MCP client
// ---------------------------------------------------------------------------

pub struct McpClient {
    pub http: reqwest::Client,
    pub url: String,
    pub session: Option<String>,
    pub protocol: String,
    /// Extra headers sent with every request (e.g. `authorization`).
    pub headers: Vec<(String, String)>,
    next_id: u64,
}

/// The JSON-RPC messages of a response body (JSON or SSE).
pub fn messages(content_type: &str, body: &str) -> Vec<Value> {
    if content_type.starts_with("text/event-stream") {
        let mut out = Vec::new();
        for event in body.split("\n\n") {
            let data: Vec<&str> = event.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim_start).collect();
            if let Ok(v) = serde_json::from_str::<Value>(&data.join("\n")) {
                out.push(v);
            }
        }
        out
    } else {
        serde_json::from_str(body).map(|v| vec![v]).unwrap_or_default()
    }
}

impl McpClient {
    /// `initialize` + `notifications/initialized`; returns the client and the initialize result.
    pub async fn connect(url: &str, protocol: &str) -> Result<(Self, Value)> {
        Self::connect_with_headers(url, protocol, &[]).await
    }

    /// [`McpClient::connect`] sending `headers` with every request.
    pub async fn connect_with_headers(url: &str, protocol: &str, headers: &[(&str, &str)]) -> Result<(Self, Value)> {
        let mut c = McpClient {
            http: reqwest::Client::new(),
            url: url.to_string(),
            session: None,
            protocol: protocol.to_string(),
            headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            next_id: 1,
        };
        let init = c
            .request(
                "initialize",
                json!({ "protocolVersion": protocol, "capabilities": {}, "clientInfo": { "name": "vibe-gateway-tests", "version": "1" } }),
            )
            .await?;
        let result = init["result"].clone();
        if result.is_null() {
            bail!("initialize failed: {init}");
        }
        c.protocol = result["protocolVersion"].as_str().unwrap_or(protocol).to_string();
        c.notify("notifications/initialized", json!({})).await?;
        Ok((c, result))
    }

    fn post(&self, body: &Value) -> reqwest::RequestBuilder {
        let mut r = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .body(body.to_string());
        for (k, v) in &self.headers {
            r = r.header(k, v);
        }
        if let Some(s) = &self.session {
            r = r.header("mcp-session-id", s).header("mcp-protocol-version", &self.protocol);
        }
        r
    }

    /// One request; returns the whole JSON-RPC response message.
    pub async fn request(&mut self, method: &str, params: Value) -> Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        let resp = self.post(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })).send().await?;
        let status = resp.status();
        if let Some(s) = resp.headers().get("mcp-session-id") {
            self.session = Some(s.to_str()?.to_string());
        }
        let ct = resp.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
        let body = resp.text().await?;
        if !status.is_success() {
            bail!("{method}: HTTP {status}: {body}");
        }
        messages(&ct, &body)
            .into_iter()
            .find(|m| m["id"] == json!(id))
            .ok_or_else(|| anyhow!("{method}: no response with id {id} in {body:?}"))
    }

    pub async fn notify(&mut self, method: &str, params: Value) -> Result<()> {
        let resp = self.post(&json!({ "jsonrpc": "2.0", "method": method, "params": params })).send().await?;
        if !resp.status().is_success() {
            bail!("{method}: HTTP {}", resp.status());
        }
        Ok(())
    }

    /// `tools/call`; returns the result object (`content`, `structuredContent`, `isError`).
    pub async fn call_tool(&mut self, name: &str, args: Value) -> Result<Value> {
        let r = self.request("tools/call", json!({ "name": name, "arguments": args })).await?;
        if r["result"].is_null() {
            bail!("tools/call {name}: {r}");
        }
        Ok(r["result"].clone())
    }

    /// The answers of these calls, each of which must succeed.
    pub async fn answers(&mut self, calls: Vec<(&str, Value)>) -> Result<Vec<Value>> {
        let mut out = Vec::new();
        for (tool, args) in calls {
            let r = self.call_tool(tool, args).await?;
            if r["isError"] != json!(false) {
                bail!("{tool}: {r}");
            }
            out.push(answer(&r));
        }
        Ok(out)
    }

    pub async fn list_tools(&mut self) -> Result<Vec<Value>> {
        let r = self.request("tools/list", json!({})).await?;
        Ok(r["result"]["tools"].as_array().cloned().unwrap_or_default())
    }
}

/// The structured answer of a tool result (falls back to parsing the text).
pub fn answer(result: &Value) -> Value {
    if !result["structuredContent"].is_null() {
        return result["structuredContent"].clone();
    }
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    serde_json::from_str(text).unwrap_or_else(|_| json!(text))
}

// ---------------------------------------------------------------------------
// Scenarios (tests/mcp/scenarios, see its README)
// ---------------------------------------------------------------------------

pub struct Case {
    pub tool: String,
    pub index: usize,
    pub args: Value,
    pub expect: Value,
}

pub fn scenarios() -> Vec<Case> {
    let dir = repo_root().join("tests/mcp/scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/mcp/scenarios")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let data: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        for (i, case) in data["cases"].as_array().unwrap().iter().enumerate() {
            out.push(Case {
                tool: data["tool"].as_str().unwrap().to_string(),
                index: i,
                args: case["args"].clone(),
                expect: case["expect"].clone(),
            });
        }
    }
    out
}

/// The failed expectations of a case (see tests/mcp/scenario_check.py).
pub fn check(expect: &Value, answer: &Value, is_error: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let want_error = expect["is_error"].as_bool().unwrap_or(false);
    if is_error != want_error {
        problems.push(format!("is_error={is_error}, expected {want_error}: {answer}"));
        return problems;
    }
    if want_error {
        return problems;
    }
    let results = answer["results"].as_array().cloned().unwrap_or_default();
    let paths: Vec<String> = results.iter().map(|r| r["path"].as_str().unwrap_or_default().to_string()).collect();
    let top = expect["top"].as_u64().unwrap_or(3) as usize;
    for p in expect["paths"].as_array().into_iter().flatten() {
        let p = p.as_str().unwrap();
        if !paths.iter().take(top).any(|x| x == p) {
            problems.push(format!("{p} not in the first {top}: {paths:?}"));
        }
    }
    if let Some(first) = expect["first"].as_str() {
        if paths.first().map(String::as_str) != Some(first) {
            problems.push(format!("first is {:?}, expected {first}: {paths:?}", paths.first()));
        }
    }
    if let Some(min) = expect["min_results"].as_u64() {
        if (results.len() as u64) < min {
            problems.push(format!("{} results, expected at least {min}", results.len()));
        }
    }
    for (ptr, value) in expect["equals"].as_object().into_iter().flatten() {
        match answer.pointer(ptr) {
            Some(got) if got == value => {}
            got => problems.push(format!("{ptr} = {got:?}, expected {value}")),
        }
    }
    for (ptr, text) in expect["contains"].as_object().into_iter().flatten() {
        let text = text.as_str().unwrap();
        match answer.pointer(ptr) {
            Some(Value::String(s)) if s.contains(text) => {}
            Some(v) if !v.is_string() && v.to_string().contains(text) => {}
            got => problems.push(format!("{ptr} does not contain {text:?}: {got:?}")),
        }
    }
    for (kind, text) in expect["elements"].as_object().into_iter().flatten() {
        let text = text.as_str().unwrap().to_lowercase();
        let elements: Vec<&Value> = results.iter().flat_map(|r| r[kind].as_array().into_iter().flatten()).collect();
        if elements.is_empty() {
            problems.push(format!("no {kind} reported"));
        }
        // A callee shown after the match that calls it (`called_by`) is no match of the name.
        let bad: Vec<&str> = elements
            .iter()
            .filter(|e| e.get("called_by").is_none())
            .map(|e| e["signature"].as_str().unwrap_or_default())
            .filter(|s| !s.to_lowercase().contains(&text))
            .collect();
        if !bad.is_empty() {
            problems.push(format!("{kind} not matching {text:?} reported: {bad:?}"));
        }
    }
    problems
}

/// Removes a test's data (best effort; kept when a test fails before it).
/// The calls the cluster tests repeat while a node dies: one of each kind
/// of tool over the fixture projects.
pub fn cluster_calls() -> Vec<(&'static str, Value)> {
    vec![
        ("search_by_code_functions", json!({ "query": "add" })),
        ("search_documentation", json!({ "query": "Who is Kirikur?" })),
        ("get_file_content", json!({ "path": "calculator.py" })),
        ("search_code_text", json!({ "query": "def " })),
        ("find_references", json!({ "query": "multiply" })),
        ("search_by_code_classes", json!({ "query": "Calculator" })),
        ("show_stats", json!({})),
    ]
}

pub async fn cleanup(config: &Config) {
    if std::env::var("VIBE_TEST_KEEP").as_deref() == Ok("1") {
        return;
    }
    if let Ok(search) = Search::new(&config.opensearch) {
        let _ = wipe(&search).await;
    }
}
