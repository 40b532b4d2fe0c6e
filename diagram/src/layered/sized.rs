//! The layered engine on boxes of given sizes, for [`crate::arrange`]: no
//! texts, no subgraphs, no edge labels and no routes (the canvas draws the
//! connectors between the items itself), only where each box's centre goes.
//!
//! The same steps as a flowchart in `TD`: cycles broken, ranks by network
//! simplex, dummies on long edges, crossing reduction, x by network simplex.
//! Only y differs: ranks are stacked with a fixed gap instead of the routing
//! channels the router would ask for, since nothing is routed here.
//!
//! The edges are prepared first, because items on a canvas are joined by
//! whatever connectors people drew, not by a flowchart's intent:
//! - Cycles are broken by Eades, Lin and Smyth's greedy order rather than the
//!   flowchart's depth-first search. On a tangled graph a depth-first search
//!   keeps long paths and so makes hundreds of ranks (a thousand items with
//!   three thousand random connectors made 515 ranks and 380,000 dummies);
//!   the greedy order keeps a DAG's edges as they are and reverses few others.
//! - Duplicates (and the two directions of a pair) count once.
//! - A budget of [`DUMMY_BUDGET`] dummy nodes: edges are taken shortest first
//!   (by their span under longest-path ranks) while the dummies they need fit.
//!   Edges spanning one rank cost nothing and are always kept, so ranks stay as
//!   the longest path makes them; only a dense graph's longest edges are left
//!   out, which bounds time and memory whatever the connectors are.
//!
//! x gets a budget of simplex pivots ([`PIVOT_WORK`]) for the same reason: a
//! thousand items with a thousand random connectors converge only after
//! about four thousand pivots (a second); the budget stops at about a
//! thousand, the layout feasible (no overlaps), only less straight.

use super::{build, order, position};
use crate::graph::{Direction, FlowEdge, FlowNode, Flowchart, Head, NodeShape, Stroke};

/// Gap between neighbouring ranks: room for the canvas's connectors and their arrow heads,
/// the same as the other arrange styles' gap.
pub const RANK_GAP: f64 = 60.0;
/// Most dummy nodes the kept edges may need (a few hundred milliseconds of ordering in a
/// release build).
const DUMMY_BUDGET: usize = 20_000;
/// Work (pivots × constraints) the network simplex may spend on x: enough to
/// straighten a few hundred items fully, a bounded effort beyond.
const PIVOT_WORK: usize = 5_000_000;

/// Centres (in a top-to-bottom frame, not yet moved to the origin) of boxes of
/// `sizes` (width, height) joined by `edges` (from, to). Self loops are
/// dropped here: they take no part in ranks or order, and the engine would
/// otherwise reserve room beside the node for drawing them.
pub fn centres(sizes: &[(f64, f64)], edges: &[(usize, usize)]) -> Vec<(f64, f64)> {
    let n = sizes.len();
    let edges = prepare(n, edges);
    // The engine reads a flowchart; a stand-in one with empty texts carries the graph.
    let chart = Flowchart {
        direction: Direction::TopDown,
        nodes: (0..n)
            .map(|_| FlowNode {
                id: String::new(),
                text: String::new(),
                shape: NodeShape::Rectangle,
                subgraph: None,
                marks: Vec::new(),
                style: Default::default(),
            })
            .collect(),
        edges: edges
            .iter()
            .map(|&(from, to)| FlowEdge {
                from,
                to,
                text: None,
                start: Head::None,
                end: Head::Arrow,
                stroke: Stroke::Normal,
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
    let labels = vec![None; chart.edges.len()];
    let mut graph = build(&chart, sizes, &labels);
    order::order(&mut graph);
    let placed = position::place_x_within(&graph, PIVOT_WORK);
    // Each rank as tall as its tallest box, boxes centred on the rank's middle line.
    let mut height = vec![0.0_f64; graph.layers.len()];
    for node in &graph.nodes {
        height[node.rank] = height[node.rank].max(node.height);
    }
    let mut middle = Vec::with_capacity(height.len());
    let mut top = 0.0;
    for h in &height {
        middle.push(top + h / 2.0);
        top += h + RANK_GAP;
    }
    // The first n layered nodes are the real ones, in input order (see `build`).
    (0..n).map(|v| (placed.x[v], middle[graph.nodes[v].rank])).collect()
}

/// The edges the engine gets: acyclic, distinct, within the dummy budget.
fn prepare(n: usize, edges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut distinct: Vec<(usize, usize)> = edges.iter().copied().filter(|(a, b)| a != b && *a < n && *b < n).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let order = greedy_order(n, &distinct);
    let mut place = vec![0; n];
    for (i, &v) in order.iter().enumerate() {
        place[v] = i;
    }
    let mut forward: Vec<(usize, usize)> =
        distinct.iter().map(|&(a, b)| if place[a] < place[b] { (a, b) } else { (b, a) }).collect();
    forward.sort_unstable();
    forward.dedup();
    // Longest-path ranks: `order` is a topological order of the forward edges.
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in &forward {
        into[b].push(a);
    }
    let mut rank = vec![0usize; n];
    for &v in &order {
        rank[v] = into[v].iter().map(|&u| rank[u] + 1).max().unwrap_or(0);
    }
    let mut by_span: Vec<(usize, usize)> =
        forward.iter().enumerate().map(|(i, &(a, b))| (rank[b] - rank[a], i)).collect();
    by_span.sort_unstable();
    let mut spent = 0;
    let mut keep = vec![false; forward.len()];
    for (span, i) in by_span {
        spent += span - 1;
        if spent > DUMMY_BUDGET {
            break;
        }
        keep[i] = true;
    }
    forward.into_iter().zip(keep).filter(|(_, k)| *k).map(|(e, _)| e).collect()
}

/// Eades, Lin and Smyth's order (1993): sinks are taken off to the end and
/// sources to the front while there are any, else the node with the most
/// outgoing minus incoming edges to the front; few edges then point
/// backwards, and none of a DAG's. Ties go to the lowest index, so the result
/// is deterministic. O(n² + m), ample for the arrange limit of 1,000 items.
fn greedy_order(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let (mut out, mut into) = (vec![Vec::new(); n], vec![Vec::new(); n]);
    for &(a, b) in edges {
        out[a].push(b);
        into[b].push(a);
    }
    let mut outdeg: Vec<i64> = out.iter().map(|o| o.len() as i64).collect();
    let mut indeg: Vec<i64> = into.iter().map(|i| i.len() as i64).collect();
    let mut gone = vec![false; n];
    let (mut front, mut back) = (Vec::with_capacity(n), Vec::new());
    for _ in 0..n {
        let left = || (0..n).filter(|&v| !gone[v]);
        let v = if let Some(sink) = left().find(|&v| outdeg[v] == 0) {
            back.push(sink);
            sink
        } else {
            let pick = left().find(|&v| indeg[v] == 0).unwrap_or_else(|| {
                // max_by_key keeps the last maximum; the lowest index wins with Reverse.
                left().max_by_key(|&v| (outdeg[v] - indeg[v], std::cmp::Reverse(v))).unwrap_or(0)
            });
            front.push(pick);
            pick
        };
        gone[v] = true;
        for &u in &into[v] {
            outdeg[u] -= 1;
        }
        for &w in &out[v] {
            indeg[w] -= 1;
        }
    }
    front.extend(back.into_iter().rev());
    front
}

#[cfg(test)]
mod tests {
    use super::{greedy_order, prepare, DUMMY_BUDGET};

    #[test]
    fn a_dag_keeps_its_edges_and_a_cycle_loses_one() {
        assert_eq!(prepare(4, &[(2, 3), (0, 1), (1, 2), (0, 1), (3, 3)]), [(0, 1), (1, 2), (2, 3)]);
        assert_eq!(greedy_order(3, &[(2, 1), (1, 0)]), [2, 1, 0]);
        // 0→1→2→0: every node has one in and one out, so the lowest index goes first.
        assert_eq!(prepare(3, &[(0, 1), (1, 2), (2, 0)]), [(0, 1), (0, 2), (1, 2)]);
        // Both directions of a pair make one edge.
        assert_eq!(prepare(2, &[(1, 0), (0, 1)]).len(), 1);
    }

    #[test]
    fn a_dense_graph_is_held_to_the_dummy_budget() {
        // Every pair of 300 nodes: 44,850 edges, most of them long.
        let n = 300;
        let all: Vec<(usize, usize)> = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect();
        let kept = prepare(n, &all);
        assert!(kept.len() < all.len());
        // The chain of neighbours (span 1, free) is always kept.
        assert!((1..n).all(|v| kept.contains(&(v - 1, v))));
        let dummies: usize = kept.iter().map(|(a, b)| b - a - 1).sum();
        assert!(dummies <= DUMMY_BUDGET, "{dummies}");
    }
}
