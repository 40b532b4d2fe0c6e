//! The flowchart layout, layered (Sugiyama) in five steps. Everything here
//! works in a top-to-bottom frame ("TB frame": ranks grow downwards, a rank's
//! nodes side by side along x); [`emit`] turns the result to the chart's
//! direction at the end, so node sizes are swapped first for LR and RL.
//!
//! 1. Ranks (this file): cycles broken by a depth-first search in source
//!    order, reversing the edges that close a cycle; ranks by network simplex
//!    ([`simplex`]), least total edge length. A labelled edge spans at least
//!    two ranks, so its text gets a rank of its own.
//! 2. Dummy nodes on every rank a long edge crosses (the labelled one's
//!    middle dummy is as large as its text), and fillers that give every
//!    subgraph a place on each rank of its span.
//! 3. Order ([`order`]): crossing reduction with subgraphs contiguous.
//! 4. Coordinates ([`position`]): x by network simplex, y from rank heights
//!    and the routing channels between ranks.
//! 5. Routes ([`route`]) and the scene ([`emit`]).
//!
//! [`sized`] runs steps 1–4 on boxes of given sizes, for [`crate::arrange`].

mod emit;
mod ends;
mod nested;
mod order;
mod paint;
pub(crate) use paint::EDGE_TEXT;
mod position;
mod rank_constraints;
mod route;
mod simplex;
pub(crate) mod sized;

use crate::graph::{Direction, Flowchart, Stroke};
use crate::node_boxes::{self, NodeBox};
use crate::scene::Scene;
use crate::text::{self, SMALL_FONT_SIZE};

/// Space between neighbouring nodes of a rank.
const NODE_SEP: f64 = 36.0;
/// Space between neighbouring edges (dummy nodes) of a rank.
const EDGE_SEP: f64 = 14.0;
/// Padding inside a subgraph's box.
const CLUSTER_PAD: f64 = 14.0;
/// Height of a subgraph's title band.
const TITLE_BAND: f64 = 34.0;
/// Room a self loop takes beside its node.
const LOOP_ROOM: f64 = 24.0;
/// Space between an edge's line and its text beside it.
const LABEL_GAP: f64 = 6.0;
/// Wrap width of edge texts.
pub(crate) const EDGE_TEXT_WIDTH: f64 = 150.0;
/// Cost of one rank of a subgraph's height, against one rank of edge length.
const CLUSTER_SPAN_WEIGHT: i64 = 4;
/// Pivot budget of one network simplex run, per node.
const SIMPLEX_ROUNDS_PER_NODE: usize = 20;

/// What a node of the layered graph stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A flowchart node (its index).
    Real(usize),
    /// A bend of a long edge (the edge's index).
    Dummy(usize),
    /// The middle of a labelled edge, as large as its text.
    Label(usize),
    /// A placeholder keeping a subgraph's place on a rank where it has no node.
    Filler,
}

/// A node of the layered graph, sized in the TB frame.
#[derive(Debug, Clone)]
struct LNode {
    kind: Kind,
    rank: usize,
    /// Extent along the rank (x in the TB frame).
    width: f64,
    /// Extent across ranks (y in the TB frame).
    height: f64,
    /// Innermost subgraph.
    cluster: Option<usize>,
    /// Extra room on the right (self loops).
    loop_room: f64,
}

/// The nodes an edge passes, from its upper end to its lower end.
#[derive(Debug, Clone)]
struct Chain {
    edge: usize,
    nodes: Vec<usize>,
    /// The edge points upwards (it was reversed to break a cycle).
    reversed: bool,
}

/// A subgraph in the TB frame.
#[derive(Debug, Clone)]
struct Cluster {
    parent: Option<usize>,
    /// First and last rank.
    span: (usize, usize),
    /// Padding at the rank start, rank end, left and right.
    pad: [f64; 4],
    /// Least width along the rank (its title, in TB and BT).
    min_width: f64,
}

/// The layered graph.
#[derive(Debug, Clone)]
struct Layered {
    nodes: Vec<LNode>,
    /// Neighbours on the rank above / below.
    up: Vec<Vec<usize>>,
    down: Vec<Vec<usize>>,
    /// Node indexes per rank, in order.
    layers: Vec<Vec<usize>>,
    chains: Vec<Chain>,
    clusters: Vec<Cluster>,
}

impl Layered {
    /// The subgraphs holding `cluster`, innermost first.
    fn ancestry(&self, mut cluster: Option<usize>) -> Vec<usize> {
        let mut chain = Vec::new();
        while let Some(c) = cluster {
            chain.push(c);
            cluster = self.clusters[c].parent;
        }
        chain
    }

    /// The innermost subgraph holding both.
    fn common(&self, a: Option<usize>, b: Option<usize>) -> Option<usize> {
        let theirs = self.ancestry(b);
        self.ancestry(a).into_iter().find(|c| theirs.contains(c))
    }
}

/// Lays out a flowchart.
pub fn layout(chart: &Flowchart) -> Scene {
    let boxes: Vec<NodeBox> = chart.nodes.iter().map(|n| node_boxes::node_box(n.shape, &n.text)).collect();
    layout_boxes(chart, &boxes)
}

/// Lays out a flowchart whose node boxes are given: the class, ER and state
/// diagrams size their boxes themselves (compartments, attribute tables,
/// start dots) and draw what goes inside afterwards. Subgraphs turned by a
/// `direction` of their own are laid out apart first ([`nested`]).
pub(crate) fn layout_boxes(chart: &Flowchart, boxes: &[NodeBox]) -> Scene {
    nested::layout(chart, boxes)
}

/// Lays out a flowchart in one direction (every subgraph follows the chart's).
fn layout_flat(chart: &Flowchart, boxes: &[NodeBox]) -> Scene {
    let horizontal = chart.direction.is_horizontal();
    let tb = |w: f64, h: f64| if horizontal { (h, w) } else { (w, h) };
    let labels: Vec<Option<text::Block>> =
        chart.edges.iter().map(|e| e.text.as_ref().map(|t| text::block(t, SMALL_FONT_SIZE, EDGE_TEXT_WIDTH))).collect();
    let label_sizes: Vec<Option<(f64, f64)>> =
        labels.iter().map(|l| l.as_ref().map(|b| text::label_size(b, SMALL_FONT_SIZE))).collect();
    let sizes: Vec<(f64, f64)> = boxes.iter().map(|b| tb(b.width, b.height)).collect();
    let label_tb: Vec<Option<(f64, f64)>> = label_sizes.iter().map(|s| s.map(|(w, h)| tb(w, h))).collect();
    let mut graph = build(chart, &sizes, &label_tb);
    order::order(&mut graph);
    let mut placed = position::place_x(&graph);
    let plan = route::plan(&graph, &placed, boxes);
    position::place_y(&graph, &mut placed, &plan.tracks);
    let mut routes = route::routes(&graph, &placed, &plan);
    let widths: Vec<Option<f64>> = label_tb.iter().map(|s| s.map(|(w, _)| w)).collect();
    routes.extend(route::loops(&graph, &placed, chart, &widths));
    routes.sort_by_key(|r| r.edge);
    emit::scene(&emit::Parts {
        chart,
        graph: &graph,
        placed: &placed,
        routes: &routes,
        boxes,
        labels: &labels,
        label_sizes: &label_sizes,
    })
}

/// Width of the text of a labelled edge's middle node, from the room reserved for it.
fn label_width(room: f64) -> f64 {
    room - LABEL_GAP
}

/// Centre x (TB frame) of the text of a labelled edge whose line runs at `x`.
fn label_centre(x: f64, room: f64) -> f64 {
    x + LABEL_GAP + label_width(room) / 2.0
}

/// Ranks, dummies and fillers: the layered graph before ordering.
fn build(chart: &Flowchart, sizes: &[(f64, f64)], labels: &[Option<(f64, f64)>]) -> Layered {
    let n = chart.nodes.len();
    let reversed = break_cycles(chart);
    let constraints = rank_constraints::constraints(chart, &reversed);
    let k = chart.subgraphs.len();
    let ranks = simplex::solve(n + 2 * k, &constraints, SIMPLEX_ROUNDS_PER_NODE * (n + 2 * k) + 100);
    let mut graph = Layered {
        nodes: (0..n)
            .map(|i| LNode {
                kind: Kind::Real(i),
                rank: ranks[i] as usize,
                width: sizes[i].0,
                height: sizes[i].1,
                cluster: chart.nodes[i].subgraph,
                loop_room: 0.0,
            })
            .collect(),
        up: Vec::new(),
        down: Vec::new(),
        layers: Vec::new(),
        chains: Vec::new(),
        clusters: chart
            .subgraphs
            .iter()
            .map(|s| Cluster { parent: s.parent, span: (usize::MAX, 0), pad: pads(chart.direction), min_width: 0.0 })
            .collect(),
    };
    for (index, edge) in chart.edges.iter().enumerate() {
        if edge.from == edge.to {
            let room = labels[index].map_or(0.0, |(w, _)| w + 6.0);
            graph.nodes[edge.from].loop_room += LOOP_ROOM + room;
            continue;
        }
        let (top, bottom) = if reversed[index] { (edge.to, edge.from) } else { (edge.from, edge.to) };
        let (r0, r1) = (graph.nodes[top].rank, graph.nodes[bottom].rank);
        let cluster = graph.common(chart.nodes[top].subgraph, chart.nodes[bottom].subgraph);
        let mut nodes = vec![top];
        for rank in r0 + 1..r1 {
            let label = labels[index].filter(|_| rank == r0 + (r1 - r0) / 2);
            // A labelled edge's middle is as thin as the line, with its text's width (and a
            // gap) reserved on its right: the text sits beside the line, never over it.
            let (kind, height, room) = match label {
                Some((width, height)) => (Kind::Label(index), height, width + LABEL_GAP),
                None => (Kind::Dummy(index), 0.0, 0.0),
            };
            nodes.push(graph.nodes.len());
            graph.nodes.push(LNode { kind, rank, width: 0.0, height, cluster, loop_room: room });
        }
        nodes.push(bottom);
        graph.chains.push(Chain { edge: index, nodes, reversed: reversed[index] });
    }
    // Subgraph spans: the ranks of their nodes, their nested subgraphs' included.
    for i in 0..n {
        for c in graph.ancestry(chart.nodes[i].subgraph) {
            let span = &mut graph.clusters[c].span;
            *span = (span.0.min(graph.nodes[i].rank), span.1.max(graph.nodes[i].rank));
        }
    }
    for (c, sub) in chart.subgraphs.iter().enumerate() {
        if graph.clusters[c].span.0 == usize::MAX {
            graph.clusters[c].span = (0, 0);
        }
        if !chart.direction.is_horizontal() {
            graph.clusters[c].min_width = emit::title_width(&sub.title) + 2.0 * CLUSTER_PAD;
        }
    }
    // Empty subgraphs sit on the rank of their parent's first node.
    for c in 0..graph.clusters.len() {
        if chart.nodes.iter().all(|node| !graph.ancestry(node.subgraph).contains(&c)) {
            let at = graph.ancestry(graph.clusters[c].parent).first().map_or(0, |&p| graph.clusters[p].span.0);
            graph.clusters[c].span = (at, at);
        }
    }
    add_fillers(&mut graph);
    let ranks = graph.nodes.iter().map(|v| v.rank + 1).max().unwrap_or(0);
    graph.layers = vec![Vec::new(); ranks];
    graph.up = vec![Vec::new(); graph.nodes.len()];
    graph.down = vec![Vec::new(); graph.nodes.len()];
    for (v, node) in graph.nodes.iter().enumerate() {
        graph.layers[node.rank].push(v);
    }
    for chain in &graph.chains {
        for pair in chain.nodes.windows(2) {
            graph.down[pair[0]].push(pair[1]);
            graph.up[pair[1]].push(pair[0]);
        }
    }
    graph
}

/// A filler on every rank of a subgraph's span where nothing of it stands,
/// so each subgraph is a solid block on every rank it spans.
fn add_fillers(graph: &mut Layered) {
    let mut present = std::collections::HashSet::new();
    for node in &graph.nodes {
        for c in graph.ancestry(node.cluster) {
            present.insert((c, node.rank));
        }
    }
    for c in 0..graph.clusters.len() {
        let (first, last) = graph.clusters[c].span;
        for rank in (first..=last).filter(|&rank| !present.contains(&(c, rank))) {
            graph.nodes.push(LNode {
                kind: Kind::Filler,
                rank,
                width: 0.0,
                height: 0.0,
                cluster: Some(c),
                loop_room: 0.0,
            });
        }
    }
}

/// Subgraph padding in the TB frame (rank start, rank end, left, right): the
/// title band goes on the side that ends up on top once turned.
fn pads(direction: Direction) -> [f64; 4] {
    let (p, t) = (CLUSTER_PAD, TITLE_BAND);
    match direction {
        Direction::TopDown => [t, p, p, p],
        Direction::BottomUp => [p, t, p, p],
        Direction::LeftRight | Direction::RightLeft => [p, p, t, p],
    }
}

/// Whether subgraph `sub` is `c` or lies inside it.
fn within(chart: &Flowchart, mut sub: Option<usize>, c: usize) -> bool {
    while let Some(s) = sub {
        if s == c {
            return true;
        }
        sub = chart.subgraphs[s].parent;
    }
    false
}

/// Whether the link end on subgraph `region` (if any) holds the other end: node `node`, or
/// subgraph `sub` when the other end is on one.
fn holds(chart: &Flowchart, region: Option<usize>, node: usize, sub: Option<usize>) -> bool {
    region.is_some_and(|c| within(chart, sub.or(chart.nodes[node].subgraph), c))
}

/// Which edges to reverse so the graph has no cycle: those a depth-first
/// search in source order meets pointing back to a node still open.
fn break_cycles(chart: &Flowchart) -> Vec<bool> {
    let n = chart.nodes.len();
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in chart.edges.iter().enumerate() {
        if e.from != e.to {
            out[e.from].push(i);
        }
    }
    let mut reversed = vec![false; chart.edges.len()];
    // 0: not seen, 1: open, 2: done.
    let mut state = vec![0u8; n];
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        let mut stack = vec![(root, 0usize)];
        while let Some(&(v, next)) = stack.last() {
            match out[v].get(next) {
                Some(&e) => {
                    if let Some(top) = stack.last_mut() {
                        top.1 += 1;
                    }
                    let w = chart.edges[e].to;
                    match state[w] {
                        0 => {
                            state[w] = 1;
                            stack.push((w, 0));
                        }
                        1 => reversed[e] = true,
                        _ => {}
                    }
                }
                None => {
                    state[v] = 2;
                    stack.pop();
                }
            }
        }
    }
    reversed
}

/// Whether an edge is drawn (invisible links only shape the layout).
fn drawn(stroke: Stroke) -> bool {
    stroke != Stroke::Invisible
}

#[cfg(test)]
mod tests;
