//! The map read as a state diagram: which item is which state, what holds what, which connectors
//! are transitions and which sticky note is about which state. Nothing here writes Mermaid.

use canvas_vocabulary::items::ItemType;
use std::collections::BTreeMap;

use serde_json::Value;

use super::names::StateIds;
use crate::export::text::visible;
use crate::export::{given_name, Map};
use crate::graph::NodeShape;
use crate::node_boxes;
use crate::section_boxes::{self, Section};
use crate::state::StateKind as Kind;
use crate::text::{FONT_SIZE, SMALL_FONT_SIZE};

/// One state as the map shows it.
#[derive(Debug, Clone)]
pub(super) struct DrawnState {
    /// Its item on the map.
    pub item: usize,
    pub kind: Kind,
    /// The composite state or region (index into the states) it is written in; None: the top.
    pub scope: Option<usize>,
    /// Its Mermaid id ("" for dots and regions, which have none).
    pub id: String,
    /// The descriptions to write (`id : text`), shown texts that differ from the id.
    pub texts: Vec<String>,
}

#[derive(Debug, Clone)]
pub(super) struct DrawnTransition {
    pub from: usize,
    pub to: usize,
    pub label: Option<String>,
    /// The later of the two items it is attached to: the layout creates a connector as soon as
    /// both its ends exist, so connectors of one group are in the order they were written.
    pub group: usize,
    /// Where its label is on the map: labels are created last, in the order written.
    pub label_item: Option<usize>,
}

#[derive(Debug, Clone)]
pub(super) struct DrawnNote {
    pub state: usize,
    pub text: String,
    pub left: bool,
}

/// The state diagram the map shows: states in the map's order, transitions in connector order,
/// notes in sticky-note order.
#[derive(Debug, Clone, Default)]
pub(super) struct Drawn {
    pub states: Vec<DrawnState>,
    pub transitions: Vec<DrawnTransition>,
    pub notes: Vec<DrawnNote>,
}

/// A bar (fork or join) is at least this many times longer than it is thick.
const BAR_RATIO: f64 = 4.0;
/// An end dot's ring is drawn 4 thick, a start dot's outline 1.
const END_RING: f64 = 2.5;

/// Reads the state diagram `map` shows; `names` maps item ids to the Mermaid ids of the source.
pub(super) fn read(map: &Map<'_>, names: &BTreeMap<String, String>) -> Drawn {
    let is_shape = |i: usize| map.kind(i) == Some(ItemType::Shape);
    let labels = |i: usize| -> Vec<String> {
        map.children(i)
            .iter()
            .filter(|&&c| map.kind(c) == Some(ItemType::Label))
            .map(|&c| visible(map.str_prop(c, "text")))
            .filter(|t| !t.trim().is_empty())
            .collect()
    };
    let holds_shapes = |i: usize| map.children(i).iter().any(|&c| is_shape(c));
    // Containers first, outer before inner, so a region knows whether its container is composite.
    let depth = |mut i: usize| {
        let mut depth = 0;
        while let Some(p) = map.parent(i) {
            depth += 1;
            i = p;
        }
        depth
    };
    let mut kinds: Vec<Option<Kind>> = vec![None; map.len()];
    let mut containers: Vec<usize> = (0..map.len()).filter(|&i| is_shape(i) && holds_shapes(i)).collect();
    containers.sort_by_key(|&i| depth(i));
    let holder = |kinds: &[Option<Kind>], i: usize| {
        let mut at = map.parent(i);
        while let Some(p) = at {
            if kinds[p].is_some_and(Kind::is_container) {
                return Some(p);
            }
            at = map.parent(p);
        }
        None
    };
    for &c in &containers {
        let in_composite = holder(&kinds, c).is_some_and(|h| kinds[h] == Some(Kind::Composite));
        kinds[c] = Some(if labels(c).is_empty() && in_composite { Kind::Region } else { Kind::Composite });
    }
    let leaves: Vec<usize> = (0..map.len()).filter(|&i| is_shape(i) && kinds[i].is_none()).collect();
    for i in leaves {
        kinds[i] = leaf_kind(map, i, !labels(i).is_empty(), holder(&kinds, i).map(|h| kinds[h]));
    }
    // A composite divided into one region only is written undivided: the region is see-through.
    let regions_of =
        |kinds: &[Option<Kind>], c: usize| map.children(c).iter().filter(|&&r| kinds[r] == Some(Kind::Region)).count();
    let lone: Vec<bool> = (0..map.len())
        .map(|i| kinds[i] == Some(Kind::Region) && map.parent(i).is_some_and(|c| regions_of(&kinds, c) < 2))
        .collect();
    let items: Vec<usize> = (0..map.len()).filter(|&i| kinds[i].is_some() && !lone[i]).collect();
    let mut state_of: Vec<Option<usize>> = vec![None; map.len()];
    for (s, &i) in items.iter().enumerate() {
        state_of[i] = Some(s);
    }
    let mut ids = StateIds::default();
    let named = |i: usize| !matches!(kinds[i], Some(Kind::Start | Kind::End | Kind::Region));
    let mut id_of: Vec<Option<String>> =
        items.iter().map(|&i| if named(i) { ids.reserve(given_name(names, &map.items[i].id)) } else { None }).collect();
    for (s, &i) in items.iter().enumerate() {
        if named(i) && id_of[s].is_none() {
            id_of[s] = labels(i).first().and_then(|text| ids.reserve(Some(text)));
        }
    }
    let mut states: Vec<DrawnState> = Vec::with_capacity(items.len());
    for (s, &i) in items.iter().enumerate() {
        let kind = kinds[i].unwrap_or(Kind::State);
        let id = match id_of[s].take() {
            Some(id) => id,
            None if named(i) => ids.generate(&map.items[i].id),
            None => String::new(),
        };
        let mut scope = None;
        let mut at = map.parent(i);
        while let Some(p) = at {
            if let Some(h) = state_of[p].filter(|_| kinds[p].is_some_and(Kind::is_container)) {
                scope = Some(h);
                break;
            }
            at = map.parent(p);
        }
        let texts = if kind.is_dot() || kind == Kind::Region {
            Vec::new()
        } else {
            descriptions(&labels(i), &id, kind.is_container())
        };
        states.push(DrawnState { item: i, kind, scope, id, texts });
    }
    let transitions = transitions(map, &state_of, &mut states);
    let notes = notes(map, &state_of, &states);
    Drawn { states, transitions, notes }
}

/// What a shape that holds no states is drawn as; None for what is no state (an emptied region).
fn leaf_kind(map: &Map<'_>, i: usize, has_text: bool, holder: Option<Option<Kind>>) -> Option<Kind> {
    if has_text {
        return Some(Kind::State);
    }
    let b = map.bounds(i);
    let (long, short) = (b.half_w.max(b.half_h), b.half_w.min(b.half_h));
    let thickness = map.props(i).get("strokeThickness").and_then(Value::as_f64).unwrap_or(1.0);
    Some(match map.str_prop(i, "type").to_ascii_lowercase().as_str() {
        "ellipse" if thickness >= END_RING => Kind::End,
        "ellipse" => Kind::Start,
        "diamond" => Kind::Choice,
        _ if long >= BAR_RATIO * short => Kind::Fork,
        // An untitled box left in a composite state is a region whose states were all deleted.
        _ if holder == Some(Some(Kind::Composite)) && map.str_prop(i, "type").eq_ignore_ascii_case("rectangle") => {
            return None
        }
        _ => Kind::State,
    })
}

/// The descriptions a state's texts stand for: none when it shows its id; a box with sections
/// (name, divider, more texts) gives its name and each line of the rest. Line breaks the layout
/// made to wrap a text are taken out again (see [`unwrap`]).
fn descriptions(texts: &[String], id: &str, container: bool) -> Vec<String> {
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let section = |font: f64| {
        move |t: &str| {
            let measured = section_boxes::measure(&[Section::text(t.to_owned(), font, true)], 0.0);
            measured.sections.first().and_then(|s| s.0.first()).map_or_else(String::new, |c| c.0.clone())
        }
    };
    let out: Vec<String> = match texts {
        [] => Vec::new(),
        // A container's title is never wrapped.
        [only] if container => vec![only.clone()],
        [only] => vec![unwrap(only, |t| node_boxes::node_box(NodeShape::Rounded, t).text)],
        [name, rest @ ..] => {
            let rest = rest.iter().map(|t| unwrap(t, section(SMALL_FONT_SIZE)));
            let lines: Vec<String> = rest.flat_map(|t| t.split('\n').map(str::to_owned).collect::<Vec<_>>()).collect();
            std::iter::once(unwrap(name, section(FONT_SIZE))).chain(lines).filter(|t| !t.trim().is_empty()).collect()
        }
    };
    if out.len() == 1 && words(&out[0]) == words(&crate::text::clean(id)) {
        return Vec::new();
    }
    out
}

/// `shown` with the line breaks `wrap` would have made taken out: each break is tried as nothing
/// (a long word cut: a space would wrap there too), then as a space, and kept when wrapping the text so joined does not give
/// `shown` back. A break someone wrote where the wrap would break anyway is taken out too, which
/// draws the same.
pub(super) fn unwrap(shown: &str, wrap: impl Fn(&str) -> String) -> String {
    let lines: Vec<&str> = shown.split('\n').collect();
    let target = visible(shown);
    let mut done = lines[0].to_owned();
    for (k, line) in lines.iter().enumerate().skip(1) {
        let rest = lines[k + 1..].iter().map(|l| format!("\n{l}")).collect::<String>();
        let joined = ["", " "]
            .iter()
            .map(|glue| format!("{done}{glue}{line}"))
            .find(|candidate| visible(&wrap(&format!("{candidate}{rest}"))) == target);
        done = joined.unwrap_or_else(|| format!("{done}\n{line}"));
    }
    done
}

/// The text of a transition as the layout wraps it (`layered`'s `EDGE_TEXT_WIDTH`).
pub(super) fn wrapped_transition_text(text: &str) -> String {
    crate::text::block(text, SMALL_FONT_SIZE, crate::layered::EDGE_TEXT_WIDTH).text
}

/// The state an item stands for: the state, the state whose text it is, a region's composite.
fn state_at(map: &Map<'_>, state_of: &[Option<usize>], states: &[DrawnState], item: usize) -> Option<usize> {
    let item = match map.kind(item) {
        Some(ItemType::Label) => map.parent(item)?,
        _ => item,
    };
    let mut s = state_of[item]?;
    while states[s].kind == Kind::Region {
        s = states[s].scope?;
    }
    Some(s)
}

/// Connectors attached at both ends to states, start to end (the other way when only the start
/// has a mark); forks with more transitions in than out become joins.
fn transitions(map: &Map<'_>, state_of: &[Option<usize>], states: &mut [DrawnState]) -> Vec<DrawnTransition> {
    let mut out = Vec::new();
    for c in (0..map.len()).filter(|&i| map.kind(i) == Some(ItemType::Connector)) {
        let end = |name: &str| map.attached(c, name).and_then(|i| state_at(map, state_of, states, i));
        let (Some(mut from), Some(mut to)) = (end("startPoint"), end("endPoint")) else { continue };
        let none = |name: &str| map.decorator(c, name).eq_ignore_ascii_case("none");
        if none("endPoint") && !none("startPoint") {
            std::mem::swap(&mut from, &mut to);
        }
        let label_item = map.children(c).iter().copied().find(|&l| map.kind(l) == Some(ItemType::Label));
        let label = label_item.map(|l| visible(map.str_prop(l, "text"))).filter(|t| !t.trim().is_empty());
        let label = label.map(|t| unwrap(&t, wrapped_transition_text));
        let group = map.attached(c, "startPoint").max(map.attached(c, "endPoint")).unwrap_or(0);
        out.push(DrawnTransition { from, to, label_item: label_item.filter(|_| label.is_some()), label, group });
    }
    for (s, state) in states.iter_mut().enumerate().filter(|(_, state)| state.kind == Kind::Fork) {
        let ins = out.iter().filter(|t| t.to == s).count();
        let outs = out.iter().filter(|t| t.from == s).count();
        if ins > outs || (ins == outs && state.id.to_ascii_lowercase().contains("join")) {
            state.kind = Kind::Join;
        }
    }
    out
}

/// Sticky notes, each about the state a connector joins it to (left when the note is the
/// connector's start, as the layout draws a left note before its state), else the nearest
/// state (left when it stands left of it). Notes about dots are left out (`[*]` has no note), and
/// so are notes whose state was deleted.
fn notes(map: &Map<'_>, state_of: &[Option<usize>], states: &[DrawnState]) -> Vec<DrawnNote> {
    let mut out = Vec::new();
    for n in (0..map.len()).filter(|&i| map.kind(i) == Some(ItemType::StickyNote)) {
        // The connector joining the note to its state; a note whose state was deleted (the
        // connector's other end names an item no longer there) goes with it.
        let mut gone = false;
        let linked = (0..map.len()).filter(|&c| map.kind(c) == Some(ItemType::Connector)).find_map(|c| {
            let named = |end: &str| map.props(c).get(end)?.get("itemId")?.as_str().map(str::to_owned);
            let (a, b) = (map.attached(c, "startPoint"), map.attached(c, "endPoint"));
            let other = match (a == Some(n), b == Some(n)) {
                (true, false) => ("endPoint", b, true),
                (false, true) => ("startPoint", a, false),
                _ => return None,
            };
            match other.1 {
                Some(item) => Some((state_at(map, state_of, states, item)?, other.2)),
                None => {
                    gone |= named(other.0).is_some();
                    None
                }
            }
        });
        if linked.is_none() && gone {
            continue;
        }
        let note = map.bounds(n);
        let nearest = || {
            let distance = |s: &usize| {
                let b = map.bounds(states[*s].item);
                (b.cx - note.cx).powi(2) + (b.cy - note.cy).powi(2)
            };
            let candidates = (0..states.len()).filter(|&s| !states[s].kind.is_dot() && states[s].kind != Kind::Region);
            let s = candidates.min_by(|a, b| distance(a).total_cmp(&distance(b)))?;
            Some((s, note.cx < map.bounds(states[s].item).cx))
        };
        let Some((state, left)) = linked.or_else(nearest) else { continue };
        if states[state].kind.is_dot() {
            continue;
        }
        let text = unwrap(&visible(map.str_prop(n, "text")), section_boxes::note_text);
        out.push(DrawnNote { state, text, left });
    }
    out
}
