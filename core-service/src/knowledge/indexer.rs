//! The background indexer: drains `knowledge_queue` into chunks, vectors and the keyword index.
//!
//! Every item change queues its item in the change's own transaction (a trigger on the outbox), so
//! the queue is never behind the items: after a crash the indexer simply continues. Rows are
//! leased, so several core replicas share the work (`FOR UPDATE SKIP LOCKED` on PostgreSQL); a
//! lease that runs out (a replica died) makes the row due again, and leases are renewed while a
//! long round runs. An item that changed while it was being indexed stays queued (its
//! `generation` moved) and is indexed again. Failures are retried with back-off and, when
//! permanent or after [`MAX_ATTEMPTS`], recorded as the item's index status `failed` with the error.
//!
//! Work goes in rounds of up to [`ROUND_ITEMS`] leased items: `prepare` reads them at once, skips
//! unchanged text and reuses cached vectors; `batch` cuts the remaining chunk texts (across items)
//! into length-sorted calls of the model of up to [`EMBED_BATCH`] texts. Each call's finished items
//! are stored in one transaction while the model embeds the next call (the last call's items while
//! the next round embeds), and the next round is leased and prepared while the model embeds the
//! last call of this one, so the model never waits for the database. A failing call is retried
//! item by item, so one bad item fails alone. On shutdown the current call finishes and is stored;
//! every other leased item is handed back.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::domain::{ItemId, ProjectId};

use super::batch::{self, PendingText};
use super::content::{self, ItemText};
use super::vector_to_bytes;
pub use super::work::MAX_ATTEMPTS;
pub(super) use super::work::{now_ms, IndexFailure, Work, WorkState};
use super::Knowledge;
use crate::blobs::BlobStore;
use crate::error::CoreError;
use crate::storage::{IndexAction, IndexOutcome, RetrievalStore};

/// Items leased per round.
const ROUND_ITEMS: u32 = 256;
/// Chunk texts per call of the model (the local model runs them 32 per forward pass).
const EMBED_BATCH: usize = 256;
/// How long a lease lasts before another replica may take the row; renewed every third of it.
const LEASE: Duration = Duration::from_secs(300);
/// How often an idle indexer looks for entries of another model (a replica with the old model
/// kept writing during a rolling switch).
const MODEL_CHECK_INTERVAL: Duration = Duration::from_secs(300);

/// Renews a round's leases in the background for as long as it lives.
struct LeaseKeeper(tokio::task::JoinHandle<()>);

impl LeaseKeeper {
    fn start(store: RetrievalStore, ids: Vec<ItemId>) -> Self {
        Self(tokio::spawn(async move {
            loop {
                tokio::time::sleep(LEASE / 3).await;
                let now = now_ms();
                if let Err(error) = store.renew_index_leases(&ids, now, now + LEASE.as_millis() as i64).await {
                    tracing::warn!(%error, "could not renew indexing leases");
                }
            }
        }))
    }
}

impl Drop for LeaseKeeper {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Leased and prepared work, with the task keeping its leases.
struct Round {
    works: Vec<Work>,
    _leases: Option<LeaseKeeper>,
}

/// The background indexer of one replica, holding only what it uses: the queue and the chunks
/// (storage), uploaded files' content (blobs) and the embedding model (knowledge). The service
/// layer builds it (`RetrievalService::indexer`); nothing here reaches the service layer.
#[derive(Debug, Clone)]
pub struct Indexer {
    pub(super) store: RetrievalStore,
    pub(super) blobs: BlobStore,
    pub(super) knowledge: Knowledge,
}

impl Indexer {
    pub fn new(store: RetrievalStore, blobs: BlobStore, knowledge: Knowledge) -> Self {
        Self { store, blobs, knowledge }
    }

    /// Runs until `shutdown`: leases queued items in rounds, indexes them, sleeps until woken or polled.
    pub async fn run(self: Arc<Self>, shutdown: CancellationToken) {
        self.requeue_other_models().await;
        let mut model_checked = Instant::now();
        let mut next: Option<Round> = None;
        // The last finished items of the previous round, stored while the model embeds this one.
        let mut unstored: Vec<(IndexOutcome, bool)> = Vec::new();
        loop {
            let round = match next.take() {
                Some(round) => round,
                None if shutdown.is_cancelled() => Round { works: Vec::new(), _leases: None },
                None => self.lease_round().await,
            };
            if shutdown.is_cancelled() {
                self.store(std::mem::take(&mut unstored)).await;
                self.hand_back(&round.works).await;
                return;
            }
            if round.works.is_empty() {
                self.store(std::mem::take(&mut unstored)).await;
                if model_checked.elapsed() >= MODEL_CHECK_INTERVAL {
                    model_checked = Instant::now();
                    self.requeue_other_models().await;
                    continue;
                }
                tokio::select! {
                    _ = shutdown.cancelled() => return,
                    _ = self.knowledge.wake.notified() => {}
                    _ = tokio::time::sleep(self.knowledge.poll_interval) => {}
                }
                continue;
            }
            let last_call = Notify::new();
            let upcoming = async {
                tokio::select! {
                    _ = last_call.notified() => Some(self.lease_round().await),
                    _ = shutdown.cancelled() => None,
                }
            };
            let previous = std::mem::take(&mut unstored);
            let (finished, upcoming, ()) =
                tokio::join!(self.index_round(round, &last_call, &shutdown), upcoming, self.store(previous));
            unstored = finished;
            next = upcoming;
        }
    }

    /// Vectors made by a model other than the configured one are useless to the semantic leg:
    /// their items are queued as background work (live changes go first); until each is
    /// re-embedded, retrieval finds it by the keyword leg.
    async fn requeue_other_models(&self) {
        match self.store.requeue_other_models(self.knowledge.model_id()).await {
            Ok(0) => {}
            Ok(items) => {
                tracing::info!(
                    items,
                    model = self.knowledge.model_id(),
                    "re-indexing in the background for a new embedding model"
                );
                self.knowledge.wake();
            }
            Err(error) => tracing::warn!(%error, "could not queue items of another embedding model"),
        }
    }

    async fn lease_round(&self) -> Round {
        let now = now_ms();
        let mut leased = match self.store.lease_index_work(now, now + LEASE.as_millis() as i64, ROUND_ITEMS).await {
            Ok(leased) => leased,
            Err(error) => {
                tracing::warn!(%error, "knowledge indexer could not read its queue");
                Vec::new()
            }
        };
        if leased.is_empty() {
            return Round { works: Vec::new(), _leases: None };
        }
        // RETURNING gives no order; index in the order of the changes.
        leased.sort_by(|a, b| a.queued_at.cmp(&b.queued_at).then(a.item_id.cmp(&b.item_id)));
        let keeper = LeaseKeeper::start(self.store.clone(), leased.iter().map(|q| q.item_id).collect());
        Round { works: self.prepare_round(leased).await, _leases: Some(keeper) }
    }

    /// Embeds the round's chunks call by call, storing each call's finished items while the next
    /// call runs; returns the items finished by the last call (the caller stores them while the
    /// next round embeds) and hands back what it did not reach. `last_call` is notified when the
    /// last call starts (the next round is then leased and prepared).
    async fn index_round(
        &self,
        round: Round,
        last_call: &Notify,
        shutdown: &CancellationToken,
    ) -> Vec<(IndexOutcome, bool)> {
        let mut works = round.works;
        let batches = batch::plan(&works, EMBED_BATCH);
        let mut ready = take_ready(&mut works);
        for (n, texts) in batches.iter().enumerate() {
            if shutdown.is_cancelled() {
                break;
            }
            if n + 1 == batches.len() {
                last_call.notify_one();
            }
            let wanted: Vec<PendingText> = texts.iter().filter(|t| batch::wanted(t, &works)).cloned().collect();
            let (vectors, ()) =
                tokio::join!(self.embed_call(&wanted, &mut works), self.store(std::mem::take(&mut ready)));
            batch::fill(&mut works, &wanted, &vectors);
            ready.extend(take_ready(&mut works));
        }
        if batches.is_empty() {
            last_call.notify_one();
        }
        self.hand_back(&works).await;
        ready
    }

    /// Hands back every item of `works` not stored yet (the indexer is stopping).
    async fn hand_back(&self, works: &[Work]) {
        let rest: Vec<ItemId> =
            works.iter().filter(|w| !matches!(w.state, WorkState::Stored)).map(|w| w.queued.item_id).collect();
        if rest.is_empty() {
            return;
        }
        if let Err(error) = self.store.release_index_work(&rest).await {
            tracing::warn!(%error, items = rest.len(), "could not release indexing leases; they lapse");
        }
    }

    /// One call of the model for `texts`; when it fails for a reason that is not transient, each
    /// item's texts are embedded on their own so only the items the model refuses fail. Returns a
    /// vector (or none) per text; failed items are marked in `works`.
    async fn embed_call(&self, texts: &[PendingText], works: &mut [Work]) -> Vec<Option<Vec<u8>>> {
        let Some(embedding) = &self.knowledge.embedding else { return vec![None; texts.len()] };
        if texts.is_empty() {
            return Vec::new();
        }
        let model_id = self.knowledge.model_id().to_owned();
        let strings: Vec<String> = texts.iter().map(|t| t.text.clone()).collect();
        let error = match embed_checked(embedding.model.as_ref(), &strings).await {
            Ok(vectors) => {
                metrics::counter!("knowledge_index_chunks_total", "source" => "model").increment(texts.len() as u64);
                return vectors.into_iter().map(Some).collect();
            }
            Err(error) => error,
        };
        let items: HashSet<usize> = texts.iter().flat_map(|t| t.uses.iter().map(|&(w, _)| w)).collect();
        if error.is_transient() || items.len() == 1 {
            for w in items {
                works[w].fail(failure_of(&error), &model_id);
            }
            return vec![None; texts.len()];
        }
        tracing::warn!(%error, items = items.len(), "an embedding call failed; embedding its items one by one");
        let mut vectors: Vec<Option<Vec<u8>>> = vec![None; texts.len()];
        let mut items: Vec<usize> = items.into_iter().collect();
        items.sort_unstable();
        for w in items {
            let mine: Vec<usize> = (0..texts.len())
                .filter(|&t| vectors[t].is_none() && texts[t].uses.iter().any(|&(u, _)| u == w))
                .collect();
            let strings: Vec<String> = mine.iter().map(|&t| texts[t].text.clone()).collect();
            match embed_checked(embedding.model.as_ref(), &strings).await {
                Ok(found) => {
                    metrics::counter!("knowledge_index_chunks_total", "source" => "model")
                        .increment(found.len() as u64);
                    for (t, vector) in mine.into_iter().zip(found) {
                        vectors[t] = Some(vector);
                    }
                }
                Err(error) => works[w].fail(failure_of(&error), &model_id),
            }
        }
        vectors
    }

    /// Stores finished items in one transaction; if that fails, one by one, so one item the
    /// database refuses cannot hold back the others.
    async fn store(&self, ready: Vec<(IndexOutcome, bool)>) {
        if ready.is_empty() {
            return;
        }
        let outcomes: Vec<IndexOutcome> = ready.iter().map(|(o, _)| o.clone()).collect();
        let stored: Vec<bool> = match self.apply_when_available(&outcomes).await {
            Ok(()) => vec![true; outcomes.len()],
            Err(error) => {
                tracing::warn!(%error, items = outcomes.len(), "storing an indexing batch failed; storing item by item");
                let mut stored = Vec::with_capacity(outcomes.len());
                for outcome in &outcomes {
                    stored.push(self.store_alone(outcome).await);
                }
                stored
            }
        };
        for (outcome, _) in ready.iter().zip(&stored).filter(|(_, ok)| **ok).map(|(r, _)| r) {
            let label = match &outcome.action {
                IndexAction::Write(item) => item.status,
                IndexAction::Unchanged { .. } => "unchanged",
                IndexAction::Remove => "removed",
                IndexAction::Retry { .. } => "retry",
            };
            metrics::counter!("knowledge_index_items_total", "outcome" => label).increment(1);
        }
        let changed: Vec<(ProjectId, ItemId)> = ready
            .iter()
            .zip(&stored)
            .filter(|((o, follow_up), ok)| {
                **ok && *follow_up && matches!(&o.action, IndexAction::Write(i) if i.status == "indexed")
            })
            .map(|((o, _), _)| match &o.action {
                IndexAction::Write(item) => (item.project_id, item.item_id),
                _ => unreachable!("filtered to writes"),
            })
            .collect();
        if let Err(error) = self.requeue_connectors_of(&changed).await {
            tracing::warn!(%error, "could not queue the connectors of changed items");
        }
    }

    /// Stores `outcomes` in one transaction, waiting while the database is unavailable
    /// ([`crate::error::while_unavailable`]) rather than leaving them to their lease, which lapses
    /// only after [`LEASE`]: without the wait, every item of a round that met a failover stayed
    /// out of the index for five minutes. Storing an outcome twice writes the same rows.
    async fn apply_when_available(&self, outcomes: &[IndexOutcome]) -> Result<(), CoreError> {
        crate::error::while_unavailable("storing indexing outcomes", || self.store.apply_index_outcomes(outcomes)).await
    }

    /// One outcome in its own transaction; a failure to store it becomes a retry of the item.
    async fn store_alone(&self, outcome: &IndexOutcome) -> bool {
        let Err(error) = self.store.apply_index_outcomes(std::slice::from_ref(outcome)).await else { return true };
        tracing::warn!(item = %outcome.item_id, %error, "could not store the indexing outcome; will retry");
        let retry_at = now_ms() + Duration::from_secs(5).as_millis() as i64;
        // Attempts are not counted here: the row's own count is unknown, and a lapsing lease is
        // the fallback if even this fails.
        if let Err(error) = self.store.retry_index_work(outcome.item_id, outcome.generation, 1, retry_at).await {
            tracing::warn!(item = %outcome.item_id, %error, "could not record the retry; the lease will lapse");
        }
        false
    }

    /// A connector's indexed sentence quotes the items at its ends: re-index it when their text
    /// changed. `changed` holds (project, item) pairs; one read of connectors per project.
    async fn requeue_connectors_of(&self, changed: &[(ProjectId, ItemId)]) -> Result<(), CoreError> {
        let mut by_project: HashMap<ProjectId, HashSet<ItemId>> = HashMap::new();
        for (project, item) in changed {
            by_project.entry(*project).or_default().insert(*item);
        }
        for (project, items) in by_project {
            let quotes = |id: Option<ItemId>| id.is_some_and(|id| items.contains(&id));
            let attached: Vec<(ItemId, ProjectId)> = self
                .store
                .project_connectors(project)
                .await?
                .into_iter()
                .filter(|c| matches!(content::text_of(c), ItemText::Relation { start, end } if quotes(start) || quotes(end)))
                .map(|c| (c.id, c.project_id))
                .collect();
            if !attached.is_empty() {
                tracing::debug!(connectors = attached.len(), "re-indexing connectors of changed items");
                self.store.requeue_items(&attached).await?;
            }
        }
        Ok(())
    }
}

/// Takes the decided work out of the round, as outcomes with their follow-up flag.
fn take_ready(works: &mut [Work]) -> Vec<(IndexOutcome, bool)> {
    let mut ready = Vec::new();
    for work in works.iter_mut() {
        if matches!(work.state, WorkState::Ready(_)) {
            if let WorkState::Ready(action) = std::mem::replace(&mut work.state, WorkState::Stored) {
                let outcome = IndexOutcome { item_id: work.queued.item_id, generation: work.queued.generation, action };
                ready.push((outcome, work.follow_up));
            }
        }
    }
    ready
}

/// The model's vectors as stored bytes, refusing an answer of the wrong length.
async fn embed_checked(
    model: &dyn canvas_embed::EmbeddingModel,
    texts: &[String],
) -> Result<Vec<Vec<u8>>, canvas_embed::EmbedError> {
    let vectors = model.embed(texts).await?;
    if vectors.len() != texts.len() {
        return Err(canvas_embed::EmbedError::InvalidOptions(format!(
            "the model returned {} vectors for {} texts",
            vectors.len(),
            texts.len()
        )));
    }
    Ok(vectors.iter().map(|v| vector_to_bytes(v)).collect())
}

fn failure_of(error: &canvas_embed::EmbedError) -> IndexFailure {
    if error.is_transient() {
        IndexFailure::Transient(error.to_string())
    } else {
        IndexFailure::Permanent(error.to_string())
    }
}
