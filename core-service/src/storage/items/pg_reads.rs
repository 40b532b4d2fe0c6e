//! The item read by id on PostgreSQL over a few pipelined connections of its own (tokio-postgres).
//!
//! Measured on this machine's kind, the PostgreSQL server answers a primary-key `SELECT` in a small
//! part of the time a REST GET spends on it through sqlx (`pgbench -S` serves 55,000 a second on
//! the two cores that serve 8,600 GETs): the cost is the client's, one pooled connection taken and
//! given back per statement, and one round trip with its wake-ups per read. tokio-postgres sends
//! the reads of many requests down one connection without waiting for each answer (pipelining), so
//! a busy replica wakes once for several reads.
//!
//! Like the SQLite inline read it never changes an answer: anything it cannot do (no connection
//! yet, a connection lost, TLS asked for, a value it cannot decode) answers
//! [`Inline::Declined`], and the caller reads through sqlx's pool.

use crate::domain::{ItemId, ProjectId, UserId};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use parking_lot::Mutex;
use serde_json::Value;
use tokio_postgres::{Client, NoTls, Statement};

use super::item_columns::ITEM_BY_ID;
use super::sqlite_reads::Inline;
use crate::storage::ItemRow;
use canvas_items::{ItemType, Parent};

/// Connections the reads are spread over: one per two cores. Each carries many reads at once, and
/// more would only wake more server processes (on two cores one connection served more GETs than
/// two, docs/PERFORMANCE.md); a server process answers tens of thousands of these reads a second,
/// so one per two cores keeps ahead of what the cores can ask.
fn connections() -> usize {
    std::thread::available_parallelism().map_or(1, |cores| cores.get() / 2).max(1)
}

/// A lost connection is made again at most this often, so a database that refuses connections is
/// not asked on every read (those reads go through sqlx meanwhile).
const RECONNECT_EVERY: Duration = Duration::from_secs(1);

/// A connection and its prepared read.
struct Reader {
    client: Client,
    item_by_id: Statement,
}

struct Slot {
    reader: Option<Arc<Reader>>,
    /// When a connection was last attempted, for [`RECONNECT_EVERY`].
    attempted: Option<Instant>,
}

pub(in crate::storage) struct PgReads {
    /// `None` when the URL cannot be served without TLS: every read declines.
    config: Option<tokio_postgres::Config>,
    slots: Vec<Mutex<Slot>>,
    next: AtomicUsize,
    /// Set by [`PgReads::close`]: no connection is made again.
    closed: AtomicBool,
}

impl std::fmt::Debug for PgReads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgReads").field("enabled", &self.config.is_some()).finish_non_exhaustive()
    }
}

impl PgReads {
    /// Reads for the database at `url`; disabled when the URL asks for TLS (sqlx serves those).
    pub(in crate::storage) fn new(url: &str) -> Self {
        let config = tokio_postgres::Config::from_str(url)
            .ok()
            .filter(|c| c.get_ssl_mode() != tokio_postgres::config::SslMode::Require);
        let slots = (0..connections()).map(|_| Mutex::new(Slot { reader: None, attempted: None })).collect();
        Self { config, slots, next: AtomicUsize::new(0), closed: AtomicBool::new(false) }
    }

    /// Reads that always decline (to the pool): for a database URL naming several servers, whose
    /// primary moves (`storage/pg_hosts.rs`).
    pub(in crate::storage) fn off() -> Self {
        Self { config: None, slots: Vec::new(), next: AtomicUsize::new(0), closed: AtomicBool::new(false) }
    }

    /// The item `item_id` of project `project_id`.
    pub(in crate::storage) async fn item(self: &Arc<Self>, project_id: ProjectId, item_id: ItemId) -> Inline<ItemRow> {
        if self.slots.is_empty() {
            return Inline::Declined;
        }
        let slot = self.next.fetch_add(1, Ordering::Relaxed) % self.slots.len();
        let Some(reader) = self.reader(slot) else { return Inline::Declined };
        match reader.client.query_opt(&reader.item_by_id, &[&item_id.uuid(), &project_id.uuid()]).await {
            Ok(None) => Inline::Answered(None),
            Ok(Some(row)) => item_row(&row).map_or(Inline::Declined, |item| Inline::Answered(Some(item))),
            Err(err) => {
                tracing::debug!(error = %err, "a pipelined PostgreSQL read was declined");
                if reader.client.is_closed() {
                    self.slots[slot].lock().reader = None;
                }
                Inline::Declined
            }
        }
    }

    /// Ends every connection (on shutdown, with sqlx's pool); reads decline from then on.
    pub(in crate::storage) fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        for slot in &self.slots {
            slot.lock().reader = None;
        }
    }

    /// The slot's connection, or `None` (after starting a connection when due).
    fn reader(self: &Arc<Self>, slot: usize) -> Option<Arc<Reader>> {
        let config = self.config.as_ref().filter(|_| !self.closed.load(Ordering::SeqCst))?;
        let mut held = self.slots[slot].lock();
        match &held.reader {
            Some(reader) if !reader.client.is_closed() => return Some(reader.clone()),
            _ => held.reader = None,
        }
        if held.attempted.is_some_and(|at| at.elapsed() < RECONNECT_EVERY) {
            return None;
        }
        held.attempted = Some(Instant::now());
        let (config, reads) = (config.clone(), Arc::downgrade(self));
        tokio::spawn(async move {
            match connect(&config).await {
                Ok(reader) => {
                    if let Some(reads) = reads.upgrade().filter(|reads| !reads.closed.load(Ordering::SeqCst)) {
                        reads.slots[slot].lock().reader = Some(Arc::new(reader));
                    }
                }
                Err(err) => tracing::debug!(error = %err, "a pipelined PostgreSQL read connection failed"),
            }
        });
        None
    }
}

async fn connect(config: &tokio_postgres::Config) -> Result<Reader, tokio_postgres::Error> {
    let (client, connection) = config.connect(NoTls).await?;
    // The connection's own task: it ends when the client is dropped or the server hangs up.
    tokio::spawn(async move {
        if let Err(err) = connection.await {
            tracing::debug!(error = %err, "a pipelined PostgreSQL read connection ended");
        }
    });
    let item_by_id = client.prepare(&ITEM_BY_ID).await?;
    Ok(Reader { client, item_by_id })
}

/// A row of [`ITEM_BY_ID`] as an [`ItemRow`], or `None` for anything sqlx should decode.
fn item_row(row: &tokio_postgres::Row) -> Option<ItemRow> {
    Some(ItemRow {
        id: ItemId::from_uuid(row.try_get(0).ok()?),
        project_id: ProjectId::from_uuid(row.try_get(1).ok()?),
        item_type: ItemType::parse(row.try_get::<_, &str>(2).ok()?).ok()?,
        parent: Parent::parse(row.try_get::<_, &str>(3).ok()?).ok()?,
        properties: row.try_get::<_, Value>(4).ok()?,
        version: row.try_get(5).ok()?,
        created_by: UserId::from_uuid(row.try_get(6).ok()?),
        updated_by: UserId::from_uuid(row.try_get(7).ok()?),
        created_at: row.try_get::<_, DateTime<Utc>>(8).ok()?,
        updated_at: row.try_get::<_, DateTime<Utc>>(9).ok()?,
        content_key: row.try_get(10).ok()?,
    })
}
