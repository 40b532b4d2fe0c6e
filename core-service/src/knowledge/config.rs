//! Flags and environment variables of the knowledge index and retrieval.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

/// Which embedding model turns text into vectors (the semantic leg of retrieval).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EmbeddingProvider {
    /// A sentence-transformers model run in process (all-MiniLM-L6-v2 unless a directory is given).
    Local,
    /// An OpenAI-compatible `/v1/embeddings` endpoint.
    Openai,
    /// No vectors: retrieval uses the keyword leg only.
    Off,
}

/// Default of `--search-memory-mb`.
pub const DEFAULT_SEARCH_MEMORY_MB: usize = 2048;
/// Default of `--search-exact-below`: below it exact search takes well under a millisecond.
pub const DEFAULT_SEARCH_EXACT_BELOW: usize = 5_000;
/// Default of `--search-warm-projects`.
pub const DEFAULT_SEARCH_WARM_PROJECTS: u32 = 64;

/// Settings of the knowledge index, flattened into `CoreConfig`.
#[derive(Debug, Clone, Args)]
pub struct KnowledgeConfig {
    /// Embedding model: `local` (in process, fetched on first start), `openai` or `off`.
    #[arg(long = "embedding-provider", env = "CANVAS_EMBEDDING_PROVIDER", value_enum, default_value = "local")]
    pub embedding_provider: EmbeddingProvider,

    /// A sentence-transformers model directory (`config.json`, `tokenizer.json`, `model.safetensors`).
    /// Unset: all-MiniLM-L6-v2 in the model cache, downloaded and verified when missing.
    #[arg(long = "embedding-model-dir", env = "CANVAS_EMBEDDING_MODEL_DIR")]
    pub embedding_model_dir: Option<PathBuf>,

    /// Where the default model is cached (default `$HOME/.cache/canvas/models`).
    #[arg(long = "model-cache-dir", env = "CANVAS_MODEL_CACHE")]
    pub model_cache_dir: Option<PathBuf>,

    /// Base URL of the OpenAI-compatible embeddings endpoint (`…/v1`), for `--embedding-provider openai`.
    #[arg(long = "embedding-url", env = "CANVAS_EMBEDDING_URL")]
    pub embedding_url: Option<String>,

    /// Model name sent to the embeddings endpoint.
    #[arg(long = "embedding-model", env = "CANVAS_EMBEDDING_MODEL", default_value = "text-embedding-3-small")]
    pub embedding_model: String,

    /// Vector length the embeddings endpoint returns.
    #[arg(long = "embedding-dimension", env = "CANVAS_EMBEDDING_DIMENSION", default_value_t = 1536)]
    pub embedding_dimension: usize,

    /// Agent configurations for `postProcess` (TOML; see docs/KNOWLEDGE.md). Unset: only `default`,
    /// taken from `--llm-url` and `--llm-model` when given.
    #[arg(long = "agents-file", env = "CANVAS_AGENTS_FILE")]
    pub agents_file: Option<PathBuf>,

    /// Base URL (`…/v1`) of the OpenAI-compatible chat completions endpoint of the `default` agent.
    #[arg(long = "llm-url", env = "CANVAS_LLM_URL")]
    pub llm_url: Option<String>,

    /// Model of the `default` agent.
    #[arg(long = "llm-model", env = "CANVAS_LLM_MODEL")]
    pub llm_model: Option<String>,

    /// How often the indexer looks for work written by other replicas (milliseconds); changes made
    /// through this process wake it at once.
    #[arg(long = "index-poll-ms", env = "CANVAS_INDEX_POLL_MS", default_value_t = 1000)]
    pub index_poll_ms: u64,

    /// Chunk length in model tokens.
    #[arg(long = "chunk-tokens", env = "CANVAS_CHUNK_TOKENS", default_value_t = 200)]
    pub chunk_tokens: usize,

    /// Tokens shared by neighbouring chunks.
    #[arg(long = "chunk-overlap", env = "CANVAS_CHUNK_OVERLAP", default_value_t = 40)]
    pub chunk_overlap: usize,

    /// Memory for retrieval's in-memory project indexes (MiB; about 480 per 100,000 short chunks).
    /// Past it, the least recently used projects' indexes are dropped and loaded again by their
    /// next query.
    #[arg(long = "search-memory-mb", env = "CANVAS_SEARCH_MEMORY_MB", default_value_t = DEFAULT_SEARCH_MEMORY_MB)]
    pub search_memory_mb: usize,

    /// Projects with fewer chunk vectors than this are searched exactly; larger ones through an
    /// HNSW graph (built in the background; exact until it is ready).
    #[arg(long = "search-exact-below", env = "CANVAS_SEARCH_EXACT_BELOW", default_value_t = DEFAULT_SEARCH_EXACT_BELOW)]
    pub search_exact_below: usize,

    /// Projects whose search indexes a replica loads when it starts (the most recently changed
    /// first, within the memory budget). With several core replicas behind gateways, retrieval is
    /// placed by project, so each replica is asked about its own share only: 0 there keeps a
    /// replica from loading projects another replica answers (docs/DEPLOYMENT.md).
    #[arg(long = "search-warm-projects", env = "CANVAS_SEARCH_WARM_PROJECTS", default_value_t = DEFAULT_SEARCH_WARM_PROJECTS)]
    pub search_warm_projects: u32,
}

impl Default for KnowledgeConfig {
    fn default() -> Self {
        Self {
            embedding_provider: EmbeddingProvider::Local,
            embedding_model_dir: None,
            model_cache_dir: None,
            embedding_url: None,
            embedding_model: "text-embedding-3-small".into(),
            embedding_dimension: 1536,
            agents_file: None,
            llm_url: None,
            llm_model: None,
            index_poll_ms: 1000,
            chunk_tokens: 200,
            chunk_overlap: 40,
            search_memory_mb: DEFAULT_SEARCH_MEMORY_MB,
            search_exact_below: DEFAULT_SEARCH_EXACT_BELOW,
            search_warm_projects: DEFAULT_SEARCH_WARM_PROJECTS,
        }
    }
}

impl KnowledgeConfig {
    pub fn search_memory_bytes(&self) -> usize {
        self.search_memory_mb.max(1) << 20
    }

    pub fn index_poll_interval(&self) -> Duration {
        Duration::from_millis(self.index_poll_ms.clamp(50, 60_000))
    }
}
