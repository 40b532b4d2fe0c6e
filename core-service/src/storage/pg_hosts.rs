//! A PostgreSQL URL that names several servers, as libpq takes it
//! (`postgres://user@db1:5432,db2:5432/canvas?target_session_attrs=read-write`): the service
//! connects to the one that accepts writes and follows the primary when it moves, without a
//! router (HAProxy, a Kubernetes `-rw` Service) in front.
//!
//! - At start every server is asked in turn (`SELECT pg_is_in_recovery()`, as libpq's
//!   `target_session_attrs=read-write` does); the first that is not in recovery is the primary.
//!   None answering is a start-up error naming every server. The service always needs the primary,
//!   so a `target_session_attrs` of the URL is not consulted.
//! - Every [`CHECK_EVERY`] the pool asks its server the same question. When that fails or says
//!   "in recovery", the servers are asked again; a new primary becomes the pool's server
//!   (`Pool::set_connect_options`), connections made before the move are dropped when next taken
//!   from the pool (they may lead to a standby that now refuses writes), and every listener is
//!   told to listen anew (a listener on a demoted server would hear nothing).
//! - The pipelined item reads (`items/pg_reads.rs`) are off with a host list: a connection of
//!   theirs to a demoted primary would answer stale reads. Reads go through the pool.

use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use sqlx::postgres::{PgConnectOptions, PgPool};
use sqlx::{ConnectOptions, Connection};
use tokio::sync::watch;

/// How often the pool's server is asked whether it still accepts writes.
pub const CHECK_EVERY: Duration = Duration::from_secs(1);
/// How long one server may take to answer whether it accepts writes.
const ASK_WITHIN: Duration = Duration::from_secs(2);

/// The servers of a host list, and which one the pool uses.
#[derive(Debug)]
pub(super) struct HostList {
    servers: Vec<(String, PgConnectOptions)>,
    /// When the pool last moved to another server: connections older than this are dropped.
    moved_at: Mutex<Option<Instant>>,
    /// Counts the moves; listeners listen anew on each.
    moves: watch::Sender<u64>,
}

/// The single-server URLs of `url` when it names more than one server (`host1:port1,host2:port2`),
/// else `None`. A `target_session_attrs` parameter is dropped: the primary is always wanted.
pub(super) fn split_hosts(url: &str) -> Option<Vec<String>> {
    let (scheme, rest) = url.split_once("://")?;
    let (authority, tail) = match rest.find(['/', '?']) {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let (user, hosts) = match authority.rsplit_once('@') {
        Some((user, hosts)) => (format!("{user}@"), hosts),
        None => (String::new(), authority),
    };
    if !hosts.contains(',') {
        return None;
    }
    let tail = without_parameter(tail, "target_session_attrs");
    Some(hosts.split(',').map(|host| format!("{scheme}://{user}{}{tail}", host.trim())).collect())
}

/// `tail` (`/db?a=1&b=2`) without the query parameter `name`.
fn without_parameter(tail: &str, name: &str) -> String {
    let Some((path, query)) = tail.split_once('?') else { return tail.to_owned() };
    let kept: Vec<&str> = query.split('&').filter(|p| p.split('=').next() != Some(name) && !p.is_empty()).collect();
    if kept.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{}", kept.join("&"))
    }
}

/// Whether the server at `options` accepts writes: `Some(true)` for a primary, `Some(false)` for a
/// standby, `None` when it does not answer within [`ASK_WITHIN`].
async fn accepts_writes(options: &PgConnectOptions) -> Option<bool> {
    let ask = async {
        let mut conn = options.connect().await.ok()?;
        let in_recovery: bool = sqlx::query_scalar("SELECT pg_is_in_recovery()").fetch_one(&mut conn).await.ok()?;
        let _ = conn.close().await;
        Some(!in_recovery)
    };
    tokio::time::timeout(ASK_WITHIN, ask).await.ok().flatten()
}

impl HostList {
    /// The servers of `urls` (from [`split_hosts`]), each with `tune` applied.
    pub(super) fn new(urls: &[String], tune: impl Fn(PgConnectOptions) -> PgConnectOptions) -> anyhow::Result<Self> {
        let servers = urls
            .iter()
            .map(|url| Ok((server_name(url), tune(PgConnectOptions::from_str(url)?))))
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Self { servers, moved_at: Mutex::new(None), moves: watch::channel(0).0 })
    }

    /// The first server that accepts writes, by its place in the list.
    pub(super) async fn find_primary(&self) -> Option<usize> {
        for (index, (_, options)) in self.servers.iter().enumerate() {
            if accepts_writes(options).await == Some(true) {
                return Some(index);
            }
        }
        None
    }

    pub(super) fn options(&self, index: usize) -> PgConnectOptions {
        self.servers[index].1.clone()
    }

    /// The servers, for an error that names them.
    pub(super) fn names(&self) -> String {
        self.servers.iter().map(|(name, _)| name.as_str()).collect::<Vec<_>>().join(", ")
    }

    /// Whether a pooled connection made `age` ago predates the last move (and so may lead to the
    /// old primary).
    pub(super) fn predates_move(&self, age: Duration) -> bool {
        let moved_at = *self.moved_at.lock();
        moved_at.is_some_and(|moved| Instant::now().checked_sub(age).is_some_and(|made| made < moved))
    }

    /// Told on every move: listeners listen anew.
    pub(super) fn moves(&self) -> watch::Receiver<u64> {
        self.moves.subscribe()
    }

    /// Follows the primary for `pool` (which starts on server `current`) until the pool closes.
    pub(super) async fn follow(self: Arc<Self>, pool: PgPool, mut current: usize) {
        let mut every = tokio::time::interval(CHECK_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if pool.is_closed() {
                return;
            }
            let still = tokio::time::timeout(
                ASK_WITHIN,
                sqlx::query_scalar::<_, bool>("SELECT pg_is_in_recovery()").fetch_one(&pool),
            )
            .await;
            if matches!(still, Ok(Ok(false))) {
                continue;
            }
            let Some(primary) = self.find_primary().await else {
                tracing::warn!(servers = %self.names(), "no server of the database host list accepts writes; asking again");
                continue;
            };
            if primary != current {
                tracing::warn!(from = %self.servers[current].0, to = %self.servers[primary].0, "the database primary moved; following it");
                pool.set_connect_options(self.options(primary));
                *self.moved_at.lock() = Some(Instant::now());
                self.moves.send_modify(|n| *n += 1);
                current = primary;
            }
        }
    }
}

/// `host:port` of a single-server URL, for logs (never the password).
fn server_name(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?']).next().unwrap_or(rest);
    authority.rsplit_once('@').map_or(authority, |(_, host)| host).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_with_several_hosts_is_split_into_one_url_per_host() {
        assert_eq!(split_hosts("postgres://u:p@db1:5432/canvas"), None);
        assert_eq!(
            split_hosts("postgres://u:p@db1:5432,db2:5433/canvas?target_session_attrs=read-write&sslmode=disable")
                .unwrap(),
            ["postgres://u:p@db1:5432/canvas?sslmode=disable", "postgres://u:p@db2:5433/canvas?sslmode=disable"]
        );
        assert_eq!(
            split_hosts("postgresql://db1,db2?target_session_attrs=read-write").unwrap(),
            ["postgresql://db1", "postgresql://db2"]
        );
        assert_eq!(server_name("postgres://u:secret@db2:5433/canvas?x=1"), "db2:5433");
    }

    proptest::proptest! {
        /// Any user, host list, database and parameters: one URL per host, in order, each with the
        /// same user, database and parameters but `target_session_attrs`; a single host is no list.
        #[test]
        fn every_host_gets_the_rest_of_the_url(
            user in "[a-z][a-z0-9]{0,8}(:[A-Za-z0-9%]{1,12})?",
            hosts in proptest::collection::vec("[a-z0-9.-]{1,20}(:[0-9]{1,5})?", 1..5),
            database in "[a-z_]{1,10}",
            params in proptest::collection::vec(("[a-z_]{1,12}", "[a-z0-9-]{0,10}"), 0..4),
        ) {
            let query: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let tail = if query.is_empty() { format!("/{database}") } else { format!("/{database}?{}", query.join("&")) };
            let url = format!("postgres://{user}@{}{tail}", hosts.join(","));
            let split = split_hosts(&url);
            if hosts.len() == 1 {
                proptest::prop_assert_eq!(split, None);
            } else {
                let kept: Vec<&String> = query.iter().filter(|p| !p.starts_with("target_session_attrs=")).collect();
                let rest = if kept.is_empty() {
                    format!("/{database}")
                } else {
                    format!("/{database}?{}", kept.iter().map(|p| p.as_str()).collect::<Vec<_>>().join("&"))
                };
                let expected: Vec<String> = hosts.iter().map(|h| format!("postgres://{user}@{h}{rest}")).collect();
                proptest::prop_assert_eq!(split, Some(expected));
            }
        }
    }

    #[test]
    fn only_connections_made_before_a_move_are_dropped() {
        let list = HostList::new(&["postgres://a/x".into(), "postgres://b/x".into()], |o| o).unwrap();
        assert!(!list.predates_move(Duration::from_secs(60)), "nothing moved yet");
        *list.moved_at.lock() = Some(Instant::now());
        std::thread::sleep(Duration::from_millis(20));
        assert!(list.predates_move(Duration::from_secs(1)), "made a second ago, before the move");
        assert!(!list.predates_move(Duration::from_millis(1)), "made after the move");
    }
}
