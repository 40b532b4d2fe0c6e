//! Comment threads and their comments (docs/COMMENTS.md): rows, the listing, and every write with
//! its `comment.*` event in one transaction. The one write that reaches threads from items is
//! [`detach_threads!`], run by every transaction that deletes items: a thread on a deleted item
//! stays, on the point where the item was.

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{json, Map, Value};
use sqlx::types::Json;
use uuid::Uuid;

use super::ItemsStore;
use crate::domain::{CommentId, EventId, EventKind, ItemId, ProjectId, ThreadId, UserId};
use crate::error::CoreError;
use crate::storage::{db_error, NewEvent, Storage};
use canvas_vocabulary::limits::comments::SUBJECT_TYPE;

type Result<T> = std::result::Result<T, CoreError>;

const THREAD_COLUMNS: &str = "id, project_id, item_id, former_item_id, x, y, resolved_at, resolved_by, version, \
    created_by, created_at, updated_at";
const COMMENT_COLUMNS: &str =
    "id, thread_id, project_id, author_user_id, text, mentions, created_at, updated_at, edited_at";

/// A thread as stored (its comments are [`CommentRow`]s; the first has the thread's id).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ThreadRow {
    pub id: ThreadId,
    pub project_id: ProjectId,
    /// The item it is on; None for a thread on a point.
    pub item_id: Option<ItemId>,
    /// The item it was on, once that item was deleted.
    pub former_item_id: Option<ItemId>,
    /// The point it is on (both or neither).
    pub x: Option<f64>,
    pub y: Option<f64>,
    pub resolved_at: Option<DateTime<Utc>>,
    pub resolved_by: Option<UserId>,
    /// Bumped by every change of the thread or its comments.
    pub version: i64,
    pub created_by: UserId,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// One comment as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CommentRow {
    pub id: CommentId,
    pub thread_id: ThreadId,
    pub project_id: ProjectId,
    pub author_user_id: UserId,
    pub text: String,
    /// The members its text mentions, each once.
    #[sqlx(try_from = "Json<Vec<Uuid>>")]
    pub mentions: Mentions,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub edited_at: Option<DateTime<Utc>>,
}

/// The people a comment mentions, decoded from the stored JSON array into their ids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Mentions(pub Vec<UserId>);

impl From<Json<Vec<Uuid>>> for Mentions {
    fn from(ids: Json<Vec<Uuid>>) -> Self {
        Mentions(ids.0.into_iter().map(UserId::from_uuid).collect())
    }
}

impl CommentRow {
    /// Its mentions as stored: a JSON array of the ids.
    pub(in crate::storage) fn mentions_stored(&self) -> Json<Vec<Uuid>> {
        Json(self.mentions.0.iter().map(|id| id.uuid()).collect())
    }
}

/// Which threads a listing answers; every filter set must hold.
#[derive(Debug, Clone, Default)]
pub struct ThreadFilter {
    pub item: Option<ItemId>,
    /// Some(false): open only; Some(true): resolved only.
    pub resolved: Option<bool>,
    /// Threads with a comment by this person.
    pub author: Option<UserId>,
    /// Threads with a comment mentioning this person.
    pub mentions: Option<UserId>,
    pub changed_since: Option<DateTime<Utc>>,
    /// Threads opened after this one (ids are time-ordered).
    pub after: Option<ThreadId>,
    pub limit: u32,
}

/// Why a comment write was not made, beyond the database's own failures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommentRefusal {
    /// The project holds its most threads already.
    TooManyThreads,
    /// The thread holds its most replies already.
    TooManyReplies,
    /// No such thread (or comment) in the project.
    Missing,
    /// The item a new thread names is gone (or never was in the project).
    ItemGone,
}

/// A comment event's time, as every event body writes times.
pub fn event_time(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// The `comment.*` event of `comment` in `thread`: `new`/`old` as given, the thread and its item
/// beside (the webhook body and the change stream read them there).
pub fn comment_event(
    kind: EventKind,
    actor: UserId,
    thread: &ThreadRow,
    comment: CommentId,
    new: Option<Value>,
    old: Option<Value>,
    at: DateTime<Utc>,
) -> NewEvent {
    let mut payload = Map::new();
    payload.insert("threadId".into(), json!(thread.id.to_string()));
    payload.insert("itemId".into(), json!(thread.item_id.map(|id| id.to_string())));
    if let Some(new) = new {
        payload.insert("new".into(), new);
    }
    if let Some(old) = old {
        payload.insert("old".into(), old);
    }
    NewEvent {
        id: EventId::new(),
        project_id: thread.project_id,
        kind,
        subject_id: comment.uuid(),
        subject_type: SUBJECT_TYPE.to_owned(),
        actor_user_id: actor,
        occurred_at: at,
        payload: Value::Object(payload),
    }
}

/// Within a transaction that deleted items, after `$events` (`&[NewEvent]`, their `item.deleted`
/// events, each carrying the item's properties in `old`) were made: every thread on one of them
/// becomes a thread on the point where the item was (`formerItemId` names it), at its next
/// version, with a `comment.updated` event by the deleting person. A thread opened on one of the
/// items by a transaction that committed first is found here (on PostgreSQL its item check
/// key-share-locked the item, so the delete waited for it); one opened later finds the item gone.
macro_rules! detach_threads {
    ($tx:expr, $events:expr) => {{
        let events: &[$crate::storage::NewEvent] = $events;
        for deleted in events.iter().filter(|e| e.kind == $crate::domain::EventKind::ItemDeleted) {
            let item = $crate::domain::ItemId::from_uuid(deleted.subject_id);
            let (x, y) = $crate::storage::items::comments::where_it_was(&deleted.payload);
            let detached: Vec<$crate::storage::ThreadRow> = sqlx::query_as(&format!(
                "UPDATE comment_threads SET item_id = NULL, former_item_id = item_id, x = $3, y = $4, \
                 version = version + 1, updated_at = $5 WHERE project_id = $1 AND item_id = $2 RETURNING {}",
                $crate::storage::items::comments::THREAD_COLUMNS_TEXT
            ))
            .bind(deleted.project_id)
            .bind(item)
            .bind(x)
            .bind(y)
            .bind(deleted.occurred_at)
            .fetch_all(&mut *$tx)
            .await
            .map_err($crate::storage::db_error)?;
            for thread in &detached {
                let event = $crate::storage::items::comments::detached_event(thread, item, deleted);
                $crate::storage::outbox::insert_event!(&mut *$tx, &event)?;
            }
        }
    }};
}
pub(in crate::storage) use detach_threads;

/// [`THREAD_COLUMNS`] and [`COMMENT_COLUMNS`] for the writes (`comment_writes.rs`) and for
/// [`detach_threads!`], which expands in other modules.
pub(in crate::storage) const THREAD_COLUMNS_TEXT: &str = THREAD_COLUMNS;
pub(in crate::storage) const COMMENT_COLUMNS_TEXT: &str = COMMENT_COLUMNS;

/// Where a deleted item was: its `position` as its `item.deleted` event's `old` holds it; a
/// connector (which has none) leaves its threads at the middle of its two ends, else at 0, 0.
pub(in crate::storage) fn where_it_was(payload: &Value) -> (f64, f64) {
    let old = &payload["old"];
    let point = |value: &Value| Some((value.get("x")?.as_f64()?, value.get("y")?.as_f64()?));
    if let Some(at) = point(&old["position"]) {
        return at;
    }
    match (point(&old["startPoint"]), point(&old["endPoint"])) {
        (Some((x1, y1)), Some((x2, y2))) => ((x1 + x2) / 2.0, (y1 + y2) / 2.0),
        _ => (0.0, 0.0),
    }
}

/// The `comment.updated` event of a thread detached from the deleted item `item`.
pub(in crate::storage) fn detached_event(thread: &ThreadRow, item: ItemId, deleted: &NewEvent) -> NewEvent {
    let new = json!({
        "itemId": null,
        "formerItemId": item.to_string(),
        "position": {"x": thread.x, "y": thread.y},
    });
    let old = json!({"itemId": item.to_string(), "formerItemId": null, "position": null});
    // The change's `itemId` is the thread's now (none); `new.formerItemId` names the deleted item.
    comment_event(
        EventKind::CommentUpdated,
        deleted.actor_user_id,
        thread,
        thread.id.opening(),
        Some(new),
        Some(old),
        deleted.occurred_at,
    )
}

impl ItemsStore {
    /// A page of a project's threads in the order they were opened.
    pub async fn list_threads(&self, project_id: ProjectId, filter: &ThreadFilter) -> Result<Vec<ThreadRow>> {
        let postgres = matches!(self.database(), Storage::Postgres(_));
        let mut sql = format!("SELECT {THREAD_COLUMNS} FROM comment_threads t WHERE t.project_id = $1");
        let mut n = 1;
        let mut next = || {
            n += 1;
            n
        };
        if filter.item.is_some() {
            sql += &format!(" AND t.item_id = ${}", next());
        }
        match filter.resolved {
            Some(true) => sql += " AND t.resolved_at IS NOT NULL",
            Some(false) => sql += " AND t.resolved_at IS NULL",
            None => {}
        }
        if filter.author.is_some() {
            sql += &format!(
                " AND EXISTS (SELECT 1 FROM comments c WHERE c.thread_id = t.id AND c.author_user_id = ${})",
                next()
            );
        }
        if filter.mentions.is_some() {
            let at = next();
            sql += &match postgres {
                true => {
                    format!(" AND EXISTS (SELECT 1 FROM comments c WHERE c.thread_id = t.id AND c.mentions ? ${at})")
                }
                false => format!(
                    " AND EXISTS (SELECT 1 FROM comments c, json_each(c.mentions) m \
                     WHERE c.thread_id = t.id AND m.value = ${at})"
                ),
            };
        }
        if filter.changed_since.is_some() {
            sql += &format!(" AND t.updated_at >= ${}", next());
        }
        if filter.after.is_some() {
            sql += &format!(" AND t.id > ${}", next());
        }
        sql += &format!(" ORDER BY t.id LIMIT {}", filter.limit);
        with_read_pool!(self, pool => {
            let mut query = sqlx::query_as::<_, ThreadRow>(&sql).bind(project_id);
            if let Some(item) = filter.item {
                query = query.bind(item);
            }
            if let Some(author) = filter.author {
                query = query.bind(author);
            }
            if let Some(mentioned) = filter.mentions {
                query = query.bind(mentioned.to_string());
            }
            if let Some(since) = filter.changed_since {
                query = query.bind(since);
            }
            if let Some(after) = filter.after {
                query = query.bind(after);
            }
            query.fetch_all(pool).await.map_err(db_error)
        })
    }

    /// A thread of the project.
    pub async fn get_thread(&self, project_id: ProjectId, thread: ThreadId) -> Result<Option<ThreadRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, ThreadRow>(&format!(
                "SELECT {THREAD_COLUMNS} FROM comment_threads WHERE id = $1 AND project_id = $2"
            ))
            .bind(thread)
            .bind(project_id)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Every comment of the threads, each thread's in the order they were written.
    pub async fn comments_of(&self, project_id: ProjectId, threads: &[ThreadId]) -> Result<Vec<CommentRow>> {
        let mut rows = Vec::new();
        for chunk in threads.chunks(200) {
            with_read_pool!(self, pool => {
                let mut query = sqlx::QueryBuilder::new(format!(
                    "SELECT {COMMENT_COLUMNS} FROM comments WHERE project_id = "
                ));
                query.push_bind(project_id).push(" AND thread_id IN (");
                let mut list = query.separated(", ");
                for thread in chunk {
                    list.push_bind(*thread);
                }
                query.push(") ORDER BY thread_id, id");
                rows.extend(query.build_query_as::<CommentRow>().fetch_all(pool).await.map_err(db_error)?);
            });
        }
        Ok(rows)
    }

    /// A comment of a thread of the project.
    pub async fn get_comment(
        &self,
        project_id: ProjectId,
        thread: ThreadId,
        comment: CommentId,
    ) -> Result<Option<CommentRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, CommentRow>(&format!(
                "SELECT {COMMENT_COLUMNS} FROM comments WHERE id = $1 AND thread_id = $2 AND project_id = $3"
            ))
            .bind(comment)
            .bind(thread)
            .bind(project_id)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }
}
