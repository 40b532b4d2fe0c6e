//! The JSON entries of an archive (docs/ARCHIVE.md, "The format"), written and compressed in
//! memory before an export streams a byte, so their sizes are known and every limit an import
//! applies is checked first: an archive this service writes is one it reads back.
//!
//! An entry is deflated unless deflate would shrink it more than an import accepts
//! ([`limits::MAX_COMPRESSION_RATIO`]: a label of a million spaces compresses like a zip bomb);
//! such an entry is stored as it is. Blocking code: run it on a blocking thread.

use std::io::{Cursor, Write};

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{json, Map, Value};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use crate::error::{CoreError, CoreResult};
use crate::storage::{DiagramRow, ElementRow, ItemRow};
use canvas_vocabulary::limits::archive as limits;

/// The time as every time in an archive is written (RFC 3339, milliseconds, UTC).
pub fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A JSON entry ready to copy into the archive: a zip of that one entry, compressed or stored.
pub struct Prepared {
    pub zip: Vec<u8>,
    /// Its bytes expanded.
    pub expanded: u64,
}

/// Options of every entry this service writes.
fn options(method: CompressionMethod) -> SimpleFileOptions {
    SimpleFileOptions::default().compression_method(method).unix_permissions(0o644)
}

fn one_entry(name: &str, bytes: &[u8], method: CompressionMethod) -> zip::result::ZipResult<Vec<u8>> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    zip.start_file(name, options(method))?;
    zip.write_all(bytes)?;
    Ok(zip.finish()?.into_inner())
}

/// `bytes` as the entry `name`, refused (a 409: the project cannot be exported) over the size a
/// JSON entry may have.
pub fn prepare(name: &str, bytes: &[u8]) -> CoreResult<Prepared> {
    let expanded = bytes.len() as u64;
    if expanded > limits::MAX_JSON_ENTRY_BYTES {
        return Err(CoreError::Conflict(format!(
            "the project's {name} would be {expanded} bytes; an archive's JSON entry holds at most {}, so it \
             cannot be exported",
            limits::MAX_JSON_ENTRY_BYTES
        )));
    }
    let written = |e: zip::result::ZipError| CoreError::internal(format!("writing {name}: {e}"));
    let deflated = one_entry(name, bytes, CompressionMethod::Deflated).map_err(written)?;
    let compressed = ZipArchive::new(Cursor::new(&deflated))
        .and_then(|archive| archive.by_index_data(0).map(|entry| entry.compressed_size()))
        .map_err(written)?;
    // The copy keeps these compressed bytes, so an import computes this very ratio.
    let bomb_like =
        expanded > limits::RATIO_FLOOR_BYTES && expanded / compressed.max(1) > limits::MAX_COMPRESSION_RATIO;
    let zip = if bomb_like { one_entry(name, bytes, CompressionMethod::Stored).map_err(written)? } else { deflated };
    Ok(Prepared { zip, expanded })
}

/// Copies a prepared entry into `archive` as it is (no second compression).
pub fn copy_into<W: Write + std::io::Seek>(
    archive: &mut ZipWriter<W>,
    prepared: &Prepared,
) -> zip::result::ZipResult<()> {
    let mut one = ZipArchive::new(Cursor::new(&prepared.zip))?;
    let copied = archive.raw_copy_file(one.by_index_raw(0)?);
    copied
}

/// Starts a file entry (stored: files are mostly compressed already, and their bytes are hashed as
/// they are).
pub fn start_file<W: Write + std::io::Seek>(archive: &mut ZipWriter<W>, key: &str) -> zip::result::ZipResult<()> {
    archive.start_file(format!("files/{key}"), options(CompressionMethod::Stored))
}

/// An item as `items.jsonl` holds it: the REST item's members (camelCase) with its stored
/// properties (every property, defaults filled; derived values such as a connector's
/// `absolutePosition` left out, since they follow from the others), and its file by hash.
pub fn item_line(item: &ItemRow) -> Value {
    let mut line = Map::new();
    line.insert("itemId".into(), json!(item.id.to_string()));
    line.insert("itemType".into(), json!(item.item_type.as_str()));
    line.insert("parent".into(), json!(item.parent.to_string()));
    line.insert("createdAt".into(), json!(rfc3339(item.created_at)));
    line.insert("updatedAt".into(), json!(rfc3339(item.updated_at)));
    if let Some(key) = &item.content_key {
        line.insert("contentSha256".into(), json!(key));
    }
    if let Value::Object(properties) = &item.properties {
        line.extend(properties.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    Value::Object(line)
}

/// A diagram record as `diagrams.jsonl` holds it, with its element map.
pub fn diagram_line(diagram: &DiagramRow, elements: &[ElementRow]) -> Value {
    let elements: Vec<Value> = elements
        .iter()
        .filter(|row| row.diagram_id == diagram.id)
        .map(|row| {
            json!({
                "element": row.element, "part": row.part, "itemId": row.item_id.to_string(),
                "itemType": row.item_type, "ordinal": row.ordinal, "planned": row.planned,
            })
        })
        .collect();
    json!({
        "diagramId": diagram.id.to_string(),
        "kind": diagram.kind,
        "format": diagram.format,
        "source": diagram.source,
        "origin": {"x": diagram.origin_x, "y": diagram.origin_y},
        "createdAt": rfc3339(diagram.created_at),
        "updatedAt": rfc3339(diagram.updated_at),
        "elements": elements,
    })
}

/// Values as JSON lines (each ends with a newline); a line over [`limits::MAX_LINE_BYTES`] is a
/// 409 naming the entry, as an import would refuse it.
pub fn json_lines(name: &str, values: impl Iterator<Item = Value>) -> CoreResult<Vec<u8>> {
    let mut out = Vec::new();
    for value in values {
        let start = out.len();
        serde_json::to_writer(&mut out, &value).map_err(CoreError::internal)?;
        if out.len() - start > limits::MAX_LINE_BYTES {
            return Err(CoreError::Conflict(format!(
                "a line of the project's {name} would be over {} bytes, so it cannot be exported",
                limits::MAX_LINE_BYTES
            )));
        }
        out.push(b'\n');
    }
    Ok(out)
}

/// A JSON object entry, indented for people who open the archive.
pub fn json_object(value: &Value) -> CoreResult<Vec<u8>> {
    serde_json::to_vec_pretty(value).map_err(CoreError::internal)
}
