//! An ER diagram laid out by the flowchart engine: every entity a box with
//! its name on top and its attributes as a table below (type, name, keys,
//! comment: a label per column, or per cell where a column has gaps, so the
//! rows line up), a relationship drawn from the entity written first to the
//! one written second with its role as the line's text.
//!
//! The spec's connector ends have no crow's feet, so each end's cardinality is
//! written beside it (`1`, `0..1`, `0..*`, `1..*`), and the line has no
//! decorators. The spec has no dashed line either: a non-identifying
//! relationship (`..`) is drawn thinner and dimmer than an identifying one
//! (`--`), as dotted flowchart links are.

use super::{Entity, ErDiagram};
use crate::graph::{FlowEdge, FlowNode, Flowchart, Head, NodeShape, Stroke};
use crate::scene::Scene;
use crate::section_boxes::{self, Section};
use crate::text::{FONT_SIZE, SMALL_FONT_SIZE};

/// Shortest entity box.
const MIN_HEIGHT: f64 = 36.0;

/// The title and, when there are attributes, the attribute table (columns without any value left out).
fn sections(entity: &Entity) -> Vec<Section> {
    let mut out = vec![Section::text(entity.title.clone(), FONT_SIZE, true)];
    if entity.attributes.is_empty() {
        return out;
    }
    // One line per row: a cell's own line break (`<br>` in a comment) would push every row after it
    // down in its column only, and the table would show one row's comment beside another's name.
    let column = |cell: &dyn Fn(&super::Attribute) -> String| {
        entity.attributes.iter().map(|a| cell(a).replace(['\r', '\n'], " ")).collect::<Vec<_>>().join("\n")
    };
    let mut columns = vec![column(&|a| a.kind.clone()), column(&|a| a.name.clone())];
    if entity.attributes.iter().any(|a| !a.keys.is_empty()) {
        columns.push(column(&|a| a.keys.join(", ")));
    }
    if entity.attributes.iter().any(|a| a.comment.is_some()) {
        columns.push(column(&|a| a.comment.clone().unwrap_or_default()));
    }
    out.push(Section { columns, font: SMALL_FONT_SIZE, centred: false, table: true });
    out
}

/// Lays out an ER diagram.
pub fn layout(d: &ErDiagram) -> Scene {
    let chart = Flowchart {
        direction: d.direction,
        nodes: d
            .entities
            .iter()
            .enumerate()
            .map(|(i, e)| FlowNode {
                id: section_boxes::safe_id(&e.id, i),
                text: String::new(),
                shape: NodeShape::Rectangle,
                subgraph: None,
                marks: Vec::new(),
                style: e.style,
            })
            .collect(),
        edges: d
            .relationships
            .iter()
            .map(|r| FlowEdge {
                from: r.from,
                to: r.to,
                text: (!r.label.is_empty()).then(|| r.label.clone()),
                start: Head::None,
                end: Head::None,
                stroke: if r.identifying { Stroke::Normal } else { Stroke::Dotted },
                length: 1,
                marks: Vec::new(),
                id: None,
                style: Default::default(),
                from_subgraph: None,
                to_subgraph: None,
            })
            .collect(),
        subgraphs: Vec::new(),
        title: None,
    };
    let sections: Vec<Vec<Section>> = d.entities.iter().map(sections).collect();
    let measured: Vec<section_boxes::Measured> =
        sections.iter().map(|s| section_boxes::measure(s, MIN_HEIGHT)).collect();
    let boxes: Vec<_> = measured.iter().map(|m| section_boxes::section_box(m, "Rectangle")).collect();
    let mut scene = crate::layered::layout_boxes(&chart, &boxes);
    for (b, entity) in d.entities.iter().enumerate() {
        scene.boxes[b].node_id = Some(entity.id.clone());
        section_boxes::fill(&mut scene, b, &sections[b], &measured[b]);
    }
    for (l, rel) in d.relationships.iter().enumerate() {
        let key = scene.lines[l].key.clone();
        section_boxes::end_text(&mut scene, l, true, rel.from_card.text(), format!("from:{key}"));
        section_boxes::end_text(&mut scene, l, false, rel.to_card.text(), format!("to:{key}"));
    }
    scene
}

/// How many items [`layout`] plans, known before it runs.
pub fn planned_count(d: &ErDiagram) -> usize {
    let entities: usize = d.entities.iter().map(|e| 1 + section_boxes::fill_count(&sections(e))).sum();
    let relationships: usize = d.relationships.iter().map(|r| 3 + usize::from(!r.label.is_empty())).sum();
    entities + relationships
}
