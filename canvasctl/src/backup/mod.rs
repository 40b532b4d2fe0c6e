//! `canvasctl backup`: a copy of a SQLite deployment that a service can start on, taken while the
//! service serves writes, and its check (`verify.rs`). Restoring is starting the service with
//! `--data-dir` on the copy (docs/OPERATIONS.md).
//!
//! The order makes the copy whole: the database first, as one commit (SQLite's online backup,
//! `core_service::storage::backup`), then the blobs. An upload's blob is written, fsynced and
//! renamed into place before the item naming it commits, and blobs are never deleted, so every blob
//! the copied database names is on disk before the blob copy starts; blobs uploaded since come along
//! unnamed, which costs only space. Blobs first could copy an item whose file came after them.
//!
//! Everything written is fsynced, its directory too, and the manifest comes last (temp file,
//! fsync, rename): a directory without one is an interrupted backup, and `verify` says so.

mod blobs;
mod verify;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use chrono::{SecondsFormat, Utc};
use core_service::storage::{backup as database, DatabaseTarget};
use serde::{Deserialize, Serialize};

use crate::cli::{BackupArgs, BackupCommand};

/// The manifest's format; `verify` refuses another.
const FORMAT_VERSION: u32 = 1;
const MANIFEST: &str = "manifest.json";
/// The database's name in the backup, the one the service opens in its data directory.
const DATABASE: &str = "canvas.db";
const BLOBS: &str = "blobs";
/// Files of the data directory a service on the copy needs besides the database and blobs, copied
/// when present and readable by their owner only: the development signing-key secret (without it
/// the webhook signing keys sealed in the database cannot be opened) and `canvasctl up`'s
/// credentials (its administrator and demo tokens). Search snapshots are left out: a restored
/// service rebuilds them from the database, and ignores one ahead of it anyway.
const PRIVATE_FILES: [&str; 2] = [core_service::webhooks::settings::DEV_SECRET_FILE, "dev-credentials.json"];

/// What a backup holds, written last as `manifest.json`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Manifest {
    format_version: u32,
    /// When the copy began (RFC 3339, UTC): every write acknowledged before it is in the copy.
    started_at: String,
    finished_at: String,
    canvasctl_version: String,
    /// The copied database's newest schema migration: a service of this version or newer starts on it.
    migration_version: i64,
    database: DatabaseEntry,
    blobs: BlobsEntry,
    /// The other files copied from the data directory.
    files: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DatabaseEntry {
    file: String,
    bytes: u64,
    items: u64,
    projects: u64,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct BlobsEntry {
    /// Blob files copied (those uploaded during the copy included).
    copied: u64,
    /// Distinct blobs the copied database's items name; each is among the copied ones.
    named: u64,
    bytes: u64,
}

pub async fn run(args: BackupArgs) -> anyhow::Result<()> {
    // Copying and hashing files blocks: off the async workers.
    tokio::task::spawn_blocking(move || match &args.command {
        Some(BackupCommand::Verify { dir, json }) => verify::run(dir, *json),
        None => take(&args),
    })
    .await?
}

fn take(args: &BackupArgs) -> anyhow::Result<()> {
    let dest = args.to.as_deref().context("--to DEST is required")?;
    let source = sqlite_database(args)?;
    let blob_root = local_blobs(args)?;
    anyhow::ensure!(
        source.is_file(),
        "no database at {}: is --data-dir the service's data directory (CANVAS_DATA_DIR)?",
        source.display()
    );
    refuse_unless_empty(dest)?;
    std::fs::create_dir_all(dest).with_context(|| format!("cannot create {}", dest.display()))?;
    // The copy holds what the data directory keeps from others: token and session hashes, the
    // sealed signing keys, in development their secret. Backups often land on shared storage.
    #[cfg(unix)]
    std::fs::set_permissions(dest, std::os::unix::fs::PermissionsExt::from_mode(0o700))?;
    sync_parent(dest)?;
    let manifest = fill(args, &source, &blob_root, dest).with_context(|| {
        format!("{} holds an unfinished backup (it has no {MANIFEST}); delete it before trying again", dest.display())
    })?;
    if args.json {
        println!("{}", serde_json::to_string(&manifest)?);
    } else {
        print_summary(&args.data_dir, dest, &manifest);
    }
    Ok(())
}

/// Copies the database, then the blobs, then the private files into the new `dest`, and writes
/// the manifest last.
fn fill(args: &BackupArgs, source: &Path, blob_root: &Path, dest: &Path) -> anyhow::Result<Manifest> {
    let started_at = now();
    let copy = dest.join(DATABASE);
    database::copy_online(source, &copy).context("copying the database")?;
    let facts = database::facts(&copy).context("reading the copied database")?;
    let copied = blobs::copy_all(blob_root, &dest.join(BLOBS))?;
    let missing: Vec<&String> = facts.content_keys.difference(&copied.keys).collect();
    anyhow::ensure!(
        missing.is_empty(),
        "the database names {} blob(s) that {} does not hold (the first: {}): the data directory is damaged",
        missing.len(),
        blob_root.display(),
        missing[0]
    );
    let mut files = Vec::new();
    for name in PRIVATE_FILES {
        if copy_private_file(&args.data_dir.join(name), &dest.join(name))? {
            files.push(name.to_owned());
        }
    }
    sync_dir(dest)?;

    let manifest = Manifest {
        format_version: FORMAT_VERSION,
        started_at,
        finished_at: now(),
        canvasctl_version: env!("CARGO_PKG_VERSION").to_owned(),
        migration_version: facts.migration,
        database: DatabaseEntry {
            file: DATABASE.to_owned(),
            bytes: std::fs::metadata(&copy)?.len(),
            items: facts.items,
            projects: facts.projects,
        },
        blobs: BlobsEntry {
            copied: copied.keys.len() as u64,
            named: facts.content_keys.len() as u64,
            bytes: copied.bytes,
        },
        files,
    };
    write_manifest(dest, &manifest)?;
    Ok(manifest)
}

/// The SQLite file the service uses, or a refusal naming what to do instead.
fn sqlite_database(args: &BackupArgs) -> anyhow::Result<PathBuf> {
    match DatabaseTarget::from_config(args.database_url.as_deref(), &args.data_dir)? {
        DatabaseTarget::SqliteFile(path) => Ok(path),
        // The URL is not repeated: it may hold a password.
        DatabaseTarget::Postgres(_) => anyhow::bail!(
            "the database URL (--database-url / CANVAS_DATABASE_URL) names PostgreSQL: `canvasctl backup` copies \
             SQLite deployments only. Back PostgreSQL up with pg_basebackup and WAL archiving, and copy the blobs \
             after the base backup, as docs/OPERATIONS.md describes"
        ),
    }
}

/// The local blob directory, or a refusal when the blobs are in S3.
fn local_blobs(args: &BackupArgs) -> anyhow::Result<PathBuf> {
    if args.blob_store.as_deref().is_some_and(|spec| spec.trim().starts_with("s3://")) {
        anyhow::bail!(
            "the blob store (--blob-store / CANVAS_BLOB_STORE) is S3: `canvasctl backup` copies local blobs only, \
             and a database copied without its blobs is no backup. Make the bucket keep every object (S3 \
             versioning or replication) and copy the database with sqlite3's `.backup`, as docs/OPERATIONS.md \
             describes"
        );
    }
    match core_service::blobs::BlobStore::from_config(args.blob_store.as_deref(), &args.data_dir)? {
        core_service::blobs::BlobStore::Local { root } => Ok(root),
        core_service::blobs::BlobStore::Object { .. } => anyhow::bail!("the blob store is not local"),
    }
}

/// A backup goes into a new or empty directory, so it never mixes with, nor overwrites, another.
fn refuse_unless_empty(dest: &Path) -> anyhow::Result<()> {
    let mut entries = match std::fs::read_dir(dest) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) if dest.exists() && !dest.is_dir() => {
            anyhow::bail!("{} exists and is not a directory ({error}); choose a new or empty directory", dest.display())
        }
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", dest.display())),
    };
    anyhow::ensure!(
        entries.next().is_none(),
        "{} is not empty: a backup goes into a new or empty directory, so it never mixes with or overwrites \
         another; choose another --to",
        dest.display()
    );
    Ok(())
}

/// Copies `from` to a new file `to`, readable by its owner only, and syncs it; `false` when
/// `from` does not exist.
fn copy_private_file(from: &Path, to: &Path) -> anyhow::Result<bool> {
    let bytes = match std::fs::read(from) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", from.display())),
    };
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(to).with_context(|| format!("cannot create {}", to.display()))?;
    file.write_all(&bytes)?;
    file.sync_all()?;
    Ok(true)
}

/// temp file → fsync → rename → fsync the directory: the manifest is there whole or not at all.
fn write_manifest(dest: &Path, manifest: &Manifest) -> anyhow::Result<()> {
    let temporary = dest.join(format!("{MANIFEST}.tmp"));
    let mut file = std::fs::File::create(&temporary)?;
    file.write_all(serde_json::to_string_pretty(manifest)?.as_bytes())?;
    file.write_all(b"\n")?;
    file.sync_all()?;
    std::fs::rename(&temporary, dest.join(MANIFEST))?;
    sync_dir(dest)
}

/// A file's name in its directory is durable only once the directory is synced too.
fn sync_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::File::open(dir)?.sync_all().with_context(|| format!("syncing {}", dir.display()))
}

fn sync_parent(dir: &Path) -> anyhow::Result<()> {
    match dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => sync_dir(parent),
        None => sync_dir(Path::new(".")),
    }
}

fn now() -> String {
    Utc::now().to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn print_summary(data_dir: &Path, dest: &Path, m: &Manifest) {
    println!("backed up {} to {}", data_dir.display(), dest.display());
    println!(
        "  database : {} bytes, {} items in {} projects, schema migration {}",
        m.database.bytes, m.database.items, m.database.projects, m.migration_version
    );
    println!("  blobs    : {} copied ({} named by items), {} bytes", m.blobs.copied, m.blobs.named, m.blobs.bytes);
    println!("  holds    : every write acknowledged before {}", m.started_at);
    println!("  check    : canvasctl backup verify {}", dest.display());
    println!("  restore  : canvasctl up --data-dir {} (or core-service --data-dir)", dest.display());
}
