//! Existing canvas items laid out anew: boxes of given sizes joined by given
//! edges (the connectors between the items), placed as a grid, a layered
//! graph or a tidy tree. core-service's "arrange items" calls [`arrange`] and
//! moves each item to the centre it answers, offset by where the group goes.
//!
//! - [`Style::Grid`]: the items in the order given, row by row, in
//!   ⌈√n⌉ columns; each column as wide as its widest box, each row as tall as
//!   its tallest, boxes centred in their cells, [`GAP`] between cells.
//! - [`Style::Layered`]: top to bottom, by the flowchart engine
//!   (`layered/sized.rs`) on the items' own sizes: cycles broken (by a greedy
//!   order, so a DAG's edges all point down), ranks by network simplex,
//!   crossing reduction, x by network simplex, ranks [`GAP`] apart. Items
//!   without edges share the first rank. Dense graphs are held to a budget
//!   (see `layered/sized.rs`) so a thousand items take well under a second.
//! - [`Style::Tree`]: a tidy tree growing **left to right** (as the mind maps
//!   do, so wide items cost width rather than many rows): roots are the items
//!   no edge points to (the first item when every item has one), children
//!   found by a breadth-first search along the edges from all roots at once,
//!   each item placed once, other edges ignored; items the search never
//!   reaches (a cycle no root leads to) start trees of their own, first in
//!   input order first. Depths are columns as wide as their widest box;
//!   within a column the trees and subtrees are stacked as close as their
//!   contours allow (Reingold–Tilford, `mindmap/layout.rs`), so several
//!   trees stand one above the other, side by side across the tree direction.
//!
//! Every style answers centres such that the bounding box of all boxes has
//! its top-left corner at (0, 0), and no two boxes overlap (they may touch).
//! Self loops are ignored and duplicate edges count once.

use crate::layered::sized;
use crate::mindmap::layout::tidy;

/// Gap between grid cells, between the tree's depth columns and between layered ranks.
pub const GAP: f64 = sized::RANK_GAP;
/// Least gap between neighbouring subtrees of the tree: less than [`GAP`], since
/// siblings share their parent's connectors and read as a group when close.
const SIBLING_GAP: f64 = 24.0;

/// How to lay the items out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Rows and columns in the order given.
    Grid,
    /// Top to bottom along the edges (Sugiyama).
    Layered,
    /// A tidy tree, left to right, from the items no edge points to.
    Tree,
}

/// One item: its drawn size in map units (both > 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Node {
    /// Width, map units.
    pub width: f64,
    /// Height, map units.
    pub height: f64,
}

/// Places `nodes` and returns each node's centre, in the order given, such
/// that the bounding box of all placed boxes has its top-left corner at
/// (0, 0). `edges` are (from index, to index) pairs; they may hold cycles,
/// duplicates and self loops (ignored). Indices must be below `nodes.len()`.
pub fn arrange(nodes: &[Node], edges: &[(usize, usize)], style: Style) -> Vec<(f64, f64)> {
    if nodes.is_empty() {
        return Vec::new();
    }
    // Indices out of range are a caller's bug; dropping them beats a panic in a service.
    let edges: Vec<(usize, usize)> =
        edges.iter().copied().filter(|&(a, b)| a != b && a < nodes.len() && b < nodes.len()).collect();
    let centres = match style {
        Style::Grid => grid(nodes),
        Style::Layered => {
            let sizes: Vec<(f64, f64)> = nodes.iter().map(|n| (n.width, n.height)).collect();
            sized::centres(&sizes, &edges)
        }
        Style::Tree => tree(nodes, &edges),
    };
    to_origin(nodes, centres)
}

/// Moves `centres` so the boxes' bounding box starts at (0, 0).
fn to_origin(nodes: &[Node], centres: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    let left = nodes.iter().zip(&centres).map(|(n, c)| c.0 - n.width / 2.0).fold(f64::INFINITY, f64::min);
    let top = nodes.iter().zip(&centres).map(|(n, c)| c.1 - n.height / 2.0).fold(f64::INFINITY, f64::min);
    centres.into_iter().map(|(x, y)| (x - left, y - top)).collect()
}

/// Starts of `sizes` laid one after another with `gap` between them.
fn starts(sizes: &[f64], gap: f64) -> Vec<f64> {
    let mut at = 0.0;
    sizes
        .iter()
        .map(|s| {
            let start = at;
            at += s + gap;
            start
        })
        .collect()
}

/// Row by row in ⌈√n⌉ columns, each box centred in its cell.
fn grid(nodes: &[Node]) -> Vec<(f64, f64)> {
    let n = nodes.len();
    // The integer square root rounded up, without trusting f64's sqrt near squares.
    let mut columns = (n as f64).sqrt() as usize;
    while columns * columns < n {
        columns += 1;
    }
    let rows = n.div_ceil(columns);
    let (mut widths, mut heights) = (vec![0.0_f64; columns], vec![0.0_f64; rows]);
    for (i, node) in nodes.iter().enumerate() {
        widths[i % columns] = widths[i % columns].max(node.width);
        heights[i / columns] = heights[i / columns].max(node.height);
    }
    let (xs, ys) = (starts(&widths, GAP), starts(&heights, GAP));
    (0..n)
        .map(|i| (xs[i % columns] + widths[i % columns] / 2.0, ys[i / columns] + heights[i / columns] / 2.0))
        .collect()
}

/// The forest the tree style draws: every node's children and depth, and the
/// roots in the order their trees are stacked.
struct Forest {
    children: Vec<Vec<usize>>,
    depth: Vec<usize>,
    roots: Vec<usize>,
}

/// Breadth-first from the nodes no edge points to, then from each node still
/// unreached (only cycles are left then), each node claimed once.
fn forest(n: usize, edges: &[(usize, usize)]) -> Forest {
    let mut out = vec![Vec::new(); n];
    let mut pointed = vec![false; n];
    for &(a, b) in edges {
        out[a].push(b);
        pointed[b] = true;
    }
    let mut children = vec![Vec::new(); n];
    let mut depth = vec![usize::MAX; n];
    let mut roots: Vec<usize> = (0..n).filter(|&v| !pointed[v]).collect();
    let mut queue = std::collections::VecDeque::new();
    for &r in &roots {
        depth[r] = 0;
        queue.push_back(r);
    }
    // One pass seeds with the sources, then any unreached node seeds the next search.
    let mut next_seed = 0;
    loop {
        while let Some(v) = queue.pop_front() {
            for &w in &out[v] {
                if depth[w] == usize::MAX {
                    depth[w] = depth[v] + 1;
                    children[v].push(w);
                    queue.push_back(w);
                }
            }
        }
        while next_seed < n && depth[next_seed] != usize::MAX {
            next_seed += 1;
        }
        if next_seed == n {
            break;
        }
        depth[next_seed] = 0;
        roots.push(next_seed);
        queue.push_back(next_seed);
    }
    Forest { children, depth, roots }
}

/// A tidy tree, depths as columns from the left.
fn tree(nodes: &[Node], edges: &[(usize, usize)]) -> Vec<(f64, f64)> {
    let n = nodes.len();
    let Forest { mut children, depth, roots } = forest(n, edges);
    // The trees hang under one virtual root (index n, no height) so the tidy
    // layout stacks them against each other's contours like siblings.
    children.push(roots);
    let mut heights: Vec<f64> = nodes.iter().map(|node| node.height).collect();
    heights.push(0.0);
    let laid = tidy(&children, &heights, SIBLING_GAP, n);
    let columns = depth.iter().copied().max().unwrap_or(0) + 1;
    let mut widths = vec![0.0_f64; columns];
    for (node, &d) in nodes.iter().zip(&depth) {
        widths[d] = widths[d].max(node.width);
    }
    let lefts = starts(&widths, GAP);
    let mut centres = vec![(0.0, 0.0); n];
    // The virtual root's depth 0 is the roots' depth −1; its own offset is skipped.
    for &(v, y) in laid.offsets.iter().filter(|(v, _)| *v < n) {
        // Left-aligned in the column: every connector to a child crosses the same gap.
        centres[v] = (lefts[depth[v]] + nodes[v].width / 2.0, y);
    }
    centres
}

#[cfg(test)]
mod tests;
