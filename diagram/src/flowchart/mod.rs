//! `flowchart` / `graph`: the parser (`parse.rs`, with `nodes.rs` node shapes and shape data,
//! `shape_names.rs` Mermaid's named shapes and `links.rs` arrows; its tests in `tests.rs`), the
//! item count (this file) and the writer that reads any part of a map back as a flowchart
//! (`export.rs`). The model is `crate::graph`'s [`Flowchart`] and the layout is
//! `crate::layered`: the class, ER and state diagrams are laid out through both too, so they
//! sit beside the kinds rather than in this folder.

pub mod export;
mod links;
mod nodes;
mod parse;
mod shape_names;

pub use parse::parse;

use crate::graph::{Flowchart, Stroke};
use crate::node_boxes;

/// How many items a flowchart makes: a shape per node (and a label when its shape shows text),
/// a container per subgraph (and a label for its title), the title, a connector per drawn link
/// (and a label for its text).
pub fn planned_count(chart: &Flowchart) -> usize {
    let drawn = chart.edges.iter().filter(|e| e.stroke != Stroke::Invisible);
    chart.nodes.iter().map(|n| 1 + usize::from(node_boxes::shows_text(n.shape))).sum::<usize>()
        + chart.subgraphs.iter().map(|s| 1 + usize::from(!s.title.is_empty())).sum::<usize>()
        + usize::from(chart.title.is_some())
        + drawn.map(|e| 1 + usize::from(e.text.is_some())).sum::<usize>()
}

#[cfg(test)]
mod tests;
