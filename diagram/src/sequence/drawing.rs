//! The pieces of a sequence diagram's drawing: participant symbols as the nearest spec shapes,
//! the boxes, bars, marks and texts the layout places, and how many items they make.

use super::{ParticipantKind, SeqEvent, Sequence};
use crate::graph::{Head, NodeShape};
use crate::node_boxes;
use crate::scene::{BoxRole, End, LineKind, Owner, Point, Rect, Scene, SceneBox, SceneLine, SceneText};
use crate::text::{self, SMALL_FONT_SIZE};

/// Message and frame text colour.
pub const MESSAGE: &str = "#E2E8F0";
/// Dotted messages: dimmer.
pub const MESSAGE_DOTTED: &str = "#94A3B8";
/// Width of an activation bar, and how far a nested one is moved right.
pub const BAR_WIDTH: f64 = 10.0;
pub const BAR_STEP: f64 = 5.0;
/// Half the size of a destroyed lifeline's X.
pub const CROSS: f64 = 9.0;

/// A participant's symbol: its spec shape, size, corner radius and colours.
#[derive(Debug, Clone)]
pub struct Symbol {
    /// The wrapped label.
    pub text: String,
    pub width: f64,
    pub height: f64,
    pub shape: &'static str,
    pub corner_radius: Option<f64>,
    pub fill: &'static str,
    pub stroke: &'static str,
}

/// The nearest spec shape to each of Mermaid's participant symbols: `actor` and the three UML
/// circles (boundary, control, entity) are ellipses (the actor's violet, the circles' teal), a
/// database is a box with a rounded top (as a flowchart `[( )]`), collections a double outline
/// (`Frame`), a queue a pill (a lying cylinder's outline); a participant a rounded box.
pub fn symbol(kind: ParticipantKind, label: &str) -> Symbol {
    let b = node_boxes::node_box(NodeShape::Rectangle, label);
    let (w, h) = (b.width.max(90.0).ceil(), b.height.max(40.0).ceil());
    let round = |w: f64, h: f64| ((w * 1.3).ceil(), (h * 1.3).ceil());
    let (width, height, shape, corner_radius, fill, stroke) = match kind {
        ParticipantKind::Participant => {
            (w, h, "RoundedRectangle", None, node_boxes::NODE_FILL, node_boxes::NODE_STROKE)
        }
        ParticipantKind::Actor => {
            let (w, h) = round(w, h);
            (w, h, "Ellipse", None, "#3B2F63", "#C4B5FD")
        }
        ParticipantKind::Boundary | ParticipantKind::Control | ParticipantKind::Entity => {
            let (w, h) = round(w, h);
            (w, h, "Ellipse", None, "#134E4A", "#2DD4BF")
        }
        ParticipantKind::Database => {
            let h = h + 12.0;
            (w, h, "TwoSameSideRoundCornerRectangle", Some(h / 4.0), "#1E3A5F", "#FACC15")
        }
        ParticipantKind::Collections => {
            (w + 12.0, h + 8.0, "Frame", None, node_boxes::NODE_FILL, node_boxes::NODE_STROKE)
        }
        ParticipantKind::Queue => {
            let w = w + 0.8 * h;
            (w, h, "RoundedRectangle", Some(h / 2.0), "#1E3A5F", "#FB923C")
        }
    };
    Symbol { text: b.text, width, height, shape, corner_radius, fill, stroke }
}

/// A participant's box (top or bottom row).
pub fn participant(key: String, id: Option<String>, symbol: &Symbol, rect: Rect, group: Option<usize>) -> SceneBox {
    SceneBox {
        key,
        role: BoxRole::Participant,
        rect,
        shape: symbol.shape,
        corner_radius: symbol.corner_radius,
        text: symbol.text.clone(),
        font_size: text::FONT_SIZE,
        container: group,
        node_id: id,
        fill: symbol.fill.into(),
        stroke: symbol.stroke.into(),
        stroke_width: 2.0,
        text_color: node_boxes::NODE_TEXT.into(),
    }
}

/// A box with no text: a group, frame or bar (`fill`, `stroke` as given).
pub fn plain(key: String, role: BoxRole, rect: Rect, fill: &str, stroke: &str, container: Option<usize>) -> SceneBox {
    SceneBox {
        key,
        role,
        rect,
        shape: "Rectangle",
        corner_radius: None,
        text: String::new(),
        font_size: SMALL_FONT_SIZE,
        container,
        node_id: None,
        fill: fill.into(),
        stroke: stroke.into(),
        stroke_width: 1.5,
        text_color: MESSAGE.into(),
    }
}

/// A line with free ends.
pub fn free_line(
    key: String,
    from: Point,
    to: Point,
    color: &str,
    thickness: f64,
    container: Option<usize>,
) -> SceneLine {
    SceneLine {
        key,
        start: End { at: from, attach: None, head: Head::None },
        end: End { at: to, attach: None, head: Head::None },
        corners: Vec::new(),
        kind: LineKind::Straight,
        color: color.into(),
        thickness,
        container,
    }
}

/// The X ending a destroyed participant's lifeline at `(x, y)`: two crossing strokes.
pub fn cross(scene: &mut Scene, participant: usize, (x, y): Point) {
    for (part, dy) in [("a", CROSS), ("b", -CROSS)] {
        let key = format!("x:{participant}:{part}");
        scene.lines.push(free_line(key, (x - CROSS, y - dy), (x + CROSS, y + dy), "#F87171", 2.5, None));
    }
}

/// A text of the drawing (a message text, a title).
pub fn text_at(key: String, rect: Rect, text: String, owner: Owner, centred: bool) -> SceneText {
    SceneText {
        key,
        rect,
        text,
        font_size: SMALL_FONT_SIZE,
        owner,
        color: MESSAGE.into(),
        background: "#00000000".into(),
        centred,
    }
}

/// Moves everything so the drawing starts at (0, 0).
pub fn shift_to_origin(scene: &mut Scene) {
    let mut min: Point = (f64::MAX, f64::MAX);
    let mut take = |x: f64, y: f64| min = (min.0.min(x), min.1.min(y));
    scene.boxes.iter().for_each(|b| take(b.rect.x, b.rect.y));
    scene.texts.iter().for_each(|t| take(t.rect.x, t.rect.y));
    scene.lines.iter().flat_map(|l| l.points()).for_each(|(x, y)| take(x, y));
    scene.translate(-min.0, -min.1);
}

/// How many items the layout of `seq` plans, known before the layout: per participant its top
/// box and label, its lifeline, and its bottom box and label or (destroyed) the X's two strokes;
/// per group with members its box and title; one bar per activation; the title; and per step
/// what it draws.
pub fn planned_count(seq: &Sequence) -> usize {
    let groups: usize =
        seq.groups.iter().filter(|g| !g.members.is_empty()).map(|g| 1 + usize::from(!g.label.is_empty())).sum();
    let events: usize = seq
        .events
        .iter()
        .map(|e| match e {
            SeqEvent::Message { text, .. } => 1 + usize::from(!text.is_empty()),
            SeqEvent::Note { .. } | SeqEvent::Activate(_) => 1,
            SeqEvent::Open { kind, .. } => 1 + usize::from(kind != "rect"),
            SeqEvent::Divide { .. } => 2,
            SeqEvent::Close | SeqEvent::Deactivate(_) | SeqEvent::Create(_) | SeqEvent::Destroy(_) => 0,
        })
        .sum();
    5 * seq.participants.len() + groups + events + usize::from(seq.title.is_some())
}
