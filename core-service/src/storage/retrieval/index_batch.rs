//! The indexer's batch operations: many items read at once, the vector cache lookup, one
//! transaction for the outcomes of a whole batch, and the progress counts of a project.
//!
//! A batch commits in one transaction (one fsync on SQLite's single writer instead of one per
//! item). On SQLite the statements per item are the per-item helpers of `knowledge.rs`, so a batch
//! writes exactly what single writes would; PostgreSQL runs the same rules as one statement per
//! kind of change over the whole batch (`index_outcomes_pg.rs`).

use crate::domain::{ItemId, ProjectId};
use chrono::Utc;
use sqlx::QueryBuilder;

use super::index_outcome::{IndexAction, IndexOutcome};
use super::index_outcomes_pg::{apply_outcomes_pg, distinct_items};
use super::queue::{
    complete_index_work_in, push_item_filter, remove_item_index_in, retry_index_work_in, write_item_index_in,
    IN_LIST_MAX,
};
use super::RetrievalStore;
use crate::error::CoreError;
use crate::storage::items::ITEM_COLUMNS;
use crate::storage::{db_error, ItemRow, WriteTx};

type Result<T> = std::result::Result<T, CoreError>;

/// What the index holds of an item, for deciding whether its text must be embedded again.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StoredIndexState {
    pub item_id: ItemId,
    pub status: String,
    pub model_id: String,
    pub source_hash: Option<Vec<u8>>,
}

/// How many of a project's items are in each index state (they add up to `total`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct IndexCounts {
    pub total: i64,
    /// Waiting in the queue or being indexed.
    pub queued: i64,
    /// The part of `queued` a worker holds now.
    pub indexing: i64,
    /// Not queued, indexed at the item's current version.
    pub indexed: i64,
    /// Not queued, indexing failed.
    pub failed: i64,
}

impl RetrievalStore {
    /// The items with these ids that exist (any order).
    pub async fn items_by_ids(&self, ids: &[ItemId]) -> Result<Vec<ItemRow>> {
        let mut rows = Vec::with_capacity(ids.len());
        for ids in ids.chunks(IN_LIST_MAX) {
            with_read_pool!(self, pool => {
                let mut q = QueryBuilder::new(format!("SELECT {ITEM_COLUMNS} FROM items WHERE true"));
                push_item_filter(&mut q, "id", Some(ids));
                rows.extend(q.build_query_as::<ItemRow>().fetch_all(pool).await.map_err(db_error)?);
            });
        }
        Ok(rows)
    }

    /// The stored index entries of these items (any order; none for items never indexed).
    pub async fn index_states(&self, ids: &[ItemId]) -> Result<Vec<StoredIndexState>> {
        let mut rows = Vec::with_capacity(ids.len());
        for ids in ids.chunks(IN_LIST_MAX) {
            with_read_pool!(self, pool => {
                let mut q =
                    QueryBuilder::new("SELECT item_id, status, model_id, source_hash FROM knowledge_items WHERE true");
                push_item_filter(&mut q, "item_id", Some(ids));
                rows.extend(q.build_query_as::<StoredIndexState>().fetch_all(pool).await.map_err(db_error)?);
            });
        }
        Ok(rows)
    }

    /// Stored vectors of `model_id` for chunk texts with these hashes: `(text_hash, embedding)`,
    /// one per hash found, from any item of any project.
    pub async fn cached_vectors(&self, model_id: &str, hashes: &[Vec<u8>]) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
        let mut found = Vec::new();
        for hashes in hashes.chunks(IN_LIST_MAX) {
            with_read_pool!(self, pool => {
                // One chunk per hash: a text stored by thousands of items is read once.
                let mut q = QueryBuilder::new(
                    "SELECT text_hash, embedding FROM knowledge_chunks WHERE id IN (SELECT MIN(c.id) \
                     FROM knowledge_chunks c JOIN knowledge_items k ON k.item_id = c.item_id \
                     WHERE c.embedding IS NOT NULL AND k.model_id = ",
                );
                q.push_bind(model_id).push(" AND c.text_hash IN (");
                let mut list = q.separated(", ");
                for hash in hashes {
                    list.push_bind(hash.as_slice());
                }
                list.push_unseparated(") GROUP BY c.text_hash)");
                found.extend(q.build_query_as::<(Vec<u8>, Vec<u8>)>().fetch_all(pool).await.map_err(db_error)?);
            });
        }
        Ok(found)
    }

    /// Applies every outcome in one transaction. On an error nothing of the batch is stored (the
    /// caller retries the outcomes one by one, so one bad item cannot hold back the others).
    pub async fn apply_index_outcomes(&self, outcomes: &[IndexOutcome]) -> Result<()> {
        if outcomes.is_empty() {
            return Ok(());
        }
        let mut tx = self.database().begin_write().await?;
        match &mut tx {
            // A few statements for the whole batch, where item by item costs a round trip each.
            WriteTx::Postgres(t) if distinct_items(outcomes) => apply_outcomes_pg(t, outcomes).await?,
            // SQLite runs in process (a statement costs no round trip): the per-item statements.
            _ => {
                for outcome in outcomes {
                    apply_in(&mut tx, outcome).await?;
                }
            }
        }
        tx.commit().await
    }

    /// How many of the project's items (restricted to `items`) are in each index state; `now_ms`
    /// tells live leases (`indexing`) from lapsed ones.
    pub async fn index_counts(
        &self,
        project_id: ProjectId,
        items: Option<&[ItemId]>,
        now_ms: i64,
    ) -> Result<IndexCounts> {
        if items.is_some_and(<[ItemId]>::is_empty) {
            return Ok(IndexCounts::default());
        }
        with_read_pool!(self, pool => {
            let mut q = QueryBuilder::new(
                "SELECT COUNT(*) AS total, COUNT(q.item_id) AS queued, \
                 COALESCE(SUM(CASE WHEN q.item_id IS NOT NULL AND q.attempts = 0 AND q.leased_until > ",
            );
            q.push_bind(now_ms);
            q.push(
                " THEN 1 ELSE 0 END), 0) AS indexing, \
                 COALESCE(SUM(CASE WHEN q.item_id IS NULL AND k.status = 'indexed' AND k.item_version = i.version \
                 THEN 1 ELSE 0 END), 0) AS indexed, \
                 COALESCE(SUM(CASE WHEN q.item_id IS NULL AND k.status = 'failed' THEN 1 ELSE 0 END), 0) AS failed \
                 FROM items i LEFT JOIN knowledge_items k ON k.item_id = i.id \
                 LEFT JOIN knowledge_queue q ON q.item_id = i.id WHERE i.project_id = ",
            );
            q.push_bind(project_id);
            push_item_filter(&mut q, "i.id", items);
            q.build_query_as::<IndexCounts>().fetch_one(pool).await.map_err(db_error)
        })
    }
}

/// One outcome within the batch's transaction.
async fn apply_in(tx: &mut WriteTx, outcome: &IndexOutcome) -> Result<()> {
    let (item_id, generation) = (outcome.item_id, outcome.generation);
    match &outcome.action {
        IndexAction::Write(item) => {
            // A newer version already stored (another replica was quicker) completes the row too.
            write_item_index_in(tx, item).await?;
            complete_index_work_in(tx, item_id, generation).await
        }
        IndexAction::Unchanged { item_version, source_hash, model_id } => {
            if record_unchanged_in(tx, item_id, *item_version, source_hash, model_id).await? {
                complete_index_work_in(tx, item_id, generation).await
            } else {
                // The entry changed since it was read: index the item in full on the next lease.
                retry_index_work_in(tx, item_id, generation, 0, 0).await
            }
        }
        IndexAction::Remove => {
            remove_item_index_in(tx, item_id).await?;
            complete_index_work_in(tx, item_id, generation).await
        }
        IndexAction::Retry { attempts, retry_at_ms } => {
            retry_index_work_in(tx, item_id, generation, *attempts, *retry_at_ms).await
        }
    }
}

/// Moves an unchanged entry to `item_version`; false when the stored entry is no longer the
/// indexed text with this fingerprint and model.
async fn record_unchanged_in(
    tx: &mut WriteTx,
    item_id: ItemId,
    item_version: i64,
    source_hash: &[u8],
    model_id: &str,
) -> Result<bool> {
    with_tx!(tx, tx => {
        Ok(sqlx::query(
            "UPDATE knowledge_items SET item_version = $2, updated_at = $3 WHERE item_id = $1 \
             AND item_version <= $2 AND status = 'indexed' AND model_id = $4 AND source_hash = $5",
        )
        .bind(item_id)
        .bind(item_version)
        .bind(Utc::now())
        .bind(model_id)
        .bind(source_hash)
        .execute(&mut *tx)
        .await
        .map_err(db_error)?
        .rows_affected()
            == 1)
    })
}
