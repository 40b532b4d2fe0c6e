//! A sequence diagram drawn by this crate, read back from its items as they are now.
//!
//! What the layout drew ([`crate::to_items`]): a box per participant at the top and its mirror
//! at the bottom joined by a vertical lifeline connector; messages as connectors with free ends
//! on the lifelines (a label child holds the text); notes as sticky notes; frames (`loop`, `alt`…)
//! as containers holding what happens inside them, titled `kind: label`, with a divider line per
//! `else`/`and`/`option`. Read back:
//! - participants: the box at the top of each lifeline, and any shape `names` names; left to
//!   right. An ellipse is an `actor`. The id is the given name, else the box's text when that is a
//!   safe id, else one made from the item id.
//! - messages: connectors whose ends are on lifelines (within a few units) or attached to
//!   participant boxes; dotted when thinner than 1.75; the end decorator gives the arrow.
//! - notes: sticky notes, placed by the lifelines they cover (`over`), else the nearest lifeline
//!   on their left (`right of`) or right (`left of`).
//! - frames: shapes holding items or titled at their top; the kind from the title, `rect` (with
//!   the fill as its colour) when untitled; dividers are the lines inside them that are not
//!   messages.
//!
//! Everything else (other shapes, free labels, connectors off the lifelines) is left out. Steps
//! are ordered top to bottom within their frame, so frames always nest as the map holds them.

use canvas_vocabulary::items::ItemType;
use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::Value;

use crate::export::ids::{Grammar, Ids};
use crate::export::text::{mermaid, visible, Place};
use crate::export::{given_name, Map, MapItem};

/// How far (map units) a message end may be from a lifeline and still be on it.
const ON_LIFELINE: f64 = 10.0;
/// The frame kinds and the keyword that divides each (None: not divided).
const FRAMES: &[(&str, Option<&str>)] = &[
    ("loop", None),
    ("alt", Some("else")),
    ("opt", None),
    ("par", Some("and")),
    ("critical", Some("option")),
    ("break", None),
];

/// One step, with the y it is ordered by.
enum Step {
    Message { from: usize, to: usize, connector: usize },
    Note { item: usize },
    Frame { item: usize },
    Divider { connector: usize },
}

/// The sequence diagram drawn by canvas-diagram, read back from its items as they are now
/// (texts changed, items deleted, connectors added). `names` maps a participant's top box id to
/// its Mermaid id.
pub fn export_sequence(items: &[MapItem], names: &BTreeMap<String, String>) -> String {
    let map = Map::new(items);
    let shapes: Vec<usize> = (0..map.len()).filter(|&i| map.kind(i) == Some(ItemType::Shape)).collect();
    // Lifelines: vertical connectors going down from a shape they are attached to.
    let mut lifelines = Vec::new();
    let mut tops: Vec<usize> = Vec::new();
    let mut mirrors: Vec<usize> = Vec::new();
    for c in (0..map.len()).filter(|&i| map.kind(i) == Some(ItemType::Connector)) {
        let Some(top) = map.attached(c, "startPoint").filter(|&s| map.kind(s) == Some(ItemType::Shape)) else {
            continue;
        };
        let (s, e) = (map.end_point(c, "startPoint"), map.end_point(c, "endPoint"));
        if (s.0 - e.0).abs() < 1.0 && e.1 > s.1 && map.label_of(c).is_none() {
            lifelines.push(c);
            if !tops.contains(&top) {
                tops.push(top);
            }
            mirrors.extend(map.attached(c, "endPoint"));
        }
    }
    for &s in &shapes {
        if names.contains_key(&map.items[s].id) && !tops.contains(&s) && !mirrors.contains(&s) {
            tops.push(s);
        }
    }
    // A `box` group holds participants; a frame holds what happens.
    let groups: Vec<usize> =
        shapes.iter().copied().filter(|&s| map.children(s).iter().any(|c| tops.contains(c))).collect();
    let frames: Vec<usize> =
        shapes.iter().copied().filter(|&s| !tops.contains(&s) && !groups.contains(&s) && is_frame(&map, s)).collect();
    tops.sort_by(|&a, &b| map.bounds(a).cx.total_cmp(&map.bounds(b).cx));
    let xs: Vec<f64> = tops.iter().map(|&t| map.bounds(t).cx).collect();
    let participant_at = |c: usize, end: &str| -> Option<usize> {
        if let Some(item) = map.attached(c, end) {
            if let Some(p) = tops.iter().position(|&t| t == item) {
                return Some(p);
            }
            if mirrors.contains(&item) {
                let x = map.bounds(item).cx;
                return xs.iter().position(|&px| (px - x).abs() < ON_LIFELINE);
            }
        }
        let (x, y) = map.end_point(c, end);
        xs.iter().position(|&px| (px - x).abs() < ON_LIFELINE).or_else(|| {
            // A message ending at the side of a participant's box (the one `create` draws late).
            tops.iter().position(|&t| {
                let b = map.bounds(t);
                (b.left() - ON_LIFELINE..=b.right() + ON_LIFELINE).contains(&x)
                    && (b.top() - ON_LIFELINE..=b.cy + b.half_h + ON_LIFELINE).contains(&y)
            })
        })
    };
    // Steps and the frame (or None) each belongs to.
    let mut steps: Vec<(Option<usize>, f64, Step)> = Vec::new();
    let frame_of = |i: usize| map.parent(i).filter(|p| frames.contains(p));
    for i in 0..map.len() {
        let step = match map.kind(i) {
            Some(ItemType::Connector) if !lifelines.contains(&i) => {
                let (s, e) = (map.end_point(i, "startPoint"), map.end_point(i, "endPoint"));
                match (participant_at(i, "startPoint"), participant_at(i, "endPoint")) {
                    // The X closing a destroyed lifeline: two short diagonals without text.
                    (Some(from), Some(to)) if from == to && (s.0 - e.0).abs() > 1.0 && map.label_of(i).is_none() => {
                        None
                    }
                    (Some(from), Some(to)) => Some((s.1.min(e.1), Step::Message { from, to, connector: i })),
                    _ if frame_of(i).is_some() && (s.1 - e.1).abs() < 2.0 => {
                        Some((s.1, Step::Divider { connector: i }))
                    }
                    _ => None,
                }
            }
            Some(ItemType::StickyNote) => Some((map.bounds(i).top(), Step::Note { item: i })),
            Some(ItemType::Shape) if frames.contains(&i) => Some((map.bounds(i).top(), Step::Frame { item: i })),
            _ => None,
        };
        if let Some((y, step)) = step {
            steps.push((frame_of(i), y, step));
        }
    }
    let mut ids = Ids::new(Grammar::Sequence);
    let mut participant_ids: Vec<Option<String>> =
        tops.iter().map(|&t| ids.reserve(given_name(names, &map.items[t].id))).collect();
    for (p, &t) in tops.iter().enumerate() {
        if participant_ids[p].is_none() {
            let label = visible(map.label_of(t).unwrap_or(""));
            participant_ids[p] = Some(ids.reserve(Some(&label)).unwrap_or_else(|| ids.generate("p", &map.items[t].id)));
        }
    }
    let pid = |p: usize| participant_ids[p].clone().unwrap_or_default();
    let mut out = String::from("sequenceDiagram\n");
    let mut open_group: Option<usize> = None;
    for (p, &t) in tops.iter().enumerate() {
        let group = map.parent(t).filter(|g| groups.contains(g));
        if group != open_group {
            if open_group.is_some() {
                out.push_str("    end\n");
            }
            if let Some(g) = group {
                let title = mermaid(map.label_of(g).unwrap_or(""), Place::Line, false);
                let _ = writeln!(out, "    box {title}");
            }
            open_group = group;
        }
        let keyword = if map.str_prop(t, "type").eq_ignore_ascii_case("ellipse") { "actor" } else { "participant" };
        let label = mermaid(map.label_of(t).unwrap_or(""), Place::Line, false);
        let id = pid(p);
        if label.is_empty() || label == id {
            let _ = writeln!(out, "    {keyword} {id}");
        } else {
            let _ = writeln!(out, "    {keyword} {id} as {label}");
        }
    }
    if open_group.is_some() {
        out.push_str("    end\n");
    }
    let writer = Writer { map: &map, xs: &xs, pid: &pid, steps: &steps };
    writer.frame(None, None, 1, &mut out);
    out
}

/// A shape that holds items, or whose only label is a title at its top.
fn is_frame(map: &Map<'_>, shape: usize) -> bool {
    if map.children(shape).iter().any(|&c| map.kind(c) != Some(ItemType::Label)) {
        return true;
    }
    let Some(&label) = map.children(shape).iter().find(|&&c| map.kind(c) == Some(ItemType::Label)) else {
        return false;
    };
    let (s, l) = (map.bounds(shape), map.bounds(label));
    l.half_h * 2.0 < s.half_h && l.cy < s.cy
}

struct Writer<'w, 'a> {
    map: &'w Map<'a>,
    xs: &'w [f64],
    pid: &'w dyn Fn(usize) -> String,
    steps: &'w [(Option<usize>, f64, Step)],
}

impl Writer<'_, '_> {
    /// The steps of `frame` (None: the top level) in order, nested frames written in place.
    fn frame(&self, frame: Option<usize>, divider: Option<&str>, depth: usize, out: &mut String) {
        let mut mine: Vec<(f64, usize)> =
            self.steps.iter().enumerate().filter(|(_, s)| s.0 == frame).map(|(i, s)| (s.1, i)).collect();
        mine.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let indent = "    ".repeat(depth);
        let map = self.map;
        for (_, index) in mine {
            match &self.steps[index].2 {
                Step::Message { from, to, connector } => {
                    let dotted =
                        map.props(*connector).get("strokeThickness").and_then(Value::as_f64).unwrap_or(2.0) < 1.75;
                    let head = match map.decorator(*connector, "endPoint").to_ascii_lowercase().as_str() {
                        "none" => "",
                        "arrowline" => ")",
                        _ => ">>",
                    };
                    let arrow =
                        format!("-{}{}", if dotted { "-" } else { "" }, if head.is_empty() { ">" } else { head });
                    let text = mermaid(map.label_of(*connector).unwrap_or(""), Place::Line, false);
                    let (a, b) = ((self.pid)(*from), (self.pid)(*to));
                    let _ = writeln!(out, "{indent}{a}{arrow}{b}: {text}");
                }
                Step::Note { item } => {
                    let place = self.note_place(*item);
                    let text = mermaid(map.str_prop(*item, "text"), Place::Line, false);
                    if let Some(place) = place {
                        let _ = writeln!(out, "{indent}Note {place}: {text}");
                    }
                }
                Step::Frame { item } => {
                    let title = visible(map.label_of(*item).unwrap_or(""));
                    let (kind, label) = match title.split_once(':') {
                        Some((k, rest)) if FRAMES.iter().any(|f| f.0 == k.trim()) => {
                            (k.trim().to_owned(), rest.trim().to_owned())
                        }
                        _ if FRAMES.iter().any(|f| f.0 == title.trim()) => (title.trim().to_owned(), String::new()),
                        _ if title.trim().is_empty() => ("rect".to_owned(), String::new()),
                        _ => ("opt".to_owned(), title.clone()),
                    };
                    let divides = FRAMES.iter().find(|f| f.0 == kind).and_then(|f| f.1);
                    if kind == "rect" {
                        let _ = writeln!(out, "{indent}rect {}", rgba(map.str_prop(*item, "fillColor")));
                    } else {
                        let label = mermaid(&label, Place::Line, false);
                        let _ = writeln!(out, "{indent}{kind} {label}").map(|_| trim_end(out));
                    }
                    self.frame(Some(*item), divides, depth + 1, out);
                    let _ = writeln!(out, "{indent}end");
                }
                Step::Divider { connector } => {
                    let Some(keyword) = divider else { continue };
                    let text = visible(map.label_of(*connector).unwrap_or(""));
                    let text = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')).unwrap_or(&text);
                    let text = if text == "else" { "" } else { text };
                    let _ =
                        writeln!(out, "{}{keyword} {}", "    ".repeat(depth - 1), mermaid(text, Place::Line, false))
                            .map(|_| trim_end(out));
                }
            }
        }
    }

    /// `over A`, `over A,B`, `right of A` or `left of A` for a note's box; None when there are
    /// no participants.
    fn note_place(&self, note: usize) -> Option<String> {
        let b = self.map.bounds(note);
        let covered: Vec<usize> =
            (0..self.xs.len()).filter(|&p| self.xs[p] >= b.left() && self.xs[p] <= b.right()).collect();
        if let (Some(&first), Some(&last)) = (covered.first(), covered.last()) {
            // The widest run of covered lifelines centred under the note (a note over one
            // participant may be wider than the gap to the next).
            let mut best = (first, first);
            let mut best_off = f64::MAX;
            for &i in &covered {
                for &j in covered.iter().filter(|&&j| j >= i) {
                    let off = ((self.xs[i] + self.xs[j]) / 2.0 - b.cx).abs();
                    if off + 1e-6 < best_off || (off <= best_off + 1e-6 && j - i > best.1 - best.0) {
                        best = (i, j);
                        best_off = off;
                    }
                }
            }
            let _ = last;
            let (i, j) = best;
            return Some(if i == j {
                format!("over {}", (self.pid)(i))
            } else {
                format!("over {},{}", (self.pid)(i), (self.pid)(j))
            });
        }
        let left =
            (0..self.xs.len()).filter(|&p| self.xs[p] < b.left()).max_by(|&a, &c| self.xs[a].total_cmp(&self.xs[c]));
        let right = (0..self.xs.len()).find(|&p| self.xs[p] > b.right());
        match (left, right) {
            (Some(l), Some(r)) if (b.left() - self.xs[l]) > (self.xs[r] - b.right()) => {
                Some(format!("left of {}", (self.pid)(r)))
            }
            (Some(l), _) => Some(format!("right of {}", (self.pid)(l))),
            (None, Some(r)) => Some(format!("left of {}", (self.pid)(r))),
            (None, None) => None,
        }
    }
}

/// A line written with a trailing space (an empty label) loses it.
fn trim_end(out: &mut String) {
    let body = out.trim_end_matches('\n').trim_end().len();
    out.truncate(body);
    out.push('\n');
}

/// A `#RRGGBB`/`#AARRGGBB`/`#RGB` fill as CSS `rgba(…)`; a faint blue when it is none of those.
fn rgba(fill: &str) -> String {
    let hex = fill.trim().trim_start_matches('#');
    let digits: Option<Vec<u8>> = match hex.len() {
        3 => hex.chars().map(|c| c.to_digit(16).map(|d| (d * 17) as u8)).collect(),
        6 | 8 if hex.is_ascii() => {
            (0..hex.len() / 2).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()).collect()
        }
        _ => None,
    };
    let (a, r, g, b) = match digits.as_deref() {
        Some([r, g, b]) => (255, *r, *g, *b),
        Some([a, r, g, b]) => (*a, *r, *g, *b),
        _ => (26, 96, 165, 250),
    };
    format!("rgba({r}, {g}, {b}, {:.2})", f64::from(a) / 255.0)
}
