//! `upload_image`: an image item from base64 bytes. The gateway only decodes
//! the transport encoding; core-service runs the same checks as for the REST
//! file upload (sniffed type, size, file name).

use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use canvas_proto::failure::Violation;
use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Map;

use std::sync::Arc;

use canvas_vocabulary::items::IMAGE;
use canvas_vocabulary::json_schema::{self, MCP};
use rmcp::model::JsonObject;

use super::output::{json_of, CreatedOut, Point, Size};
use super::{schema, CanvasTool, Hints, ToolContext};
use crate::error::ToolFailure;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UploadImageArgs {
    /// The project (GUID).
    pub project_id: String,
    /// The image file, base64-encoded (a data: URL such as
    /// data:image/png;base64,... is accepted too). JPEG, PNG, GIF or WebP;
    /// the whole request may be at most 25 MB.
    pub data: String,
    /// The file name shown for the image.
    pub file_name: String,
    /// Where to place the image (its centre).
    pub position: Option<Point>,
    /// How big to draw it; omitted: its pixel size.
    pub size: Option<Size>,
    /// "panel" (on the canvas), "inbox" or a container item's id; omitted: on the canvas.
    #[serde(default)]
    pub parent: String,
    /// The frame (its id) to put it in: the same as `parent`, named for agents working in frames.
    #[serde(default)]
    pub frame: String,
    /// Makes a retry safe: 1 to 255 printable ASCII characters, new for each change you mean (a UUID,
    /// say). Calling again with the same key and the same arguments within 24 hours returns the first
    /// call's result and creates nothing more; the same key with other arguments is an error.
    #[serde(default)]
    pub idempotency_key: Option<String>,
}

pub struct UploadImage;

impl CanvasTool for UploadImage {
    const NAME: &'static str = "upload_image";
    const TITLE: &'static str = "Upload an image";
    const DESCRIPTION: &'static str = "Creates an image item from the image's bytes, sent base64-encoded in \
        `data` (JPEG, PNG, GIF or WebP; the request may be at most 25 MB, so the file at most about 18 MB). \
        The type is detected from the bytes; fileName is the name shown. Optionally give position, size and \
        parent. Returns the image's itemId and link.";
    const HINTS: Hints = Hints::CREATE;
    type Args = UploadImageArgs;
    type Output = CreatedOut;
    const SHOWN_ON_THE_MAP: bool = true;

    /// `fileName`, `position` and `size` as an image's properties in core-service's table.
    fn input_schema() -> Arc<JsonObject> {
        let image = |name: &str| IMAGE.iter().find(|d| d.name == name).expect("an image property");
        let arguments = ["fileName", "position", "size"]
            .into_iter()
            .map(|name| (name, json_schema::property(image(name), MCP, false)))
            .collect();
        schema::with_properties(schema::input::<UploadImageArgs>(), arguments)
    }

    fn argument_for(violation: &Violation) -> String {
        let field = violation.field.as_str();
        match field {
            "binary" | "file" | "content" | "mimeType" | "fileSize" | "data" => "data".to_owned(),
            "fileName" | "file.fileName" | "file_name" => "fileName".to_owned(),
            other => other.to_owned(),
        }
    }

    async fn run(ctx: &ToolContext, args: UploadImageArgs) -> Result<CreatedOut, ToolFailure> {
        let (declared_mime_type, content) = decode(&args.data)?;
        let mut properties = Map::new();
        if let Some(position) = args.position {
            properties.insert("position".into(), json_of(&position));
        }
        if let Some(size) = args.size {
            properties.insert("size".into(), json_of(&size));
        }
        let request = pb::CreateItemRequest {
            project_id: args.project_id.clone(),
            parent: super::frames::parent_or_frame(args.parent, args.frame)?,
            item_type: "image".to_owned(),
            properties: Some(to_proto_struct(properties)),
            file: Some(pb::FileUpload { file_name: args.file_name, declared_mime_type, content }),
        };
        let request = ctx.request_once(request, args.idempotency_key.as_deref())?;
        let created = ctx.state.items.clone().create_item(request).await?.into_inner();
        Ok(CreatedOut::new(&ctx.state, &args.project_id, created.item_id, "image"))
    }
}

/// The bytes of a base64 payload (standard or URL-safe alphabet, padded or
/// not, whitespace ignored), with the media type a `data:` URL declared.
fn decode(data: &str) -> Result<(String, Vec<u8>), ToolFailure> {
    let (declared, encoded) = match data.trim().strip_prefix("data:") {
        Some(rest) => match rest.split_once(',') {
            Some((header, body)) if header.ends_with(";base64") => {
                (header.trim_end_matches(";base64").to_owned(), body)
            }
            _ => {
                return Err(ToolFailure::invalid("data", "a data: URL must be base64-encoded (data:<type>;base64,...)"))
            }
        },
        None => (String::new(), data),
    };
    let compact: String = encoded.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    [STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(&compact).ok())
        .map(|bytes| (declared, bytes))
        .ok_or_else(|| ToolFailure::invalid("data", "is not valid base64; send the file's bytes base64-encoded"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_plain_padded_unpadded_and_data_urls() {
        assert_eq!(decode("aGk=").map(|(_, b)| b).ok(), Some(b"hi".to_vec()));
        assert_eq!(decode("aGk").map(|(_, b)| b).ok(), Some(b"hi".to_vec()));
        let (declared, bytes) = decode("data:image/png;base64,aG\nk=").ok().unwrap_or_default();
        assert_eq!((declared.as_str(), bytes.as_slice()), ("image/png", b"hi".as_slice()));
        assert!(decode("not base64!").is_err());
    }
}
