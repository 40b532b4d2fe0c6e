//! The in-process model: a BERT-family sentence-transformers model on the CPU, run by ONNX Runtime
//! (the provisioned library, with a graph written from the model's safetensors) or by candle.
//!
//! `embed_blocking` is CPU-bound for tens to hundreds of milliseconds: call it from
//! `tokio::task::spawn_blocking`, or use the [`EmbeddingModel`] implementation of
//! [`LocalEmbedder`], which does exactly that.
//!
//! # Batches and concurrent callers
//! A call is tokenised, sorted by length (little padding), and cut into sub-batches of at most
//! `batch_size` texts and `max_batch_tokens` padded word pieces. Each sub-batch is one forward
//! pass using every core. With ONNX Runtime, passes queue on a fair lock in arrival order, so a
//! query arriving during a 1,000-chunk indexing call waits for one sub-batch (≈ 0.1–0.2 s at the
//! default size), not for the call.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::BertModel;
use tokenizers::Tokenizer;

use crate::chunk::{Chunker, ChunkerConfig};
use crate::model_dir::{ModelDir, WEIGHTS_FILE};
use crate::onnx::{GraphVariant, OnnxEncoder};
use crate::pooling::pool_normalised;
use crate::{onnx_runtime_library, EmbedError, Result};
use crate::{EmbedFuture, EmbeddingModel};

/// Which runtime runs the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Backend {
    /// ONNX Runtime when its library is there (provisioned by [`crate::ensure_model`]) and loads,
    /// else candle, with a warning in the log.
    #[default]
    Auto,
    /// ONNX Runtime; loading fails if its library is missing or unusable.
    OnnxRuntime,
    /// candle (pure Rust), 2–3 times slower on long texts; needs nothing besides the model.
    Candle,
}

/// Options for loading a [`LocalEmbedder`]; `Default` is what sentence-transformers does.
#[derive(Debug, Clone)]
pub struct LocalModelOptions {
    /// Texts per forward pass. Larger batches amortise overhead but pad more; 32 is
    /// sentence-transformers' default and measured well here.
    pub batch_size: usize,
    /// Overrides the cut-off read from `sentence_bert_config.json` (never above the model's
    /// position-embedding limit); `None` keeps the model's own.
    pub max_seq_length: Option<usize>,
    /// A name for the model, reported by [`EmbeddingModel::model_id`] so stored vectors can be tied
    /// to the model that made them; `None` uses the directory name.
    pub model_id: Option<String>,
    /// The runtime; `Auto` prefers ONNX Runtime.
    pub backend: Backend,
    /// The ONNX Runtime library; `None` takes the one [`crate::ensure_model`] provisions next to the
    /// model directory ([`crate::onnx_runtime_library`] of its parent).
    pub onnx_runtime_library: Option<PathBuf>,
    /// The operators of the ONNX graph; the default (fused) was the fastest measured.
    pub onnx_graph: GraphVariant,
    /// Threads of one forward pass (ONNX Runtime); `None` is one per core. candle uses its rayon
    /// pool (`RAYON_NUM_THREADS`).
    pub threads: Option<usize>,
    /// Upper bound of padded word pieces per forward pass (at least one text always goes). Smaller
    /// passes let other callers interleave sooner; 2,048 (8 chunks of 256) cost no throughput here.
    pub max_batch_tokens: usize,
}

impl Default for LocalModelOptions {
    fn default() -> Self {
        Self {
            batch_size: 32,
            max_seq_length: None,
            model_id: None,
            backend: Backend::Auto,
            onnx_runtime_library: None,
            onnx_graph: GraphVariant::default(),
            threads: None,
            max_batch_tokens: 2048,
        }
    }
}

/// The network, in the runtime that runs it.
enum Encoder {
    /// ONNX Runtime session.
    Onnx(OnnxEncoder),
    /// candle's BERT, kept for platforms without a pinned ONNX Runtime build (boxed: it is large).
    Candle(Box<BertModel>),
}

/// The loaded network and tokenizer; shared behind an `Arc` so blocking workers can hold it.
struct Inner {
    /// The BERT encoder with the model's weights.
    encoder: Encoder,
    /// Tokenizer truncating at `max_seq_length`, without padding.
    tokenizer: Tokenizer,
    /// What the model directory said (pooling, cut-off, hyper-parameters), kept for chunking.
    dir: ModelDir,
    /// The cut-off in force (directory value or the caller's override).
    max_seq_length: usize,
    /// Texts per forward pass.
    batch_size: usize,
    /// Padded word pieces per forward pass (soft bound: one text always goes).
    max_batch_tokens: usize,
    /// Reported by `model_id()`.
    model_id: String,
    /// CPU device; kept so tensors are created where the weights live.
    device: Device,
}

/// A sentence-transformers model running in this process. Cheap to clone (an `Arc`).
#[derive(Clone)]
pub struct LocalEmbedder {
    /// Shared state; cloning the embedder clones this pointer only.
    inner: Arc<Inner>,
}

impl std::fmt::Debug for LocalEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalEmbedder")
            .field("model_id", &self.inner.model_id)
            .field("dimension", &self.inner.dir.bert.hidden_size)
            .field("pooling", &self.inner.dir.pooling)
            .field("max_seq_length", &self.inner.max_seq_length)
            .field("backend", &self.backend())
            .finish()
    }
}

impl LocalEmbedder {
    /// Loads the model in `dir` (`config.json`, `tokenizer.json`, `model.safetensors`, and the
    /// optional sentence-transformers files). Blocking: reads ~90 MB for all-MiniLM-L6-v2.
    pub fn load(dir: &Path, options: LocalModelOptions) -> Result<Self> {
        if options.batch_size == 0 {
            return Err(EmbedError::InvalidOptions("batch_size must be at least 1".into()));
        }
        let model_dir = ModelDir::read(dir)?;
        let max_seq_length =
            options.max_seq_length.unwrap_or(model_dir.max_seq_length).clamp(3, model_dir.bert.max_position_embeddings);
        let tokenizer = model_dir.inference_tokenizer(max_seq_length)?;
        let device = Device::Cpu;
        let weights_path = dir.join(WEIGHTS_FILE);
        // Read rather than mmap: mmap is `unsafe` (the file could change under us) and 90 MB is cheap.
        let weights = std::fs::read(&weights_path).map_err(|e| EmbedError::io(&weights_path, e))?;
        let encoder = load_encoder(dir, &model_dir, weights, &options, &device)?;
        let model_id = options.model_id.unwrap_or_else(|| {
            dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "local".to_string())
        });
        let backend = match encoder {
            Encoder::Onnx(_) => Backend::OnnxRuntime,
            Encoder::Candle(_) => Backend::Candle,
        };
        tracing::info!(model = %model_id, dir = %dir.display(), pooling = ?model_dir.pooling, max_seq_length, ?backend,
            "embedding model loaded");
        Ok(Self {
            inner: Arc::new(Inner {
                encoder,
                tokenizer,
                dir: model_dir,
                max_seq_length,
                batch_size: options.batch_size,
                max_batch_tokens: options.max_batch_tokens,
                model_id,
                device,
            }),
        })
    }

    /// The runtime in use: [`Backend::OnnxRuntime`] or [`Backend::Candle`] (never `Auto`).
    pub fn backend(&self) -> Backend {
        match self.inner.encoder {
            Encoder::Onnx(_) => Backend::OnnxRuntime,
            Encoder::Candle(_) => Backend::Candle,
        }
    }

    /// Length of the vectors (384 for all-MiniLM-L6-v2).
    pub fn dimension(&self) -> usize {
        self.inner.dir.bert.hidden_size
    }

    /// The cut-off in word pieces, special tokens included.
    pub fn max_seq_length(&self) -> usize {
        self.inner.max_seq_length
    }

    /// A chunker that counts tokens with this model's tokenizer. Fails if `config` does not fit
    /// the model's cut-off (two places go to `[CLS]` and `[SEP]`).
    pub fn chunker(&self, config: ChunkerConfig) -> Result<Chunker> {
        let limit = self.inner.max_seq_length.saturating_sub(2);
        if config.max_tokens > limit {
            return Err(EmbedError::InvalidOptions(format!(
                "chunks of {} tokens exceed the model's limit of {limit} (max_seq_length minus [CLS]/[SEP])",
                config.max_tokens
            )));
        }
        Chunker::new(self.inner.dir.raw_tokenizer()?, config)
    }

    /// Embeds `texts`, returning one L2-normalised vector per text in input order. Blocking and
    /// CPU-bound: from async code, go through [`EmbeddingModel::embed`] or `spawn_blocking`.
    pub fn embed_blocking(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        self.inner.embed(texts)
    }
}

/// Opens the network in the runtime `options` ask for (see [`Backend`]).
fn load_encoder(
    dir: &Path,
    model_dir: &ModelDir,
    weights: Vec<u8>,
    options: &LocalModelOptions,
    device: &Device,
) -> Result<Encoder> {
    let library = options.onnx_runtime_library.clone().or_else(|| dir.parent().and_then(onnx_runtime_library));
    let threads = options.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let onnx = |library: &Path| {
        OnnxEncoder::load(library, &model_dir.bert, &weights, options.onnx_graph, threads).map(Encoder::Onnx)
    };
    match (options.backend, library) {
        (Backend::Candle, _) => {}
        (Backend::OnnxRuntime, Some(library)) => return onnx(&library),
        (Backend::OnnxRuntime, None) => {
            return Err(EmbedError::Runtime("no ONNX Runtime library is known for this platform".into()))
        }
        (Backend::Auto, Some(library)) if library.is_file() => match onnx(&library) {
            Ok(encoder) => return Ok(encoder),
            Err(e) => tracing::warn!(error = %e, "ONNX Runtime unusable; the embedding model runs on candle (slower)"),
        },
        (Backend::Auto, library) => tracing::warn!(library = ?library,
            "no ONNX Runtime library; the embedding model runs on candle (slower)"),
    }
    let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, device)?;
    Ok(Encoder::Candle(Box::new(BertModel::load(vb, &model_dir.bert)?)))
}

/// Cuts `order` (indices sorted by decreasing length) into runs of at most `batch_size` items whose
/// padded size (count × longest) stays within `max_tokens`; every run has at least one item.
fn sub_batches(
    order: &[usize],
    length: impl Fn(usize) -> usize,
    batch_size: usize,
    max_tokens: usize,
) -> Vec<&[usize]> {
    let mut batches = Vec::new();
    let mut rest = order;
    while let Some(&first) = rest.first() {
        let fits = (max_tokens / length(first).max(1)).clamp(1, batch_size.max(1));
        let (batch, tail) = rest.split_at(fits.min(rest.len()));
        batches.push(batch);
        rest = tail;
    }
    batches
}

impl Inner {
    fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let inputs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let encodings =
            self.tokenizer.encode_batch_fast(inputs, true).map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        // Sorting by length keeps each batch's padding (wasted work) small.
        let mut order: Vec<usize> = (0..encodings.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(encodings[i].get_ids().len()));
        let mut out: Vec<Vec<f32>> = vec![Vec::new(); texts.len()];
        let length = |i: usize| encodings[i].get_ids().len();
        for batch in sub_batches(&order, length, self.batch_size, self.max_batch_tokens) {
            let seqs: Vec<&[u32]> = batch.iter().map(|&i| encodings[i].get_ids()).collect();
            let vectors = self.forward(&seqs)?;
            for (&i, v) in batch.iter().zip(vectors) {
                out[i] = v;
            }
        }
        Ok(out)
    }

    /// One forward pass over a batch of token id sequences, padded to the longest.
    fn forward(&self, seqs: &[&[u32]]) -> Result<Vec<Vec<f32>>> {
        let n = seqs.len();
        let width = seqs.iter().map(|s| s.len()).max().unwrap_or(0).max(1);
        let pad = u32::try_from(self.dir.bert.pad_token_id).unwrap_or(0);
        let lengths: Vec<usize> = seqs.iter().map(|s| s.len()).collect();
        let padded = |seq: &&[u32]| -> Vec<u32> {
            seq.iter().copied().chain(std::iter::repeat_n(pad, width - seq.len())).collect()
        };
        let hidden = match &self.encoder {
            Encoder::Onnx(encoder) => {
                let ids: Vec<i64> = seqs.iter().flat_map(padded).map(i64::from).collect();
                let mask: Vec<i32> =
                    lengths.iter().flat_map(|&len| (0..width).map(move |p| i32::from(p < len))).collect();
                encoder.forward(ids, mask, n, width)?
            }
            Encoder::Candle(model) => {
                let ids: Vec<u32> = seqs.iter().flat_map(padded).collect();
                let mask: Vec<u32> =
                    lengths.iter().flat_map(|&len| (0..width).map(move |p| u32::from(p < len))).collect();
                let ids = Tensor::from_vec(ids, (n, width), &self.device)?;
                let mask = Tensor::from_vec(mask, (n, width), &self.device)?;
                let token_types = ids.zeros_like()?;
                model.forward(&ids, &token_types, Some(&mask))?.flatten_all()?.to_vec1::<f32>()?
            }
        };
        Ok(pool_normalised(&hidden, &lengths, width, self.dir.bert.hidden_size, self.dir.pooling))
    }
}

impl EmbeddingModel for LocalEmbedder {
    fn dimension(&self) -> usize {
        LocalEmbedder::dimension(self)
    }

    fn model_id(&self) -> &str {
        &self.inner.model_id
    }

    /// Runs the model on tokio's blocking pool so async callers' threads stay free.
    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        let inner = Arc::clone(&self.inner);
        let texts = texts.to_vec();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || inner.embed(&texts))
                .await
                .map_err(|e| EmbedError::Worker(e.to_string()))?
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_batches_respect_count_and_padded_size() {
        let lengths = [256, 200, 200, 100, 100, 100, 10, 10, 10, 10];
        let order: Vec<usize> = (0..lengths.len()).collect();
        let batches = sub_batches(&order, |i| lengths[i], 4, 512);
        // 2 × 256 fits 512; then 2 × 200; then 4 (the count bound) × 100; then the rest.
        assert_eq!(batches, vec![&[0, 1][..], &[2, 3], &[4, 5, 6, 7], &[8, 9]]);
        // A text longer than the budget still goes, alone.
        assert_eq!(sub_batches(&order[..2], |i| lengths[i], 32, 100), vec![&[0][..], &[1]]);
        assert!(sub_batches(&[], |i| lengths[i], 32, 2048).is_empty());
    }
}
