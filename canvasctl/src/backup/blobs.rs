//! The blobs of a backup: `blobs/ab/cd/<sha256>` as core-service's `blobs.rs` lays them out,
//! copied file by file with each one's SHA-256 checked against its name while it is read, and
//! listed and hashed again by `verify`.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use sha2::{Digest, Sha256};

/// What [`copy_all`] copied.
pub struct Copied {
    /// The key (hex SHA-256) of every blob copied.
    pub keys: BTreeSet<String>,
    pub bytes: u64,
}

/// Where the blob `key` lives under `root`.
pub fn path_of(root: &Path, key: &str) -> PathBuf {
    root.join(&key[0..2]).join(&key[2..4]).join(key)
}

/// Every blob under `root` as `(key, path)`, sorted by key; none when `root` does not exist (no
/// upload yet). Anything that is not a blob at its place is skipped: an upload in progress is a
/// temporary file beside the final name, and appears under that name only once it is whole.
pub fn list(root: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let mut blobs = Vec::new();
    for (first, first_dir) in entries(root, |name, path| is_hex(name, 2) && path.is_dir())? {
        for (second, second_dir) in entries(&first_dir, |name, path| is_hex(name, 2) && path.is_dir())? {
            let prefix = format!("{first}{second}");
            let files =
                entries(&second_dir, |name, path| is_hex(name, 64) && name.starts_with(&prefix) && path.is_file())?;
            blobs.extend(files);
        }
    }
    blobs.sort();
    Ok(blobs)
}

/// Copies every blob under `from` to the same place under `to` (which it creates), syncing each
/// file and then each directory made. A blob whose bytes do not match its name stops the copy: the
/// data directory is damaged, and a backup must not carry the damage on silently.
pub fn copy_all(from: &Path, to: &Path) -> anyhow::Result<Copied> {
    std::fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    let mut copied = Copied { keys: BTreeSet::new(), bytes: 0 };
    let mut made = BTreeSet::new();
    for (key, source) in list(from)? {
        let target = path_of(to, &key);
        let dir = target.parent().context("a blob path has a directory")?;
        if made.insert(dir.to_owned()) {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let (digest, bytes) = copy_hashing(&source, &target)
            .with_context(|| format!("copying {} to {}", source.display(), target.display()))?;
        anyhow::ensure!(
            digest == key,
            "{} does not hold what its name says (its SHA-256 is {digest}): the data directory is damaged",
            source.display()
        );
        copied.bytes += bytes;
        copied.keys.insert(key);
    }
    // A directory's entry is durable once its parent is synced after it; in reverse order a path
    // comes before its prefix, so children are synced before their parents.
    let mut dirs = BTreeSet::from([to.to_owned()]);
    for dir in &made {
        dirs.insert(dir.clone());
        dirs.extend(dir.parent().map(Path::to_owned));
    }
    for dir in dirs.iter().rev() {
        File::open(dir)?.sync_all().with_context(|| format!("syncing {}", dir.display()))?;
    }
    Ok(copied)
}

/// The hex SHA-256 and length of the file at `path`.
pub fn sha256_of(path: &Path) -> std::io::Result<(String, u64)> {
    stream(path, |_| Ok(()))
}

/// Copies `source` to the new file `target` (synced), answering the SHA-256 and length of what
/// was read, so the check costs no second read.
fn copy_hashing(source: &Path, target: &Path) -> std::io::Result<(String, u64)> {
    let mut output = std::fs::OpenOptions::new().write(true).create_new(true).open(target)?;
    let answer = stream(source, |chunk| output.write_all(chunk))?;
    output.sync_all()?;
    Ok(answer)
}

/// Reads `path` in chunks, hashing each and handing it to `each`.
fn stream(path: &Path, mut each: impl FnMut(&[u8]) -> std::io::Result<()>) -> std::io::Result<(String, u64)> {
    let mut input = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    let mut total = 0u64;
    loop {
        let n = input.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        each(&buffer[..n])?;
        total += n as u64;
    }
    Ok((format!("{:x}", hasher.finalize()), total))
}

/// The entries of `dir` that `keep` accepts, by name; none when `dir` does not exist.
fn entries(dir: &Path, keep: impl Fn(&str, &Path) -> bool) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error).with_context(|| format!("cannot read {}", dir.display())),
    };
    let mut kept = Vec::new();
    for entry in read {
        let path = entry.with_context(|| format!("cannot read {}", dir.display()))?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()).map(str::to_owned) else { continue };
        if keep(&name, &path) {
            kept.push((name, path));
        }
    }
    Ok(kept)
}

/// `name` is `len` lower-case hex digits, as blob keys and their directories are spelt.
fn is_hex(name: &str, len: usize) -> bool {
    name.len() == len && name.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(root: &Path, bytes: &[u8]) -> String {
        let key = format!("{:x}", Sha256::digest(bytes));
        let path = path_of(root, &key);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
        key
    }

    #[test]
    fn copies_blobs_and_skips_what_is_not_one() {
        let dir = tempfile::tempdir().unwrap();
        let (from, to) = (dir.path().join("from"), dir.path().join("to"));
        let keys = [put(&from, b"one"), put(&from, b"two")];
        let first = path_of(&from, &keys[0]);
        std::fs::write(first.with_file_name(".tmpUpload"), b"half an upl").unwrap();
        std::fs::write(from.join("README"), b"not a blob").unwrap();
        let copied = copy_all(&from, &to).unwrap();
        assert_eq!(copied.keys, BTreeSet::from(keys.clone()));
        assert_eq!(copied.bytes, 6);
        assert_eq!(std::fs::read(path_of(&to, &keys[1])).unwrap(), b"two");
        assert_eq!(list(&to).unwrap().len(), 2, "the temporary file and the stray file stay behind");
        assert_eq!(sha256_of(&path_of(&to, &keys[0])).unwrap(), (keys[0].clone(), 3));
        assert!(copy_all(&dir.path().join("none"), &dir.path().join("empty")).unwrap().keys.is_empty());
    }

    #[test]
    fn a_blob_that_does_not_match_its_name_stops_the_copy() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("from");
        let key = put(&from, b"one");
        std::fs::write(path_of(&from, &key), b"One").unwrap();
        let error = copy_all(&from, &dir.path().join("to")).err().expect("a damaged blob is refused");
        assert!(format!("{error:#}").contains("does not hold what its name says"), "{error:#}");
    }
}
