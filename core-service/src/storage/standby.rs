//! Reads from a PostgreSQL standby (`--read-database-url`) that never miss an acknowledged write.
//!
//! A standby replays the primary's WAL a little behind it (about a millisecond under the failover
//! run's load, docs/PERFORMANCE.md). A read sent there naively can miss the write its own client
//! was answered for a moment ago, so a read goes to the standby only when the standby has caught
//! up with everything the primary had written when the read began:
//!
//! 1. the primary's WAL position is asked (`pg_current_wal_lsn()`, a round trip that reads no
//!    table): every write acknowledged before this read began lies at or below it, whoever wrote
//!    it and through whichever replica of the service;
//! 2. on a standby connection, `pg_last_wal_replay_lsn() >= that position` is asked, again every
//!    [`POLL_EVERY`] until it holds or [`StandbySettings::max_wait`] passes;
//! 3. the read runs on that same connection (a routed `-ro` Service may spread connections over
//!    several standbys, each at its own position), or, when the standby is behind, down, or not a
//!    standby at all, on the primary as before.
//!
//! A read so served sees at least what a read of the primary at its start would have seen: the
//! same guarantee as a read of the primary outside a transaction, so no client ever misses its own
//! write, on one replica of the service or several. Only heavy reads take this path (a page of a
//! listing, which renders and Mermaid exports read too, a project's export, loading a project's
//! search index); a read by id stays on the primary, where the two extra round trips would cost
//! more than they save.

use std::str::FromStr;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{ConnectOptions, Postgres};

use super::PoolSettings;

/// How often a standby that is behind is asked again while a read waits for it.
const POLL_EVERY: Duration = Duration::from_millis(2);
/// How long a read waits for a standby connection before it reads the primary instead.
const CONNECT_WITHIN: Duration = Duration::from_secs(1);
/// After a standby failed to answer, how long reads leave it alone (no read pays for a connection
/// attempt to a server that is down).
const REST_AFTER_FAILURE: Duration = Duration::from_secs(2);
/// After a read gave up waiting for a lagging standby, how long later reads ask it once without
/// waiting (a standby seconds behind must not add the wait to every read).
const IMPATIENT_AFTER_LAG: Duration = Duration::from_secs(1);

/// The default of `--read-database-max-wait-ms`.
pub const DEFAULT_STANDBY_MAX_WAIT_MS: u64 = 50;
/// The largest `--read-database-max-wait-ms`: a wait longer than this is a standby to stop using.
pub const MAX_STANDBY_MAX_WAIT_MS: u64 = 10_000;

/// Where lag-tolerant reads may go.
#[derive(Clone, Debug)]
pub struct StandbySettings {
    /// A `postgres://` URL of one standby, or of a router to standbys (a CloudNativePG `-ro`
    /// Service, HAProxy on Patroni's `/replica`).
    pub url: String,
    /// How long a read waits for the standby to replay what the primary had written when the read
    /// began, before it reads the primary instead.
    pub max_wait: Duration,
}

/// The standby's pool and what reads learnt about it.
#[derive(Debug)]
pub(super) struct Standby {
    pool: PgPool,
    max_wait: Duration,
    /// Until when reads leave the standby alone after it failed.
    resting_until: Mutex<Option<Instant>>,
    /// Until when reads do not wait for it after it lagged.
    impatient_until: Mutex<Option<Instant>>,
}

/// Why a read went where it went (the `outcome` label of `database_lagging_reads_total`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Served {
    /// On the standby, caught up at the first ask.
    Standby,
    /// On the standby, after waiting for it to replay.
    StandbyAfterWait,
    /// On the primary: the standby had not replayed far enough within the wait.
    PrimaryStandbyBehind,
    /// On the primary: the standby could not be reached, or is resting after it could not be.
    PrimaryStandbyDown,
    /// On the primary: the server of the read URL is not in recovery (not a standby).
    PrimaryNotAStandby,
    /// On the primary: the primary's own position could not be read (a failover under way).
    PrimaryPositionUnknown,
    /// On the primary, again: the standby failed the read after its check (it went away, or
    /// cancelled the read for a conflict with its replay).
    PrimaryAfterStandbyFailed,
}

impl Served {
    fn label(self) -> &'static str {
        match self {
            Self::Standby => "standby",
            Self::StandbyAfterWait => "standby_after_wait",
            Self::PrimaryStandbyBehind => "primary_standby_behind",
            Self::PrimaryStandbyDown => "primary_standby_down",
            Self::PrimaryNotAStandby => "primary_not_a_standby",
            Self::PrimaryPositionUnknown => "primary_position_unknown",
            Self::PrimaryAfterStandbyFailed => "primary_after_standby_failed",
        }
    }

    fn record(self) {
        metrics::counter!("database_lagging_reads_total", "outcome" => self.label()).increment(1);
    }
}

impl Standby {
    /// A pool on the standby that connects when first used: a standby that is down at start-up
    /// only sends reads to the primary.
    pub(super) fn connect_lazy(settings: &StandbySettings, pool: &PoolSettings) -> anyhow::Result<Self> {
        if super::pg_hosts::split_hosts(&settings.url).is_some() {
            anyhow::bail!(
                "--read-database-url names several servers: give one standby or a router to the standbys \
                 (a host list is for --database-url)"
            );
        }
        if !super::is_postgres_url(&settings.url) {
            anyhow::bail!("--read-database-url must start with postgres:// or postgresql://");
        }
        let options: PgConnectOptions = PgConnectOptions::from_str(&settings.url)
            .map_err(|e| anyhow::anyhow!("--read-database-url is not a PostgreSQL URL: {e}"))?;
        let after = pool.check_idle_after;
        let pool = PgPoolOptions::new()
            .test_before_acquire(false)
            .before_acquire(move |conn, meta| Box::pin(super::check_if_idle_long(conn, meta, after)))
            .max_connections(pool.max_connections.max(2))
            .acquire_timeout(CONNECT_WITHIN)
            .connect_lazy_with(options.disable_statement_logging());
        Ok(Self {
            pool,
            max_wait: settings.max_wait,
            resting_until: Mutex::new(None),
            impatient_until: Mutex::new(None),
        })
    }

    /// A standby connection that has replayed everything the primary (`primary`) had written when
    /// this was called, or `None`: the read goes to the primary.
    pub(super) async fn caught_up(&self, primary: &PgPool) -> Option<PoolConnection<Postgres>> {
        let (conn, served) = self.try_caught_up(primary).await;
        served.record();
        conn
    }

    async fn try_caught_up(&self, primary: &PgPool) -> (Option<PoolConnection<Postgres>>, Served) {
        let now = Instant::now();
        if self.resting_until.lock().is_some_and(|until| now < until) {
            return (None, Served::PrimaryStandbyDown);
        }
        let Ok(position) =
            sqlx::query_scalar::<_, String>("SELECT pg_current_wal_lsn()::text").fetch_one(primary).await
        else {
            return (None, Served::PrimaryPositionUnknown);
        };
        let Ok(mut conn) = self.pool.acquire().await else {
            return (None, self.rest());
        };
        let patient = !self.impatient_until.lock().is_some_and(|until| now < until);
        let deadline = Instant::now() + if patient { self.max_wait } else { Duration::ZERO };
        let mut waited = false;
        loop {
            let caught_up = sqlx::query_scalar::<_, Option<bool>>("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn")
                .bind(&position)
                .fetch_one(&mut *conn)
                .await;
            match caught_up {
                Ok(Some(true)) => {
                    return (Some(conn), if waited { Served::StandbyAfterWait } else { Served::Standby });
                }
                Ok(Some(false)) if Instant::now() + POLL_EVERY <= deadline => {
                    waited = true;
                    tokio::time::sleep(POLL_EVERY).await;
                }
                Ok(Some(false)) => {
                    *self.impatient_until.lock() = Some(Instant::now() + IMPATIENT_AFTER_LAG);
                    return (None, Served::PrimaryStandbyBehind);
                }
                // NULL: the server is not in recovery. It may be a promoted standby that is now a
                // primary of its own, or the old primary: neither is known to hold what the
                // primary acknowledged.
                Ok(None) => return (None, Served::PrimaryNotAStandby),
                Err(_) => return (None, self.rest()),
            }
        }
    }

    /// A read this standby had caught up for failed with `err`: counted, and the read goes to the
    /// primary. A standby gone away is left alone for a while, as when it cannot be reached.
    pub(super) fn failed_a_read(&self, err: &crate::error::CoreError) {
        Served::PrimaryAfterStandbyFailed.record();
        tracing::warn!(error = %err, "the read database failed a read; reading the primary");
        if matches!(err, crate::error::CoreError::Unavailable { .. }) {
            self.rest();
        }
    }

    fn rest(&self) -> Served {
        *self.resting_until.lock() = Some(Instant::now() + REST_AFTER_FAILURE);
        tracing::warn!(
            "the read database (--read-database-url) does not answer; reads go to the primary for {REST_AFTER_FAILURE:?}"
        );
        Served::PrimaryStandbyDown
    }

    pub(super) async fn close(&self) {
        self.pool.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_outcome_has_its_own_label() {
        let all = [
            Served::Standby,
            Served::StandbyAfterWait,
            Served::PrimaryStandbyBehind,
            Served::PrimaryStandbyDown,
            Served::PrimaryNotAStandby,
            Served::PrimaryPositionUnknown,
            Served::PrimaryAfterStandbyFailed,
        ];
        let labels: std::collections::BTreeSet<_> = all.iter().map(|s| s.label()).collect();
        assert_eq!(labels.len(), all.len());
        assert_eq!(labels.iter().filter(|l| l.starts_with("standby")).count(), 2, "{labels:?}");
    }

    #[tokio::test]
    async fn a_host_list_or_a_url_of_another_kind_is_refused_naming_the_flag() {
        let pool = PoolSettings::default();
        let several = StandbySettings { url: "postgres://u@a:1,b:2/db".into(), max_wait: Duration::ZERO };
        let refused = Standby::connect_lazy(&several, &pool).unwrap_err().to_string();
        assert!(refused.contains("--read-database-url") && refused.contains("several servers"), "{refused}");
        let other = StandbySettings { url: "mysql://u@a/db".into(), max_wait: Duration::ZERO };
        let refused = Standby::connect_lazy(&other, &pool).unwrap_err().to_string();
        assert!(refused.contains("--read-database-url"), "{refused}");
    }
}
