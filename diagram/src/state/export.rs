//! A state diagram drawn by this crate, read back from its items as they are now.
//!
//! What the layout drew (`state/layout.rs`): a rounded box per state with its name as a label
//! (a state with several descriptions: its name, a divider and the other texts below), `[*]` as a
//! small dot (a start filled, an end with a thick ring), a choice as a small diamond, forks and
//! joins as bars, composite states as containers titled with their name, concurrent regions as
//! untitled containers inside them, transitions as connectors (a label child holds the text),
//! notes as sticky notes joined to their state by a dotted connector. Read back (`read.rs`):
//! - states: shapes. A shape holding shapes is a composite state (titled, or untitled at the top)
//!   or a region (untitled inside a composite; a lone region is written undivided). A shape
//!   without text is a dot (ellipse: an end when its outline is thick, else a start), a choice
//!   (diamond), a fork or join (a bar: a join when more transitions come in than go out) or an
//!   untitled state; a shape with text is a state whose texts are its descriptions, unless it
//!   shows its id. Ids: the source's (`names`) when safe for the grammar (`names.rs`), else the
//!   shown text when it is one, else made from the item id.
//! - transitions: connectors attached at both ends to states (a state's text counts as the state,
//!   a region as its composite), start to end; the label child is the text.
//! - notes: sticky notes, about the state a connector joins them to (left when the note is that
//!   connector's start, as the layout draws it), else the nearest state (left when left of it).
//! - direction: where most transitions point on the map (as the flowchart writer guesses it).
//!
//! Written (`write.rs`) in the map's order of states, so an unedited map is drawn again as it is.
//!
//! Lost, as the map cannot hold it: comments, `classDef`/`class`/`:::`/`style` (the colours are
//! on the items), `accTitle`/`accDescr`, `hide empty description`, `scale`, `click`, floating
//! notes (never drawn); `direction` inside composite states; a composite state's descriptions
//! beyond its title; a description equal to the state's id (it shows the same); line breaks the
//! layout added to wrap long texts (they come back as `<br>`, and the lines of a box's second
//! text as one description each); bold and italic. Start and end states are all `[*]`: their
//! place says which scope's they are; an end with no transition into it cannot be written, nor a
//! transition into a start, out of an end, or between a dot and a state outside the dot's scope
//! (`[*]` means the scope it is written in). A transition between a composite state and one of
//! its own members is drawn to the member's dot and comes back so. Regions are numbered in the
//! map's order. Forks and joins are drawn alike and told apart by their transitions.
//!
//! Whatever the items hold, the text is one that [`crate::parse`] reads as a state diagram: texts
//! are written with entity codes (`export/text.rs`, `%` as `#37;`), ids are safe, parents that
//! loop are the top, connectors with a missing end are left out.

mod names;
mod read;
#[cfg(test)]
mod tests;
mod write;

use std::collections::BTreeMap;

use crate::export::{Map, MapItem};
use read::Drawn;

/// Reads back a state diagram this crate drew, with what people changed since. `names` maps the
/// item id of a state's shape to its Mermaid id.
pub fn export_state(items: &[MapItem], names: &BTreeMap<String, String>) -> String {
    let map = Map::new(items);
    let drawn = read::read(&map, names);
    let mut out = String::from("stateDiagram-v2\n");
    let direction = direction(&map, &drawn);
    if direction != "TB" {
        out.push_str(&format!("    direction {direction}\n"));
    }
    out.push_str(&write::Writer::new(&drawn).finish());
    out
}

/// `TB`, `BT`, `LR` or `RL`: the axis along which transitions between states that are not
/// containers agree most (each votes down or up, and right or left, by where its end lies from
/// its start), and the way most of them run along it (`TB` when none say). Votes, not sums: a
/// transition fanning out sideways or a long one back up a chain must not outweigh the rest.
fn direction(map: &Map<'_>, d: &Drawn) -> &'static str {
    let (mut down, mut right) = (0i64, 0i64);
    for t in &d.transitions {
        let (a, b) = (&d.states[t.from], &d.states[t.to]);
        if a.kind.is_container() || b.kind.is_container() {
            continue;
        }
        let (a, b) = (map.bounds(a.item), map.bounds(b.item));
        let sign = |delta: f64| if delta.abs() < 1.0 { 0 } else { delta.signum() as i64 };
        down += sign(b.cy - a.cy);
        right += sign(b.cx - a.cx);
    }
    match (down.abs() >= right.abs(), down < 0, right < 0) {
        (true, false, _) => "TB",
        (true, true, _) => "BT",
        (false, _, false) => "LR",
        (false, _, true) => "RL",
    }
}
