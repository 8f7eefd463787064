//! `admin_sync`: starts the index run ([`crate::sync`]) or tells the one
//! under way: this server's own, or another run holding one of the config's
//! projects (its lock names the command, pid, host and start).

use serde_json::{json, Value};

use crate::gateway::Gateway;
use crate::sync::SyncStart;
use crate::tool_error::ToolError;

/// Starts an index run, or tells the one under way.
pub async fn sync(gw: &Gateway) -> Result<Value, ToolError> {
    match gw.start_sync().await {
        Ok(SyncStart::Started { .. }) => {
            Ok(json!({ "result": "Started", "message": "Indexing started. Projects are updating now." }))
        }
        Ok(SyncStart::AlreadyRunning { since_secs, progress }) => {
            let mut answer = json!({
                "result": "AlreadyRunning",
                "message": format!("Indexing is already running (for {since_secs} s). Please wait; show_projects tells the outcome when it ends."),
                "running_secs": since_secs,
            });
            if let Some(p) = progress {
                answer["progress"] = json!(p);
            }
            Ok(answer)
        }
        Ok(SyncStart::HeldElsewhere { holder }) => Ok(json!({
            "result": "AlreadyRunning",
            "message": format!(
                "Indexing is already running: {} is being indexed by {}. Please wait; show_projects tells when it was indexed.",
                holder.root,
                holder.describe()
            ),
            "running_secs": vibe_common::backend::run_lock::now_ms().saturating_sub(holder.started_at_ms) / 1000,
        })),
        Err(e) => Err(ToolError::Failed(format!("cannot start indexing: {e}"))),
    }
}
