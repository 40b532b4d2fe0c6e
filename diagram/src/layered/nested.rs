//! `direction` inside a subgraph, as Mermaid draws it: a subgraph that sets a direction other
//! than the one around it is laid out on its own, in its own direction, and its drawing stands in
//! the chart around it as one block; but only when none of its nodes is linked to anything
//! outside it (links to the subgraph itself are fine). A subgraph linked across its border
//! follows the direction around it, as Mermaid's syntax reference says ("If any of a subgraph's
//! nodes are linked to the outside, subgraph direction will be ignored").
//!
//! Each outermost such subgraph (a *part*) is laid out apart, recursively (a subgraph nested in
//! it and turned again is found there), the chart around it is laid out with one box of the
//! part's size in its place, and the part's drawing is moved into that box. The scene keeps the
//! flat layout's order and keys (subgraphs, then nodes, in source order; lines by edge), which
//! the item plan, the diagram records and the class and state layouts rely on.

use std::collections::HashMap;

use super::{emit, layout_flat, within, CLUSTER_PAD, TITLE_BAND};
use crate::graph::{FlowEdge, FlowNode, Flowchart, NodeShape, Subgraph};
use crate::node_boxes::NodeBox;
use crate::scene::{scene_bounds, Owner, Scene, SceneLine, SceneText};

/// Where one end of an edge lies against a subgraph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Inside,
    /// On the subgraph's own border: the link is to or from the subgraph.
    Border,
    Outside,
}

/// Lays out `chart`, each part apart.
pub(super) fn layout(chart: &Flowchart, boxes: &[NodeBox]) -> Scene {
    let apart = apart(chart);
    if apart.is_empty() {
        return layout_flat(chart, boxes);
    }
    let parts: Vec<Part> = apart.iter().map(|&c| Part::new(chart, boxes, c)).collect();
    let outer = Outer::new(chart, boxes, &parts);
    compose(chart, &outer, parts)
}

fn side(chart: &Flowchart, node: usize, attached: Option<usize>, c: usize) -> Side {
    match attached {
        Some(s) if s == c => Side::Border,
        Some(s) if within(chart, Some(s), c) => Side::Inside,
        Some(_) => Side::Outside,
        None if within(chart, chart.nodes[node].subgraph, c) => Side::Inside,
        None => Side::Outside,
    }
}

fn ends(chart: &Flowchart, edge: &FlowEdge, c: usize) -> (Side, Side) {
    (side(chart, edge.from, edge.from_subgraph, c), side(chart, edge.to, edge.to_subgraph, c))
}

/// The outermost subgraphs with a direction of their own, other than the chart's, holding
/// nodes, and linked to nothing outside them but by their border.
fn apart(chart: &Flowchart) -> Vec<usize> {
    use Side::{Border, Inside, Outside};
    let turned: Vec<bool> = (0..chart.subgraphs.len())
        .map(|c| {
            chart.subgraphs[c].direction.is_some_and(|d| d != chart.direction)
                && chart.nodes.iter().any(|n| within(chart, n.subgraph, c))
                && chart.edges.iter().all(|e| {
                    matches!(
                        ends(chart, e, c),
                        (Inside, Inside) | (Outside, Outside) | (Border, Outside) | (Outside, Border)
                    )
                })
        })
        .collect();
    (0..chart.subgraphs.len())
        .filter(|&c| turned[c] && !(0..chart.subgraphs.len()).any(|a| a != c && turned[a] && within(chart, Some(c), a)))
        .collect()
}

/// A subgraph laid out apart.
struct Part {
    /// The subgraph.
    c: usize,
    /// Its nodes, subgraphs and edges (indexes in the whole chart), in order.
    nodes: Vec<usize>,
    subgraphs: Vec<usize>,
    edges: Vec<usize>,
    /// Its drawing, from the origin.
    scene: Scene,
}

impl Part {
    fn new(chart: &Flowchart, boxes: &[NodeBox], c: usize) -> Part {
        let nodes: Vec<usize> = (0..chart.nodes.len()).filter(|&i| within(chart, chart.nodes[i].subgraph, c)).collect();
        let subgraphs: Vec<usize> =
            (0..chart.subgraphs.len()).filter(|&s| s != c && within(chart, Some(s), c)).collect();
        let edges: Vec<usize> = (0..chart.edges.len())
            .filter(|&e| ends(chart, &chart.edges[e], c) == (Side::Inside, Side::Inside))
            .collect();
        let node_at = positions(&nodes);
        let sub_at = positions(&subgraphs);
        let inner = |s: Option<usize>| s.filter(|&s| s != c).map(|s| sub_at[&s]);
        let part = Flowchart {
            direction: chart.subgraphs[c].direction.unwrap_or(chart.direction),
            nodes: nodes
                .iter()
                .map(|&i| FlowNode { subgraph: inner(chart.nodes[i].subgraph), ..chart.nodes[i].clone() })
                .collect(),
            edges: reindexed(chart, &edges, &node_at, |s| s.map(|s| sub_at[&s])),
            subgraphs: subgraphs
                .iter()
                .map(|&s| Subgraph { parent: inner(chart.subgraphs[s].parent), ..chart.subgraphs[s].clone() })
                .collect(),
            title: None,
        };
        let part_boxes: Vec<NodeBox> = nodes.iter().map(|&i| boxes[i].clone()).collect();
        let scene = layout(&part, &part_boxes);
        Part { c, nodes, subgraphs, edges, scene }
    }

    /// The box the part stands as in the chart around it: its drawing with the padding and the
    /// title band a subgraph has.
    fn block(&self, chart: &Flowchart) -> NodeBox {
        let (w, h) = scene_bounds(&self.scene);
        let title = emit::title_width(&chart.subgraphs[self.c].title);
        NodeBox {
            text: String::new(),
            width: w.max(title) + 2.0 * CLUSTER_PAD,
            height: h + TITLE_BAND + CLUSTER_PAD,
            shape: "Rectangle",
            corner_radius: None,
        }
    }
}

/// Edges `edges` of `chart` with their nodes renumbered by `node_at` and their subgraph ends by
/// `sub_at`.
fn reindexed(
    chart: &Flowchart,
    edges: &[usize],
    node_at: &HashMap<usize, usize>,
    sub_at: impl Fn(Option<usize>) -> Option<usize>,
) -> Vec<FlowEdge> {
    edges
        .iter()
        .map(|&e| {
            let edge = &chart.edges[e];
            FlowEdge {
                from: node_at[&edge.from],
                to: node_at[&edge.to],
                from_subgraph: sub_at(edge.from_subgraph),
                to_subgraph: sub_at(edge.to_subgraph),
                ..edge.clone()
            }
        })
        .collect()
}

/// Index of each value in `list`.
fn positions(list: &[usize]) -> HashMap<usize, usize> {
    list.iter().enumerate().map(|(at, &v)| (v, at)).collect()
}

/// The chart around the parts, each part one node.
struct Outer {
    /// Its subgraphs (indexes in the whole chart).
    subgraphs: Vec<usize>,
    /// Each of its nodes: a node of the whole chart, or a part (its index in `parts`).
    nodes: Vec<Result<usize, usize>>,
    /// Its edges (indexes in the whole chart).
    edges: Vec<usize>,
    scene: Scene,
}

impl Outer {
    fn new(chart: &Flowchart, boxes: &[NodeBox], parts: &[Part]) -> Outer {
        let part_of = |sub: Option<usize>| parts.iter().position(|p| within(chart, sub, p.c));
        let subgraphs: Vec<usize> = (0..chart.subgraphs.len()).filter(|&s| part_of(Some(s)).is_none()).collect();
        let sub_at = positions(&subgraphs);
        // A part stands where its first node was, so the source order the layout starts from
        // is kept.
        let mut nodes = Vec::new();
        let mut node_at = HashMap::new();
        let mut part_at = HashMap::new();
        for (i, node) in chart.nodes.iter().enumerate() {
            let at = match part_of(node.subgraph) {
                Some(p) => *part_at.entry(p).or_insert_with(|| {
                    nodes.push(Err(p));
                    nodes.len() - 1
                }),
                None => {
                    nodes.push(Ok(i));
                    nodes.len() - 1
                }
            };
            node_at.insert(i, at);
        }
        let in_part = |e: &FlowEdge| parts.iter().any(|p| ends(chart, e, p.c) == (Side::Inside, Side::Inside));
        let edges: Vec<usize> = (0..chart.edges.len()).filter(|&e| !in_part(&chart.edges[e])).collect();
        // A link to a part's subgraph is a link to the part's box.
        let attached = |s: Option<usize>| s.and_then(|s| sub_at.get(&s).copied());
        let outer = Flowchart {
            direction: chart.direction,
            nodes: nodes
                .iter()
                .map(|&n| match n {
                    Ok(i) => {
                        FlowNode { subgraph: chart.nodes[i].subgraph.map(|s| sub_at[&s]), ..chart.nodes[i].clone() }
                    }
                    Err(p) => {
                        let sub = &chart.subgraphs[parts[p].c];
                        FlowNode {
                            id: sub.id.clone(),
                            text: String::new(),
                            shape: NodeShape::Rectangle,
                            subgraph: sub.parent.map(|s| sub_at[&s]),
                            marks: Vec::new(),
                            style: sub.style,
                        }
                    }
                })
                .collect(),
            edges: reindexed(chart, &edges, &node_at, attached),
            subgraphs: subgraphs
                .iter()
                .map(|&s| Subgraph {
                    parent: chart.subgraphs[s].parent.map(|p| sub_at[&p]),
                    ..chart.subgraphs[s].clone()
                })
                .collect(),
            title: chart.title.clone(),
        };
        let outer_boxes: Vec<NodeBox> = nodes
            .iter()
            .map(|&n| match n {
                Ok(i) => boxes[i].clone(),
                Err(p) => parts[p].block(chart),
            })
            .collect();
        let scene = layout_flat(&outer, &outer_boxes);
        Outer { subgraphs, nodes, edges, scene }
    }
}

/// The edge index a line or edge text key names (`edge:3`, `label:edge:3`).
fn edge_of(key: &str) -> Option<usize> {
    key.strip_prefix("label:").unwrap_or(key).strip_prefix("edge:")?.parse().ok()
}

/// `key` naming edge `edge` of the whole chart instead.
fn renamed(key: &str, edge: usize) -> String {
    if key.starts_with("label:") {
        format!("label:edge:{edge}")
    } else {
        format!("edge:{edge}")
    }
}

/// The whole scene: the outer scene with each part moved into its box, in the flat layout's
/// order (subgraphs, then nodes; lines by edge).
fn compose(chart: &Flowchart, outer: &Outer, mut parts: Vec<Part>) -> Scene {
    let k = chart.subgraphs.len();
    // Box indexes of the whole scene, from each scene's own.
    let mut outer_box: Vec<usize> = outer.subgraphs.clone();
    outer_box.extend(outer.nodes.iter().map(|&n| match n {
        Ok(i) => k + i,
        Err(p) => parts[p].c,
    }));
    let part_box: Vec<Vec<usize>> =
        parts.iter().map(|p| p.subgraphs.iter().copied().chain(p.nodes.iter().map(|&i| k + i)).collect()).collect();
    let mut boxes = vec![None; k + chart.nodes.len()];
    let mut texts: Vec<SceneText> = Vec::new();
    for (at, b) in outer.scene.boxes.iter().enumerate() {
        let parent = b.container.map(|x| outer_box[x]);
        match at.checked_sub(outer.subgraphs.len()).and_then(|i| outer.nodes.get(i)) {
            Some(&Err(p)) => {
                let c = parts[p].c;
                let (container, title) = emit::cluster(&chart.subgraphs[c], b.rect, parent, c);
                texts.extend(title);
                let (w, _) = scene_bounds(&parts[p].scene);
                parts[p].scene.translate(b.rect.x + (b.rect.width - w) / 2.0, b.rect.y + TITLE_BAND);
                boxes[c] = Some(container);
            }
            _ => boxes[outer_box[at]] = Some(crate::scene::SceneBox { container: parent, ..b.clone() }),
        }
    }
    for (p, part) in parts.iter().enumerate() {
        for (at, b) in part.scene.boxes.iter().enumerate() {
            let parent = Some(b.container.map_or(part.c, |x| part_box[p][x]));
            boxes[part_box[p][at]] = Some(crate::scene::SceneBox { container: parent, ..b.clone() });
        }
    }
    // Lines by edge; each scene's line index to the whole scene's edge.
    let mut lines: Vec<(usize, SceneLine)> = Vec::new();
    let mut line_edge: Vec<Vec<Option<usize>>> = Vec::new();
    let sources = std::iter::once((&outer.scene, &outer.edges, &outer_box, None))
        .chain(parts.iter().zip(&part_box).map(|(p, map)| (&p.scene, &p.edges, map, Some(p.c))));
    let mut scene_texts: Vec<(&Scene, &Vec<usize>, &Vec<usize>)> = Vec::new();
    for (scene, edges, map, holder) in sources {
        let mut own = Vec::new();
        for line in &scene.lines {
            let edge = edge_of(&line.key).map(|e| edges[e]);
            own.push(edge);
            let attach = |a: Option<usize>| a.map(|x| map[x]);
            let mut line = line.clone();
            line.key = edge.map_or(line.key.clone(), |e| renamed(&line.key, e));
            line.start.attach = attach(line.start.attach);
            line.end.attach = attach(line.end.attach);
            line.container = line.container.map(|x| map[x]).or(holder);
            lines.push((edge.unwrap_or(usize::MAX), line));
        }
        line_edge.push(own);
        scene_texts.push((scene, edges, map));
    }
    lines.sort_by_key(|(edge, _)| *edge);
    let line_at: HashMap<usize, usize> = lines.iter().enumerate().map(|(at, (edge, _))| (*edge, at)).collect();
    for (s, (scene, edges, map)) in scene_texts.into_iter().enumerate() {
        for text in &scene.texts {
            let mut text = text.clone();
            if let Some(e) = edge_of(&text.key) {
                text.key = renamed(&text.key, edges[e]);
            }
            text.owner = match text.owner {
                Owner::Box(x) => Owner::Box(map[x]),
                Owner::Line(l) => match line_edge[s][l].and_then(|e| line_at.get(&e)) {
                    Some(&at) => Owner::Line(at),
                    None => Owner::Free,
                },
                Owner::Free => Owner::Free,
            };
            texts.push(text);
        }
    }
    Scene {
        boxes: boxes.into_iter().flatten().collect(),
        lines: lines.into_iter().map(|(_, line)| line).collect(),
        texts,
    }
}

#[cfg(test)]
mod tests;
