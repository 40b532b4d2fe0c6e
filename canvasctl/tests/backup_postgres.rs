//! docs/OPERATIONS.md's PostgreSQL procedure, run for real on PostgreSQL 15's own tools: a scratch
//! cluster with WAL archiving serves `canvasctl up` under the write load, `pg_basebackup` runs in
//! the middle of it, and after a target time and one more write the data directory (the blobs) is
//! copied; then a point-in-time restore into a second cluster on another port (`restore_command`,
//! `recovery_target_time`, `recovery.signal`) with a second service on it and the blob copy. Every
//! write acknowledged before the target is there with its last value, and the write after it is not.
//!
//! PostgreSQL refuses to run as root: as root the clusters run as `postgres` (`runuser`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::load::{self, Api};
use common::{wait_ready, Running, BIN};

/// PostgreSQL's programs (`pg_config --bindir` of the installed 15).
const PG_BIN: &str = "/usr/lib/postgresql/15/bin";

/// A command of PostgreSQL's, as `postgres` when this test runs as root.
fn pg(program: &str) -> Command {
    let path = format!("{PG_BIN}/{program}");
    if as_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--", &path]);
        command
    } else {
        Command::new(path)
    }
}

fn as_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

fn succeeds(command: &mut Command, what: &str) -> String {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let said = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{what}: {said}");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// A free loopback port (PostgreSQL binds it a moment later).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A running cluster, stopped (immediately: it is scratch) when dropped, even by a failed assert.
struct Cluster {
    dir: PathBuf,
    port: u16,
}

impl Cluster {
    fn start(dir: &Path, port: u16, settings: &str) -> Self {
        let conf = dir.join("postgresql.auto.conf");
        let mut text = std::fs::read_to_string(&conf).unwrap_or_default();
        text.push_str(&format!("port = {port}\nlisten_addresses = '127.0.0.1'\n{settings}"));
        std::fs::write(&conf, text).unwrap();
        let log = dir.with_extension("log");
        let started = pg("pg_ctl").arg("-D").arg(dir).arg("-l").arg(&log).args(["-w", "start"]).output().unwrap();
        let cluster = Self { dir: dir.to_owned(), port };
        assert!(started.status.success(), "pg_ctl start: {}", std::fs::read_to_string(&log).unwrap_or_default());
        cluster
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    fn sql(&self, query: &str) -> String {
        let port = self.port.to_string();
        succeeds(pg("psql").args(["-h", "127.0.0.1", "-p", &port, "-U", "postgres", "-Atc", query]), query)
    }

    /// Polls `query` until it answers `t` (a state PostgreSQL reaches by itself), for at most 60 s.
    fn wait_until(&self, query: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.sql(query) != "t" {
            assert!(Instant::now() < deadline, "PostgreSQL never answered t to {query}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = pg("pg_ctl").arg("-D").arg(&self.dir).args(["-m", "immediate", "-w", "stop"]).output();
    }
}

/// `canvasctl up` on PostgreSQL at `url`, with `data_dir` for the blobs and credentials.
fn start_on(data_dir: &Path, url: &str) -> Running {
    let child = Command::new(BIN)
        .args(["up", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .env("CANVAS_DATABASE_URL", url)
        .env_remove("CANVAS_BLOB_STORE")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("canvasctl starts");
    Running(child)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_base_backup_and_the_wal_archive_restore_to_a_point_in_time() {
    if !Path::new(PG_BIN).join("pg_basebackup").exists() {
        assert!(
            !std::env::var("CI").is_ok_and(|v| v == "true"),
            "PostgreSQL 15's programs are not in {PG_BIN} and CI=true"
        );
        eprintln!("SKIPPED: PostgreSQL 15's programs are not in {PG_BIN}; set CI=true to make this a failure");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let (primary, base, restored, archive) =
        (root.join("primary"), root.join("base"), root.join("restored"), root.join("wal-archive"));
    std::fs::create_dir_all(&archive).unwrap();
    // The clusters' owner must reach and own every directory PostgreSQL touches.
    let chown = |path: &Path| {
        if as_root() {
            succeeds(Command::new("chown").args(["-R", "postgres:postgres"]).arg(path), "chown");
        }
    };
    chown(root);
    succeeds(pg("initdb").arg("-D").arg(&primary).args(["--auth=trust", "-U", "postgres"]), "initdb");
    let archiving = format!(
        "wal_level = replica\narchive_mode = on\narchive_command = 'test ! -f {0}/%f && cp %p {0}/%f'\n\
         unix_socket_directories = '{1}'\n",
        archive.display(),
        root.display()
    );
    let first = Cluster::start(&primary, free_port(), &archiving);

    // The service on the primary, and pg_basebackup in the middle of the load.
    let data = root.join("data");
    let running = start_on(&data, &first.url());
    let creds = wait_ready(&data, None);
    let api = Api::new(&creds);
    let port = first.port.to_string();
    let mut basebackup = tokio::process::Command::from(pg("pg_basebackup"));
    basebackup.args(["-h", "127.0.0.1", "-p", &port, "-U", "postgres", "-X", "stream", "-c", "fast", "-D"]).arg(&base);
    let load = load::around(&api, || basebackup.output()).await;
    let taken = load.step.expect("pg_basebackup runs");
    assert!(taken.status.success(), "pg_basebackup: {}", String::from_utf8_lossy(&taken.stderr));
    succeeds(pg("pg_verifybackup").arg(&base), "pg_verifybackup");

    // The target: after every acknowledged write (each committed before its 200), before one more.
    let target = first.sql("SELECT now()");
    let acknowledged_by_target = Instant::now();
    let after_target = api.create_label("written after the recovery target").await;
    let segment = first.sql("SELECT pg_walfile_name(pg_switch_wal())");
    first.wait_until(&format!("SELECT last_archived_wal >= '{segment}' FROM pg_stat_archiver"));
    drop(running);
    // The blobs (and the development secret and credentials beside them) after the target.
    let restored_data = root.join("restored-data");
    succeeds(Command::new("cp").arg("-a").arg(&data).arg(&restored_data), "copy the data directory");
    drop(first);

    // The point-in-time restore, into a second cluster on another port.
    succeeds(Command::new("cp").arg("-a").arg(&base).arg(&restored), "copy the base backup");
    std::fs::write(restored.join("recovery.signal"), b"").unwrap();
    chown(&restored);
    let recovery = format!(
        "archive_mode = off\nrestore_command = 'cp {}/%f %p'\nrecovery_target_time = '{target}'\n\
         recovery_target_action = 'promote'\n",
        archive.display()
    );
    let second = Cluster::start(&restored, free_port(), &recovery);
    second.wait_until("SELECT NOT pg_is_in_recovery()");

    let _service = start_on(&restored_data, &second.url());
    let again = wait_ready(&restored_data, Some(creds["baseUrl"].as_str().unwrap()));
    let restored_api = Api::new(&again);
    let (status, _) =
        restored_api.send(restored_api.http.get(format!("{}/item/{after_target}", restored_api.items))).await;
    assert_eq!(status, 404, "the write after the recovery target is not restored");
    load::check_restored(&restored_api, &load.written, acknowledged_by_target).await;
}
