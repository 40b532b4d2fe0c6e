//! Every write of a comment thread, each with its `comment.*` events in its own transaction. A
//! write first locks its thread's row (PostgreSQL `FOR NO KEY UPDATE`; SQLite's one writer already
//! serialises them), so concurrent replies to one thread count its replies one after another and
//! never pass the bound together, and the thread's version rises once per change.

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use super::comments::{comment_event, event_time, CommentRefusal, CommentRow, ThreadRow};
use super::ItemsStore;
use crate::domain::{CommentId, EventKind, ProjectId, ThreadId, UserId};
use crate::error::CoreError;
use crate::storage::outbox::insert_event;
use crate::storage::{db_error, Storage};

type Result<T> = std::result::Result<T, CoreError>;
type Refusable<T> = Result<std::result::Result<T, CommentRefusal>>;

const THREAD_COLUMNS: &str = super::comments::THREAD_COLUMNS_TEXT;

/// A comment as its events carry it (`new` of a create, `old` of a delete); a thread's first
/// comment also says where the thread is and whether it is resolved.
pub fn comment_fields(thread: Option<&ThreadRow>, comment: &CommentRow) -> Value {
    let mut fields = json!({
        "text": comment.text,
        "mentions": comment.mentions.0.iter().map(|id| id.to_string()).collect::<Vec<_>>(),
        "authorUserId": comment.author_user_id.to_string(),
        "createdAt": event_time(comment.created_at),
        "editedAt": comment.edited_at.map(event_time),
    });
    if let Some(thread) = thread {
        fields["itemId"] = json!(thread.item_id.map(|id| id.to_string()));
        fields["formerItemId"] = json!(thread.former_item_id.map(|id| id.to_string()));
        fields["position"] = match (thread.x, thread.y) {
            (Some(x), Some(y)) => json!({"x": x, "y": y}),
            _ => Value::Null,
        };
        fields["resolved"] = json!(thread.resolved_at.is_some());
    }
    fields
}

/// Within a write transaction: the thread, locked for this write; None when it is not in the
/// project (deleted meanwhile).
macro_rules! locked_thread {
    ($store:expr, $tx:expr, $project:expr, $thread:expr) => {{
        let lock = match $store.database() {
            Storage::Sqlite(_) => "",
            Storage::Postgres(_) => " FOR NO KEY UPDATE",
        };
        sqlx::query_as::<_, ThreadRow>(&format!(
            "SELECT {THREAD_COLUMNS} FROM comment_threads WHERE id = $1 AND project_id = $2{lock}"
        ))
        .bind($thread)
        .bind($project)
        .fetch_optional(&mut *$tx)
        .await
        .map_err(db_error)?
    }};
}

/// Within a write transaction: the thread at its next version, changed at `$at`.
macro_rules! bump_thread {
    ($tx:expr, $thread:expr, $at:expr) => {{
        let thread: &ThreadRow = $thread;
        sqlx::query("UPDATE comment_threads SET version = version + 1, updated_at = $2 WHERE id = $1")
            .bind(thread.id)
            .bind($at)
            .execute(&mut *$tx)
            .await
            .map_err(db_error)?;
    }};
}

/// Inserts `$threads` (`&[ThreadRow]`, of a new project: an import's) within `$tx`, 64 rows per
/// statement (12 parameters each).
macro_rules! insert_thread_rows {
    ($tx:expr, $threads:expr) => {{
        let threads: &[$crate::storage::ThreadRow] = $threads;
        for rows in threads.chunks(64) {
            let mut insert = sqlx::QueryBuilder::new(format!(
                "INSERT INTO comment_threads ({}) ",
                $crate::storage::items::comments::THREAD_COLUMNS_TEXT
            ));
            insert.push_values(rows, |mut values, thread| {
                values
                    .push_bind(thread.id)
                    .push_bind(thread.project_id)
                    .push_bind(thread.item_id)
                    .push_bind(thread.former_item_id)
                    .push_bind(thread.x)
                    .push_bind(thread.y)
                    .push_bind(thread.resolved_at)
                    .push_bind(thread.resolved_by)
                    .push_bind(thread.version)
                    .push_bind(thread.created_by)
                    .push_bind(thread.created_at)
                    .push_bind(thread.updated_at);
            });
            insert.build().execute(&mut *$tx).await.map_err($crate::storage::db_error)?;
        }
    }};
}
pub(in crate::storage) use insert_thread_rows;

/// Inserts `$comments` (`&[CommentRow]`, of threads inserted before) within `$tx`, 64 rows per
/// statement (9 parameters each).
macro_rules! insert_comment_rows {
    ($tx:expr, $comments:expr) => {{
        let comments: &[$crate::storage::CommentRow] = $comments;
        for rows in comments.chunks(64) {
            let mut insert = sqlx::QueryBuilder::new(format!(
                "INSERT INTO comments ({}) ",
                $crate::storage::items::comments::COMMENT_COLUMNS_TEXT
            ));
            insert.push_values(rows, |mut values, comment| {
                values
                    .push_bind(comment.id)
                    .push_bind(comment.thread_id)
                    .push_bind(comment.project_id)
                    .push_bind(comment.author_user_id)
                    .push_bind(&comment.text)
                    .push_bind(comment.mentions_stored())
                    .push_bind(comment.created_at)
                    .push_bind(comment.updated_at)
                    .push_bind(comment.edited_at);
            });
            insert.build().execute(&mut *$tx).await.map_err($crate::storage::db_error)?;
        }
    }};
}
pub(in crate::storage) use insert_comment_rows;

impl ItemsStore {
    /// Opens a thread with its first comment, unless the project holds `most` threads already or
    /// the thread's item is gone (checked in the transaction; on PostgreSQL the item is
    /// key-share-locked, so its delete waits for this write and then detaches the thread).
    pub async fn insert_thread(&self, thread: &ThreadRow, opening: &CommentRow, most: usize) -> Refusable<()> {
        let (project_lock, item_lock) = match self.database() {
            Storage::Sqlite(_) => ("", ""),
            Storage::Postgres(_) => (" FOR NO KEY UPDATE", " FOR KEY SHARE"),
        };
        let event = comment_event(
            EventKind::CommentCreated,
            opening.author_user_id,
            thread,
            opening.id,
            Some(comment_fields(Some(thread), opening)),
            None,
            thread.created_at,
        );
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            // The count and the insert must not race another create's: the project row is locked.
            sqlx::query(&format!("SELECT id FROM projects WHERE id = $1{project_lock}"))
                .bind(thread.project_id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_error)?;
            let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM comment_threads WHERE project_id = $1")
                .bind(thread.project_id)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_error)?;
            if count >= most as i64 {
                return Ok(Err(CommentRefusal::TooManyThreads));
            }
            if let Some(item) = thread.item_id {
                let found = sqlx::query(&format!("SELECT id FROM items WHERE id = $1 AND project_id = $2{item_lock}"))
                    .bind(item)
                    .bind(thread.project_id)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db_error)?;
                if found.is_none() {
                    return Ok(Err(CommentRefusal::ItemGone));
                }
            }
            insert_thread_rows!(tx, std::slice::from_ref(thread));
            insert_comment_rows!(tx, std::slice::from_ref(opening));
            insert_event!(&mut *tx, &event)?;
            // The item's foreign key is checked here (deferred): a delete that slipped past the
            // check above is the same refusal.
            return match tx.commit().await {
                Ok(()) => Ok(Ok(())),
                Err(err) if is_foreign_key(&err) => Ok(Err(CommentRefusal::ItemGone)),
                Err(err) => Err(db_error(err)),
            };
        })
    }

    /// Adds a reply unless the thread holds `most` replies already. Answers the thread as it was.
    pub async fn insert_reply(&self, reply: &CommentRow, most: usize) -> Refusable<ThreadRow> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let Some(thread) = locked_thread!(self, tx, reply.project_id, reply.thread_id) else {
                return Ok(Err(CommentRefusal::Missing));
            };
            let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM comments WHERE thread_id = $1 AND id <> $1")
                .bind(thread.id)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_error)?;
            if count >= most as i64 {
                return Ok(Err(CommentRefusal::TooManyReplies));
            }
            insert_comment_rows!(tx, std::slice::from_ref(reply));
            bump_thread!(tx, &thread, reply.created_at);
            let new = comment_fields(None, reply);
            let event =
                comment_event(EventKind::CommentCreated, reply.author_user_id, &thread, reply.id, Some(new), None, reply.created_at);
            insert_event!(&mut *tx, &event)?;
            tx.commit().await.map_err(db_error)?;
            Ok(Ok(thread))
        })
    }

    /// Writes a comment's new text and mentions (its author's edit), with `comment.updated`.
    pub async fn update_comment_text(&self, comment: &CommentRow, before: &CommentRow, actor: UserId) -> Refusable<()> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let Some(thread) = locked_thread!(self, tx, comment.project_id, comment.thread_id) else {
                return Ok(Err(CommentRefusal::Missing));
            };
            let updated = sqlx::query(
                "UPDATE comments SET text = $3, mentions = $4, updated_at = $5, edited_at = $6 WHERE id = $1 AND thread_id = $2",
            )
            .bind(comment.id)
            .bind(comment.thread_id)
            .bind(&comment.text)
            .bind(comment.mentions_stored())
            .bind(comment.updated_at)
            .bind(comment.edited_at)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?
            .rows_affected();
            if updated != 1 {
                return Ok(Err(CommentRefusal::Missing));
            }
            bump_thread!(tx, &thread, comment.updated_at);
            let fields = |c: &CommentRow| {
                let all = comment_fields(None, c);
                json!({"text": all["text"], "mentions": all["mentions"], "editedAt": all["editedAt"]})
            };
            let event = comment_event(
                EventKind::CommentUpdated,
                actor,
                &thread,
                comment.id,
                Some(fields(comment)),
                Some(fields(before)),
                comment.updated_at,
            );
            insert_event!(&mut *tx, &event)?;
            tx.commit().await.map_err(db_error)?;
            Ok(Ok(()))
        })
    }

    /// Resolves (`resolved`) or reopens a thread. Answers None when it already was so (nothing
    /// written), else the thread before the change.
    pub async fn set_resolved(
        &self,
        project_id: ProjectId,
        thread_id: ThreadId,
        resolved: bool,
        actor: UserId,
        at: DateTime<Utc>,
    ) -> Refusable<Option<ThreadRow>> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let Some(thread) = locked_thread!(self, tx, project_id, thread_id) else {
                return Ok(Err(CommentRefusal::Missing));
            };
            if thread.resolved_at.is_some() == resolved {
                return Ok(Ok(None));
            }
            let (resolved_at, resolved_by) = if resolved { (Some(at), Some(actor)) } else { (None, None) };
            sqlx::query(
                "UPDATE comment_threads SET resolved_at = $2, resolved_by = $3, version = version + 1, updated_at = $4 \
                 WHERE id = $1",
            )
            .bind(thread.id)
            .bind(resolved_at)
            .bind(resolved_by)
            .bind(at)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
            let state = |at: Option<DateTime<Utc>>, by: Option<UserId>| {
                json!({"resolved": at.is_some(), "resolvedAt": at.map(event_time), "resolvedByUserId": by.map(|u| u.to_string())})
            };
            let kind = if resolved { EventKind::CommentResolved } else { EventKind::CommentUpdated };
            let new = state(resolved_at, resolved_by);
            let old = state(thread.resolved_at, thread.resolved_by);
            let event = comment_event(kind, actor, &thread, thread.id.opening(), Some(new), Some(old), at);
            insert_event!(&mut *tx, &event)?;
            tx.commit().await.map_err(db_error)?;
            Ok(Ok(Some(thread)))
        })
    }

    /// Deletes one reply (`comment` is not the thread's first), or, given the thread's own id, the
    /// whole thread: one `comment.deleted` per comment, replies first. Answers the ids deleted.
    pub async fn delete_comment(
        &self,
        project_id: ProjectId,
        thread_id: ThreadId,
        comment: CommentId,
        actor: UserId,
        at: DateTime<Utc>,
    ) -> Refusable<Vec<CommentId>> {
        let whole = comment == thread_id.opening();
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let Some(thread) = locked_thread!(self, tx, project_id, thread_id) else {
                return Ok(Err(CommentRefusal::Missing));
            };
            let comments: Vec<CommentRow> = sqlx::query_as(&format!(
                "SELECT {} FROM comments WHERE thread_id = $1 ORDER BY id",
                super::comments::COMMENT_COLUMNS_TEXT
            ))
            .bind(thread.id)
            .fetch_all(&mut *tx)
            .await
            .map_err(db_error)?;
            let mut gone: Vec<&CommentRow> = comments.iter().filter(|c| whole || c.id == comment).collect();
            if gone.is_empty() {
                return Ok(Err(CommentRefusal::Missing));
            }
            // Replies first, newest first; the thread's own comment last.
            gone.sort_by_key(|c| (c.id == thread.id.opening(), std::cmp::Reverse(c.id)));
            if whole {
                sqlx::query("DELETE FROM comment_threads WHERE id = $1").bind(thread.id).execute(&mut *tx).await.map_err(db_error)?;
            } else {
                sqlx::query("DELETE FROM comments WHERE id = $1").bind(comment).execute(&mut *tx).await.map_err(db_error)?;
                bump_thread!(tx, &thread, at);
            }
            for row in &gone {
                let first = (row.id == thread.id.opening()).then_some(&thread);
                let old = comment_fields(first, row);
                let event = comment_event(EventKind::CommentDeleted, actor, &thread, row.id, None, Some(old), at);
                insert_event!(&mut *tx, &event)?;
            }
            tx.commit().await.map_err(db_error)?;
            Ok(Ok(gone.into_iter().map(|row| row.id).collect()))
        })
    }
}

/// A foreign key violation (a deferred one fails the commit).
fn is_foreign_key(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if db.kind() == sqlx::error::ErrorKind::ForeignKeyViolation)
}
