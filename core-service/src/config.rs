//! core-service configuration: flags, each with an environment variable.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::domain::Environment;
use crate::service::ServiceSettings;
use crate::storage::{DatabaseTarget, PoolSettings, StandbySettings};

/// Settings of core-service. `canvasctl up` embeds the same struct.
#[derive(Debug, Clone, Args)]
pub struct CoreConfig {
    /// Directory of the embedded SQLite database and, with the local blob store, uploaded files.
    #[arg(long = "data-dir", env = "CANVAS_DATA_DIR", default_value = "./canvas-data")]
    pub data_dir: PathBuf,

    /// `postgres://…` selects PostgreSQL (several servers, `host1:port1,host2:port2`: the one that
    /// accepts writes, followed when it moves); empty means SQLite in the data directory.
    #[arg(long = "database-url", env = "CANVAS_DATABASE_URL")]
    pub database_url: Option<String>,

    /// PostgreSQL: a standby (or a router to standbys: a CloudNativePG `-ro` Service, HAProxy on
    /// Patroni's `/replica`) for heavy reads: listing pages, renders, exports, loading a search
    /// index. A read goes there only when the standby has replayed every write acknowledged before
    /// it began, so a client always reads its own writes; otherwise, or while it is down, the
    /// primary answers. Unset: every read goes to the primary.
    #[arg(long = "read-database-url", env = "CANVAS_READ_DATABASE_URL")]
    pub read_database_url: Option<String>,

    /// Milliseconds a heavy read waits for the standby of --read-database-url to catch up before
    /// it reads the primary instead.
    #[arg(long = "read-database-max-wait-ms", env = "CANVAS_READ_DATABASE_MAX_WAIT_MS",
          default_value_t = crate::storage::DEFAULT_STANDBY_MAX_WAIT_MS,
          value_parser = clap::value_parser!(u64).range(0..=crate::storage::MAX_STANDBY_MAX_WAIT_MS))]
    pub read_database_max_wait_ms: u64,

    /// Where uploaded files go: `local` (under the data directory) or
    /// `s3://bucket/prefix` (configured by the AWS_* environment variables).
    #[arg(long = "blob-store", env = "CANVAS_BLOB_STORE")]
    pub blob_store: Option<String>,

    /// The environment this server runs in: production, staging or development.
    /// Tokens of another environment are rejected.
    #[arg(long = "environment", env = "CANVAS_ENVIRONMENT", default_value = "production")]
    pub environment: String,

    /// Largest number of database connections (PostgreSQL) or readers (SQLite).
    #[arg(long = "db-max-connections", env = "CANVAS_DB_MAX_CONNECTIONS", default_value_t = 16)]
    pub db_max_connections: u32,

    /// Seconds a request waits for a database connection.
    #[arg(long = "db-acquire-timeout-secs", env = "CANVAS_DB_ACQUIRE_TIMEOUT_SECS", default_value_t = 5)]
    pub db_acquire_timeout_secs: u64,

    /// PostgreSQL: milliseconds a pooled connection may sit idle and still be used without a
    /// round trip to check it first (0 checks every one, sqlx's default: a round trip more per
    /// query). Longer idle connections are checked and replaced when the server closed them.
    #[arg(long = "db-check-idle-after-ms", env = "CANVAS_DB_CHECK_IDLE_AFTER_MS",
          default_value_t = crate::storage::DEFAULT_CHECK_IDLE_AFTER_MS)]
    pub db_check_idle_after_ms: u64,

    /// Milliseconds a replica answers a token or a project role it read before without reading it
    /// again (0 to 1000; 0 reads both on every request). A change of access made here is seen
    /// at once and on other replicas as soon as they are told (PostgreSQL NOTIFY); this is the
    /// bound when a replica misses the news.
    #[arg(long = "access-memory-ms", env = "CANVAS_ACCESS_MEMORY_MS", default_value_t = crate::service::access::cache::MAX_ACCESS_MEMORY_MS,
          value_parser = clap::value_parser!(u64).range(0..=crate::service::access::cache::MAX_ACCESS_MEMORY_MS))]
    pub access_memory_ms: u64,

    /// Knowledge index and retrieval: embedding model, agents, chunking.
    #[command(flatten)]
    pub knowledge: crate::knowledge::KnowledgeConfig,

    /// Webhooks: signing-key secret, retries, automatic disable, destinations.
    #[command(flatten)]
    pub webhooks: crate::webhooks::WebhookConfig,

    /// Sessions, sign-in throttling and the OAuth authorization server.
    #[command(flatten)]
    pub accounts: crate::service::account_config::AccountConfig,
}

impl CoreConfig {
    pub fn environment(&self) -> anyhow::Result<Environment> {
        self.environment.parse().map_err(|e: crate::error::CoreError| anyhow::anyhow!("--environment {e}"))
    }

    pub fn database_target(&self) -> anyhow::Result<DatabaseTarget> {
        DatabaseTarget::from_config(self.database_url.as_deref(), &self.data_dir)
    }

    pub fn pool_settings(&self) -> PoolSettings {
        PoolSettings {
            max_connections: self.db_max_connections,
            acquire_timeout: Duration::from_secs(self.db_acquire_timeout_secs),
            check_idle_after: Duration::from_millis(self.db_check_idle_after_ms),
            standby: self.read_database_url.as_deref().map(str::trim).filter(|url| !url.is_empty()).map(|url| {
                StandbySettings { url: url.to_owned(), max_wait: Duration::from_millis(self.read_database_max_wait_ms) }
            }),
        }
    }

    pub fn service_settings(&self) -> anyhow::Result<ServiceSettings> {
        Ok(ServiceSettings {
            environment: self.environment()?,
            accounts: self.accounts.clone(),
            access_memory: Duration::from_millis(self.access_memory_ms),
            ..ServiceSettings::default()
        })
    }
}

/// The standalone binary's flags.
#[derive(Debug, Clone, clap::Parser)]
#[command(name = "core-service", version, about = "The canvas core gRPC service")]
pub struct CoreCli {
    #[command(flatten)]
    pub core: CoreConfig,

    /// Address of the gRPC server.
    #[arg(long = "grpc-addr", env = "CANVAS_GRPC_ADDR", default_value = "127.0.0.1:50051")]
    pub grpc_addr: SocketAddr,

    /// Log format, shutdown grace period, trace export: the same for every component.
    #[command(flatten)]
    pub process: canvas_runtime::ProcessArgs,

    /// Address of the Prometheus `/metrics` HTTP listener; unset: no listener.
    #[arg(long = "metrics-addr", env = "CANVAS_METRICS_ADDR")]
    pub metrics_addr: Option<SocketAddr>,

    #[command(subcommand)]
    pub command: Option<CoreCommand>,
}

#[derive(Debug, Clone, clap::Subcommand)]
pub enum CoreCommand {
    /// Serve gRPC (the default).
    Serve,
    /// Bring the database schema up to date and exit (the Kubernetes migration Job). Replicas
    /// starting together are safe too: PostgreSQL migrations hold an advisory lock.
    Migrate,
    /// On an installation with no administrator, create one and print its
    /// token once as JSON `{"userId", "adminToken"}`; otherwise do nothing.
    BootstrapAdmin {
        #[arg(long, default_value = "admin")]
        name: String,
    },
}
