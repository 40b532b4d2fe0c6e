//! A project as one file (docs/ARCHIVE.md): `GET /api/v2/projects/{projectId}/export` streams
//! the archive core-service writes, and `POST /api/v2/projects/import` streams the request body to
//! core-service, which reads it into a new project. The gateway moves bytes only: who may, what an
//! archive holds and every check of it are core-service's (`service/projects/`).

use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use canvas_proto::v1 as pb;
use canvas_proto::v1::project_archive_service_client::ProjectArchiveServiceClient;
use canvas_vocabulary::limits::archive::{CHUNK_BYTES, MAX_ARCHIVE_BYTES};
use serde_json::json;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;

use crate::caller::Caller;
use crate::error::ApiError;
use crate::respond::{query_value, Format};
use crate::state::{AppState, MAX_MESSAGE_BYTES};

/// The path of the import, whose body may be larger than any other (`crate::app`).
pub const IMPORT_PATH: &str = "/api/v2/projects/import";
/// The type of an archive.
pub const ZIP: &str = "application/zip";
/// The import's body limit: an archive's (`canvas_vocabulary::limits::archive`).
pub const MAX_ARCHIVE_BODY: usize = MAX_ARCHIVE_BYTES as usize;

/// The 413 of an archive over its limit.
pub fn too_large() -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the archive is larger than the limit of {MAX_ARCHIVE_BYTES} bytes"),
    )
}

fn client(state: &AppState) -> ProjectArchiveServiceClient<canvas_proto::channel::CoreChannel> {
    ProjectArchiveServiceClient::new(state.channel.clone())
        .max_decoding_message_size(MAX_MESSAGE_BYTES)
        .max_encoding_message_size(MAX_MESSAGE_BYTES)
}

/// `GET /api/v2/projects/{projectId}/export`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/export",
    tag = "projects",
    operation_id = "exportProject",
    summary = "The project as one archive file",
    description = "A versioned zip archive (docs/ARCHIVE.md) of the project's items with every property, \
        its diagram records, its uploaded files, its members by login and role, and its webhook definitions \
        (without history). Needs the project's Admin role. Streamed as it is written: a failure after the \
        answer began cuts the body short, so a client checks that the archive reads whole. \
        `POST /api/v2/projects/import` makes a new project of it.",
    params(("projectId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The archive.", content_type = "application/zip", body = Vec<u8>))
)]
pub async fn export(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
) -> Response {
    let result = async {
        let request = caller.request(pb::ExportProjectRequest { project_id: project_id.clone() })?;
        Ok::<_, ApiError>(client(&state).export_project(request).await?.into_inner())
    }
    .await;
    let chunks = match result {
        Ok(chunks) => chunks,
        Err(err) => return format.error(err),
    };
    // Refusals came before the first chunk (as the call's status); an error now can only cut the
    // body, which the client sees as a broken transfer, never as a whole archive.
    let body = Body::from_stream(chunks.map(|chunk| match chunk {
        Ok(chunk) => Ok(Bytes::from(chunk.data)),
        Err(status) => Err(std::io::Error::other(format!("the export failed ({:?})", status.code()))),
    }));
    let short_id: String = project_id.chars().filter(|c| c.is_ascii_hexdigit() || *c == '-').take(36).collect();
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"project-{short_id}.zip\""))
        .unwrap_or(HeaderValue::from_static("attachment"));
    (
        StatusCode::OK,
        [
            (CONTENT_TYPE, HeaderValue::from_static(ZIP)),
            (CONTENT_DISPOSITION, disposition),
            (CACHE_CONTROL, HeaderValue::from_static("private, no-store")),
        ],
        body,
    )
        .into_response()
}

/// `POST /api/v2/projects/import`
#[utoipa::path(
    post,
    path = "/api/v2/projects/import",
    tag = "projects",
    operation_id = "importProject",
    summary = "A new project from an archive file",
    description = "Reads an archive made by `GET /api/v2/projects/{projectId}/export` (docs/ARCHIVE.md) into a \
        new project: new ids, every reference remapped, every item checked by the rules of a create, all or \
        nothing. System administrators only (whoever may create projects). Members are added by login where \
        such a user exists (`MembersSkipped` lists the others); webhooks arrive inactive until saved again. \
        A damaged or hostile archive is a 400 naming the entry, line and field at fault; an archive over \
        1 GiB a 413.",
    params(
        ("owner" = Option<String>, Query, format = "uuid", description = "The new project's owner (its Admin); the caller when absent."),
        ("name" = Option<String>, Query, description = "The new project's name; the archive's when absent."),
    ),
    request_body(content = Vec<u8>, content_type = "application/octet-stream", description = "The archive."),
    responses((status = 200, description = "The new project.", body = crate::bodies::archive::ImportedProject))
)]
pub async fn import(
    State(state): State<AppState>,
    format: Format,
    RawQuery(query): RawQuery,
    caller: Caller,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let result = async {
        if !is_zip(&headers) {
            return Err(crate::content_type::unsupported(&Method::POST, &headers, ZIP));
        }
        let query = query.unwrap_or_default();
        let first = pb::ImportProjectRequest {
            owner_user_id: query_value(&query, "owner").unwrap_or_default(),
            name: query_value(&query, "name"),
            data: Vec::new(),
        };
        let (sender, receiver) = mpsc::channel(4);
        sender.send(first).await.map_err(ApiError::internal)?;
        let request = caller.request(ReceiverStream::new(receiver))?;
        let mut client = client(&state);
        let call = client.import_project(request);
        tokio::pin!(call);
        // The call reads what the body feeds it. A body that fails first (too slow, too large)
        // drops the call before it is answered, so core-service imports nothing; an early answer
        // (a caller who may not import) ends the body's forwarding.
        let reply = tokio::select! {
            reply = &mut call => reply?,
            forwarded = forward(body, sender) => {
                forwarded?;
                call.await?
            }
        };
        let imported = reply.into_inner();
        Ok(json!({
            "projectId": imported.project_id,
            "name": imported.name,
            "items": imported.items,
            "diagrams": imported.diagrams,
            "files": imported.files,
            "webhooks": imported.webhooks,
            "membersAdded": imported.members_added,
            "membersSkipped": imported.members_skipped,
        }))
    }
    .await;
    format.reply(result)
}

/// `application/zip` (any letter case, any parameters), or `application/octet-stream`, which
/// clients send for a file they do not name.
fn is_zip(headers: &HeaderMap) -> bool {
    let Some(sent) = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()) else { return false };
    let essence = sent.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == ZIP || essence == "application/octet-stream"
}

/// Sends the body to the call in chunks of at most [`CHUNK_BYTES`], then ends the stream.
async fn forward(body: Body, sender: mpsc::Sender<pb::ImportProjectRequest>) -> Result<(), ApiError> {
    let mut frames = body.into_data_stream();
    let (mut pending, mut total) = (Vec::with_capacity(CHUNK_BYTES), 0u64);
    while let Some(frame) = frames.next().await {
        let bytes = frame.map_err(|error| {
            if canvas_runtime::edge::deadline::is_body_deadline(&error) {
                ApiError::body_timeout()
            } else {
                ApiError::invalid("body", "could not be read to its end")
            }
        })?;
        total += bytes.len() as u64;
        if total > MAX_ARCHIVE_BYTES {
            return Err(too_large());
        }
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let taken = rest.len().min(CHUNK_BYTES - pending.len());
            pending.extend_from_slice(&rest[..taken]);
            rest = &rest[taken..];
            if pending.len() == CHUNK_BYTES {
                let data = std::mem::replace(&mut pending, Vec::with_capacity(CHUNK_BYTES));
                if sender.send(pb::ImportProjectRequest { data, ..Default::default() }).await.is_err() {
                    return Ok(()); // the call ended: its answer says why
                }
            }
        }
    }
    if !pending.is_empty() {
        let _ = sender.send(pb::ImportProjectRequest { data: pending, ..Default::default() }).await;
    }
    Ok(())
}
