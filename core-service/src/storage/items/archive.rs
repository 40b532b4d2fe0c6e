//! A project as a file (docs/ARCHIVE.md): the project's items and diagram records read in one
//! snapshot for an export (with its tags and comment threads), and an import's items, events,
//! records, tags and threads written in one transaction.

use sqlx::types::Json;

use super::comment_writes::{insert_comment_rows, insert_thread_rows};
use super::comments::{COMMENT_COLUMNS_TEXT, THREAD_COLUMNS_TEXT};
use super::item_rows::{insert_rows, ITEM_COLUMNS};
use super::tags::insert_tag_rows;
use super::ItemsStore;
use crate::domain::ProjectId;
use crate::error::CoreError;
use crate::storage::outbox::insert_event;
use crate::storage::{db_error, CommentRow, DiagramRow, ElementRow, ItemRow, NewEvent, Storage, TagRow, ThreadRow};

type Result<T> = std::result::Result<T, CoreError>;

// The columns of `diagrams` and `diagram_elements` (migration 0011), as `diagram_records.rs`
// reads and writes them.
const DIAGRAM_COLUMNS: &str = "id, project_id, kind, format, source, origin_x, origin_y, version, created_by, \
     updated_by, created_at, updated_at";
const ELEMENT_COLUMNS: &str = "diagram_id, element, part, item_id, item_type, ordinal, planned";

/// Rows per multi-row insert: well inside both backends' parameter limits (12 and 7 each).
const ROWS_PER_INSERT: usize = 64;

/// A project as one moment saw it: items, diagram records and element rows, tags, comment
/// threads and their comments.
#[derive(Debug, Default)]
pub struct ProjectSnapshot {
    pub items: Vec<ItemRow>,
    pub diagrams: Vec<DiagramRow>,
    pub elements: Vec<ElementRow>,
    pub tags: Vec<TagRow>,
    pub threads: Vec<ThreadRow>,
    /// Every thread's comments, by thread and in the order they were written.
    pub comments: Vec<CommentRow>,
}

/// What an import writes besides its items: comment threads and their comments.
#[derive(Debug, Default)]
pub struct ArchivedThreads {
    pub threads: Vec<ThreadRow>,
    pub comments: Vec<CommentRow>,
}

impl ItemsStore {
    /// Every item (in creation order), diagram record, element row and tag of a project, read in one
    /// read-only transaction: a snapshot, so no connector or parent of the export names an item
    /// deleted between two reads (PostgreSQL: repeatable read; SQLite: one read transaction). A
    /// heavy read: it may go to a standby that has caught up (`storage/standby.rs`).
    pub async fn project_snapshot(&self, project_id: ProjectId) -> Result<ProjectSnapshot> {
        let items_sql = format!("SELECT {ITEM_COLUMNS} FROM items WHERE project_id = $1 ORDER BY id");
        let tags_sql = "SELECT id, project_id, name, color, version, created_by, updated_by, created_at, updated_at \
             FROM tags WHERE project_id = $1 ORDER BY name_key, id";
        let diagrams_sql = format!("SELECT {DIAGRAM_COLUMNS} FROM diagrams WHERE project_id = $1 ORDER BY id");
        let elements_sql = "SELECT e.diagram_id, e.element, e.part, e.item_id, e.item_type, e.ordinal, e.planned \
             FROM diagram_elements e JOIN diagrams d ON d.id = e.diagram_id \
             WHERE d.project_id = $1 ORDER BY e.diagram_id, e.ordinal";
        let threads_sql =
            format!("SELECT {THREAD_COLUMNS_TEXT} FROM comment_threads WHERE project_id = $1 ORDER BY id");
        // By the project's threads, so the read follows the threads' and comments' indexes.
        let comments_sql = format!(
            "SELECT {COMMENT_COLUMNS_TEXT} FROM comments \
             WHERE thread_id IN (SELECT id FROM comment_threads WHERE project_id = $1) ORDER BY thread_id, id"
        );
        let postgres = matches!(self.database(), Storage::Postgres(_));
        with_lagging_read!(self, conn => {
            let mut tx = sqlx::Connection::begin(&mut *conn).await.map_err(db_error)?;
            if postgres {
                sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    .execute(&mut *tx)
                    .await
                    .map_err(db_error)?;
            }
            let items = sqlx::query_as::<_, ItemRow>(&items_sql)
                .bind(project_id)
                .fetch_all(&mut *tx)
                .await
                .map_err(db_error)?;
            let diagrams = sqlx::query_as::<_, DiagramRow>(&diagrams_sql)
                .bind(project_id)
                .fetch_all(&mut *tx)
                .await
                .map_err(db_error)?;
            let elements = sqlx::query_as::<_, ElementRow>(elements_sql)
                .bind(project_id)
                .fetch_all(&mut *tx)
                .await
                .map_err(db_error)?;
            let tags = sqlx::query_as::<_, TagRow>(tags_sql)
                .bind(project_id)
                .fetch_all(&mut *tx)
                .await
                .map_err(db_error)?;
            let threads = sqlx::query_as::<_, ThreadRow>(&threads_sql)
                .bind(project_id)
                .fetch_all(&mut *tx)
                .await
                .map_err(db_error)?;
            let comments = sqlx::query_as::<_, CommentRow>(&comments_sql)
                .bind(project_id)
                .fetch_all(&mut *tx)
                .await
                .map_err(db_error)?;
            tx.rollback().await.map_err(db_error)?;
            Ok(ProjectSnapshot { items, diagrams, elements, tags, threads, comments })
        })
    }

    /// Writes an imported project's tags, items, comment threads, their events (`item.created`,
    /// `comment.created`), its diagram records and their element maps in one transaction: all of
    /// them, or nothing. Every reference among
    /// them was checked before (they name only each other), so nothing outside is re-read.
    pub async fn insert_archive(
        &self,
        items: &[ItemRow],
        events: &[NewEvent],
        diagrams: &[DiagramRow],
        elements: &[ElementRow],
        tags: &[TagRow],
        threads: &ArchivedThreads,
    ) -> Result<()> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            insert_tag_rows!(tx, tags);
            insert_rows!(tx, items);
            insert_thread_rows!(tx, &threads.threads);
            insert_comment_rows!(tx, &threads.comments);
            for event in events {
                insert_event!(&mut *tx, event)?;
            }
            for rows in diagrams.chunks(ROWS_PER_INSERT) {
                let mut insert = sqlx::QueryBuilder::new(format!("INSERT INTO diagrams ({DIAGRAM_COLUMNS}) "));
                insert.push_values(rows, |mut values, row| {
                    values
                        .push_bind(row.id)
                        .push_bind(row.project_id)
                        .push_bind(&row.kind)
                        .push_bind(&row.format)
                        .push_bind(&row.source)
                        .push_bind(row.origin_x)
                        .push_bind(row.origin_y)
                        .push_bind(row.version)
                        .push_bind(row.created_by)
                        .push_bind(row.updated_by)
                        .push_bind(row.created_at)
                        .push_bind(row.updated_at);
                });
                insert.build().execute(&mut *tx).await.map_err(db_error)?;
            }
            for rows in elements.chunks(ROWS_PER_INSERT) {
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
            tx.commit().await.map_err(db_error)?;
        });
        Ok(())
    }
}
