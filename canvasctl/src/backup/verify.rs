//! `canvasctl backup verify DEST`: is this a backup a service can start on, with nothing missing?
//! It reads the backup and never writes to it (the database is opened read-only; the copy is in
//! rollback-journal mode, so no `-wal` or `-shm` file appears). Every problem is named, not only the
//! first: a damaged backup is judged by everything wrong with it.

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::Context;
use core_service::storage::backup as database;
use serde_json::json;

use super::{blobs, Manifest, BLOBS, DATABASE, FORMAT_VERSION, MANIFEST};

/// Problems printed in full; beyond that, a count (a backup missing thousands of blobs says so
/// in one screen).
const SHOWN: usize = 50;

pub fn run(dir: &Path, json: bool) -> anyhow::Result<()> {
    let manifest = read_manifest(dir)?;
    let (problems, named) = check(dir, &manifest);
    if json {
        let report =
            json!({"ok": problems.is_empty(), "problems": problems, "blobsChecked": named, "manifest": manifest});
        println!("{report}");
    } else if problems.is_empty() {
        println!(
            "{} is a sound backup, taken {}: the database passes SQLite's integrity check ({} items in {} projects, \
             schema migration {}), and the {named} blob(s) its items name are present with their SHA-256",
            dir.display(),
            manifest.started_at,
            manifest.database.items,
            manifest.database.projects,
            manifest.migration_version,
        );
    } else {
        for problem in problems.iter().take(SHOWN) {
            eprintln!("  {problem}");
        }
        if problems.len() > SHOWN {
            eprintln!("  … and {} more", problems.len() - SHOWN);
        }
    }
    anyhow::ensure!(
        problems.is_empty(),
        "the backup at {} failed verification: {} problem(s); do not restore from it",
        dir.display(),
        problems.len()
    );
    Ok(())
}

/// The manifest, or why `dir` is not a finished backup at all.
fn read_manifest(dir: &Path) -> anyhow::Result<Manifest> {
    anyhow::ensure!(dir.is_dir(), "{} is not a directory: name the directory `backup --to` wrote", dir.display());
    let path = dir.join(MANIFEST);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => anyhow::bail!(
            "{} has no {MANIFEST}: it is not a finished backup (a backup that failed or was interrupted leaves \
             none; take another)",
            dir.display()
        ),
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", path.display())),
    };
    let manifest: Manifest =
        serde_json::from_str(&text).with_context(|| format!("{} is not a backup manifest", path.display()))?;
    anyhow::ensure!(
        manifest.format_version == FORMAT_VERSION,
        "{} is of format {}; this canvasctl reads format {FORMAT_VERSION}",
        path.display(),
        manifest.format_version
    );
    Ok(manifest)
}

/// Everything wrong with the backup in `dir`, and how many blobs items name.
fn check(dir: &Path, manifest: &Manifest) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let db = dir.join(DATABASE);
    match std::fs::metadata(&db) {
        Err(error) => problems.push(format!("{DATABASE} cannot be read: {error}")),
        Ok(meta) if meta.len() != manifest.database.bytes => problems.push(format!(
            "{DATABASE} is {} bytes, the manifest says {}: the file was cut short or changed since",
            meta.len(),
            manifest.database.bytes
        )),
        Ok(_) => {}
    }
    let integrity = if db.is_file() { database::integrity_problems(&db) } else { Vec::new() };
    let sound = db.is_file() && integrity.is_empty();
    problems.extend(integrity.into_iter().map(|finding| format!("{DATABASE}: integrity check: {finding}")));

    // Which blobs items name is known only from a database SQLite can read.
    let mut named = BTreeSet::new();
    if sound {
        match database::facts(&db) {
            Err(error) => problems.push(format!("{DATABASE} cannot be read: {error:#}")),
            Ok(facts) => {
                compare(&mut problems, "items", facts.items, manifest.database.items);
                compare(&mut problems, "projects", facts.projects, manifest.database.projects);
                if facts.migration != manifest.migration_version {
                    problems.push(format!(
                        "{DATABASE} is at schema migration {}, the manifest says {}",
                        facts.migration, manifest.migration_version
                    ));
                }
                let known = database::latest_migration();
                if facts.migration > known {
                    problems.push(format!(
                        "{DATABASE} is at schema migration {}, newer than this version knows ({known}): restore it \
                         with the canvas version that took it ({}) or a newer one",
                        facts.migration, manifest.canvasctl_version
                    ));
                }
                named = facts.content_keys;
            }
        }
    }
    let root = dir.join(BLOBS);
    for key in &named {
        match blobs::sha256_of(&blobs::path_of(&root, key)) {
            Ok((digest, _)) if digest == *key => {}
            Ok((digest, _)) => problems.push(format!("blob {key}: its content's SHA-256 is {digest}, not its name")),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                problems.push(format!("blob {key} is missing: an item names it"))
            }
            Err(error) => problems.push(format!("blob {key} cannot be read: {error}")),
        }
    }
    // Blobs no item names (uploaded during the copy, or of items deleted before it) are checked
    // too: they are part of what the manifest promises.
    match blobs::list(&root) {
        Err(error) => problems.push(format!("{BLOBS}/ cannot be read: {error:#}")),
        Ok(present) => {
            for (key, path) in present.iter().filter(|(key, _)| !named.contains(key)) {
                match blobs::sha256_of(path) {
                    Ok((digest, _)) if digest == *key => {}
                    Ok((digest, _)) => {
                        problems.push(format!("blob {key}: its content's SHA-256 is {digest}, not its name"))
                    }
                    Err(error) => problems.push(format!("blob {key} cannot be read: {error}")),
                }
            }
            if (present.len() as u64) < manifest.blobs.copied {
                problems.push(format!(
                    "{} blob(s) of the {} the manifest lists are missing",
                    manifest.blobs.copied - present.len() as u64,
                    manifest.blobs.copied
                ));
            }
        }
    }
    (problems, named.len())
}

fn compare(problems: &mut Vec<String>, what: &str, found: u64, expected: u64) {
    if found != expected {
        problems.push(format!("{DATABASE} holds {found} {what}, the manifest says {expected}"));
    }
}
