//! Point reads on SQLite made on the calling thread, without sqlx's connection thread.
//!
//! sqlx runs every SQLite statement on a thread of its own and passes the statement and each row
//! across a channel, so one read costs two thread hand-offs. A profile of the REST GET found
//! those hand-offs (and the kernel's wake-ups behind them) to be the largest single cost of a read
//! (docs/PERFORMANCE.md, "The GET path"). A read of one row by its primary key in WAL mode never
//! waits for the writer and takes a few microseconds, less than the hand-offs it replaces, so the
//! hottest read, an item by id, is made here, on the async worker that asks for it.
//!
//! It never waits: the connections have no busy timeout, and a read that meets `SQLITE_BUSY` (a
//! reader can, for a moment, while the WAL is reset) or a row it cannot decode answers
//! [`Inline::Declined`], and the caller reads through sqlx's pool instead, which waits and decodes
//! with sqlx's rules. So this path can make a read faster but never give a different answer: the
//! tests (`inline_reads_tests.rs`) compare both paths row by row.

use crate::domain::{ItemId, ProjectId, UserId};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, OptionalExtension};
use uuid::Uuid;

use super::item_columns::ITEM_BY_ID;
use crate::storage::ItemRow;
use canvas_items::{ItemType, Parent};

/// At most this many idle connections are kept. A read holds one only while it runs, without an
/// await, so no more are ever busy at once than there are threads running reads; a burst over the
/// limit opens connections that are closed after use.
const MAX_IDLE: usize = 32;

/// What an inline read found (here and in `pg_reads.rs`).
#[derive(Debug)]
pub(in crate::storage) enum Inline<T> {
    /// The answer: the row, or `None` when there is no such row.
    Answered(Option<T>),
    /// Not answered here (busy, an error, a value only sqlx's rules decode): read through sqlx.
    Declined,
}

/// Read-only connections to one SQLite database, used one at a time by the thread that takes one.
pub(in crate::storage) struct InlineReads {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

impl std::fmt::Debug for InlineReads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InlineReads").field("path", &self.path).finish_non_exhaustive()
    }
}

impl InlineReads {
    pub(in crate::storage) fn new(path: &Path) -> Self {
        Self { path: path.to_path_buf(), idle: Mutex::new(Vec::new()) }
    }

    /// The item `item_id` of project `project_id`.
    pub(in crate::storage) fn item(&self, project_id: ProjectId, item_id: ItemId) -> Inline<ItemRow> {
        self.read(|conn| {
            let mut statement = conn.prepare_cached(&ITEM_BY_ID)?;
            statement
                .query_row((item_id.uuid().as_bytes().as_slice(), project_id.uuid().as_bytes().as_slice()), |row| {
                    Ok(item_row(row))
                })
                .optional()
        })
    }

    /// Runs `query` on an idle connection (opened if none is idle) and puts it back. `query`
    /// answers `Ok(None)` for no row, `Ok(Some(None))` for a row it cannot decode.
    fn read<T>(&self, query: impl FnOnce(&Connection) -> rusqlite::Result<Option<Option<T>>>) -> Inline<T> {
        let idle = self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).pop();
        let conn = match idle {
            Some(conn) => conn,
            None => match self.open() {
                Ok(conn) => conn,
                Err(err) => {
                    tracing::debug!(error = %err, "an inline SQLite read could not open a connection");
                    return Inline::Declined;
                }
            },
        };
        let answer = match query(&conn) {
            Ok(None) => Inline::Answered(None),
            Ok(Some(Some(row))) => Inline::Answered(Some(row)),
            Ok(Some(None)) => Inline::Declined,
            Err(err) => {
                tracing::debug!(error = %err, "an inline SQLite read was declined");
                Inline::Declined
            }
        };
        let mut idle = self.idle.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if idle.len() < MAX_IDLE {
            idle.push(conn);
        }
        answer
    }

    fn open(&self) -> rusqlite::Result<Connection> {
        // NO_MUTEX: a connection is used by one thread at a time (it is taken out of the list).
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&self.path, flags)?;
        // Never sleep on an async worker: a busy database declines the read instead.
        conn.busy_timeout(Duration::ZERO)?;
        Ok(conn)
    }
}

/// A row of [`ITEM_BY_ID`] as an [`ItemRow`], or `None` for anything not as this service writes it.
fn item_row(row: &rusqlite::Row<'_>) -> Option<ItemRow> {
    Some(ItemRow {
        id: ItemId::from_uuid(uuid(row, 0)?),
        project_id: ProjectId::from_uuid(uuid(row, 1)?),
        item_type: ItemType::parse(text(row, 2)?).ok()?,
        parent: Parent::parse(text(row, 3)?).ok()?,
        properties: serde_json::from_str(text(row, 4)?).ok()?,
        version: row.get_ref(5).ok()?.as_i64().ok()?,
        created_by: UserId::from_uuid(uuid(row, 6)?),
        updated_by: UserId::from_uuid(uuid(row, 7)?),
        created_at: time(row, 8)?,
        updated_at: time(row, 9)?,
        content_key: match row.get_ref(10).ok()? {
            ValueRef::Null => None,
            ValueRef::Text(key) => Some(std::str::from_utf8(key).ok()?.to_owned()),
            _ => return None,
        },
    })
}

/// A UUID as sqlx writes it on SQLite: 16 bytes.
fn uuid(row: &rusqlite::Row<'_>, column: usize) -> Option<Uuid> {
    match row.get_ref(column).ok()? {
        ValueRef::Blob(bytes) => Uuid::from_slice(bytes).ok(),
        _ => None,
    }
}

fn text<'r>(row: &'r rusqlite::Row<'_>, column: usize) -> Option<&'r str> {
    match row.get_ref(column).ok()? {
        ValueRef::Text(bytes) => std::str::from_utf8(bytes).ok(),
        _ => None,
    }
}

/// A time as sqlx writes a `DateTime<Utc>` on SQLite: RFC 3339 text. Other forms sqlx would
/// read (SQLite's own `YYYY-MM-DD HH:MM:SS`, numbers) decline, and sqlx reads them.
fn time(row: &rusqlite::Row<'_>, column: usize) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text(row, column)?).ok().map(|at| at.with_timezone(&Utc))
}
