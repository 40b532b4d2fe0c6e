//! A class diagram laid out by the flowchart engine: every class a box as
//! large as its compartments (name with its annotations, attributes,
//! methods), namespaces as containers, notes as sticky notes joined to their
//! class by a dotted line, a relation drawn from the class written first to
//! the one written second (so `Animal <|-- Duck` puts Animal above, as
//! Mermaid does).
//!
//! Ends: the spec's decorators are `Arrow` (filled), `ArrowLine` (open),
//! `Circle` and `None`, so inheritance and realization get the filled
//! `Arrow` (UML's hollow triangle is not offered), an association or
//! dependency `>` the open `ArrowLine`, composition and aggregation a
//! `Circle` with `◆` or `◇` written beside it (UML's diamonds are not offered
//! either), and a lollipop interface a small pill with its name joined by a
//! line ending in a `Circle`. Cardinalities are texts beside their end.

use super::{Class, ClassDiagram, RelEnd};
use crate::graph::{FlowEdge, FlowNode, Flowchart, Head, NodeShape, Stroke, Subgraph};
use crate::node_boxes::{self, NodeBox};
use crate::scene::Scene;
use crate::section_boxes::{self, Section};
use crate::text::{FONT_SIZE, SMALL_FONT_SIZE};

/// Shortest class box: one line of name and its padding.
const MIN_HEIGHT: f64 = 36.0;

/// The compartments of a class: name (annotations above it), attributes, methods; empty ones left out.
fn sections(class: &Class) -> Vec<Section> {
    let mut header: Vec<String> = class.annotations.iter().map(|a| format!("«{a}»")).collect();
    header.push(class.name.clone());
    let mut out = vec![Section::text(header.join("\n"), FONT_SIZE, true)];
    for members in [&class.attributes, &class.methods] {
        if !members.is_empty() {
            let lines: Vec<&str> = members.iter().map(|m| m.text.as_str()).collect();
            out.push(Section::text(lines.join("\n"), SMALL_FONT_SIZE, false));
        }
    }
    out
}

/// The decorator an end mark gets.
fn head(end: RelEnd) -> Head {
    match end {
        RelEnd::None => Head::None,
        RelEnd::Inheritance => Head::Arrow,
        RelEnd::Arrow => Head::Open,
        RelEnd::Composition | RelEnd::Aggregation | RelEnd::Lollipop => Head::Circle,
    }
}

/// The text beside an end: the diamond the decorator cannot draw, then the cardinality.
fn end_text(end: RelEnd, card: &Option<String>) -> Option<String> {
    let mark = match end {
        RelEnd::Composition => Some("◆"),
        RelEnd::Aggregation => Some("◇"),
        _ => None,
    };
    let parts: Vec<&str> = mark.into_iter().chain(card.as_deref()).collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Lays out a class diagram.
pub fn layout(d: &ClassDiagram) -> Scene {
    let chart = skeleton(d);
    let sections: Vec<Vec<Section>> = d.classes.iter().map(sections).collect();
    let measured: Vec<section_boxes::Measured> =
        sections.iter().map(|s| section_boxes::measure(s, MIN_HEIGHT)).collect();
    let mut boxes: Vec<NodeBox> = d
        .classes
        .iter()
        .zip(&measured)
        .map(|(class, m)| {
            if class.lollipop {
                node_boxes::node_box(NodeShape::Stadium, &class.name)
            } else {
                section_boxes::section_box(m, "Rectangle")
            }
        })
        .collect();
    boxes.extend(d.notes.iter().map(|n| section_boxes::note_box(&n.text)));
    let mut scene = crate::layered::layout_boxes(&chart, &boxes);
    let first = d.namespaces.len();
    for (i, class) in d.classes.iter().enumerate() {
        let b = first + i;
        if class.lollipop {
            scene.boxes[b].node_id = None;
            continue;
        }
        scene.boxes[b].node_id = Some(class.id.clone());
        section_boxes::fill(&mut scene, b, &sections[i], &measured[i]);
    }
    for (k, note) in d.notes.iter().enumerate() {
        section_boxes::make_note(&mut scene, first + d.classes.len() + k, &section_boxes::note_text(&note.text));
    }
    // Every edge is drawn, so line l is edge l: the relations first, then the notes' lines.
    for (l, rel) in d.relations.iter().enumerate() {
        scene.lines[l].start.head = head(rel.start);
        scene.lines[l].end.head = head(rel.end);
        let key = scene.lines[l].key.clone();
        if let Some(text) = end_text(rel.start, &rel.start_card) {
            section_boxes::end_text(&mut scene, l, true, &text, format!("from:{key}"));
        }
        if let Some(text) = end_text(rel.end, &rel.end_card) {
            section_boxes::end_text(&mut scene, l, false, &text, format!("to:{key}"));
        }
    }
    scene
}

/// The flowchart the engine lays out: classes then notes as nodes, namespaces as subgraphs,
/// relations then note lines as edges.
fn skeleton(d: &ClassDiagram) -> Flowchart {
    let mut nodes: Vec<FlowNode> = d
        .classes
        .iter()
        .enumerate()
        .map(|(i, c)| FlowNode {
            id: if c.lollipop { format!(":{i}") } else { section_boxes::safe_id(&c.id, i) },
            text: String::new(),
            shape: NodeShape::Rectangle,
            subgraph: c.namespace,
            marks: Vec::new(),
            style: c.style,
        })
        .collect();
    nodes.extend(d.notes.iter().enumerate().map(|(k, n)| FlowNode {
        id: format!(":note{k}"),
        text: String::new(),
        shape: NodeShape::Rectangle,
        subgraph: n.namespace.or_else(|| n.class.and_then(|c| d.classes[c].namespace)),
        marks: Vec::new(),
        style: Default::default(),
    }));
    let edge = |from: usize, to: usize, text: Option<String>, dotted: bool| FlowEdge {
        from,
        to,
        text,
        start: Head::None,
        end: Head::None,
        stroke: if dotted { Stroke::Dotted } else { Stroke::Normal },
        length: 1,
        marks: Vec::new(),
        id: None,
        style: Default::default(),
        from_subgraph: None,
        to_subgraph: None,
    };
    let mut edges: Vec<FlowEdge> = d.relations.iter().map(|r| edge(r.from, r.to, r.label.clone(), r.dotted)).collect();
    let notes = d.notes.iter().enumerate();
    edges.extend(notes.filter_map(|(k, n)| n.class.map(|c| edge(c, d.classes.len() + k, None, true))));
    let subgraphs = d
        .namespaces
        .iter()
        .enumerate()
        .map(|(k, n)| Subgraph {
            id: section_boxes::safe_id(&n.id, k),
            title: n.title.clone(),
            parent: n.parent,
            direction: None,
            style: Default::default(),
        })
        .collect();
    Flowchart { direction: d.direction, nodes, edges, subgraphs, title: None }
}

/// How many items [`layout`] plans, known before it runs.
pub fn planned_count(d: &ClassDiagram) -> usize {
    let classes: usize =
        d.classes.iter().map(|c| if c.lollipop { 2 } else { 1 + section_boxes::fill_count(&sections(c)) }).sum();
    let notes: usize = d.notes.iter().map(|n| 1 + usize::from(n.class.is_some())).sum();
    let relations: usize = d
        .relations
        .iter()
        .map(|r| {
            1 + usize::from(r.label.is_some())
                + usize::from(end_text(r.start, &r.start_card).is_some())
                + usize::from(end_text(r.end, &r.end_card).is_some())
        })
        .sum();
    2 * d.namespaces.len() + classes + notes + relations
}
