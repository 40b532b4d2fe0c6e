//! Diagram records: the source of a diagram created from text and its element map (which item
//! draws which Mermaid element), written in the same transaction as the items they describe.

use crate::domain::{DiagramId, ItemId, ProjectId, UserId};
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;
use uuid::Uuid;

use super::agent_tasks::claim_task;
use super::comments::detach_threads;
use super::containment::left_behind;
use super::idempotency::{mark_landed_as, Landed, LandedDiagram};
use super::item_rows::{attached_item_gone, insert_rows, missing_attachment, update_row, ITEM_COLUMNS};
use super::ItemsStore;
use crate::error::CoreError;
use crate::storage::outbox::insert_event;
use crate::storage::{db_error, Attachment, ItemRow, NewEvent};

type Result<T> = std::result::Result<T, CoreError>;

const DIAGRAM_COLUMNS: &str = "id, project_id, kind, format, source, origin_x, origin_y, version, created_by, \
     updated_by, created_at, updated_at";
const ELEMENT_COLUMNS: &str = "diagram_id, element, part, item_id, item_type, ordinal, planned";

/// A diagram record.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DiagramRow {
    pub id: DiagramId,
    pub project_id: ProjectId,
    /// `flowchart`, `mindmap` or `sequence`.
    pub kind: String,
    /// `mermaid`.
    pub format: String,
    /// The source as last written.
    pub source: String,
    /// Where the layout's top-left corner was put.
    pub origin_x: f64,
    pub origin_y: f64,
    pub version: i64,
    pub created_by: UserId,
    pub updated_by: UserId,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// One row of a diagram's element map.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ElementRow {
    pub diagram_id: DiagramId,
    /// `node:A`, `edge:A->B#0`, … (`canvas_diagram::elements`).
    pub element: String,
    /// `shape`, `label`, `title`, `connector` or `note`.
    pub part: String,
    pub item_id: ItemId,
    pub item_type: String,
    /// Creation order within the diagram.
    pub ordinal: i64,
    /// The properties the diagram last wrote, item ids resolved.
    #[sqlx(json)]
    pub planned: Value,
}

/// What happens to the record itself in a [`DiagramWrite`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordChange {
    /// A new record.
    Insert,
    /// A new version of the record, provided it is still at this version.
    Update(i64),
    /// The record goes (its element map with it), provided it is still at this version.
    Delete(i64),
}

/// Everything one diagram write changes, committed in one transaction or not at all.
#[derive(Debug)]
pub struct DiagramWrite<'a> {
    pub record: &'a DiagramRow,
    pub change: RecordChange,
    /// New items.
    pub inserts: &'a [ItemRow],
    /// Items the written connectors attach to that are not among `inserts`: each must still exist.
    pub attached: &'a [Attachment],
    /// New versions of existing items, each guarded by the version it was read at.
    pub updates: &'a [(ItemRow, i64)],
    /// Items deleted (id, version read).
    pub deletes: &'a [(Uuid, i64)],
    /// Every change's event.
    pub events: &'a [NewEvent],
    /// The element map after the write (replaces the stored one; ignored by a delete).
    pub elements: &'a [ElementRow],
    /// What a create's answer names, recorded in the transaction when an idempotent call runs it
    /// (`idempotency.rs`): a retry after a lost answer answers from it.
    pub landed: Option<&'a LandedDiagram>,
}

impl ItemsStore {
    /// Writes a diagram change in one transaction. Returns false, having written nothing, when
    /// the record or any item moved on since it was read, or a connector not among the updates was
    /// attached to a deleted item meanwhile: the caller reads again and retries.
    pub async fn write_diagram(&self, write: &DiagramWrite<'_>) -> Result<bool> {
        let lock = self.share_lock();
        let attached_sql = self.attached_connectors_sql();
        let record = write.record;
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let record_written = match write.change {
                RecordChange::Insert => {
                    sqlx::query(&format!(
                        "INSERT INTO diagrams ({DIAGRAM_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
                    ))
                    .bind(record.id)
                    .bind(record.project_id)
                    .bind(&record.kind)
                    .bind(&record.format)
                    .bind(&record.source)
                    .bind(record.origin_x)
                    .bind(record.origin_y)
                    .bind(record.version)
                    .bind(record.created_by)
                    .bind(record.updated_by)
                    .bind(record.created_at)
                    .bind(record.updated_at)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_error)?;
                    true
                }
                RecordChange::Update(expected) => {
                    sqlx::query(
                        "UPDATE diagrams SET kind = $3, source = $4, version = $5, updated_by = $6, updated_at = $7 \
                         WHERE id = $1 AND project_id = $2 AND version = $8",
                    )
                    .bind(record.id)
                    .bind(record.project_id)
                    .bind(&record.kind)
                    .bind(&record.source)
                    .bind(record.version)
                    .bind(record.updated_by)
                    .bind(record.updated_at)
                    .bind(expected)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_error)?
                    .rows_affected()
                        == 1
                }
                RecordChange::Delete(expected) => {
                    sqlx::query("DELETE FROM diagrams WHERE id = $1 AND project_id = $2 AND version = $3")
                        .bind(record.id)
                        .bind(record.project_id)
                        .bind(expected)
                        .execute(&mut *tx)
                        .await
                        .map_err(db_error)?
                        .rows_affected()
                        == 1
                }
            };
            if !record_written {
                return Ok(false);
            }
            if let Some(gone) = missing_attachment!(tx, record.project_id, write.attached, lock) {
                return Err(attached_item_gone(gone));
            }
            for (item, expected_version) in write.updates {
                if !update_row!(&mut *tx, item, *expected_version) {
                    return Ok(false);
                }
            }
            for (id, expected_version) in write.deletes {
                let deleted = sqlx::query("DELETE FROM items WHERE id = $1 AND project_id = $2 AND version = $3")
                    .bind(id)
                    .bind(record.project_id)
                    .bind(expected_version)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_error)?
                    .rows_affected();
                if deleted == 0 {
                    return Ok(false);
                }
            }
            // Something put into a deleted container, or a connector attached to a deleted item,
            // after the write was planned (its write committed in between) would be left pointing
            // at nothing: start over instead.
            let deleted: Vec<ItemId> = write.deletes.iter().map(|(id, _)| ItemId::from_uuid(*id)).collect();
            let handled = |c: ItemId| {
                write.updates.iter().any(|(row, _)| row.id == c) || deleted.contains(&c)
            };
            if left_behind!(tx, record.project_id, &deleted, &attached_sql, handled) {
                return Ok(false);
            }
            insert_rows!(tx, write.inserts);
            for event in write.events {
                insert_event!(&mut *tx, event)?;
            }
            // Threads on the items deleted stay, where the items were (docs/COMMENTS.md).
            detach_threads!(tx, write.events);
            if write.change != RecordChange::Insert {
                sqlx::query("DELETE FROM diagram_elements WHERE diagram_id = $1")
                    .bind(record.id)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_error)?;
            }
            if !matches!(write.change, RecordChange::Delete(_)) {
                for rows in write.elements.chunks(64) {
                    let mut insert = sqlx::QueryBuilder::new(format!("INSERT INTO diagram_elements ({ELEMENT_COLUMNS}) "));
                    insert.push_values(rows, |mut values, row| {
                        values
                            .push_bind(row.diagram_id)
                            .push_bind(&row.element)
                            .push_bind(&row.part)
                            .push_bind(row.item_id)
                            .push_bind(&row.item_type)
                            .push_bind(row.ordinal)
                            .push_bind(Json(&row.planned));
                    });
                    insert.build().execute(&mut *tx).await.map_err(db_error)?;
                }
            }
            if let Some(landed) = write.landed {
                mark_landed_as!(tx, || Landed::Diagram(landed.clone()));
            }
            claim_task!(tx);
            tx.commit().await.map_err(db_error)?;
            Ok(true)
        })
    }

    /// A project's diagram record.
    pub async fn get_diagram(&self, project_id: ProjectId, diagram_id: DiagramId) -> Result<Option<DiagramRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, DiagramRow>(&format!(
                "SELECT {DIAGRAM_COLUMNS} FROM diagrams WHERE id = $1 AND project_id = $2"
            ))
            .bind(diagram_id)
            .bind(project_id)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }

    /// A page of a project's diagram records in creation order, after `after`.
    pub async fn list_diagrams(
        &self,
        project_id: ProjectId,
        after: Option<Uuid>,
        limit: u32,
    ) -> Result<Vec<DiagramRow>> {
        let after_clause = if after.is_some() { " AND id > $2" } else { "" };
        let sql = format!(
            "SELECT {DIAGRAM_COLUMNS} FROM diagrams WHERE project_id = $1{after_clause} ORDER BY id LIMIT {limit}"
        );
        with_read_pool!(self, pool => {
            let mut query = sqlx::query_as::<_, DiagramRow>(&sql).bind(project_id);
            if let Some(after) = after {
                query = query.bind(after);
            }
            query.fetch_all(pool).await.map_err(db_error)
        })
    }

    /// A diagram's element map in creation order.
    pub async fn diagram_elements(&self, diagram_id: DiagramId) -> Result<Vec<ElementRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, ElementRow>(&format!(
                "SELECT {ELEMENT_COLUMNS} FROM diagram_elements WHERE diagram_id = $1 ORDER BY ordinal"
            ))
            .bind(diagram_id)
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }

    /// The items of a diagram's element map that still exist, in one read.
    pub async fn diagram_items(&self, project_id: ProjectId, diagram_id: DiagramId) -> Result<Vec<ItemRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, ItemRow>(&format!(
                "SELECT {ITEM_COLUMNS} FROM items WHERE project_id = $1 AND id IN \
                 (SELECT item_id FROM diagram_elements WHERE diagram_id = $2) ORDER BY id"
            ))
            .bind(project_id)
            .bind(diagram_id)
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }
}
