//! `canvasctl project export` and `canvasctl project import`: a project as one file
//! (docs/ARCHIVE.md), streamed over gRPC in chunks both ways so neither side holds it whole.

use std::path::PathBuf;

use anyhow::Context;
use canvas_proto::v1 as pb;
use canvas_proto::v1::project_archive_service_client::ProjectArchiveServiceClient;
use canvas_vocabulary::limits::archive::CHUNK_BYTES;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::admin::{explain, print, Admin};
use crate::cli::Connection;

/// The archive's messages are up to a chunk plus framing; allow the transport's limit.
const MAX_MESSAGE_BYTES: usize = canvas_proto::limits::MAX_MESSAGE_BYTES;

/// `canvasctl project export --project P --out FILE`: writes the archive to FILE (a temporary name
/// beside it until the last byte arrived, so a failed export leaves no file that looks whole).
pub async fn export(conn: Connection, project: String, out: PathBuf) -> anyhow::Result<()> {
    let admin = Admin::connect(&conn).await?;
    let mut client =
        ProjectArchiveServiceClient::new(admin.channel.clone()).max_decoding_message_size(MAX_MESSAGE_BYTES);
    let request = admin.request(pb::ExportProjectRequest { project_id: project.clone() })?;
    let mut chunks = client.export_project(request).await.map_err(explain)?.into_inner();
    let partial = out.with_extension("partial");
    let mut file =
        tokio::fs::File::create(&partial).await.with_context(|| format!("cannot write {}", partial.display()))?;
    let mut bytes = 0u64;
    loop {
        match chunks.message().await {
            Ok(Some(chunk)) => {
                bytes += chunk.data.len() as u64;
                file.write_all(&chunk.data).await?;
            }
            Ok(None) => break,
            Err(status) => {
                drop(file);
                let _ = tokio::fs::remove_file(&partial).await;
                return Err(explain(status));
            }
        }
    }
    file.sync_all().await?;
    tokio::fs::rename(&partial, &out).await.with_context(|| format!("cannot write {}", out.display()))?;
    print(
        &conn,
        json!({"projectId": project, "file": out.display().to_string(), "bytes": bytes}),
        format!("exported project {project} to {} ({bytes} bytes)", out.display()),
    );
    Ok(())
}

/// `canvasctl project import --file FILE [--owner U] [--name N]`
pub async fn import(
    conn: Connection,
    file: PathBuf,
    owner: Option<String>,
    name: Option<String>,
) -> anyhow::Result<()> {
    let admin = Admin::connect(&conn).await?;
    let mut client =
        ProjectArchiveServiceClient::new(admin.channel.clone()).max_encoding_message_size(MAX_MESSAGE_BYTES);
    let mut reader = tokio::fs::File::open(&file).await.with_context(|| format!("cannot read {}", file.display()))?;
    let (sender, receiver) = tokio::sync::mpsc::channel(4);
    sender.send(pb::ImportProjectRequest { owner_user_id: owner.unwrap_or_default(), name, data: Vec::new() }).await?;
    let reading = tokio::spawn(async move {
        loop {
            let mut data = vec![0u8; CHUNK_BYTES];
            let n = reader.read(&mut data).await?;
            if n == 0 {
                return Ok::<_, std::io::Error>(());
            }
            data.truncate(n);
            if sender.send(pb::ImportProjectRequest { data, ..Default::default() }).await.is_err() {
                return Ok(()); // the call ended early; its answer says why
            }
        }
    });
    let request = admin.request(tokio_stream::wrappers::ReceiverStream::new(receiver))?;
    let imported = client.import_project(request).await.map_err(explain)?.into_inner();
    reading.await?.with_context(|| format!("cannot read {}", file.display()))?;
    print(
        &conn,
        json!({
            "projectId": imported.project_id, "name": imported.name, "items": imported.items,
            "diagrams": imported.diagrams, "files": imported.files, "webhooks": imported.webhooks,
            "membersAdded": imported.members_added, "membersSkipped": imported.members_skipped,
        }),
        format!(
            "imported project {} ({}): {} items, {} diagrams, {} files, {} webhooks (inactive until re-saved); \
             members added: {:?}; not found here: {:?}",
            imported.project_id,
            imported.name,
            imported.items,
            imported.diagrams,
            imported.files,
            imported.webhooks,
            imported.members_added,
            imported.members_skipped
        ),
    );
    Ok(())
}
