//! The indexer's batch of outcomes on PostgreSQL: a fixed number of statements per batch, each
//! over unnested arrays, instead of four or five per item (every statement is a round trip and a
//! parse-bind-execute on the server, which is where PostgreSQL's CPU went under a write load).
//!
//! It stores exactly what `index_batch::apply_in` would store item by item, because the items of
//! a batch are distinct and each outcome touches only its own item's rows, so their order does
//! not matter. A batch naming an item twice is not expected (a lease returns each queue row once);
//! the caller applies such a batch item by item rather than guess which outcome wins.

use std::collections::HashSet;

use chrono::Utc;
use sqlx::PgConnection;
use uuid::Uuid;

use super::index_outcome::{IndexAction, IndexOutcome};
use super::queue::IndexedItem;
use crate::error::CoreError;
use crate::storage::db_error;

type Result<T> = std::result::Result<T, CoreError>;

// PostgreSQL's arrays (`UNNEST($1::uuid[])`) are bound as bare UUIDs: the ids are unwrapped only
// here, at the statement.

/// Whether every outcome names a different item (the condition for applying them as one set).
pub(in crate::storage) fn distinct_items(outcomes: &[IndexOutcome]) -> bool {
    let mut seen = HashSet::with_capacity(outcomes.len());
    outcomes.iter().all(|o| seen.insert(o.item_id))
}

/// Applies a batch of outcomes on distinct items within the caller's transaction.
pub(in crate::storage) async fn apply_outcomes_pg(tx: &mut PgConnection, outcomes: &[IndexOutcome]) -> Result<()> {
    let mut writes: Vec<&IndexedItem> = Vec::new();
    let mut unchanged = Vec::new();
    let mut removed: Vec<Uuid> = Vec::new();
    // (item, generation) of rows to complete, and (item, generation, attempts, retry_at) to retry.
    let mut complete: Vec<(Uuid, i64)> = Vec::new();
    let mut retry: Vec<(Uuid, i64, i32, i64)> = Vec::new();
    for outcome in outcomes {
        let key = (outcome.item_id.uuid(), outcome.generation);
        match &outcome.action {
            IndexAction::Write(item) => {
                // A newer version already stored (another replica was quicker) completes the row too.
                writes.push(item);
                complete.push(key);
            }
            IndexAction::Unchanged { item_version, source_hash, model_id } => {
                unchanged.push((outcome, *item_version, source_hash.as_slice(), model_id.as_str()));
            }
            IndexAction::Remove => {
                removed.push(outcome.item_id.uuid());
                complete.push(key);
            }
            IndexAction::Retry { attempts, retry_at_ms } => retry.push((key.0, key.1, *attempts, *retry_at_ms)),
        }
    }
    let written = write_items(tx, &writes).await?;
    let kept = record_unchanged(tx, &unchanged).await?;
    for (outcome, ..) in &unchanged {
        if kept.contains(&outcome.item_id.uuid()) {
            complete.push((outcome.item_id.uuid(), outcome.generation));
        } else {
            // The entry changed since it was read: index the item in full on the next lease.
            retry.push((outcome.item_id.uuid(), outcome.generation, 0, 0));
        }
    }
    let replaced: Vec<&IndexedItem> =
        writes.into_iter().filter(|item| written.contains(&item.item_id.uuid())).collect();
    let mut cleared: Vec<Uuid> = replaced.iter().map(|item| item.item_id.uuid()).collect();
    cleared.extend(&removed);
    if !cleared.is_empty() {
        sqlx::query("DELETE FROM knowledge_chunks WHERE item_id = ANY($1)")
            .bind(&cleared)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
    }
    insert_chunks(tx, &replaced).await?;
    if !removed.is_empty() {
        sqlx::query("DELETE FROM knowledge_items WHERE item_id = ANY($1)")
            .bind(&removed)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
    }
    if !complete.is_empty() {
        sqlx::query(
            "DELETE FROM knowledge_queue q USING UNNEST($1::uuid[], $2::int8[]) AS c(item_id, generation) \
             WHERE q.item_id = c.item_id AND q.generation = c.generation",
        )
        .bind(complete.iter().map(|c| c.0).collect::<Vec<_>>())
        .bind(complete.iter().map(|c| c.1).collect::<Vec<_>>())
        .execute(&mut *tx)
        .await
        .map_err(db_error)?;
    }
    if !retry.is_empty() {
        sqlx::query(
            "UPDATE knowledge_queue q SET attempts = r.attempts, leased_until = r.retry_at \
             FROM UNNEST($1::uuid[], $2::int8[], $3::int4[], $4::int8[]) AS r(item_id, generation, attempts, retry_at) \
             WHERE q.item_id = r.item_id AND q.generation = r.generation",
        )
        .bind(retry.iter().map(|r| r.0).collect::<Vec<_>>())
        .bind(retry.iter().map(|r| r.1).collect::<Vec<_>>())
        .bind(retry.iter().map(|r| r.2).collect::<Vec<_>>())
        .bind(retry.iter().map(|r| r.3).collect::<Vec<_>>())
        .execute(&mut *tx)
        .await
        .map_err(db_error)?;
    }
    Ok(())
}

/// Upserts the items' index state unless a newer version is stored; the ids written.
async fn write_items(tx: &mut PgConnection, items: &[&IndexedItem]) -> Result<HashSet<Uuid>> {
    if items.is_empty() {
        return Ok(HashSet::new());
    }
    let now = Utc::now();
    let written: Vec<Uuid> = sqlx::query_scalar(
        "INSERT INTO knowledge_items (item_id, project_id, item_version, status, error, chunk_count, truncated, \
         model_id, updated_at, source_hash) \
         SELECT * FROM UNNEST($1::uuid[], $2::uuid[], $3::int8[], $4::text[], $5::text[], $6::int4[], $7::bool[], \
         $8::text[], $9::timestamptz[], $10::bytea[]) \
         ON CONFLICT (item_id) DO UPDATE SET item_version = excluded.item_version, status = excluded.status, \
         error = excluded.error, chunk_count = excluded.chunk_count, truncated = excluded.truncated, \
         model_id = excluded.model_id, updated_at = excluded.updated_at, source_hash = excluded.source_hash \
         WHERE knowledge_items.item_version <= excluded.item_version RETURNING item_id",
    )
    .bind(items.iter().map(|i| i.item_id.uuid()).collect::<Vec<_>>())
    .bind(items.iter().map(|i| i.project_id.uuid()).collect::<Vec<_>>())
    .bind(items.iter().map(|i| i.item_version).collect::<Vec<_>>())
    .bind(items.iter().map(|i| i.status).collect::<Vec<_>>())
    .bind(items.iter().map(|i| i.error.as_deref()).collect::<Vec<_>>())
    .bind(items.iter().map(|i| i.chunks.len() as i32).collect::<Vec<_>>())
    .bind(items.iter().map(|i| i.truncated).collect::<Vec<_>>())
    .bind(items.iter().map(|i| i.model_id.as_str()).collect::<Vec<_>>())
    .bind(vec![now; items.len()])
    .bind(items.iter().map(|i| i.source_hash.as_deref()).collect::<Vec<_>>())
    .fetch_all(&mut *tx)
    .await
    .map_err(db_error)?;
    Ok(written.into_iter().collect())
}

/// Inserts the chunks of `items`, each item's in order (chunk ids follow the batch's order).
async fn insert_chunks(tx: &mut PgConnection, items: &[&IndexedItem]) -> Result<()> {
    let chunks: Vec<(&IndexedItem, i32, &super::queue::IndexedChunk)> = items
        .iter()
        .flat_map(|item| item.chunks.iter().enumerate().map(move |(index, chunk)| (*item, index as i32, chunk)))
        .collect();
    if chunks.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO knowledge_chunks (project_id, item_id, chunk_index, text, embedding, text_hash) \
         SELECT project_id, item_id, chunk_index, text, embedding, text_hash \
         FROM UNNEST($1::uuid[], $2::uuid[], $3::int4[], $4::text[], $5::bytea[], $6::bytea[]) \
         WITH ORDINALITY AS c(project_id, item_id, chunk_index, text, embedding, text_hash, n) ORDER BY n",
    )
    .bind(chunks.iter().map(|(item, ..)| item.project_id.uuid()).collect::<Vec<_>>())
    .bind(chunks.iter().map(|(item, ..)| item.item_id.uuid()).collect::<Vec<_>>())
    .bind(chunks.iter().map(|(_, index, _)| *index).collect::<Vec<_>>())
    .bind(chunks.iter().map(|(.., chunk)| chunk.text.as_str()).collect::<Vec<_>>())
    .bind(chunks.iter().map(|(.., chunk)| chunk.embedding.as_deref()).collect::<Vec<_>>())
    .bind(chunks.iter().map(|(.., chunk)| chunk.text_hash.as_slice()).collect::<Vec<_>>())
    .execute(&mut *tx)
    .await
    .map_err(db_error)?;
    Ok(())
}

/// Moves unchanged entries to their new item version where the stored entry is still the indexed
/// text with that fingerprint and model; the ids moved.
async fn record_unchanged(
    tx: &mut PgConnection,
    unchanged: &[(&IndexOutcome, i64, &[u8], &str)],
) -> Result<HashSet<Uuid>> {
    if unchanged.is_empty() {
        return Ok(HashSet::new());
    }
    let moved: Vec<Uuid> = sqlx::query_scalar(
        "UPDATE knowledge_items k SET item_version = u.item_version, updated_at = $5 \
         FROM UNNEST($1::uuid[], $2::int8[], $3::text[], $4::bytea[]) AS u(item_id, item_version, model_id, source_hash) \
         WHERE k.item_id = u.item_id AND k.item_version <= u.item_version AND k.status = 'indexed' \
         AND k.model_id = u.model_id AND k.source_hash = u.source_hash RETURNING k.item_id",
    )
    .bind(unchanged.iter().map(|u| u.0.item_id.uuid()).collect::<Vec<_>>())
    .bind(unchanged.iter().map(|u| u.1).collect::<Vec<_>>())
    .bind(unchanged.iter().map(|u| u.3).collect::<Vec<_>>())
    .bind(unchanged.iter().map(|u| u.2).collect::<Vec<_>>())
    .bind(Utc::now())
    .fetch_all(&mut *tx)
    .await
    .map_err(db_error)?;
    Ok(moved.into_iter().collect())
}
