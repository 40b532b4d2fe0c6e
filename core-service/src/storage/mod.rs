//! All database access. Only this module imports sqlx.
//!
//! One [`Storage`] value wraps either backend. The queries are written once,
//! with `$n` placeholders (SQLite accepts them too), and the `with_pool!`
//! macros compile each body against both drivers, so a change to a query is a
//! change to both backends and one test suite checks them alike. Where the
//! backends must differ (connection set-up, migrations, locking) the code
//! matches on the variant explicitly.
//!
//! SQLite: one writer connection (writers queue in the pool instead of failing
//! with SQLITE_BUSY), a pool of read connections, WAL, `synchronous=FULL` so
//! an acknowledged write survives a power cut, foreign keys on.

/// Runs `$body` with `$pool` bound to the pool that may write.
macro_rules! with_write_pool {
    ($storage:expr, $pool:ident => $body:expr) => {
        match $storage.database() {
            $crate::storage::Storage::Sqlite(store) => {
                let $pool = store.writer_pool();
                $body
            }
            $crate::storage::Storage::Postgres(pg) => {
                let $pool: &sqlx::PgPool = pg;
                $body
            }
        }
    };
}

/// Runs `$body` with `$pool` bound to a pool for reads.
macro_rules! with_read_pool {
    ($storage:expr, $pool:ident => $body:expr) => {
        match $storage.database() {
            $crate::storage::Storage::Sqlite(store) => {
                let $pool = store.reader_pool();
                $body
            }
            $crate::storage::Storage::Postgres(pg) => {
                let $pool: &sqlx::PgPool = pg;
                $body
            }
        }
    };
}

/// Runs `$body` with `$conn` bound to a read connection (`&mut` a backend's connection) for a
/// heavy read that may go to a PostgreSQL standby (`standby.rs`): one that has replayed every
/// write acknowledged before the read began, else the primary. A read the standby failed (it
/// went away, or cancelled the read for a conflict with what it replays) is read again on the
/// primary: a standby never turns a read into an error. SQLite: a reader.
macro_rules! with_lagging_read {
    ($storage:expr, $conn:ident => $body:expr) => {
        match $storage.database() {
            $crate::storage::Storage::Sqlite(store) => {
                let mut held = store.reader_pool().acquire().await.map_err($crate::storage::db_error)?;
                let $conn: &mut sqlx::SqliteConnection = &mut *held;
                $body
            }
            $crate::storage::Storage::Postgres(pg) => {
                let (mut held, on_standby) = pg.lagging_read().await?;
                let outcome = {
                    let $conn: &mut sqlx::PgConnection = &mut *held;
                    async { $body }.await
                };
                match outcome {
                    Err(err) if on_standby && pg.read_again_on_primary(&err) => {
                        drop(held);
                        let mut held = pg.acquire().await.map_err($crate::storage::db_error)?;
                        let $conn: &mut sqlx::PgConnection = &mut *held;
                        $body
                    }
                    outcome => outcome,
                }
            }
        }
    };
}

/// Runs `$body` with `$conn` bound to the connection of a [`WriteTx`], whichever the backend.
macro_rules! with_tx {
    ($tx:expr, $conn:ident => $body:expr) => {
        match $tx {
            $crate::storage::WriteTx::Sqlite(t) => {
                let $conn: &mut sqlx::SqliteConnection = &mut **t;
                $body
            }
            $crate::storage::WriteTx::Postgres(t) => {
                let $conn: &mut sqlx::PgConnection = &mut **t;
                $body
            }
        }
    };
}

/// Declares a context's store: the database handle, private to `storage`, which the query macros
/// reach through `database()`.
macro_rules! context_store {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name {
            db: $crate::storage::Storage,
        }

        impl $name {
            pub(in crate::storage) fn new(db: $crate::storage::Storage) -> Self {
                Self { db }
            }

            /// The database the query macros run on.
            pub(in crate::storage) fn database(&self) -> &$crate::storage::Storage {
                &self.db
            }
        }
    };
}

mod accounts;
pub mod backup;
mod items;
mod notifications;
mod outbox;
mod pg_hosts;
mod retrieval;
mod rows;
mod standby;
mod webhooks;

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous};
use sqlx::ConnectOptions;

pub use accounts::{
    AccountsStore, AuditRow, CodeUse, LoginRow, OAuthClientRow, OAuthCodeRow, OAuthGrantRow, OAuthTokenRow, RefreshUse,
    SessionRow, SignInLinkRow, ThrottleRow,
};
pub use items::{
    comment_event, comment_fields, event_time, AgentTaskRow, ArchivedThreads, CommentRefusal, CommentRow, DiagramRow,
    DiagramWrite, ElementRow, EventChanges, IdempotencyClaim, IdempotencyRow, ItemFilter, ItemsStore, Landed,
    LandedDiagram, LandedItem, Landing, Mentions, ProjectSnapshot, RecordChange, TagRefusal, TagRow, TaskClaim,
    TaskEnd, ThreadFilter, ThreadRow, Untag, MAX_PRESENCE_PAYLOAD,
};
pub use notifications::{ChannelListener, Heard, NotificationFeed};
pub use retrieval::{
    ChunkChange, ChunkChanges, ChunkRecord, ChunkText, IndexAction, IndexCounts, IndexOutcome, IndexStatusRow,
    IndexedChunk, IndexedItem, QueuedItem, RetrievalStore, StoredIndexState, ThreadText,
};
pub use rows::*;
pub use standby::{StandbySettings, DEFAULT_STANDBY_MAX_WAIT_MS, MAX_STANDBY_MAX_WAIT_MS};
pub use webhooks::{
    AttemptOutcome, AttemptRow, DueListener, LeasedRow, NewRecovery, Recorded, RecoveryProgress, RecoveryRow,
    SigningKeyRow, SlowDown, Started, WebhookAlertRow, WebhookRow, WebhooksStore, DUE_CHANNEL,
};

use crate::error::{CoreError, Dependency};

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// The database behind core-service: the connections, opened and closed here. Its queries live
/// with the store of the context they belong to ([`Stores`]); this type itself answers only what
/// concerns the whole database (readiness, pool sizes, shutdown).
#[derive(Clone, Debug)]
pub enum Storage {
    Sqlite(SqliteStore),
    Postgres(PgStore),
}

/// PostgreSQL: sqlx's pool for everything, and pipelined connections for the item read by id
/// (`pg_reads.rs`), which decline to the pool whatever they cannot answer.
#[derive(Clone, Debug)]
pub struct PgStore {
    pool: PgPool,
    reads: Arc<items::PgReads>,
    /// The servers of a URL that names several, whose primary the pool follows (`pg_hosts.rs`).
    hosts: Option<Arc<pg_hosts::HostList>>,
    /// The standby of `--read-database-url`, for heavy reads that it has caught up for
    /// (`standby.rs`).
    standby: Option<Arc<standby::Standby>>,
}

impl PgStore {
    /// Changes whenever the pool moved to another server (a host list's new primary): a listener
    /// listens anew then. `None` for a URL of one server.
    pub(crate) fn moves(&self) -> Option<tokio::sync::watch::Receiver<u64>> {
        self.hosts.as_ref().map(|hosts| hosts.moves())
    }

    /// A connection for a heavy read, and whether it is the standby's: the standby's when it has
    /// replayed every write acknowledged before now, else the primary's.
    pub(crate) async fn lagging_read(&self) -> Result<(sqlx::pool::PoolConnection<sqlx::Postgres>, bool), CoreError> {
        if let Some(standby) = &self.standby {
            if let Some(conn) = standby.caught_up(&self.pool).await {
                return Ok((conn, true));
            }
        }
        Ok((self.pool.acquire().await.map_err(db_error)?, false))
    }

    /// Whether a read the standby answered with `err` is read again on the primary (and counts
    /// it): a standby that went away, or one that cancelled the read for a conflict with what it
    /// replays (SQLSTATE 40001, which [`db_error`] calls contention).
    pub(crate) fn read_again_on_primary(&self, err: &CoreError) -> bool {
        let again = matches!(err, CoreError::Contention(_) | CoreError::Unavailable { .. });
        if let (true, Some(standby)) = (again, &self.standby) {
            standby.failed_a_read(err);
        }
        again
    }
}

impl std::ops::Deref for PgStore {
    type Target = PgPool;

    fn deref(&self) -> &PgPool {
        &self.pool
    }
}

/// SQLite pools: a single writer and several readers on one WAL database.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    /// The only connection that writes; serialises write transactions.
    writer: SqlitePool,
    /// Read-only connections; WAL lets them read while the writer commits.
    reader: SqlitePool,
    /// Read-only connections of its own for the hottest point reads, made on the calling thread
    /// without sqlx's connection thread (`sqlite_reads.rs`); `reader` answers what they decline.
    inline: Arc<items::InlineReads>,
    /// Bumped by the writer's commit hook when a commit enqueued webhook deliveries.
    enqueued: webhooks::EnqueuedCounter,
}

/// Which database to open.
#[derive(Clone, Debug)]
pub enum DatabaseTarget {
    /// A SQLite file (created when missing).
    SqliteFile(std::path::PathBuf),
    /// A `postgres://` URL.
    Postgres(String),
}

impl DatabaseTarget {
    /// `postgres://…` or `postgresql://…` selects PostgreSQL, `sqlite:PATH`
    /// a SQLite file; with no URL the database is `DATA_DIR/canvas.db`.
    pub fn from_config(url: Option<&str>, data_dir: &Path) -> anyhow::Result<Self> {
        match url.map(str::trim).filter(|u| !u.is_empty()) {
            None => Ok(Self::SqliteFile(data_dir.join("canvas.db"))),
            Some(u) if is_postgres_url(u) => Ok(Self::Postgres(u.to_owned())),
            Some(u) if u.starts_with("sqlite:") => {
                let path = u.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
                let path = path.split('?').next().unwrap_or(path);
                Ok(Self::SqliteFile(path.into()))
            }
            Some(_) => anyhow::bail!("CANVAS_DATABASE_URL must start with postgres://, postgresql:// or sqlite:"),
        }
    }
}

/// Whether `url` names PostgreSQL (`postgres://…` or `postgresql://…`).
fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// Milliseconds a pooled PostgreSQL connection may sit idle and still be handed out without a
/// round trip to check it (`--db-check-idle-after-ms`; 0 checks every one). sqlx checks every one
/// by default (`test_before_acquire`): a round trip more before every query, about as long as a
/// GET's own read on PostgreSQL (docs/PERFORMANCE.md, "The GET path"). A connection in steady use
/// comes back within milliseconds, and sqlx checks each one as it is released anyway; one idle
/// longer may have been closed by the server (a restart, `idle_session_timeout`, a proxy's
/// time-out) and is checked, and replaced when it fails, as before.
pub const DEFAULT_CHECK_IDLE_AFTER_MS: u64 = 1000;

async fn check_if_idle_long(
    conn: &mut sqlx::PgConnection,
    meta: sqlx::pool::PoolConnectionMetadata,
    after: Duration,
) -> Result<bool, sqlx::Error> {
    if meta.idle_for < after {
        return Ok(true);
    }
    Ok(sqlx::Connection::ping(conn).await.is_ok())
}

/// Pool sizes and time-outs.
#[derive(Clone, Debug)]
pub struct PoolSettings {
    /// Upper bound of open connections (PostgreSQL) or readers (SQLite).
    pub max_connections: u32,
    /// How long a request waits for a free connection before it fails.
    pub acquire_timeout: Duration,
    /// PostgreSQL: how long a connection may sit idle and be used without a check first
    /// ([`DEFAULT_CHECK_IDLE_AFTER_MS`]); zero checks every one.
    pub check_idle_after: Duration,
    /// PostgreSQL: a standby for heavy reads (`--read-database-url`), none by default.
    pub standby: Option<StandbySettings>,
}

impl Default for PoolSettings {
    fn default() -> Self {
        Self {
            max_connections: 16,
            acquire_timeout: Duration::from_secs(5),
            check_idle_after: Duration::from_millis(DEFAULT_CHECK_IDLE_AFTER_MS),
            standby: None,
        }
    }
}

impl Storage {
    /// Opens the database and brings its schema up to date. On PostgreSQL,
    /// sqlx holds an advisory lock while migrating, so replicas starting
    /// together do not race.
    pub async fn connect(target: &DatabaseTarget, settings: &PoolSettings) -> anyhow::Result<Self> {
        match target {
            DatabaseTarget::SqliteFile(path) => {
                if settings.standby.is_some() {
                    anyhow::bail!(
                        "--read-database-url needs a PostgreSQL --database-url: SQLite's readers already read \
                         beside its writer"
                    );
                }
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir)?;
                }
                let options = SqliteConnectOptions::new()
                    .filename(path)
                    .create_if_missing(true)
                    .journal_mode(SqliteJournalMode::Wal)
                    .synchronous(SqliteSynchronous::Full)
                    .busy_timeout(Duration::from_secs(10))
                    .foreign_keys(true)
                    .disable_statement_logging();
                let enqueued = webhooks::EnqueuedCounter::default();
                let hooks = enqueued.clone();
                // A SQLite connection is a file handle no server can hang up: sqlx's check of
                // every connection before use (`test_before_acquire`, a message to the
                // connection's worker thread and back) protects against nothing here.
                let writer = SqlitePoolOptions::new()
                    .test_before_acquire(false)
                    .max_connections(1)
                    .after_connect(move |conn, _| {
                        let hooks = hooks.clone();
                        Box::pin(async move { hooks.install(conn).await })
                    })
                    .acquire_timeout(settings.acquire_timeout.max(Duration::from_secs(30)))
                    .connect_with(options.clone())
                    .await?;
                SQLITE_MIGRATIONS.run(&writer).await?;
                let reader = SqlitePoolOptions::new()
                    .test_before_acquire(false)
                    .max_connections(settings.max_connections.max(1))
                    .acquire_timeout(settings.acquire_timeout)
                    .connect_with(options.read_only(true))
                    .await?;
                let inline = Arc::new(items::InlineReads::new(path));
                Ok(Self::Sqlite(SqliteStore { writer, reader, inline, enqueued }))
            }
            DatabaseTarget::Postgres(url) => {
                let hosts = match pg_hosts::split_hosts(url) {
                    Some(urls) => Some(Arc::new(pg_hosts::HostList::new(&urls, |o| o.disable_statement_logging())?)),
                    None => None,
                };
                let (options, first) = match &hosts {
                    Some(hosts) => {
                        let Some(primary) = hosts.find_primary().await else {
                            anyhow::bail!("no server of the database URL accepts writes (asked {})", hosts.names());
                        };
                        (hosts.options(primary), primary)
                    }
                    None => (PgConnectOptions::from_str(url)?.disable_statement_logging(), 0),
                };
                let after = settings.check_idle_after;
                let pool = match (&hosts, after.is_zero()) {
                    (None, true) => PgPoolOptions::new(),
                    (None, false) => PgPoolOptions::new()
                        .test_before_acquire(false)
                        .before_acquire(move |conn, meta| Box::pin(check_if_idle_long(conn, meta, after))),
                    // A connection made before the primary moved may lead to a standby: dropped.
                    (Some(hosts), _) => {
                        let hosts = hosts.clone();
                        PgPoolOptions::new().test_before_acquire(false).before_acquire(move |conn, meta| {
                            let moved = hosts.predates_move(meta.age);
                            Box::pin(async move {
                                if moved {
                                    return Ok(false);
                                }
                                check_if_idle_long(conn, meta, after).await
                            })
                        })
                    }
                };
                let pool = pool
                    .max_connections(settings.max_connections.max(2))
                    .acquire_timeout(settings.acquire_timeout)
                    .connect_with(options)
                    .await?;
                POSTGRES_MIGRATIONS.run(&pool).await?;
                let standby = match &settings.standby {
                    Some(standby) => Some(Arc::new(standby::Standby::connect_lazy(standby, settings)?)),
                    None => None,
                };
                let reads = Arc::new(if hosts.is_some() { items::PgReads::off() } else { items::PgReads::new(url) });
                if let Some(hosts) = &hosts {
                    tokio::spawn(hosts.clone().follow(pool.clone(), first));
                }
                Ok(Self::Postgres(PgStore { pool, reads, hosts, standby }))
            }
        }
    }

    /// The database the query macros run on (each store answers its own handle).
    pub(crate) fn database(&self) -> &Storage {
        self
    }

    /// Which backend this is, for logs and metrics.
    pub fn backend_name(&self) -> &'static str {
        match self {
            Self::Sqlite(_) => "sqlite",
            Self::Postgres(_) => "postgres",
        }
    }

    /// A cheap round trip, for readiness checks.
    pub async fn ping(&self) -> Result<(), CoreError> {
        with_read_pool!(self, pool => {
            sqlx::query("SELECT 1").execute(pool).await.map_err(db_error)?;
        });
        Ok(())
    }

    /// Open and idle connections of the pool requests use (SQLite: the readers).
    pub fn pool_stats(&self) -> (u32, usize) {
        match self {
            Storage::Sqlite(store) => (store.reader_pool().size(), store.reader_pool().num_idle()),
            Storage::Postgres(pool) => (pool.size(), pool.num_idle()),
        }
    }

    /// Closes every connection; used on shutdown.
    pub async fn close(&self) {
        match self {
            Self::Sqlite(s) => {
                s.writer.close().await;
                s.reader.close().await;
            }
            Self::Postgres(store) => {
                store.reads.close();
                if let Some(standby) = &store.standby {
                    standby.close().await;
                }
                store.pool.close().await;
            }
        }
    }
}

/// A write transaction on either backend (SQLite: on the one writer connection), for operations
/// that group many statements into one commit.
pub enum WriteTx {
    Sqlite(sqlx::Transaction<'static, sqlx::Sqlite>),
    Postgres(sqlx::Transaction<'static, sqlx::Postgres>),
}

impl Storage {
    /// Begins a write transaction.
    pub(crate) async fn begin_write(&self) -> Result<WriteTx, CoreError> {
        Ok(match self {
            Self::Sqlite(store) => WriteTx::Sqlite(store.writer.begin().await.map_err(db_error)?),
            Self::Postgres(pool) => WriteTx::Postgres(pool.begin().await.map_err(db_error)?),
        })
    }
}

impl WriteTx {
    pub(crate) async fn commit(self) -> Result<(), CoreError> {
        match self {
            Self::Sqlite(tx) => tx.commit().await.map_err(db_error),
            Self::Postgres(tx) => tx.commit().await.map_err(db_error),
        }
    }
}

impl SqliteStore {
    fn writer_pool(&self) -> &SqlitePool {
        &self.writer
    }

    fn reader_pool(&self) -> &SqlitePool {
        &self.reader
    }
}

/// Whether a SQLSTATE says the database cannot serve now, whatever the request (see [`db_error`]).
fn database_unavailable(code: &str) -> bool {
    ["57", "08", "53"].iter().any(|class| code.starts_with(class)) || matches!(code, "25006" | "55000")
}

/// Sorts a database error into a domain meaning, by kind rather than by
/// constraint name, so both backends answer alike.
pub(crate) fn db_error(err: sqlx::Error) -> CoreError {
    match &err {
        // PostgreSQL's deadlock victim and serialisation failure: the transaction was rolled back
        // and repeating it succeeds (SQLSTATE class 40).
        sqlx::Error::Database(db) if matches!(db.code().as_deref(), Some("40P01" | "40001")) => {
            CoreError::Contention("a concurrent change to the same rows won; nothing was written, try again".into())
        }
        // A data exception (SQLSTATE class 22: a character PostgreSQL's `text` or `jsonb` cannot
        // hold, a number out of a column's range, text that is not of the column's type): the
        // value is the caller's, so it is a refusal, not an internal error. core-service refuses
        // such values by name before storage (`domain::text`); this holds for any it missed.
        sqlx::Error::Database(db)
            if db
                .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
                .is_some_and(|pg| pg.code().starts_with("22")) =>
        {
            tracing::warn!(sqlstate = %db.code().unwrap_or_default(), error = %db.message(), "the database refused a value");
            CoreError::Validation(Vec::new())
        }
        // The server ended the session or cannot take one (SQLSTATE class 57, operator
        // intervention: `pg_terminate_backend`, a shutdown or restart, a database dropped), the
        // connection failed (class 08), the server is out of connections or memory (class 53), the
        // connection reached a standby that cannot write (25006, read_only_sql_transaction: a
        // failover the routing has not followed yet), or the database takes no connections now
        // (55000, "is not currently accepting connections"): the database, not the request, is
        // the problem.
        sqlx::Error::Database(db) if db.code().is_some_and(|code| database_unavailable(&code)) => {
            tracing::warn!(sqlstate = %db.code().unwrap_or_default(), error = %db.message(), "the database ended a session");
            CoreError::unavailable(Dependency::Database, "it ended the session; try again", 1)
        }
        sqlx::Error::Database(db) => match db.kind() {
            sqlx::error::ErrorKind::UniqueViolation => CoreError::Conflict("the resource already exists".into()),
            sqlx::error::ErrorKind::ForeignKeyViolation => {
                CoreError::Conflict("a referenced resource does not exist".into())
            }
            _ => CoreError::Internal(err.into()),
        },
        sqlx::Error::PoolTimedOut => CoreError::unavailable(Dependency::Database, "it is busy; try again", 1),
        sqlx::Error::Io(_) | sqlx::Error::PoolClosed | sqlx::Error::Tls(_) => {
            CoreError::unavailable(Dependency::Database, "it does not answer", 5)
        }
        _ => CoreError::Internal(err.into()),
    }
}

/// One store per context, each over the same database: a service is handed only its own, so the
/// queries a context may run are the methods of its store (`tests/tests/architecture.rs` checks that
/// no other service names it).
#[derive(Clone, Debug)]
pub struct Stores {
    /// Items, their change events, diagram records, idempotency keys and presence.
    pub items: ItemsStore,
    /// Users, tokens, projects and memberships, sessions, OAuth, and access-change notices.
    pub accounts: AccountsStore,
    /// The knowledge queue, chunks and index state.
    pub retrieval: RetrievalStore,
    /// Webhook definitions, deliveries and attempts, signing keys.
    pub webhooks: WebhooksStore,
}

impl Stores {
    pub fn new(database: &Storage) -> Self {
        Self {
            items: ItemsStore::new(database.clone()),
            accounts: AccountsStore::new(database.clone()),
            retrieval: RetrievalStore::new(database.clone()),
            webhooks: WebhooksStore::new(database.clone()),
        }
    }
}
