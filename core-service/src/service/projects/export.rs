//! A project written as an archive (docs/ARCHIVE.md, "Export"), streamed while it is written.
//!
//! Everything that can refuse the export comes before the first byte: access, then the JSON
//! entries written and compressed in memory (`entries.rs`), so every limit an import applies
//! (counts, entry and archive sizes, compression ratios) is checked against the real sizes. The
//! stream then either carries the whole archive or ends in an error the client sees as a cut
//! body. The zip is written on a blocking thread (the `zip` crate writes to `std::io::Write`)
//! from pieces an async task hands it (the prepared entries, then each file read from the blob
//! store), through bounded channels, so beyond the snapshot an export holds a few chunks and one
//! file in memory.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;

use chrono::Utc;
use serde_json::{json, Value};
use tokio::sync::mpsc;
use zip::ZipWriter;

use super::entries::{self, rfc3339, Prepared};
use super::ProjectsService;
use crate::domain::{ProjectId, ProjectRole, ThreadId, UserId};
use crate::error::{CoreError, CoreResult};
use crate::service::items::archive_items::thread_line;
use crate::service::Principal;
use crate::storage::{CommentRow, ProjectSnapshot};
use canvas_vocabulary::limits::archive::{self as limits, CHUNK_BYTES};

/// Bytes an entry adds besides its data (headers and table row, name included), counted
/// generously when the archive's size is judged before it is written.
const ENTRY_OVERHEAD: u64 = 512;

/// An export under way: the archive's bytes in order, then the end of the channel (or an error).
pub struct ExportedArchive {
    /// The project's name, for a file name.
    pub name: String,
    pub chunks: mpsc::Receiver<CoreResult<Vec<u8>>>,
}

/// What the async side hands the zip writer.
enum Piece {
    /// A JSON entry, copied as it was prepared.
    Json(Prepared),
    /// A file: its key and bytes.
    File(String, Vec<u8>),
    /// The export failed (the reason went to the client): stop without finishing the archive.
    Abort,
}

fn too_large(what: String) -> CoreError {
    CoreError::Conflict(format!("{what}, more than an archive may hold, so the project cannot be exported"))
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
        let snapshot = self.items.archive_snapshot(project).await?;
        let ProjectSnapshot { items, diagrams, elements, tags, threads, comments } = snapshot;
        // Each distinct file once, with its size (`fileSize` is the stored bytes' count).
        let files: BTreeMap<String, u64> = items
            .iter()
            .filter_map(|item| {
                let size = item.properties.get("fileSize").and_then(Value::as_u64).unwrap_or(0);
                Some((item.content_key.clone()?, size))
            })
            .collect();
        for (what, count, max) in [
            ("items", items.len(), limits::MAX_ITEMS),
            ("files", files.len(), limits::MAX_FILES),
            ("diagram records", diagrams.len(), limits::MAX_DIAGRAMS),
            ("comment threads", threads.len(), limits::MAX_THREADS),
        ] {
            if count > max {
                return Err(too_large(format!("the project holds {count} {what}; an archive holds at most {max}")));
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
                "members": members.len(), "webhooks": webhooks.len(), "tags": tags.len(),
                "threads": threads.len(),
            },
        });
        let members: Vec<Value> =
            members.into_iter().map(|m| json!({"login": m.login, "name": m.name, "role": m.role.as_str()})).collect();
        let project_json = json!({"name": row.name, "createdAt": rfc3339(row.created_at), "members": members});
        let webhooks_json = json!({"webhooks": webhooks});
        let tags: Vec<Value> =
            tags.into_iter().map(|t| json!({"tagId": t.id.to_string(), "name": t.name, "color": t.color})).collect();
        let tags_json = json!({"tags": tags});
        // Comment authors by login, as members are: another installation matches logins, not ids.
        let mut people: Vec<UserId> = comments.iter().map(|c| c.author_user_id).collect();
        people.sort();
        people.dedup();
        let logins = self.accounts.logins_of(&people).await?;
        let mut by_thread: HashMap<ThreadId, Vec<&CommentRow>> = HashMap::new();
        for comment in &comments {
            by_thread.entry(comment.thread_id).or_default().push(comment);
        }
        let thread_lines: Vec<Value> = threads
            .iter()
            .map(|t| thread_line(t, by_thread.get(&t.id).map(Vec::as_slice).unwrap_or_default(), &logins))
            .collect();
        let prepared = tokio::task::spawn_blocking(move || {
            let items = entries::json_lines("items.jsonl", items.iter().map(entries::item_line))?;
            let diagrams =
                entries::json_lines("diagrams.jsonl", diagrams.iter().map(|d| entries::diagram_line(d, &elements)))?;
            [
                ("manifest.json", entries::json_object(&manifest)?),
                ("project.json", entries::json_object(&project_json)?),
                ("items.jsonl", items),
                ("diagrams.jsonl", diagrams),
                ("webhooks.json", entries::json_object(&webhooks_json)?),
                ("tags.json", entries::json_object(&tags_json)?),
                ("comments.jsonl", entries::json_lines("comments.jsonl", thread_lines.into_iter())?),
            ]
            .iter()
            .map(|(name, bytes)| entries::prepare(name, bytes))
            .collect::<CoreResult<Vec<Prepared>>>()
        })
        .await
        .map_err(CoreError::internal)??;
        let expanded: u64 = prepared.iter().map(|p| p.expanded).sum::<u64>() + files.values().sum::<u64>();
        let written: u64 = prepared.iter().map(|p| p.zip.len() as u64).sum::<u64>()
            + files.values().sum::<u64>()
            + ENTRY_OVERHEAD * (files.len() + prepared.len()) as u64;
        if expanded > limits::MAX_EXPANDED_BYTES {
            return Err(too_large(format!("the archive would expand to {expanded} bytes")));
        }
        if written > limits::MAX_ARCHIVE_BYTES {
            return Err(too_large(format!("the archive would be about {written} bytes")));
        }

        let (chunks, receiver) = mpsc::channel(4);
        let (pieces, mut from_async) = mpsc::channel::<Piece>(4);
        let writer_chunks = chunks.clone();
        tokio::task::spawn_blocking(move || write_zip(&mut from_async, &writer_chunks));
        let items_service = self.items.clone();
        tokio::spawn(async move {
            let sent = async {
                let stopped = |_| CoreError::internal("the archive writer stopped");
                for entry in prepared {
                    pieces.send(Piece::Json(entry)).await.map_err(stopped)?;
                }
                for key in files.into_keys() {
                    let bytes = items_service.archive_file(&key).await?;
                    pieces.send(Piece::File(key, bytes)).await.map_err(stopped)?;
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

/// Writes the pieces as a zip into chunks of [`CHUNK_BYTES`]; ends the archive when the pieces
/// end, and stops without ending it on [`Piece::Abort`] or when the client is gone.
fn write_zip(pieces: &mut mpsc::Receiver<Piece>, chunks: &mpsc::Sender<CoreResult<Vec<u8>>>) {
    let mut zip = ZipWriter::new_stream(Chunks { buffer: Vec::with_capacity(CHUNK_BYTES), out: chunks.clone() });
    let written = (|| -> zip::result::ZipResult<bool> {
        while let Some(piece) = pieces.blocking_recv() {
            match piece {
                Piece::Json(prepared) => entries::copy_into(&mut zip, &prepared)?,
                Piece::File(key, bytes) => {
                    entries::start_file(&mut zip, &key)?;
                    zip.write_all(&bytes)?;
                }
                Piece::Abort => return Ok(false),
            }
        }
        Ok(true)
    })();
    let failed = match written {
        Ok(true) => zip.finish().and_then(|mut stream| Ok(stream.flush()?)).err(),
        Ok(false) => None,
        Err(error) => Some(error),
    };
    if let Some(error) = failed {
        let _ = chunks.blocking_send(Err(CoreError::internal(format!("writing the archive: {error}"))));
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
