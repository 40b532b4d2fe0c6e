//! Layout tests of sequence diagrams: where each construct is drawn.

use crate::scene::{BoxRole, Rect, Scene, SceneBox};
use crate::{layout, parse};

fn scene(source: &str) -> Scene {
    layout(&parse(source).unwrap())
}

fn boxed<'a>(s: &'a Scene, key: &str) -> &'a SceneBox {
    s.boxes.iter().find(|b| b.key == key).unwrap_or_else(|| panic!("no {key}"))
}

fn line_y(s: &Scene, index: usize) -> f64 {
    s.lines.iter().filter(|l| l.key.starts_with("msg:")).nth(index).unwrap().start.at.1
}

#[test]
fn participants_left_to_right_and_messages_top_to_bottom() {
    let s = scene("sequenceDiagram\nparticipant A\nparticipant B as A much longer name\nA->>B: first message with text\nB-->>A: second");
    let (a, b) = (boxed(&s, "p:0").rect, boxed(&s, "p:1").rect);
    assert!(a.right() < b.x, "apart");
    let messages: Vec<_> = s.lines.iter().filter(|l| l.key.starts_with("msg:")).collect();
    assert!(messages[0].start.at.1 < messages[1].start.at.1);
    assert!((messages[0].start.at.0 - a.centre().0).abs() < 1e-9 && (messages[0].end.at.0 - b.centre().0).abs() < 1e-9);
    // The text fits between the lifelines.
    let text = &s.texts[0];
    assert!(text.rect.x >= a.centre().0 && text.rect.right() <= b.centre().0);
    // The bottom row mirrors the top one, below everything.
    let bottom = boxed(&s, "pb:0").rect;
    assert!(bottom.y > messages[1].start.at.1 && (bottom.x - a.x).abs() < 1e-9);
    assert_eq!(boxed(&s, "p:1").node_id.as_deref(), Some("B"));
}

#[test]
fn frames_enclose_their_steps_and_nest() {
    let s = scene(
        "sequenceDiagram\nA->>B: out\nloop outer\nA->>B: in\nopt inner\nB->>C: deep\nNote right of C: n\nend\nend",
    );
    let frames: Vec<_> = s.boxes.iter().filter(|b| b.role == BoxRole::Frame).collect();
    let (outer, inner) = (frames[0].rect, frames[1].rect);
    assert!(outer.contains(&inner));
    let note = s.boxes.iter().find(|b| b.role == BoxRole::Note).unwrap();
    assert!(inner.contains(&note.rect));
    let index = s.boxes.iter().position(|b| b.rect == inner).unwrap();
    let deep = s.lines.iter().find(|l| l.container == Some(index)).unwrap();
    assert!(inner.x <= deep.start.at.0.min(deep.end.at.0) && deep.start.at.0.max(deep.end.at.0) <= inner.right());
    assert!(line_y(&s, 0) < outer.y, "the message before the frame is above it");
}

#[test]
fn rect_colours_fill_their_frame() {
    let s = scene("sequenceDiagram\nrect rgb(191, 223, 255)\nA->>B: x\nend\nrect rgba(0, 0, 255, .1)\nA->>B: y\nend");
    let fills: Vec<&str> = s.boxes.iter().filter(|b| b.role == BoxRole::Frame).map(|b| b.fill.as_str()).collect();
    assert_eq!(fills, ["#4DBFDFFF", "#080000FF"]);
}

#[test]
fn groups_hold_their_participants_top_to_bottom() {
    let s = scene(
        "sequenceDiagram\nbox Aqua Front end\nparticipant A\nparticipant B\nend\nparticipant C\nA->>B: x\nB->>C: y",
    );
    let group = s.boxes.iter().position(|b| b.role == BoxRole::Group).unwrap();
    let rect = s.boxes[group].rect;
    for key in ["p:0", "p:1", "pb:0", "pb:1"] {
        let b = boxed(&s, key);
        assert!(rect.contains(&b.rect) && b.container == Some(group), "{key}");
    }
    assert!(!rect.overlaps(&boxed(&s, "p:2").rect));
    assert!(s.boxes[group].fill.starts_with("#4D"), "a tint of Aqua: {}", s.boxes[group].fill);
    let title = s.texts.iter().find(|t| t.key == "title:group:0").unwrap();
    assert!(rect.contains(&title.rect) && title.rect.bottom() <= boxed(&s, "p:0").rect.y);
}

#[test]
fn created_participants_start_at_their_message_and_destroyed_ones_end_with_an_x() {
    let s = scene("sequenceDiagram\nA->>B: before\ncreate participant C\nA->>C: make\nC->>B: work\ndestroy C\nA-xC: stop\nB->>A: after");
    let created = boxed(&s, "p:2").rect;
    let make = s.lines.iter().filter(|l| l.key.starts_with("msg:")).nth(1).unwrap();
    assert!((created.centre().1 - make.end.at.1).abs() < 1e-9, "centred on its creating message");
    assert!((make.end.at.0 - created.x).abs() < 1e-9, "the message ends at the box's side");
    assert!(created.y > line_y(&s, 0));
    assert!(s.boxes.iter().all(|b| b.key != "pb:2"), "no bottom box for a destroyed participant");
    let life = s.lines.iter().find(|l| l.key == "life:2").unwrap();
    assert_eq!(life.end.attach, None);
    assert!((life.end.at.1 - line_y(&s, 3)).abs() < 1e-9, "ends at the destroying message");
    assert!(life.end.at.1 < line_y(&s, 4));
    let cross: Vec<_> = s.lines.iter().filter(|l| l.key.starts_with("x:2:")).collect();
    assert_eq!(cross.len(), 2);
    assert!(s.lines.iter().find(|l| l.key == "life:0").unwrap().end.attach.is_some());
}

#[test]
fn activations_are_bars_on_the_lifeline() {
    let s = scene("sequenceDiagram\nA->>+B: ask\nB->>+B: self\nB-->>-B: done\nB-->>-A: answer\nA->>B: later");
    let bars: Vec<Rect> = s.boxes.iter().filter(|b| b.role == BoxRole::Bar).map(|b| b.rect).collect();
    assert_eq!(bars.len(), 2);
    let x = boxed(&s, "p:1").rect.centre().0;
    let (inner, outer) = (bars[0], bars[1]);
    assert!(outer.x < x && x < outer.right(), "on B's lifeline");
    assert!(inner.x > outer.x, "a nested bar is moved right");
    assert!((outer.y - line_y(&s, 0)).abs() < 1e-9 && (outer.bottom() - line_y(&s, 3)).abs() < 1e-9);
    // The answer leaves from the bar's side, the first message arrives at it.
    let answer = s.lines.iter().filter(|l| l.key.starts_with("msg:")).nth(3).unwrap();
    assert!((answer.start.at.0 - outer.x).abs() < 1e-9);
    let ask = s.lines.iter().find(|l| l.key.starts_with("msg:")).unwrap();
    assert!((ask.end.at.0 - outer.x).abs() < 1e-9);
    // An activation left open runs to the end.
    let s = scene("sequenceDiagram\nA->>+B: ask\nB->>A: more");
    let bar = s.boxes.iter().find(|b| b.role == BoxRole::Bar).unwrap().rect;
    assert!(bar.bottom() >= line_y(&s, 1));
}

#[test]
fn participant_types_are_the_nearest_shapes() {
    let s = scene(
        "sequenceDiagram\nactor A\nparticipant B@{ \"type\": \"boundary\" }\nparticipant D@{ \"type\": \"database\" }\n\
         participant Q@{ \"type\": \"queue\" }\nparticipant L@{ \"type\": \"collections\" }\nparticipant P\ntitle The title",
    );
    let shapes: Vec<&str> = (0..6).map(|i| boxed(&s, &format!("p:{i}")).shape).collect();
    assert_eq!(
        shapes,
        ["Ellipse", "Ellipse", "TwoSameSideRoundCornerRectangle", "RoundedRectangle", "Frame", "RoundedRectangle"]
    );
    let queue = boxed(&s, "p:3");
    assert_eq!(queue.corner_radius, Some(queue.rect.height / 2.0), "a pill");
    let title = s.texts.iter().find(|t| t.key == "title").unwrap();
    assert!(title.rect.bottom() <= boxed(&s, "p:0").rect.y);
}
