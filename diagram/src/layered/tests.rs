//! Unit tests of the layered layout: directions, subgraphs, cycles, labels,
//! self loops, and a graph at the size limits.

use crate::model::Diagram;
use crate::scene::{BoxRole, LineKind, Owner, Rect, Scene};
use crate::{layout, parse};

fn scene(source: &str) -> Scene {
    layout(&parse(source).unwrap_or_else(|e| panic!("{source}: {e}")))
}

fn node(scene: &Scene, id: &str) -> Rect {
    scene.boxes.iter().find(|b| b.key == format!("n:{id}")).unwrap_or_else(|| panic!("no node {id}")).rect
}

fn no_overlaps(scene: &Scene) {
    let nodes: Vec<&Rect> = scene.boxes.iter().filter(|b| b.role == BoxRole::Node).map(|b| &b.rect).collect();
    for (i, a) in nodes.iter().enumerate() {
        for b in &nodes[i + 1..] {
            assert!(!a.grow(-0.5).overlaps(&b.grow(-0.5)), "{a:?} overlaps {b:?}");
        }
    }
}

#[test]
fn ranks_follow_every_direction() {
    for (dir, check) in [
        ("TD", (|a: Rect, b: Rect| b.y >= a.bottom()) as fn(Rect, Rect) -> bool),
        ("BT", |a, b| b.bottom() <= a.y),
        ("LR", |a, b| b.x >= a.right()),
        ("RL", |a, b| b.right() <= a.x),
    ] {
        let s = scene(&format!("flowchart {dir}\nA --> B --> C\nA --> C\nB --> D"));
        no_overlaps(&s);
        for (a, b) in [("A", "B"), ("B", "C"), ("B", "D")] {
            assert!(check(node(&s, a), node(&s, b)), "{dir}: {a} then {b}");
        }
        let origin = s.boxes.iter().fold((f64::MAX, f64::MAX), |m, b| (m.0.min(b.rect.x), m.1.min(b.rect.y)));
        assert_eq!(origin, (0.0, 0.0), "{dir}: the drawing starts at the origin");
    }
}

#[test]
fn a_chain_is_drawn_straight_down() {
    let s = scene("graph TD\nA[One] --> B[Two] --> C[Three]");
    let (a, b, c) = (node(&s, "A"), node(&s, "B"), node(&s, "C"));
    assert!((a.centre().0 - b.centre().0).abs() < 1.0 && (b.centre().0 - c.centre().0).abs() < 1.0);
    assert!(s.lines.iter().all(|l| l.kind == LineKind::Straight && l.corners.is_empty()));
    // Ends sit on the boxes: bottom of the source, top of the target.
    let first = &s.lines[0];
    assert!((first.start.at.1 - a.bottom()).abs() < 1e-6 && (first.end.at.1 - b.y).abs() < 1e-6);
}

#[test]
fn subgraphs_hold_their_nodes_and_nest() {
    let s = scene(
        "flowchart LR\nX --> A\nsubgraph outer [Outer]\nA --> B\nsubgraph inner [Inner]\nB --> C\nend\nend\nC --> Y\nX --> Y",
    );
    no_overlaps(&s);
    let boxes = |key: &str| s.boxes.iter().find(|b| b.key == key).unwrap().rect;
    let (outer, inner) = (boxes("sg:outer"), boxes("sg:inner"));
    assert!(outer.contains(&inner) && inner.contains(&node(&s, "C")) && outer.contains(&node(&s, "A")));
    for outside in ["X", "Y"] {
        assert!(!outer.overlaps(&node(&s, outside)), "{outside} is outside");
    }
    // Titles sit at the top of their box, inside it.
    let title = s.texts.iter().find(|t| t.key == "title:sg:inner").unwrap();
    assert!(inner.contains(&title.rect) && (title.rect.y - inner.y) < 10.0);
}

#[test]
fn cycles_keep_their_direction_and_labels_sit_beside_their_route() {
    for source in ["graph TD\nA --> B\nB -->|again| A\nB --> C", "graph LR\nA --> B\nB -->|again| A\nB --> C"] {
        let s = scene(source);
        let back = s.lines.iter().find(|l| l.key == "edge:1").unwrap();
        let (a, b) = (node(&s, "A"), node(&s, "B"));
        if source.contains("TD") {
            // From B (below) back up to A.
            assert!(
                (back.start.at.1 - b.y).abs() < 1e-6
                    || b.contains(&Rect { x: back.start.at.0, y: back.start.at.1, width: 0.0, height: 0.0 })
            );
            assert!(back.end.at.1 <= a.bottom() + 1e-6);
        }
        // The text stands beside its line: the line does not pass through it, but runs along
        // one of its sides, within a few units.
        let label = s.texts.iter().find(|t| t.owner == Owner::Line(1)).unwrap();
        let route = back.drawn();
        assert!(
            route.windows(2).all(|w| !label.rect.cut_by(w[0], w[1])),
            "{source}: {:?} cuts {:?}",
            route,
            label.rect
        );
        let near = route.windows(2).any(|w| {
            let beside = label.rect.grow(8.0);
            beside.cut_by(w[0], w[1])
        });
        assert!(near, "{source}: the label {:?} is beside {:?}", label.rect, route);
        // The whole drawing is right-angled.
        for line in &s.lines {
            let points = line.points();
            assert!(
                points.windows(2).all(|w| (w[0].0 - w[1].0).abs() < 1e-6 || (w[0].1 - w[1].1).abs() < 1e-6),
                "{source}: {} has a diagonal: {points:?}",
                line.key
            );
        }
    }
}

#[test]
fn self_loops_leave_and_return_to_their_node() {
    let s = scene("graph LR\nA --> A\nA --> B");
    let lp = &s.lines[0];
    assert_eq!((lp.start.attach, lp.end.attach), (Some(0), Some(0)));
    assert_eq!(lp.kind, LineKind::Angled);
    assert_eq!(lp.corners.len(), 2);
    no_overlaps(&s);
}

#[test]
fn invisible_links_shape_the_layout_but_are_not_drawn() {
    let s = scene("graph TD\nA ~~~ B\nA --> C");
    assert_eq!(s.lines.len(), 1);
    assert!(node(&s, "B").y >= node(&s, "A").bottom());
}

#[test]
fn a_graph_at_the_item_limit_lays_out_in_time() {
    // 240 nodes in a chain and an edge from the first to each: long edges everywhere.
    let mut source = String::from("graph TD\n");
    for i in 1..240 {
        source.push_str(&format!("n{} --> n{i}\nn0 --> n{i}\n", i - 1));
    }
    let diagram = parse(&source).unwrap();
    assert!(crate::planned_count(&diagram) <= crate::MAX_ITEMS);
    let started = std::time::Instant::now();
    let s = layout(&diagram);
    assert!(started.elapsed().as_secs() < 60, "took {:?}", started.elapsed());
    no_overlaps(&s);
    let Diagram::Flowchart(chart) = diagram else { unreachable!() };
    assert_eq!(s.lines.len(), chart.edges.len());
}

#[test]
fn empty_subgraphs_are_small_titled_boxes() {
    let s = scene("graph TD\nA --> B\nsubgraph empty [Nothing here]\nend\nsubgraph outer\nsubgraph inner\nend\nend");
    no_overlaps(&s);
    let rect = |key: &str| s.boxes.iter().find(|b| b.key == key).unwrap().rect;
    let (empty, outer, inner) = (rect("sg:empty"), rect("sg:outer"), rect("sg:inner"));
    assert!(empty.width >= 5.0 && empty.height >= 5.0);
    assert!(outer.contains(&inner));
    for id in ["A", "B"] {
        assert!(!empty.overlaps(&node(&s, id)) && !outer.overlaps(&node(&s, id)));
    }
    assert!(!empty.overlaps(&outer));
}

#[test]
fn crossings_counted_as_inversions_match_a_count_of_every_pair() {
    let mut seed = 0x0bad_5eed_1234_5678_u64;
    let mut next = |m: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % m as u64) as usize
    };
    let mut source = String::from("graph TD\n");
    for _ in 0..80 {
        source.push_str(&format!("n{} --> n{}\n", next(30), next(30)));
    }
    let Ok(Diagram::Flowchart(chart)) = parse(&source) else { panic!("{source}") };
    let sizes = vec![(40.0, 30.0); chart.nodes.len()];
    let mut graph = super::build(&chart, &sizes, &vec![None; chart.edges.len()]);
    for _ in 0..20 {
        for layer in &mut graph.layers {
            for i in (1..layer.len()).rev() {
                layer.swap(i, next(i + 1));
            }
        }
        let mut pos = vec![0; graph.nodes.len()];
        for layer in &graph.layers {
            for (i, &v) in layer.iter().enumerate() {
                pos[v] = i;
            }
        }
        let segments: Vec<(usize, usize)> =
            (0..graph.nodes.len()).flat_map(|u| graph.down[u].iter().map(move |&v| (u, v))).collect();
        let pairs = segments
            .iter()
            .enumerate()
            .flat_map(|(i, a)| segments[i + 1..].iter().map(move |b| (a, b)))
            .filter(|((a, b), (c, d))| {
                graph.nodes[*a].rank == graph.nodes[*c].rank
                    && (pos[*a] < pos[*c] && pos[*b] > pos[*d] || pos[*a] > pos[*c] && pos[*b] < pos[*d])
            })
            .count();
        assert_eq!(super::order::crossings(&graph), pairs);
    }
}

/// Links between subgraphs that contradict a link between their nodes (`X --> R --> Y` while a
/// node of `Y` links to a node of `X`): the ranking has no solution with every subgraph link
/// against the whole subgraph, which once left links pointing sideways and a panic in the
/// crossing count (a mutation of OpenTofu's graph diagram, `flowchart/opentofu-opentofu__3.mmd`,
/// which Mermaid accepts). Subgraph links are taken in source order, and one whose span would
/// close a cycle with what is already ranked ranks by its node.
#[test]
fn subgraph_links_contradicting_node_links_still_lay_out() {
    let source = "graph TB\nsubgraph X\n  a-->b\nend\nsubgraph R\nend\nsubgraph Y\n  c-->b\n  b-->d\n  d-->e\n  a-->e\nend\nX-->R\nR-->Y\n";
    let s = scene(source);
    no_overlaps(&s);
    let boxes = |key: &str| s.boxes.iter().find(|b| b.key == key).unwrap_or_else(|| panic!("no {key}")).rect;
    let (x, y) = (boxes("sg:X"), boxes("sg:Y"));
    assert!(x.contains(&node(&s, "a")) && x.contains(&node(&s, "b")));
    assert!(y.contains(&node(&s, "c")) && y.contains(&node(&s, "d")) && y.contains(&node(&s, "e")));
    // `X --> R` by its span contradicts `R --> Y` by its node (R above c, c above b, b in X),
    // so the first falls back to its node and the second keeps its span.
    let r = node(&s, "R");
    assert!(y.y >= r.bottom(), "R --> Y still puts all of Y below R: R {r:?}, Y {y:?}");
    assert!(r.y >= node(&s, "a").bottom(), "X --> R by its node: R below a");
    assert_eq!(s.lines.len(), 7, "every link is drawn");
    // Without the contradiction both subgraph links rank against the whole subgraph.
    let s = scene("graph TB\nsubgraph X\n  a-->b\nend\nsubgraph R\nend\nsubgraph Y\n  c-->d\nend\nX-->R\nR-->Y\n");
    let (x, y, r) = (boxes_of(&s, "sg:X"), boxes_of(&s, "sg:Y"), node(&s, "R"));
    assert!(r.y >= x.bottom() && y.y >= r.bottom(), "X {x:?}, R {r:?}, Y {y:?}");
}

fn boxes_of(scene: &Scene, key: &str) -> Rect {
    scene.boxes.iter().find(|b| b.key == key).unwrap_or_else(|| panic!("no {key}")).rect
}
