//! Knowledge retrieval: the index of every item's text and the hybrid search over it.
//!
//! # Layout
//! - [`config`]: flags (embedding provider, model directory, agents file, chunking, polling).
//! - [`model`]: the embedding model (local candle or OpenAI-compatible) and the text splitter.
//! - [`content`]: which text of each item type is indexed (files extracted, connectors as relations).
//! - [`indexer`]: the background worker that drains the index queue (crash-safe, several replicas),
//!   with `prepare` (leased items to chunks, skipping unchanged text and cached vectors) and
//!   `batch` (the chunks still to embed, cut into length-sorted calls of the model).
//! - [`search`]: the in-memory per-project indexes of retrieval (BM25, vectors and their HNSW
//!   graph), kept current with the database's change records.
//! - [`fusion`]: how the two legs' rankings become one ranking of items.
//! - [`agents`]: agent configurations (`agentConfigId`) for `postProcess`.
//! - [`llm`]: the chat completions call that reranks and writes the answer.
//!
//! The retrieval operation itself is `service::retrieval`; the SQL is `storage::retrieval`.

pub mod agents;
mod batch;
pub mod config;
pub mod content;
pub mod indexer;
pub mod llm;
pub mod model;
mod prepare;
pub mod search;
mod work;

use std::sync::Arc;
use std::time::Duration;

use canvas_embed::EmbeddingModel;
use tokio::sync::Notify;

pub use agents::{AgentConfig, Agents};
pub use config::{EmbeddingProvider, KnowledgeConfig};
pub use model::{Embedding, Splitter};

/// The model id recorded for chunks stored without vectors.
pub const NO_MODEL: &str = "none";

/// Everything retrieval and indexing need besides storage.
#[derive(Debug, Clone)]
pub struct Knowledge {
    /// The embedding model; `None` runs keyword-only.
    pub(crate) embedding: Option<Embedding>,
    /// How item text is cut into chunks.
    pub(crate) splitter: Splitter,
    /// Agent configurations for `postProcess`.
    pub(crate) agents: Agents,
    /// Client for the agents' chat completions endpoints (per-call time-outs come from the agent).
    pub(crate) llm_http: reqwest::Client,
    /// Wakes the indexer as soon as this process changed an item.
    pub(crate) wake: Arc<Notify>,
    /// How often the indexer looks for work queued by other replicas.
    pub(crate) poll_interval: Duration,
    /// Retrieval's in-memory per-project indexes.
    pub(crate) search: Arc<search::SearchIndexes>,
    /// Projects whose indexes are loaded at start (`--search-warm-projects`).
    pub(crate) warm_projects: u32,
}

impl Knowledge {
    /// Loads the embedding model (fetching it on first use) and the agent configurations.
    pub async fn from_config(config: &KnowledgeConfig) -> anyhow::Result<Self> {
        let (embedding, splitter) = model::load(config).await?;
        let agents = Agents::load(config)?;
        let mut knowledge = Self::new(embedding, splitter, agents, config.index_poll_interval())
            .with_search_settings(config.search_memory_bytes(), config.search_exact_below);
        knowledge.warm_projects = config.search_warm_projects;
        Ok(knowledge)
    }

    pub fn new(embedding: Option<Embedding>, splitter: Splitter, agents: Agents, poll_interval: Duration) -> Self {
        let llm_http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("a TLS client can be built");
        let search = Arc::new(search::SearchIndexes::new(
            vectors_of(embedding.as_ref()),
            config::DEFAULT_SEARCH_MEMORY_MB << 20,
            config::DEFAULT_SEARCH_EXACT_BELOW,
        ));
        let warm_projects = config::DEFAULT_SEARCH_WARM_PROJECTS;
        Self {
            embedding,
            splitter,
            agents,
            llm_http,
            wake: Arc::new(Notify::new()),
            poll_interval,
            search,
            warm_projects,
        }
    }

    /// Sets the memory budget of the search indexes (`--search-memory-mb`) and the size from which
    /// a project's vectors get a graph (`--search-exact-below`).
    pub fn with_search_settings(mut self, budget_bytes: usize, exact_below: usize) -> Self {
        self.search =
            Arc::new(search::SearchIndexes::new(vectors_of(self.embedding.as_ref()), budget_bytes, exact_below));
        self
    }

    /// Saves snapshots of projects with at least `min_chunks` chunks in `dir` and reads them back
    /// after a restart (`--search-snapshot-dir`, `--search-snapshot-min-chunks`; `None`: off).
    pub fn with_search_snapshots(mut self, dir: Option<std::path::PathBuf>, min_chunks: usize) -> Self {
        let indexes = self.search.with_vectors(vectors_of(self.embedding.as_ref())).with_snapshots(dir, min_chunks);
        self.search = Arc::new(indexes);
        self
    }

    /// No embedding model and no language model: keyword retrieval only.
    pub fn keyword_only() -> Self {
        Self::new(
            None,
            Splitter::Words { max_words: 150, overlap: 30 },
            Agents::from_map(Default::default()),
            Duration::from_secs(1),
        )
    }

    /// The id stored with vectors, so vectors of two models never mix.
    pub fn model_id(&self) -> &str {
        self.embedding.as_ref().map_or(NO_MODEL, |e| e.model.model_id())
    }

    /// The embedding model, if any.
    pub fn embedding_model(&self) -> Option<Arc<dyn EmbeddingModel>> {
        self.embedding.as_ref().map(|e| e.model.clone())
    }

    /// The same settings with `model` as the embedding model (the splitter is kept): tests wrap
    /// the real model to count, hold or fail its calls.
    pub fn with_embedding_model(mut self, model: Arc<dyn EmbeddingModel>) -> Self {
        self.embedding = Some(Embedding { model, splitter: self.splitter.clone() });
        // The search indexes hold vectors of one model: start them afresh for this one.
        self.search = Arc::new(self.search.with_vectors(vectors_of(self.embedding.as_ref())));
        self
    }

    /// Tells the indexer there is new work.
    pub fn wake(&self) {
        self.wake.notify_one();
    }
}

/// Encodes a vector for storage (little-endian f32).
pub(crate) fn vector_to_bytes(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Decodes a stored vector; `None` when the length is not `dimension` floats.
pub(crate) fn vector_from_bytes(bytes: &[u8], dimension: usize) -> Option<Vec<f32>> {
    if bytes.len() != dimension * 4 {
        return None;
    }
    Some(bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
}

/// The vector length and model id the search indexes hold vectors of.
fn vectors_of(embedding: Option<&Embedding>) -> Option<(usize, String)> {
    embedding.map(|e| (e.model.dimension(), e.model.model_id().to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_round_trip_and_wrong_lengths_are_refused() {
        let v = vec![0.5f32, -1.25, 3.0];
        let bytes = vector_to_bytes(&v);
        assert_eq!(bytes.len(), 12);
        assert_eq!(vector_from_bytes(&bytes, 3), Some(v));
        assert_eq!(vector_from_bytes(&bytes, 4), None);
    }
}
