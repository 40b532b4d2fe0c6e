//! The in-process model: a BERT-family sentence-transformers model run by candle on the CPU.
//!
//! `embed_blocking` is CPU-bound for tens to hundreds of milliseconds: call it from
//! `tokio::task::spawn_blocking`, or use the [`EmbeddingModel`] implementation of
//! [`LocalEmbedder`], which does exactly that.

use std::path::Path;
use std::sync::Arc;

use candle_core::{DType, Device, Tensor, D};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::BertModel;
use tokenizers::Tokenizer;

use crate::chunk::{Chunker, ChunkerConfig};
use crate::model_dir::{ModelDir, Pooling, WEIGHTS_FILE};
use crate::{EmbedError, Result};
use crate::{EmbedFuture, EmbeddingModel};

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
}

impl Default for LocalModelOptions {
    fn default() -> Self {
        Self { batch_size: 32, max_seq_length: None, model_id: None }
    }
}

/// The loaded network and tokenizer; shared behind an `Arc` so blocking workers can hold it.
struct Inner {
    /// The BERT encoder with the model's weights.
    model: BertModel,
    /// Tokenizer truncating at `max_seq_length`, without padding.
    tokenizer: Tokenizer,
    /// What the model directory said (pooling, cut-off, hyper-parameters), kept for chunking.
    dir: ModelDir,
    /// The cut-off in force (directory value or the caller's override).
    max_seq_length: usize,
    /// Texts per forward pass.
    batch_size: usize,
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
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &device)?;
        let model = BertModel::load(vb, &model_dir.bert)?;
        let model_id = options.model_id.unwrap_or_else(|| {
            dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "local".to_string())
        });
        tracing::info!(model = %model_id, dir = %dir.display(), pooling = ?model_dir.pooling, max_seq_length, "embedding model loaded");
        Ok(Self {
            inner: Arc::new(Inner {
                model,
                tokenizer,
                dir: model_dir,
                max_seq_length,
                batch_size: options.batch_size,
                model_id,
                device,
            }),
        })
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
        for batch in order.chunks(self.batch_size) {
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
        let mut ids = Vec::with_capacity(n * width);
        let mut mask = Vec::with_capacity(n * width);
        for seq in seqs {
            ids.extend_from_slice(seq);
            ids.extend(std::iter::repeat_n(pad, width - seq.len()));
            mask.extend(std::iter::repeat_n(1u32, seq.len()));
            mask.extend(std::iter::repeat_n(0u32, width - seq.len()));
        }
        let ids = Tensor::from_vec(ids, (n, width), &self.device)?;
        let mask = Tensor::from_vec(mask, (n, width), &self.device)?;
        let token_types = ids.zeros_like()?;
        let hidden = self.model.forward(&ids, &token_types, Some(&mask))?; // (n, width, dim)
        let pooled = pool(&hidden, &mask, self.dir.pooling)?;
        let normalised = l2_normalise(&pooled)?;
        Ok(normalised.to_vec2::<f32>()?)
    }
}

/// Reduces `(n, width, dim)` token vectors to `(n, dim)` under the `(n, width)` mask.
fn pool(hidden: &Tensor, mask: &Tensor, pooling: Pooling) -> Result<Tensor> {
    let mask_f = mask.to_dtype(DType::F32)?.unsqueeze(2)?; // (n, width, 1)
    let pooled = match pooling {
        Pooling::Cls => hidden.narrow(1, 0, 1)?.squeeze(1)?,
        Pooling::Mean | Pooling::MeanSqrtLen => {
            let summed = hidden.broadcast_mul(&mask_f)?.sum(1)?; // (n, dim)
            let counts = mask_f.sum(1)?.clamp(1e-9, f32::MAX)?; // (n, 1)
            let divisor = if pooling == Pooling::Mean { counts } else { counts.sqrt()? };
            summed.broadcast_div(&divisor)?
        }
        Pooling::Max => {
            // Padding positions get a large negative value so they never win the maximum.
            let penalty = ((mask_f.ones_like()? - &mask_f)? * -1e9)?;
            hidden.broadcast_add(&penalty)?.max(1)?
        }
    };
    Ok(pooled)
}

/// Divides each row by its Euclidean norm (floored like torch's `F.normalize`).
fn l2_normalise(x: &Tensor) -> Result<Tensor> {
    let norms = x.sqr()?.sum_keepdim(D::Minus1)?.sqrt()?.clamp(1e-12, f32::MAX)?;
    Ok(x.broadcast_div(&norms)?)
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
    fn mean_pooling_ignores_padding_and_normalises() {
        let dev = Device::Cpu;
        // Two sequences of width 3, dim 2; the second has one padding position holding junk.
        let hidden =
            Tensor::from_vec(vec![1f32, 0., 3., 0., 2., 0., 0., 2., 0., 4., 100., 100.], (2, 3, 2), &dev).unwrap();
        let mask = Tensor::from_vec(vec![1u32, 1, 1, 1, 1, 0], (2, 3), &dev).unwrap();
        let mean = pool(&hidden, &mask, Pooling::Mean).unwrap().to_vec2::<f32>().unwrap();
        assert_eq!(mean, vec![vec![2.0, 0.0], vec![0.0, 3.0]]);
        let max = pool(&hidden, &mask, Pooling::Max).unwrap().to_vec2::<f32>().unwrap();
        assert_eq!(max, vec![vec![3.0, 0.0], vec![0.0, 4.0]]);
        let cls = pool(&hidden, &mask, Pooling::Cls).unwrap().to_vec2::<f32>().unwrap();
        assert_eq!(cls, vec![vec![1.0, 0.0], vec![0.0, 2.0]]);
        let unit = l2_normalise(&Tensor::from_vec(vec![3f32, 4.], (1, 2), &dev).unwrap()).unwrap();
        assert_eq!(unit.to_vec2::<f32>().unwrap(), vec![vec![0.6, 0.8]]);
    }
}
