//! Comment threads (beyond the spec; docs/COMMENTS.md): `GET`/`POST .../comments`,
//! `GET`/`PATCH`/`DELETE .../comments/{threadId}`, `POST .../comments/{threadId}/replies`,
//! `PATCH`/`DELETE .../comments/{threadId}/replies/{commentId}`. Each is one CommentService call.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use canvas_proto::channel::CoreChannel;
use canvas_proto::v1 as pb;
use canvas_proto::v1::comment_service_client::CommentServiceClient;
use serde_json::{json, Value};

use super::items::{count_parameter, rfc3339, timestamp};
use crate::bodies::comments::{ReplyRequest, ThreadChange, ThreadRequest};
use crate::bodies::parse;
use crate::caller::Caller;
use crate::content_type::{JsonBody, Rejected};
use crate::error::ApiError;
use crate::respond::{query_value, Format};
use crate::state::AppState;

fn client(state: &AppState) -> CommentServiceClient<CoreChannel> {
    CommentServiceClient::new(state.channel.clone())
}

/// The REST shape of a reply.
pub fn comment_json(comment: pb::Comment) -> Value {
    json!({
        "commentId": comment.comment_id,
        "threadId": comment.thread_id,
        "text": comment.text,
        "mentions": comment.mention_user_ids,
        "authorUserId": comment.author_user_id,
        "createdAt": rfc3339(comment.created_at),
        "updatedAt": rfc3339(comment.updated_at),
        "editedAt": comment.edited_at.map(|at| rfc3339(Some(at))),
    })
}

/// The REST shape of a thread: its first comment's fields flattened into it.
pub fn thread_json(thread: pb::CommentThread) -> Value {
    let opening = thread.opening.unwrap_or_default();
    json!({
        "threadId": thread.thread_id,
        "projectId": thread.project_id,
        "itemId": thread.item_id,
        "formerItemId": thread.former_item_id,
        "position": thread.position.map(|p| json!({"x": p.x, "y": p.y})),
        "text": opening.text,
        "mentions": opening.mention_user_ids,
        "authorUserId": opening.author_user_id,
        "resolved": thread.resolved,
        "resolvedAt": thread.resolved_at.map(|at| rfc3339(Some(at))),
        "resolvedByUserId": thread.resolved_by_user_id,
        "replyCount": thread.replies.len(),
        "replies": thread.replies.into_iter().map(comment_json).collect::<Vec<_>>(),
        "version": thread.version,
        "createdAt": rfc3339(thread.created_at),
        "updatedAt": rfc3339(thread.updated_at),
        "editedAt": opening.edited_at.map(|at| rfc3339(Some(at))),
    })
}

fn deleted_json(reply: pb::DeleteCommentResponse) -> Value {
    json!({"deletedCommentIds": reply.deleted_comment_ids})
}

/// `GET /api/v2/projects/{projectId}/comments`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/comments",
    tag = "comments",
    operation_id = "listCommentThreads",
    summary = "List comment threads (beyond the spec)",
    description = "Threads in the order they were opened, each with all its replies; every filter sent must hold. \
        Any member may read them.",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("item" = Option<String>, Query, format = "uuid", description = "Threads on this item."),
        ("status" = Option<String>, Query, description = "`open`, `resolved` or `all` (the default)."),
        ("author" = Option<String>, Query, description = "Threads with a comment by this user id, or `me`."),
        ("mentions" = Option<String>, Query, description = "Threads with a comment mentioning this user id, or `me`."),
        ("changedSince" = Option<String>, Query, format = DateTime, description = "Threads changed at or after this time."),
        ("limit" = Option<u32>, Query, description = "Page size."),
        ("cursor" = Option<String>, Query, description = "`NextCursor` of the previous page."),
    ),
    responses((status = 200, description = "One page of threads.", body = crate::bodies::comments::ThreadPage))
)]
pub async fn list(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    RawQuery(query): RawQuery,
    caller: Caller,
) -> Response {
    let result = async {
        let query = query.unwrap_or_default();
        let request = pb::ListThreadsRequest {
            project_id,
            item_id: query_value(&query, "item"),
            status: query_value(&query, "status"),
            author: query_value(&query, "author"),
            mentions: query_value(&query, "mentions"),
            changed_since: query_value(&query, "changedSince").map(|raw| timestamp(&raw)).transpose()?,
            page_size: count_parameter(&query, "limit")?,
            page_token: query_value(&query, "cursor").unwrap_or_default(),
        };
        let reply = caller
            .idempotent(request, |r| {
                let mut client = client(&state);
                async move { client.list_threads(r).await }
            })
            .await?
            .into_inner();
        let next = if reply.next_page_token.is_empty() { Value::Null } else { Value::String(reply.next_page_token) };
        let threads: Vec<Value> = reply.threads.into_iter().map(thread_json).collect();
        Ok(json!({"threads": threads, "nextCursor": next}))
    }
    .await;
    format.reply(result)
}

/// `POST /api/v2/projects/{projectId}/comments`
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/comments",
    tag = "comments",
    operation_id = "createCommentThread",
    summary = "Open a comment thread on an item or a point (beyond the spec)",
    description = "`{text, itemId}` or `{text, position: {x, y}}`. Any member, Viewers included. `@login` in the text \
        mentions a member.",
    params(("projectId" = String, Path, format = "uuid")),
    request_body(content = crate::bodies::comments::ThreadRequest, content_type = "application/json"),
    responses((status = 201, description = "The new thread.", body = crate::bodies::comments::CommentThread))
)]
pub async fn create(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let body: ThreadRequest = parse(body, "a thread ({text, itemId} or {text, position})")?;
        let position = body.position.map(|p| pb::CommentPosition { x: p.x, y: p.y });
        let request = pb::CreateThreadRequest { project_id, text: body.text, item_id: body.item_id, position };
        let reply = client(&state).create_thread(caller.request(request)?).await?;
        Ok(thread_json(reply.into_inner()))
    }
    .await;
    created(format, result)
}

/// `GET /api/v2/projects/{projectId}/comments/{threadId}`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/comments/{threadId}",
    tag = "comments",
    operation_id = "getCommentThread",
    summary = "Read a comment thread with its replies (beyond the spec)",
    params(("projectId" = String, Path, format = "uuid"), ("threadId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The thread.", body = crate::bodies::comments::CommentThread))
)]
pub async fn get(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, thread_id)): Path<(String, String)>,
    caller: Caller,
) -> Response {
    let result = async {
        let reply = caller
            .idempotent(pb::ThreadRequest { project_id, thread_id }, |r| {
                let mut client = client(&state);
                async move { client.get_thread(r).await }
            })
            .await?
            .into_inner();
        Ok(thread_json(reply))
    }
    .await;
    format.reply(result)
}

/// `PATCH /api/v2/projects/{projectId}/comments/{threadId}`
#[utoipa::path(
    patch,
    path = "/api/v2/projects/{projectId}/comments/{threadId}",
    tag = "comments",
    operation_id = "updateCommentThread",
    summary = "Edit, resolve or reopen a comment thread (beyond the spec)",
    description = "`{text?, resolved?}`: `text` by the thread's author only; `resolved` (true: resolve, false: reopen) \
        by any member. Resolving a resolved thread changes nothing.",
    params(("projectId" = String, Path, format = "uuid"), ("threadId" = String, Path, format = "uuid")),
    request_body(content = crate::bodies::comments::ThreadChange, content_type = "application/json"),
    responses((status = 200, description = "The thread as it now is.", body = crate::bodies::comments::CommentThread))
)]
pub async fn update(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, thread_id)): Path<(String, String)>,
    caller: Caller,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let body: ThreadChange = parse(body, "a thread change ({text, resolved})")?;
        let request = pb::UpdateThreadRequest { project_id, thread_id, text: body.text, resolved: body.resolved };
        let reply = client(&state).update_thread(caller.request(request)?).await?;
        Ok(thread_json(reply.into_inner()))
    }
    .await;
    format.reply(result)
}

/// `DELETE /api/v2/projects/{projectId}/comments/{threadId}`
#[utoipa::path(
    delete,
    path = "/api/v2/projects/{projectId}/comments/{threadId}",
    tag = "comments",
    operation_id = "deleteCommentThread",
    summary = "Delete a comment thread with its replies (beyond the spec)",
    description = "Its author, a Manager or an Admin. One `comment.deleted` event per comment.",
    params(("projectId" = String, Path, format = "uuid"), ("threadId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The comments deleted.", body = crate::bodies::comments::CommentsDeleted))
)]
pub async fn delete(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, thread_id)): Path<(String, String)>,
    caller: Caller,
) -> Response {
    let result = async {
        let request = pb::ThreadRequest { project_id, thread_id };
        Ok(deleted_json(client(&state).delete_thread(caller.request(request)?).await?.into_inner()))
    }
    .await;
    format.reply(result)
}

/// `POST /api/v2/projects/{projectId}/comments/{threadId}/replies`
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/comments/{threadId}/replies",
    tag = "comments",
    operation_id = "replyToCommentThread",
    summary = "Reply to a comment thread (beyond the spec)",
    description = "`{text}`. Any member. A thread holds a bounded number of replies (docs/LIMITS.md \"Comments\"; a 409 past them).",
    params(("projectId" = String, Path, format = "uuid"), ("threadId" = String, Path, format = "uuid")),
    request_body(content = crate::bodies::comments::ReplyRequest, content_type = "application/json"),
    responses((status = 201, description = "The reply.", body = crate::bodies::comments::Comment))
)]
pub async fn reply(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, thread_id)): Path<(String, String)>,
    caller: Caller,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let body: ReplyRequest = parse(body, "a reply ({text})")?;
        let request = pb::AddReplyRequest { project_id, thread_id, text: body.text };
        Ok(comment_json(client(&state).add_reply(caller.request(request)?).await?.into_inner()))
    }
    .await;
    created(format, result)
}

/// `PATCH /api/v2/projects/{projectId}/comments/{threadId}/replies/{commentId}`
#[utoipa::path(
    patch,
    path = "/api/v2/projects/{projectId}/comments/{threadId}/replies/{commentId}",
    tag = "comments",
    operation_id = "updateCommentReply",
    summary = "Edit a reply (beyond the spec)",
    description = "`{text}`: its author only.",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("threadId" = String, Path, format = "uuid"),
        ("commentId" = String, Path, format = "uuid"),
    ),
    request_body(content = crate::bodies::comments::ReplyRequest, content_type = "application/json"),
    responses((status = 200, description = "The reply as changed.", body = crate::bodies::comments::Comment))
)]
pub async fn update_reply(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, thread_id, comment_id)): Path<(String, String, String)>,
    caller: Caller,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let body: ReplyRequest = parse(body, "a reply ({text})")?;
        let request = pb::UpdateReplyRequest { project_id, thread_id, comment_id, text: body.text };
        Ok(comment_json(client(&state).update_reply(caller.request(request)?).await?.into_inner()))
    }
    .await;
    format.reply(result)
}

/// `DELETE /api/v2/projects/{projectId}/comments/{threadId}/replies/{commentId}`
#[utoipa::path(
    delete,
    path = "/api/v2/projects/{projectId}/comments/{threadId}/replies/{commentId}",
    tag = "comments",
    operation_id = "deleteCommentReply",
    summary = "Delete a reply (beyond the spec)",
    description = "Its author, a Manager or an Admin.",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("threadId" = String, Path, format = "uuid"),
        ("commentId" = String, Path, format = "uuid"),
    ),
    responses((status = 200, description = "The reply deleted.", body = crate::bodies::comments::CommentsDeleted))
)]
pub async fn delete_reply(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, thread_id, comment_id)): Path<(String, String, String)>,
    caller: Caller,
) -> Response {
    let result = async {
        let request = pb::ReplyRequest { project_id, thread_id, comment_id };
        Ok(deleted_json(client(&state).delete_reply(caller.request(request)?).await?.into_inner()))
    }
    .await;
    format.reply(result)
}

fn created(format: Format, result: Result<Value, ApiError>) -> Response {
    match result {
        Ok(body) => format.ok(StatusCode::CREATED, body),
        Err(error) => format.error(error),
    }
}
