//! Knowledge retrieval (`POST /api/v1/memory/retrieve`) and the index status of items.
//!
//! Hybrid search over the project's in-memory index (`knowledge::search`): a keyword leg (BM25 with
//! the project's own statistics) and a semantic leg (cosine over the chunk vectors, through an HNSW
//! graph on large projects), fused in Rust (`knowledge::fusion`), identically on both backends.
//! With `postProcess` a language model reranks the candidates and writes the answer.
//!
//! [`RetrievalService`] is the retrieval context: it holds the shared [`Access`], its store (`storage::RetrievalStore`), file
//! content and the knowledge handle (model, agents, search indexes), private to this module, and
//! builds the background [`Indexer`] over the same (which never reaches back into the services).

use std::collections::{HashMap, HashSet};

use std::sync::Arc;

use uuid::Uuid;

mod thread_citations;

use super::access::Access;
use crate::blobs::BlobStore;
use crate::domain::{ItemId, ProjectId, ProjectRole};
use crate::error::{CoreError, CoreResult, Dependency, FieldViolation};
use crate::knowledge::agents::DEFAULT_AGENT;
use crate::knowledge::indexer::Indexer;
use crate::knowledge::llm::{self, Passage};
use crate::knowledge::Knowledge;
use crate::service::Principal;
use crate::storage::RetrievalStore;
use crate::storage::{IndexCounts, IndexStatusRow};
use canvas_search::fusion::{
    feedback_chunks, feedback_query, fuse, Fused, LegHit, Legs, FEEDBACK_CHUNKS, FEEDBACK_WEIGHT,
};
use canvas_search::tokenise;

/// `maxResults` (default, ceilings) and the limits on the request's size, shared with the
/// gateways, which document them.
pub use canvas_vocabulary::limits::retrieval::{
    DEFAULT_MAX_RESULTS, MAX_ITEM_IDS, MAX_KEYWORDS, MAX_QUERY_CHARS, MAX_RESULTS, MAX_RESULTS_POST_PROCESS,
};
/// Distinct words sent to the keyword leg.
const MAX_TERMS: usize = 64;

/// Which legs run; `Hybrid` unless the caller asks otherwise (beyond the spec: for evaluation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchMode {
    Hybrid,
    Keyword,
    Semantic,
}

/// A retrieval request as received (validated here).
#[derive(Debug, Clone)]
pub struct RetrieveRequest {
    pub query: String,
    pub keywords: Vec<String>,
    pub max_results: Option<u32>,
    pub post_process: bool,
    pub item_ids: Vec<String>,
    pub agent_config_id: Option<String>,
    pub mode: SearchMode,
}

/// One cited item.
#[derive(Debug, Clone)]
pub struct Citation {
    pub item_id: Uuid,
    /// Position in the response, from 1.
    pub index: u32,
    pub relevance: f64,
    pub chunk: String,
    pub project_id: Uuid,
    /// The open comment thread cited (its chunk is the thread's comments), whose item `item_id`
    /// then is (`thread_citations.rs`).
    pub thread_id: Option<Uuid>,
}

#[derive(Debug, Clone)]
pub struct Answer {
    pub answer: String,
    pub citations: Vec<Citation>,
}

/// Knowledge retrieval, the index status, and the indexer's construction.
#[derive(Debug, Clone)]
pub struct RetrievalService {
    access: Arc<Access>,
    store: RetrievalStore,
    /// Uploaded file content, which the indexer it builds reads documents' text from.
    blobs: BlobStore,
    /// The embedding model, agent configurations, search indexes and the indexer's wake-up.
    knowledge: Knowledge,
}

impl RetrievalService {
    pub(crate) fn new(access: Arc<Access>, store: RetrievalStore, blobs: BlobStore, knowledge: Knowledge) -> Self {
        Self { access, store, blobs, knowledge }
    }

    /// The embedding model, splitter and agents in use.
    pub fn knowledge(&self) -> &Knowledge {
        &self.knowledge
    }

    /// The background indexer over this core's storage, files and model (`crate::run` spawns it).
    pub fn indexer(&self) -> Indexer {
        Indexer::new(self.store.clone(), self.blobs.clone(), self.knowledge.clone())
    }

    pub async fn retrieve(&self, who: &Principal, project: ProjectId, request: RetrieveRequest) -> CoreResult<Answer> {
        let limits = self.validate_retrieve(&request)?;
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        let items = limits.items.as_deref();
        let wanted = limits.max_results as usize;
        let candidates = match &limits.agent {
            Some(agent) => agent.rerank_candidates.clamp(wanted, MAX_RESULTS as usize),
            None => wanted,
        };
        let depth = (candidates * 3).clamp(50, 300);
        let legs = self.search_legs(project, &request, items, depth).await?;
        let mut fused = fuse(&legs);
        fused.truncate(candidates);
        let texts = self.chunk_texts(&fused).await?;
        // The replica's index can be a moment behind the database: a chunk replaced by a re-index
        // since (its item changed again) has no text any more. It is not cited with an empty chunk;
        // its replacement is, once this replica has caught up.
        fused.retain(|f| texts.contains_key(&f.chunk_id));
        let answer = match limits.agent {
            None => plain_answer(project, fused, &texts),
            Some(agent) => {
                let endpoint = agent.endpoint.clone().unwrap_or_default();
                let passages: Vec<Passage> = fused
                    .iter()
                    .map(|f| Passage {
                        item_id: f.item_id.to_string(),
                        text: texts.get(&f.chunk_id).cloned().unwrap_or_default(),
                    })
                    .collect();
                if passages.is_empty() {
                    return Ok(Answer { answer: String::new(), citations: Vec::new() });
                }
                let reranked = llm::rerank(&self.knowledge.llm_http, &agent, &endpoint, &request.query, &passages)
                    .await
                    .map_err(|e| {
                        tracing::warn!(agent = %limits.agent_id, error = %e, "postProcess failed");
                        llm_failure(&limits.agent_id, e)
                    })?;
                reranked_answer(project, &fused, &texts, reranked, wanted)
            }
        };
        self.name_threads(answer).await
    }

    /// Runs the requested legs over the project's in-memory index, caught up with the database
    /// first (while the query is embedded), on the search threads.
    async fn search_legs(
        &self,
        project: ProjectId,
        request: &RetrieveRequest,
        items: Option<&[Uuid]>,
        depth: usize,
    ) -> CoreResult<Legs> {
        let semantic = request.mode != SearchMode::Keyword && self.knowledge.embedding.is_some();
        let keyword = request.mode != SearchMode::Semantic;
        let search = &self.knowledge.search;
        let (slot, query_vector) =
            tokio::try_join!(search.fresh(&self.store, project.uuid()), self.embed_query(&request.query, semantic))?;
        let terms = keyword.then(|| tokenise::query_terms(&request.query, &request.keywords, MAX_TERMS));
        let items = items.map(<[Uuid]>::to_vec);
        search
            .run(move || {
                slot.read(|index| {
                    let allowed = items.as_deref().map(|items| index.chunks_of(items));
                    let allowed_set: Option<HashSet<i64>> = allowed.as_ref().map(|a| a.iter().copied().collect());
                    let allow = allowed_set.as_ref().map(|set| move |chunk: i64| set.contains(&chunk));
                    let to_hits = |ranked: Vec<(i64, f32)>| -> Vec<LegHit> {
                        ranked
                            .into_iter()
                            .filter_map(|(chunk_id, score)| {
                                index.item_of(chunk_id).map(|item_id| LegHit { chunk_id, item_id, score })
                            })
                            .collect()
                    };
                    let keyword = terms.map(|terms| {
                        to_hits(index.keyword().search(
                            &terms,
                            allow.as_ref().map(|f| f as &dyn Fn(i64) -> bool),
                            depth,
                        ))
                    });
                    let semantic = match (index.vectors(), query_vector) {
                        (Some(vectors), Some(query)) => {
                            let first = to_hits(vectors.search(&query, allowed.as_deref(), depth, false));
                            match &keyword {
                                // Hybrid: the semantic leg again, with the first fusion's feedback.
                                Some(keyword) => {
                                    let feedback: Vec<&[f32]> =
                                        feedback_chunks(&[keyword.clone(), first], FEEDBACK_CHUNKS)
                                            .into_iter()
                                            .filter_map(|chunk| vectors.vector_of(chunk))
                                            .collect();
                                    let moved = feedback_query(&query, &feedback, FEEDBACK_WEIGHT);
                                    Some(to_hits(vectors.search(&moved, allowed.as_deref(), depth, false)))
                                }
                                None => Some(first),
                            }
                        }
                        _ => None,
                    };
                    Legs { keyword, semantic }
                })
            })
            .await
    }

    /// The query's vector when the semantic leg runs.
    async fn embed_query(&self, query: &str, wanted: bool) -> CoreResult<Option<Vec<f32>>> {
        let Some(embedding) = self.knowledge.embedding.as_ref().filter(|_| wanted) else { return Ok(None) };
        let vector = embedding
            .model
            .embed(&[query.to_owned()])
            .await
            .map_err(|e| {
                CoreError::unavailable(Dependency::EmbeddingModel, format!("it could not embed the query: {e}"), 5)
            })?
            .pop()
            .unwrap_or_default();
        Ok(Some(vector))
    }

    async fn chunk_texts(&self, fused: &[Fused]) -> CoreResult<HashMap<i64, String>> {
        let ids: Vec<i64> = fused.iter().map(|f| f.chunk_id).collect();
        Ok(self.store.chunk_texts(&ids).await?.into_iter().map(|c| (c.id, c.text)).collect())
    }

    fn validate_retrieve(&self, request: &RetrieveRequest) -> CoreResult<RetrieveLimits> {
        let mut violations = Vec::new();
        let query = request.query.trim();
        if query.is_empty() {
            violations.push(FieldViolation::new("query", "is required and must not be empty"));
        } else if query.chars().count() > MAX_QUERY_CHARS {
            violations.push(FieldViolation::new("query", format!("must be at most {MAX_QUERY_CHARS} characters")));
        }
        let max_results = request.max_results.unwrap_or(DEFAULT_MAX_RESULTS);
        if max_results == 0 {
            violations.push(FieldViolation::new("maxResults", "must be at least 1"));
        } else if request.post_process && max_results > MAX_RESULTS_POST_PROCESS {
            violations.push(FieldViolation::new(
                "maxResults",
                format!("must be at most {MAX_RESULTS_POST_PROCESS} when postProcess is true"),
            ));
        } else if max_results > MAX_RESULTS {
            violations.push(FieldViolation::new("maxResults", format!("must be at most {MAX_RESULTS}")));
        }
        if request.keywords.len() > MAX_KEYWORDS {
            violations.push(FieldViolation::new("keywords", format!("must hold at most {MAX_KEYWORDS} entries")));
        }
        let mut items = None;
        if !request.item_ids.is_empty() {
            if request.item_ids.len() > MAX_ITEM_IDS {
                violations.push(FieldViolation::new("itemIds", format!("must hold at most {MAX_ITEM_IDS} entries")));
            }
            let mut parsed = Vec::with_capacity(request.item_ids.len());
            for (i, id) in request.item_ids.iter().enumerate() {
                match Uuid::parse_str(id.trim()) {
                    Ok(id) => parsed.push(id),
                    Err(_) => violations.push(FieldViolation::new(format!("itemIds[{i}]"), "must be a GUID")),
                }
            }
            items = Some(parsed);
        }
        let agent_id =
            request.agent_config_id.as_deref().map(str::trim).filter(|s| !s.is_empty()).unwrap_or(DEFAULT_AGENT);
        let mut agent = None;
        match self.knowledge.agents.get(agent_id) {
            None => violations.push(FieldViolation::new(
                "agentConfigId",
                format!(
                    "unknown agent configuration '{agent_id}'; known: {}",
                    self.knowledge.agents.ids().collect::<Vec<_>>().join(", ")
                ),
            )),
            Some(config) if request.post_process && config.endpoint.is_none() => violations.push(FieldViolation::new(
                "postProcess",
                format!(
                    "agent configuration '{agent_id}' has no language model configured (set CANVAS_LLM_URL and \
                     CANVAS_LLM_MODEL, or an endpoint in the agents file); retrieve with postProcess false"
                ),
            )),
            Some(config) if request.post_process => agent = Some(config.clone()),
            Some(_) => {}
        }
        if request.mode == SearchMode::Semantic && self.knowledge.embedding.is_none() {
            violations.push(FieldViolation::new(
                "mode",
                "semantic search needs an embedding model, and this server runs without one",
            ));
        }
        if !violations.is_empty() {
            return Err(CoreError::Validation(violations));
        }
        Ok(RetrieveLimits { max_results, items, agent, agent_id: agent_id.to_owned() })
    }

    /// Retrieval's in-memory indexes (for benches and tests that measure them).
    pub fn search_indexes(&self) -> &Arc<crate::knowledge::search::SearchIndexes> {
        &self.knowledge.search
    }

    /// The id stored with vectors of the configured model (`none` without one).
    pub fn knowledge_model_id(&self) -> &str {
        self.knowledge.model_id()
    }

    /// Loads the search indexes of the most recently changed projects (at start, in the background).
    /// Items waiting in the index queue and the age of the oldest, in seconds (for metrics).
    pub async fn queue_stats(&self) -> CoreResult<(i64, f64)> {
        self.store.knowledge_queue_stats().await
    }

    pub async fn warm_search_indexes(self) {
        self.knowledge.search.warm(&self.store, self.knowledge.warm_projects).await;
    }

    /// The index state of a project's items (Viewer role), one page of `limit` (the resolved page
    /// size), with the counts of every selected item per state.
    pub async fn index_status(
        &self,
        who: &Principal,
        project: ProjectId,
        item_ids: &[String],
        after: Option<Uuid>,
        limit: u32,
    ) -> CoreResult<(Vec<IndexStatusRow>, IndexCounts)> {
        let mut items = Vec::new();
        for (i, id) in item_ids.iter().enumerate() {
            items.push(ItemId::from_uuid(
                Uuid::parse_str(id.trim())
                    .map_err(|_| CoreError::invalid(format!("itemIds[{i}]"), "must be a GUID"))?,
            ));
        }
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        let filter = (!items.is_empty()).then_some(items.as_slice());
        let now_ms = chrono::Utc::now().timestamp_millis();
        tokio::try_join!(
            self.store.index_status(project, filter, after.map(ItemId::from_uuid), limit),
            self.store.index_counts(project, filter, now_ms),
        )
    }
}

/// What validation settled.
struct RetrieveLimits {
    max_results: u32,
    items: Option<Vec<Uuid>>,
    /// The agent when `postProcess` is true.
    agent: Option<crate::knowledge::AgentConfig>,
    agent_id: String,
}

/// Citations in fused order; the answer is their chunks joined.
fn plain_answer(project: ProjectId, fused: Vec<Fused>, texts: &HashMap<i64, String>) -> Answer {
    let citations: Vec<Citation> = fused
        .into_iter()
        .enumerate()
        .map(|(i, f)| Citation {
            item_id: f.item_id,
            index: i as u32 + 1,
            relevance: f.score,
            chunk: texts.get(&f.chunk_id).cloned().unwrap_or_default(),
            project_id: project.uuid(),
            thread_id: None,
        })
        .collect();
    let answer = citations.iter().map(|c| c.chunk.as_str()).collect::<Vec<_>>().join("\n\n");
    Answer { answer, citations }
}

/// Citations in the model's order (only the candidates it kept); relevance falls linearly from 1
/// with the model's rank, and the answer's `[n]` are renumbered to the citation indexes.
fn reranked_answer(
    project: ProjectId,
    fused: &[Fused],
    texts: &HashMap<i64, String>,
    reranked: llm::Reranked,
    wanted: usize,
) -> Answer {
    let order: Vec<usize> = reranked.order.into_iter().take(wanted).collect();
    let count = order.len();
    let citations: Vec<Citation> = order
        .iter()
        .enumerate()
        .map(|(rank, &candidate)| Citation {
            item_id: fused[candidate].item_id,
            index: rank as u32 + 1,
            relevance: (count - rank) as f64 / count as f64,
            chunk: texts.get(&fused[candidate].chunk_id).cloned().unwrap_or_default(),
            project_id: project.uuid(),
            thread_id: None,
        })
        .collect();
    let answer = llm::renumber_citations(&reranked.answer, &|candidate| {
        order.iter().position(|&c| c == candidate).map(|rank| rank + 1)
    });
    Answer { answer, citations }
}

/// What a failed `postProcess` answers: a language model that is down, slow or overloaded is a
/// dependency outage (503 naming `llm`, worth retrying); one that answered something unusable is
/// the spec's "error during retrieval" (a 400 naming `postProcess`).
fn llm_failure(agent_id: &str, error: llm::LlmError) -> CoreError {
    use llm::LlmError;
    let message = format!("the language model of agent configuration '{agent_id}' {error}");
    match error {
        LlmError::Timeout(_) | LlmError::Unreachable => CoreError::unavailable(Dependency::Llm, message, 5),
        LlmError::Status(code) if code == 429 || code >= 500 => CoreError::unavailable(Dependency::Llm, message, 5),
        LlmError::Status(_) => CoreError::Unavailable { dependency: Dependency::Llm, message, retry_after_secs: None },
        LlmError::Malformed(_) => {
            CoreError::invalid("postProcess", format!("{message}; retry, or retrieve with postProcess false"))
        }
    }
}
