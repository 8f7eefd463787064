//! `admin_sync`: starts the index run ([`crate::sync`]) or tells the one
//! under way: this server's own, or another run holding one of the config's
//! projects (its lock names the command, pid, host and start).

use crate::answers::{SyncAnswer, SyncResult};
use crate::gateway::Gateway;
use crate::sync::SyncStart;
use crate::tool_error::ToolError;

/// Starts an index run, or tells the one under way.
pub async fn sync(gw: &Gateway) -> Result<SyncAnswer, ToolError> {
    let answer = match gw.start_sync().await {
        Ok(SyncStart::Started { .. }) => SyncAnswer {
            result: SyncResult::Started,
            message: "Indexing started. Projects are updating now.".into(),
            running_secs: None,
            progress: None,
        },
        Ok(SyncStart::AlreadyRunning { since_secs, progress }) => SyncAnswer {
            result: SyncResult::AlreadyRunning,
            message: format!("Indexing is already running (for {since_secs} s). Please wait; show_projects tells the outcome when it ends."),
            running_secs: Some(since_secs),
            progress,
        },
        Ok(SyncStart::HeldElsewhere { holder }) => SyncAnswer {
            result: SyncResult::AlreadyRunning,
            message: format!(
                "Indexing is already running: {} is being indexed by {}. Please wait; show_projects tells when it was indexed.",
                holder.root,
                holder.describe()
            ),
            running_secs: Some(vibe_common::backend::run_lock::now_ms().saturating_sub(holder.started_at_ms) / 1000),
            progress: None,
        },
        Err(e) => return Err(ToolError::Failed(format!("cannot start indexing: {e}"))),
    };
    Ok(answer)
}
