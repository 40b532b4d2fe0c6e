//! The mind map layout: the root in the middle, its branches split into a
//! right and a left half (balanced by leaf count), each half a tidy tree
//! growing outwards.
//!
//! Depths are columns (as wide as their widest node, a gap between), so
//! nodes of different depths never meet. Within a half, every subtree is
//! laid out on its own and then stacked against its elder siblings as close
//! as their contours allow, depth by depth (Reingold–Tilford with
//! contours), and a parent sits midway between its first and last child:
//! no two nodes overlap, and each subtree stays compact.
//!
//! Connectors run from the parent's outer side to the child's inner side as
//! S-curves, or right-angled through the gap between columns when a curve
//! would touch another node.

use super::{MindNode, Mindmap};
use crate::node_boxes::{self, NodeBox};
use crate::scene::{BoxRole, End, LineKind, Point, Rect, Scene, SceneBox, SceneLine};
use crate::text::markdown::{self, Rich};
use crate::text::FONT_SIZE;

/// Gap between depth columns.
const COLUMN_GAP: f64 = 56.0;
/// Least gap between nodes of one column.
const ROW_GAP: f64 = 14.0;
/// Branch colours (fill, outline): dark fills for white text, bright outlines.
const BRANCHES: [(&str, &str); 8] = [
    ("#1E3A8A", "#60A5FA"),
    ("#14532D", "#4ADE80"),
    ("#7C2D12", "#FB923C"),
    ("#831843", "#F472B6"),
    ("#134E4A", "#2DD4BF"),
    ("#713F12", "#FACC15"),
    ("#3730A3", "#A5B4FC"),
    ("#7F1D1D", "#F87171"),
];
const ROOT: (&str, &str) = ("#4C1D95", "#C4B5FD");

/// A subtree laid out relative to its root's centre: the y offset of every
/// node in it, and its extent (top, bottom) per depth below its root.
pub(crate) struct Laid {
    /// Every node of the subtree with its offset from the subtree root's centre.
    pub offsets: Vec<(usize, f64)>,
    /// Extent (top, bottom) of the subtree per depth, its root's first.
    pub contour: Vec<(f64, f64)>,
}

/// Lays out the tree under `root` (`children` per node, `heights` the extent of
/// each node across the tree's direction), siblings `gap` apart. Shared with
/// [`crate::arrange`]'s tree, which passes item sizes instead of text sizes.
///
/// Iterative (children before parents) rather than recursive, so a deep chain of
/// a thousand items cannot exhaust a thread's stack.
pub(crate) fn tidy(children: &[Vec<usize>], heights: &[f64], gap: f64, root: usize) -> Laid {
    let mut post = Vec::new();
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        post.push(v);
        stack.extend(&children[v]);
    }
    let mut done: Vec<Option<Laid>> = (0..children.len()).map(|_| None).collect();
    for &v in post.iter().rev() {
        let laid = place_children(children, heights, gap, v, &mut done);
        done[v] = Some(laid);
    }
    done[root].take().unwrap_or(Laid { offsets: vec![(root, 0.0)], contour: vec![(0.0, 0.0)] })
}

/// Stacks the laid-out subtrees of `v`'s children as close as their contours
/// allow, and centres `v` between the first and the last.
fn place_children(children: &[Vec<usize>], heights: &[f64], gap: f64, v: usize, done: &mut [Option<Laid>]) -> Laid {
    let h = heights[v] / 2.0;
    let mut placed: Vec<(f64, Laid)> = Vec::new();
    // The merged contour of the children placed so far, per depth below v's children.
    let mut merged: Vec<(f64, f64)> = Vec::new();
    for &c in &children[v] {
        let Some(laid) = done[c].take() else { continue };
        let shift = if placed.is_empty() {
            0.0
        } else {
            merged.iter().zip(&laid.contour).map(|(above, below)| above.1 + gap - below.0).fold(f64::MIN, f64::max)
        };
        for (depth, &(top, bottom)) in laid.contour.iter().enumerate() {
            let (top, bottom) = (top + shift, bottom + shift);
            match merged.get_mut(depth) {
                Some(m) => *m = (m.0.min(top), m.1.max(bottom)),
                None => merged.push((top, bottom)),
            }
        }
        placed.push((shift, laid));
    }
    let middle = match (placed.first(), placed.last()) {
        (Some(first), Some(last)) => (first.0 + last.0) / 2.0,
        _ => 0.0,
    };
    let mut offsets = vec![(v, 0.0)];
    for (shift, laid) in &placed {
        offsets.extend(laid.offsets.iter().map(|&(n, y)| (n, y + shift - middle)));
    }
    let mut contour = vec![(-h, h)];
    contour.extend(merged.iter().map(|&(t, b)| (t - middle, b - middle)));
    Laid { offsets, contour }
}

/// A node's box; a markdown text with emphasis becomes label HTML, its box a little wider for
/// the bold runs a client may draw wider than the estimate.
fn node_box(node: &MindNode) -> NodeBox {
    let mut b = node_boxes::node_box(node.shape, &node.text);
    if !node.emphasis.is_empty() {
        let rich = Rich { text: node.text.clone(), marks: node.emphasis.clone() };
        b.text = markdown::label_text(&b.text, &rich);
        if node.emphasis.iter().any(|mark| mark & markdown::BOLD != 0) {
            b.width = (b.width * 1.08).ceil();
        }
    }
    b
}

/// Lays out a mind map.
pub fn layout(map: &Mindmap) -> Scene {
    let n = map.nodes.len();
    let boxes: Vec<NodeBox> = map.nodes.iter().map(node_box).collect();
    let heights: Vec<f64> = boxes.iter().map(|b| b.height).collect();
    let root_children = &map.nodes[0].children;
    // Leaves per branch decide the split: the first half (by leaves) goes right.
    let leaves = |v: usize| -> usize {
        let mut count = 0;
        let mut stack = vec![v];
        while let Some(u) = stack.pop() {
            count += usize::from(map.nodes[u].children.is_empty());
            stack.extend(&map.nodes[u].children);
        }
        count
    };
    let total: usize = root_children.iter().map(|&c| leaves(c)).sum();
    let mut right = Vec::new();
    let mut left = Vec::new();
    let mut so_far = 0;
    for &c in root_children {
        if right.is_empty() || root_children.len() < 3 || 2 * so_far < total {
            right.push(c);
        } else {
            left.push(c);
        }
        so_far += leaves(c);
    }
    let mut centre = vec![(0.0, 0.0); n];
    let mut depth = vec![0usize; n];
    let mut branch = vec![usize::MAX; n];
    let root = &boxes[0];
    for (side, sign) in [(&right, 1.0), (&left, -1.0)] {
        if side.is_empty() {
            continue;
        }
        // The half as a tree under a virtual copy of the root holding only this side.
        let mut half: Vec<Vec<usize>> = map.nodes.iter().map(|node| node.children.clone()).collect();
        half[0] = side.to_vec();
        let laid = tidy(&half, &heights, ROW_GAP, 0);
        let mut columns: Vec<f64> = Vec::new();
        let mut stack: Vec<(usize, usize)> = side.iter().map(|&c| (c, 1)).collect();
        while let Some((v, d)) = stack.pop() {
            depth[v] = d;
            if columns.len() < d {
                columns.resize(d, 0.0);
            }
            columns[d - 1] = columns[d - 1].max(boxes[v].width);
            stack.extend(map.nodes[v].children.iter().map(|&c| (c, d + 1)));
        }
        // Inner edge of every column, outwards from the root.
        let mut edge = vec![root.width / 2.0 + COLUMN_GAP];
        for w in &columns {
            let next = edge[edge.len() - 1] + w + COLUMN_GAP;
            edge.push(next);
        }
        for &(v, y) in &laid.offsets {
            if v == 0 {
                continue;
            }
            let inner = edge[depth[v] - 1] + boxes[v].width / 2.0;
            centre[v] = (sign * inner, y);
        }
    }
    for (b, &c) in root_children.iter().enumerate() {
        let mut stack = vec![c];
        while let Some(v) = stack.pop() {
            branch[v] = b;
            stack.extend(&map.nodes[v].children);
        }
    }
    let rects: Vec<Rect> =
        (0..n).map(|v| Rect::centred(centre[v].0, centre[v].1, boxes[v].width, boxes[v].height)).collect();
    let min_x = rects.iter().map(|r| r.x).fold(f64::MAX, f64::min);
    let min_y = rects.iter().map(|r| r.y).fold(f64::MAX, f64::min);
    let rects: Vec<Rect> = rects.iter().map(|r| Rect { x: r.x - min_x, y: r.y - min_y, ..*r }).collect();
    let mut scene = Scene::default();
    for (v, node) in map.nodes.iter().enumerate() {
        let (fill, stroke) = if v == 0 { ROOT } else { BRANCHES[branch[v] % BRANCHES.len()] };
        scene.boxes.push(SceneBox {
            key: format!("n:{v}"),
            role: BoxRole::Node,
            rect: rects[v],
            shape: boxes[v].shape,
            corner_radius: boxes[v].corner_radius,
            text: boxes[v].text.clone(),
            font_size: FONT_SIZE,
            container: None,
            node_id: node.id.clone(),
            fill: fill.into(),
            stroke: stroke.into(),
            stroke_width: 2.0,
            text_color: "#F8FAFC".into(),
        });
    }
    for (p, node) in map.nodes.iter().enumerate() {
        for &c in &node.children {
            let line = connect(&rects, p, c, BRANCHES[branch[c] % BRANCHES.len()].1);
            scene.lines.push(line);
        }
    }
    scene
}

/// The connector from parent `p` to child `c`: a curve when it is clear, else an elbow.
fn connect(rects: &[Rect], p: usize, c: usize, color: &str) -> SceneLine {
    let (rp, rc) = (rects[p], rects[c]);
    let outward = rc.centre().0 > rp.centre().0;
    let start: Point = if outward { (rp.right(), rp.centre().1) } else { (rp.x, rp.centre().1) };
    let end: Point = if outward { (rc.x, rc.centre().1) } else { (rc.right(), rc.centre().1) };
    let mut line = SceneLine {
        key: format!("edge:{c}"),
        start: End { at: start, attach: Some(p), head: crate::graph::Head::None },
        end: End { at: end, attach: Some(c), head: crate::graph::Head::None },
        corners: Vec::new(),
        kind: LineKind::Curved,
        color: color.into(),
        thickness: 2.0,
        container: None,
    };
    let drawn = line.drawn();
    let blocked = rects
        .iter()
        .enumerate()
        .any(|(i, r)| i != p && i != c && drawn.windows(2).any(|w| r.grow(2.0).cut_by(w[0], w[1])));
    if blocked || (start.1 - end.1).abs() < 0.5 {
        // Through the middle of the gap before the child's column.
        let x = if outward { end.0 - COLUMN_GAP / 2.0 } else { end.0 + COLUMN_GAP / 2.0 };
        if (start.1 - end.1).abs() < 0.5 {
            line.kind = LineKind::Straight;
        } else {
            line.kind = LineKind::Angled;
            line.corners = vec![(x, start.1), (x, end.1)];
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use crate::scene::{LineKind, Scene};
    use crate::{layout, parse};

    fn scene(source: &str) -> Scene {
        layout(&parse(source).unwrap())
    }

    #[test]
    fn branches_grow_on_both_sides_without_overlap() {
        let s = scene("mindmap\n root((R))\n  a\n   a1\n   a2\n  b\n   b1\n  c\n   c1\n   c2\n  d\n   d1");
        let root = s.boxes[0].rect.centre().0;
        let side = |i: usize| s.boxes[i].rect.centre().0 > root;
        assert!(side(1) && !side(s.boxes.len() - 1), "first branch right, last branch left");
        for (i, a) in s.boxes.iter().enumerate() {
            for b in &s.boxes[i + 1..] {
                assert!(!a.rect.overlaps(&b.rect), "{} overlaps {}", a.key, b.key);
            }
        }
        // Parents sit between their children, children one column further out.
        let (a, a1, a2) = (s.boxes[1].rect, s.boxes[2].rect, s.boxes[3].rect);
        assert!(a1.centre().1 < a.centre().1 && a.centre().1 < a2.centre().1);
        assert!(a1.x > a.right());
    }

    #[test]
    fn connectors_join_parent_and_child_without_decorators() {
        let s = scene("mindmap\n root\n  only child");
        assert_eq!(s.lines.len(), 1);
        let line = &s.lines[0];
        assert_eq!((line.start.attach, line.end.attach), (Some(0), Some(1)));
        assert_eq!(line.start.head, crate::graph::Head::None);
        assert!(matches!(line.kind, LineKind::Straight | LineKind::Curved));
        assert!((line.start.at.0 - s.boxes[0].rect.right()).abs() < 1e-9);
    }
}
