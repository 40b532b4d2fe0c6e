//! Items and their change events.

use crate::domain::{ItemId, ProjectId, TagId, UserId};
use sqlx::types::Json;

use super::agent_tasks::claim_task;
use super::idempotency::mark_landed;
use super::sqlite_reads::Inline;
use super::ItemsStore;
use crate::error::CoreError;
use crate::storage::outbox::insert_event;
use crate::storage::{db_error, Attachment, DependentUpdate, ItemRow, NewEvent, Storage};

type Result<T> = std::result::Result<T, CoreError>;

pub(in crate::storage) use super::item_columns::{ITEM_BY_ID, ITEM_COLUMNS};

/// Filters and cursor of an item listing.
#[derive(Debug, Clone, Default)]
pub struct ItemFilter {
    pub item_type: Option<String>,
    pub parent: Option<String>,
    /// Only items with an id after this one (ids are time-ordered UUIDv7).
    pub after: Option<ItemId>,
    /// Only items whose `tags` hold this tag (tested by the database: a page of a tag costs a
    /// read of the project's rows, not their presentation).
    pub tag: Option<TagId>,
    pub limit: u32,
}

/// Within a write transaction: the first attachment whose item or tag no longer exists in the
/// project. On PostgreSQL the rows found are share-locked until commit, so a delete of one of them
/// waits for this write and then sees the connector attached to it (see `delete_item`) or the
/// item carrying it (see `delete_tag`).
macro_rules! missing_attachment {
    ($executor:expr, $project:expr, $attached:expr, $lock:expr) => {{
        let mut missing = None;
        for attachment in $attached {
            let (table, id) = attachment.row();
            let found = sqlx::query(&format!("SELECT id FROM {table} WHERE id = $1 AND project_id = $2{}", $lock))
                .bind(id)
                .bind($project)
                .fetch_optional(&mut *$executor)
                .await
                .map_err(db_error)?;
            if found.is_none() {
                missing = Some(*attachment);
                break;
            }
        }
        missing
    }};
}

/// Inserts `$items` (`&[ItemRow]`) within the transaction `$tx`, 64 rows per statement (11
/// parameters each, well inside both backends' parameter limits).
macro_rules! insert_rows {
    ($tx:expr, $items:expr) => {{
        let items: &[ItemRow] = $items;
        for rows in items.chunks(64) {
            let mut insert = sqlx::QueryBuilder::new(format!("INSERT INTO items ({ITEM_COLUMNS}) "));
            insert.push_values(rows, |mut values, item| {
                values
                    .push_bind(item.id)
                    .push_bind(item.project_id)
                    .push_bind(item.item_type.as_str())
                    .push_bind(item.parent.to_string())
                    .push_bind(sqlx::types::Json(&item.properties))
                    .push_bind(item.version)
                    .push_bind(item.created_by)
                    .push_bind(item.updated_by)
                    .push_bind(item.created_at)
                    .push_bind(item.updated_at)
                    .push_bind(&item.content_key);
            });
            insert.build().execute(&mut *$tx).await.map_err(db_error)?;
        }
    }};
}
/// The refusal of a write naming an item or tag deleted meanwhile.
pub(in crate::storage) fn attached_item_gone(attachment: Attachment) -> CoreError {
    CoreError::invalid(attachment.field, attachment.gone())
}

/// Writes a new version of an item if it is still at `$expected`; evaluates
/// to whether it was.
macro_rules! update_row {
    ($executor:expr, $item:expr, $expected:expr) => {{
        let item: &ItemRow = $item;
        sqlx::query(
            "UPDATE items SET properties = $3, version = $4, updated_by = $5, updated_at = $6, parent = $7 \
             WHERE id = $1 AND project_id = $2 AND version = $8",
        )
        .bind(item.id)
        .bind(item.project_id)
        .bind(sqlx::types::Json(&item.properties))
        .bind(item.version)
        .bind(item.updated_by)
        .bind(item.updated_at)
        .bind(item.parent.to_string())
        .bind($expected)
        .execute($executor)
        .await
        .map_err(db_error)?
        .rows_affected()
            == 1
    }};
}
// Shared with the diagram records' transaction (`diagram_records.rs`).
pub(in crate::storage) use {insert_rows, missing_attachment, update_row};

impl ItemsStore {
    /// Items of a project by id (any order); ids of other projects are ignored.
    pub async fn get_items(&self, project_id: ProjectId, ids: &[ItemId]) -> Result<Vec<ItemRow>> {
        let mut rows = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(row) = self.get_item(project_id, *id).await? {
                rows.push(row);
            }
        }
        Ok(rows)
    }

    /// Every connector of a project, to find those attached to an item.
    pub async fn project_connectors(&self, project_id: ProjectId) -> Result<Vec<ItemRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, ItemRow>(&format!(
                "SELECT {ITEM_COLUMNS} FROM items WHERE project_id = $1 AND item_type = 'connector' ORDER BY id"
            ))
            .bind(project_id)
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Inserts an item and its `item.created` event in one transaction; a connector's
    /// `attached` items must still exist.
    pub async fn insert_item(&self, item: &ItemRow, event: &NewEvent, attached: &[Attachment]) -> Result<()> {
        let lock = self.share_lock();
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            if let Some(gone) = missing_attachment!(tx, item.project_id, attached, lock) {
                return Err(attached_item_gone(gone));
            }
            sqlx::query(&format!("INSERT INTO items ({ITEM_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"))
                .bind(item.id)
                .bind(item.project_id)
                .bind(item.item_type.as_str())
                .bind(item.parent.to_string())
                .bind(Json(&item.properties))
                .bind(item.version)
                .bind(item.created_by)
                .bind(item.updated_by)
                .bind(item.created_at)
                .bind(item.updated_at)
                .bind(&item.content_key)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            insert_event!(&mut *tx, event)?;
            mark_landed!(tx, [item]);
            claim_task!(tx);
            tx.commit().await.map_err(db_error)?;
        });
        Ok(())
    }

    /// Inserts many items and their `item.created` events in one transaction (bulk create): all
    /// or nothing. `attached` are connector ends on items outside the batch, by batch index; each
    /// must still exist (share-locked on PostgreSQL, as for a single insert).
    pub async fn insert_items(
        &self,
        items: &[ItemRow],
        events: &[NewEvent],
        attached: &[(usize, Attachment)],
    ) -> Result<()> {
        let lock = self.share_lock();
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            for (index, attachment) in attached {
                if let Some(gone) = missing_attachment!(tx, items[*index].project_id, [attachment], lock) {
                    let field = match gone.field {
                        "parent" => format!("items[{index}].parent"),
                        end => format!("items[{index}].properties.{end}"),
                    };
                    return Err(CoreError::invalid(field, gone.gone()));
                }
            }
            insert_rows!(tx, items);
            for event in events {
                insert_event!(&mut *tx, event)?;
            }
            mark_landed!(tx, items.iter());
            claim_task!(tx);
            tx.commit().await.map_err(db_error)?;
        });
        Ok(())
    }

    /// The item, read on SQLite on this thread when it can be (`sqlite_reads.rs`), else through
    /// the pool.
    pub async fn get_item(&self, project_id: ProjectId, item_id: ItemId) -> Result<Option<ItemRow>> {
        let inline = match self.database() {
            Storage::Sqlite(store) => store.inline.item(project_id, item_id),
            Storage::Postgres(store) => store.reads.item(project_id, item_id).await,
        };
        if let Inline::Answered(row) = inline {
            return Ok(row);
        }
        self.get_item_pooled(project_id, item_id).await
    }

    /// The item, read through the pool on either backend.
    pub(in crate::storage) async fn get_item_pooled(
        &self,
        project_id: ProjectId,
        item_id: ItemId,
    ) -> Result<Option<ItemRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, ItemRow>(&ITEM_BY_ID)
                .bind(item_id)
                .bind(project_id)
                .fetch_optional(pool)
                .await
                .map_err(db_error)
        })
    }

    /// The item, provided `user_id` is a member of its project.
    pub async fn find_item_for_user(&self, item_id: ItemId, user_id: UserId) -> Result<Option<ItemRow>> {
        let columns = ITEM_COLUMNS.split(", ").map(|c| format!("i.{c}")).collect::<Vec<_>>().join(", ");
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, ItemRow>(&format!(
                "SELECT {columns} FROM items i JOIN memberships m ON m.project_id = i.project_id \
                 WHERE i.id = $1 AND m.user_id = $2"
            ))
            .bind(item_id)
            .bind(user_id)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Writes a new version of an item and its `item.updated` event, provided
    /// nobody changed the item since `expected_version` was read, with the `dependents` that go
    /// with it (what a moving frame holds), each at its own expected version. Returns false on
    /// such a race; the caller reads again and retries.
    pub async fn update_item(
        &self,
        item: &ItemRow,
        expected_version: i64,
        event: &NewEvent,
        attached: &[Attachment],
        dependents: &[DependentUpdate],
    ) -> Result<bool> {
        let lock = self.share_lock();
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            if let Some(gone) = missing_attachment!(tx, item.project_id, attached, lock) {
                return Err(attached_item_gone(gone));
            }
            if !update_row!(&mut *tx, item, expected_version) {
                return Ok(false);
            }
            insert_event!(&mut *tx, event)?;
            for dependent in dependents {
                if !update_row!(&mut *tx, &dependent.row, dependent.expected_version) {
                    return Ok(false);
                }
                insert_event!(&mut *tx, &dependent.event)?;
            }
            tx.commit().await.map_err(db_error)?;
            Ok(true)
        })
    }

    /// Writes new versions of many items and their events in one transaction (an arrangement):
    /// all, or none when any of them is no longer at its expected version (returns false).
    pub async fn update_items(&self, changes: &[(ItemRow, i64)], events: &[NewEvent]) -> Result<bool> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            for (item, expected_version) in changes {
                if !update_row!(&mut *tx, item, *expected_version) {
                    return Ok(false);
                }
            }
            for event in events {
                insert_event!(&mut *tx, event)?;
            }
            tx.commit().await.map_err(db_error)?;
            Ok(true)
        })
    }

    /// A page of a project's items in creation order. A heavy read: it may go to a standby that
    /// has caught up (`storage/standby.rs`).
    pub async fn list_items(&self, project_id: ProjectId, filter: &ItemFilter) -> Result<Vec<ItemRow>> {
        let postgres = matches!(self.database(), Storage::Postgres(_));
        with_lagging_read!(self, conn => {
            let mut sql = format!("SELECT {ITEM_COLUMNS} FROM items WHERE project_id = $1");
            let mut n = 1;
            let mut next = |clause: &str| {
                n += 1;
                format!(" AND {clause} ${n}")
            };
            if filter.item_type.is_some() {
                sql += &next("item_type =");
            }
            if filter.parent.is_some() {
                sql += &next("parent =");
            }
            if filter.after.is_some() {
                sql += &next("id >");
            }
            if filter.tag.is_some() {
                n += 1;
                sql += &match postgres {
                    true => format!(" AND properties->'tags' ? ${n}"),
                    false => format!(" AND EXISTS (SELECT 1 FROM json_each(items.properties, '$.tags') t WHERE t.value = ${n})"),
                };
            }
            sql += &format!(" ORDER BY id LIMIT {}", filter.limit);
            let mut query = sqlx::query_as::<_, ItemRow>(&sql).bind(project_id);
            if let Some(item_type) = &filter.item_type {
                query = query.bind(item_type);
            }
            if let Some(parent) = &filter.parent {
                query = query.bind(parent);
            }
            if let Some(after) = filter.after {
                query = query.bind(after);
            }
            if let Some(tag) = filter.tag {
                query = query.bind(tag.to_string());
            }
            query.fetch_all(&mut *conn).await.map_err(db_error)
        })
    }
}

/// The records a follower of the map reads: not the operational ones (`EventKind::is_operational`,
/// about the project's webhooks, for Managers' webhooks only), which share the outbox so that
/// their deliveries are written in the transaction that records the failure.
const MAP_KINDS: &str = "kind NOT LIKE 'webhook.%'";

impl ItemsStore {
    /// Outbox records of a project after `after_seq`, oldest first: what
    /// consumers (webhooks, the knowledge index) read.
    /// Where a follower starting now begins: every record at or above this position is one it
    /// must still be shown. SQLite: past the last seq (its single writer commits in seq order).
    /// PostgreSQL: the `xmin` of a snapshot taken now (migration 0009): a transaction still
    /// running has an id at or above it.
    pub async fn event_horizon(&self) -> Result<i64> {
        let sql = match self.database() {
            Storage::Sqlite(_) => "SELECT COALESCE(MAX(seq), 0) + 1 FROM events",
            Storage::Postgres(_) => "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint",
        };
        with_read_pool!(self, pool => {
            sqlx::query_scalar::<_, i64>(sql).fetch_one(pool).await.map_err(db_error)
        })
    }

    /// A project's records at or above `floor` (seq on SQLite, writing transaction on
    /// PostgreSQL), oldest seq first, each with its position, and the floor the next read starts
    /// from. The horizon is read before the rows: every transaction below it had ended then, so
    /// its records are in this read or never will be, and only the records of transactions still
    /// in flight are read again.
    pub async fn project_event_changes(&self, project_id: ProjectId, floor: i64) -> Result<EventChanges> {
        let horizon = match self.database() {
            Storage::Sqlite(_) => None,
            Storage::Postgres(_) => Some(self.event_horizon().await?),
        };
        let position = self.event_position_column();
        let rows = with_read_pool!(self, pool => {
            sqlx::query_as::<_, PositionedEvent>(&format!(
                "SELECT seq, id, project_id, kind, subject_id, subject_type, actor_user_id, occurred_at, payload, \
                 {position} AS position FROM events WHERE project_id = $1 AND {position} >= $2 AND {MAP_KINDS} ORDER BY seq"
            ))
            .bind(project_id)
            .bind(floor)
            .fetch_all(pool)
            .await
            .map_err(db_error)?
        });
        let next_floor = match horizon {
            Some(horizon) => horizon.max(floor),
            None => rows.last().map_or(floor, |row| row.position + 1),
        };
        Ok(EventChanges { records: rows.into_iter().map(|row| (row.event, row.position)).collect(), next_floor })
    }

    /// Up to `limit` records of a project with a seq above `after_seq`, oldest first, each with its
    /// position (as in [`Self::project_event_changes`]): a follower resuming from a seq.
    pub async fn project_events_after(
        &self,
        project_id: ProjectId,
        after_seq: i64,
        limit: u32,
    ) -> Result<Vec<(crate::storage::EventRow, i64)>> {
        let position = self.event_position_column();
        let rows = with_read_pool!(self, pool => {
            sqlx::query_as::<_, PositionedEvent>(&format!(
                "SELECT seq, id, project_id, kind, subject_id, subject_type, actor_user_id, occurred_at, payload, \
                 {position} AS position FROM events WHERE project_id = $1 AND seq > $2 AND {MAP_KINDS} ORDER BY seq LIMIT $3"
            ))
            .bind(project_id)
            .bind(after_seq)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await
            .map_err(db_error)?
        });
        Ok(rows.into_iter().map(|row| (row.event, row.position)).collect())
    }

    /// The highest seq of a project's records (0 for none): where a client resumes from.
    pub async fn project_last_seq(&self, project_id: ProjectId) -> Result<i64> {
        with_read_pool!(self, pool => {
            sqlx::query_scalar::<_, i64>("SELECT COALESCE(MAX(seq), 0) FROM events WHERE project_id = $1")
                .bind(project_id)
                .fetch_one(pool)
                .await
                .map_err(db_error)
        })
    }

    /// The column that orders a follower's reads: `seq` on SQLite, `txid` on PostgreSQL.
    fn event_position_column(&self) -> &'static str {
        match self.database() {
            Storage::Sqlite(_) => "seq",
            Storage::Postgres(_) => "txid",
        }
    }

    pub async fn project_events(
        &self,
        project_id: ProjectId,
        after_seq: i64,
        limit: u32,
    ) -> Result<Vec<crate::storage::EventRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, crate::storage::EventRow>(&format!(
                "SELECT seq, id, project_id, kind, subject_id, subject_type, actor_user_id, occurred_at, payload \
                 FROM events WHERE project_id = $1 AND seq > $2 AND {MAP_KINDS} ORDER BY seq LIMIT $3",
            ))
            .bind(project_id)
            .bind(after_seq)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }
}

/// An event with its position in the follower's order (seq, or writing transaction).
#[derive(sqlx::FromRow)]
struct PositionedEvent {
    #[sqlx(flatten)]
    event: crate::storage::EventRow,
    position: i64,
}

/// What [`Storage::project_event_changes`] read.
#[derive(Debug)]
pub struct EventChanges {
    /// Each record with its position, oldest seq first.
    pub records: Vec<(crate::storage::EventRow, i64)>,
    /// Where the next read starts.
    pub next_floor: i64,
}

#[cfg(test)]
mod map_kinds_tests {
    use super::MAP_KINDS;
    use crate::domain::EventKind;
    use canvas_vocabulary::limits::webhooks::OPERATIONAL_PREFIX;

    #[test]
    fn the_map_filter_leaves_out_exactly_the_operational_kinds() {
        assert_eq!(MAP_KINDS, format!("kind NOT LIKE '{OPERATIONAL_PREFIX}%'"));
        for kind in EventKind::ALL {
            assert_eq!(kind.as_str().starts_with(OPERATIONAL_PREFIX), kind.is_operational(), "{kind}");
        }
    }
}
