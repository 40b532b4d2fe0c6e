//! The knowledge index: its work queue, chunks with embeddings and the per-item index state (what
//! retrieval reads to rank is `storage::retrieval::chunks`).
//!
//! The queue is filled by a trigger on `events` (migration 0004), in the transaction of each item
//! change. Workers lease rows (`leased_until`, Unix milliseconds); PostgreSQL skips rows another
//! replica holds (`FOR UPDATE SKIP LOCKED`), SQLite's single writer makes the lease atomic anyway.

use crate::domain::{ItemId, ProjectId};
use chrono::{DateTime, Utc};
use sqlx::QueryBuilder;

use super::RetrievalStore;
use crate::error::CoreError;
use crate::storage::{db_error, Storage, WriteTx};

type Result<T> = std::result::Result<T, CoreError>;

/// Most ids bound in one `IN (…)` list (SQLite allows 32,766 parameters; PostgreSQL 65,535).
pub(in crate::storage) const IN_LIST_MAX: usize = 500;

/// An item waiting to be (re-)indexed.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct QueuedItem {
    pub item_id: ItemId,
    pub project_id: ProjectId,
    /// Grows with every re-queue; the row is removed only if unchanged since the lease.
    pub generation: i64,
    /// Failed attempts so far (for back-off and the failure limit).
    pub attempts: i32,
    /// When the latest change was queued; work is done oldest first.
    pub queued_at: DateTime<Utc>,
}

/// The outcome of indexing one item version.
#[derive(Debug, Clone)]
pub struct IndexedItem {
    pub item_id: ItemId,
    pub project_id: ProjectId,
    pub item_version: i64,
    /// `indexed` or `failed`.
    pub status: &'static str,
    pub error: Option<String>,
    pub truncated: bool,
    pub model_id: String,
    /// Fingerprint of what the text was made from (see migration 0005); `None` when failed.
    pub source_hash: Option<Vec<u8>>,
    /// The chunks in order; empty when failed.
    pub chunks: Vec<IndexedChunk>,
}

/// One chunk of an item's text as stored.
#[derive(Debug, Clone)]
pub struct IndexedChunk {
    pub text: String,
    /// SHA-256 of `text`: the key under which its vector is reused.
    pub text_hash: Vec<u8>,
    /// Little-endian f32 values; `None` without an embedding model.
    pub embedding: Option<Vec<u8>>,
}

/// A chunk's text, for citations.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ChunkText {
    pub id: i64,
    pub item_id: ItemId,
    pub text: String,
}

/// An item with what the index holds of it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct IndexStatusRow {
    pub item_id: ItemId,
    pub item_type: String,
    pub item_version: i64,
    pub indexed_version: Option<i64>,
    pub status: Option<String>,
    pub error: Option<String>,
    pub chunk_count: Option<i32>,
    pub truncated: Option<bool>,
    pub updated_at: Option<DateTime<Utc>>,
    /// Present while the item waits in the queue.
    pub attempts: Option<i32>,
    pub leased_until: Option<i64>,
}

impl RetrievalStore {
    /// Leases up to `limit` due queue rows until `lease_until_ms`.
    pub async fn lease_index_work(&self, now_ms: i64, lease_until_ms: i64, limit: u32) -> Result<Vec<QueuedItem>> {
        // Live changes first (priority 0), then background work; oldest first within each.
        let due = "SELECT item_id FROM knowledge_queue WHERE leased_until <= $2 ORDER BY priority, queued_at LIMIT $3";
        let sql = |lock: &str| {
            format!(
                "UPDATE knowledge_queue SET leased_until = $1 WHERE item_id IN ({due}{lock}) \
                 RETURNING item_id, project_id, generation, attempts, queued_at"
            )
        };
        match self.database() {
            Storage::Sqlite(store) => sqlx::query_as::<_, QueuedItem>(&sql(""))
                .bind(lease_until_ms)
                .bind(now_ms)
                .bind(i64::from(limit))
                .fetch_all(store.writer_pool())
                .await
                .map_err(db_error),
            Storage::Postgres(pool) => sqlx::query_as::<_, QueuedItem>(&sql(" FOR UPDATE SKIP LOCKED"))
                .bind(lease_until_ms)
                .bind(now_ms)
                .bind(i64::from(limit))
                .fetch_all(&**pool)
                .await
                .map_err(db_error),
        }
    }

    /// Makes leased rows due again at once (the indexer is stopping before it reached them).
    pub async fn release_index_work(&self, item_ids: &[ItemId]) -> Result<()> {
        for ids in item_ids.chunks(IN_LIST_MAX) {
            with_write_pool!(self, pool => {
                let mut q = QueryBuilder::new("UPDATE knowledge_queue SET leased_until = 0 WHERE true");
                push_item_filter(&mut q, "item_id", Some(ids));
                q.build().execute(pool).await.map_err(db_error)?;
            });
        }
        Ok(())
    }

    /// Extends the leases this worker still holds (rows a change made due again are left alone).
    pub async fn renew_index_leases(&self, item_ids: &[ItemId], now_ms: i64, lease_until_ms: i64) -> Result<()> {
        for ids in item_ids.chunks(IN_LIST_MAX) {
            with_write_pool!(self, pool => {
                let mut q = QueryBuilder::new("UPDATE knowledge_queue SET leased_until = ");
                q.push_bind(lease_until_ms).push(" WHERE leased_until > ").push_bind(now_ms);
                push_item_filter(&mut q, "item_id", Some(ids));
                q.build().execute(pool).await.map_err(db_error)?;
            });
        }
        Ok(())
    }

    /// Keeps a failed row queued, free again at `retry_at_ms`.
    pub async fn retry_index_work(
        &self,
        item_id: ItemId,
        generation: i64,
        attempts: i32,
        retry_at_ms: i64,
    ) -> Result<()> {
        let mut tx = self.database().begin_write().await?;
        retry_index_work_in(&mut tx, item_id, generation, attempts, retry_at_ms).await?;
        tx.commit().await
    }

    /// Queues items again as live work (connectors whose end changed).
    pub async fn requeue_items(&self, items: &[(ItemId, ProjectId)]) -> Result<()> {
        with_write_pool!(self, pool => {
            for (item_id, project_id) in items {
                sqlx::query(
                    "INSERT INTO knowledge_queue (item_id, project_id, queued_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (item_id) DO UPDATE SET generation = knowledge_queue.generation + 1, \
                     attempts = 0, leased_until = 0, priority = 0",
                )
                .bind(item_id)
                .bind(project_id)
                .bind(Utc::now())
                .execute(pool)
                .await
                .map_err(db_error)?;
            }
        });
        Ok(())
    }

    /// Queues, as background work, every item whose index entry was made with another model than
    /// `model_id` (items already queued keep their place); the number queued.
    pub async fn requeue_other_models(&self, model_id: &str) -> Result<u64> {
        with_write_pool!(self, pool => {
            Ok(sqlx::query(
                "INSERT INTO knowledge_queue (item_id, project_id, queued_at, priority) \
                 SELECT item_id, project_id, $2, 1 FROM knowledge_items WHERE model_id <> $1 \
                 ON CONFLICT (item_id) DO NOTHING",
            )
            .bind(model_id)
            .bind(Utc::now())
            .execute(pool)
            .await
            .map_err(db_error)?
            .rows_affected())
        })
    }

    /// Replaces an item's chunks and state in one transaction, unless a newer version is stored.
    pub async fn write_item_index(&self, item: &IndexedItem) -> Result<bool> {
        let mut tx = self.database().begin_write().await?;
        let written = write_item_index_in(&mut tx, item).await?;
        tx.commit().await?;
        Ok(written)
    }

    /// Forgets a deleted item.
    pub async fn remove_item_index(&self, item_id: ItemId) -> Result<()> {
        let mut tx = self.database().begin_write().await?;
        remove_item_index_in(&mut tx, item_id).await?;
        tx.commit().await
    }
}

/// Forgets a deleted item within `tx`.
pub(in crate::storage) async fn remove_item_index_in(tx: &mut WriteTx, item_id: ItemId) -> Result<()> {
    with_tx!(tx, tx => {
        for sql in ["DELETE FROM knowledge_chunks WHERE item_id = $1", "DELETE FROM knowledge_items WHERE item_id = $1"] {
            sqlx::query(sql).bind(item_id).execute(&mut *tx).await.map_err(db_error)?;
        }
    });
    Ok(())
}

/// Removes a queue row within `tx` unless the item changed again since it was leased.
pub(in crate::storage) async fn complete_index_work_in(
    tx: &mut WriteTx,
    item_id: ItemId,
    generation: i64,
) -> Result<()> {
    with_tx!(tx, tx => {
        sqlx::query("DELETE FROM knowledge_queue WHERE item_id = $1 AND generation = $2")
            .bind(item_id)
            .bind(generation)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
    });
    Ok(())
}

/// Keeps a row queued within `tx`, free again at `retry_at_ms` (0: at once).
pub(in crate::storage) async fn retry_index_work_in(
    tx: &mut WriteTx,
    item_id: ItemId,
    generation: i64,
    attempts: i32,
    retry_at_ms: i64,
) -> Result<()> {
    with_tx!(tx, tx => {
        sqlx::query("UPDATE knowledge_queue SET attempts = $3, leased_until = $4 WHERE item_id = $1 AND generation = $2")
            .bind(item_id)
            .bind(generation)
            .bind(attempts)
            .bind(retry_at_ms)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
    });
    Ok(())
}

/// Replaces an item's chunks and state within `tx`, unless a newer version is stored; false then.
pub(in crate::storage) async fn write_item_index_in(tx: &mut WriteTx, item: &IndexedItem) -> Result<bool> {
    with_tx!(tx, tx => {
        let written = sqlx::query(
            "INSERT INTO knowledge_items (item_id, project_id, item_version, status, error, chunk_count, truncated, \
             model_id, updated_at, source_hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
             ON CONFLICT (item_id) DO UPDATE SET item_version = excluded.item_version, status = excluded.status, \
             error = excluded.error, chunk_count = excluded.chunk_count, truncated = excluded.truncated, \
             model_id = excluded.model_id, updated_at = excluded.updated_at, source_hash = excluded.source_hash \
             WHERE knowledge_items.item_version <= excluded.item_version",
        )
        .bind(item.item_id)
        .bind(item.project_id)
        .bind(item.item_version)
        .bind(item.status)
        .bind(&item.error)
        .bind(item.chunks.len() as i32)
        .bind(item.truncated)
        .bind(&item.model_id)
        .bind(Utc::now())
        .bind(&item.source_hash)
        .execute(&mut *tx)
        .await
        .map_err(db_error)?
        .rows_affected()
            == 1;
        if !written {
            return Ok(false);
        }
        sqlx::query("DELETE FROM knowledge_chunks WHERE item_id = $1")
            .bind(item.item_id)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
        for (index, chunk) in item.chunks.iter().enumerate() {
            sqlx::query(
                "INSERT INTO knowledge_chunks (project_id, item_id, chunk_index, text, embedding, text_hash) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(item.project_id)
            .bind(item.item_id)
            .bind(index as i32)
            .bind(&chunk.text)
            .bind(&chunk.embedding)
            .bind(&chunk.text_hash)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
        }
    });
    Ok(true)
}

/// `AND item_id IN (…)` for an optional item filter, with bound values.
pub(in crate::storage) fn push_item_filter<'a, DB: sqlx::Database>(
    builder: &mut QueryBuilder<'a, DB>,
    column: &str,
    items: Option<&'a [ItemId]>,
) where
    ItemId: sqlx::Encode<'a, DB> + sqlx::Type<DB>,
{
    if let Some(items) = items {
        builder.push(format!(" AND {column} IN ("));
        let mut list = builder.separated(", ");
        for id in items {
            list.push_bind(*id);
        }
        list.push_unseparated(")");
    }
}

impl RetrievalStore {
    /// The text of the given chunks (any order).
    pub async fn chunk_texts(&self, ids: &[i64]) -> Result<Vec<ChunkText>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        with_read_pool!(self, pool => {
            let mut q = QueryBuilder::new("SELECT id, item_id, text FROM knowledge_chunks WHERE id IN (");
            let mut list = q.separated(", ");
            for id in ids {
                list.push_bind(*id);
            }
            list.push_unseparated(")");
            q.build_query_as().fetch_all(pool).await.map_err(db_error)
        })
    }

    /// The index state of a project's items, in id order after `after`.
    pub async fn index_status(
        &self,
        project_id: ProjectId,
        items: Option<&[ItemId]>,
        after: Option<ItemId>,
        limit: u32,
    ) -> Result<Vec<IndexStatusRow>> {
        with_read_pool!(self, pool => {
            let mut q = QueryBuilder::new(
                "SELECT i.id AS item_id, i.item_type, i.version AS item_version, k.item_version AS indexed_version, \
                 k.status, k.error, k.chunk_count, k.truncated, k.updated_at, q.attempts, q.leased_until \
                 FROM items i LEFT JOIN knowledge_items k ON k.item_id = i.id \
                 LEFT JOIN knowledge_queue q ON q.item_id = i.id WHERE i.project_id = ",
            );
            q.push_bind(project_id);
            push_item_filter(&mut q, "i.id", items);
            if let Some(after) = after {
                q.push(" AND i.id > ").push_bind(after);
            }
            q.push(" ORDER BY i.id LIMIT ").push_bind(i64::from(limit));
            q.build_query_as().fetch_all(pool).await.map_err(db_error)
        })
    }
}

impl RetrievalStore {
    /// Items waiting in the index queue and the age of the oldest, in seconds (for metrics).
    pub async fn knowledge_queue_stats(&self) -> Result<(i64, f64)> {
        let (count, oldest): (i64, Option<DateTime<Utc>>) = with_read_pool!(self, pool => {
            sqlx::query_as("SELECT COUNT(*), MIN(queued_at) FROM knowledge_queue").fetch_one(pool).await.map_err(db_error)?
        });
        let lag = oldest.map_or(0.0, |t| (Utc::now() - t).num_milliseconds().max(0) as f64 / 1000.0);
        Ok((count, lag))
    }
}
