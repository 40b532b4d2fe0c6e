//! The constraints ranks are solved under ([`super::simplex`]): one per link (its length at
//! least 1, 2 with a text), and around each subgraph a top and a bottom variable that hold its
//! nodes, whose distance costs, so a subgraph spans few ranks.
//!
//! A link to or from a subgraph ranks against the subgraph's whole span (its bottom variable when
//! the link leaves it, its top when it enters) rather than against the one node that stands for
//! it, so `A --> S` puts all of `S` below `A`. Such a *span link* can contradict the chart's other
//! links (`X --> R --> Y` between subgraphs while a node of `Y` links to a node of `X`), and the
//! solver needs constraints without a cycle: when the full set has one, span links are taken in
//! source order and one that would close a cycle falls back to its node, as Mermaid's own layout
//! ranks such links by the node. Charts without a contradiction keep the full set unchanged.

use super::simplex::Edge;
use super::{holds, CLUSTER_SPAN_WEIGHT};
use crate::graph::Flowchart;

/// The variables: the chart's nodes, then a top and a bottom per subgraph.
pub(super) fn variables(chart: &Flowchart) -> usize {
    chart.nodes.len() + 2 * chart.subgraphs.len()
}

/// The rank constraints of `chart`, whose links `reversed` (cycle breaking) point upwards.
/// Always acyclic.
pub(super) fn constraints(chart: &Flowchart, reversed: &[bool]) -> Vec<Edge> {
    let links = links(chart, reversed);
    let mut all: Vec<Edge> = links.iter().map(|l| l.span.unwrap_or(l.node)).collect();
    all.extend(subgraph_constraints(chart));
    if acyclic(variables(chart), &all) {
        return all;
    }
    // Every link by its node first, at no cost (each is implied by its span link, so adding one
    // never narrows a ranking the span link allows): these and the subgraphs' constraints are
    // acyclic, the links because cycle breaking made them so and the subgraphs' because a
    // bottom variable has no constraint leaving it but span links.
    let mut safe: Vec<Edge> = links.iter().filter(|l| l.span.is_some()).map(|l| Edge { weight: 0, ..l.node }).collect();
    safe.extend(links.iter().filter(|l| l.span.is_none()).map(|l| l.node));
    safe.extend(subgraph_constraints(chart));
    // The first entries of `safe` are those node constraints, in the order of the span links.
    for (position, (link, span)) in links.iter().filter_map(|l| l.span.map(|span| (l, span))).enumerate() {
        if reaches(variables(chart), &safe, span.head, span.tail) {
            // Closing a cycle: the link keeps its node, at the usual cost.
            safe[position].weight = link.node.weight;
        } else {
            safe.push(span);
        }
    }
    safe
}

/// One link's constraint by its nodes and, when an end is on a subgraph apart from the other
/// end, by the subgraph's span.
struct Link {
    node: Edge,
    span: Option<Edge>,
}

fn links(chart: &Flowchart, reversed: &[bool]) -> Vec<Link> {
    let n = chart.nodes.len();
    chart
        .edges
        .iter()
        .zip(reversed)
        .filter(|(e, _)| e.from != e.to)
        .filter_map(|(e, &rev)| {
            // Only between ends apart: a link from a subgraph to what it holds keeps its nodes.
            let apart = !holds(chart, e.from_subgraph, e.to, e.to_subgraph)
                && !holds(chart, e.to_subgraph, e.from, e.from_subgraph);
            let bottom = |node: usize, sub: Option<usize>| sub.filter(|_| apart).map_or(node, |c| n + 2 * c + 1);
            let top = |node: usize, sub: Option<usize>| sub.filter(|_| apart).map_or(node, |c| n + 2 * c);
            let (from, to) = if rev {
                ((e.to, e.to_subgraph), (e.from, e.from_subgraph))
            } else {
                ((e.from, e.from_subgraph), (e.to, e.to_subgraph))
            };
            let minlen = e.length.max(1) as i64 + i64::from(e.text.is_some());
            let node = Edge { tail: from.0, head: to.0, minlen, weight: 1 };
            let span = Edge { tail: bottom(from.0, from.1), head: top(to.0, to.1), minlen, weight: 1 };
            if span.tail == span.head {
                return None;
            }
            Some(Link { node, span: (span.tail != node.tail || span.head != node.head).then_some(span) })
        })
        .collect()
}

/// Each subgraph's top above and bottom below its nodes (its nested subgraphs' too), and the
/// cost of its height.
fn subgraph_constraints(chart: &Flowchart) -> Vec<Edge> {
    let n = chart.nodes.len();
    let mut out = Vec::new();
    for (i, node) in chart.nodes.iter().enumerate() {
        let mut sub = node.subgraph;
        while let Some(c) = sub {
            out.push(Edge { tail: n + 2 * c, head: i, minlen: 0, weight: 0 });
            out.push(Edge { tail: i, head: n + 2 * c + 1, minlen: 0, weight: 0 });
            sub = chart.subgraphs[c].parent;
        }
    }
    for c in 0..chart.subgraphs.len() {
        out.push(Edge { tail: n + 2 * c, head: n + 2 * c + 1, minlen: 0, weight: CLUSTER_SPAN_WEIGHT });
    }
    out
}

/// Whether the constraints have no cycle (Kahn's algorithm).
fn acyclic(variables: usize, edges: &[Edge]) -> bool {
    let mut incoming = vec![0usize; variables];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); variables];
    for e in edges {
        incoming[e.head] += 1;
        out[e.tail].push(e.head);
    }
    let mut ready: Vec<usize> = (0..variables).filter(|&v| incoming[v] == 0).collect();
    let mut seen = 0;
    while let Some(v) = ready.pop() {
        seen += 1;
        for &w in &out[v] {
            incoming[w] -= 1;
            if incoming[w] == 0 {
                ready.push(w);
            }
        }
    }
    seen == variables
}

/// Whether `to` can be reached from `from` along the constraints.
fn reaches(variables: usize, edges: &[Edge], from: usize, to: usize) -> bool {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); variables];
    for e in edges {
        out[e.tail].push(e.head);
    }
    let mut seen = vec![false; variables];
    let mut stack = vec![from];
    while let Some(v) = stack.pop() {
        if v == to {
            return true;
        }
        if !std::mem::replace(&mut seen[v], true) {
            stack.extend(&out[v]);
        }
    }
    false
}
