//! Web links and file-backed items: images, documents and SVGs (their tables are
//! `canvas_vocabulary::items::{WEB, IMAGE, DOCUMENT, SVG}`): the image rule and uploads.

use serde_json::{Map, Value};

use canvas_vocabulary::items::MIN_SIZE;

use super::RuleContext;

pub use canvas_vocabulary::items::IMAGE_TYPES;

pub const WEB_READABLE: &[(&str, &str)] = &[("url", "url")];

/// Image, document and svg items answer these single-property reads.
pub const FILE_READABLE: &[(&str, &str)] =
    &[("fileName", "fileName"), ("mimeType", "mimeType"), ("fileSize", "fileSize")];

/// File facts of an upload, filled by the service from the bytes.
#[derive(Debug, Clone)]
pub struct UploadFacts {
    /// The client's file name, checked like `fileName`.
    pub file_name: String,
    /// Sniffed from the bytes, never the client's claim.
    pub mime_type: String,
    pub file_size: u64,
    /// Pixel size of images and SVGs, the default item size.
    pub natural_size: Option<(u32, u32)>,
}

/// Image rule: the file content cannot be changed by an update, so the facts
/// that describe uploaded content are fixed once content exists.
pub fn image_rules(ctx: &mut RuleContext<'_>) {
    let has_content = ctx.facts.has_content;
    super::minimum_size(ctx);
    if has_content && !ctx.is_create() {
        for fixed in ["mimeType", "fileSize"] {
            if ctx.sent(fixed) {
                ctx.violation_of(
                    canvas_domain::ViolationReason::ReadOnlyProperty,
                    fixed,
                    "describes the uploaded file and cannot be changed: file content cannot be changed by an update",
                );
            }
        }
    }
}

/// Puts the upload's facts into the properties a client sent with it.
pub fn merge_upload(raw: &mut Map<String, Value>, facts: &UploadFacts, with_size: bool) {
    raw.retain(|k, _| {
        let folded = super::schema::fold_name(k);
        folded != "filename" && folded != "mimetype" && folded != "filesize"
    });
    let name = if facts.file_name.trim().is_empty() { "upload".to_owned() } else { facts.file_name.clone() };
    raw.insert("fileName".into(), Value::String(name));
    raw.insert("mimeType".into(), Value::String(facts.mime_type.clone()));
    raw.insert("fileSize".into(), Value::from(facts.file_size));
    let has_size = raw.keys().any(|k| super::schema::fold_name(k) == "size");
    if with_size && !has_size {
        if let Some((w, h)) = facts.natural_size {
            let min = MIN_SIZE as u32;
            raw.insert("size".into(), serde_json::json!({"width": w.max(min), "height": h.max(min)}));
        }
    }
}
