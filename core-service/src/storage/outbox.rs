//! The outbox: every change event is written in its change's own transaction, with the webhook
//! deliveries it fans out to, so consumers (webhooks, the knowledge index, whose queue a trigger on
//! `events` fills) never miss an acknowledged change. The item and membership stores write their
//! events through [`insert_event!`]; nothing else inserts into `events`.

use sqlx::types::Json;
use uuid::Uuid;

use crate::error::CoreError;
use crate::storage::{db_error, NewEvent};

type Result<T> = std::result::Result<T, CoreError>;

const INSERT_EVENT: &str = "INSERT INTO events \
    (id, project_id, kind, subject_id, subject_type, actor_user_id, occurred_at, payload) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

/// Writes a [`NewEvent`] on `$executor` (the change's transaction) and fans it out into webhook
/// deliveries there, so an acknowledged change always has them (`Outbox`, one
/// statement on PostgreSQL).
macro_rules! insert_event {
    ($executor:expr, $event:expr) => {{
        let event: &crate::storage::NewEvent = $event;
        crate::storage::outbox::Outbox::insert_event($executor, event).await
    }};
}
pub(crate) use insert_event;

/// Selects the webhooks an event reaches: same project, enabled, not
/// inactive, and listing the event's kind. A webhook disabled automatically
/// still gets its deliveries: they wait (never leased) until it is enabled
/// again, so an outage at the receiver loses nothing.
const FAN_OUT_TARGETS: &str = "SELECT id FROM webhooks WHERE project_id = $1 AND enabled = TRUE \
    AND inactive IS NULL AND (event_mask & $2) <> 0";

const INSERT_DELIVERY: &str = "INSERT INTO webhook_deliveries \
    (id, webhook_id, project_id, event_id, state, attempts, next_attempt_at, created_at) \
    VALUES ($1, $2, $3, $4, 'pending', 0, $5, $5)";

/// A UUID version 7 made by PostgreSQL (15 has no function of its own): the milliseconds of
/// `clock_timestamp()` in the first 48 bits of a random (version 4) UUID, its version nibble
/// turned from 4 into 7 (bits 52 and 53 of the bytes), so ids still sort by time of creation
/// as `Uuid::now_v7()`'s do.
const PG_UUID_V7: &str = "encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing \
    substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), \
    52, 1), 53, 1), 'hex')::uuid";

/// The event and its deliveries in one PostgreSQL statement (the event's columns as in
/// `INSERT_EVENT`, $9 the kind's bit): one round trip where three were (insert, select the
/// targets, insert each delivery), on the path of every write.
fn pg_event_with_deliveries() -> &'static str {
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SQL.get_or_init(|| {
        format!(
            "WITH new_event AS ({}) INSERT INTO webhook_deliveries \
             (id, webhook_id, project_id, event_id, state, attempts, next_attempt_at, created_at) \
             SELECT {PG_UUID_V7}, w.id, $2, new_event.id, 'pending', 0, $7, $7 FROM new_event CROSS JOIN webhooks w \
             WHERE w.project_id = $2 AND w.enabled = TRUE AND w.inactive IS NULL AND (w.event_mask & $9) <> 0",
            format_args!("{} RETURNING id", INSERT_EVENT)
        )
    })
}

/// Binds an event's columns, in `INSERT_EVENT`'s order, to `$query` (either backend's).
macro_rules! bind_event {
    ($query:expr, $event:expr) => {{
        let event: &NewEvent = $event;
        $query
            .bind(event.id)
            .bind(event.project_id)
            .bind(event.kind.as_str())
            .bind(event.subject_id)
            .bind(&event.subject_type)
            .bind(event.actor_user_id)
            .bind(event.occurred_at)
            .bind(Json(&event.payload))
    }};
}

/// Writes an event of the outbox and its webhook deliveries, on the event's transaction, so an
/// acknowledged change always has them (`insert_event!`).
pub(crate) trait Outbox {
    async fn insert_event(&mut self, event: &NewEvent) -> Result<()>;
}

impl Outbox for sqlx::PgConnection {
    async fn insert_event(&mut self, event: &NewEvent) -> Result<()> {
        bind_event!(sqlx::query(pg_event_with_deliveries()), event)
            .bind(event.kind.bit())
            .execute(self)
            .await
            .map_err(db_error)?;
        Ok(())
    }
}

/// SQLite runs in this process (a statement costs no network round trip) and cannot write in a
/// `WITH`: the event, then a delivery per target webhook.
impl Outbox for sqlx::SqliteConnection {
    async fn insert_event(&mut self, event: &NewEvent) -> Result<()> {
        bind_event!(sqlx::query(INSERT_EVENT), event).execute(&mut *self).await.map_err(db_error)?;
        let targets: Vec<(Uuid,)> = sqlx::query_as(FAN_OUT_TARGETS)
            .bind(event.project_id)
            .bind(event.kind.bit())
            .fetch_all(&mut *self)
            .await
            .map_err(db_error)?;
        for (webhook_id,) in targets {
            sqlx::query(INSERT_DELIVERY)
                .bind(Uuid::now_v7())
                .bind(webhook_id)
                .bind(event.project_id)
                .bind(event.id)
                .bind(event.occurred_at)
                .execute(&mut *self)
                .await
                .map_err(db_error)?;
        }
        Ok(())
    }
}
