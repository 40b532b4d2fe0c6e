//! MCP tasks (beyond the spec; docs/MCP.md "Tasks"): long agent work on items that a client
//! follows by polling. mcp-gateway runs the work and reports here; the rules are these:
//!
//! - A task is its starter's. Every other caller is told it does not exist, so ids leak nothing.
//! - A person has at most [`MAX_WORKING_PER_PERSON`] tasks working; beyond, `start` is refused
//!   and the gateway answers the call when done instead (served, not refused).
//! - The running gateway renews a lease every [`HEARTBEAT_SECS`]; a working task whose lease
//!   lapsed ([`LEASE_SECS`]) lost its gateway and is failed on the next read. Its write is one
//!   transaction that marks the task committed, so the failure says whether the change was made.
//! - A cancel ends a working task whose write did not commit; the write, if it comes later,
//!   finds the task no longer working and rolls back (`storage::items::agent_tasks`).
//! - A task is kept [`KEEP_SECS`] after it started, then forgotten; reading it after says so.

use chrono::{Duration, Utc};
use serde_json::json;

use super::ItemsService;
use crate::domain::{AgentTaskId, TaskStatus, UserId};
use crate::error::{CoreError, CoreResult};
use crate::service::Principal;
use crate::storage::{AgentTaskRow, TaskClaim, TaskEnd};
use canvas_vocabulary::limits::tasks::{
    HEARTBEAT_SECS, KEEP_SECS, LEASE_SECS, MAX_RESULT_BYTES, MAX_WORKING_PER_PERSON,
};

/// Expired tasks deleted by one start, so pruning never makes one call slow.
const PRUNE_BATCH: i64 = 100;

/// What the JSON-RPC error of a task whose gateway stopped says, by whether its write committed.
fn lost_gateway_error(committed: bool) -> String {
    let message = if committed {
        "the server running this task stopped after its change was written: the change was made, \
         but its result was lost; read the map to see it"
    } else {
        "the server running this task stopped before its change was written; nothing was written: \
         call the tool again"
    };
    json!({"code": -32603, "message": message}).to_string()
}

/// How a gateway ends a task.
#[derive(Debug, Clone)]
pub enum TaskOutcome {
    /// The tool's result (a tool error included), as JSON.
    Result(String),
    /// A JSON-RPC error, as JSON.
    Error(String),
}

impl ItemsService {
    /// Records a new working task of `who` running `tool`.
    pub async fn start_task(&self, who: &Principal, tool: &str, message: &str) -> CoreResult<AgentTaskRow> {
        let now = Utc::now();
        self.store.prune_agent_tasks(now, PRUNE_BATCH).await?;
        let working = self.store.working_agent_tasks(who.user_id, now).await?;
        if working >= i64::from(MAX_WORKING_PER_PERSON) {
            return Err(CoreError::RateLimited {
                message: format!("{working} of your tasks are working, the most at once is {MAX_WORKING_PER_PERSON}"),
                retry_after_secs: HEARTBEAT_SECS,
            });
        }
        let task = AgentTaskRow {
            id: AgentTaskId::random(),
            owner_id: who.user_id,
            tool: tool.chars().take(64).collect(),
            status: TaskStatus::Working,
            status_message: message.chars().take(500).collect(),
            result: None,
            error: None,
            created_at: now,
            updated_at: now,
            expires_at: now + secs(KEEP_SECS),
            lease_until: now + secs(LEASE_SECS),
            committed_at: None,
        };
        self.store.insert_agent_task(&task).await?;
        Ok(task)
    }

    /// The caller's task as it is now. A working task whose lease lapsed is failed first.
    pub async fn get_task(&self, who: &Principal, task: AgentTaskId) -> CoreResult<AgentTaskRow> {
        let row = self.own_task(who.user_id, task).await?;
        let now = Utc::now();
        if row.status != TaskStatus::Working || row.lease_until > now {
            return Ok(row);
        }
        let end = TaskEnd::Failed { error: lost_gateway_error(row.committed_at.is_some()) };
        let message = "The server running this task stopped.";
        self.store.end_agent_task(task, who.user_id, &end, message, false, now).await?;
        self.own_task(who.user_id, task).await
    }

    /// The running gateway's heartbeat: renews the lease and, when given, sets the message.
    pub async fn report_task(
        &self,
        who: &Principal,
        task: AgentTaskId,
        message: Option<&str>,
    ) -> CoreResult<AgentTaskRow> {
        let now = Utc::now();
        let message: Option<String> = message.map(|m| m.chars().take(500).collect());
        self.store.renew_agent_task(task, who.user_id, message.as_deref(), now, now + secs(LEASE_SECS)).await?;
        self.own_task(who.user_id, task).await
    }

    /// Keeps a working task's outcome; one that was cancelled (or failed) meanwhile stays so.
    pub async fn finish_task(
        &self,
        who: &Principal,
        task: AgentTaskId,
        outcome: TaskOutcome,
        message: &str,
    ) -> CoreResult<AgentTaskRow> {
        let end = match outcome {
            TaskOutcome::Result(result) if result.len() > MAX_RESULT_BYTES => TaskEnd::Failed {
                error: json!({
                    "code": -32603,
                    "message": format!("the result is {} bytes, more than the {MAX_RESULT_BYTES} a task keeps", result.len())
                })
                .to_string(),
            },
            TaskOutcome::Result(result) => TaskEnd::Completed { result },
            TaskOutcome::Error(error) => TaskEnd::Failed { error },
        };
        let message: String = message.chars().take(500).collect();
        self.store.end_agent_task(task, who.user_id, &end, &message, false, Utc::now()).await?;
        self.own_task(who.user_id, task).await
    }

    /// Cancels the caller's working task, unless its change already committed (it then finishes
    /// as completed). Answers the task as it is after.
    pub async fn cancel_task(&self, who: &Principal, task: AgentTaskId) -> CoreResult<AgentTaskRow> {
        let row = self.own_task(who.user_id, task).await?;
        if row.status == TaskStatus::Working {
            let message = "Cancelled at the client's request; nothing was written.";
            self.store.end_agent_task(task, who.user_id, &TaskEnd::Cancelled, message, true, Utc::now()).await?;
        }
        self.own_task(who.user_id, task).await
    }

    /// The claim a write working for `task` runs under: the caller's task, still working.
    pub async fn task_claim(&self, who: &Principal, task: AgentTaskId) -> CoreResult<TaskClaim> {
        let row = self.own_task(who.user_id, task).await?;
        if row.status != TaskStatus::Working {
            return Err(CoreError::Conflict(format!("task '{task}' is {}; nothing was written", row.status)));
        }
        Ok(TaskClaim { task, owner: who.user_id })
    }

    /// The task of `owner`, unexpired; anyone else's, or a forgotten one, is not found.
    async fn own_task(&self, owner: UserId, task: AgentTaskId) -> CoreResult<AgentTaskRow> {
        match self.store.agent_task(task, owner).await? {
            Some(row) if row.expires_at > Utc::now() => Ok(row),
            Some(_) => Err(CoreError::NotFound { kind: "expired task", id: task.to_string() }),
            None => Err(CoreError::NotFound { kind: "task", id: task.to_string() }),
        }
    }
}

fn secs(seconds: u64) -> Duration {
    i64::try_from(seconds).ok().and_then(Duration::try_seconds).unwrap_or(Duration::MAX)
}
