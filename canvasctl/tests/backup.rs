//! `canvasctl backup` as an operator relies on it, through the real binaries: a backup taken while
//! several writers create, update and upload, a second service started on the copy (the restore),
//! and every write acknowledged before the backup began found there with its value or a later one;
//! nothing half-written; `backup verify` passing on the copy and failing on damaged ones; and the
//! refusals (a non-empty destination, no database, PostgreSQL, S3).

use std::path::Path;
use std::process::{Command, Output};
use std::time::Instant;

use serde_json::Value;
use sha2::{Digest, Sha256};

mod common;
use common::load::{self, Api, Written};
use common::{start, wait_ready, BIN};

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env_remove("CANVAS_DATABASE_URL")
        .env_remove("CANVAS_BLOB_STORE")
        .env_remove("CANVAS_DATA_DIR")
        .output()
        .expect("canvasctl runs")
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// `canvasctl backup verify DIR`: (success, everything it printed).
fn verify(dir: &Path) -> (bool, String) {
    let output = run(&["backup", "verify", dir.to_str().unwrap()]);
    (output.status.success(), text(&output))
}

fn copy_dir(from: &Path, to: &Path) {
    let status = Command::new("cp").arg("-a").arg(from).arg(to).status().expect("cp runs");
    assert!(status.success(), "cp -a {} {}", from.display(), to.display());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_backup_taken_under_load_restores_every_acknowledged_write() {
    let dir = tempfile::tempdir().unwrap();
    let (data, copy) = (dir.path().join("data"), dir.path().join("backup"));
    let running = start(&data);
    let creds = wait_ready(&data, None);
    let api = Api::new(&creds);

    // A destination with something in it is refused and left as it was.
    let occupied = dir.path().join("occupied");
    std::fs::create_dir_all(&occupied).unwrap();
    std::fs::write(occupied.join("keep.txt"), b"mine").unwrap();
    let refused = run(&["backup", "--data-dir", data.to_str().unwrap(), "--to", occupied.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused));
    assert!(text(&refused).contains("is not empty"), "{}", text(&refused));
    assert_eq!(std::fs::read_dir(&occupied).unwrap().count(), 1, "nothing was written into it");

    // The backup, the real binary, in the middle of the load.
    let mut backup = tokio::process::Command::new(BIN);
    backup.args(["backup", "--json", "--data-dir"]).arg(&data).arg("--to").arg(&copy);
    backup.env_remove("CANVAS_DATABASE_URL").env_remove("CANVAS_BLOB_STORE");
    let load = load::around(&api, || backup.output()).await;
    let backup = load.step.expect("canvasctl backup runs");
    assert!(backup.status.success(), "canvasctl backup: {}", text(&backup));
    drop(running);
    let manifest: Value = serde_json::from_slice(&backup.stdout).expect("the manifest as JSON");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&copy).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "the backup is private to its owner");
    }
    eprintln!("manifest: {manifest}");

    // The check passes on the copy as taken, and fails, naming the damage, on damaged copies.
    let (ok, said) = verify(&copy);
    assert!(ok, "verify on the fresh copy: {said}");
    assert!(said.contains("is a sound backup"), "{said}");
    damaged_copies_fail_verification(dir.path(), &copy, &load.written, load.step_started);

    // The restore: a second service on the copy starts and answers, with the same credentials,
    // and holds every acknowledged write.
    let _restored = start(&copy);
    let again = wait_ready(&copy, Some(creds["baseUrl"].as_str().unwrap()));
    assert_eq!(again["token"], creds["token"], "the copy's credentials are the original's");
    let listed = load::check_restored(&Api::new(&again), &load.written, load.step_started).await;
    assert_eq!(Some(listed as u64), manifest["database"]["items"].as_u64(), "the manifest counts the items");
}

/// A copy without a blob an item names, and one whose database is cut short, both fail `verify`
/// with a non-zero exit naming the damage.
fn damaged_copies_fail_verification(dir: &Path, copy: &Path, written: &[Written], backup_started: Instant) {
    // An upload acknowledged before the backup began: its item is in the copy and names its blob.
    let (bytes, _) = written
        .iter()
        .filter(|w| w.upload)
        .map(|w| &w.values[0])
        .find(|(_, at)| *at < backup_started)
        .expect("an upload before the backup");
    let bytes: Vec<u8> = serde_json::from_value(bytes.clone()).unwrap();
    let key = format!("{:x}", Sha256::digest(&bytes));
    let without_blob = dir.join("without-blob");
    copy_dir(copy, &without_blob);
    std::fs::remove_file(without_blob.join("blobs").join(&key[0..2]).join(&key[2..4]).join(&key))
        .expect("the copy holds the blob");
    let (ok, said) = verify(&without_blob);
    assert!(!ok, "verify passed on a copy missing blob {key}");
    assert!(said.contains(&format!("blob {key} is missing")) && said.contains("failed verification"), "{said}");

    let cut_short = dir.join("cut-short");
    copy_dir(copy, &cut_short);
    let db = cut_short.join("canvas.db");
    let length = std::fs::metadata(&db).unwrap().len();
    std::fs::OpenOptions::new().write(true).open(&db).unwrap().set_len(length / 2).unwrap();
    let (ok, said) = verify(&cut_short);
    assert!(!ok, "verify passed on a truncated database");
    assert!(said.contains("canvas.db is") && said.contains("failed verification"), "{said}");
}

#[test]
fn backup_refuses_what_it_cannot_copy_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (data, to) = (dir.path().join("empty-data"), dir.path().join("to"));
    std::fs::create_dir_all(&data).unwrap();
    let (data_arg, to_arg) = (data.to_str().unwrap(), to.to_str().unwrap());
    for (extra, expected) in [
        (vec![], "no database at"),
        (vec!["--database-url", "postgres://canvas@127.0.0.1:5432/canvas"], "docs/OPERATIONS.md"),
        (vec!["--blob-store", "s3://bucket/canvas"], "docs/OPERATIONS.md"),
    ] {
        let mut args = vec!["backup", "--data-dir", data_arg, "--to", to_arg];
        args.extend(extra);
        let output = run(&args);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {}", text(&output));
        assert!(text(&output).contains(expected), "{args:?}: {}", text(&output));
        assert!(!to.exists(), "{args:?} wrote a destination");
        assert!(!data.join("canvas.db").exists(), "{args:?} created a database");
    }
    std::fs::write(data.join("canvas.db"), b"").unwrap();
    let not_a_backup = run(&["backup", "verify", data_arg]);
    assert_eq!(not_a_backup.status.code(), Some(1));
    assert!(text(&not_a_backup).contains("not a finished backup"), "{}", text(&not_a_backup));
}
