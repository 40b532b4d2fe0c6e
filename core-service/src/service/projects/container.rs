//! An archive read back with every check of its container, before any line of it is judged
//! (docs/ARCHIVE.md, "What an import refuses"): its table of entries (size, count, ZIP64),
//! duplicate and overlapping entries, entry names (absolute, `..`, unknown), encryption and
//! compression, declared against actual sizes, compression ratios, the manifest's format, version
//! and counts, and each file's name against the SHA-256 of its bytes. Files are copied to a
//! temporary directory as they are checked; JSON entries are parsed into values. Blocking code:
//! run it on a blocking thread.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use serde_json::value::RawValue;
use serde_json::Value;
use sha2::{Digest, Sha256};
use zip::{CompressionMethod, ZipArchive};

use crate::error::{CoreError, CoreResult};
use canvas_vocabulary::limits::archive as limits;

/// The entries of an archive besides its files, each read once.
const NAMED: [&str; 7] =
    ["manifest.json", "project.json", "items.jsonl", "diagrams.jsonl", "webhooks.json", "tags.json", "comments.jsonl"];
/// Those an archive must hold (an empty project has no diagram records or webhooks to write).
const REQUIRED: [&str; 3] = ["manifest.json", "project.json", "items.jsonl"];

/// An archive whose container passed every check.
#[derive(Debug)]
pub struct Contents {
    pub project: Value,
    pub items: Vec<Value>,
    pub diagrams: Vec<Value>,
    /// `tags.json`'s tags (version 2; none in a version 1 archive).
    pub tags: Vec<Value>,
    /// `comments.jsonl`'s threads (version 3; none before).
    pub threads: Vec<Value>,
    /// The definitions as their JSON text (a webhook's `customData` is kept byte for byte).
    pub webhooks: Vec<Box<RawValue>>,
    /// `files/<sha256>` by its SHA-256, in `dir`.
    pub files: HashMap<String, PathBuf>,
    /// Where the files are; removed when dropped.
    pub dir: tempfile::TempDir,
}

fn refuse(field: &str, why: impl Into<String>) -> CoreError {
    CoreError::invalid(field, why)
}

/// Reads `file` (the archive as received) with every check of the module documentation.
pub fn read(mut file: File) -> CoreResult<Contents> {
    check_directory(&mut file)?;
    let mut archive = ZipArchive::new(file)
        .map_err(|error| refuse("archive", format!("is not a zip archive this service can read: {error}")))?;
    if archive.len() > limits::MAX_ENTRIES {
        return Err(refuse(
            "archive",
            format!("holds {} entries; at most {} are read", archive.len(), limits::MAX_ENTRIES),
        ));
    }
    if archive.has_duplicate_names() {
        return Err(refuse("archive", "holds two entries with the same name"));
    }
    let overlapping = archive.has_overlapping_entries().map_err(|e| refuse("archive", format!("is damaged: {e}")))?;
    if overlapping {
        return Err(refuse("archive", "has entries that share their bytes (a zip bomb's trick)"));
    }
    let mut expanded: u64 = 0;
    let mut files = Vec::new();
    for index in 0..archive.len() {
        let entry = archive.by_index_data(index).map_err(|e| refuse("archive", format!("is damaged: {e}")))?;
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        check_name(&name)?;
        if entry.encrypted() {
            return Err(refuse(&name, "is encrypted; an archive's entries are not"));
        }
        if !matches!(entry.compression(), CompressionMethod::Stored | CompressionMethod::Deflated) {
            return Err(refuse(&name, "uses a compression method other than stored or deflate"));
        }
        let (size, compressed) = (entry.size(), entry.compressed_size());
        let max = if name.starts_with("files/") { limits::MAX_FILE_BYTES } else { limits::MAX_JSON_ENTRY_BYTES };
        if size > max {
            return Err(refuse(&name, format!("declares {size} bytes; an entry of this kind holds at most {max}")));
        }
        if size > limits::RATIO_FLOOR_BYTES && size / compressed.max(1) > limits::MAX_COMPRESSION_RATIO {
            return Err(refuse(
                &name,
                format!(
                    "expands {}-fold ({compressed} bytes to {size}); at most {}-fold is read (a zip bomb's mark)",
                    size / compressed.max(1),
                    limits::MAX_COMPRESSION_RATIO
                ),
            ));
        }
        expanded = expanded.saturating_add(size);
        if expanded > limits::MAX_EXPANDED_BYTES {
            return Err(refuse("archive", format!("expands to more than {} bytes", limits::MAX_EXPANDED_BYTES)));
        }
        if name.starts_with("files/") {
            files.push(index);
        }
    }
    if files.len() > limits::MAX_FILES {
        return Err(refuse("archive", format!("holds {} files; at most {} are read", files.len(), limits::MAX_FILES)));
    }
    for required in REQUIRED {
        if archive.index_for_name(required).is_none() {
            return Err(refuse(
                required,
                "is missing: every archive holds manifest.json, project.json and items.jsonl",
            ));
        }
    }
    let manifest = json_entry(&mut archive, "manifest.json")?;
    check_manifest(&manifest)?;
    let project = json_entry(&mut archive, "project.json")?;
    let items = json_lines(&mut archive, "items.jsonl", limits::MAX_ITEMS)?;
    let diagrams = match archive.index_for_name("diagrams.jsonl") {
        Some(_) => json_lines(&mut archive, "diagrams.jsonl", limits::MAX_DIAGRAMS)?,
        None => Vec::new(),
    };
    let webhooks = match archive.index_for_name("webhooks.json") {
        Some(_) => webhook_definitions(&entry_bytes(&mut archive, "webhooks.json")?)?,
        None => Vec::new(),
    };
    let version = manifest.get("version").and_then(Value::as_u64);
    let tags = match archive.index_for_name("tags.json") {
        // Version 1 had no tags: an archive of it holding them is not one version 1 wrote.
        Some(_) if version == Some(1) => {
            return Err(refuse("tags.json", "is not an entry of a version 1 archive (tags came with version 2)"))
        }
        Some(_) => match json_entry(&mut archive, "tags.json")?.get("tags") {
            Some(Value::Array(tags)) => tags.clone(),
            _ => return Err(refuse("tags.json", "must be {\"tags\": [{tagId, name, color}, …]}")),
        },
        None => Vec::new(),
    };
    let threads = match archive.index_for_name("comments.jsonl") {
        // Comment threads came with version 3.
        Some(_) if version.is_some_and(|v| v < 3) => {
            return Err(refuse(
                "comments.jsonl",
                "is not an entry of a version 1 or 2 archive (comments came with version 3)",
            ))
        }
        Some(_) => json_lines(&mut archive, "comments.jsonl", limits::MAX_THREADS)?,
        None => Vec::new(),
    };
    let dir = tempfile::tempdir().map_err(CoreError::internal)?;
    let mut by_hash = HashMap::new();
    for index in files {
        let (name, path) = copy_file(&mut archive, index, &dir)?;
        by_hash.insert(name, path);
    }
    let counted = [
        ("items", items.len()),
        ("diagrams", diagrams.len()),
        ("files", by_hash.len()),
        ("tags", tags.len()),
        ("threads", threads.len()),
    ];
    for (what, count) in counted {
        let declared = manifest["counts"].get(what).and_then(Value::as_u64);
        if declared.is_some_and(|declared| declared != count as u64) {
            return Err(refuse(
                &format!("manifest.json.counts.{what}"),
                format!("says {} but the archive holds {count}", declared.unwrap_or_default()),
            ));
        }
    }
    Ok(Contents { project, items, diagrams, tags, threads, webhooks, files: by_hash, dir })
}

/// The end-of-central-directory records in the archive's last 64 KiB (where a ZIP reader looks
/// for one): each must declare a table within [`limits::MAX_ENTRIES`] entries and
/// [`limits::MAX_DIRECTORY_BYTES`], so no table of millions of entries is read into memory before
/// any other check, and none may defer to ZIP64, which no archive within the limits needs.
fn check_directory(file: &mut File) -> CoreResult<()> {
    const RECORD: usize = 22;
    let length = file.seek(SeekFrom::End(0)).map_err(CoreError::internal)?;
    let tail = length.min((RECORD + u16::MAX as usize) as u64);
    file.seek(SeekFrom::Start(length - tail)).map_err(CoreError::internal)?;
    let mut bytes = vec![0u8; tail as usize];
    file.read_exact(&mut bytes).map_err(CoreError::internal)?;
    file.rewind().map_err(CoreError::internal)?;
    let mut found = false;
    for at in (0..bytes.len().saturating_sub(RECORD - 1)).rev() {
        if bytes[at..at + 4] != [0x50, 0x4b, 0x05, 0x06] {
            continue;
        }
        found = true;
        let u16_at = |offset: usize| u16::from_le_bytes([bytes[at + offset], bytes[at + offset + 1]]);
        let u32_at =
            |offset: usize| u32::from_le_bytes(bytes[at + offset..at + offset + 4].try_into().unwrap_or([0; 4]));
        let (entries, directory) = (u16_at(10), u32_at(12));
        if entries == u16::MAX || directory == u32::MAX {
            return Err(refuse("archive", "uses ZIP64 records, which no archive within the limits needs"));
        }
        if usize::from(entries) > limits::MAX_ENTRIES || u64::from(directory) > limits::MAX_DIRECTORY_BYTES {
            return Err(refuse(
                "archive",
                format!(
                    "declares {entries} entries in a table of {directory} bytes; at most {} entries and {} bytes are read",
                    limits::MAX_ENTRIES,
                    limits::MAX_DIRECTORY_BYTES
                ),
            ));
        }
    }
    if found {
        Ok(())
    } else {
        Err(refuse("archive", "is not a zip archive (no end of central directory record)"))
    }
}

/// An entry name must be one of the archive's own: never absolute, never climbing out (`..`),
/// never a name this version does not write.
fn check_name(name: &str) -> CoreResult<()> {
    if name.starts_with('/') || name.starts_with('\\') || name.get(1..3).is_some_and(|s| s.starts_with(":")) {
        return Err(refuse(name, "is an absolute path; entry names are relative"));
    }
    if name.split(['/', '\\']).any(|part| part == "..") {
        return Err(refuse(name, "climbs out of the archive (`..`)"));
    }
    let is_file = name
        .strip_prefix("files/")
        .is_some_and(|hash| hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
    if NAMED.contains(&name) || is_file {
        Ok(())
    } else {
        Err(refuse(
            name,
            "is not an entry of an archive (manifest.json, project.json, items.jsonl, diagrams.jsonl, \
             webhooks.json, tags.json, comments.jsonl, files/<sha256 in lowercase hex>)",
        ))
    }
}

/// `format` must be this service's and `version` one it reads.
fn check_manifest(manifest: &Value) -> CoreResult<()> {
    if manifest.get("format").and_then(Value::as_str) != Some(limits::FORMAT) {
        return Err(refuse("manifest.json.format", format!("must be \"{}\"", limits::FORMAT)));
    }
    match manifest.get("version").and_then(Value::as_u64) {
        Some(version) if limits::READS.contains(&version) => Ok(()),
        Some(other) => Err(refuse(
            "manifest.json.version",
            format!("is {other}; this service reads version {} archives", limits::reads_in_words()),
        )),
        None => Err(refuse("manifest.json.version", "must be a whole number: the format's version")),
    }
}

/// An entry's bytes, read no further than it declares: more is a lie about its size (a zip
/// bomb's other mark), and a damaged entry (its checksum) is named.
fn entry_bytes(archive: &mut ZipArchive<File>, name: &str) -> CoreResult<Vec<u8>> {
    let mut entry = archive.by_name(name).map_err(|e| refuse(name, format!("cannot be read: {e}")))?;
    let declared = entry.size();
    let mut bytes = Vec::with_capacity(declared.min(limits::MAX_JSON_ENTRY_BYTES) as usize);
    (&mut entry).take(declared + 1).read_to_end(&mut bytes).map_err(|e| refuse(name, format!("is damaged: {e}")))?;
    if bytes.len() as u64 != declared {
        return Err(refuse(name, format!("declares {declared} bytes but holds {} or more", bytes.len())));
    }
    Ok(bytes)
}

fn json_entry(archive: &mut ZipArchive<File>, name: &str) -> CoreResult<Value> {
    let bytes = entry_bytes(archive, name)?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| refuse(name, format!("is not valid JSON: {e}")))?;
    if value.is_object() {
        Ok(value)
    } else {
        Err(refuse(name, "must be a JSON object"))
    }
}

/// One JSON value per line (blank lines skipped), at most `max` of them, each at most
/// [`limits::MAX_LINE_BYTES`], read as the entry expands.
fn json_lines(archive: &mut ZipArchive<File>, name: &str, max: usize) -> CoreResult<Vec<Value>> {
    let entry = archive.by_name(name).map_err(|e| refuse(name, format!("cannot be read: {e}")))?;
    let declared = entry.size();
    let mut reader = BufReader::new(entry.take(declared + 1));
    let (mut values, mut read, mut line, mut number) = (Vec::new(), 0u64, Vec::new(), 0usize);
    loop {
        line.clear();
        let n = (&mut reader)
            .take(limits::MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| refuse(name, format!("is damaged: {e}")))?;
        if n == 0 {
            break;
        }
        number += 1;
        read += n as u64;
        if read > declared {
            return Err(refuse(name, format!("declares {declared} bytes but holds more")));
        }
        if line.len() > limits::MAX_LINE_BYTES {
            return Err(refuse(
                &format!("{name}:{number}"),
                format!("is longer than {} bytes", limits::MAX_LINE_BYTES),
            ));
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if values.len() == max {
            return Err(refuse(name, format!("holds more than {max} lines; an archive holds at most {max}")));
        }
        let value = serde_json::from_slice(&line)
            .map_err(|e| refuse(&format!("{name}:{number}"), format!("is not valid JSON: {e}")))?;
        values.push(value);
    }
    if read != declared {
        return Err(refuse(name, format!("declares {declared} bytes but holds {read}")));
    }
    Ok(values)
}

/// `webhooks.json`: `{"webhooks": [definition, …]}`, each kept as its text.
fn webhook_definitions(bytes: &[u8]) -> CoreResult<Vec<Box<RawValue>>> {
    #[derive(serde::Deserialize)]
    struct Hooks {
        webhooks: Vec<Box<RawValue>>,
    }
    let hooks: Hooks = serde_json::from_slice(bytes)
        .map_err(|e| refuse("webhooks.json", format!("must be {{\"webhooks\": [definition, …]}}: {e}")))?;
    if hooks.webhooks.len() > limits::MAX_WEBHOOKS {
        return Err(refuse("webhooks.json", format!("holds more than {} definitions", limits::MAX_WEBHOOKS)));
    }
    Ok(hooks.webhooks)
}

/// Copies a file entry into `dir`, checking its size and that its name is the SHA-256 of its bytes.
fn copy_file(archive: &mut ZipArchive<File>, index: usize, dir: &tempfile::TempDir) -> CoreResult<(String, PathBuf)> {
    let mut entry = archive.by_index(index).map_err(|e| refuse("archive", format!("is damaged: {e}")))?;
    let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
    let hash = name.trim_start_matches("files/").to_owned();
    let declared = entry.size();
    let path = dir.path().join(&hash);
    let mut out = File::create(&path).map_err(CoreError::internal)?;
    let mut digest = Sha256::new();
    let (mut buffer, mut read) = (vec![0u8; 64 * 1024], 0u64);
    loop {
        let n = entry.read(&mut buffer).map_err(|e| refuse(&name, format!("is damaged: {e}")))?;
        if n == 0 {
            break;
        }
        read += n as u64;
        if read > declared {
            return Err(refuse(&name, format!("declares {declared} bytes but holds more")));
        }
        digest.update(&buffer[..n]);
        out.write_all(&buffer[..n]).map_err(CoreError::internal)?;
    }
    if read != declared {
        return Err(refuse(&name, format!("declares {declared} bytes but holds {read}")));
    }
    let actual: String = digest.finalize().iter().map(|b| format!("{b:02x}")).collect();
    if actual != hash {
        return Err(refuse(&name, format!("does not match its content (whose SHA-256 is {actual})")));
    }
    Ok((hash, path))
}
