//! What items hold and what names them: the items inside containers, deletes of several items at
//! once (a container and everything it holds), and the check, inside each deleting transaction,
//! that nothing was put into a deleted container or attached to a deleted item meanwhile.
//!
//! The rule of which item may hold which is canvas-vocabulary's (`items/containers.rs`); the
//! service applies it before writing. Here is only what must hold at commit: no item is left
//! whose parent or connector end names an item the transaction deleted.

use uuid::Uuid;

use super::comments::detach_threads;
use super::item_rows::{update_row, ITEM_COLUMNS};
use super::ItemsStore;
use crate::domain::{ItemId, ProjectId};
use crate::error::CoreError;
use crate::storage::outbox::insert_event;
use crate::storage::{db_error, DependentUpdate, ItemRow, NewEvent, Storage};

type Result<T> = std::result::Result<T, CoreError>;

/// Parents asked for per statement when listing what containers hold (well inside both
/// backends' parameter limits).
const PARENTS_PER_QUERY: usize = 256;

/// Within a write transaction that deleted the items `$deleted` (`&[ItemId]`): whether an item
/// still has one of them as its parent, or a connector not accounted for by `$handled`
/// (`Fn(ItemId) -> bool`) is still attached to one. Either was written by a transaction that
/// committed after the deleting one read its state: the caller starts over. On PostgreSQL a
/// concurrent insert into a container share-locks the container (`missing_attachment!`), so this
/// transaction's delete waited for it and this read sees its row.
macro_rules! left_behind {
    ($tx:expr, $project:expr, $deleted:expr, $attached_sql:expr, $handled:expr) => {{
        let mut found = false;
        for id in $deleted {
            let id: &$crate::domain::ItemId = id;
            let held: Option<(uuid::Uuid,)> =
                sqlx::query_as("SELECT id FROM items WHERE project_id = $1 AND parent = $2 LIMIT 1")
                    .bind($project)
                    .bind(id.to_string())
                    .fetch_optional(&mut *$tx)
                    .await
                    .map_err($crate::storage::db_error)?;
            let attached: Vec<(uuid::Uuid,)> = sqlx::query_as($attached_sql)
                .bind($project)
                .bind(id.to_string())
                .fetch_all(&mut *$tx)
                .await
                .map_err($crate::storage::db_error)?;
            if held.is_some() || attached.iter().any(|(c,)| !$handled($crate::domain::ItemId::from_uuid(*c))) {
                found = true;
                break;
            }
        }
        found
    }};
}
pub(in crate::storage) use left_behind;

impl ItemsStore {
    /// The items whose parent is one of `parents`, in creation order.
    pub async fn held_by(&self, project_id: ProjectId, parents: &[ItemId]) -> Result<Vec<ItemRow>> {
        let mut rows = Vec::new();
        for chunk in parents.chunks(PARENTS_PER_QUERY) {
            with_read_pool!(self, pool => {
                let mut query =
                    sqlx::QueryBuilder::new(format!("SELECT {ITEM_COLUMNS} FROM items WHERE project_id = "));
                query.push_bind(project_id).push(" AND parent IN (");
                let mut list = query.separated(", ");
                for parent in chunk {
                    list.push_bind(parent.to_string());
                }
                query.push(") ORDER BY id");
                rows.extend(query.build_query_as::<ItemRow>().fetch_all(pool).await.map_err(db_error)?);
            });
        }
        rows.sort_by_key(|row| row.id);
        Ok(rows)
    }

    /// Deletes items of a project and writes `events`, provided each is still at its expected
    /// version; `dependents` (connectors detached from them) are written first, each guarded by
    /// its own version. All in one transaction. Returns false, having written nothing, on a lost
    /// race: an item changed or gone, or something put into or attached to one of them meanwhile
    /// ([`left_behind!`]).
    pub async fn delete_items(
        &self,
        project_id: ProjectId,
        deletes: &[(ItemId, i64)],
        events: &[NewEvent],
        dependents: &[DependentUpdate],
    ) -> Result<bool> {
        let attached_sql = self.attached_connectors_sql();
        let handled = |c: ItemId| dependents.iter().any(|d| d.row.id == c) || deletes.iter().any(|(d, _)| *d == c);
        let deleted: Vec<ItemId> = deletes.iter().map(|(id, _)| *id).collect();
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            for dependent in dependents {
                if !update_row!(&mut *tx, &dependent.row, dependent.expected_version) {
                    return Ok(false);
                }
                insert_event!(&mut *tx, &dependent.event)?;
            }
            for (item_id, expected_version) in deletes {
                let deleted = sqlx::query("DELETE FROM items WHERE id = $1 AND project_id = $2 AND version = $3")
                    .bind(item_id)
                    .bind(project_id)
                    .bind(expected_version)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_error)?
                    .rows_affected();
                if deleted == 0 {
                    return Ok(false);
                }
            }
            if left_behind!(tx, project_id, &deleted, &attached_sql, handled) {
                return Ok(false);
            }
            for event in events {
                insert_event!(&mut *tx, event)?;
            }
            // Threads on the deleted items stay, where the items were (docs/COMMENTS.md).
            detach_threads!(tx, events);
            tx.commit().await.map_err(db_error)?;
            Ok(true)
        })
    }

    /// Items held by another item, of every project, in id order after `after`: what the repair
    /// of dangling parents walks (`service/items/repair.rs`).
    pub async fn items_held_by_items(&self, after: Option<ItemId>, limit: u32) -> Result<Vec<ItemRow>> {
        let after = after.map_or(Uuid::nil(), |id| id.uuid());
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, ItemRow>(&format!(
                "SELECT {ITEM_COLUMNS} FROM items WHERE parent NOT IN ('panel', 'inbox') AND id > $1 ORDER BY id LIMIT {limit}"
            ))
            .bind(after)
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }

    /// The summary of the data repair `name` if it ran (migration 0013's `data_repairs`).
    pub async fn repair_done(&self, name: &str) -> Result<Option<String>> {
        with_write_pool!(self, pool => {
            sqlx::query_scalar::<_, String>("SELECT summary FROM data_repairs WHERE name = $1")
                .bind(name)
                .fetch_optional(pool)
                .await
                .map_err(db_error)
        })
    }

    /// Records that the data repair `name` ran, with what it did; false if another replica
    /// recorded it first.
    pub async fn record_repair(&self, name: &str, summary: &str) -> Result<bool> {
        with_write_pool!(self, pool => {
            let done = sqlx::query(
                "INSERT INTO data_repairs (name, done_at, summary) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
            )
            .bind(name)
            .bind(chrono::Utc::now())
            .bind(summary)
            .execute(pool)
            .await
            .map_err(db_error)?
            .rows_affected();
            Ok(done == 1)
        })
    }

    /// `FOR SHARE` where the backend has row locks (PostgreSQL); SQLite's single writer already
    /// serialises write transactions.
    pub(in crate::storage) fn share_lock(&self) -> &'static str {
        match self.database() {
            Storage::Sqlite(_) => "",
            Storage::Postgres(_) => " FOR SHARE",
        }
    }

    /// Connectors of a project attached to the item `$2` (its id as text) at either end.
    pub(in crate::storage) fn attached_connectors_sql(&self) -> String {
        let end = |end: &str| match self.database() {
            Storage::Sqlite(_) => format!("json_extract(properties, '$.{end}.itemId')"),
            Storage::Postgres(_) => format!("properties->'{end}'->>'itemId'"),
        };
        format!(
            "SELECT id FROM items WHERE project_id = $1 AND item_type = 'connector' AND ({} = $2 OR {} = $2)",
            end("startPoint"),
            end("endPoint")
        )
    }
}
