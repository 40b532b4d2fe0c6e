//! A PostgreSQL primary and a streaming standby of it, made for one test from Debian's
//! PostgreSQL 15 binaries (`initdb`, `pg_basebackup`, `pg_ctl`) on two free loopback ports: what
//! `--read-database-url` reads from in production, here with a deliberate replay delay
//! (`recovery_min_apply_delay`) so that a read served by the standby without care would miss a
//! write it was answered for.
//!
//! PostgreSQL refuses to run as root: as root, every command runs as the `postgres` user
//! (`runuser`), which owns the directory.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use sqlx::{Connection, Executor, PgConnection};

const PG_BIN: &str = "/usr/lib/postgresql/15/bin";

/// The two servers; both are stopped (immediately) when this is dropped.
pub struct StandbyPair {
    dir: tempfile::TempDir,
    primary_port: u16,
    standby_port: u16,
    as_postgres: bool,
}

impl StandbyPair {
    /// Starts the pair with the standby replaying `delay` behind the primary, and a database
    /// `canvas` on it. `None` (the test skips) without PostgreSQL's binaries, unless `CI=true`.
    pub async fn start_or_skip(delay: Duration) -> Option<StandbyPair> {
        Self::start_with(delay, "").await
    }

    /// [`Self::start_or_skip`] with more `postgresql.conf` lines for the standby.
    pub async fn start_with(delay: Duration, standby_settings: &str) -> Option<StandbyPair> {
        if !Path::new(PG_BIN).join("initdb").exists() {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("{PG_BIN}/initdb is missing and CI=true: the standby tests must run");
            }
            eprintln!("SKIPPED: {PG_BIN}/initdb is missing");
            return None;
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let as_postgres = is_root();
        if as_postgres {
            let chown = Command::new("chown").arg("postgres:postgres").arg(dir.path()).status().expect("chown");
            assert!(chown.success(), "chown the pair's directory to postgres");
        }
        let pair = StandbyPair { primary_port: free_port(), standby_port: free_port(), dir, as_postgres };
        let primary = pair.data("primary");
        pair.run("initdb", &["-D", &primary, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
        pair.configure("primary", &format!("port = {}\nwal_level = replica\nmax_wal_senders = 4\n", pair.primary_port));
        pair.start("primary");
        let standby = pair.data("standby");
        let port = pair.primary_port.to_string();
        pair.run(
            "pg_basebackup",
            &["-h", "127.0.0.1", "-p", &port, "-U", "postgres", "-D", &standby, "-R", "-X", "stream", "--no-sync"],
        );
        pair.configure(
            "standby",
            &format!(
                "port = {}\nrecovery_min_apply_delay = '{}ms'\n{standby_settings}",
                pair.standby_port,
                delay.as_millis()
            ),
        );
        pair.start("standby");
        let mut admin = PgConnection::connect(&pair.url(pair.primary_port, "postgres")).await.expect("the primary");
        admin.execute("CREATE DATABASE canvas").await.expect("create the database");
        Some(pair)
    }

    /// The primary's `canvas` database.
    pub fn primary_url(&self) -> String {
        self.url(self.primary_port, "canvas")
    }

    /// The standby's `canvas` database.
    pub fn standby_url(&self) -> String {
        self.url(self.standby_port, "canvas")
    }

    /// Waits (up to a minute) until the standby has replayed everything the primary has written.
    pub async fn wait_caught_up(&self) {
        let mut primary = PgConnection::connect(&self.url(self.primary_port, "postgres")).await.expect("primary");
        let position: String =
            sqlx::query_scalar("SELECT pg_current_wal_lsn()::text").fetch_one(&mut primary).await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut standby = PgConnection::connect(&self.url(self.standby_port, "postgres")).await.expect("standby");
        loop {
            let caught_up: Option<bool> = sqlx::query_scalar("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn")
                .bind(&position)
                .fetch_one(&mut standby)
                .await
                .unwrap();
            if caught_up == Some(true) {
                return;
            }
            assert!(Instant::now() < deadline, "the standby did not replay up to {position} within a minute");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Stops the standby at once, as a machine that died.
    pub fn stop_standby(&self) {
        let standby = self.data("standby");
        self.run("pg_ctl", &["-D", &standby, "-m", "immediate", "-w", "stop"]);
    }

    fn url(&self, port: u16, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{port}/{database}")
    }

    fn data(&self, name: &str) -> String {
        self.dir.path().join(name).to_string_lossy().into_owned()
    }

    fn configure(&self, name: &str, settings: &str) {
        let conf = PathBuf::from(self.data(name)).join("postgresql.conf");
        let mut text = std::fs::read_to_string(&conf).expect("postgresql.conf");
        text += &format!(
            "\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{}'\nmax_connections = 60\n{settings}",
            self.dir.path().display()
        );
        std::fs::write(&conf, text).expect("write postgresql.conf");
    }

    fn start(&self, name: &str) {
        let (data, log) = (self.data(name), self.data(&format!("{name}.log")));
        self.run("pg_ctl", &["-D", &data, "-l", &log, "-w", "-t", "60", "start"]);
    }

    fn run(&self, program: &str, args: &[&str]) {
        let program = format!("{PG_BIN}/{program}");
        let mut command = if self.as_postgres {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--", &program]);
            command
        } else {
            Command::new(&program)
        };
        let output = command.args(args).output().unwrap_or_else(|e| panic!("{program}: {e}"));
        assert!(
            output.status.success(),
            "{program} {args:?} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

impl Drop for StandbyPair {
    fn drop(&mut self) {
        for name in ["standby", "primary"] {
            let program = format!("{PG_BIN}/pg_ctl");
            let data = self.data(name);
            let args = ["-D", data.as_str(), "-m", "immediate", "stop"];
            let _ = if self.as_postgres {
                Command::new("runuser").args(["-u", "postgres", "--", &program]).args(args).output()
            } else {
                Command::new(&program).args(args).output()
            };
        }
    }
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

/// A loopback port free now (a moment's race with another process binding it is accepted).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}
