//! A class diagram drawn by this crate, read back from its items as they are now (texts edited,
//! items deleted or moved, connectors drawn between its boxes) and written as `classDiagram`.
//!
//! Read back (`read.rs` says how each part is recognised on the map):
//! - classes: every class box, in the map's order, with its id (the one `names` gives its box,
//!   else its shown name when that is a plain name, else one made from the item id), its name
//!   (`class Id["Label"]` when it differs from the id; a generic shown `<T>` or `‹T›` written
//!   `~T~`), its `«annotations»` and its members: every line of its member compartments, a
//!   line with `(`…`)` a method (`vis name(params) : type` written `vis name(params) type`), lines
//!   the layout wrapped joined again;
//! - lollipop interfaces: a pill and the first connector joining it to a class
//!   (`name ()-- Class`); a pill left without one is written as a class of its name;
//! - relations: connectors between two classes, from the class at their start; decorators give the
//!   ends (`Arrow` inheritance, `ArrowLine` association, `Circle` aggregation or, with `◆` beside
//!   it, composition, `None` plain), a line thinner than 1.5 is dotted (`..`), the label midway is
//!   the relation's label and the texts at the ends its cardinalities;
//! - namespaces: containers holding class boxes (or only a title), nested as on the map, with
//!   their titles; notes: sticky notes, `note for Id` when a connector joins them to a class,
//!   placed in the namespace they are drawn in;
//! - colours: a box not drawn in the default colours gets a `style` line that draws it so again;
//! - direction: the way most relations and note lines run (as the flowchart writer guesses it).
//!
//! Lost, because the map does not hold them: comments and the text's own layout; `classDef`
//! names, `cssClass` and `:::` (their colours come back as `style` lines); the static (`$`) and
//! abstract (`*`) markers of members (the boxes do not show them); `click`, `link` and `callback`
//! lines; accessibility lines, titles and front matter (its theme comes back as `style` lines);
//! whether a note was written inside its class's namespace; where members were written (in a
//! body or as `Id : member`); which line of a name was a line break rather than a wrap; the
//! colours of lollipop pills; a lollipop's place among the classes when its relation came after
//! classes declared later. A namespace id whose dots do not match its nesting, an id Mermaid
//! cannot write (a back-quote or line break in it) and an empty or unnamed container get ids made
//! from the item or its order. Connectors between a class and anything but a class or note, and
//! a pill's further connectors, are left out.
//!
//! Whatever the items hold, the text parses as a class diagram: texts are escaped
//! (`texts.rs`), ids are plain or back-quoted, and when the whole would break a limit (size,
//! item count) less is written: first without texts, then without relations, at last the header.

mod read;
mod texts;
mod write;

use std::collections::BTreeMap;

use crate::export::{Map, MapItem};
use write::Detail;

/// Reads back a class diagram this crate drew, with what people changed since. `names` maps a
/// class box's or namespace container's item id to its Mermaid id.
pub fn export_class(items: &[MapItem], names: &BTreeMap<String, String>) -> String {
    let map = Map::new(items);
    let shown = read::read(&map, names);
    let item_ids: Vec<&str> = map.items.iter().map(|i| i.id.as_str()).collect();
    for detail in [Detail::Full, Detail::Lean, Detail::Bare] {
        let text = write::write(&shown, &item_ids, detail);
        if matches!(crate::parse(&text), Ok(crate::Diagram::Class(_))) {
            return text;
        }
    }
    String::from("classDiagram\n")
}

#[cfg(test)]
mod tests;
