//! What `canvasctl backup` needs of a SQLite database, here because only storage opens the
//! database (ARCHITECTURE.md): a consistent copy made while the service goes on writing, and the
//! facts a backup's manifest records and its check compares. The files around the database (the
//! blobs, the manifest) are canvasctl's.
//!
//! The copy is SQLite's online backup API with every page in one step. One step is one read
//! transaction on the source, so the copy is the database exactly as one commit left it, and in
//! WAL mode the service's writer keeps committing meanwhile (only a checkpoint waits for the step
//! to finish). Copying in small steps, as the API's examples do, would start over whenever another
//! connection commits, which under a steady load may be never.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

/// How long the copy waits for a source that answers busy (a WAL recovery after a crash, say)
/// before it gives up. A reader is never blocked by the writer in WAL mode, so this is rare.
const BUSY_AT_MOST: Duration = Duration::from_secs(60);

/// What a copy of the database holds, read from the copy itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatabaseFacts {
    /// Rows of `items`.
    pub items: u64,
    /// Rows of `projects`.
    pub projects: u64,
    /// The newest schema migration applied (`_sqlx_migrations`).
    pub migration: i64,
    /// Every blob key an item names (`items.content_key`), each once.
    pub content_keys: BTreeSet<String>,
}

/// Copies the live database at `source` into a new file `dest` while the service writes to it.
/// The source is opened read-only and never created: the backup must not write to the database it
/// copies, nor make one where there was none. `dest` must not exist.
pub fn copy_online(source: &Path, dest: &Path) -> anyhow::Result<()> {
    anyhow::ensure!(source.is_file(), "no database at {}", source.display());
    let src = open_read_only(source)?;
    // A busy source is retried below with a deadline; inside a step, wait like the service does.
    src.busy_timeout(Duration::from_secs(10))?;
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    anyhow::ensure!(!dest.exists(), "{} exists already", dest.display());
    let mut dst =
        Connection::open_with_flags(dest, flags).with_context(|| format!("cannot create {}", dest.display()))?;
    {
        let backup = Backup::new(&src, &mut dst).context("cannot start SQLite's online backup")?;
        let deadline = Instant::now() + BUSY_AT_MOST;
        loop {
            match backup.step(-1).context("SQLite's online backup failed")? {
                StepResult::Done => break,
                // Busy or locked: the step copied nothing and may be repeated.
                _ if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(50)),
                _ => anyhow::bail!("the database stayed busy for {} s; nothing was copied", BUSY_AT_MOST.as_secs()),
            }
        }
    }
    // The copied pages carry the source's WAL flag. A backup at rest is better one self-contained
    // file, readable without creating `-wal` and `-shm` beside it (a read-only medium, a check that
    // must not change it): rollback-journal mode, which the service turns back into WAL when it
    // opens the copy.
    let mode: String = dst.query_row("PRAGMA journal_mode = DELETE", [], |row| row.get(0))?;
    anyhow::ensure!(mode.eq_ignore_ascii_case("delete"), "the copy stayed in journal mode {mode}");
    dst.close().map_err(|(_, e)| e).context("closing the copy")?;
    // SQLite synced its commits; this makes sure of the whole file before the backup says done.
    std::fs::File::open(dest)?.sync_all().with_context(|| format!("syncing {}", dest.display()))?;
    Ok(())
}

/// Reads the facts of a database at rest (a backup), opened read-only.
pub fn facts(db: &Path) -> anyhow::Result<DatabaseFacts> {
    let conn = open_read_only(db)?;
    let count = |table: &str| -> anyhow::Result<u64> {
        let n: i64 = conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |row| row.get(0))?;
        Ok(u64::try_from(n)?)
    };
    let migration: Option<i64> =
        conn.query_row("SELECT MAX(version) FROM _sqlx_migrations WHERE success", [], |row| row.get(0))?;
    let mut keys = conn.prepare("SELECT DISTINCT content_key FROM items WHERE content_key IS NOT NULL")?;
    let content_keys = keys.query_map([], |row| row.get::<_, String>(0))?.collect::<Result<BTreeSet<_>, _>>()?;
    Ok(DatabaseFacts {
        items: count("items")?,
        projects: count("projects")?,
        migration: migration.context("the database has no applied migration: it is not a canvas database")?,
        content_keys,
    })
}

/// What SQLite's `integrity_check` finds wrong with the database at `db` (at most 20 findings),
/// empty when it is sound. A file SQLite cannot read at all is one finding, not an error: the
/// caller reports it with the others.
pub fn integrity_problems(db: &Path) -> Vec<String> {
    let check = || -> anyhow::Result<Vec<String>> {
        let conn = open_read_only(db)?;
        let mut statement = conn.prepare("PRAGMA integrity_check(20)")?;
        let rows = statement.query_map([], |row| row.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
        Ok(rows.into_iter().filter(|row| row != "ok").collect())
    };
    match check() {
        Ok(problems) => problems,
        Err(error) => vec![format!("SQLite cannot read it: {error:#}")],
    }
}

/// The newest migration this build applies to SQLite: a copy at a newer one was made by a newer
/// service, which this build cannot start on.
pub fn latest_migration() -> i64 {
    super::SQLITE_MIGRATIONS.iter().map(|m| m.version).max().unwrap_or(0)
}

fn open_read_only(db: &Path) -> anyhow::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    Connection::open_with_flags(db, flags).with_context(|| format!("cannot open {}", db.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database the service has migrated, with a project and an item naming a blob.
    fn seeded(dir: &Path) -> std::path::PathBuf {
        let path = dir.join("canvas.db");
        let conn = Connection::open(&path).unwrap();
        conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())).unwrap();
        conn.execute_batch(
            "CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, success BOOLEAN NOT NULL);
             INSERT INTO _sqlx_migrations VALUES (1, TRUE), (12, TRUE), (13, FALSE);
             CREATE TABLE projects (id INTEGER PRIMARY KEY);
             CREATE TABLE items (id INTEGER PRIMARY KEY, content_key TEXT);
             INSERT INTO projects VALUES (1);
             INSERT INTO items VALUES (1, 'abc'), (2, 'abc'), (3, NULL);",
        )
        .unwrap();
        path
    }

    #[test]
    fn a_copy_made_while_another_connection_writes_is_one_commit_and_self_contained() {
        let dir = tempfile::tempdir().unwrap();
        let source = seeded(dir.path());
        // The writer holds the WAL open with an uncheckpointed commit, as a running service does.
        let writer = Connection::open(&source).unwrap();
        writer.execute("INSERT INTO items VALUES (4, 'def')", []).unwrap();
        let copy = dir.path().join("copy.db");
        copy_online(&source, &copy).unwrap();
        writer.execute("INSERT INTO items VALUES (5, NULL)", []).unwrap();

        let facts = facts(&copy).unwrap();
        assert_eq!((facts.items, facts.projects, facts.migration), (4, 1, 12), "the failed migration is not counted");
        assert_eq!(facts.content_keys, BTreeSet::from(["abc".to_owned(), "def".to_owned()]));
        assert!(integrity_problems(&copy).is_empty());
        assert!(!dir.path().join("copy.db-wal").exists(), "the copy is one file, not in WAL mode");
        assert!(copy_online(&source, &copy).is_err(), "an existing copy is never overwritten");
        assert!(copy_online(&dir.path().join("none.db"), &dir.path().join("x.db")).is_err());
        assert!(!dir.path().join("none.db").exists(), "a missing source is not created");
    }

    #[test]
    fn a_truncated_copy_is_found_damaged() {
        let dir = tempfile::tempdir().unwrap();
        let source = seeded(dir.path());
        let filler = Connection::open(&source).unwrap();
        filler.execute_batch("CREATE TABLE filler (x BLOB); INSERT INTO filler VALUES (zeroblob(100000));").unwrap();
        let copy = dir.path().join("copy.db");
        copy_online(&source, &copy).unwrap();
        let length = std::fs::metadata(&copy).unwrap().len();
        std::fs::OpenOptions::new().write(true).open(&copy).unwrap().set_len(length / 2).unwrap();
        assert!(!integrity_problems(&copy).is_empty());
    }
}
