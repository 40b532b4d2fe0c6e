//! The limits a source must stay within (its size, the items it makes, a text's length) and the
//! diagram types it may name: constants every layer reads, so they sit below all of them.

/// Largest source accepted, in bytes.
pub const MAX_SOURCE_BYTES: usize = 64 * 1024;
/// Most items one diagram may plan: what one bulk create takes, since a diagram is created as one.
pub const MAX_ITEMS: usize = canvas_vocabulary::limits::bulk::MAX_ITEMS;
/// Longest text of one node, edge or note, in characters; longer texts are clipped with `…`.
pub const MAX_LABEL_CHARS: usize = 300;

/// The diagram types a source may start with (the service's list, stated once in
/// `canvas-vocabulary`).
pub use canvas_vocabulary::limits::diagrams::KINDS;
