//! An ER diagram drawn by this crate, read back from its items as they are now (texts edited,
//! items deleted or moved, connectors drawn between its boxes).
//!
//! What is read back:
//! - Entities: every shape, in the map's order (the layout's order, so entities come back in
//!   their first-mention order). The id is the name `names` gives (the record's `node:<id>`),
//!   written bare or `"quoted"` as the parser reads it back; a box without one (drawn by a person)
//!   takes its title when that is a plain name, else `e` and its item id's first characters. The
//!   title is the box's centred label (`boxes.rs`); it is written as an alias `id["Title"]` when
//!   it is not what the id alone shows. A title the layout wrapped comes back on one line.
//! - Attributes: the box's other labels, read as a table (`boxes.rs`): type, name, `PK`/`FK`/`UK`
//!   keys and the quoted comment per row, sparse columns cell by cell.
//! - Relationships: connectors whose two ends are attached to entity boxes (or their labels),
//!   first entity at the start; the cardinality texts beside the ends, the role at the middle,
//!   thin lines non-identifying (`lines.rs`, which also says what a drawn connector becomes:
//!   `||--o{` unless its decorators say otherwise). Order: the source's, read from where the
//!   layout put the end texts on the list, then drawn connectors.
//! - Colours: a box not drawn in the default colours gets a `style` statement with its fill,
//!   outline, outline width and text colour, so the re-drawn box looks the same.
//! - Direction: where most relationships point on the map (`TD` when none say, `LR` when
//!   unrelated boxes stand in a column), as the flowchart writer guesses it.
//!
//! What is lost, because the map does not hold it: `%%` comments, `accTitle`/`accDescr`, the
//! front matter title and config; `classDef` and `class` names, `:::` and `style` statements
//! (their colours come back as one `style` per box; fonts are not drawn); how a cardinality or
//! line was spelled (`one or more`, `to`, `optionally to` come back as `|{`, `--`, `..`);
//! `direction TB` (the default, left out); the difference between a wrap and a line break
//! someone wrote that the wrap would have made; attribute texts the layout cut with `…` (cells
//! wider than 220 units) and line breaks inside comments (a cell is one line); `~T~` generics
//! where Mermaid's text is not what the crate shows (`<T>` drawn as `‹T›` comes back as `~T~`).
//! Edits that Mermaid cannot hold are adjusted: white space inside an attribute word becomes
//! `_`, an empty type or name `_`, words in a keys cell that are no key are left out, and a
//! `parent` at the second end is written with the entities swapped (Mermaid takes `u` only first).
//!
//! The result always parses ([`crate::parse`]): every text is escaped or checked against the
//! parser, and when the map is too big for one source (bytes or planned items), statements are
//! left out from the end, relationships first.

mod boxes;
mod lines;
mod write;

use canvas_vocabulary::items::ItemType;
use std::collections::BTreeMap;
use std::fmt::Write;

use crate::er::Cardinality;
use crate::export::text::visible;
use crate::export::{given_name, Map, MapItem};
use boxes::EntityBox;
use lines::Line;
use write::{left_mark, quoted_body, right_mark, role, word, Names};

/// The ER diagram drawn by canvas-diagram, read back from its items as they are now. `names`
/// maps an entity box's item id to its Mermaid id.
pub fn export_er(items: &[MapItem], names: &BTreeMap<String, String>) -> String {
    let map = Map::new(items);
    let entities: Vec<usize> = (0..map.len()).filter(|&i| map.kind(i) == Some(ItemType::Shape)).collect();
    let read: Vec<EntityBox> = entities.iter().map(|&b| boxes::read(&map, b)).collect();
    let ids = entity_ids(&map, &entities, &read, names);
    let entity_of = |item: usize| {
        let item = if map.kind(item) == Some(ItemType::Label) { map.parent(item)? } else { item };
        entities.iter().position(|&b| b == item)
    };
    let mut relationships: Vec<Line> = (0..map.len())
        .filter(|&i| map.kind(i) == Some(ItemType::Connector))
        .filter_map(|c| lines::read(&map, c, entity_of))
        .collect();
    relationships.sort_by_key(|r| r.order);
    let mut header = String::from("erDiagram\n");
    let direction = direction(&map, &entities, &relationships);
    if direction != "TB" {
        let _ = writeln!(header, "    direction {direction}");
    }
    let mut statements: Vec<String> = Vec::new();
    for (e, entity) in read.iter().enumerate() {
        statements.push(entity_statement(&ids[e], entity));
    }
    statements.extend(relationships.iter().map(|r| relationship_statement(&ids, r)));
    fitted(&header, &statements)
}

/// Each entity's (id, how it is written): given names first (in the map's order), then titles
/// that are plain names, then generated ones, so no generated name takes a given one.
fn entity_ids(
    map: &Map<'_>,
    entities: &[usize],
    read: &[EntityBox],
    names: &BTreeMap<String, String>,
) -> Vec<(String, String)> {
    let mut taken = Names::new();
    let mut ids: Vec<Option<(String, String)>> =
        entities.iter().map(|&b| given_name(names, &map.items[b].id).and_then(|n| taken.take(n))).collect();
    for (e, &b) in entities.iter().enumerate() {
        if ids[e].is_none() {
            let title = read[e].title.as_deref().filter(|t| is_plain_name(t));
            ids[e] = Some(title.and_then(|t| taken.take(t)).unwrap_or_else(|| taken.generate(&map.items[b].id)));
        }
    }
    ids.into_iter().map(|id| id.unwrap_or_default()).collect()
}

/// A title that can be an entity id as it is: a letter or `_`, then letters, digits, `_`, `-`.
fn is_plain_name(title: &str) -> bool {
    title.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && title.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        && !title.contains("--")
}

/// An entity: `id` or `id["Title"]`, its attribute block, and its `style` when it has one.
fn entity_statement((id, written): &(String, String), entity: &EntityBox) -> String {
    let mut out = format!("    {written}");
    let shown_by_id = visible(&crate::text::nonempty(crate::text::clean(id)));
    if let Some(title) = entity.title.as_deref().filter(|t| !t.is_empty() && *t != shown_by_id) {
        let _ = write!(out, "[\"{}\"]", quoted_body(title));
    }
    if !entity.attributes.is_empty() {
        out.push_str(" {\n");
        for attribute in &entity.attributes {
            let _ = write!(out, "        {} {}", word(&attribute.kind), word(&attribute.name));
            if !attribute.keys.is_empty() {
                let _ = write!(out, " {}", attribute.keys.join(", "));
            }
            if let Some(comment) = &attribute.comment {
                let _ = write!(out, " \"{}\"", quoted_body(comment));
            }
            out.push('\n');
        }
        out.push_str("    }");
    }
    out.push('\n');
    // `style` names one bare id (no spaces or commas); a quoted id keeps the default colours.
    if let Some(css) = &entity.style {
        if written == id && !id.contains([',', ';']) {
            let _ = writeln!(out, "    style {id} {css}");
        }
    }
    out
}

/// `A ||--o{ B : role`; a `parent` at the second end is written from that end (Mermaid reads
/// `u` only first).
fn relationship_statement(ids: &[(String, String)], r: &Line) -> String {
    let (mut from, mut to, mut from_card, mut to_card) = (r.from, r.to, r.from_card, r.to_card);
    if to_card == Cardinality::Parent && from_card != Cardinality::Parent {
        std::mem::swap(&mut from, &mut to);
        std::mem::swap(&mut from_card, &mut to_card);
    }
    let right = right_mark(to_card).unwrap_or("||");
    let line = if r.identifying { "--" } else { ".." };
    let name = |e: usize| ids.get(e).map_or("", |id| id.1.as_str());
    format!("    {} {}{line}{right} {} : {}\n", name(from), left_mark(from_card), name(to), role(&r.role))
}

/// `TB`, `BT`, `LR` or `RL`: the way most relationships run on the map. Without any, `LR` when
/// the boxes stand in a column (the layout puts unrelated entities side by side across the
/// direction), else `TB`.
fn direction(map: &Map<'_>, entities: &[usize], relationships: &[Line]) -> &'static str {
    let mut votes = [0usize; 4];
    for r in relationships {
        let (a, b) = (map.bounds(entities[r.from]), map.bounds(entities[r.to]));
        let (dx, dy) = (b.cx - a.cx, b.cy - a.cy);
        if dx == 0.0 && dy == 0.0 || !dx.is_finite() || !dy.is_finite() {
            continue;
        }
        let at = if dy.abs() >= dx.abs() { usize::from(dy < 0.0) } else { 2 + usize::from(dx < 0.0) };
        votes[at] += 1;
    }
    if votes.iter().all(|&v| v == 0) {
        let spread = |axis: fn(&crate::export::Bounds) -> f64| {
            let values: Vec<f64> = entities.iter().map(|&b| axis(&map.bounds(b))).filter(|v| v.is_finite()).collect();
            let (low, high) =
                values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| (l.min(*v), h.max(*v)));
            (high - low).max(0.0)
        };
        return if spread(|b| b.cy) > spread(|b| b.cx) { "LR" } else { "TB" };
    }
    let best = (0..4).max_by_key(|&i| (votes[i], std::cmp::Reverse(i))).unwrap_or(0);
    ["TB", "BT", "LR", "RL"][best]
}

/// The header and as many statements as make a source the parser takes: all of them on any
/// real map; on one too big for a diagram (bytes or items), the longest run from the start that
/// fits (entities come before relationships, so relationships are left out first).
fn fitted(header: &str, statements: &[String]) -> String {
    let source = |count: usize| {
        let mut out = header.to_owned();
        statements[..count].iter().for_each(|s| out.push_str(s));
        out
    };
    let parses = |count: usize| crate::parse(&source(count)).is_ok();
    if parses(statements.len()) {
        return source(statements.len());
    }
    // Taking more statements only adds bytes and items, so the count that parses is a prefix.
    let (mut good, mut bad) = (0, statements.len());
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        if parses(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    source(good)
}
