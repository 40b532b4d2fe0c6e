//! What retrieval reads to keep its in-memory project indexes current: a project's chunks (paged,
//! for a load), the chunks of given items (for a catch-up), and the change records above a point
//! (migration 0006). The ranking itself happens in Rust (`knowledge::search`), never in SQL.

use sqlx::QueryBuilder;

use crate::domain::{ItemId, ProjectId};

use super::RetrievalStore;
use crate::error::CoreError;
use crate::storage::{db_error, Storage};

type Result<T> = std::result::Result<T, CoreError>;

/// A chunk as retrieval indexes it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ChunkRecord {
    pub id: i64,
    pub item_id: ItemId,
    pub text: String,
    /// Little-endian f32 values; `None` without an embedding model.
    pub embedding: Option<Vec<u8>>,
}

/// The latest change of one item's chunks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkChange {
    pub item_id: ItemId,
    /// Moves on every change of the item: a reader that applied this `seq` skips the record.
    pub seq: i64,
    /// What the floor is compared with: the `seq` on SQLite, the writing transaction's id on
    /// PostgreSQL. A record is read again while its position is at or above the floor.
    pub position: i64,
}

/// A read of change records, and where the next read starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkChanges {
    /// In `seq` order.
    pub records: Vec<ChunkChange>,
    /// Every record that will ever have a position below this was returned by this read or an
    /// earlier one (or predates the reader), so the next read may start here.
    pub next_floor: i64,
}

#[derive(sqlx::FromRow)]
struct HorizonRow {
    horizon: i64,
    item_id: Option<ItemId>,
    seq: Option<i64>,
    position: Option<i64>,
}

/// A chunk record's columns, its vector only when it is of the model bound as `$1`.
const CHUNK_RECORD: &str = "c.id, c.item_id, c.text, CASE WHEN k.model_id = $1 THEN c.embedding END AS embedding \
     FROM knowledge_chunks c LEFT JOIN knowledge_items k ON k.item_id = c.item_id";

impl RetrievalStore {
    /// The change records of a project at or above `floor`, and the floor of the next read.
    ///
    /// SQLite has one writer: a record takes its `seq` inside the write transaction that holds
    /// the database's write lock, so records commit in `seq` order and the next read starts just
    /// past the last record seen.
    ///
    /// PostgreSQL takes `seq` at insert, not at commit, so a smaller `seq` can appear after a
    /// larger one. There the position is the writing transaction's id (migration 0007) and the
    /// next floor is the `xmin` of the snapshot this read used: every transaction below it has
    /// ended, so its records were visible now or never will be, while one still running has an
    /// id at or above it and is read again next time. Only the records of transactions in flight
    /// are re-read, however fast changes arrive.
    pub async fn chunk_changes(&self, project_id: ProjectId, floor: i64) -> Result<ChunkChanges> {
        match self.database() {
            Storage::Sqlite(store) => {
                let rows: Vec<(ItemId, i64)> = sqlx::query_as(
                    "SELECT item_id, seq FROM knowledge_changes WHERE project_id = $1 AND seq >= $2 ORDER BY seq",
                )
                .bind(project_id)
                .bind(floor)
                .fetch_all(store.reader_pool())
                .await
                .map_err(db_error)?;
                let next_floor = rows.last().map_or(floor, |(_, seq)| seq + 1);
                let records =
                    rows.into_iter().map(|(item_id, seq)| ChunkChange { item_id, seq, position: seq }).collect();
                Ok(ChunkChanges { records, next_floor })
            }
            Storage::Postgres(pool) => {
                // One statement, one snapshot: the horizon and the rows agree.
                let rows: Vec<HorizonRow> = sqlx::query_as(
                    "SELECT h.horizon, c.item_id, c.seq, c.txid AS position \
                     FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS horizon) h \
                     LEFT JOIN knowledge_changes c ON c.project_id = $1 AND c.txid >= $2 \
                     ORDER BY c.seq",
                )
                .bind(project_id)
                .bind(floor)
                .fetch_all(&**pool)
                .await
                .map_err(db_error)?;
                let next_floor = rows.first().map_or(floor, |row| row.horizon.max(floor));
                let records = rows
                    .into_iter()
                    .filter_map(|row| {
                        Some(ChunkChange { item_id: row.item_id?, seq: row.seq?, position: row.position? })
                    })
                    .collect();
                Ok(ChunkChanges { records, next_floor })
            }
        }
    }

    /// The `seq` of an item's change record, if it has one. Records only ever move to a larger
    /// `seq`, so one below what a search snapshot saw means the database went back in time (a
    /// restored backup) and the snapshot describes changes it no longer has.
    pub async fn chunk_change_seq(&self, item_id: ItemId) -> Result<Option<i64>> {
        with_read_pool!(self, pool => {
            sqlx::query_scalar("SELECT seq FROM knowledge_changes WHERE item_id = $1")
                .bind(item_id)
                .fetch_optional(pool)
                .await
                .map_err(db_error)
        })
    }

    /// Up to `limit` chunks of a project with an id above `after`, in id order (a load pages
    /// through them). A heavy read: it may go to a standby that has caught up
    /// (`storage/standby.rs`); the changes a load starts from stay on the primary.
    /// Vectors of another model than `model_id` come back as `None` (a re-index is under way).
    pub async fn project_chunks(
        &self,
        project_id: ProjectId,
        model_id: &str,
        after: i64,
        limit: u32,
    ) -> Result<Vec<ChunkRecord>> {
        with_lagging_read!(self, conn => {
            sqlx::query_as(&format!(
                "SELECT {CHUNK_RECORD} WHERE c.project_id = $2 AND c.id > $3 ORDER BY c.id LIMIT $4"
            ))
            .bind(model_id)
            .bind(project_id)
            .bind(after)
            .bind(i64::from(limit))
            .fetch_all(&mut *conn)
            .await
            .map_err(db_error)
        })
    }

    /// Every chunk of the given items of a project (a catch-up reloads changed items).
    /// Vectors of another model than `model_id` come back as `None`.
    pub async fn chunks_of_items(
        &self,
        project_id: ProjectId,
        model_id: &str,
        items: &[ItemId],
    ) -> Result<Vec<ChunkRecord>> {
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
    pub async fn recently_changed_projects(&self, limit: u32) -> Result<Vec<ProjectId>> {
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
