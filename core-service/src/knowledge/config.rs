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
/// Default of `--search-snapshot-min-chunks`: the size from which a project gets a vector graph,
/// and below which a load from the database takes well under 0.2 s.
pub const DEFAULT_SEARCH_SNAPSHOT_MIN_CHUNKS: usize = 5_000;
/// The value of `--search-snapshot-dir` that turns snapshots off.
pub const SNAPSHOTS_OFF: &str = "off";

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

    /// Where replicas save big projects' search indexes (BM25, vectors, HNSW graph), so that after
    /// a restart a project's first query reads its index back and catches up through the change
    /// records instead of rebuilding it. Unset: `search-snapshots` in the data directory with
    /// SQLite, none with PostgreSQL (where the data directory is often scratch space: give a
    /// volume with room, about 3 KiB per chunk); `off`: none. Replicas may share the directory; a
    /// damaged or outdated file is ignored.
    #[arg(long = "search-snapshot-dir", env = "CANVAS_SEARCH_SNAPSHOT_DIR")]
    pub search_snapshot_dir: Option<PathBuf>,

    /// Projects with at least this many chunks get a snapshot (smaller ones load from the
    /// database about as fast).
    #[arg(long = "search-snapshot-min-chunks", env = "CANVAS_SEARCH_SNAPSHOT_MIN_CHUNKS", default_value_t = DEFAULT_SEARCH_SNAPSHOT_MIN_CHUNKS)]
    pub search_snapshot_min_chunks: usize,
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
            search_snapshot_dir: None,
            search_snapshot_min_chunks: DEFAULT_SEARCH_SNAPSHOT_MIN_CHUNKS,
        }
    }
}

impl KnowledgeConfig {
    pub fn search_memory_bytes(&self) -> usize {
        self.search_memory_mb.max(1) << 20
    }

    /// The snapshot directory in force (`None`: snapshots off): `--search-snapshot-dir`, by
    /// default inside `data_dir` with SQLite, whose data directory holds the database and so
    /// lasts, and none with PostgreSQL, whose replicas often get a small scratch data directory
    /// (the Kubernetes manifests' 1 GiB `emptyDir`, which one big project's snapshot could fill).
    pub fn search_snapshot_dir(&self, data_dir: &std::path::Path, postgres: bool) -> Option<PathBuf> {
        match &self.search_snapshot_dir {
            Some(dir) if dir.as_os_str() == SNAPSHOTS_OFF => None,
            Some(dir) => Some(dir.clone()),
            None if postgres => None,
            None => Some(data_dir.join("search-snapshots")),
        }
    }

    pub fn index_poll_interval(&self) -> Duration {
        Duration::from_millis(self.index_poll_ms.clamp(50, 60_000))
    }
}
