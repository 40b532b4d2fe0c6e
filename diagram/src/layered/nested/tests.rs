//! `direction` inside subgraphs: laid out apart when linked only by their border, following the
//! chart otherwise; checked on small charts and on a real one (Temporal's design docs).

use std::collections::HashSet;

use crate::scene::{BoxRole, Rect, Scene};
use crate::{layout, parse};

fn scene(source: &str) -> Scene {
    layout(&parse(source).unwrap_or_else(|e| panic!("{source}: {e}")))
}

fn rect(scene: &Scene, key: &str) -> Rect {
    scene.boxes.iter().find(|b| b.key == key).unwrap_or_else(|| panic!("no box {key}")).rect
}

fn index(scene: &Scene, key: &str) -> usize {
    scene.boxes.iter().position(|b| b.key == key).unwrap_or_else(|| panic!("no box {key}"))
}

/// What every scene keeps: unique keys; each box inside its container, which comes before it;
/// nodes apart; attachments and owners pointing at real boxes and lines.
fn holds_together(s: &Scene) {
    let keys: Vec<&str> = s
        .boxes
        .iter()
        .map(|b| b.key.as_str())
        .chain(s.lines.iter().map(|l| l.key.as_str()))
        .chain(s.texts.iter().map(|t| t.key.as_str()))
        .collect();
    assert_eq!(keys.iter().collect::<HashSet<_>>().len(), keys.len(), "keys are unique: {keys:?}");
    for (at, b) in s.boxes.iter().enumerate() {
        if let Some(c) = b.container {
            assert!(c < at, "{}: its container comes first", b.key);
            assert!(
                s.boxes[c].rect.grow(0.5).contains(&b.rect),
                "{} {:?} lies in {} {:?}",
                b.key,
                b.rect,
                s.boxes[c].key,
                s.boxes[c].rect
            );
        }
    }
    let nodes: Vec<&Rect> = s.boxes.iter().filter(|b| b.role == BoxRole::Node).map(|b| &b.rect).collect();
    for (i, a) in nodes.iter().enumerate() {
        for b in &nodes[i + 1..] {
            assert!(!a.grow(-0.5).overlaps(&b.grow(-0.5)), "{a:?} overlaps {b:?}");
        }
    }
    for line in &s.lines {
        for end in [line.start, line.end] {
            assert!(end.attach.is_some_and(|a| a < s.boxes.len()), "{} attached to a box", line.key);
        }
        assert!(line.container.is_none_or(|c| c < s.boxes.len()));
    }
    for (at, line) in s.lines.iter().enumerate() {
        assert_eq!(line.key, format!("edge:{}", line.key[5..].parse::<usize>().unwrap()));
        if at > 0 {
            let before: usize = s.lines[at - 1].key[5..].parse().unwrap();
            assert!(before < line.key[5..].parse().unwrap(), "lines in edge order");
        }
    }
    for t in &s.texts {
        match t.owner {
            crate::scene::Owner::Box(b) => {
                assert!(b < s.boxes.len() && s.boxes[b].role == BoxRole::Container, "{}", t.key)
            }
            crate::scene::Owner::Line(l) => assert_eq!(t.key, format!("label:{}", s.lines[l].key)),
            crate::scene::Owner::Free => {}
        }
    }
}

fn left_to_right(s: &Scene, keys: &[&str]) {
    for pair in keys.windows(2) {
        let (a, b) = (rect(s, pair[0]), rect(s, pair[1]));
        assert!(
            b.x >= a.right() && (a.centre().1 - b.centre().1).abs() < 1.0,
            "{} then {} in a row: {a:?} {b:?}",
            pair[0],
            pair[1]
        );
    }
}

fn top_down(s: &Scene, keys: &[&str]) {
    for pair in keys.windows(2) {
        let (a, b) = (rect(s, pair[0]), rect(s, pair[1]));
        assert!(b.y >= a.bottom(), "{} above {}: {a:?} {b:?}", pair[0], pair[1]);
    }
}

#[test]
fn a_subgraph_with_its_own_direction_is_laid_out_that_way() {
    let s = scene("flowchart TD\nX --> S\nsubgraph S [Side by side]\ndirection LR\nA -->|one| B --> C\nend\nS --> Y");
    holds_together(&s);
    left_to_right(&s, &["n:A", "n:B", "n:C"]);
    // The chart around it still runs top to bottom, through the subgraph's box.
    let sub = rect(&s, "sg:S");
    top_down(&s, &["n:X", "sg:S", "n:Y"]);
    for key in ["n:A", "n:B", "n:C"] {
        assert!(sub.contains(&rect(&s, key)));
    }
    // The links to and from the subgraph end on its border, attached to it.
    let container = index(&s, "sg:S");
    let (into, out) = (&s.lines[0], &s.lines[3]);
    assert_eq!((into.key.as_str(), into.end.attach), ("edge:0", Some(container)));
    assert_eq!((out.key.as_str(), out.start.attach), ("edge:3", Some(container)));
    assert!((into.end.at.1 - sub.y).abs() < 1e-6 && (out.start.at.1 - sub.bottom()).abs() < 1e-6);
    // The edge text inside the part belongs to its line.
    let label = s.texts.iter().find(|t| t.key == "label:edge:1").expect("the edge text");
    assert_eq!(label.owner, crate::scene::Owner::Line(1));
    let title = s.texts.iter().find(|t| t.key == "title:sg:S").expect("the title");
    assert!(title.rect.y >= sub.y && title.rect.bottom() <= rect(&s, "n:A").y, "the title sits above the part");
}

#[test]
fn a_subgraph_linked_across_its_border_follows_the_chart() {
    // Mermaid: "If any of a subgraph's nodes are linked to the outside, subgraph direction will
    // be ignored."
    let s = scene("flowchart TD\nsubgraph S\ndirection LR\nA --> B\nend\nX --> A");
    holds_together(&s);
    top_down(&s, &["n:X", "n:A", "n:B"]);
    // So does one whose direction is the chart's.
    let s = scene("flowchart LR\nsubgraph S\ndirection LR\nA --> B\nend");
    left_to_right(&s, &["n:A", "n:B"]);
}

#[test]
fn turned_subgraphs_nest_and_keep_the_source_order() {
    let s = scene(
        "flowchart LR\nstart --> L\nsubgraph L [Outer]\ndirection TB\nsubgraph I [Inner]\ndirection LR\na --> b\nend\nc --> d\nI --> c\nend\nL --> stop",
    );
    holds_together(&s);
    left_to_right(&s, &["n:a", "n:b"]);
    top_down(&s, &["sg:I", "n:c", "n:d"]);
    left_to_right(&s, &["n:start", "sg:L", "n:stop"]);
    // Subgraphs first, then nodes, each in source order: the flat layout's order.
    let keys: Vec<&str> = s.boxes.iter().map(|b| b.key.as_str()).collect();
    assert_eq!(keys, ["sg:L", "sg:I", "n:start", "n:a", "n:b", "n:c", "n:d", "n:stop"]);
    assert_eq!(s.boxes[1].container, Some(0));
    assert_eq!(s.boxes[3].container, Some(1));
}

#[test]
fn temporal_s_workflow_history_runs_down_beside_its_queues() {
    // tests/mermaid-corpus/flowchart/temporalio-temporal__4.mmd (SOURCES.json): an LR chart of
    // two subgraphs set TB, one holding subgraphs set LR, joined by invisible links.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/mermaid-corpus/flowchart/temporalio-temporal__4.mmd");
    let source = std::fs::read_to_string(path).expect("the corpus file");
    let s = scene(&source);
    holds_together(&s);
    top_down(&s, &["n:e1", "n:e2", "n:e3", "n:e4", "n:e5", "n:e6"]);
    top_down(&s, &["n:ms1", "n:ms2"]);
    left_to_right(&s, &["n:timer1", "n:timer2"]);
    top_down(&s, &["sg:ms", "sg:transferQ", "sg:timerQ"]);
    left_to_right(&s, &["sg:left", "sg:history"]);
}
