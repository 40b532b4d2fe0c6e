//! Crossing reduction: the order of the nodes on each rank.
//!
//! Sweeps down and up the ranks, sorting each by the barycenter of its
//! neighbours on the rank just fixed, then transposes neighbours while that
//! removes crossings, and keeps the best order seen. Subgraphs stay
//! contiguous: a rank is sorted as a tree (a subgraph's block moves as one,
//! at the mean barycenter of what it holds, and is sorted inside), and two
//! sibling subgraphs keep the order they have on the rank just fixed, so
//! their boxes never interleave from one rank to the next.

use super::{Kind, Layered};

/// Sweeps tried (each down or up, with transposition).
const SWEEPS: usize = 32;
/// Most transposition passes per sweep.
const TRANSPOSE_PASSES: usize = 12;
/// Nodes (dummies included) above which a graph gets less ordering effort.
const LARGE: usize = 1500;
/// Sweeps without improvement after which a start gives up.
const PATIENCE: usize = 10;
/// Nodes (dummies included) above which a graph gets one start, few sweeps and
/// few transposition passes: arranged canvas items with many long connectors
/// reach tens of thousands of dummies, where the large budget takes seconds.
const HUGE: usize = 8000;
/// Sweeps, and transposition passes per sweep, on a huge graph.
const HUGE_EFFORT: usize = 4;

/// Orders every rank of `graph` in place.
pub fn order(graph: &mut Layered) {
    let huge = graph.nodes.len() > HUGE;
    let mut starts = vec![initial(graph, false)];
    if !huge {
        starts.push(initial(graph, true));
    }
    // A few shuffled starts (a fixed seed: the layout is deterministic) to escape local
    // optima; fewer on large graphs, where each start costs more.
    let shuffled = if graph.nodes.len() > LARGE { 0 } else { 8 };
    let sweeps = if huge {
        HUGE_EFFORT
    } else if graph.nodes.len() > LARGE {
        8
    } else {
        SWEEPS
    };
    let passes = if huge { HUGE_EFFORT } else { TRANSPOSE_PASSES };
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for _ in 0..shuffled {
        let mut layers = starts[0].clone();
        for layer in &mut layers {
            for i in (1..layer.len()).rev() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                layer.swap(i, (seed % (i as u64 + 1)) as usize);
            }
        }
        starts.push(layers);
    }
    let mut best: Option<(usize, Vec<Vec<usize>>)> = None;
    for (index, start) in starts.into_iter().enumerate() {
        graph.layers = start;
        let median = index % 2 == 1;
        let mut since = 0;
        for sweep in 0..sweeps {
            let down = sweep % 2 == 0;
            let ranks: Vec<usize> = if down {
                (1..graph.layers.len()).collect()
            } else {
                (0..graph.layers.len().saturating_sub(1)).rev().collect()
            };
            let mut pos = positions(graph);
            for rank in ranks {
                let fixed = if down { rank - 1 } else { rank + 1 };
                sort_rank(graph, &mut pos, rank, fixed, median);
            }
            transpose(graph, sweep % 4 >= 2, passes);
            let count = crossings(graph);
            if best.as_ref().is_none_or(|(c, _)| count < *c) {
                best = Some((count, graph.layers.clone()));
                since = 0;
            } else {
                since += 1;
            }
            if count == 0 || since >= PATIENCE {
                break;
            }
        }
        if best.as_ref().is_some_and(|(c, _)| *c == 0) {
            break;
        }
    }
    if let Some((_, layers)) = best {
        graph.layers = layers;
    }
}

/// A depth-first order from the sources (in source order, or reversed):
/// connected nodes start close together.
fn initial(graph: &Layered, reverse: bool) -> Vec<Vec<usize>> {
    let mut layers = vec![Vec::new(); graph.layers.len()];
    let mut seen = vec![false; graph.nodes.len()];
    let mut roots: Vec<usize> = (0..graph.nodes.len()).filter(|&v| graph.up[v].is_empty()).collect();
    if reverse {
        roots.reverse();
    }
    roots.extend(0..graph.nodes.len());
    for root in roots {
        let mut stack = vec![root];
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut seen[v], true) {
                continue;
            }
            layers[graph.nodes[v].rank].push(v);
            let mut next = graph.down[v].clone();
            if !reverse {
                next.reverse();
            }
            stack.extend(next);
        }
    }
    layers
}

/// Positions of every node on its rank.
fn positions(graph: &Layered) -> Vec<usize> {
    let mut pos = vec![0; graph.nodes.len()];
    for layer in &graph.layers {
        for (i, &v) in layer.iter().enumerate() {
            pos[v] = i;
        }
    }
    pos
}

/// The median of sorted positions, weighted towards the denser side for an
/// even count (Gansner et al.'s weighted median).
fn median_of(mut p: Vec<f64>) -> f64 {
    p.sort_by(f64::total_cmp);
    let m = p.len() / 2;
    if p.len() % 2 == 1 {
        p[m]
    } else if p.len() == 2 {
        (p[0] + p[1]) / 2.0
    } else {
        let (left, right) = (p[m - 1] - p[0], p[p.len() - 1] - p[m]);
        if left + right == 0.0 {
            (p[m - 1] + p[m]) / 2.0
        } else {
            (p[m - 1] * right + p[m] * left) / (left + right)
        }
    }
}

/// Sorts `rank` by the barycenters (or medians) of its neighbours on `fixed`.
fn sort_rank(graph: &mut Layered, pos: &mut [usize], rank: usize, fixed: usize, median: bool) {
    let scale = graph.layers[fixed].len().max(1) as f64 / graph.layers[rank].len().max(1) as f64;
    let bary: Vec<Option<f64>> = graph.layers[rank]
        .iter()
        .map(|&v| {
            let neighbours = if fixed < rank { &graph.up[v] } else { &graph.down[v] };
            let at: Vec<f64> = neighbours.iter().map(|&u| pos[u] as f64).collect();
            (!at.is_empty()).then(|| if median { median_of(at) } else { at.iter().sum::<f64>() / at.len() as f64 })
        })
        .collect();
    let mut value = vec![0.0; graph.nodes.len()];
    let mut has_bary = vec![false; graph.nodes.len()];
    for (&v, b) in graph.layers[rank].iter().zip(&bary) {
        value[v] = b.unwrap_or(pos[v] as f64 * scale);
        has_bary[v] = b.is_some();
    }
    // Where each sibling block stands on the fixed rank (first node).
    let mut block_pos: Vec<Option<usize>> = vec![None; graph.clusters.len()];
    for (i, &v) in graph.layers[fixed].iter().enumerate() {
        for c in graph.ancestry(graph.nodes[v].cluster) {
            block_pos[c] = Some(block_pos[c].map_or(i, |p| p.min(i)));
        }
    }
    let items: Vec<usize> = graph.layers[rank].clone();
    let ctx = Context { value: &value, has_bary: &has_bary, pos, block_pos: &block_pos };
    graph.layers[rank] = arrange(graph, &ctx, None, &items);
    for (i, &v) in graph.layers[rank].iter().enumerate() {
        pos[v] = i;
    }
}

struct Context<'a> {
    value: &'a [f64],
    has_bary: &'a [bool],
    pos: &'a [usize],
    block_pos: &'a [Option<usize>],
}

/// One unit of a block: a node, or a nested subgraph with its nodes.
enum Unit {
    Node(usize),
    Block(usize, Vec<usize>),
}

/// Sorts the nodes `items` of the block of `cluster` (None: the whole rank).
fn arrange(graph: &Layered, ctx: &Context<'_>, cluster: Option<usize>, items: &[usize]) -> Vec<usize> {
    let mut units: Vec<Unit> = Vec::new();
    for &v in items {
        let chain = graph.ancestry(graph.nodes[v].cluster);
        let child = chain.iter().position(|&c| graph.clusters[c].parent == cluster).map(|i| chain[i]);
        match child {
            Some(c) if Some(c) != cluster => match units.iter_mut().find(|u| matches!(u, Unit::Block(b, _) if *b == c))
            {
                Some(Unit::Block(_, members)) => members.push(v),
                _ => units.push(Unit::Block(c, vec![v])),
            },
            _ => units.push(Unit::Node(v)),
        }
    }
    let value_of = |v: usize| ctx.value[v];
    let bary_of = |v: usize| ctx.has_bary[v];
    let mut keyed: Vec<(f64, usize, Unit)> = units
        .into_iter()
        .map(|unit| {
            let (key, first) = match &unit {
                Unit::Node(v) => (value_of(*v), ctx.pos[*v]),
                Unit::Block(_, members) => {
                    let with: Vec<f64> = members.iter().filter(|&&v| bary_of(v)).map(|&v| value_of(v)).collect();
                    let all: Vec<f64> = members.iter().map(|&v| value_of(v)).collect();
                    let pick = if with.is_empty() { all } else { with };
                    let first = members.iter().map(|&v| ctx.pos[v]).min().unwrap_or(0);
                    (pick.iter().sum::<f64>() / pick.len() as f64, first)
                }
            };
            (key, first, unit)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    // Sibling blocks also standing on the fixed rank keep their order there.
    let slots: Vec<usize> = keyed
        .iter()
        .enumerate()
        .filter(|(_, (_, _, u))| matches!(u, Unit::Block(c, _) if ctx.block_pos[*c].is_some()))
        .map(|(i, _)| i)
        .collect();
    let mut fixed_order: Vec<usize> = slots.clone();
    fixed_order.sort_by_key(|&i| match &keyed[i].2 {
        Unit::Block(c, _) => ctx.block_pos[*c],
        Unit::Node(_) => None,
    });
    let mut taken: Vec<Option<(f64, usize, Unit)>> = keyed.into_iter().map(Some).collect();
    let mut ordered: Vec<(f64, usize, Unit)> = Vec::with_capacity(taken.len());
    let mut next_fixed = fixed_order.into_iter();
    for i in 0..taken.len() {
        let source = if slots.contains(&i) { next_fixed.next().unwrap_or(i) } else { i };
        if let Some(unit) = taken[source].take() {
            ordered.push(unit);
        }
    }
    let mut out = Vec::with_capacity(items.len());
    for (_, _, unit) in ordered {
        match unit {
            Unit::Node(v) => out.push(v),
            Unit::Block(c, members) => out.extend(arrange(graph, ctx, Some(c), &members)),
        }
    }
    out
}

/// Crossings between the edges of neighbouring ranks, over the whole graph.
///
/// Two segments cross when their upper ends and their lower ends stand in
/// opposite orders, so with the segments sorted by (upper, lower) position the
/// crossings are the inversions of the lower positions, counted with a
/// Fenwick tree in O(E log V) (Barth, Jünger, Mutzel 2002) instead of
/// comparing every pair: the arrange layout meets graphs with tens of
/// thousands of dummy nodes, where pairs cost seconds.
pub fn crossings(graph: &Layered) -> usize {
    let pos = positions(graph);
    let mut total = 0;
    for (rank, layer) in graph.layers.iter().enumerate().take(graph.layers.len().saturating_sub(1)) {
        let mut segs: Vec<(usize, usize)> = layer
            .iter()
            .flat_map(|&u| graph.down[u].iter().map(move |&v| (u, v)))
            .map(|(u, v)| (pos[u], pos[v]))
            .collect();
        segs.sort_unstable();
        // tree[i] sums the counts of a range of lower positions ending at i (1-based).
        let size = graph.layers[rank + 1].len();
        let mut tree = vec![0usize; size + 1];
        for (seen, &(_, lower)) in segs.iter().enumerate() {
            // Earlier segments whose lower end is at or left of this one's do not cross it.
            let mut at_or_left = 0;
            let mut i = lower + 1;
            while i > 0 {
                at_or_left += tree[i];
                i -= i & i.wrapping_neg();
            }
            total += seen - at_or_left;
            let mut i = lower + 1;
            while i <= size {
                tree[i] += 1;
                i += i & i.wrapping_neg();
            }
        }
    }
    total
}

/// Crossings between the edges of `a` and `b` (same rank) when `a` stands left of `b`.
fn pair_crossings(graph: &Layered, pos: &[usize], a: usize, b: usize) -> usize {
    let mut count = 0;
    for side in [&graph.up, &graph.down] {
        for &x in &side[a] {
            count += side[b].iter().filter(|&&y| pos[x] > pos[y]).count();
        }
    }
    count
}

/// Swaps neighbours of the same block while that removes crossings; with
/// `ties`, also swaps pairs that cross as much either way (to leave a plateau);
/// at most `passes` times over the graph.
fn transpose(graph: &mut Layered, ties: bool, passes: usize) {
    for _ in 0..passes {
        let mut improved = false;
        let mut pos = positions(graph);
        for rank in 0..graph.layers.len() {
            for i in 0..graph.layers[rank].len().saturating_sub(1) {
                let (a, b) = (graph.layers[rank][i], graph.layers[rank][i + 1]);
                if graph.nodes[a].cluster != graph.nodes[b].cluster || graph.nodes[a].kind == Kind::Filler {
                    continue;
                }
                let (now, swapped) = (pair_crossings(graph, &pos, a, b), pair_crossings(graph, &pos, b, a));
                if swapped < now || (ties && swapped == now && now > 0) {
                    graph.layers[rank].swap(i, i + 1);
                    pos.swap(a, b);
                    improved |= swapped < now;
                }
            }
        }
        if !improved {
            return;
        }
    }
}
