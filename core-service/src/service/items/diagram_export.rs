//! The map read back as Mermaid (beyond the spec): a diagram record as it is now on the map, and
//! any part of the map as a flowchart. core-service gathers the items (the diagram's, or a region's
//! through the listing's filter) as readers see them; the writing is `canvas-diagram`'s.

use std::collections::BTreeMap;

use canvas_diagram::MapItem;
use canvas_vocabulary::limits::diagrams::FORMATS;

use super::crud::ListQuery;
use super::diagram_records::DiagramRecord;
use super::item_filters::{ItemMatch, Region};
use super::ItemsService;
use crate::domain::{DiagramId, ProjectId};
use crate::error::{CoreError, CoreResult};
use crate::service::Principal;
use crate::storage::ItemRow;

impl ItemsService {
    /// A diagram record and the diagram as it is now on the map, as Mermaid: its source as last
    /// written while the map still shows exactly what that source drew (so reading it and writing
    /// it back changes nothing, whatever its kind, and keeps the author's comments and layout of
    /// the text); once people changed its items, what the map shows, written by the writer of its
    /// kind (docs/diagrams/records.md).
    pub async fn diagram_as_mermaid(
        &self,
        who: &Principal,
        project: ProjectId,
        id: DiagramId,
    ) -> CoreResult<(DiagramRecord, String)> {
        let (record, rows) = self.diagram_as_drawn(who, project, id).await?;
        let text = if self.drawn_as_written(project, id, rows.len()).await? {
            record.row.source.clone()
        } else {
            write_mermaid(&rows, Some(&record))
        };
        Ok((record, text))
    }

    /// Whether every item of the diagram is as its last write left it (`drawn` items on the map,
    /// people's connectors between its items included): none deleted, none added, and each item's
    /// properties and parent what the element map says the write drew, as the item rules store it
    /// (defaults filled, spellings normalised). An imported project compares the same way.
    async fn drawn_as_written(&self, project: ProjectId, id: DiagramId, drawn: usize) -> CoreResult<bool> {
        let elements = self.store.diagram_elements(id).await?;
        if drawn != elements.len() {
            return Ok(false);
        }
        let items: std::collections::HashMap<_, _> =
            self.store.diagram_items(project, id).await?.into_iter().map(|item| (item.id, item)).collect();
        Ok(elements.iter().all(|element| {
            let Some(item) = items.get(&element.item_id) else { return false };
            let parent = element.planned.get("parent").and_then(serde_json::Value::as_str).unwrap_or("panel");
            let written =
                element.planned.get("properties").and_then(serde_json::Value::as_object).cloned().unwrap_or_default();
            let as_stored =
                canvas_items::validate_create(item.item_type, written, canvas_items::ItemFacts { has_content: false });
            item.parent.to_string() == parent
                && as_stored.is_ok_and(|stored| serde_json::Value::Object(stored) == item.properties)
        }))
    }

    /// The items of `region` (the whole map without one) as a Mermaid flowchart: the format and
    /// the text.
    pub async fn export_items(
        &self,
        who: &Principal,
        project: ProjectId,
        format: &str,
        region: Option<Region>,
        frame: Option<&str>,
    ) -> CoreResult<(String, String)> {
        let format = format.trim().to_ascii_lowercase();
        let format = if format.is_empty() { FORMATS[0].to_owned() } else { format };
        if !FORMATS.contains(&format.as_str()) {
            return Err(CoreError::invalid("format", format!("must be one of: {}", FORMATS.join(", "))));
        }
        let mut rows = Vec::new();
        if let Some(raw) = frame.map(str::trim).filter(|f| !f.is_empty()) {
            // The frame is the flowchart's subgraph around what it holds.
            self.access.require_role(who, project, crate::domain::ProjectRole::Viewer).await?;
            let (frame, held) = self.frame_filter(project, raw).await?;
            let mut rows = self.present(project, std::iter::once(frame).chain(held).collect()).await?;
            let matching = ItemMatch::new(region, None, None);
            rows.retain(|row| matching.matches(row));
            return Ok((format, write_mermaid(&rows, None)));
        }
        let mut cursor = None;
        loop {
            let query = ListQuery {
                page_size: Some(u32::MAX),
                cursor: cursor.take(),
                matching: ItemMatch::new(region, None, None),
                ..ListQuery::default()
            };
            let page = self.list_items(who, project, query).await?;
            rows.extend(page.items);
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        Ok((format, write_mermaid(&rows, None)))
    }
}

/// The items as Mermaid (`canvas_diagram`'s writers): a diagram record in its own kind, with the
/// Mermaid ids its element map names; anything else as a flowchart.
fn write_mermaid(rows: &[ItemRow], record: Option<&DiagramRecord>) -> String {
    let items: Vec<MapItem> = rows
        .iter()
        .map(|row| MapItem {
            id: row.id.to_string(),
            item_type: row.item_type.as_str().to_owned(),
            parent: match row.parent {
                canvas_items::Parent::Item(container) => Some(container.to_string()),
                canvas_items::Parent::Panel | canvas_items::Parent::Inbox => None,
            },
            properties: row.properties.clone(),
        })
        .collect();
    let Some(record) = record else { return canvas_diagram::export_flowchart(&items, &BTreeMap::new()) };
    // node shape → Mermaid id, from the element keys (`node:A`, `subgraph:S`, `participant:P`).
    let names: BTreeMap<String, String> = record
        .elements
        .iter()
        .filter(|e| e.part == "shape")
        .filter_map(|e| {
            let (_, id) = e.element.split_once(':')?;
            matches!(e.element.split(':').next(), Some("node" | "subgraph" | "participant"))
                .then(|| (e.item_id.to_string(), id.to_owned()))
        })
        .collect();
    match record.row.kind.as_str() {
        "sequence" => canvas_diagram::export_sequence(&items, &names),
        "mindmap" => canvas_diagram::export_mindmap(&items, &names),
        "class" => canvas_diagram::export_class(&items, &names),
        "er" => canvas_diagram::export_er(&items, &names),
        "state" => canvas_diagram::export_state(&items, &names),
        _ => canvas_diagram::export_flowchart(&items, &names),
    }
}
