//! A wrapper around the real embedding model that counts its calls and can refuse texts, hold
//! calls back, or carry another model id, so tests can see what the indexer asks of the model.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use canvas_embed::{EmbedError, EmbedFuture, EmbeddingModel};
use tokio::sync::Semaphore;

/// The real model, observed.
pub struct ObservedModel {
    /// The model doing the work.
    inner: Arc<dyn EmbeddingModel>,
    /// Reported instead of the inner model's id (a "new model" in model-switch tests).
    model_id: String,
    /// Calls of `embed` that reached the model.
    calls: AtomicUsize,
    /// Texts embedded over all calls.
    texts: AtomicUsize,
    /// A call with a text containing this fails as the model would on a text it cannot take.
    refuse: Option<String>,
    /// When set, each call waits for a permit (tests hold the model to look at a re-index midway).
    gate: Option<Arc<Semaphore>>,
    /// Only calls of at least this many texts wait at the gate (1: every call; 2: the indexer's
    /// batches wait while single query embeddings go through).
    gate_from_texts: usize,
}

impl ObservedModel {
    pub fn new(inner: Arc<dyn EmbeddingModel>) -> Self {
        let model_id = inner.model_id().to_owned();
        Self {
            inner,
            model_id,
            calls: AtomicUsize::new(0),
            texts: AtomicUsize::new(0),
            refuse: None,
            gate: None,
            gate_from_texts: 1,
        }
    }

    /// Reports `id` as the model id.
    pub fn with_id(mut self, id: &str) -> Self {
        self.model_id = id.to_owned();
        self
    }

    /// Fails every call that holds a text containing `marker`.
    pub fn refusing(mut self, marker: &str) -> Self {
        self.refuse = Some(marker.to_owned());
        self
    }

    /// Makes every call wait for a permit of `gate`.
    pub fn gated(mut self, gate: Arc<Semaphore>) -> Self {
        self.gate = Some(gate);
        self
    }

    /// Makes calls of two or more texts (batches, not query embeddings) wait for a permit.
    pub fn gated_batches(mut self, gate: Arc<Semaphore>) -> Self {
        self.gate = Some(gate);
        self.gate_from_texts = 2;
        self
    }

    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    pub fn texts(&self) -> usize {
        self.texts.load(Ordering::SeqCst)
    }
}

impl EmbeddingModel for ObservedModel {
    fn dimension(&self) -> usize {
        self.inner.dimension()
    }

    fn model_id(&self) -> &str {
        &self.model_id
    }

    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        Box::pin(async move {
            if let Some(gate) = self.gate.as_ref().filter(|_| texts.len() >= self.gate_from_texts) {
                gate.acquire().await.expect("the gate is never closed").forget();
            }
            if texts.is_empty() {
                return Ok(Vec::new());
            }
            self.calls.fetch_add(1, Ordering::SeqCst);
            self.texts.fetch_add(texts.len(), Ordering::SeqCst);
            if let Some(marker) = &self.refuse {
                if texts.iter().any(|t| t.contains(marker.as_str())) {
                    return Err(EmbedError::Tokenizer(format!("refused a text containing {marker}")));
                }
            }
            self.inner.embed(texts).await
        })
    }
}
