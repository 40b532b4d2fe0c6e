//! Edge routes in the TB frame.
//!
//! An edge leaves its upper node through a port on the bottom side and
//! enters its lower node through the top (ports spread along the side in the
//! order of the other ends, so fans do not cross; outlines that only meet
//! the box at the middle of a side, like diamonds and circles, use that
//! middle). It runs vertically through every rank it crosses, at its dummy
//! node's x, which the ordering and x placement reserved, and changes x only
//! in the free band between ranks, on a horizontal track of its own.
//! Tracks of one channel are stacked so that as few vertical runs as
//! possible cross another edge's horizontal run.
//!
//! Only an edge whose ports line up is drawn straight (vertically, in the
//! TB frame); every other edge keeps its right angles, so no lone diagonal
//! appears in a right-angled drawing. A labelled edge's text stands in the
//! room its middle node reserves right of the line.

use super::position::{Placed, TRACK_SEP};
use super::{Kind, Layered};
use crate::graph::Flowchart;
use crate::node_boxes::NodeBox;
use crate::scene::Point;

/// Outlines whose sides touch their box only at the middle.
const MIDDLE_PORT: &[&str] = &["Diamond", "Ellipse", "Star6"];
/// Largest distance between neighbouring ports.
const PORT_STEP: f64 = 16.0;
/// Least distance of a moved port from the corner of its side.
const PORT_MARGIN: f64 = 8.0;

/// Ports and tracks, decided from x alone (y follows from the track counts).
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// Per chain: the x its route has at each of its nodes (ports at the ends).
    xs: Vec<Vec<f64>>,
    /// Per chain and step: the track of its horizontal run, if it has one.
    runs: Vec<Vec<Option<usize>>>,
    /// Tracks needed in the channel below each rank.
    pub tracks: Vec<usize>,
}

/// An edge's route, from its source to its target (as written), in the TB frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    /// The flowchart edge.
    pub edge: usize,
    /// Start, corners, end.
    pub points: Vec<Point>,
    /// Drawn as one straight line.
    pub straight: bool,
    /// Centre of its text.
    pub label_at: Option<Point>,
}

/// Ports and tracks of every chain.
pub fn plan(graph: &Layered, placed: &Placed, boxes: &[NodeBox]) -> Plan {
    let x = &placed.x;
    // Port offsets: (chain, at the start?) per node side, sorted by the other end's x.
    let mut offsets: Vec<(f64, f64)> = vec![(0.0, 0.0); graph.chains.len()];
    for (u, node) in graph.nodes.iter().enumerate() {
        let Kind::Real(real) = node.kind else { continue };
        for bottom in [true, false] {
            let mut side: Vec<(f64, usize)> = graph
                .chains
                .iter()
                .enumerate()
                .filter_map(|(i, c)| {
                    let (end, next) = if bottom {
                        (c.nodes[0], c.nodes[1])
                    } else {
                        (c.nodes[c.nodes.len() - 1], c.nodes[c.nodes.len() - 2])
                    };
                    (end == u).then_some((x[next], i))
                })
                .collect();
            side.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let k = side.len();
            if k < 2 || MIDDLE_PORT.contains(&boxes[real].shape) {
                continue;
            }
            let step = PORT_STEP.min(0.4 * node.width / (k - 1) as f64);
            for (j, &(_, chain)) in side.iter().enumerate() {
                let offset = (j as f64 - (k - 1) as f64 / 2.0) * step;
                if bottom {
                    offsets[chain].0 = offset;
                } else {
                    offsets[chain].1 = offset;
                }
            }
        }
    }
    snap_single_ports(graph, x, boxes, &mut offsets);
    let xs: Vec<Vec<f64>> = graph
        .chains
        .iter()
        .zip(&offsets)
        .map(|(chain, &(start, end))| {
            let last = chain.nodes.len() - 1;
            chain
                .nodes
                .iter()
                .enumerate()
                .map(|(j, &v)| {
                    x[v] + if j == 0 {
                        start
                    } else if j == last {
                        end
                    } else {
                        0.0
                    }
                })
                .collect()
        })
        .collect();
    // Horizontal runs per channel: (chain, step, from, to).
    let mut channels: Vec<Vec<(usize, usize, f64, f64)>> = vec![Vec::new(); graph.layers.len()];
    for (i, chain) in graph.chains.iter().enumerate() {
        for j in 0..chain.nodes.len() - 1 {
            let (from, to) = (xs[i][j], xs[i][j + 1]);
            if (from - to).abs() > 0.5 {
                channels[graph.nodes[chain.nodes[j]].rank].push((i, j, from, to));
            }
        }
    }
    let mut runs: Vec<Vec<Option<usize>>> = graph.chains.iter().map(|c| vec![None; c.nodes.len() - 1]).collect();
    let mut tracks = vec![0; graph.layers.len()];
    for (rank, segments) in channels.iter().enumerate() {
        let assigned = assign_tracks(segments);
        tracks[rank] = assigned.iter().map(|t| t + 1).max().unwrap_or(0);
        for (&(chain, step, ..), track) in segments.iter().zip(assigned) {
            runs[chain][step] = Some(track);
        }
    }
    Plan { xs, runs, tracks }
}

/// Straightens the first and last steps of edges that are alone on their
/// side of a node: the port moves along the side to where the next point of
/// the edge is (both ports of an edge between neighbouring ranks move to a
/// common x), when that stays on the side. A jog of a few units between two
/// nearly aligned nodes becomes a vertical line.
fn snap_single_ports(graph: &Layered, x: &[f64], boxes: &[NodeBox], offsets: &mut [(f64, f64)]) {
    let mut count = vec![[0usize; 2]; graph.nodes.len()];
    for chain in &graph.chains {
        count[chain.nodes[0]][1] += 1;
        count[chain.nodes[chain.nodes.len() - 1]][0] += 1;
    }
    // Where a port may sit on a node's top or bottom side.
    let range = |v: usize| -> (f64, f64) {
        let node = &graph.nodes[v];
        let middle = matches!(node.kind, Kind::Real(r) if MIDDLE_PORT.contains(&boxes[r].shape));
        let slack = if middle { 0.0 } else { (node.width / 2.0 - PORT_MARGIN).max(0.0) };
        (x[v] - slack, x[v] + slack)
    };
    for (i, chain) in graph.chains.iter().enumerate() {
        let (u, v) = (chain.nodes[0], chain.nodes[chain.nodes.len() - 1]);
        let (alone_u, alone_v) = (count[u][1] == 1, count[v][0] == 1);
        if chain.nodes.len() == 2 {
            let ((lo_u, hi_u), (lo_v, hi_v)) = (range(u), range(v));
            let (lo, hi) =
                (if alone_u { lo_u } else { x[u] + offsets[i].0 }, if alone_u { hi_u } else { x[u] + offsets[i].0 });
            let (lo, hi) = (
                lo.max(if alone_v { lo_v } else { x[v] + offsets[i].1 }),
                hi.min(if alone_v { hi_v } else { x[v] + offsets[i].1 }),
            );
            if lo <= hi {
                let at = ((x[u] + x[v]) / 2.0).clamp(lo, hi);
                offsets[i] = (at - x[u], at - x[v]);
            }
            continue;
        }
        let (next, before) = (chain.nodes[1], chain.nodes[chain.nodes.len() - 2]);
        let ((lo_u, hi_u), (lo_v, hi_v)) = (range(u), range(v));
        if alone_u && (lo_u..=hi_u).contains(&x[next]) {
            offsets[i].0 = x[next] - x[u];
        }
        if alone_v && (lo_v..=hi_v).contains(&x[before]) {
            offsets[i].1 = x[before] - x[v];
        }
    }
}

/// Tracks (0 = top) for the runs of one channel: overlapping runs get
/// different tracks, ordered so that each run's vertical ends cross as few
/// other runs as possible (a run going down at x crosses every run below it
/// that spans x; one coming up at x, every run above it).
fn assign_tracks(segments: &[(usize, usize, f64, f64)]) -> Vec<usize> {
    let n = segments.len();
    let span = |s: &(usize, usize, f64, f64)| (s.2.min(s.3), s.2.max(s.3));
    let inside = |x: f64, (lo, hi): (f64, f64)| x > lo + 0.5 && x < hi - 0.5;
    let mut above: Vec<Vec<usize>> = vec![Vec::new(); n];
    for a in 0..n {
        for b in a + 1..n {
            let (sa, sb) = (span(&segments[a]), span(&segments[b]));
            if sa.1 + 1.0 < sb.0 || sb.1 + 1.0 < sa.0 {
                continue;
            }
            let a_over_b = usize::from(inside(segments[a].3, sb)) + usize::from(inside(segments[b].2, sa));
            let b_over_a = usize::from(inside(segments[b].3, sa)) + usize::from(inside(segments[a].2, sb));
            if a_over_b <= b_over_a {
                above[a].push(b);
            } else {
                above[b].push(a);
            }
        }
    }
    // Longest path from the top; an edge closing a cycle is dropped.
    let mut track = vec![0usize; n];
    let mut state = vec![0u8; n];
    let mut order = Vec::with_capacity(n);
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        let mut stack = vec![(root, 0usize)];
        while let Some(&(v, next)) = stack.last() {
            if let Some(&w) = above[v].get(next) {
                if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
                if state[w] == 0 {
                    state[w] = 1;
                    stack.push((w, 0));
                } else if state[w] == 1 {
                    above[v].retain(|&u| u != w);
                    if let Some(top) = stack.last_mut() {
                        top.1 -= 1;
                    }
                }
            } else {
                state[v] = 2;
                order.push(v);
                stack.pop();
            }
        }
    }
    for &v in order.iter().rev() {
        for &w in &above[v] {
            track[w] = track[w].max(track[v] + 1);
        }
    }
    track
}

/// Every edge's route, once y is placed.
pub fn routes(graph: &Layered, placed: &Placed, plan: &Plan) -> Vec<Route> {
    let mut out = Vec::new();
    for (i, chain) in graph.chains.iter().enumerate() {
        let (u, v) = (chain.nodes[0], chain.nodes[chain.nodes.len() - 1]);
        let (ru, rv) = (graph.nodes[u].rank, graph.nodes[v].rank);
        let xs = &plan.xs[i];
        let mut points = vec![(xs[0], placed.centre_y(ru) + graph.nodes[u].height / 2.0)];
        for (j, run) in plan.runs[i].iter().enumerate() {
            if let Some(track) = run {
                let rank = graph.nodes[chain.nodes[j]].rank;
                let (z0, z1) = placed.channels[rank];
                let count = plan.tracks[rank] as f64;
                let y = z0 + (z1 - z0) * (*track as f64 + 1.0) / (count + 1.0);
                debug_assert!((z1 - z0) / (count + 1.0) >= TRACK_SEP - 1e-9);
                points.push((xs[j], y));
                points.push((xs[j + 1], y));
            }
        }
        points.push((xs[xs.len() - 1], placed.centre_y(rv) - graph.nodes[v].height / 2.0));
        let mut points = simplify(points);
        let label_at = chain.nodes.iter().find(|&&d| matches!(graph.nodes[d].kind, Kind::Label(_))).map(|&d| {
            let node = &graph.nodes[d];
            (super::label_centre(placed.x[d], node.loop_room), placed.centre_y(node.rank))
        });
        // Only a line whose ends are aligned is drawn straight: every other route keeps its
        // right angles, so a flowchart never mixes in a lone diagonal.
        let straight = points.len() == 2;
        if straight {
            let x = (points[0].0 + points[1].0) / 2.0;
            points[0].0 = x;
            points[1].0 = x;
        }
        if chain.reversed {
            points.reverse();
        }
        out.push(Route { edge: chain.edge, points, straight, label_at });
    }
    out
}

/// Self loops, in the TB frame: out of the right side and back, each a
/// little wider than the one before; `label_widths` per edge (TB frame).
pub fn loops(graph: &Layered, placed: &Placed, chart: &Flowchart, label_widths: &[Option<f64>]) -> Vec<Route> {
    let mut count = vec![0usize; chart.nodes.len()];
    let mut out = Vec::new();
    for (edge, e) in chart.edges.iter().enumerate().filter(|(_, e)| e.from == e.to) {
        let node = &graph.nodes[e.from];
        let k = count[e.from] as f64;
        count[e.from] += 1;
        let (right, cy) = (placed.x[e.from] + node.width / 2.0, placed.centre_y(node.rank));
        let (dx, dy) = (16.0 + 8.0 * k, (node.height / 4.0).max(4.0));
        let points = vec![(right, cy - dy), (right + dx, cy - dy), (right + dx, cy + dy), (right, cy + dy)];
        let label_at = label_widths[edge].map(|w| (right + dx + 4.0 + w / 2.0, cy));
        out.push(Route { edge, points, straight: false, label_at });
    }
    out
}

/// Drops repeated points and the middle of three on one line.
fn simplify(points: Vec<Point>) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::with_capacity(points.len());
    for p in points {
        if out.last().is_some_and(|q| (q.0 - p.0).abs() < 1e-6 && (q.1 - p.1).abs() < 1e-6) {
            continue;
        }
        if out.len() >= 2 {
            let (a, b) = (out[out.len() - 2], out[out.len() - 1]);
            let cross = (b.0 - a.0) * (p.1 - b.1) - (b.1 - a.1) * (p.0 - b.0);
            if cross.abs() < 1e-6 {
                out.pop();
            }
        }
        out.push(p);
    }
    out
}
