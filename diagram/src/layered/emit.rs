//! The laid-out flowchart as a [`Scene`]: the TB frame turned to the chart's
//! direction and moved so the drawing starts at (0, 0); subgraphs first
//! (outer before inner), then nodes, edges and their texts.

use super::paint;
use super::position::Placed;
use super::route::Route;
use super::{drawn, Kind, Layered};
use crate::graph::{Direction, Flowchart, Subgraph};
use crate::node_boxes::NodeBox;
use crate::scene::{BoxRole, End, LineKind, Owner, Point, Rect, Scene, SceneBox, SceneLine, SceneText};
use crate::text::markdown::{self, Rich};
use crate::text::{self, Block, FONT_SIZE, SMALL_FONT_SIZE};

/// Height of a subgraph title label.
const TITLE_HEIGHT: f64 = 26.0;

/// What the scene is made from.
pub struct Parts<'a> {
    /// The flowchart.
    pub chart: &'a Flowchart,
    /// Its layered graph, ordered.
    pub graph: &'a Layered,
    /// Coordinates in the TB frame.
    pub placed: &'a Placed,
    /// Edge routes in the TB frame, by edge.
    pub routes: &'a [Route],
    /// Node boxes, by node.
    pub boxes: &'a [NodeBox],
    /// Edge texts, wrapped, by edge.
    pub labels: &'a [Option<Block>],
    /// Edge text box sizes, as drawn (not the TB frame).
    pub label_sizes: &'a [Option<(f64, f64)>],
}

/// The turn from the TB frame to the chart's direction, and the shift to the origin.
struct Turn {
    direction: Direction,
    min: Point,
    max: Point,
}

impl Turn {
    fn point(&self, (x, y): Point) -> Point {
        let (x, y) = (x - self.min.0, y - self.min.1);
        let depth = self.max.1 - self.min.1;
        match self.direction {
            Direction::TopDown => (x, y),
            Direction::BottomUp => (x, depth - y),
            Direction::LeftRight => (y, x),
            Direction::RightLeft => (depth - y, x),
        }
    }

    fn rect(&self, r: Rect) -> Rect {
        let (a, b) = (self.point((r.x, r.y)), self.point((r.right(), r.bottom())));
        Rect { x: a.0.min(b.0), y: a.1.min(b.1), width: (a.0 - b.0).abs(), height: (a.1 - b.1).abs() }
    }
}

/// Builds the scene.
pub fn scene(parts: &Parts<'_>) -> Scene {
    let Parts { chart, graph, placed, routes, boxes, .. } = *parts;
    let node_rect = |v: usize| {
        let n = &graph.nodes[v];
        Rect::centred(placed.x[v], placed.centre_y(n.rank), n.width, n.height)
    };
    let cluster_rect = |c: usize| {
        let ((l, r), (t, b)) = (placed.borders[c], placed.spans[c]);
        Rect { x: l, y: t, width: r - l, height: b - t }
    };
    // The extent of everything in the TB frame.
    let mut rects: Vec<Rect> = (0..chart.nodes.len()).map(node_rect).collect();
    rects.extend((0..graph.clusters.len()).map(cluster_rect));
    let mut points: Vec<Point> = routes.iter().flat_map(|r| r.points.iter().copied()).collect();
    for r in &rects {
        points.extend([(r.x, r.y), (r.right(), r.bottom())]);
    }
    for route in routes {
        if let (Some(at), Some((w, h))) = (route.label_at, parts.label_sizes[route.edge]) {
            let (w, h) = if chart.direction.is_horizontal() { (h, w) } else { (w, h) };
            points.extend([(at.0 - w / 2.0, at.1 - h / 2.0), (at.0 + w / 2.0, at.1 + h / 2.0)]);
        }
    }
    let min = points.iter().fold((f64::MAX, f64::MAX), |m, p| (m.0.min(p.0), m.1.min(p.1)));
    let max = points.iter().fold((f64::MIN, f64::MIN), |m, p| (m.0.max(p.0), m.1.max(p.1)));
    let turn = Turn { direction: chart.direction, min, max };
    let mut scene = Scene::default();
    for (c, sub) in chart.subgraphs.iter().enumerate() {
        let (container, title) = cluster(sub, turn.rect(cluster_rect(c)), sub.parent, c);
        scene.boxes.push(container);
        scene.texts.extend(title);
    }
    let first_node = scene.boxes.len();
    for (i, node) in chart.nodes.iter().enumerate() {
        let b = &boxes[i];
        let paint = paint::node(node.shape, b.shape, &node.style);
        let rich = Rich { text: node.text.clone(), marks: node.marks.clone() };
        scene.boxes.push(SceneBox {
            key: format!("n:{}", node.id),
            role: BoxRole::Node,
            rect: turn.rect(node_rect(i)),
            shape: b.shape,
            corner_radius: b.corner_radius,
            text: if b.text.is_empty() { String::new() } else { markdown::label_text(&b.text, &rich) },
            font_size: FONT_SIZE,
            container: node.subgraph,
            node_id: Some(node.id.clone()),
            fill: paint.fill,
            stroke: paint.stroke,
            stroke_width: paint.stroke_width,
            text_color: paint.text,
        });
    }
    for route in routes {
        let edge = &chart.edges[route.edge];
        if !drawn(edge.stroke) {
            continue;
        }
        // A link to or from a subgraph ends on the subgraph's border (TB frame), attached to it.
        let mut points = route.points.clone();
        if let Some(c) = edge.from_subgraph {
            points = super::ends::clip_start(&points, &cluster_rect(c));
        }
        if let Some(c) = edge.to_subgraph {
            points.reverse();
            points = super::ends::clip_start(&points, &cluster_rect(c));
            points.reverse();
        }
        let pts: Vec<Point> = points.iter().map(|&p| turn.point(p)).collect();
        let straight = pts.len() == 2;
        let paint = paint::edge(edge.stroke, &edge.style);
        let attach = |node: usize, sub: Option<usize>| Some(sub.unwrap_or(first_node + node));
        let side = |node: usize, sub: Option<usize>| match sub {
            Some(c) => chart.subgraphs[c].parent,
            None => chart.nodes[node].subgraph,
        };
        let line = scene.lines.len();
        scene.lines.push(SceneLine {
            key: format!("edge:{}", route.edge),
            start: End { at: pts[0], attach: attach(edge.from, edge.from_subgraph), head: edge.start },
            end: End { at: pts[pts.len() - 1], attach: attach(edge.to, edge.to_subgraph), head: edge.end },
            corners: if straight { Vec::new() } else { pts[1..pts.len() - 1].to_vec() },
            kind: if straight { LineKind::Straight } else { LineKind::Angled },
            color: paint.stroke,
            thickness: paint.stroke_width,
            container: graph.common(side(edge.from, edge.from_subgraph), side(edge.to, edge.to_subgraph)),
        });
        if let (Some(at), Some(block), Some((w, h))) =
            (route.label_at, &parts.labels[route.edge], parts.label_sizes[route.edge])
        {
            let (cx, cy) = turn.point(at);
            let rich = Rich { text: edge.text.clone().unwrap_or_default(), marks: edge.marks.clone() };
            scene.texts.push(SceneText {
                key: format!("label:edge:{}", route.edge),
                rect: Rect::centred(cx, cy, w, h),
                text: markdown::label_text(&block.text, &rich),
                font_size: SMALL_FONT_SIZE,
                owner: Owner::Line(line),
                color: paint.text,
                background: paint::EDGE_TEXT_BACKGROUND.into(),
                centred: true,
            });
        }
    }
    if let Some(title) = &chart.title {
        super::ends::add_title(&mut scene, title);
    }
    debug_assert!(graph.nodes.iter().all(|n| !matches!(n.kind, Kind::Real(i) if i >= chart.nodes.len())));
    scene
}

/// A subgraph's container box at `rect`, inside box `parent`, with its title (owned by box
/// `index`) when it has one.
pub(super) fn cluster(
    sub: &Subgraph,
    rect: Rect,
    parent: Option<usize>,
    index: usize,
) -> (SceneBox, Option<SceneText>) {
    let paint = paint::cluster(&sub.style);
    let container = SceneBox {
        key: format!("sg:{}", sub.id),
        role: BoxRole::Container,
        rect,
        shape: "Rectangle",
        corner_radius: None,
        text: String::new(),
        font_size: SMALL_FONT_SIZE,
        container: parent,
        node_id: None,
        fill: paint.fill,
        stroke: paint.stroke,
        stroke_width: paint.stroke_width,
        text_color: paint.text.clone(),
    };
    if sub.title.is_empty() {
        return (container, None);
    }
    // The whole title, never cut: where the container is narrower, the title runs past its
    // right edge (a cut title would lose what the person wrote, and read back shortened).
    let width = (rect.width - 12.0).max(title_width(&sub.title));
    let title = SceneText {
        key: format!("title:sg:{}", sub.id),
        rect: Rect { x: rect.x + 6.0, y: rect.y + 4.0, width, height: TITLE_HEIGHT },
        text: sub.title.clone(),
        font_size: SMALL_FONT_SIZE,
        owner: Owner::Box(index),
        color: paint.text,
        background: "#00000000".into(),
        centred: false,
    };
    (container, Some(title))
}

/// Width of a subgraph title's label, its padding included.
pub(super) fn title_width(title: &str) -> f64 {
    text::width(title, SMALL_FONT_SIZE) + 2.0 * text::LABEL_PADDING * SMALL_FONT_SIZE
}
