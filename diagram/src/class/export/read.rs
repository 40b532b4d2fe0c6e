//! What a class diagram's items show, read into the parts Mermaid writes: class boxes and
//! lollipop pills, namespaces, notes, relations with their ends and texts, and the direction.
//!
//! How the layout drew them (`class/layout.rs`, `section_boxes.rs`): a class is a `Rectangle`
//! holding one label per compartment (the name, centred, `«annotations»` above it; then the
//! attributes and the methods, left-aligned) and a divider connector between compartments; a
//! lollipop interface a `RoundedRectangle` pill with its name; a namespace a container whose title
//! is a left-aligned label; a note a sticky note. A relation is a connector from the class written
//! first to the second, its end texts (`#CBD5E1`) beside the ends, its label (`#E2E8F0`) midway.

use canvas_vocabulary::items::ItemType;
use std::collections::BTreeMap;

use serde_json::Value;

use super::texts::unwrap;
use crate::class::{Note, RelEnd, Relation};
use crate::export::text::visible;
use crate::export::{given_name, Map};
use crate::text::{FONT_SIZE, SMALL_FONT_SIZE};

// Where the layout wraps compartment texts and relation labels, and the colours it gives end
// texts and relation labels: the layout's own constants, so the reader cannot drift from it.
use crate::layered::{EDGE_TEXT as LABEL_COLOR, EDGE_TEXT_WIDTH as LABEL_WRAP};
use crate::section_boxes::{END_TEXT as END_TEXT_COLOR, MEMBER_WRAP};
/// Where it wraps end texts (`section_boxes::end_text`) and notes (`section_boxes::note_box`).
const END_TEXT_WRAP: f64 = 120.0;
const NOTE_WRAP: f64 = 180.0;

/// A class box or a lollipop pill, as shown.
#[derive(Debug, Clone, Default)]
pub struct ShownClass {
    pub item: usize,
    /// The Mermaid id `names` gives its box.
    pub given: Option<String>,
    pub annotations: Vec<String>,
    /// What its name compartment (or pill) shows; None when that label is gone.
    pub name: Option<String>,
    /// Attribute and method lines, top to bottom.
    pub members: Vec<String>,
    /// A pill: drawn for a lollipop interface.
    pub pill: bool,
    pub namespace: Option<usize>,
    /// Fill, outline, outline width and text colour as drawn.
    pub paint: (String, String, Option<f64>, String),
}

#[derive(Debug, Clone)]
pub struct ShownNamespace {
    pub given: Option<String>,
    pub title: String,
    pub parent: Option<usize>,
}

/// Everything the map shows of the diagram.
#[derive(Debug, Clone, Default)]
pub struct Shown {
    pub classes: Vec<ShownClass>,
    pub namespaces: Vec<ShownNamespace>,
    pub relations: Vec<Relation>,
    pub notes: Vec<Note>,
    /// `TD`, `BT`, `LR` or `RL`.
    pub direction: &'static str,
}

/// What an item is in the diagram.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Part {
    Class(usize),
    Namespace(usize),
    Note(usize),
    Other,
}

/// Reads the diagram the items show. `names` maps item ids to Mermaid ids.
pub fn read(map: &Map<'_>, names: &BTreeMap<String, String>) -> Shown {
    let mut parts = vec![Part::Other; map.len()];
    let mut shown = Shown::default();
    for (i, part) in parts.iter_mut().enumerate() {
        match map.kind(i) {
            Some(ItemType::Shape) if is_namespace(map, i) => {
                *part = Part::Namespace(shown.namespaces.len());
                let title = map.label_of(i).map(|t| lines(t).join(" ")).unwrap_or_default();
                shown.namespaces.push(ShownNamespace { given: given(map, names, i), title, parent: None });
            }
            Some(ItemType::Shape) => {
                *part = Part::Class(shown.classes.len());
                shown.classes.push(class(map, names, i));
            }
            Some(ItemType::StickyNote) => {
                *part = Part::Note(shown.notes.len());
                let text = lines(map.str_prop(i, "text"));
                let text = unwrap(&refs(&text), SMALL_FONT_SIZE, NOTE_WRAP, |_, _| true).join("\n");
                shown.notes.push(Note { text, class: None, namespace: None });
            }
            _ => {}
        }
    }
    let namespace_of = |i: usize| match map.parent(i).map(|p| parts[p]) {
        Some(Part::Namespace(n)) => Some(n),
        _ => None,
    };
    for (i, part) in parts.iter().enumerate() {
        match *part {
            Part::Namespace(n) => shown.namespaces[n].parent = namespace_of(i),
            Part::Class(c) => shown.classes[c].namespace = namespace_of(i),
            Part::Note(k) => shown.notes[k].namespace = namespace_of(i),
            Part::Other => {}
        }
    }
    // A connector end on a class's label counts as on the class.
    let part_at = |c: usize, end: &str| {
        let item = map.attached(c, end)?;
        match parts[item] {
            Part::Other if map.kind(item) == Some(ItemType::Label) => map.parent(item).map(|p| parts[p]),
            part => Some(part),
        }
    };
    let mut pill_taken = vec![false; shown.classes.len()];
    // Links within one container say how the chart runs; links between namespaces run the way
    // the namespaces' blocks are placed, which they count only when nothing else does.
    let (mut votes, mut across) = ([0usize; 4], [0usize; 4]);
    for c in (0..map.len()).filter(|&i| map.kind(i) == Some(ItemType::Connector)) {
        let (from, to) = match (part_at(c, "startPoint"), part_at(c, "endPoint")) {
            (Some(Part::Class(a)), Some(Part::Class(b))) if a != b => (a, b),
            (Some(Part::Class(a)), Some(Part::Note(k))) | (Some(Part::Note(k)), Some(Part::Class(a))) => {
                if shown.notes[k].class.is_none() && !shown.classes[a].pill {
                    shown.notes[k].class = Some(a);
                    let (a, b) = (shown.classes[a].item, note_item(&parts, k));
                    vote(if map.parent(a) == map.parent(b) { &mut votes } else { &mut across }, map, a, b);
                }
                continue;
            }
            _ => continue,
        };
        let (pill_from, pill_to) = (shown.classes[from].pill, shown.classes[to].pill);
        // A pill stands for one lollipop: its first connector to a class; others are left out.
        let lollipop = match (pill_from, pill_to) {
            (false, false) => None,
            (true, false) if !pill_taken[from] => Some(from),
            (false, true) if !pill_taken[to] => Some(to),
            _ => continue,
        };
        let mut relation = relation(map, c, from, to);
        if let Some(pill) = lollipop {
            pill_taken[pill] = true;
            // Mermaid's lollipop has no mark at the class: `bar ()-- Class`.
            (relation.start, relation.end) =
                if pill == from { (RelEnd::Lollipop, RelEnd::None) } else { (RelEnd::None, RelEnd::Lollipop) };
        }
        let (a, b) = (shown.classes[from].item, shown.classes[to].item);
        vote(if map.parent(a) == map.parent(b) { &mut votes } else { &mut across }, map, a, b);
        shown.relations.push(relation);
    }
    // A pill whose lollipop is gone is written as a class of its name.
    for (class, taken) in shown.classes.iter_mut().zip(pill_taken) {
        class.pill &= taken;
    }
    shown.direction = direction(map, &shown, if votes.iter().any(|&v| v > 0) { votes } else { across });
    shown
}

fn note_item(parts: &[Part], k: usize) -> usize {
    parts.iter().position(|p| *p == Part::Note(k)).unwrap_or_default()
}

fn given(map: &Map<'_>, names: &BTreeMap<String, String>, i: usize) -> Option<String> {
    given_name(names, &map.items[i].id).map(str::to_owned)
}

/// A label's text as the reader sees it, in lines.
fn lines(text: &str) -> Vec<String> {
    visible(text).split('\n').map(str::to_owned).filter(|l| !l.is_empty()).collect()
}

fn refs(lines: &[String]) -> Vec<&str> {
    lines.iter().map(String::as_str).collect()
}

fn aligned_left(map: &Map<'_>, label: usize) -> bool {
    map.str_prop(label, "horizontalTextAlignment").eq_ignore_ascii_case("left")
}

/// A container: it holds boxes or notes, or it holds only a title (left-aligned, as no class
/// name is) and no dividers.
fn is_namespace(map: &Map<'_>, i: usize) -> bool {
    if map.str_prop(i, "type").eq_ignore_ascii_case("RoundedRectangle") {
        return false;
    }
    let children = map.children(i);
    let holds = children.iter().any(|&c| matches!(map.kind(c), Some(ItemType::Shape | ItemType::StickyNote)));
    let labels: Vec<usize> = children.iter().copied().filter(|&c| map.kind(c) == Some(ItemType::Label)).collect();
    let dividers = children.iter().any(|&c| map.kind(c) == Some(ItemType::Connector));
    holds || (labels.len() == 1 && !dividers && aligned_left(map, labels[0]))
}

/// A class box (or pill) as shown: its name compartment (the centred label), then its member
/// compartments top to bottom.
fn class(map: &Map<'_>, names: &BTreeMap<String, String>, i: usize) -> ShownClass {
    let pill = map.str_prop(i, "type").eq_ignore_ascii_case("RoundedRectangle");
    let mut labels: Vec<usize> =
        map.children(i).iter().copied().filter(|&c| map.kind(c) == Some(ItemType::Label)).collect();
    labels.sort_by(|&a, &b| map.bounds(a).top().total_cmp(&map.bounds(b).top()));
    let header = labels.iter().position(|&l| pill || !aligned_left(map, l)).map(|at| labels.remove(at));
    let mut shown = ShownClass { item: i, given: given(map, names, i), pill, ..ShownClass::default() };
    if let Some(header) = header {
        let all = lines(map.str_prop(header, "text"));
        let annotated = if pill { 0 } else { all.iter().take_while(|l| annotation(l).is_some()).count() };
        shown.annotations = all[..annotated].iter().filter_map(|l| annotation(l)).collect();
        let name = unwrap(&refs(&all[annotated..]), FONT_SIZE, MEMBER_WRAP, |_, _| true).join("\n");
        shown.name = (!name.is_empty()).then_some(name);
    }
    for label in labels {
        let all = lines(map.str_prop(label, "text"));
        shown.members.extend(unwrap(&refs(&all), SMALL_FONT_SIZE, MEMBER_WRAP, continues));
    }
    let text_color = header.map_or("", |h| map.str_prop(h, "textColor")).to_owned();
    let width = map.props(i).get("strokeThickness").and_then(Value::as_f64);
    shown.paint =
        (map.str_prop(i, "fillColor").to_owned(), map.str_prop(i, "strokeColor").to_owned(), width, text_color);
    shown
}

/// `«text»` (or `<<text>>` as people type it): the annotation's text.
fn annotation(line: &str) -> Option<String> {
    let inner = line.strip_prefix('«').and_then(|l| l.strip_suffix('»'));
    inner.or_else(|| line.strip_prefix("<<").and_then(|l| l.strip_suffix(">>"))).map(str::to_owned)
}

/// Whether a wrapped member line goes on in the next line: not when the next one starts a member
/// of its own (a visibility mark) after a complete one.
fn continues(current: &str, next: &str) -> bool {
    let open = current.matches('(').count() > current.matches(')').count();
    open || !next.starts_with(['+', '-', '#', '~'])
}

/// A connector between two classes as a relation: decorators give the ends, its labels the
/// label and the texts at its ends.
fn relation(map: &Map<'_>, c: usize, from: usize, to: usize) -> Relation {
    let (start_at, end_at) = (map.end_point(c, "startPoint"), map.end_point(c, "endPoint"));
    let middle = ((start_at.0 + end_at.0) / 2.0, (start_at.1 + end_at.1) / 2.0);
    let (mut label, mut start_text, mut end_text) = (Vec::new(), Vec::new(), Vec::new());
    for &l in map.children(c).iter().filter(|&&l| map.kind(l) == Some(ItemType::Label)) {
        let b = map.bounds(l);
        let distance = |p: (f64, f64)| (b.cx - p.0).hypot(b.cy - p.1);
        let near_start = distance(start_at) <= distance(end_at);
        let color = map.str_prop(l, "textColor");
        let at_end = if color.eq_ignore_ascii_case(END_TEXT_COLOR) {
            true
        } else if color.eq_ignore_ascii_case(LABEL_COLOR) {
            false
        } else {
            distance(start_at).min(distance(end_at)) < distance(middle)
        };
        let all = lines(map.str_prop(l, "text"));
        let width = if at_end { END_TEXT_WRAP } else { LABEL_WRAP };
        let text = unwrap(&refs(&all), SMALL_FONT_SIZE, width, |_, _| true).join("\n");
        match (at_end, near_start) {
            (false, _) => label.push(text),
            (true, true) => start_text.push(text),
            (true, false) => end_text.push(text),
        }
    }
    let joined = |texts: Vec<String>| (!texts.is_empty()).then(|| texts.join(" "));
    let thickness = map.props(c).get("strokeThickness").and_then(Value::as_f64).unwrap_or(2.0);
    let (start, start_card) = end_of(map.decorator(c, "startPoint"), joined(start_text));
    let (end, end_card) = end_of(map.decorator(c, "endPoint"), joined(end_text));
    Relation { from, to, start, end, dotted: thickness < 1.5, label: joined(label), start_card, end_card }
}

/// An end's mark from its decorator (a circle's diamond from the text beside it, taken off the
/// cardinality), and the cardinality.
fn end_of(decorator: &str, text: Option<String>) -> (RelEnd, Option<String>) {
    let mark = match decorator.to_ascii_lowercase().as_str() {
        "none" => RelEnd::None,
        "arrow" => RelEnd::Inheritance,
        "circle" => RelEnd::Aggregation,
        _ => RelEnd::Arrow,
    };
    if mark != RelEnd::Aggregation {
        return (mark, text);
    }
    let Some(text) = text else { return (mark, None) };
    let (mark, rest) = match (text.strip_prefix('◆'), text.strip_prefix('◇')) {
        (Some(rest), _) => (RelEnd::Composition, rest),
        (_, Some(rest)) => (RelEnd::Aggregation, rest),
        _ => (RelEnd::Aggregation, text.as_str()),
    };
    let rest = rest.trim();
    (mark, (!rest.is_empty()).then(|| rest.to_owned()))
}

/// Counts a link from box `a` to box `b` for the direction it runs on the map.
fn vote(votes: &mut [usize; 4], map: &Map<'_>, a: usize, b: usize) {
    let (a, b) = (map.bounds(a), map.bounds(b));
    let (dx, dy) = (b.cx - a.cx, b.cy - a.cy);
    if dx == 0.0 && dy == 0.0 {
        return;
    }
    let at = if dy.abs() >= dx.abs() { usize::from(dy < 0.0) } else { 2 + usize::from(dx < 0.0) };
    votes[at] += 1;
}

/// The way most links run (as the flowchart writer guesses it); without links, boxes side by side
/// are a top-down chart's one rank and boxes stacked a left-right one's.
fn direction(map: &Map<'_>, shown: &Shown, votes: [usize; 4]) -> &'static str {
    const NAMES: [&str; 4] = ["TD", "BT", "LR", "RL"];
    if votes.iter().any(|&v| v > 0) {
        let best = (0..4).max_by_key(|&i| (votes[i], std::cmp::Reverse(i))).unwrap_or(0);
        return NAMES[best];
    }
    let top: Vec<_> = shown.classes.iter().filter(|c| c.namespace.is_none()).map(|c| map.bounds(c.item)).collect();
    let spread = |at: &dyn Fn(&crate::export::Bounds) -> f64| {
        let (low, high) = top.iter().map(at).fold((f64::MAX, f64::MIN), |(l, h), v| (l.min(v), h.max(v)));
        (high - low).max(0.0)
    };
    if top.len() > 1 && spread(&|b| b.cy) > spread(&|b| b.cx) {
        "LR"
    } else {
        "TD"
    }
}
