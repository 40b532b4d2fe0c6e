//! Finishing touches on a laid-out flowchart: links to and from subgraphs cut at the subgraph's
//! border, and the front matter's title set above the drawing.

use crate::scene::{Owner, Point, Rect, Scene, SceneText};
use crate::text;

/// Font size of a diagram's title.
const TITLE_FONT_SIZE: f64 = 18.0;
/// Space between the title and the drawing.
const TITLE_GAP: f64 = 12.0;

/// `points` (a route starting inside `rect`) from where it leaves `rect` on: the first point
/// becomes that point of the border. A route that never leaves is kept as it is.
pub fn clip_start(points: &[Point], rect: &Rect) -> Vec<Point> {
    let inside = |p: Point| p.0 > rect.x && p.0 < rect.right() && p.1 > rect.y && p.1 < rect.bottom();
    for i in 0..points.len().saturating_sub(1) {
        let (a, b) = (points[i], points[i + 1]);
        if inside(a) && !inside(b) {
            let exit = exit_point(rect, a, b);
            let mut out = vec![exit];
            out.extend(&points[i + 1..]);
            out.dedup_by(|p, q| (p.0 - q.0).abs() < 1e-6 && (p.1 - q.1).abs() < 1e-6);
            if out.len() >= 2 {
                return out;
            }
        }
    }
    points.to_vec()
}

/// Where the segment a→b (a inside, b outside) crosses the border of `rect`.
fn exit_point(rect: &Rect, a: Point, b: Point) -> Point {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let mut t = 1.0_f64;
    if dx > 0.0 {
        t = t.min((rect.right() - a.0) / dx);
    } else if dx < 0.0 {
        t = t.min((rect.x - a.0) / dx);
    }
    if dy > 0.0 {
        t = t.min((rect.bottom() - a.1) / dy);
    } else if dy < 0.0 {
        t = t.min((rect.y - a.1) / dy);
    }
    let t = t.clamp(0.0, 1.0);
    (a.0 + dx * t, a.1 + dy * t)
}

/// Moves everything down and sets `title` centred above it, as a free label.
pub fn add_title(scene: &mut Scene, title: &str) {
    let block = text::block(title, TITLE_FONT_SIZE, 600.0);
    let (w, h) = text::label_size(&block, TITLE_FONT_SIZE);
    let dy = h + TITLE_GAP;
    let width = crate::scene::scene_bounds(scene).0;
    scene.translate(0.0, dy);
    scene.texts.push(SceneText {
        key: "title:diagram".into(),
        rect: Rect { x: ((width - w) / 2.0).max(0.0), y: 0.0, width: w, height: h },
        text: block.text,
        font_size: TITLE_FONT_SIZE,
        owner: Owner::Free,
        color: "#F8FAFC".into(),
        background: "#00000000".into(),
        centred: true,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_is_cut_where_it_leaves_the_box() {
        let rect = Rect { x: 0.0, y: 0.0, width: 100.0, height: 50.0 };
        let route = [(50.0, 20.0), (50.0, 70.0), (150.0, 70.0)];
        assert_eq!(clip_start(&route, &rect), [(50.0, 50.0), (50.0, 70.0), (150.0, 70.0)]);
        let sideways = [(50.0, 20.0), (150.0, 20.0)];
        assert_eq!(clip_start(&sideways, &rect), [(100.0, 20.0), (150.0, 20.0)]);
        let inside = [(10.0, 10.0), (20.0, 10.0)];
        assert_eq!(clip_start(&inside, &rect), inside);
    }
}
