//! The background indexer: drains `knowledge_queue` into chunks, vectors and the keyword index.
//!
//! Every item change queues its item in the change's own transaction (a trigger on the outbox), so
//! the queue is never behind the items: after a crash the indexer simply continues. Rows are
//! leased, so several core replicas share the work; a lease that runs out (a replica died) makes
//! the row due again. An item that changed while it was being indexed stays queued (its
//! `generation` moved) and is indexed again. Failures are retried with back-off and, when
//! permanent or after [`MAX_ATTEMPTS`], recorded as the item's index status `failed` with the error.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::content::{self, ItemText};
use super::vector_to_bytes;
use crate::error::CoreError;
use crate::service::Core;
use crate::storage::{IndexedItem, ItemRow, QueuedItem};

/// Items leased per round.
const BATCH: u32 = 16;
/// How long a lease lasts; long enough for a large document on a slow machine.
const LEASE: Duration = Duration::from_secs(300);
/// Attempts before a transient failure is recorded as `failed`.
pub const MAX_ATTEMPTS: i32 = 6;
/// Time allowed to extract the text of one file.
const EXTRACT_TIMEOUT: Duration = Duration::from_secs(120);

/// Why one item could not be indexed.
enum IndexFailure {
    /// Will not get better by retrying (unreadable file, unsupported format).
    Permanent(String),
    /// May succeed later (embedding endpoint down, database busy).
    Transient(String),
}

impl From<CoreError> for IndexFailure {
    fn from(error: CoreError) -> Self {
        Self::Transient(error.to_string())
    }
}

fn now_ms() -> i64 {
    Utc::now().timestamp_millis()
}

impl Core {
    /// Runs until `shutdown`: leases queued items, indexes them, sleeps until woken or polled.
    pub async fn run_indexer(self: Arc<Self>, shutdown: CancellationToken) {
        self.requeue_other_models().await;
        loop {
            let now = now_ms();
            let batch = match self.storage.lease_index_work(now, now + LEASE.as_millis() as i64, BATCH).await {
                Ok(mut batch) => {
                    // RETURNING gives no order; index in the order of the changes.
                    batch.sort_by(|a, b| a.queued_at.cmp(&b.queued_at).then(a.item_id.cmp(&b.item_id)));
                    batch
                }
                Err(error) => {
                    tracing::warn!(%error, "knowledge indexer could not read its queue");
                    Vec::new()
                }
            };
            let idle = batch.is_empty();
            let mut batch = batch.into_iter();
            while let Some(queued) = batch.next() {
                if shutdown.is_cancelled() {
                    // Hand the rest back so another replica need not wait out the lease.
                    let rest: Vec<Uuid> = std::iter::once(queued.item_id).chain(batch.map(|q| q.item_id)).collect();
                    if let Err(error) = self.storage.release_index_work(&rest).await {
                        tracing::warn!(%error, items = rest.len(), "could not release indexing leases; they lapse");
                    }
                    return;
                }
                self.index_queued(queued).await;
            }
            if idle {
                tokio::select! {
                    _ = shutdown.cancelled() => return,
                    _ = self.knowledge.wake.notified() => {}
                    _ = tokio::time::sleep(self.knowledge.poll_interval) => {}
                }
            }
        }
    }

    /// Vectors made by a model other than the configured one are useless to the semantic leg.
    async fn requeue_other_models(&self) {
        match self.storage.items_of_other_models(self.knowledge.model_id()).await {
            Ok(items) if !items.is_empty() => {
                tracing::info!(
                    items = items.len(),
                    model = self.knowledge.model_id(),
                    "re-indexing for a new embedding model"
                );
                if let Err(error) = self.storage.requeue_items(&items).await {
                    tracing::warn!(%error, "could not queue items for re-indexing");
                }
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, "could not check the index's embedding model"),
        }
    }

    async fn index_queued(&self, queued: QueuedItem) {
        let outcome = self.index_item(&queued).await;
        let result = match outcome {
            Ok(()) => self.storage.complete_index_work(queued.item_id, queued.generation).await,
            Err(IndexFailure::Transient(error)) if queued.attempts + 1 < MAX_ATTEMPTS => {
                let delay =
                    Duration::from_secs(2u64.pow(queued.attempts.clamp(0, 8) as u32)).min(Duration::from_secs(300));
                tracing::warn!(item = %queued.item_id, %error, retry_in = ?delay, "indexing failed; will retry");
                self.storage
                    .retry_index_work(
                        queued.item_id,
                        queued.generation,
                        queued.attempts + 1,
                        now_ms() + delay.as_millis() as i64,
                    )
                    .await
            }
            Err(IndexFailure::Transient(error) | IndexFailure::Permanent(error)) => {
                tracing::warn!(item = %queued.item_id, %error, "indexing failed");
                match self.record_failure(&queued, &error).await {
                    Ok(()) => self.storage.complete_index_work(queued.item_id, queued.generation).await,
                    Err(e) => Err(e),
                }
            }
        };
        if let Err(error) = result {
            tracing::warn!(item = %queued.item_id, %error, "could not record the indexing outcome");
        }
    }

    async fn record_failure(&self, queued: &QueuedItem, error: &str) -> Result<(), CoreError> {
        let Some(row) = self.storage.get_item(queued.project_id, queued.item_id).await? else {
            return self.storage.remove_item_index(queued.item_id).await;
        };
        let failed = IndexedItem {
            item_id: row.id,
            project_id: row.project_id,
            item_version: row.version,
            status: "failed",
            error: Some(error.chars().take(500).collect()),
            truncated: false,
            model_id: self.knowledge.model_id().to_owned(),
            chunks: Vec::new(),
        };
        self.storage.write_item_index(&failed).await.map(|_| ())
    }

    async fn index_item(&self, queued: &QueuedItem) -> Result<(), IndexFailure> {
        let Some(row) = self.storage.get_item(queued.project_id, queued.item_id).await? else {
            self.storage.remove_item_index(queued.item_id).await?;
            return Ok(());
        };
        let (text, truncated) = self.item_text(&row).await?;
        let splitter = self.knowledge.splitter.clone();
        let chunks = tokio::task::spawn_blocking(move || splitter.split(&text))
            .await
            .map_err(|e| IndexFailure::Transient(format!("splitter worker: {e}")))?
            .map_err(|e| IndexFailure::Permanent(format!("splitting the text: {e}")))?;
        let vectors: Vec<Option<Vec<u8>>> = match &self.knowledge.embedding {
            Some(embedding) if !chunks.is_empty() => embedding
                .model
                .embed(&chunks)
                .await
                .map_err(|e| {
                    if e.is_transient() {
                        IndexFailure::Transient(e.to_string())
                    } else {
                        IndexFailure::Permanent(e.to_string())
                    }
                })?
                .iter()
                .map(|v| Some(vector_to_bytes(v)))
                .collect(),
            _ => vec![None; chunks.len()],
        };
        let indexed = IndexedItem {
            item_id: row.id,
            project_id: row.project_id,
            item_version: row.version,
            status: "indexed",
            error: None,
            truncated,
            model_id: self.knowledge.model_id().to_owned(),
            chunks: chunks.into_iter().zip(vectors).collect(),
        };
        self.storage.write_item_index(&indexed).await?;
        if row.item_type != "connector" && row.version > 1 {
            self.requeue_connectors_of(&row).await?;
        }
        Ok(())
    }

    /// The item's text and whether it was cut at the extraction limit.
    async fn item_text(&self, row: &ItemRow) -> Result<(String, bool), IndexFailure> {
        match content::text_of(row) {
            ItemText::Inline(text) => Ok((text, false)),
            ItemText::File { prefix, content_key, mime_type } => {
                let bytes = self.blobs.get(&content_key).await?;
                let work = tokio::task::spawn_blocking(move || {
                    canvas_files::extract_text_with(&bytes, &mime_type, &canvas_files::Limits::default())
                });
                let extracted = tokio::time::timeout(EXTRACT_TIMEOUT, work)
                    .await
                    .map_err(|_| {
                        IndexFailure::Permanent(format!("text extraction took longer than {EXTRACT_TIMEOUT:?}"))
                    })?
                    .map_err(|e| IndexFailure::Transient(format!("extraction worker: {e}")))?
                    .map_err(|e| IndexFailure::Permanent(format!("text extraction: {e}")))?;
                Ok((content::with_prefix(&prefix, &extracted.text), extracted.truncated))
            }
            ItemText::Relation { start, end } => {
                let start = self.end_excerpt(row.project_id, start).await?;
                let end = self.end_excerpt(row.project_id, end).await?;
                Ok((content::relation_sentence(start.as_deref(), end.as_deref()), false))
            }
        }
    }

    async fn end_excerpt(&self, project_id: Uuid, item: Option<Uuid>) -> Result<Option<String>, IndexFailure> {
        let Some(item) = item else { return Ok(None) };
        Ok(self.storage.get_item(project_id, item).await?.map(|row| content::excerpt(&row)))
    }

    /// A connector's indexed sentence quotes the items at its ends: re-index it when they change.
    async fn requeue_connectors_of(&self, row: &ItemRow) -> Result<(), CoreError> {
        let id = row.id.to_string();
        let attached: Vec<(Uuid, Uuid)> = self
            .storage
            .project_connectors(row.project_id)
            .await?
            .into_iter()
            .filter(|c| matches!(content::text_of(c), ItemText::Relation { start, end } if start == Some(row.id) || end == Some(row.id)))
            .map(|c| (c.id, c.project_id))
            .collect();
        if !attached.is_empty() {
            tracing::debug!(item = %id, connectors = attached.len(), "re-indexing connectors of a changed item");
            self.storage.requeue_items(&attached).await?;
        }
        Ok(())
    }
}
