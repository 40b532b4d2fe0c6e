//! What retrieval reads to keep its in-memory project indexes current: a project's chunks (paged,
//! for a load), the chunks of given items (for a catch-up), and the change records above a point
//! (migration 0006). The ranking itself happens in Rust (`knowledge::search`), never in SQL.

use std::time::Duration;

use sqlx::QueryBuilder;
use uuid::Uuid;

use super::{db_error, Storage};
use crate::error::CoreError;

type Result<T> = std::result::Result<T, CoreError>;

/// A chunk as retrieval indexes it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ChunkRecord {
    pub id: i64,
    pub item_id: Uuid,
    pub text: String,
    /// Little-endian f32 values; `None` without an embedding model.
    pub embedding: Option<Vec<u8>>,
}

/// The latest change of one item's chunks.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ChunkChange {
    pub item_id: Uuid,
    pub seq: i64,
    /// Final: every change with a smaller `seq` has committed by now, so a reader may move past
    /// it for good (SQLite: always; PostgreSQL: written longer ago than the settle time asked
    /// for, by the database clock).
    pub settled: bool,
}

/// A chunk record's columns, its vector only when it is of the model bound as `$1`.
const CHUNK_RECORD: &str = "c.id, c.item_id, c.text, CASE WHEN k.model_id = $1 THEN c.embedding END AS embedding \
     FROM knowledge_chunks c LEFT JOIN knowledge_items k ON k.item_id = c.item_id";

impl Storage {
    /// The change records of a project above `floor`, in `seq` order, each marked settled when
    /// no record with a smaller `seq` can still appear: on PostgreSQL once it is older than
    /// `settle` by the database's clock; on SQLite at once, since SQLite has one writer: a record
    /// takes its `seq` inside the write transaction that holds the database's write lock, so
    /// records commit in `seq` order and a visible record has every smaller one visible too.
    /// (Settling at once keeps a retrieval from re-reading the last `settle` seconds of changes
    /// on every query, which during or just after a bulk import is thousands of rows.)
    pub async fn chunk_changes(&self, project_id: Uuid, floor: i64, settle: Duration) -> Result<Vec<ChunkChange>> {
        let settle_secs = settle.as_secs_f64();
        match self {
            Storage::Sqlite(store) => sqlx::query_as(
                "SELECT item_id, seq, TRUE AS settled FROM knowledge_changes \
                 WHERE project_id = $1 AND seq > $2 ORDER BY seq",
            )
            .bind(project_id)
            .bind(floor)
            .fetch_all(store.reader_pool())
            .await
            .map_err(db_error),
            Storage::Postgres(pool) => sqlx::query_as(
                "SELECT item_id, seq, changed_at < clock_timestamp() - make_interval(secs => $3) AS settled \
                 FROM knowledge_changes WHERE project_id = $1 AND seq > $2 ORDER BY seq",
            )
            .bind(project_id)
            .bind(floor)
            .bind(settle_secs)
            .fetch_all(pool)
            .await
            .map_err(db_error),
        }
    }

    /// Up to `limit` chunks of a project with an id above `after`, in id order (a load pages
    /// through them).
    /// Vectors of another model than `model_id` come back as `None` (a re-index is under way).
    pub async fn project_chunks(
        &self,
        project_id: Uuid,
        model_id: &str,
        after: i64,
        limit: u32,
    ) -> Result<Vec<ChunkRecord>> {
        with_read_pool!(self, pool => {
            sqlx::query_as(&format!(
                "SELECT {CHUNK_RECORD} WHERE c.project_id = $2 AND c.id > $3 ORDER BY c.id LIMIT $4"
            ))
            .bind(model_id)
            .bind(project_id)
            .bind(after)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Every chunk of the given items of a project (a catch-up reloads changed items).
    /// Vectors of another model than `model_id` come back as `None`.
    pub async fn chunks_of_items(&self, project_id: Uuid, model_id: &str, items: &[Uuid]) -> Result<Vec<ChunkRecord>> {
        let mut records = Vec::new();
        for page in items.chunks(500) {
            let mut page_records: Vec<ChunkRecord> = with_read_pool!(self, pool => {
                let mut q = QueryBuilder::new(
                    "SELECT c.id, c.item_id, c.text, CASE WHEN k.model_id = ",
                );
                q.push_bind(model_id);
                q.push(" THEN c.embedding END AS embedding FROM knowledge_chunks c \
                        LEFT JOIN knowledge_items k ON k.item_id = c.item_id WHERE c.project_id = ");
                q.push_bind(project_id);
                q.push(" AND c.item_id IN (");
                let mut list = q.separated(", ");
                for id in page {
                    list.push_bind(*id);
                }
                list.push_unseparated(") ORDER BY c.id");
                q.build_query_as().fetch_all(pool).await.map_err(db_error)?
            });
            records.append(&mut page_records);
        }
        Ok(records)
    }

    /// Projects whose chunks changed most recently, newest first (what to load at start).
    pub async fn recently_changed_projects(&self, limit: u32) -> Result<Vec<Uuid>> {
        with_read_pool!(self, pool => {
            sqlx::query_scalar(
                "SELECT project_id FROM knowledge_changes GROUP BY project_id ORDER BY MAX(seq) DESC LIMIT $1",
            )
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }
}
