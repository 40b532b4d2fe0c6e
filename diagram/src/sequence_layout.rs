//! The sequence diagram layout: participants in a row at the top (and a
//! mirror row at the bottom) joined by lifelines, then every step on a band
//! of its own, top to bottom.
//!
//! Columns: each participant's centre is as far right of every earlier one
//! as their boxes, the message texts between them, self messages and notes
//! beside them require (a longest path over those distances, left to right).
//! Frames (`loop`, `alt`…) enclose everything drawn inside them, nested
//! frames included, with a margin; `else`/`and` divide them with a line.

use crate::model::{Head, NodeShape, NotePlace, SeqEvent, Sequence, Stroke};
use crate::scene::{BoxRole, End, LineKind, Owner, Point, Rect, Scene, SceneBox, SceneLine, SceneText};
use crate::shapes;
use crate::text::{self, SMALL_FONT_SIZE};

const GAP: f64 = 40.0;
const NOTE_FONT: f64 = 13.0;
const SELF_LOOP: (f64, f64) = (30.0, 22.0);
const FRAME_MARGIN: f64 = 14.0;
const TITLE_BAND: f64 = 26.0;
const MESSAGE: &str = "#E2E8F0";
const MESSAGE_DOTTED: &str = "#94A3B8";

/// A frame being drawn: its box, its left and right extent so far.
struct Open {
    index: usize,
    top: f64,
    span: Option<(f64, f64)>,
    dividers: Vec<usize>,
}

fn widen(frames: &mut [Open], lo: f64, hi: f64) {
    if let Some(frame) = frames.last_mut() {
        frame.span = Some(frame.span.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
    }
}

/// Lays out a sequence diagram.
pub fn layout(seq: &Sequence) -> Scene {
    let n = seq.participants.len();
    let boxes: Vec<(String, f64, f64)> = seq
        .participants
        .iter()
        .map(|p| {
            let b = shapes::node_box(NodeShape::Rectangle, &p.label);
            let (w, h) = if p.actor { (b.width * 1.3, b.height * 1.3) } else { (b.width, b.height) };
            (b.text, w.max(90.0).ceil(), h.max(40.0).ceil())
        })
        .collect();
    let message_text = |t: &str| text::block(t, SMALL_FONT_SIZE, 220.0);
    let note_text = |t: &str| text::block(t, NOTE_FONT, 160.0);
    // Least distance between the centres of participants i < j.
    let mut need = vec![vec![0.0_f64; n]; n];
    for i in 0..n.saturating_sub(1) {
        need[i][i + 1] = (boxes[i].1 + boxes[i + 1].1) / 2.0 + GAP;
    }
    let mut require = |a: usize, b: usize, d: f64| {
        let (i, j) = (a.min(b), a.max(b));
        if i != j {
            need[i][j] = need[i][j].max(d);
        }
    };
    for event in &seq.events {
        match event {
            SeqEvent::Message { from, to, text, .. } => {
                let (w, _) = text::label_size(&message_text(text), SMALL_FONT_SIZE);
                if from == to {
                    if *from + 1 < n {
                        require(*from, from + 1, SELF_LOOP.0 + w + 16.0 + boxes[from + 1].1 / 2.0);
                    }
                } else {
                    require(*from, *to, w + GAP);
                }
            }
            SeqEvent::Note { place: NotePlace::LeftOf(a), text } if *a > 0 => {
                require(a - 1, *a, text::label_size(&note_text(text), NOTE_FONT).0 + 20.0 + boxes[a - 1].1 / 2.0);
            }
            SeqEvent::Note { place: NotePlace::RightOf(a), text } if a + 1 < n => {
                require(*a, a + 1, text::label_size(&note_text(text), NOTE_FONT).0 + 20.0 + boxes[a + 1].1 / 2.0);
            }
            _ => {}
        }
    }
    let mut x = vec![0.0_f64; n];
    for j in 1..n {
        x[j] = (0..j).map(|i| x[i] + need[i][j]).fold(f64::MIN, f64::max);
    }
    let top_height = boxes.iter().map(|b| b.2).fold(0.0, f64::max);
    let mut scene = Scene::default();
    // Top and bottom rows first (the bottom one is moved down at the end), so
    // the lifelines between them are drawn under notes and frames.
    for (row, key) in [(0.0, "p"), (1.0, "pb")] {
        for (i, p) in seq.participants.iter().enumerate() {
            let id = (row == 0.0).then(|| p.id.clone());
            let key = format!("{key}:{}", p.id);
            scene.boxes.push(participant(&key, id, p.actor, &boxes[i], x[i], top_height / 2.0));
        }
    }
    let mut y = top_height + 24.0;
    let mut frames: Vec<Open> = Vec::new();
    let mut notes = 0;
    for event in &seq.events {
        let container = frames.last().map(|f| f.index);
        match event {
            SeqEvent::Message { from, to, text, stroke, head } => {
                let block = message_text(text);
                let (w, h) = text::label_size(&block, SMALL_FONT_SIZE);
                let (xa, xb) = (x[*from], x[*to]);
                let (color, thickness) = if *stroke == Stroke::Dotted { (MESSAGE_DOTTED, 1.5) } else { (MESSAGE, 2.0) };
                let label_rect = if from == to {
                    Rect { x: xa + SELF_LOOP.0 + 6.0, y, width: w, height: h }
                } else {
                    Rect::centred((xa + xb) / 2.0, y + h / 2.0, w, h)
                };
                y += h;
                let (end, corners, kind) = if from == to {
                    let (dx, dy) = SELF_LOOP;
                    ((xa, y + dy), vec![(xa + dx, y), (xa + dx, y + dy)], LineKind::Angled)
                } else {
                    ((xb, y), Vec::new(), LineKind::Straight)
                };
                widen(&mut frames, xa.min(xb).min(label_rect.x), xa.max(xb).max(label_rect.right()));
                let line = scene.lines.len();
                scene.lines.push(SceneLine {
                    key: format!("msg:{line}"),
                    start: End { at: (xa, y), attach: None, head: Head::None },
                    end: End { at: end, attach: None, head: *head },
                    corners,
                    kind,
                    color: color.into(),
                    thickness,
                    container,
                });
                if !text.is_empty() {
                    scene.texts.push(text_at(
                        &format!("label:msg:{line}"),
                        label_rect,
                        block.text,
                        Owner::Line(line),
                        true,
                    ));
                }
                y += if from == to { SELF_LOOP.1 + 18.0 } else { 18.0 };
            }
            SeqEvent::Note { place, text } => {
                let block = note_text(text);
                let (w, h) = text::label_size(&block, NOTE_FONT);
                let (w, h) = (w + 8.0, h + 8.0);
                let rect = match *place {
                    NotePlace::LeftOf(a) => Rect { x: x[a] - 10.0 - w, y, width: w, height: h },
                    NotePlace::RightOf(a) => Rect { x: x[a] + 10.0, y, width: w, height: h },
                    NotePlace::Over(a, b) => {
                        let w = w.max(x[b] - x[a] + 40.0);
                        Rect { x: (x[a] + x[b]) / 2.0 - w / 2.0, y, width: w, height: h }
                    }
                };
                widen(&mut frames, rect.x, rect.right());
                notes += 1;
                scene.boxes.push(SceneBox {
                    key: format!("note:{notes}"),
                    role: BoxRole::Note,
                    rect,
                    shape: "Rectangle",
                    corner_radius: None,
                    text: block.text,
                    font_size: NOTE_FONT,
                    container,
                    node_id: None,
                    fill: String::new(),
                    stroke: String::new(),
                    stroke_width: 0.0,
                    text_color: String::new(),
                });
                y += h + 14.0;
            }
            SeqEvent::Open { kind, label } => {
                let index = scene.boxes.len();
                let (fill, stroke) = if kind == "rect" { ("#1A60A5FA", "#00000000") } else { ("#00000000", "#94A3B8") };
                scene.boxes.push(SceneBox {
                    key: format!("frame:{index}"),
                    role: BoxRole::Frame,
                    rect: Rect { x: 0.0, y, width: 0.0, height: 0.0 },
                    shape: "Rectangle",
                    corner_radius: None,
                    text: String::new(),
                    font_size: SMALL_FONT_SIZE,
                    container,
                    node_id: None,
                    fill: fill.into(),
                    stroke: stroke.into(),
                    stroke_width: 1.5,
                    text_color: MESSAGE.into(),
                });
                if kind != "rect" {
                    let title = if label.is_empty() { kind.clone() } else { format!("{kind}: {label}") };
                    let title = text::fit(&title, SMALL_FONT_SIZE, 320.0);
                    let (w, h) = text::label_size(&text::block(&title, SMALL_FONT_SIZE, 400.0), SMALL_FONT_SIZE);
                    scene.texts.push(text_at(
                        &format!("title:frame:{index}"),
                        Rect { x: 0.0, y: y + 2.0, width: w, height: h },
                        title,
                        Owner::Box(index),
                        false,
                    ));
                }
                frames.push(Open { index, top: y, span: None, dividers: Vec::new() });
                y += TITLE_BAND + 8.0;
            }
            SeqEvent::Divide { label } => {
                let line = scene.lines.len();
                let text = if label.is_empty() { "else".to_owned() } else { format!("[{label}]") };
                let block = text::block(&text::fit(&text, SMALL_FONT_SIZE, 320.0), SMALL_FONT_SIZE, 400.0);
                let (w, h) = text::label_size(&block, SMALL_FONT_SIZE);
                scene.lines.push(separator(line, y, container));
                scene.texts.push(text_at(
                    &format!("label:sep:{line}"),
                    Rect { x: 0.0, y: y + 2.0, width: w, height: h },
                    block.text,
                    Owner::Line(line),
                    false,
                ));
                if let Some(frame) = frames.last_mut() {
                    frame.dividers.push(line);
                }
                y += h + 10.0;
            }
            SeqEvent::Close => {
                let Some(frame) = frames.pop() else { continue };
                let (lo, hi) = frame.span.unwrap_or((x[0] - 40.0, x[0] + 40.0));
                let (lo, hi) = (lo - FRAME_MARGIN, hi + FRAME_MARGIN);
                let title_width =
                    scene.texts.iter().find(|t| t.owner == Owner::Box(frame.index)).map_or(0.0, |t| t.rect.width);
                let hi = hi.max(lo + title_width + 12.0);
                let rect = Rect { x: lo, y: frame.top, width: hi - lo, height: y + 6.0 - frame.top };
                scene.boxes[frame.index].rect = rect;
                for text in scene.texts.iter_mut().filter(|t| t.owner == Owner::Box(frame.index)) {
                    text.rect.x = lo + 6.0;
                }
                for &line in &frame.dividers {
                    scene.lines[line].start.at.0 = lo;
                    scene.lines[line].end.at.0 = hi;
                    for text in scene.texts.iter_mut().filter(|t| t.owner == Owner::Line(line)) {
                        text.rect.x = lo + 6.0;
                    }
                }
                y += 18.0;
                widen(&mut frames, lo - 4.0, hi + 4.0);
            }
        }
    }
    let bottom = y + 10.0;
    let first_bottom = n;
    for i in 0..n {
        scene.boxes[first_bottom + i].rect.y += bottom;
    }
    for (i, &xi) in x.iter().enumerate() {
        let (top, low) = (scene.boxes[i].rect, scene.boxes[first_bottom + i].rect);
        scene.lines.push(SceneLine {
            key: format!("life:{}", seq.participants[i].id),
            start: End { at: (xi, top.bottom()), attach: Some(i), head: Head::None },
            end: End { at: (xi, low.y), attach: Some(first_bottom + i), head: Head::None },
            corners: Vec::new(),
            kind: LineKind::Straight,
            color: "#475569".into(),
            thickness: 1.5,
            container: None,
        });
    }
    shift_to_origin(&mut scene);
    scene
}

fn participant(key: &str, id: Option<String>, actor: bool, b: &(String, f64, f64), cx: f64, cy: f64) -> SceneBox {
    SceneBox {
        key: key.into(),
        role: BoxRole::Participant,
        rect: Rect::centred(cx, cy, b.1, b.2),
        shape: if actor { "Ellipse" } else { "RoundedRectangle" },
        corner_radius: None,
        text: b.0.clone(),
        font_size: text::FONT_SIZE,
        container: None,
        node_id: id,
        fill: if actor { "#3B2F63".into() } else { shapes::NODE_FILL.into() },
        stroke: if actor { "#C4B5FD".into() } else { shapes::NODE_STROKE.into() },
        stroke_width: 2.0,
        text_color: shapes::NODE_TEXT.into(),
    }
}

fn separator(line: usize, y: f64, container: Option<usize>) -> SceneLine {
    SceneLine {
        key: format!("sep:{line}"),
        start: End { at: (0.0, y), attach: None, head: Head::None },
        end: End { at: (0.0, y), attach: None, head: Head::None },
        corners: Vec::new(),
        kind: LineKind::Straight,
        color: "#64748B".into(),
        thickness: 1.0,
        container,
    }
}

fn text_at(key: &str, rect: Rect, text: String, owner: Owner, centred: bool) -> SceneText {
    SceneText {
        key: key.into(),
        rect,
        text,
        font_size: SMALL_FONT_SIZE,
        owner,
        color: MESSAGE.into(),
        background: "#00000000".into(),
        centred,
    }
}

/// Moves everything so the drawing starts at (0, 0).
fn shift_to_origin(scene: &mut Scene) {
    let mut min: Point = (f64::MAX, f64::MAX);
    let mut take = |x: f64, y: f64| min = (min.0.min(x), min.1.min(y));
    scene.boxes.iter().for_each(|b| take(b.rect.x, b.rect.y));
    scene.texts.iter().for_each(|t| take(t.rect.x, t.rect.y));
    scene.lines.iter().flat_map(|l| l.points()).for_each(|(x, y)| take(x, y));
    let (dx, dy) = (-min.0, -min.1);
    let mv = |p: &mut Point| *p = (p.0 + dx, p.1 + dy);
    for b in &mut scene.boxes {
        b.rect.x += dx;
        b.rect.y += dy;
    }
    for t in &mut scene.texts {
        t.rect.x += dx;
        t.rect.y += dy;
    }
    for l in &mut scene.lines {
        mv(&mut l.start.at);
        mv(&mut l.end.at);
        l.corners.iter_mut().for_each(mv);
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::{BoxRole, Scene};
    use crate::{layout, parse};

    fn scene(source: &str) -> Scene {
        layout(&parse(source).unwrap())
    }

    #[test]
    fn participants_left_to_right_and_messages_top_to_bottom() {
        let s = scene("sequenceDiagram\nparticipant A\nparticipant B as A much longer name\nA->>B: first message with text\nB-->>A: second");
        let (a, b) = (s.boxes[0].rect, s.boxes[1].rect);
        assert!(a.right() < b.x, "apart");
        let messages: Vec<_> = s.lines.iter().filter(|l| l.key.starts_with("msg:")).collect();
        assert!(messages[0].start.at.1 < messages[1].start.at.1);
        assert!(
            (messages[0].start.at.0 - a.centre().0).abs() < 1e-9 && (messages[0].end.at.0 - b.centre().0).abs() < 1e-9
        );
        // The text fits between the lifelines.
        let text = &s.texts[0];
        assert!(text.rect.x >= a.centre().0 && text.rect.right() <= b.centre().0);
        // The bottom row mirrors the top one, below everything.
        let bottom = s.boxes.iter().find(|x| x.key == "pb:A").unwrap().rect;
        assert!(bottom.y > messages[1].start.at.1 && (bottom.x - a.x).abs() < 1e-9);
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
        let deep = s
            .lines
            .iter()
            .find(|l| l.container == Some(s.boxes.iter().position(|b| b.rect == inner).unwrap()))
            .unwrap();
        assert!(inner.x <= deep.start.at.0.min(deep.end.at.0) && deep.start.at.0.max(deep.end.at.0) <= inner.right());
        let first = &s.lines.iter().find(|l| l.key.starts_with("msg:")).unwrap();
        assert!(first.start.at.1 < outer.y, "the message before the frame is above it");
    }
}
