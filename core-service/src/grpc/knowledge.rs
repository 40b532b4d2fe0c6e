//! `canvas.v1.KnowledgeService`: parse, authenticate, call the service layer, convert.

use crate::grpc::status::invalid;
use std::sync::Arc;

use canvas_proto::v1 as pb;
use canvas_proto::v1::knowledge_service_server::KnowledgeService;
use chrono::SecondsFormat;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use super::authenticate;
use crate::domain::ProjectId;
use crate::error::CoreError;
use crate::service::retrieval::{RetrieveRequest, SearchMode};
use crate::service::Core;
use crate::storage::IndexStatusRow;

/// gRPC face of knowledge retrieval.
pub struct KnowledgeGrpc {
    pub core: Arc<Core>,
}

type Reply<T> = Result<Response<T>, Status>;

#[tonic::async_trait]
impl KnowledgeService for KnowledgeGrpc {
    async fn retrieve(&self, request: Request<pb::RetrieveRequest>) -> Reply<pb::RetrieveResponse> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let project = ProjectId::parse(&req.project_id).map_err(invalid)?;
        let mode = match pb::SearchMode::try_from(req.mode).unwrap_or(pb::SearchMode::Unspecified) {
            pb::SearchMode::Keyword => SearchMode::Keyword,
            pb::SearchMode::Semantic => SearchMode::Semantic,
            pb::SearchMode::Hybrid | pb::SearchMode::Unspecified => SearchMode::Hybrid,
        };
        let answer = self
            .core
            .retrieval()
            .retrieve(
                &who,
                project,
                RetrieveRequest {
                    query: req.query,
                    keywords: req.keywords,
                    max_results: req.max_results,
                    post_process: req.post_process,
                    item_ids: req.item_ids,
                    agent_config_id: Some(req.agent_config_id),
                    mode,
                },
            )
            .await?;
        Ok(Response::new(pb::RetrieveResponse {
            answer: answer.answer,
            citations: answer
                .citations
                .into_iter()
                .map(|c| pb::Citation {
                    id: c.item_id.to_string(),
                    index: c.index,
                    relevance: c.relevance,
                    chunk: Some(c.chunk),
                    project_id: Some(c.project_id.to_string()),
                    thread_id: c.thread_id.map(|t| t.to_string()),
                })
                .collect(),
        }))
    }

    async fn get_index_status(&self, request: Request<pb::GetIndexStatusRequest>) -> Reply<pb::GetIndexStatusResponse> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let project = ProjectId::parse(&req.project_id).map_err(invalid)?;
        let after = match req.after.trim() {
            "" => None,
            cursor => Some(
                Uuid::parse_str(cursor)
                    .map_err(|_| CoreError::invalid("after", "must be a cursor from a previous page"))?,
            ),
        };
        let limit = crate::service::page_size(req.limit, canvas_vocabulary::limits::INDEX_STATUS_PAGE)?;
        let (rows, counts) = self.core.retrieval().index_status(&who, project, &req.item_ids, after, limit).await?;
        let next_cursor = if rows.len() == limit as usize {
            rows.last().map(|r| r.item_id.to_string()).unwrap_or_default()
        } else {
            String::new()
        };
        let count = |n: i64| n.max(0) as u64;
        let counts = pb::IndexCounts {
            total: count(counts.total),
            queued: count(counts.queued),
            indexing: count(counts.indexing),
            indexed: count(counts.indexed),
            failed: count(counts.failed),
        };
        Ok(Response::new(pb::GetIndexStatusResponse {
            items: rows.into_iter().map(status).collect(),
            next_cursor,
            counts: Some(counts),
        }))
    }
}

fn status(row: IndexStatusRow) -> pb::ItemIndexStatus {
    let now_ms = chrono::Utc::now().timestamp_millis();
    let queued = row.attempts.is_some();
    let state = match (queued, row.status.as_deref()) {
        (true, _) if row.leased_until.is_some_and(|until| until > now_ms) && row.attempts == Some(0) => "indexing",
        (true, _) => "pending",
        (false, Some("failed")) => "failed",
        (false, Some(_)) if row.indexed_version == Some(row.item_version) => "indexed",
        (false, _) => "pending",
    };
    pb::ItemIndexStatus {
        item_id: row.item_id.to_string(),
        item_type: row.item_type,
        state: state.to_owned(),
        item_version: row.item_version,
        indexed_version: row.indexed_version.unwrap_or(0),
        chunks: row.chunk_count.unwrap_or(0).max(0) as u32,
        truncated: row.truncated.unwrap_or(false),
        error: row.error,
        attempts: row.attempts.unwrap_or(0).max(0) as u32,
        updated_at: row.updated_at.map(|t| t.to_rfc3339_opts(SecondsFormat::Millis, true)),
    }
}
