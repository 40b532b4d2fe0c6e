//! Tests of [`super::arrange`]: for every style no overlaps, the origin at the
//! top left, one centre per item, the same answer twice; the direction each
//! style promises; a thousand items in time; and arbitrary graphs (proptest).

use super::{arrange, forest, Node, Style};
use proptest::prelude::*;

const STYLES: [Style; 3] = [Style::Grid, Style::Layered, Style::Tree];

/// Items and the edges between them.
type Graph = (Vec<Node>, Vec<(usize, usize)>);

fn node(width: f64, height: f64) -> Node {
    Node { width, height }
}

/// The problems with a placement, empty when it is sound: wrong length, not at
/// the origin, overlapping boxes (touching allowed), or not finite.
fn problems(nodes: &[Node], edges: &[(usize, usize)], style: Style) -> Vec<String> {
    let centres = arrange(nodes, edges, style);
    let mut found = Vec::new();
    if centres.len() != nodes.len() {
        found.push(format!("{} centres for {} nodes", centres.len(), nodes.len()));
        return found;
    }
    if centres.iter().any(|c| !c.0.is_finite() || !c.1.is_finite()) {
        found.push("a centre is not finite".into());
    }
    let rect = |i: usize| {
        let (x, y) = centres[i];
        (x - nodes[i].width / 2.0, y - nodes[i].height / 2.0, x + nodes[i].width / 2.0, y + nodes[i].height / 2.0)
    };
    if !nodes.is_empty() {
        let left = (0..nodes.len()).map(|i| rect(i).0).fold(f64::INFINITY, f64::min);
        let top = (0..nodes.len()).map(|i| rect(i).1).fold(f64::INFINITY, f64::min);
        if left.abs() > 1e-6 || top.abs() > 1e-6 {
            found.push(format!("the bounding box starts at ({left}, {top})"));
        }
    }
    // Sorted by left edge, so only boxes whose x ranges meet are compared.
    let mut by_left: Vec<usize> = (0..nodes.len()).collect();
    by_left.sort_by(|&a, &b| rect(a).0.total_cmp(&rect(b).0));
    for (k, &a) in by_left.iter().enumerate() {
        let ra = rect(a);
        for &b in &by_left[k + 1..] {
            let rb = rect(b);
            if rb.0 >= ra.2 - 1e-6 {
                break;
            }
            if rb.1 < ra.3 - 1e-6 && ra.1 < rb.3 - 1e-6 {
                found.push(format!("{style:?}: box {a} {ra:?} overlaps box {b} {rb:?}"));
            }
        }
    }
    found
}

/// Sound, and the same answer twice.
fn assert_sound(nodes: &[Node], edges: &[(usize, usize)], style: Style) {
    let found = problems(nodes, edges, style);
    assert!(found.is_empty(), "{style:?}: {found:?}");
    assert_eq!(arrange(nodes, edges, style), arrange(nodes, edges, style), "{style:?} is not deterministic");
}

/// A fixed mix: sizes of every kind, a cycle, a duplicate, a self loop, isolated items.
fn mixed() -> Graph {
    let nodes = (0..14).map(|i| node(40.0 + (i * 37 % 200) as f64, 30.0 + (i * 53 % 150) as f64)).collect();
    let edges = vec![(0, 1), (0, 2), (1, 3), (3, 1), (2, 4), (2, 4), (4, 4), (5, 6), (6, 7), (7, 5), (8, 9), (0, 9)];
    (nodes, edges)
}

#[test]
fn every_style_is_sound_on_a_mixed_graph() {
    let (nodes, edges) = mixed();
    for style in STYLES {
        assert_sound(&nodes, &edges, style);
        assert_sound(&nodes, &[], style);
    }
}

#[test]
fn no_items_and_one_item() {
    for style in STYLES {
        assert!(arrange(&[], &[], style).is_empty());
        assert_eq!(arrange(&[node(120.0, 50.0)], &[(0, 0)], style), [(60.0, 25.0)], "{style:?}");
    }
}

#[test]
fn the_grid_fills_rows_in_order_with_centred_cells() {
    // Five items: three columns, two rows; column 0 as wide as its widest (100), row 0 as tall as 80.
    let nodes = [node(100.0, 40.0), node(50.0, 80.0), node(30.0, 30.0), node(60.0, 20.0), node(20.0, 20.0)];
    let c = arrange(&nodes, &[], Style::Grid);
    assert_eq!(c[0], (50.0, 40.0));
    assert_eq!(c[1], (100.0 + 60.0 + 25.0, 40.0));
    assert_eq!(c[3], (50.0, 80.0 + 60.0 + 10.0), "row 1 is as tall as its tallest (20)");
    assert_eq!(c[4].0, c[1].0, "column 1 holds items 1 and 4");
}

#[test]
fn layered_edges_point_down() {
    let nodes = [node(80.0, 40.0), node(200.0, 90.0), node(60.0, 60.0)];
    let c = arrange(&nodes, &[(0, 1), (1, 2)], Style::Layered);
    assert!(c[1].1 > c[0].1 && c[2].1 > c[1].1, "{c:?}");
    assert!((c[0].0 - c[1].0).abs() < 1.0 && (c[1].0 - c[2].0).abs() < 1.0, "a chain stands straight: {c:?}");
    // In a cycle one edge must point up; the others still point down.
    let c = arrange(&nodes, &[(0, 1), (1, 2), (2, 0)], Style::Layered);
    assert!(c[1].1 > c[0].1 && c[2].1 > c[1].1, "{c:?}");
}

#[test]
fn tree_children_stand_right_of_their_parents() {
    let (nodes, edges) = mixed();
    let c = arrange(&nodes, &edges, Style::Tree);
    let f = forest(nodes.len(), &edges.iter().copied().filter(|(a, b)| a != b).collect::<Vec<_>>());
    for (parent, kids) in f.children.iter().enumerate() {
        for &kid in kids {
            assert!(c[kid].0 > c[parent].0, "{kid} is not right of its parent {parent}: {c:?}");
            let gap = (c[kid].0 - nodes[kid].width / 2.0) - (c[parent].0 + nodes[parent].width / 2.0);
            assert!(gap > 0.0, "{kid} starts before its parent {parent} ends");
        }
    }
    // Roots: 0, 8 and the isolated 10 to 13 (nothing points to them), then 5 (the cycle
    // 5→6→7 no root reaches).
    assert_eq!(f.roots, [0, 8, 10, 11, 12, 13, 5]);
    assert_eq!(f.children[0], [1, 2, 9], "9 is claimed by 0 first, breadth first");
}

#[test]
fn a_tree_parent_sits_between_its_children() {
    let nodes = [node(100.0, 40.0), node(80.0, 40.0), node(80.0, 40.0), node(80.0, 40.0)];
    let c = arrange(&nodes, &[(0, 1), (0, 2), (0, 3)], Style::Tree);
    assert!(c[1].1 < c[2].1 && c[2].1 < c[3].1, "children in edge order: {c:?}");
    assert!((c[0].1 - c[2].1).abs() < 1e-9, "the parent is level with the middle child: {c:?}");
    // With every node in a cycle, the first is the root.
    let f = forest(3, &[(1, 2), (2, 0), (0, 1)]);
    assert_eq!((f.roots.as_slice(), f.depth.as_slice()), (&[0][..], &[0, 1, 2][..]));
}

/// A thousand items with six kinds of edges: random graphs with 1,000, 1,500 and 5,000
/// edges (cycles, long edges: the dummy budget and the pivot budget at work), a tree, a
/// chain, none.
fn thousand(seed: u64) -> Vec<Graph> {
    let mut s = seed;
    let mut next = move |m: usize| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % m as u64) as usize
    };
    let n = 1000;
    let nodes: Vec<Node> = (0..n).map(|_| node(20.0 + next(300) as f64, 20.0 + next(200) as f64)).collect();
    let mut graphs: Vec<Vec<(usize, usize)>> =
        [1000, 1500, 5000].iter().map(|&m| (0..m).map(|_| (next(n), next(n))).collect()).collect();
    graphs.push((1..n).map(|v| (next(v), v)).collect());
    graphs.push((1..n).map(|v| (v - 1, v)).collect());
    graphs.push(Vec::new());
    graphs.into_iter().map(|edges| (nodes.clone(), edges)).collect()
}

#[test]
fn a_thousand_items_are_placed_in_time() {
    for (nodes, edges) in thousand(0x9e37_79b9_7f4a_7c15) {
        for style in STYLES {
            let start = std::time::Instant::now();
            let found = problems(&nodes, &edges, style);
            let took = start.elapsed();
            // Generous for a debug build on a busy machine: the worst here takes about a
            // second in debug and a third of one in release.
            assert!(took.as_secs_f64() < 20.0, "{style:?} took {took:?}");
            assert!(found.is_empty(), "{style:?}: {:?}", &found[..found.len().min(3)]);
        }
    }
}

/// Up to 60 items of sizes 5..500 and up to 150 edges among them.
fn graphs() -> impl Strategy<Value = Graph> {
    (1usize..=60).prop_flat_map(|n| {
        (
            prop::collection::vec((5.0f64..500.0, 5.0f64..500.0).prop_map(|(w, h)| node(w, h)), n),
            prop::collection::vec((0..n, 0..n), 0..150),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_graphs_never_panic_nor_overlap((nodes, edges) in graphs()) {
        for style in STYLES {
            let found = problems(&nodes, &edges, style);
            prop_assert!(found.is_empty(), "{:?}: {:?}", style, found);
        }
        // Tree: every child right of its parent, whatever the cycles.
        let c = arrange(&nodes, &edges, Style::Tree);
        let proper: Vec<(usize, usize)> = edges.iter().copied().filter(|(a, b)| a != b).collect();
        for (parent, kids) in forest(nodes.len(), &proper).children.iter().enumerate() {
            prop_assert!(kids.iter().all(|&kid| c[kid].0 > c[parent].0));
        }
        // Layered: with the edges turned into a DAG (lower index to higher), all point down.
        let dag: Vec<(usize, usize)> = proper.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        let c = arrange(&nodes, &dag, Style::Layered);
        prop_assert!(dag.iter().all(|&(a, b)| c[b].1 > c[a].1), "{:?}", dag);
    }
}
