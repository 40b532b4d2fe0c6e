//! `POST /api/v1/memory/retrieve` and `GET /api/v1/memory/index`: translate each call into one
//! KnowledgeService call. The body is read by [`RetrieveRequest`], the type that writes its schema
//! (`crate::bodies`); every retrieval rule (empty query, `maxResults` ceilings, agents) is core-service's.

use axum::extract::{RawQuery, State};
use axum::response::Response;
use canvas_proto::v1 as pb;
use canvas_proto::v1::knowledge_service_client::KnowledgeServiceClient;
use serde_json::{json, Value};

use crate::bodies::knowledge::{RetrieveRequest, SearchMode};
use crate::caller::Caller;
use crate::content_type::{JsonBody, Rejected};
use crate::error::ApiError;
use crate::respond::{query_value, Format};
use crate::state::AppState;

/// The gRPC request of a retrieval body. Every retrieval rule (empty query, `maxResults`
/// ceilings, agents, item ids) is core-service's; absent values are the proto's defaults.
fn request(body: RetrieveRequest) -> pb::RetrieveRequest {
    let mode = match body.mode.unwrap_or(SearchMode::Hybrid) {
        SearchMode::Hybrid => pb::SearchMode::Hybrid,
        SearchMode::Keyword => pb::SearchMode::Keyword,
        SearchMode::Semantic => pb::SearchMode::Semantic,
    };
    pb::RetrieveRequest {
        project_id: body.project_id,
        query: body.query,
        keywords: body.keywords.unwrap_or_default(),
        max_results: body.max_results,
        post_process: body.post_process.unwrap_or(false),
        item_ids: body.item_ids.unwrap_or_default(),
        agent_config_id: body.agent_config_id.unwrap_or_default(),
        mode: mode as i32,
    }
}

/// `POST /api/v1/memory/retrieve` → `AnswerResponse {answer, citations}`.
#[utoipa::path(
    post,
    path = "/api/v1/memory/retrieve",
    tag = "knowledge",
    operation_id = "retrieveKnowledge",
    summary = "Answer a question over a project (hybrid keyword and semantic search)",
    request_body = crate::bodies::knowledge::RetrieveRequest,
    responses((status = 200, description = "The answer and its citations.", body = crate::bodies::knowledge::AnswerResponse))
)]
pub async fn retrieve(
    State(state): State<AppState>,
    format: Format,
    caller: Caller,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let request = request(crate::bodies::parse(body, "a retrieval request ({projectId, query, ...})")?);
        let client = KnowledgeServiceClient::new(state.channel.clone());
        // Retrieval needs the project's search index: placed on the project's replica.
        let project = request.project_id.clone();
        let reply = caller.idempotent(request, |mut r| {
            canvas_proto::placement::place_by_project(&mut r, &project);
            let mut client = client.clone();
            async move { client.retrieve(r).await }
        }).await?.into_inner();
        let citations: Vec<Value> = reply
            .citations
            .into_iter()
            .map(|c| {
                let mut citation = json!({"id": c.id, "index": c.index, "relevance": c.relevance, "chunk": c.chunk, "projectId": c.project_id});
                // A comment thread's citation names it (docs/COMMENTS.md "Knowledge"); an item's has no such member.
                if let Some(thread) = c.thread_id {
                    citation["threadId"] = json!(thread);
                }
                citation
            })
            .collect();
        Ok(json!({"answer": reply.answer, "citations": citations}))
    }
    .await;
    format.reply(result)
}

/// `GET /api/v1/memory/index?projectId=…[&itemIds=a,b][&cursor=…][&limit=…]`: the index state of
/// the project's items, one page, and the counts per state of every selected item (beyond the spec).
#[utoipa::path(
    get,
    path = "/api/v1/memory/index",
    tag = "knowledge",
    operation_id = "getIndexStatus",
    summary = "How far the project's items are indexed",
    params(
        ("projectId" = String, Query, format = "uuid", description = "The project."),
        ("itemIds" = Option<String>, Query, description = "Only these items (comma-separated ids)."),
        ("cursor" = Option<String>, Query, description = "`NextCursor` of the previous page."),
        ("limit" = Option<u32>, Query, description = "Page size."),
    ),
    responses((status = 200, description = "One page of index states, and how many of the selected items (all pages) are queued, indexed and failed.", body = crate::bodies::knowledge::IndexStatusPage))
)]
pub async fn index_status(
    State(state): State<AppState>,
    format: Format,
    RawQuery(query): RawQuery,
    caller: Caller,
) -> Response {
    let result = async {
        let query = query.unwrap_or_default();
        let project_id = query_value(&query, "projectId")
            .filter(|p| !p.trim().is_empty())
            .ok_or_else(|| ApiError::invalid("projectId", "is required"))?;
        let limit = super::items::count_parameter(&query, "limit")?;
        let item_ids = query_value(&query, "itemIds")
            .map(|ids| ids.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect())
            .unwrap_or_default();
        let request = pb::GetIndexStatusRequest {
            project_id,
            item_ids,
            after: query_value(&query, "cursor").unwrap_or_default(),
            limit,
        };
        let client = KnowledgeServiceClient::new(state.channel.clone());
        let reply = caller
            .idempotent(request, |r| {
                let mut client = client.clone();
                async move { client.get_index_status(r).await }
            })
            .await?
            .into_inner();
        let items: Vec<Value> = reply
            .items
            .into_iter()
            .map(|s| {
                json!({
                    "itemId": s.item_id, "itemType": s.item_type, "state": s.state, "itemVersion": s.item_version,
                    "indexedVersion": s.indexed_version, "chunks": s.chunks, "truncated": s.truncated,
                    "error": s.error, "attempts": s.attempts, "updatedAt": s.updated_at,
                })
            })
            .collect();
        let next = if reply.next_cursor.is_empty() { Value::Null } else { Value::String(reply.next_cursor) };
        let counts = reply.counts.unwrap_or_default();
        let counts = json!({
            "total": counts.total, "queued": counts.queued, "indexing": counts.indexing,
            "indexed": counts.indexed, "failed": counts.failed,
        });
        Ok(json!({"items": items, "nextCursor": next, "counts": counts}))
    }
    .await;
    format.reply(result)
}
