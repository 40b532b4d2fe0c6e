//! A state diagram laid out by the flowchart engine: plain states as rounded
//! boxes (a state with more than one text as a box with its name above a
//! divider and the other texts below), `[*]` as a small filled dot (start) or
//! a dot with a dark ring (end), choices as small diamonds, forks and joins as
//! bars across the flow, composite states as containers titled with their
//! name, the regions `--` makes as untitled containers inside them, notes as
//! sticky notes joined to their state by a dotted line.
//!
//! A transition to or from a composite state is laid out to one of its
//! members (its start dot for one coming in, its end dot for one going out,
//! else its first or last member) and then cut where the route crosses the
//! container's border and attached to the container, so the line meets the
//! composite state as Mermaid draws it and follows it when moved. An edge
//! between a composite state and one of its own members keeps the member
//! (the route never crosses the border).

use super::{State, StateDiagram, StateKind};
use crate::graph::{FlowEdge, FlowNode, Flowchart, Head, NodeShape, Stroke, Subgraph};
use crate::node_boxes::{self, NodeBox};
use crate::scene::Scene;
use crate::section_boxes::{self, Section};
use crate::text::{FONT_SIZE, SMALL_FONT_SIZE};

/// Diameter of start and end dots.
const DOT: f64 = 20.0;
/// Side of a choice diamond.
const CHOICE: f64 = 28.0;
/// Length and thickness of a fork or join bar.
const BAR: (f64, f64) = (80.0, 8.0);
/// The dots' and bars' light fill, and the end dot's dark ring.
const LIGHT: &str = "#E2E8F0";
const RING: &str = "#475569";

/// A state with more than one text: name, divider, the other texts.
fn sections(state: &State) -> Option<Vec<Section>> {
    let (name, rest) = state.descriptions.split_first()?;
    (!rest.is_empty()).then(|| {
        vec![Section::text(name.clone(), FONT_SIZE, true), Section::text(rest.join("\n"), SMALL_FONT_SIZE, false)]
    })
}

/// Where each state goes in the engine's flowchart: a node or a subgraph (by index).
#[derive(Debug, Clone, Copy)]
enum Slot {
    Node(usize),
    Sub(usize),
}

/// Every state's slot, and the containers in the order the engine gets them: outer before inner
/// (a state moved into a composite state mentioned later would otherwise come before it).
fn slots(d: &StateDiagram) -> (Vec<Slot>, Vec<usize>) {
    let depth = |mut s: usize| {
        let mut depth = 0;
        while let Some(p) = d.states[s].parent {
            depth += 1;
            s = p;
        }
        depth
    };
    let mut containers: Vec<usize> = (0..d.states.len()).filter(|&s| d.states[s].kind.is_container()).collect();
    containers.sort_by_key(|&s| depth(s));
    let mut slots = vec![Slot::Node(0); d.states.len()];
    for (k, &s) in containers.iter().enumerate() {
        slots[s] = Slot::Sub(k);
    }
    let leaves = (0..d.states.len()).filter(|&s| !d.states[s].kind.is_container());
    for (n, s) in leaves.enumerate() {
        slots[s] = Slot::Node(n);
    }
    (slots, containers)
}

/// The member a transition into (`incoming`) or out of a container is laid out to: its start
/// (end) state, else its first (last) member, descending into nested containers.
fn stand_in(d: &StateDiagram, mut state: usize, incoming: bool) -> usize {
    while d.states[state].kind.is_container() {
        let members: Vec<usize> = (0..d.states.len()).filter(|&m| d.states[m].parent == Some(state)).collect();
        let terminal = if incoming { StateKind::Start } else { StateKind::End };
        let pick = members.iter().copied().find(|&m| d.states[m].kind == terminal);
        let fallback = if incoming { members.first() } else { members.last() };
        match pick.or(fallback.copied()) {
            Some(m) => state = m,
            None => break,
        }
    }
    state
}

/// Lays out a state diagram.
pub fn layout(d: &StateDiagram) -> Scene {
    let (slots, containers) = slots(d);
    let sub_of = |s: Option<usize>| {
        s.map(|p| match slots[p] {
            Slot::Sub(k) => k,
            Slot::Node(_) => unreachable!("a parent is always a container"),
        })
    };
    let horizontal = d.direction.is_horizontal();
    let mut nodes = Vec::new();
    let mut boxes: Vec<NodeBox> = Vec::new();
    let subgraphs: Vec<Subgraph> = containers
        .iter()
        .map(|&i| {
            let s = &d.states[i];
            let title = if s.kind == StateKind::Region { String::new() } else { s.name() };
            Subgraph {
                id: section_boxes::safe_id(&s.id, i),
                title,
                parent: sub_of(s.parent),
                direction: s.direction,
                style: s.style,
            }
        })
        .collect();
    for (i, s) in d.states.iter().enumerate() {
        if s.kind.is_container() {
            continue;
        }
        let id = if matches!(s.kind, StateKind::Start | StateKind::End) {
            format!(":{i}")
        } else {
            section_boxes::safe_id(&s.id, i)
        };
        nodes.push(FlowNode {
            id,
            text: String::new(),
            shape: NodeShape::Rectangle,
            subgraph: sub_of(s.parent),
            marks: Vec::new(),
            style: s.style,
        });
        boxes.push(match s.kind {
            StateKind::Start | StateKind::End => section_boxes::bare_box("Ellipse", DOT, DOT),
            StateKind::Choice => section_boxes::bare_box("Diamond", CHOICE, CHOICE),
            StateKind::Fork | StateKind::Join if horizontal => section_boxes::bare_box("Rectangle", BAR.1, BAR.0),
            StateKind::Fork | StateKind::Join => section_boxes::bare_box("Rectangle", BAR.0, BAR.1),
            _ => match sections(s) {
                Some(sections) => {
                    section_boxes::section_box(&section_boxes::measure(&sections, 36.0), "RoundedRectangle")
                }
                None => node_boxes::node_box(NodeShape::Rounded, &s.name()),
            },
        });
    }
    let leaves = nodes.len();
    for (k, note) in d.notes.iter().enumerate() {
        let holder = d.states[note.state].parent;
        nodes.push(FlowNode {
            id: format!(":note{k}"),
            text: String::new(),
            shape: NodeShape::Rectangle,
            subgraph: sub_of(holder),
            marks: Vec::new(),
            style: Default::default(),
        });
        boxes.push(section_boxes::note_box(&note.text));
    }
    let node_of = |s: usize, incoming: bool| match slots[stand_in(d, s, incoming)] {
        Slot::Node(n) => n,
        Slot::Sub(_) => unreachable!("a stand-in is never a container"),
    };
    let edge = |from: usize, to: usize, text: Option<String>, stroke: Stroke, end: Head| FlowEdge {
        from,
        to,
        text,
        start: Head::None,
        end,
        stroke,
        length: 1,
        marks: Vec::new(),
        id: None,
        style: Default::default(),
        from_subgraph: None,
        to_subgraph: None,
    };
    let mut edges: Vec<FlowEdge> = d
        .transitions
        .iter()
        .map(|t| edge(node_of(t.from, false), node_of(t.to, true), t.label.clone(), Stroke::Normal, Head::Arrow))
        .collect();
    // A note on the left is laid out before its state, one on the right after it.
    let mut ends: Vec<(usize, usize)> = d.transitions.iter().map(|t| (t.from, t.to)).collect();
    for (k, note) in d.notes.iter().enumerate() {
        let (s, n) = (node_of(note.state, !note.left), leaves + k);
        edges.push(if note.left {
            edge(n, s, None, Stroke::Dotted, Head::None)
        } else {
            edge(s, n, None, Stroke::Dotted, Head::None)
        });
        ends.push(if note.left { (usize::MAX, note.state) } else { (note.state, usize::MAX) });
    }
    let chart = Flowchart { direction: d.direction, nodes, edges, subgraphs, title: None };
    let mut scene = crate::layered::layout_boxes(&chart, &boxes);
    let first = chart.subgraphs.len();
    for (i, s) in d.states.iter().enumerate() {
        match slots[i] {
            Slot::Sub(k) => {
                scene.boxes[k].node_id = (s.kind == StateKind::Composite).then(|| s.id.clone());
            }
            Slot::Node(n) => decorate(&mut scene, first + n, s),
        }
    }
    // A region has no title: its empty title text goes.
    scene.texts.retain(|t| !t.text.is_empty());
    for (k, note) in d.notes.iter().enumerate() {
        section_boxes::make_note(&mut scene, first + leaves + k, &section_boxes::note_text(&note.text));
    }
    // Every edge is drawn, so line l is edge l; ends at a container are moved onto it.
    for (l, &(from, to)) in ends.iter().enumerate() {
        for (state, at_start) in [(from, true), (to, false)] {
            if let Some(Slot::Sub(k)) = slots.get(state).copied() {
                section_boxes::end_on_container(&mut scene, l, at_start, k);
            }
        }
    }
    scene
}

/// Draws the box of a state that is not a container.
fn decorate(scene: &mut Scene, b: usize, s: &State) {
    let node = &mut scene.boxes[b];
    match s.kind {
        StateKind::Start | StateKind::End => {
            node.node_id = None;
            let (ring, width) = if s.kind == StateKind::End { (RING, 4.0) } else { (LIGHT, 1.0) };
            section_boxes::paint(node, LIGHT, ring, width);
        }
        StateKind::Fork | StateKind::Join => {
            node.node_id = Some(s.id.clone());
            section_boxes::paint(node, LIGHT, LIGHT, 1.0);
        }
        _ => {
            node.node_id = Some(s.id.clone());
            if let Some(sections) = sections(s) {
                let measured = section_boxes::measure(&sections, 36.0);
                section_boxes::fill(scene, b, &sections, &measured);
            }
        }
    }
}

/// How many items [`layout`] plans, known before it runs.
pub fn planned_count(d: &StateDiagram) -> usize {
    let states: usize = d
        .states
        .iter()
        .map(|s| match s.kind {
            StateKind::Composite => 2,
            StateKind::Region | StateKind::Start | StateKind::End | StateKind::Choice => 1,
            StateKind::Fork | StateKind::Join => 1,
            StateKind::State => sections(s).map_or(2, |sections| 1 + section_boxes::fill_count(&sections)),
        })
        .sum();
    let transitions: usize = d.transitions.iter().map(|t| 1 + usize::from(t.label.is_some())).sum();
    states + 2 * d.notes.len() + transitions
}
