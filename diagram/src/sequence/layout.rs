//! The sequence diagram layout: participants in a row at the top (and a mirror row at the
//! bottom) joined by lifelines, then every step on a band of its own, top to bottom.
//!
//! Columns: each participant's centre is as far right of every earlier one as their boxes, the
//! message texts between them, self messages and notes beside them require (a longest path over
//! those distances, left to right). Frames (`loop`, `alt`…) enclose everything drawn inside
//! them, nested frames included, with a margin; `else`/`and` divide them with a line. A `box`
//! is a group shape around its participants' columns, top row to bottom row. A created
//! participant's box is drawn where its creating message arrives; a destroyed one's lifeline
//! ends at its destroying message with an X, without a bottom box. Activations are bars on the
//! lifeline from the message that starts them to the one that ends them, nested ones moved
//! right; messages start and end at the outermost bar's side.

use super::drawing::{self as draw, Symbol, BAR_STEP, BAR_WIDTH, MESSAGE, MESSAGE_DOTTED};
use super::{NotePlace, SeqEvent, Sequence};
use crate::graph::{Head, Stroke};
use crate::scene::{BoxRole, End, LineKind, Owner, Rect, Scene, SceneBox, SceneLine};
use crate::text::{self, SMALL_FONT_SIZE};

const GAP: f64 = 40.0;
const NOTE_FONT: f64 = 13.0;
const SELF_LOOP: (f64, f64) = (30.0, 22.0);
const FRAME_MARGIN: f64 = 14.0;
const TITLE_BAND: f64 = 26.0;
/// Room a group leaves around its participants.
const GROUP_PAD: f64 = 10.0;

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

fn message_block(t: &str) -> text::Block {
    text::block(t, SMALL_FONT_SIZE, 220.0)
}

fn note_block(t: &str) -> text::Block {
    text::block(t, NOTE_FONT, 160.0)
}

/// The centre x of every participant's column.
fn columns(seq: &Sequence, symbols: &[Symbol]) -> Vec<f64> {
    let n = symbols.len();
    // Least distance between the centres of participants i < j.
    let mut need = vec![vec![0.0_f64; n]; n];
    for i in 0..n.saturating_sub(1) {
        need[i][i + 1] = (symbols[i].width + symbols[i + 1].width) / 2.0 + GAP;
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
                let (w, _) = text::label_size(&message_block(text), SMALL_FONT_SIZE);
                if from == to {
                    if *from + 1 < n {
                        let room = SELF_LOOP.0 + BAR_WIDTH + w + 16.0 + symbols[from + 1].width / 2.0;
                        require(*from, from + 1, room);
                    }
                } else {
                    require(*from, *to, w + GAP + BAR_WIDTH);
                }
            }
            SeqEvent::Note { place: NotePlace::LeftOf(a), text } if *a > 0 => {
                let w = text::label_size(&note_block(text), NOTE_FONT).0;
                require(a - 1, *a, w + 20.0 + symbols[a - 1].width / 2.0);
            }
            SeqEvent::Note { place: NotePlace::RightOf(a), text } if a + 1 < n => {
                let w = text::label_size(&note_block(text), NOTE_FONT).0;
                require(*a, a + 1, w + 20.0 + symbols[a + 1].width / 2.0);
            }
            _ => {}
        }
    }
    let mut x = vec![0.0_f64; n];
    for j in 1..n {
        x[j] = (0..j).map(|i| x[i] + need[i][j]).fold(f64::MIN, f64::max);
    }
    x
}

/// Lays out a sequence diagram.
pub fn layout(seq: &Sequence) -> Scene {
    let n = seq.participants.len();
    let symbols: Vec<Symbol> = seq.participants.iter().map(|p| draw::symbol(p.kind, &p.label)).collect();
    let x = columns(seq, &symbols);
    let destroyed: Vec<bool> =
        (0..n).map(|i| seq.events.iter().any(|e| matches!(e, SeqEvent::Destroy(d) if *d == i))).collect();
    let mut scene = Scene::default();

    // Groups first: a container comes before what it holds.
    let titled = seq.groups.iter().any(|g| !g.members.is_empty() && !g.label.is_empty());
    let row_top = if titled {
        TITLE_BAND + GROUP_PAD
    } else if seq.groups.is_empty() {
        0.0
    } else {
        GROUP_PAD
    };
    let mut group_box = vec![None; n];
    let mut groups = Vec::new();
    for (g, group) in seq.groups.iter().enumerate().filter(|(_, g)| !g.members.is_empty()) {
        let index = scene.boxes.len();
        let lo = group.members.iter().map(|&m| x[m] - symbols[m].width / 2.0).fold(f64::MAX, f64::min) - GROUP_PAD;
        let hi = group.members.iter().map(|&m| x[m] + symbols[m].width / 2.0).fold(f64::MIN, f64::max) + GROUP_PAD;
        let fill = group.color.as_deref().unwrap_or("#00000000");
        let rect = Rect { x: lo, y: 0.0, width: hi - lo, height: 0.0 };
        scene.boxes.push(draw::plain(format!("group:{g}"), BoxRole::Group, rect, fill, "#64748B", None));
        if !group.label.is_empty() {
            let title = text::fit(&group.label, SMALL_FONT_SIZE, (hi - lo - 12.0).max(40.0));
            let (w, h) = text::label_size(&text::block(&title, SMALL_FONT_SIZE, 400.0), SMALL_FONT_SIZE);
            let rect = Rect::centred((lo + hi) / 2.0, 2.0 + h / 2.0, w, h);
            scene.texts.push(draw::text_at(format!("title:group:{g}"), rect, title, Owner::Box(index), true));
        }
        for &m in &group.members {
            group_box[m] = Some(index);
        }
        groups.push(index);
    }

    // Top and bottom rows (the bottom one is moved down at the end), so the lifelines between
    // them are drawn under notes, frames and bars.
    let row_height = symbols.iter().map(|s| s.height).fold(0.0, f64::max);
    let mut top = Vec::with_capacity(n);
    for (i, p) in seq.participants.iter().enumerate() {
        let rect = Rect::centred(x[i], row_top + row_height / 2.0, symbols[i].width, symbols[i].height);
        top.push(scene.boxes.len());
        scene.boxes.push(draw::participant(format!("p:{i}"), Some(p.id.clone()), &symbols[i], rect, group_box[i]));
    }
    let mut bottom = vec![None; n];
    for i in (0..n).filter(|&i| !destroyed[i]) {
        let rect = Rect::centred(x[i], row_height / 2.0, symbols[i].width, symbols[i].height);
        bottom[i] = Some(scene.boxes.len());
        scene.boxes.push(draw::participant(format!("pb:{i}"), None, &symbols[i], rect, group_box[i]));
    }

    let mut y = row_top + row_height + 24.0;
    let mut frames: Vec<Open> = Vec::new();
    let mut notes = 0;
    // Open activations per participant (their start y), and bars drawn.
    let mut active: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut bars = 0;
    // Created participants waiting for their message; destroyed ones waiting for theirs.
    let mut creating = vec![false; n];
    let mut create_at = vec![None; n];
    let mut destroying = vec![false; n];
    let mut ends: Vec<Option<f64>> = vec![None; n];
    // The y of the message just drawn: where an activation after it starts or ends.
    let mut anchor: Option<f64> = None;
    let mut bar = |scene: &mut Scene, p: usize, depth: usize, from: f64, to: f64| {
        let left = x[p] - BAR_WIDTH / 2.0 + depth as f64 * BAR_STEP;
        let rect = Rect { x: left, y: from, width: BAR_WIDTH, height: (to - from).max(10.0) };
        scene.boxes.push(draw::plain(format!("bar:{bars}"), BoxRole::Bar, rect, "#334155", "#CBD5E1", None));
        bars += 1;
    };
    for (k, event) in seq.events.iter().enumerate() {
        let container = frames.last().map(|f| f.index);
        match event {
            SeqEvent::Message { from, to, text, stroke, head, tail } => {
                let (from, to) = (*from, *to);
                let block = message_block(text);
                let (w, h) = text::label_size(&block, SMALL_FONT_SIZE);
                // An activation starting with this message already moves its end to the bar.
                let arriving = usize::from(matches!(seq.events.get(k + 1), Some(SeqEvent::Activate(a)) if *a == to));
                let side = |p: usize, right: bool, extra: usize| {
                    let depth = active[p].len() + extra;
                    match (depth, right) {
                        (0, _) => x[p],
                        (d, true) => x[p] + BAR_WIDTH / 2.0 + (d - 1) as f64 * BAR_STEP,
                        (_, false) => x[p] - BAR_WIDTH / 2.0,
                    }
                };
                let created = [to, from].into_iter().find(|&p| creating[p]);
                let half = created.map_or(0.0, |p| symbols[p].height / 2.0);
                let line_y = y + h.max(half);
                let rightwards = x[to] >= x[from];
                let mut xa = side(from, rightwards || from == to, 0);
                let mut xb = side(to, !rightwards, arriving);
                if let Some(p) = created {
                    let rect = Rect::centred(x[p], line_y, symbols[p].width, symbols[p].height);
                    scene.boxes[top[p]].rect = rect;
                    creating[p] = false;
                    widen(&mut frames, rect.x, rect.right());
                    let edge = if p == to { &mut xb } else { &mut xa };
                    if from != to {
                        let towards_right = if p == to { !rightwards } else { rightwards };
                        *edge = if towards_right { rect.right() } else { rect.x };
                    }
                }
                for p in [from, to] {
                    if destroying[p] {
                        destroying[p] = false;
                        ends[p] = Some(line_y);
                    }
                }
                let label_rect = if from == to {
                    Rect { x: xa + SELF_LOOP.0 + 6.0, y: line_y - h, width: w, height: h }
                } else {
                    Rect::centred((xa + xb) / 2.0, line_y - h / 2.0, w, h)
                };
                let (end, corners, kind) = if from == to {
                    let (dx, dy) = SELF_LOOP;
                    ((xa, line_y + dy), vec![(xa + dx, line_y), (xa + dx, line_y + dy)], LineKind::Angled)
                } else {
                    ((xb, line_y), Vec::new(), LineKind::Straight)
                };
                widen(&mut frames, xa.min(xb).min(label_rect.x), xa.max(xb).max(label_rect.right()));
                let (color, thickness) = if *stroke == Stroke::Dotted { (MESSAGE_DOTTED, 1.5) } else { (MESSAGE, 2.0) };
                let line = scene.lines.len();
                scene.lines.push(SceneLine {
                    key: format!("msg:{line}"),
                    start: End { at: (xa, line_y), attach: None, head: *tail },
                    end: End { at: end, attach: None, head: *head },
                    corners,
                    kind,
                    color: color.into(),
                    thickness,
                    container,
                });
                if !text.is_empty() {
                    let key = format!("label:msg:{line}");
                    scene.texts.push(draw::text_at(key, label_rect, block.text, Owner::Line(line), true));
                }
                anchor = Some(line_y);
                let after = if from == to { SELF_LOOP.1 + 18.0 } else { 18.0 };
                y = line_y + after.max(half + 10.0);
                continue;
            }
            SeqEvent::Activate(p) => {
                active[*p].push(anchor.unwrap_or(y));
                continue;
            }
            SeqEvent::Deactivate(p) => {
                if let Some(start) = active[*p].pop() {
                    let end = anchor.unwrap_or(y).max(start + 10.0);
                    bar(&mut scene, *p, active[*p].len(), start, end);
                    y = y.max(end + 8.0);
                }
                continue;
            }
            SeqEvent::Create(p) => {
                creating[*p] = true;
                create_at[*p] = Some(y);
                continue;
            }
            SeqEvent::Destroy(p) => {
                destroying[*p] = true;
                ends[*p].get_or_insert(y);
                continue;
            }
            SeqEvent::Note { place, text } => {
                let block = note_block(text);
                let (w, h) = text::label_size(&block, NOTE_FONT);
                let (w, h) = (w + 8.0, h + 8.0);
                let rect = match *place {
                    NotePlace::LeftOf(a) => Rect { x: x[a] - 10.0 - BAR_WIDTH / 2.0 - w, y, width: w, height: h },
                    NotePlace::RightOf(a) => Rect { x: x[a] + 10.0 + BAR_WIDTH / 2.0, y, width: w, height: h },
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
            SeqEvent::Open { kind, label, color } => {
                let index = scene.boxes.len();
                let (fill, stroke) = match color {
                    Some(color) => (color.as_str(), "#00000000"),
                    None => ("#00000000", "#94A3B8"),
                };
                let rect = Rect { x: 0.0, y, width: 0.0, height: 0.0 };
                scene.boxes.push(draw::plain(format!("frame:{index}"), BoxRole::Frame, rect, fill, stroke, container));
                if kind != "rect" {
                    let kind = if kind == "par_over" { "par" } else { kind.as_str() };
                    let title = if label.is_empty() { kind.to_owned() } else { format!("{kind}: {label}") };
                    let title = text::fit(&title, SMALL_FONT_SIZE, 320.0);
                    let (w, h) = text::label_size(&text::block(&title, SMALL_FONT_SIZE, 400.0), SMALL_FONT_SIZE);
                    let rect = Rect { x: 0.0, y: y + 2.0, width: w, height: h };
                    scene.texts.push(draw::text_at(
                        format!("title:frame:{index}"),
                        rect,
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
                scene.lines.push(draw::free_line(format!("sep:{line}"), (0.0, y), (0.0, y), "#64748B", 1.0, container));
                let rect = Rect { x: 0.0, y: y + 2.0, width: w, height: h };
                scene.texts.push(draw::text_at(
                    format!("label:sep:{line}"),
                    rect,
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
                let (lo, hi) = close_frame(&mut scene, &frame, y, x[0]);
                y += 18.0;
                widen(&mut frames, lo - 4.0, hi + 4.0);
            }
        }
        anchor = None;
    }
    for (p, starts) in active.iter_mut().enumerate() {
        while let Some(start) = starts.pop() {
            let depth = starts.len();
            bar(&mut scene, p, depth, start, y.max(start + 10.0));
        }
    }
    let low = y + 10.0;
    for i in 0..n {
        if let Some(b) = bottom[i] {
            scene.boxes[b].rect.y += low;
        }
        if creating[i] {
            // Created and never messaged: drawn where it was created.
            let at = create_at[i].unwrap_or(y);
            scene.boxes[top[i]].rect = Rect { x: x[i] - symbols[i].width / 2.0, y: at, ..scene.boxes[top[i]].rect };
        }
    }
    for &g in &groups {
        let rect = &mut scene.boxes[g].rect;
        rect.y = 0.0;
        rect.height = low + row_height + GROUP_PAD;
    }
    for i in 0..n {
        let head = scene.boxes[top[i]].rect;
        let (end, attach) = match (bottom[i], ends[i]) {
            (Some(b), _) => ((x[i], scene.boxes[b].rect.y), Some(b)),
            (None, end) => ((x[i], end.unwrap_or(low).max(head.bottom() + 1.0)), None),
        };
        scene.lines.push(SceneLine {
            key: format!("life:{i}"),
            start: End { at: (x[i], head.bottom()), attach: Some(top[i]), head: Head::None },
            end: End { at: end, attach, head: Head::None },
            corners: Vec::new(),
            kind: LineKind::Straight,
            color: "#475569".into(),
            thickness: 1.5,
            container: None,
        });
        if attach.is_none() {
            draw::cross(&mut scene, i, end);
        }
    }
    if let Some(title) = &seq.title {
        let title = text::fit(title, text::FONT_SIZE, 600.0);
        let block = text::block(&title, text::FONT_SIZE, 640.0);
        let (w, h) = text::label_size(&block, text::FONT_SIZE);
        let centre = (x[0] + x[n - 1]) / 2.0;
        let mut text =
            draw::text_at("title".into(), Rect::centred(centre, -h / 2.0 - 12.0, w, h), block.text, Owner::Free, true);
        text.font_size = text::FONT_SIZE;
        scene.texts.push(text);
    }
    draw::shift_to_origin(&mut scene);
    scene
}

/// Sizes a frame at `end` (the y its `end` was read at) to hold everything drawn inside it, and
/// stretches its dividers across; answers its left and right sides.
fn close_frame(scene: &mut Scene, frame: &Open, end: f64, x0: f64) -> (f64, f64) {
    let (lo, hi) = frame.span.unwrap_or((x0 - 40.0, x0 + 40.0));
    let (lo, hi) = (lo - FRAME_MARGIN, hi + FRAME_MARGIN);
    let owner = Owner::Box(frame.index);
    let title_width = scene.texts.iter().find(|t| t.owner == owner).map_or(0.0, |t| t.rect.width);
    let hi = hi.max(lo + title_width + 12.0);
    scene.boxes[frame.index].rect = Rect { x: lo, y: frame.top, width: hi - lo, height: end + 6.0 - frame.top };
    for text in scene.texts.iter_mut().filter(|t| t.owner == owner) {
        text.rect.x = lo + 6.0;
    }
    for &line in &frame.dividers {
        scene.lines[line].start.at.0 = lo;
        scene.lines[line].end.at.0 = hi;
        for text in scene.texts.iter_mut().filter(|t| t.owner == Owner::Line(line)) {
            text.rect.x = lo + 6.0;
        }
    }
    (lo, hi)
}

#[cfg(test)]
mod tests;
