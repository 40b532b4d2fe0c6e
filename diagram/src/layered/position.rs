//! Coordinates in the TB frame.
//!
//! x: network simplex on Graphviz's auxiliary graph. Neighbours on a rank
//! are kept apart by their half widths plus a gap; every subgraph gets a
//! left and a right border variable that its nodes stay inside (with
//! padding) and other nodes outside; each edge segment (u, v) gets a new node
//! `a` with edges a→u and a→v, whose total length is |x(u) − x(v)|, weighted
//! more for segments of long edges, so the optimum draws edges straight and
//! long edges as vertical runs.
//!
//! y: ranks stacked with their tallest node, and between two ranks the
//! subgraph borders that end or start there plus a routing channel tall
//! enough for the horizontal tracks the router asks for.

use super::simplex::{self, Edge};
use super::{Kind, Layered, EDGE_SEP, NODE_SEP, SIMPLEX_ROUNDS_PER_NODE};

/// Gap between a subgraph's border and what stands outside it.
const CLUSTER_GAP: f64 = 16.0;
/// Least height of a routing channel between ranks.
const MIN_CHANNEL: f64 = 40.0;
/// Distance between two horizontal tracks of a channel.
pub const TRACK_SEP: f64 = 10.0;

/// Where everything is, in the TB frame.
#[derive(Debug, Clone, Default)]
pub struct Placed {
    /// Centre x of every layered node.
    pub x: Vec<f64>,
    /// Left and right border of every subgraph.
    pub borders: Vec<(f64, f64)>,
    /// Top of every rank.
    pub top: Vec<f64>,
    /// Height of every rank.
    pub height: Vec<f64>,
    /// The free band of the channel below every rank (top, bottom), where tracks run.
    pub channels: Vec<(f64, f64)>,
    /// Top and bottom border of every subgraph.
    pub spans: Vec<(f64, f64)>,
}

impl Placed {
    /// Centre y of a node on `rank`.
    pub fn centre_y(&self, rank: usize) -> f64 {
        self.top[rank] + self.height[rank] / 2.0
    }
}

fn is_dummy(kind: Kind) -> bool {
    !matches!(kind, Kind::Real(_))
}

/// Gap between two neighbours of a rank.
fn gap(graph: &Layered, a: usize, b: usize) -> f64 {
    let thin = |v: usize| matches!(graph.nodes[v].kind, Kind::Dummy(_) | Kind::Filler);
    match (thin(a), thin(b)) {
        (false, false) => NODE_SEP,
        (true, true) => EDGE_SEP,
        _ => (NODE_SEP + EDGE_SEP) / 2.0,
    }
}

/// x of every node and subgraph border.
pub fn place_x(graph: &Layered) -> Placed {
    place_x_within(graph, usize::MAX)
}

/// [`place_x`] with the simplex's pivots held to `pivot_work` (pivots × constraints):
/// each pivot costs a pass over the constraints, and the arrange layout must answer
/// quickly on a thousand items, where the flowchart's budget takes seconds.
pub fn place_x_within(graph: &Layered, pivot_work: usize) -> Placed {
    let n = graph.nodes.len();
    let left = |c: usize| n + 2 * c;
    let right = |c: usize| n + 2 * c + 1;
    let mut count = n + 2 * graph.clusters.len();
    let mut edges = Vec::new();
    let mut constrain = |tail: usize, head: usize, length: f64, weight: i64| {
        edges.push(Edge { tail, head, minlen: length.ceil() as i64, weight });
    };
    let half = |v: usize| graph.nodes[v].width / 2.0;
    for layer in &graph.layers {
        for pair in layer.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (chain_a, chain_b) = (graph.ancestry(graph.nodes[a].cluster), graph.ancestry(graph.nodes[b].cluster));
            let only_a = chain_a.iter().rev().find(|c| !chain_b.contains(c)).copied();
            let only_b = chain_b.iter().rev().find(|c| !chain_a.contains(c)).copied();
            let (tail, tail_extent) = match only_a {
                Some(c) => (right(c), 0.0),
                None => (a, half(a) + graph.nodes[a].loop_room),
            };
            let (head, head_extent) = match only_b {
                Some(c) => (left(c), 0.0),
                None => (b, half(b)),
            };
            let between = if only_a.is_some() || only_b.is_some() { CLUSTER_GAP } else { gap(graph, a, b) };
            constrain(tail, head, tail_extent + head_extent + between, 0);
        }
    }
    for (v, node) in graph.nodes.iter().enumerate() {
        if let Some(c) = node.cluster {
            let pad = graph.clusters[c].pad;
            constrain(left(c), v, pad[2] + half(v), 0);
            constrain(v, right(c), pad[3] + half(v) + node.loop_room, 0);
        }
    }
    for (c, cluster) in graph.clusters.iter().enumerate() {
        if let Some(p) = cluster.parent {
            let pad = graph.clusters[p].pad;
            constrain(left(p), left(c), pad[2], 0);
            constrain(right(c), right(p), pad[3], 0);
        }
        // Its least width, and a light pull keeping the box narrow.
        constrain(left(c), right(c), cluster.min_width.max(cluster.pad[2] + cluster.pad[3]), 1);
    }
    for (u, targets) in graph.down.iter().enumerate() {
        for &v in targets {
            let weight = match (is_dummy(graph.nodes[u].kind), is_dummy(graph.nodes[v].kind)) {
                (false, false) => 1,
                (true, true) => 8,
                _ => 2,
            };
            let aux = count;
            count += 1;
            constrain(aux, u, 0.0, weight);
            constrain(aux, v, 0.0, weight);
        }
    }
    let rounds = (SIMPLEX_ROUNDS_PER_NODE * count + 100).min(pivot_work / edges.len().max(1));
    let values = simplex::solve(count, &edges, rounds);
    Placed {
        x: values[..n].iter().map(|&x| x as f64).collect(),
        borders: (0..graph.clusters.len()).map(|c| (values[left(c)] as f64, values[right(c)] as f64)).collect(),
        ..Placed::default()
    }
}

/// y of every rank, channel and subgraph, for `tracks[r]` horizontal tracks
/// in the channel below rank r.
pub fn place_y(graph: &Layered, placed: &mut Placed, tracks: &[usize]) {
    let ranks = graph.layers.len();
    let mut height = vec![0.0_f64; ranks];
    for node in &graph.nodes {
        height[node.rank] = height[node.rank].max(node.height);
    }
    // Nested borders that start (end) on the same rank stack up.
    let k = graph.clusters.len();
    let (mut start_stack, mut end_stack) = (vec![0.0_f64; k], vec![0.0_f64; k]);
    for c in (0..k).rev() {
        let cluster = &graph.clusters[c];
        start_stack[c] += cluster.pad[0];
        end_stack[c] += cluster.pad[1];
        if let Some(p) = cluster.parent {
            if graph.clusters[p].span.0 == cluster.span.0 {
                start_stack[p] = start_stack[p].max(start_stack[c]);
            }
            if graph.clusters[p].span.1 == cluster.span.1 {
                end_stack[p] = end_stack[p].max(end_stack[c]);
            }
        }
    }
    let (mut start_at, mut end_at) = (vec![0.0_f64; ranks], vec![0.0_f64; ranks]);
    for (c, cluster) in graph.clusters.iter().enumerate() {
        start_at[cluster.span.0] = start_at[cluster.span.0].max(start_stack[c]);
        end_at[cluster.span.1] = end_at[cluster.span.1].max(end_stack[c]);
    }
    let mut top = vec![0.0; ranks];
    let mut channels = vec![(0.0, 0.0); ranks];
    let mut y = start_at.first().copied().unwrap_or(0.0);
    for r in 0..ranks {
        top[r] = y;
        let band = y + height[r] + end_at[r];
        let room = (MIN_CHANNEL).max((tracks.get(r).copied().unwrap_or(0) + 1) as f64 * TRACK_SEP);
        channels[r] = (band, band + room);
        y = band + room + start_at.get(r + 1).copied().unwrap_or(0.0);
    }
    placed.spans = graph
        .clusters
        .iter()
        .enumerate()
        .map(|(c, cluster)| {
            let (first, last) = cluster.span;
            (top[first] - start_stack[c], top[last] + height[last] + end_stack[c])
        })
        .collect();
    placed.top = top;
    placed.height = height;
    placed.channels = channels;
}
