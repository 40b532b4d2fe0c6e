//! `POST /api/v1/memory/retrieve` and `GET /api/v1/memory/index`: translate each call into one
//! KnowledgeService call. The body is read field by field so a wrong type is answered with the
//! field's name; every retrieval rule (empty query, `maxResults` ceilings, agents) is core-service's.

use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::response::Response;
use canvas_proto::v1 as pb;
use canvas_proto::v1::knowledge_service_client::KnowledgeServiceClient;
use serde_json::{json, Map, Value};

use super::items::authorization;
use crate::content_type::{JsonBody, Rejected};
use crate::error::ApiError;
use crate::respond::{query_value, Format};
use crate::state::{idempotent, AppState};

/// The request fields, by their folded names (case, `_` and `-` ignored).
const FIELDS: &[&str] =
    &["projectid", "query", "keywords", "maxresults", "postprocess", "itemids", "agentconfigid", "mode"];

pub(crate) fn fold(name: &str) -> String {
    name.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

/// The body as a map from folded names to values; unknown fields are refused, so a typo such as
/// `maxResult` is not silently ignored.
fn fields(body: Result<JsonBody, Rejected>) -> Result<Map<String, Value>, ApiError> {
    let bytes = body?.0;
    let object = match serde_json::from_slice::<Value>(&bytes) {
        Ok(Value::Object(map)) => map,
        Ok(_) => return Err(ApiError::invalid("body", "must be a JSON object")),
        Err(_) if bytes.iter().all(u8::is_ascii_whitespace) => {
            return Err(ApiError::invalid("body", "a JSON object with projectId and query is required"))
        }
        Err(err) => return Err(ApiError::invalid("body", &format!("is not valid JSON: {err}"))),
    };
    let mut folded = Map::new();
    for (name, value) in object {
        let key = fold(&name);
        if !FIELDS.contains(&key.as_str()) {
            return Err(ApiError::invalid(&name, "is not a field of a retrieval request"));
        }
        folded.insert(key, value);
    }
    Ok(folded)
}

fn string(map: &Map<String, Value>, key: &str, field: &str) -> Result<Option<String>, ApiError> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(ApiError::invalid(field, "must be a string")),
    }
}

fn strings(map: &Map<String, Value>, key: &str, field: &str) -> Result<Vec<String>, ApiError> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(values)) => values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| ApiError::invalid(&format!("{field}[{i}]"), "must be a string"))
            })
            .collect(),
        Some(_) => Err(ApiError::invalid(field, "must be an array of strings")),
    }
}

fn request(map: &Map<String, Value>) -> Result<pb::RetrieveRequest, ApiError> {
    let project_id = string(map, "projectid", "projectId")?
        .filter(|p| !p.trim().is_empty())
        .ok_or_else(|| ApiError::invalid("projectId", "is required"))?;
    let query = string(map, "query", "query")?.unwrap_or_default();
    let max_results = match map.get("maxresults") {
        None | Some(Value::Null) => None,
        // A whole number in any JSON spelling (20, 20.0); the default and ceilings are core-service's.
        Some(Value::Number(n)) => match canvas_proto::json::count(n) {
            Some(n) => Some(n),
            None => return Err(ApiError::invalid("maxResults", "must be a whole number")),
        },
        Some(_) => return Err(ApiError::invalid("maxResults", "must be a number")),
    };
    let post_process = match map.get("postprocess") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ApiError::invalid("postProcess", "must be true or false")),
    };
    let mode = match string(map, "mode", "mode")?.map(|m| m.to_ascii_lowercase()).as_deref() {
        None | Some("hybrid") => pb::SearchMode::Hybrid,
        Some("keyword") => pb::SearchMode::Keyword,
        Some("semantic") => pb::SearchMode::Semantic,
        Some(_) => return Err(ApiError::invalid("mode", "must be hybrid, keyword or semantic")),
    };
    Ok(pb::RetrieveRequest {
        project_id,
        query,
        keywords: strings(map, "keywords", "keywords")?,
        max_results,
        post_process,
        item_ids: strings(map, "itemids", "itemIds")?,
        agent_config_id: string(map, "agentconfigid", "agentConfigId")?.unwrap_or_default(),
        mode: mode as i32,
    })
}

/// `POST /api/v1/memory/retrieve` → `AnswerResponse {answer, citations}`.
#[utoipa::path(
    post,
    path = "/api/v1/memory/retrieve",
    tag = "knowledge",
    operation_id = "retrieveKnowledge",
    summary = "Answer a question over a project (hybrid keyword and semantic search)",
    request_body = crate::openapi::schemas::RetrieveRequest,
    responses((status = 200, description = "The answer and its citations.", body = crate::openapi::schemas::AnswerResponse))
)]
pub async fn retrieve(
    State(state): State<AppState>,
    format: Format,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let request = request(&fields(body)?)?;
        let client = KnowledgeServiceClient::new(state.channel.clone());
        let reply = idempotent(request, authorization(&headers), |r| {
            let mut client = client.clone();
            async move { client.retrieve(r).await }
        }).await?.into_inner();
        let citations: Vec<Value> = reply
            .citations
            .into_iter()
            .map(|c| json!({"id": c.id, "index": c.index, "relevance": c.relevance, "chunk": c.chunk, "projectId": c.project_id}))
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
    responses((status = 200, description = "One page of index states, and how many of the selected items (all pages) are queued, indexed and failed.", body = crate::openapi::schemas::IndexStatusPage))
)]
pub async fn index_status(
    State(state): State<AppState>,
    format: Format,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
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
        let reply = idempotent(request, authorization(&headers), |r| {
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
