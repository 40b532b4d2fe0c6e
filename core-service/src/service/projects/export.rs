//! A project written as an archive (docs/ARCHIVE.md, "Format"), streamed while it is written.
//!
//! Everything that can refuse the export (access, the limits) is decided before the first byte:
//! the call then either streams the whole archive or ends in an error the client sees as a cut
//! stream. The zip is written on a blocking thread (the `zip` crate writes to `std::io::Write`)
//! from pieces an async task reads (the snapshot, then each file from the blob store), through
//! bounded channels, so an export holds at most a few chunks and one file in memory beyond the
//! snapshot's rows.

use std::collections::BTreeSet;
use std::io::Write;

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{json, Map, Value};
use tokio::sync::mpsc;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use super::ProjectsService;
use crate::domain::{ProjectId, ProjectRole};
use crate::error::{CoreError, CoreResult};
use crate::service::Principal;
use crate::storage::{DiagramRow, ElementRow, ItemRow};
use canvas_vocabulary::limits::archive::{self as limits, CHUNK_BYTES};

/// Items per piece of `items.jsonl` handed to the writer.
const ITEMS_PER_PIECE: usize = 500;

/// An export under way: the archive's bytes in order, then the end of the channel (or an error).
pub struct ExportedArchive {
    /// The project's name, for a file name.
    pub name: String,
    pub chunks: mpsc::Receiver<CoreResult<Vec<u8>>>,
}

/// What the async side hands the zip writer.
enum Piece {
    /// A new entry: its name, and whether it is stored as is (files) or deflated (JSON).
    Entry {
        name: String,
        stored: bool,
    },
    Data(Vec<u8>),
    /// The export failed (the reason went to the client): stop without finishing the archive.
    Abort,
}

/// The time as every time in an archive is written (RFC 3339, milliseconds, UTC).
pub fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

impl ProjectsService {
    /// Streams `project` as an archive. Needs the project's Admin role (its owner's), or a
    /// system administrator (the admin API, `canvasctl project export`).
    pub async fn export_project(&self, who: &Principal, project: ProjectId) -> CoreResult<ExportedArchive> {
        let row = if who.system_admin {
            self.accounts.project_row(project).await?
        } else {
            self.access.require_role(who, project, ProjectRole::Admin).await?.0
        };
        let (items, diagrams, elements) = self.items.archive_snapshot(project).await?;
        let files: BTreeSet<String> = items.iter().filter_map(|item| item.content_key.clone()).collect();
        for (what, count, max) in [
            ("items", items.len(), limits::MAX_ITEMS),
            ("files", files.len(), limits::MAX_FILES),
            ("diagram records", diagrams.len(), limits::MAX_DIAGRAMS),
        ] {
            if count > max {
                return Err(CoreError::Conflict(format!(
                    "the project holds {count} {what}; an archive holds at most {max}, so it cannot be exported"
                )));
            }
        }
        let members = self.accounts.members_by_login(project).await?;
        let webhooks = self.webhooks.archived_webhooks(project).await?;
        let manifest = json!({
            "format": limits::FORMAT,
            "version": limits::VERSION,
            "exportedAt": rfc3339(Utc::now()),
            "projectId": project.to_string(),
            "counts": {
                "items": items.len(), "diagrams": diagrams.len(), "files": files.len(),
                "members": members.len(), "webhooks": webhooks.len(),
            },
        });
        let members: Vec<Value> =
            members.into_iter().map(|m| json!({"login": m.login, "name": m.name, "role": m.role.as_str()})).collect();
        let project_json = json!({"name": row.name, "createdAt": rfc3339(row.created_at), "members": members});
        let webhooks_json = json!({"webhooks": webhooks});

        let (chunks, receiver) = mpsc::channel(4);
        let (pieces, mut from_async) = mpsc::channel::<Piece>(4);
        let writer_chunks = chunks.clone();
        tokio::task::spawn_blocking(move || write_zip(&mut from_async, &writer_chunks));
        let items_service = self.items.clone();
        tokio::spawn(async move {
            let sent = async {
                let json_entry = |name: &str, value: &Value| -> CoreResult<Vec<Piece>> {
                    let bytes = serde_json::to_vec_pretty(value).map_err(CoreError::internal)?;
                    Ok(vec![Piece::Entry { name: name.to_owned(), stored: false }, Piece::Data(bytes)])
                };
                let stopped = |_| CoreError::internal("the archive writer stopped");
                let mut head = json_entry("manifest.json", &manifest)?;
                head.extend(json_entry("project.json", &project_json)?);
                head.push(Piece::Entry { name: "items.jsonl".into(), stored: false });
                for piece in head {
                    pieces.send(piece).await.map_err(stopped)?;
                }
                for page in items.chunks(ITEMS_PER_PIECE) {
                    pieces.send(Piece::Data(json_lines(page.iter().map(item_line))?)).await.map_err(stopped)?;
                }
                let mut tail = vec![
                    Piece::Entry { name: "diagrams.jsonl".into(), stored: false },
                    Piece::Data(json_lines(diagrams.iter().map(|d| diagram_line(d, &elements)))?),
                ];
                tail.extend(json_entry("webhooks.json", &webhooks_json)?);
                for piece in tail {
                    pieces.send(piece).await.map_err(stopped)?;
                }
                for key in files {
                    let bytes = items_service.archive_file(&key).await?;
                    pieces.send(Piece::Entry { name: format!("files/{key}"), stored: true }).await.map_err(stopped)?;
                    pieces.send(Piece::Data(bytes)).await.map_err(stopped)?;
                }
                Ok::<_, CoreError>(())
            }
            .await;
            if let Err(error) = sent {
                tracing::warn!(%error, "a project export failed while streaming");
                let _ = pieces.send(Piece::Abort).await;
                let _ = chunks.send(Err(error)).await;
            }
        });
        Ok(ExportedArchive { name: row.name, chunks: receiver })
    }
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
fn diagram_line(diagram: &DiagramRow, elements: &[ElementRow]) -> Value {
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

/// Values as JSON lines (each ends with a newline).
fn json_lines(values: impl Iterator<Item = Value>) -> CoreResult<Vec<u8>> {
    let mut out = Vec::new();
    for value in values {
        serde_json::to_writer(&mut out, &value).map_err(CoreError::internal)?;
        out.push(b'\n');
    }
    Ok(out)
}

/// Writes the pieces as a zip into chunks of [`CHUNK_BYTES`]; ends the archive when the pieces
/// end, and stops without ending it on [`Piece::Abort`] or when the client is gone.
fn write_zip(pieces: &mut mpsc::Receiver<Piece>, chunks: &mpsc::Sender<CoreResult<Vec<u8>>>) {
    let mut zip = ZipWriter::new_stream(Chunks { buffer: Vec::with_capacity(CHUNK_BYTES), out: chunks.clone() });
    let written = (|| -> zip::result::ZipResult<bool> {
        while let Some(piece) = pieces.blocking_recv() {
            match piece {
                Piece::Entry { name, stored } => {
                    let method = if stored { CompressionMethod::Stored } else { CompressionMethod::Deflated };
                    let options = SimpleFileOptions::default().compression_method(method).unix_permissions(0o644);
                    zip.start_file(name, options)?;
                }
                Piece::Data(bytes) => zip.write_all(&bytes)?,
                Piece::Abort => return Ok(false),
            }
        }
        Ok(true)
    })();
    match written {
        Ok(true) => match zip.finish() {
            Ok(mut stream) => {
                let _ = stream.flush();
            }
            Err(error) => {
                let _ = chunks.blocking_send(Err(CoreError::internal(format!("writing the archive: {error}"))));
            }
        },
        Ok(false) => {}
        Err(error) => {
            let _ = chunks.blocking_send(Err(CoreError::internal(format!("writing the archive: {error}"))));
        }
    }
}

/// The zip's output, cut into chunks sent over the channel as they fill (and the rest on flush).
struct Chunks {
    buffer: Vec<u8>,
    out: mpsc::Sender<CoreResult<Vec<u8>>>,
}

impl Chunks {
    fn send(&mut self) -> std::io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let full = std::mem::replace(&mut self.buffer, Vec::with_capacity(CHUNK_BYTES));
        self.out.blocking_send(Ok(full)).map_err(|_| std::io::Error::other("the client stopped reading the export"))
    }
}

impl Write for Chunks {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let room = CHUNK_BYTES - self.buffer.len();
        let taken = bytes.len().min(room);
        self.buffer.extend_from_slice(&bytes[..taken]);
        if self.buffer.len() >= CHUNK_BYTES {
            self.send()?;
        }
        Ok(taken)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.send()
    }
}
