//! Web links and file-backed items: images, documents and SVGs.

use serde_json::{Map, Value};

use super::schema::{Kind, PropertyDef};
use super::RuleContext;

/// Image types the spec accepts.
pub const IMAGE_TYPES: &[&str] = &["image/jpeg", "image/png", "image/gif", "image/webp"];

pub const WEB: &[PropertyDef] = &[
    PropertyDef::new("position", Kind::Point).default(r#"{"x":0,"y":0}"#),
    PropertyDef::new("size", Kind::Size).default(r#"{"width":1280,"height":768}"#),
    PropertyDef::new("scale", Kind::NumberAbove(0.0)).default("1"),
    PropertyDef::new("angle", Kind::NumberBetween(0.0, 360.0)).default("0"),
    PropertyDef::new("url", Kind::WebUrl).required(),
];

pub const IMAGE: &[PropertyDef] = &[
    PropertyDef::new("position", Kind::Point).default(r#"{"x":0,"y":0}"#),
    PropertyDef::new("size", Kind::Size).required(),
    PropertyDef::new("scale", Kind::NumberAbove(0.0)).default("1"),
    PropertyDef::new("angle", Kind::NumberBetween(0.0, 360.0)).default("0"),
    PropertyDef::new("fileName", Kind::FileName).required(),
    PropertyDef::new("mimeType", Kind::OneOf(IMAGE_TYPES)).required(),
    PropertyDef::new("fileSize", Kind::ByteCount).required(),
];

/// Documents and SVGs: the base properties plus the file facts, which come
/// from the upload and cannot be set by a client.
pub const DOCUMENT: &[PropertyDef] = &[
    PropertyDef::new("position", Kind::Point).default(r#"{"x":0,"y":0}"#),
    PropertyDef::new("size", Kind::Size).default(r#"{"width":240,"height":320}"#),
    PropertyDef::new("scale", Kind::NumberAbove(0.0)).default("1"),
    PropertyDef::new("angle", Kind::NumberBetween(0.0, 360.0)).default("0"),
    PropertyDef::new("fileName", Kind::FileName),
    PropertyDef::new("mimeType", Kind::Name(255)).fixed(),
    PropertyDef::new("fileSize", Kind::ByteCount).fixed(),
];

pub const SVG: &[PropertyDef] = &[
    PropertyDef::new("position", Kind::Point).default(r#"{"x":0,"y":0}"#),
    PropertyDef::new("size", Kind::Size).default(r#"{"width":256,"height":256}"#),
    PropertyDef::new("scale", Kind::NumberAbove(0.0)).default("1"),
    PropertyDef::new("angle", Kind::NumberBetween(0.0, 360.0)).default("0"),
    PropertyDef::new("fileName", Kind::FileName),
    PropertyDef::new("mimeType", Kind::Name(255)).fixed(),
    PropertyDef::new("fileSize", Kind::ByteCount).fixed(),
];

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
                    crate::error::ViolationReason::ReadOnlyProperty,
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
            raw.insert("size".into(), serde_json::json!({"width": w.max(5), "height": h.max(5)}));
        }
    }
}
