//! Diagrams from text (beyond the spec): Mermaid source is parsed and laid out by
//! `canvas-diagram`, and its items are created as ordinary items and connectors, committed all at
//! once with their events and the diagram's record (`diagram_records.rs`).

use std::collections::BTreeMap;

use super::ItemsService;
use crate::domain::{DiagramId, ItemId, ProjectId, ProjectRole};
use crate::error::{CoreError, CoreResult};
use crate::service::Principal;
use crate::storage::ItemFilter;
use canvas_items::connector::Frame;
use canvas_items::{ItemType, Parent};
use canvas_vocabulary::limits::diagrams::FORMATS;

/// Space left between what is on the map and a diagram placed beside it.
const GAP: f64 = 160.0;
/// Items read per page while finding free space.
const PAGE: u32 = 1000;

/// What a diagram create answers.
#[derive(Debug, Clone, Default)]
pub struct DiagramCreated {
    /// Every item created, in creation order.
    pub item_ids: Vec<ItemId>,
    /// Mermaid node (or participant) id → the shape that stands for it.
    pub nodes: BTreeMap<String, ItemId>,
    /// The record remembering the diagram, for reads and updates in place.
    pub diagram: Option<DiagramId>,
}

impl ItemsService {
    /// Lays out `source` and creates its items at `position` (the diagram's top-left corner), or,
    /// without one, right of everything on the canvas, top-aligned with it, overlapping nothing.
    pub async fn create_diagram(
        &self,
        who: &Principal,
        project: ProjectId,
        format: &str,
        source: &str,
        position: Option<(f64, f64)>,
        frame: Option<&str>,
    ) -> CoreResult<DiagramCreated> {
        self.access.require_role(who, project, ProjectRole::Editor).await?;
        if !FORMATS.iter().any(|f| f.eq_ignore_ascii_case(format.trim())) {
            return Err(CoreError::invalid("format", format!("must be one of: {}", FORMATS.join(", "))));
        }
        check_origin(position)?;
        // Before parsing: a label with U+0000 would otherwise reach the item rules as a layout
        // defect.
        let diagram = super::diagram_records::parse_source(source)?;
        let scene = canvas_diagram::layout(&diagram);
        let frame = match frame.map(str::trim).filter(|f| !f.is_empty()) {
            Some(raw) => Some(self.named_frame(project, raw).await?),
            None => None,
        };
        let origin = match (position, &frame) {
            (Some(at), _) => at,
            (None, Some(frame)) => super::frames::inside(frame),
            (None, None) => {
                let free = self.free_space(project).await?;
                check_origin(Some(free)).map_err(|_| {
                    CoreError::invalid(
                        "position",
                        "the map's items reach too far out to find free space: give a position",
                    )
                })?;
                free
            }
        };
        let planned = canvas_diagram::to_items(&scene, origin);
        let outer = match &frame {
            Some(frame) => {
                let (width, height) = canvas_diagram::scene_bounds(&scene);
                self.grow_frame(who, frame, (origin.0, origin.1, width, height)).await?;
                Parent::Item(frame.id)
            }
            None => Parent::Panel,
        };
        // The items and the record remembering them commit together (`diagram_records.rs`).
        let written =
            self.write_new_diagram(who, project, (format, source, &diagram), (origin, outer), planned).await?;
        Ok(DiagramCreated { item_ids: written.item_ids, nodes: written.nodes, diagram: written.diagram })
    }
}

/// A diagram's or an arrangement's top-left corner: finite and within
/// [`MAX_ORIGIN`](canvas_vocabulary::limits::diagrams::MAX_ORIGIN) of the map's origin.
pub(super) fn check_origin(origin: Option<(f64, f64)>) -> CoreResult<()> {
    use canvas_vocabulary::limits::diagrams::MAX_ORIGIN;
    match origin {
        Some((x, y)) if !(x.abs() <= MAX_ORIGIN && y.abs() <= MAX_ORIGIN) => Err(CoreError::invalid(
            "position",
            format!("x and y must be finite numbers from -{MAX_ORIGIN:e} to {MAX_ORIGIN:e}"),
        )),
        _ => Ok(()),
    }
}

impl ItemsService {
    /// Top-left corner of free space right of everything on the canvas (the origin when empty).
    pub(super) async fn free_space(&self, project: ProjectId) -> CoreResult<(f64, f64)> {
        let mut extent: Option<(f64, f64)> = None; // (top, right) of everything drawn
        let mut filter = ItemFilter { parent: None, item_type: None, after: None, tag: None, limit: PAGE };
        loop {
            let rows = self.store.list_items(project, &filter).await?;
            let full = rows.len() == PAGE as usize;
            filter.after = rows.last().map(|r| r.id);
            let rows = self.present(project, rows).await?;
            for row in rows.iter().filter(|r| r.parent != Parent::Inbox) {
                let Some(props) = row.properties.as_object() else { continue };
                let frame = Frame::of(props);
                let (half_w, half_h) = drawn_half_extents(&frame, row.item_type == ItemType::Label);
                let (top, right) = (frame.cy - half_h, frame.cx + half_w);
                extent = Some(extent.map_or((top, right), |(t, r)| (t.min(top), r.max(right))));
            }
            if !full {
                break;
            }
        }
        Ok(match extent {
            None => (0.0, 0.0),
            Some((top, right)) => ((right + GAP).round(), top.round()),
        })
    }
}

/// Half extents of an item's bounding box, turned by its angle. An auto-sized label stores no
/// size, so it counts as a generous box around its position.
fn drawn_half_extents(frame: &Frame, label: bool) -> (f64, f64) {
    let mut frame = *frame;
    if label {
        frame.half_width = frame.half_width.max(200.0);
        frame.half_height = frame.half_height.max(40.0);
    }
    frame.turned_half_extents()
}
