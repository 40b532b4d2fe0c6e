//! What items look like to readers (derived properties), uploads, and the
//! connector bookkeeping that touches several items.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Map, Value};
use uuid::Uuid;

use super::crud::{changed_properties, item_event, next_version, Dependents, Upload};
use super::ItemsService;
use crate::domain::{EventKind, ItemId, ProjectId};
use crate::error::{CoreError, CoreResult};
use crate::service::Principal;
use crate::storage::{DependentUpdate, ItemRow};
use canvas_items::connector::{self, Frame};
use canvas_items::media::{self, UploadFacts};
use canvas_items::{shape, ItemType};

/// Largest uploaded file: the spec's 25 MB request limit (stated once, in `canvas-vocabulary`).
pub use canvas_vocabulary::limits::MAX_UPLOAD_BYTES;

impl ItemsService {
    /// Fills derived properties: a shape's drawn `cornerRadius`, a
    /// connector's resolved ends, position and size (following the items its
    /// ends are attached to), and `tags: []` on an item that carries none
    /// (reads answer every property; a list reads best as an empty one).
    pub(super) async fn present(&self, project: ProjectId, mut rows: Vec<ItemRow>) -> CoreResult<Vec<ItemRow>> {
        let wanted: Vec<ItemId> = rows
            .iter()
            .filter(|r| r.item_type == ItemType::Connector)
            .filter_map(|r| r.properties.as_object())
            .flat_map(connector::attached_items)
            .filter_map(|id| ItemId::parse(&id).ok())
            .collect();
        // Frames only of what a connector is attached to (most reads are one item, not one).
        let mut frames: HashMap<String, Frame> = HashMap::new();
        if !wanted.is_empty() {
            for row in &rows {
                if let Some(props) = row.properties.as_object() {
                    frames.insert(row.id.to_string(), Frame::of(props));
                }
            }
        }
        let missing: Vec<ItemId> = wanted.into_iter().filter(|id| !frames.contains_key(&id.to_string())).collect();
        for row in self.store.get_items(project, &missing).await? {
            if let Some(props) = row.properties.as_object() {
                frames.insert(row.id.to_string(), Frame::of(props));
            }
        }
        for row in &mut rows {
            let Value::Object(props) = &mut row.properties else { continue };
            if props.get("tags").is_none_or(Value::is_null) {
                props.insert("tags".into(), Value::Array(Vec::new()));
            }
            if row.item_type == ItemType::Shape {
                shape::present(props);
            } else if row.item_type == ItemType::Connector {
                connector::present(props, |id| frames.get(id).copied());
            }
        }
        Ok(rows)
    }

    /// Checks the upload and puts its facts into `properties`; returns the
    /// bytes to store (sanitised, for SVG).
    pub(super) fn accept_upload(
        &self,
        item_type: ItemType,
        upload: Upload,
        properties: &mut Map<String, Value>,
    ) -> CoreResult<Vec<u8>> {
        if !matches!(item_type, ItemType::Image | ItemType::Document | ItemType::Svg) {
            return Err(CoreError::invalid("itemType", "only image, document and svg items take a file upload"));
        }
        if upload.content.len() > MAX_UPLOAD_BYTES {
            return Err(CoreError::PayloadTooLarge(format!(
                "the file is larger than the limit of {MAX_UPLOAD_BYTES} bytes"
            )));
        }
        if upload.content.is_empty() {
            return Err(CoreError::invalid("binary", "the uploaded file is empty"));
        }
        let sniffed = canvas_files::sniff(&upload.content, &upload.file_name);
        let (bytes, mime): (Vec<u8>, &str) = match (item_type, sniffed) {
            (ItemType::Image, Some(s)) if media::IMAGE_TYPES.contains(&s.mime_type) => (upload.content, s.mime_type),
            (ItemType::Image, _) => {
                return Err(CoreError::invalid(
                    "binary",
                    "must be a JPEG, PNG, GIF or WebP image (checked from the bytes)",
                ))
            }
            (ItemType::Svg, Some(s)) if s.mime_type == "image/svg+xml" => {
                let clean = canvas_files::sanitize_svg(&upload.content)
                    .map_err(|reason| CoreError::invalid("binary", format!("must be a valid SVG: {reason}")))?;
                (clean, s.mime_type)
            }
            (ItemType::Svg, _) => {
                return Err(CoreError::invalid("binary", "must be an SVG image (checked from the bytes)"))
            }
            (_, Some(s)) if matches!(s.kind, canvas_files::FileKind::Document) => (upload.content, s.mime_type),
            (_, _) => {
                return Err(CoreError::invalid(
                    "binary",
                    "must be a PDF, DOCX, PPTX, XLSX, ODT, plain text or Markdown document (checked from the bytes)",
                ))
            }
        };
        if !upload.declared_mime_type.is_empty() && !upload.declared_mime_type.eq_ignore_ascii_case(mime) {
            tracing::debug!(declared = %upload.declared_mime_type, sniffed = mime, "upload's declared type differs from its bytes");
        }
        let natural_size = match item_type {
            ItemType::Image | ItemType::Svg => canvas_files::image_size(&bytes),
            _ => None,
        };
        let facts = UploadFacts {
            file_name: upload.file_name.trim().to_owned(),
            mime_type: mime.to_owned(),
            file_size: bytes.len() as u64,
            natural_size,
        };
        media::merge_upload(properties, &facts, true);
        Ok(bytes)
    }

    /// Attached ends must name another item of the same project, and not a
    /// connector (whose geometry is itself derived).
    pub(super) async fn check_attachments(
        &self,
        project: ProjectId,
        props: &Map<String, Value>,
        this: Option<ItemId>,
    ) -> CoreResult<()> {
        let mut violations = Vec::new();
        for end in ["startPoint", "endPoint"] {
            let Some(raw) = props.get(end).and_then(|p| p.get("itemId")).and_then(Value::as_str) else { continue };
            let field = format!("{end}.itemId");
            let Ok(id) = Uuid::parse_str(raw) else {
                violations.push(crate::error::FieldViolation::new(field, "must be a GUID"));
                continue;
            };
            if this.is_some_and(|t| t.uuid() == id) {
                violations.push(crate::error::FieldViolation::new(field, "a connector cannot attach to itself"));
                continue;
            }
            match self.store.get_item(project, ItemId::from_uuid(id)).await? {
                None => {
                    violations.push(crate::error::FieldViolation::new(field, format!("no item '{id}' in this project")))
                }
                Some(row) if row.item_type == ItemType::Connector => violations
                    .push(crate::error::FieldViolation::new(field, "a connector cannot attach to another connector")),
                Some(_) => {}
            }
        }
        if violations.is_empty() {
            Ok(())
        } else {
            Err(CoreError::Validation(violations))
        }
    }

    /// Connector updates that pin every end attached to one of `deleted` where it is drawn now,
    /// for every connector of the project but those in `untouched` (deleted too, or written by
    /// the caller itself).
    pub(super) async fn detach_connectors(
        &self,
        who: &Principal,
        project: ProjectId,
        deleted: &[ItemRow],
        untouched: &HashSet<ItemId>,
    ) -> CoreResult<Dependents> {
        if deleted.is_empty() {
            return Ok(Vec::new());
        }
        let gone: HashMap<String, &ItemRow> = deleted.iter().map(|d| (d.id.to_string(), d)).collect();
        let mut updates = Vec::new();
        for current in self.store.project_connectors(project).await? {
            if untouched.contains(&current.id) {
                continue;
            }
            let Value::Object(stored) = &current.properties else { continue };
            let ends = connector::attached_items(stored);
            if !ends.iter().any(|e| gone.contains_key(e)) {
                continue;
            }
            let others: Vec<ItemId> =
                ends.iter().filter(|e| !gone.contains_key(*e)).filter_map(|e| ItemId::parse(e).ok()).collect();
            let mut frames: HashMap<String, Frame> = HashMap::new();
            for row in gone.values().copied().chain(self.store.get_items(project, &others).await?.iter()) {
                if let Some(props) = row.properties.as_object() {
                    frames.insert(row.id.to_string(), Frame::of(props));
                }
            }
            let mut props = stored.clone();
            let mut detached = false;
            for end in ends.iter().filter(|e| gone.contains_key(*e)) {
                detached |= connector::detach(&mut props, end, |id| frames.get(id).copied());
            }
            if !detached {
                continue;
            }
            let (new, old) = changed_properties(stored, &props);
            let event = item_event(
                who,
                project,
                current.id,
                ItemType::Connector,
                EventKind::ItemUpdated,
                json!({"parent": current.parent.to_string(), "new": new, "old": old, "reason": "attached item deleted"}),
            );
            let row = next_version(&current, who, props);
            updates.push(DependentUpdate { row, expected_version: current.version, event });
        }
        Ok(updates)
    }
}
