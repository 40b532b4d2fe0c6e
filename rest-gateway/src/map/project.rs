//! `GET /api/v2/projects/{projectId}`: the project as the caller sees it (its name and the
//! caller's role), so the web map knows whether to offer its editing tools before anything is
//! written. Beyond the spec; Viewer or above, like every read of the project, and a signed-in
//! person's session cookie works here as on the other reads.

use axum::extract::{Path, State};
use axum::response::Response;
use canvas_proto::v1 as pb;
use canvas_proto::v1::project_service_client::ProjectServiceClient;
use serde_json::json;

use crate::caller::Caller;
use crate::respond::Format;
use crate::routes::items::rfc3339;
use crate::state::AppState;

/// The role's name as the REST answer writes it.
pub(crate) fn role_name(role: i32) -> &'static str {
    match pb::ProjectRole::try_from(role) {
        Ok(pb::ProjectRole::Viewer) => "Viewer",
        Ok(pb::ProjectRole::Editor) => "Editor",
        Ok(pb::ProjectRole::Manager) => "Manager",
        Ok(pb::ProjectRole::Admin) => "Admin",
        _ => "Viewer",
    }
}

/// `GET /api/v2/projects/{projectId}`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}",
    tag = "map",
    operation_id = "getProject",
    summary = "The project and the caller's role in it",
    description = "What the web map reads to decide whether to show its editing tools: `Role` is the \
        caller's role (`Viewer` reads; `Editor`, `Manager` and `Admin` also write items).",
    params(("projectId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The project.", body = crate::bodies::common::ProjectView))
)]
pub async fn get(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
) -> Response {
    let result = async {
        let request = pb::GetProjectRequest { project_id };
        let client = ProjectServiceClient::new(state.channel.clone());
        let project = caller
            .idempotent(request, |r| {
                let mut client = client.clone();
                async move { client.get_project(r).await }
            })
            .await?
            .into_inner();
        Ok(json!({
            "projectId": project.project_id,
            "name": project.name,
            "role": role_name(project.role),
            "createdAt": rfc3339(project.created_at),
        }))
    }
    .await;
    format.reply(result)
}
