//! A project's tags (beyond the spec; docs/ITEMS.md "Tags"): `GET`/`POST .../tags`,
//! `GET`/`PATCH`/`DELETE .../tags/{tagId}`. Each is one TagService call; items carry tags by id in
//! their `tags` property, and `GET .../items?tag=` lists the items carrying one.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use canvas_proto::channel::CoreChannel;
use canvas_proto::v1 as pb;
use canvas_proto::v1::tag_service_client::TagServiceClient;
use serde_json::{json, Value};

use super::items::rfc3339;
use crate::bodies::parse;
use crate::bodies::tags::TagRequest;
use crate::caller::Caller;
use crate::content_type::{JsonBody, Rejected};
use crate::respond::Format;
use crate::state::AppState;

fn client(state: &AppState) -> TagServiceClient<CoreChannel> {
    TagServiceClient::new(state.channel.clone())
}

/// The REST shape of a tag.
pub fn tag_json(tag: pb::Tag) -> Value {
    json!({
        "tagId": tag.tag_id,
        "projectId": tag.project_id,
        "name": tag.name,
        "color": tag.color,
        "version": tag.version,
        "createdAt": rfc3339(tag.created_at),
        "updatedAt": rfc3339(tag.updated_at),
    })
}

/// `GET /api/v2/projects/{projectId}/tags`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/tags",
    tag = "items",
    operation_id = "listTags",
    summary = "List a project's tags (beyond the spec)",
    description = "Every tag of the project (at most 500), by name ignoring case. Any member may read them.",
    params(("projectId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The tags.", body = crate::bodies::tags::TagList))
)]
pub async fn list(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
) -> Response {
    let result = async {
        let reply = caller
            .idempotent(pb::ListTagsRequest { project_id }, |r| {
                let mut client = client(&state);
                async move { client.list_tags(r).await }
            })
            .await?
            .into_inner();
        Ok(json!({"tags": reply.tags.into_iter().map(tag_json).collect::<Vec<_>>()}))
    }
    .await;
    format.reply(result)
}

/// `POST /api/v2/projects/{projectId}/tags`
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/tags",
    tag = "items",
    operation_id = "createTag",
    summary = "Create a tag (beyond the spec)",
    description = "`{name, color?}`: Editor or above. A name another tag of the project has (ignoring case) is a 400 \
        naming `name`; a project holds at most 500 tags (a 409 past them). Items carry tags by id in `tags`.",
    params(("projectId" = String, Path, format = "uuid")),
    request_body(content = crate::bodies::tags::TagRequest, content_type = "application/json"),
    responses((status = 201, description = "The new tag.", body = crate::bodies::tags::Tag))
)]
pub async fn create(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let body: TagRequest = parse(body, "a tag ({name, color})")?;
        let request = pb::CreateTagRequest { project_id, name: body.name, color: body.color };
        let reply = client(&state).create_tag(caller.request(request)?).await?;
        Ok(tag_json(reply.into_inner()))
    }
    .await;
    match result {
        Ok(body) => format.ok(StatusCode::CREATED, body),
        Err(error) => format.error(error),
    }
}

/// `GET /api/v2/projects/{projectId}/tags/{tagId}`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/tags/{tagId}",
    tag = "items",
    operation_id = "getTag",
    summary = "Read a tag (beyond the spec)",
    params(("projectId" = String, Path, format = "uuid"), ("tagId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The tag.", body = crate::bodies::tags::Tag))
)]
pub async fn get(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, tag_id)): Path<(String, String)>,
    caller: Caller,
) -> Response {
    let result = async {
        let reply = caller
            .idempotent(pb::TagRequest { project_id, tag_id }, |r| {
                let mut client = client(&state);
                async move { client.get_tag(r).await }
            })
            .await?
            .into_inner();
        Ok(tag_json(reply))
    }
    .await;
    format.reply(result)
}

/// `PATCH /api/v2/projects/{projectId}/tags/{tagId}`
#[utoipa::path(
    patch,
    path = "/api/v2/projects/{projectId}/tags/{tagId}",
    tag = "items",
    operation_id = "updateTag",
    summary = "Rename or recolour a tag (beyond the spec)",
    description = "`{name?, color?}`: Editor or above; the fields not sent keep their value. The items carrying the \
        tag name it by id, so they do not change and no item event is written.",
    params(("projectId" = String, Path, format = "uuid"), ("tagId" = String, Path, format = "uuid")),
    request_body(content = crate::bodies::tags::TagRequest, content_type = "application/json"),
    responses((status = 200, description = "The tag as changed.", body = crate::bodies::tags::Tag))
)]
pub async fn update(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, tag_id)): Path<(String, String)>,
    caller: Caller,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let body: TagRequest = parse(body, "a tag change ({name, color})")?;
        let request = pb::UpdateTagRequest { project_id, tag_id, name: body.name, color: body.color };
        let reply = client(&state).update_tag(caller.request(request)?).await?;
        Ok(tag_json(reply.into_inner()))
    }
    .await;
    format.reply(result)
}

/// `DELETE /api/v2/projects/{projectId}/tags/{tagId}`
#[utoipa::path(
    delete,
    path = "/api/v2/projects/{projectId}/tags/{tagId}",
    tag = "items",
    operation_id = "deleteTag",
    summary = "Delete a tag and take it off its items (beyond the spec)",
    description = "Editor or above. In one transaction the tag goes and every item carrying it loses it from `tags`, \
        each with its `item.updated` event (`new` and `old` hold `tags`), as webhooks and the change stream show.",
    params(("projectId" = String, Path, format = "uuid"), ("tagId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The tag as it was, and the items it was taken off.",
        body = crate::bodies::tags::TagDeleted))
)]
pub async fn delete(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, tag_id)): Path<(String, String)>,
    caller: Caller,
) -> Response {
    let result = async {
        let reply = client(&state).delete_tag(caller.request(pb::TagRequest { project_id, tag_id })?).await?;
        let done = reply.into_inner();
        Ok(json!({"tag": done.tag.map(tag_json), "untaggedItemIds": done.untagged_item_ids}))
    }
    .await;
    format.reply(result)
}
