//! File uploads (`POST /{parent}/{itemType}/file`, multipart) and file
//! content (`GET /{itemId}/content`). The gateway only decodes the framing:
//! the type check, sanitising and limits live in core-service.

use axum::body::Body;
use axum::extract::multipart::{Multipart, MultipartRejection};
use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use serde_json::{json, Map, Value};

use crate::caller::Caller;
use crate::error::ApiError;
use crate::respond::Format;
use crate::state::{mark_replayed, with_idempotency_key, AppState};

/// `POST /{parent}/{itemType}/file` with parts `dataobject` (a JSON string of
/// properties, optional) and `binary` (the file).
pub async fn upload(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, parent, item_type)): Path<(String, String, String)>,
    caller: Caller,
    headers: HeaderMap,
    multipart: Result<Multipart, MultipartRejection>,
) -> Response {
    let mut replayed = false;
    let result = async {
        crate::content_type::require_multipart(&axum::http::Method::POST, &headers)?;
        let mut multipart = multipart
            .map_err(|r| ApiError::invalid("body", &format!("must be multipart/form-data: {}", r.body_text())))?;
        let (properties, file) = read_parts(&mut multipart).await?;
        let request = pb::CreateItemRequest {
            project_id,
            parent,
            item_type,
            properties: Some(to_proto_struct(properties)),
            file: Some(file),
        };
        let request = with_idempotency_key(caller.request(request)?, &headers)?;
        let reply = state.items.clone().create_item(request).await?;
        replayed = crate::state::replayed(&reply);
        Ok(json!({"itemId": reply.into_inner().item_id}))
    }
    .await;
    mark_replayed(format.reply(result), replayed)
}

async fn read_parts(multipart: &mut Multipart) -> Result<(Map<String, Value>, pb::FileUpload), ApiError> {
    let mut properties = Map::new();
    let mut file = None;
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(err) => return Err(multipart_error(err)),
        };
        match field.name().unwrap_or_default() {
            "dataobject" => {
                let text = field.text().await.map_err(multipart_error)?;
                if !text.trim().is_empty() {
                    properties = match serde_json::from_str::<Value>(&text) {
                        Ok(Value::Object(map)) => map,
                        Ok(_) => {
                            return Err(ApiError::invalid(
                                "dataobject",
                                "must be a JSON object with the item properties",
                            ))
                        }
                        Err(e) => return Err(ApiError::invalid("dataobject", &format!("is not valid JSON: {e}"))),
                    };
                }
            }
            "binary" => {
                let file_name = field.file_name().unwrap_or_default().to_owned();
                let declared_mime_type = field.content_type().unwrap_or_default().to_owned();
                let content = field.bytes().await.map_err(multipart_error)?;
                file = Some(pb::FileUpload { file_name, declared_mime_type, content: content.to_vec() });
            }
            other => {
                return Err(ApiError::invalid(
                    other,
                    "is not a part of an item upload; send 'dataobject' (JSON properties) and 'binary' (the file)",
                ))
            }
        }
    }
    let file =
        file.ok_or_else(|| ApiError::invalid("binary", "the multipart part 'binary' with the file is required"))?;
    Ok((properties, file))
}

fn multipart_error(error: axum::extract::multipart::MultipartError) -> ApiError {
    if error.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::too_large()
    } else if canvas_runtime::edge::deadline::is_body_deadline(&error) {
        ApiError::body_timeout()
    } else {
        ApiError::invalid("body", &format!("malformed multipart body: {}", error.body_text()))
    }
}

/// `GET /{itemId}/content`: the stored bytes with their type. Served as an
/// attachment with `nosniff`, so stored files cannot run in the API origin.
pub async fn content(
    state: AppState,
    format: Format,
    project_id: String,
    item_id: String,
    caller: &Caller,
) -> Response {
    let request = pb::GetItemContentRequest { project_id, item_id };
    let result = async {
        let reply = caller
            .idempotent(request, |r| {
                let mut client = state.items.clone();
                async move { client.get_item_content(r).await }
            })
            .await?;
        Ok::<_, ApiError>(reply.into_inner())
    }
    .await;
    match result {
        Ok(content) => {
            let mime = HeaderValue::from_str(&content.mime_type)
                .unwrap_or(HeaderValue::from_static("application/octet-stream"));
            let safe_name: String =
                content.file_name.chars().filter(|c| c.is_ascii_alphanumeric() || "._- ".contains(*c)).collect();
            let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{safe_name}\""))
                .unwrap_or(HeaderValue::from_static("attachment"));
            (
                StatusCode::OK,
                [
                    (CONTENT_TYPE, mime),
                    (CONTENT_DISPOSITION, disposition),
                    (X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
                    (CACHE_CONTROL, HeaderValue::from_static("private, max-age=0")),
                ],
                Body::from(content.content),
            )
                .into_response()
        }
        Err(err) => format.error(err),
    }
}
