//! `canvas.v1.AgentTaskService`: the state of MCP tasks, for mcp-gateway (docs/MCP.md "Tasks").
//! Parse, authenticate, call the service layer (`service::items::agent_tasks`), convert.

use std::sync::Arc;

use canvas_proto::v1 as pb;
use canvas_proto::v1::agent_task_service_server::AgentTaskService;
use tonic::{Request, Response, Status};

use super::authenticate;
use crate::domain::{AgentTaskId, TaskStatus};
use crate::error::CoreError;
use crate::grpc::status::invalid;
use crate::service::items::agent_tasks::TaskOutcome;
use crate::service::Core;
use crate::storage::AgentTaskRow;
use canvas_vocabulary::limits::tasks::{KEEP_SECS, POLL_INTERVAL_MS};

/// gRPC face of MCP tasks.
pub struct AgentTaskGrpc {
    pub core: Arc<Core>,
}

type Reply<T> = Result<Response<T>, Status>;

/// A task in its gRPC form.
fn task(row: AgentTaskRow) -> pb::AgentTask {
    let status = match row.status {
        TaskStatus::Working => pb::AgentTaskStatus::Working,
        TaskStatus::Completed => pb::AgentTaskStatus::Completed,
        TaskStatus::Failed => pb::AgentTaskStatus::Failed,
        TaskStatus::Cancelled => pb::AgentTaskStatus::Cancelled,
    };
    pb::AgentTask {
        task_id: row.id.to_string(),
        tool: row.tool,
        status: status as i32,
        status_message: row.status_message,
        created_at: row.created_at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        updated_at: row.updated_at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        ttl_ms: KEEP_SECS * 1000,
        poll_interval_ms: POLL_INTERVAL_MS,
        result_json: row.result,
        error_json: row.error,
        committed: row.committed_at.is_some(),
    }
}

fn task_id(raw: &str) -> Result<AgentTaskId, Status> {
    AgentTaskId::parse(raw).map_err(invalid)
}

#[tonic::async_trait]
impl AgentTaskService for AgentTaskGrpc {
    async fn start_task(&self, request: Request<pb::StartTaskRequest>) -> Reply<pb::AgentTask> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let row = self.core.items().start_task(&who, &req.tool, &req.status_message).await?;
        Ok(Response::new(task(row)))
    }

    async fn get_task(&self, request: Request<pb::TaskRef>) -> Reply<pb::AgentTask> {
        let who = authenticate(&self.core, &request).await?;
        let id = task_id(&request.get_ref().task_id)?;
        Ok(Response::new(task(self.core.items().get_task(&who, id).await?)))
    }

    async fn report_task(&self, request: Request<pb::ReportTaskRequest>) -> Reply<pb::AgentTask> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let id = task_id(&req.task_id)?;
        Ok(Response::new(task(self.core.items().report_task(&who, id, req.status_message.as_deref()).await?)))
    }

    async fn finish_task(&self, request: Request<pb::FinishTaskRequest>) -> Reply<pb::AgentTask> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let id = task_id(&req.task_id)?;
        let outcome = match req.outcome {
            Some(pb::finish_task_request::Outcome::ResultJson(result)) => TaskOutcome::Result(result),
            Some(pb::finish_task_request::Outcome::ErrorJson(error)) => TaskOutcome::Error(error),
            None => return Err(CoreError::invalid("outcome", "give result_json or error_json").into()),
        };
        Ok(Response::new(task(self.core.items().finish_task(&who, id, outcome, &req.status_message).await?)))
    }

    async fn cancel_task(&self, request: Request<pb::TaskRef>) -> Reply<pb::AgentTask> {
        let who = authenticate(&self.core, &request).await?;
        let id = task_id(&request.get_ref().task_id)?;
        Ok(Response::new(task(self.core.items().cancel_task(&who, id).await?)))
    }
}
