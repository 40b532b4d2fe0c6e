//! MCP tasks as stored (migration 0017): one row per task, owned by the person who started it.
//! The rules (limits, leases, what a lapsed lease means, retention) are
//! `service::items::agent_tasks`'s; this module only reads and writes rows.
//!
//! Every change to a task is conditional on its status: only a `working` task moves, so a cancel,
//! a finish and a lapsed lease never overwrite each other. The work's own write claims the task
//! inside its transaction ([`claim_task!`], through the task-local [`TaskClaim`]): the claim
//! succeeds only while the task is working, and marks it committed. So either the change commits
//! and the task can no longer be cancelled, or the task was cancelled first and the change rolls
//! back; never both, on either backend.

use chrono::{DateTime, Utc};

use super::ItemsStore;
use crate::domain::{AgentTaskId, TaskStatus, UserId};
use crate::error::CoreError;
use crate::storage::db_error;

type Result<T> = std::result::Result<T, CoreError>;

const COLUMNS: &str = "id, owner_id, tool, status, status_message, result, error, created_at, updated_at, \
    expires_at, lease_until, committed_at";

/// A task as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AgentTaskRow {
    pub id: AgentTaskId,
    pub owner_id: UserId,
    pub tool: String,
    #[sqlx(try_from = "String")]
    pub status: TaskStatus,
    pub status_message: String,
    /// Completed: the MCP `CallToolResult` (JSON).
    pub result: Option<String>,
    /// Failed: the JSON-RPC error (JSON).
    pub error: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub lease_until: DateTime<Utc>,
    pub committed_at: Option<DateTime<Utc>>,
}

/// How a working task ends.
#[derive(Debug, Clone)]
pub enum TaskEnd {
    Completed { result: String },
    Failed { error: String },
    Cancelled,
}

impl TaskEnd {
    fn parts(&self) -> (TaskStatus, Option<&str>, Option<&str>) {
        match self {
            Self::Completed { result } => (TaskStatus::Completed, Some(result), None),
            Self::Failed { error } => (TaskStatus::Failed, None, Some(error)),
            Self::Cancelled => (TaskStatus::Cancelled, None, None),
        }
    }
}

/// The task a gRPC call's work belongs to, for the writes it makes to claim it.
#[derive(Debug, Clone, Copy)]
pub struct TaskClaim {
    pub task: AgentTaskId,
    pub owner: UserId,
}

tokio::task_local! {
    static CLAIM: TaskClaim;
}

impl TaskClaim {
    /// Runs `work` as this task's: the item writes it makes claim the task in their transaction.
    pub async fn scope<F: std::future::Future>(self, work: F) -> F::Output {
        CLAIM.scope(self, work).await
    }

    /// The task the running call works for, if any.
    pub fn current() -> Option<TaskClaim> {
        CLAIM.try_with(|claim| *claim).ok()
    }
}

/// Inside the write transaction `$tx`, when the call works for a task: marks the task committed,
/// provided it is still working; otherwise fails the write (it rolls back).
macro_rules! claim_task {
    ($tx:expr) => {{
        if let Some(claim) = crate::storage::items::agent_tasks::TaskClaim::current() {
            let claimed = sqlx::query(
                "UPDATE agent_tasks SET committed_at = $3, updated_at = $3 \
                 WHERE id = $1 AND owner_id = $2 AND status = 'working'",
            )
            .bind(claim.task)
            .bind(claim.owner)
            .bind(chrono::Utc::now())
            .execute(&mut *$tx)
            .await
            .map_err(db_error)?
            .rows_affected();
            if claimed == 0 {
                return Err(CoreError::Conflict(format!(
                    "task '{}' was cancelled or stopped before its change was written; nothing was written",
                    claim.task
                )));
            }
        }
    }};
}
pub(crate) use claim_task;

impl ItemsStore {
    /// Writes a new task.
    pub async fn insert_agent_task(&self, task: &AgentTaskRow) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query(&format!(
                "INSERT INTO agent_tasks ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
            ))
            .bind(task.id)
            .bind(task.owner_id)
            .bind(&task.tool)
            .bind(task.status.as_str())
            .bind(&task.status_message)
            .bind(&task.result)
            .bind(&task.error)
            .bind(task.created_at)
            .bind(task.updated_at)
            .bind(task.expires_at)
            .bind(task.lease_until)
            .bind(task.committed_at)
            .execute(pool)
            .await
            .map_err(db_error)?;
        });
        Ok(())
    }

    /// The person's task, if there is one (expired or not).
    pub async fn agent_task(&self, id: AgentTaskId, owner: UserId) -> Result<Option<AgentTaskRow>> {
        with_write_pool!(self, pool => {
            sqlx::query_as::<_, AgentTaskRow>(&format!(
                "SELECT {COLUMNS} FROM agent_tasks WHERE id = $1 AND owner_id = $2"
            ))
            .bind(id)
            .bind(owner)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }

    /// How many of the person's tasks are working with a live lease at `now`.
    pub async fn working_agent_tasks(&self, owner: UserId, now: DateTime<Utc>) -> Result<i64> {
        with_write_pool!(self, pool => {
            sqlx::query_scalar::<_, i64>(
                "SELECT COUNT(*) FROM agent_tasks WHERE owner_id = $1 AND status = 'working' AND lease_until > $2",
            )
            .bind(owner)
            .bind(now)
            .fetch_one(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Renews a working task's lease to `lease_until` and, when given, sets its message.
    pub async fn renew_agent_task(
        &self,
        id: AgentTaskId,
        owner: UserId,
        message: Option<&str>,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
    ) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query(
                "UPDATE agent_tasks SET lease_until = $3, updated_at = $4, \
                 status_message = COALESCE($5, status_message) \
                 WHERE id = $1 AND owner_id = $2 AND status = 'working'",
            )
            .bind(id)
            .bind(owner)
            .bind(lease_until)
            .bind(now)
            .bind(message)
            .execute(pool)
            .await
            .map_err(db_error)?;
        });
        Ok(())
    }

    /// Ends a working task as `end` says, with `message`. `uncommitted_only` ends it only when its
    /// write did not commit (a cancel). Returns whether it ended here.
    pub async fn end_agent_task(
        &self,
        id: AgentTaskId,
        owner: UserId,
        end: &TaskEnd,
        message: &str,
        uncommitted_only: bool,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let (status, result, error) = end.parts();
        let only = if uncommitted_only { " AND committed_at IS NULL" } else { "" };
        with_write_pool!(self, pool => {
            Ok(sqlx::query(&format!(
                "UPDATE agent_tasks SET status = $3, result = $4, error = $5, status_message = $6, updated_at = $7 \
                 WHERE id = $1 AND owner_id = $2 AND status = 'working'{only}"
            ))
            .bind(id)
            .bind(owner)
            .bind(status.as_str())
            .bind(result)
            .bind(error)
            .bind(message)
            .bind(now)
            .execute(pool)
            .await
            .map_err(db_error)?
            .rows_affected()
                == 1)
        })
    }

    /// Deletes up to `batch` tasks kept past their time at `now`.
    pub async fn prune_agent_tasks(&self, now: DateTime<Utc>, batch: i64) -> Result<u64> {
        with_write_pool!(self, pool => {
            Ok(sqlx::query(
                "DELETE FROM agent_tasks WHERE id IN \
                 (SELECT id FROM agent_tasks WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2)",
            )
            .bind(now)
            .bind(batch)
            .execute(pool)
            .await
            .map_err(db_error)?
            .rows_affected())
        })
    }
}
