//! Bodies of `POST /api/v1/memory/retrieve` and `GET /api/v1/memory/index`. The request type is
//! also what `routes::knowledge` deserialises the body with ([`super::parse`]), so the schema is the
//! parser; every limit is core-service's, from `canvas_vocabulary::limits::retrieval`. Requests are
//! written with the canonical camelCase names (any casing is accepted), responses in the default
//! PascalCase.

use canvas_vocabulary::limits::retrieval;
use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
use utoipa::openapi::Object;
use utoipa::ToSchema;

use super::common::one_of;

// `routes::knowledge` reads the body with this type ([`super::parse`]).
/// `POST /api/v1/memory/retrieve`. Field names match in any casing; unknown fields are a 400.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, expecting = "a retrieval request {projectId, query, ...}")]
pub struct RetrieveRequest {
    /// The project to search.
    #[schema(format = "uuid")]
    pub project_id: String,
    /// The question; must not be empty.
    #[schema(schema_with = retrieve_query)]
    pub query: String,
    /// Extra terms for the keyword leg.
    #[serde(default)]
    #[schema(schema_with = retrieve_keywords)]
    pub keywords: Option<Vec<String>>,
    /// Citations to return.
    #[serde(default, deserialize_with = "crate::bodies::whole_number")]
    #[schema(schema_with = max_results)]
    pub max_results: Option<u32>,
    /// Rerank the candidates and write an answer with the agent's language model.
    #[serde(default)]
    #[schema(default = false)]
    pub post_process: Option<bool>,
    /// Search only these items.
    #[serde(default)]
    #[schema(schema_with = retrieve_item_ids)]
    pub item_ids: Option<Vec<String>>,
    /// The agent configuration (`default` when absent).
    #[serde(default)]
    #[schema(default = "default")]
    pub agent_config_id: Option<String>,
    /// Which legs run (beyond the spec), in any letter case; `hybrid` when absent.
    #[serde(default, deserialize_with = "crate::bodies::any_case")]
    pub mode: Option<SearchMode>,
}

/// Which legs of a retrieval run.
#[derive(Deserialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum SearchMode {
    /// Keyword and semantic, fused (the default).
    Hybrid,
    /// Keyword (BM25) only.
    Keyword,
    /// Semantic (embeddings) only.
    Semantic,
}

fn retrieve_query() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(retrieval::MAX_QUERY_CHARS))
        .description(Some("The question; must not be empty."))
        .build()
}

fn strings(max_items: usize, description: String) -> utoipa::openapi::schema::Array {
    ArrayBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([Type::Array, Type::Null]))
        .items(ObjectBuilder::new().schema_type(Type::String))
        .max_items(Some(max_items))
        .description(Some(description))
        .build()
}

fn retrieve_keywords() -> utoipa::openapi::schema::Array {
    let max = retrieval::MAX_KEYWORDS;
    strings(max, format!("Extra terms for the keyword leg (at most {max})."))
}

fn retrieve_item_ids() -> utoipa::openapi::schema::Array {
    let max = retrieval::MAX_ITEM_IDS;
    strings(max, format!("Search only these items (at most {max})."))
}

fn max_results() -> Object {
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([Type::Integer, Type::Null]))
        .minimum(Some(1))
        .maximum(Some(retrieval::MAX_RESULTS))
        .default(Some(retrieval::DEFAULT_MAX_RESULTS.into()))
        .description(Some(format!("Citations to return: {}.", retrieval::max_results_rule())))
        .build()
}

/// The answer and what it cites.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct AnswerResponse {
    /// With `postProcess` the model's answer; otherwise the cited chunks joined by a blank line.
    pub answer: String,
    pub citations: Vec<CitationReference>,
}

/// One cited item.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CitationReference {
    /// The cited item's id.
    pub id: String,
    /// Rank, from 1.
    pub index: u32,
    /// Relevance score, descending.
    pub relevance: f64,
    /// The matched chunk.
    pub chunk: Option<String>,
    pub project_id: Option<String>,
    /// Present when the cited content is an open comment thread (beyond the spec): the thread's
    /// id; `Id` is then the item it is on (the thread's own id for a thread on a point).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(format = "uuid")]
    pub thread_id: Option<String>,
}

/// `GET /api/v1/memory/index`: one page of index states.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct IndexStatusPage {
    pub items: Vec<IndexStatus>,
    /// Cursor of the next page; null on the last one.
    pub next_cursor: Option<String>,
    pub counts: IndexCounts,
}

/// How many of the selected items (the project, or `itemIds`; every page, not only this one) are
/// in each state: the progress of a bulk import. `Queued + Indexed + Failed = Total`.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct IndexCounts {
    pub total: u64,
    /// Waiting or being indexed (`pending` and `indexing`).
    pub queued: u64,
    /// The part of `Queued` a worker holds now.
    pub indexing: u64,
    /// Indexed at the item's current version.
    pub indexed: u64,
    pub failed: u64,
}

/// How far one item is indexed.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct IndexStatus {
    pub item_id: String,
    pub item_type: String,
    #[schema(schema_with = index_states)]
    pub state: String,
    pub item_version: i64,
    pub indexed_version: i64,
    pub chunks: u32,
    /// The text was cut at the 8 MiB extraction limit.
    pub truncated: bool,
    pub error: Option<String>,
    pub attempts: u32,
    pub updated_at: Option<String>,
}

fn index_states() -> Object {
    one_of(&["pending", "indexing", "indexed", "failed"])
}
