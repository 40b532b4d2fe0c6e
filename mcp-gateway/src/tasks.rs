//! MCP tasks (the `io.modelcontextprotocol/tasks` extension, 2026-07-28; docs/MCP.md "Tasks").
//!
//! A tool call that can take long ([`runs_as_task`]) from a client that declared the extension on
//! the request is answered at once with a task handle (`resultType: "task"`), and the work goes
//! on here, in a spawned worker. The task's state is core-service's (`AgentTaskService`, both
//! backends), so `tasks/get` and `tasks/cancel` work on any replica, and the rules (owner,
//! limits, leases, retention) are core-service's too. The worker:
//!
//! - renews the task's lease every `HEARTBEAT_SECS`, with the tool's latest progress message;
//! - stops the work (dropping its core-service call, which rolls its transaction back) as soon as
//!   a renewal finds the task no longer working: cancelled, or failed by a lapsed lease;
//! - keeps the outcome: the tool's result (a tool error included) as `completed`, a JSON-RPC
//!   error as `failed`, as the extension says.
//!
//! A write made for a task claims it in its own transaction (core-service), so a cancel either
//! wins, and nothing was written, or comes after the commit, and the task completes.

use std::time::Duration;

use canvas_proto::failure::{classify, CallFailure};
use canvas_proto::v1 as pb;
use canvas_proto::v1::ErrorReason;
use canvas_vocabulary::limits::tasks::{HEARTBEAT_SECS, ITEMS_ABOVE};
use rmcp::model::{
    CallToolResult, CreateTaskResult, DetailedTask, GetTaskResult, JsonObject, Task, TaskPayload, TaskStatus,
};
use rmcp::ErrorData;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::state::{Caller, McpState};
use crate::tools::progress::Progress;
use crate::tools::{self, Called, CanvasTool, ToolContext};

/// Whether the call runs as a task for a client that declared the extension: `create_items` of
/// more than `ITEMS_ABOVE` items, `create_diagram` of a source of more than `ITEMS_ABOVE` lines,
/// and `render_map` of a region or the whole map (not the neighbourhood of a few items).
pub fn runs_as_task(name: &str, arguments: &Map<String, Value>) -> bool {
    if name == tools::bulk::CreateItems::NAME {
        arguments.get("items").and_then(Value::as_array).is_some_and(|items| items.len() > ITEMS_ABOVE)
    } else if name == tools::bulk::CreateDiagram::NAME {
        let lines = |source: &str| source.lines().filter(|line| !line.trim().is_empty()).count();
        arguments.get("source").and_then(Value::as_str).is_some_and(|source| lines(source) > ITEMS_ABOVE)
    } else if name == tools::map::RenderMap::NAME {
        arguments.get("itemIds").and_then(Value::as_array).is_none_or(Vec::is_empty)
    } else {
        false
    }
}

/// Starts the call as a task: records it in core-service, spawns its work and answers the handle.
/// `None` when it cannot be a task (the person has the most tasks working already, or
/// core-service refused to record it): the caller then runs the call at once, as without the
/// extension, and any refusal reaches the client the usual way.
pub async fn start(mut ctx: ToolContext, name: &str, arguments: Map<String, Value>) -> Option<CreateTaskResult> {
    let request = pb::StartTaskRequest { tool: name.to_owned(), status_message: format!("Started {name}.") };
    let started = match ctx.state.tasks.clone().start_task(ctx.request(request)).await {
        Ok(started) => started.into_inner(),
        Err(status) => {
            tracing::info!(tool = name, code = ?status.code(), "not run as a task");
            return None;
        }
    };
    let handle = CreateTaskResult::new(task_of(&started));
    ctx.task = Some(started.task_id.clone());
    ctx.progress = Progress::default();
    let name = name.to_owned();
    tokio::spawn(async move { work(ctx, name, arguments, started.task_id).await });
    Some(handle)
}

/// Runs the work while [`renew`] keeps its lease, and keeps its outcome (see the module
/// documentation). The work is polled without pause: under `canvasctl up` its core-service call
/// runs inside this future (the in-process channel), holding SQLite's one writer while it writes,
/// so a renewal awaited in between would wait for a connection the paused work holds.
async fn work(ctx: ToolContext, name: String, arguments: Map<String, Value>, task_id: String) {
    let stopped = CancellationToken::new();
    let renewing = tokio::spawn(renew(
        ctx.state.clone(),
        ctx.caller.clone(),
        ctx.progress.clone(),
        task_id.clone(),
        stopped.clone(),
    ));
    let outcome = tokio::select! {
        outcome = tools::call(&name, &ctx, arguments) => outcome,
        () = stopped.cancelled() => {
            // Cancelled, or failed by a lapsed lease: dropping the call stops the work and rolls
            // its transaction back.
            tracing::info!(task = %task_id, tool = %name, "task stopped before its work finished");
            return;
        }
    };
    renewing.abort();
    let (outcome, message) = match outcome {
        Ok(Called::Done(result)) => outcome_of(&result),
        // The task tools never ask first; a question is the tool error for a client that cannot answer.
        Ok(Called::AskFirst { cannot_ask, .. }) => outcome_of(&cannot_ask),
        Err(error) => {
            let message = error.message.to_string();
            (pb::finish_task_request::Outcome::ErrorJson(to_json(&error)), message)
        }
    };
    let finish = pb::FinishTaskRequest { task_id: task_id.clone(), outcome: Some(outcome), status_message: message };
    let Err(status) = ctx.state.tasks.clone().finish_task(ctx.request(finish)).await else { return };
    tracing::warn!(task = %task_id, code = ?status.code(), "the task's outcome could not be kept");
    // Once more with an error that says so (a result too large to send, say). Should that fail too,
    // the lease lapses and the task's reader is told whether the change was made (core-service
    // knows from the write's own mark).
    let why = match classify(&status) {
        CallFailure::Refused(refusal) => refusal.message,
        _ => "core-service did not answer".to_owned(),
    };
    let error = ErrorData::internal_error(format!("the task's result could not be kept: {why}"), None);
    let finish = pb::FinishTaskRequest {
        task_id: task_id.clone(),
        status_message: error.message.to_string(),
        outcome: Some(pb::finish_task_request::Outcome::ErrorJson(to_json(&error))),
    };
    if let Err(status) = ctx.state.tasks.clone().finish_task(ctx.request(finish)).await {
        tracing::warn!(task = %task_id, code = ?status.code(), "the task's failure could not be kept either");
    }
}

/// Renews the task's lease every heartbeat, and at once when the work says how far it got, until
/// the task is no longer working (then `stopped` is cancelled) or the work ends (then this is
/// aborted).
async fn renew(state: McpState, caller: Caller, progress: Progress, task_id: String, stopped: CancellationToken) {
    let mut beat = tokio::time::interval(Duration::from_secs(HEARTBEAT_SECS));
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    beat.tick().await;
    loop {
        tokio::select! {
            _ = beat.tick() => {}
            () = progress.said() => {}
        }
        let report = pb::ReportTaskRequest { task_id: task_id.clone(), status_message: progress.take() };
        match state.tasks.clone().report_task(caller.request(report)).await {
            Ok(task) if task.get_ref().status() != pb::AgentTaskStatus::Working => {
                stopped.cancel();
                return;
            }
            Ok(_) => {}
            Err(status) => tracing::warn!(task = %task_id, code = ?status.code(), "task heartbeat failed"),
        }
    }
}

fn outcome_of(result: &CallToolResult) -> (pb::finish_task_request::Outcome, String) {
    let message = if result.is_error == Some(true) { "Finished with a tool error." } else { "Done." };
    (pb::finish_task_request::Outcome::ResultJson(to_json(result)), message.to_owned())
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| r#"{"code":-32603,"message":"internal error"}"#.to_owned())
}

/// A task's common fields, as the extension shows them.
fn task_of(task: &pb::AgentTask) -> Task {
    let status = match task.status() {
        pb::AgentTaskStatus::Completed => TaskStatus::Completed,
        pb::AgentTaskStatus::Failed => TaskStatus::Failed,
        pb::AgentTaskStatus::Cancelled => TaskStatus::Cancelled,
        pb::AgentTaskStatus::Working | pb::AgentTaskStatus::Unspecified => TaskStatus::Working,
    };
    let mut shown = Task::new(&task.task_id, status, &task.created_at, &task.updated_at)
        .with_ttl_ms(task.ttl_ms)
        .with_poll_interval_ms(task.poll_interval_ms);
    if !task.status_message.is_empty() {
        shown = shown.with_status_message(&task.status_message);
    }
    shown
}

/// A JSON object kept by the worker, read back.
fn object(json: Option<&str>) -> Option<JsonObject> {
    json.and_then(|json| serde_json::from_str::<JsonObject>(json).ok())
}

/// The `tasks/get` answer of a task.
pub fn detailed(task: &pb::AgentTask) -> GetTaskResult {
    let shown = task_of(task);
    let payload = match shown.status {
        TaskStatus::Completed => match object(task.result_json.as_deref()) {
            Some(result) => TaskPayload::Completed { result },
            None => lost(),
        },
        TaskStatus::Failed => {
            TaskPayload::Failed { error: object(task.error_json.as_deref()).unwrap_or_else(internal) }
        }
        TaskStatus::Cancelled => TaskPayload::Cancelled,
        _ => TaskPayload::Working,
    };
    GetTaskResult::new(DetailedTask::new(shown, payload))
}

fn internal() -> JsonObject {
    let mut error = JsonObject::new();
    error.insert("code".into(), (-32603).into());
    error.insert("message".into(), "internal error".into());
    error
}

fn lost() -> TaskPayload {
    TaskPayload::Failed { error: internal() }
}

/// The JSON-RPC error of a task call core-service refused: an unknown, foreign or expired task is
/// invalid params (the extension's rule), with core-service's words.
pub fn task_error(status: &tonic::Status) -> ErrorData {
    match classify(status) {
        CallFailure::Refused(refusal)
            if matches!(refusal.reason, ErrorReason::NotFound | ErrorReason::ValidationFailed) =>
        {
            ErrorData::invalid_params(format!("Failed to retrieve task: {}", refusal.message), None)
        }
        CallFailure::Refused(refusal) => ErrorData::internal_error(refusal.message, None),
        failure => {
            tracing::warn!(?failure, "a task call to core-service failed");
            ErrorData::internal_error("core-service is unreachable; try again shortly", None)
        }
    }
}
