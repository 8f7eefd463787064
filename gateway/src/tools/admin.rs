//! `admin_sync`: starts the index run ([`crate::sync`]) or tells the one
//! under way.

use serde_json::{json, Value};

use crate::error::ToolError;
use crate::gateway::Gateway;
use crate::sync::SyncStart;

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
        Err(e) => Err(ToolError::Failed(format!("cannot start indexing: {e}"))),
    }
}
