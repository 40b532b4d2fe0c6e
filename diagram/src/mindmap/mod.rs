//! `mindmap`: the model (this file), the parser (`parse.rs`, written from Mermaid 11's
//! `mindmap.jison`), the layout (`layout.rs`: a tidy tree on each side of the root, also used by
//! [`crate::arrange`]), the writer that reads a drawn mind map back as Mermaid (`export.rs`),
//! and the parser's tests (`tests.rs`).

pub mod export;
pub mod layout;
mod parse;

pub use layout::layout;
pub use parse::parse;

use crate::graph::NodeShape;

/// A mind map node.
#[derive(Debug, Clone, PartialEq)]
pub struct MindNode {
    /// The id written before its shape, if any.
    pub id: Option<String>,
    /// Its text.
    pub text: String,
    /// Its shape.
    pub shape: NodeShape,
    /// Indexes of its children, in source order.
    pub children: Vec<usize>,
    /// The emphasis of each character of `text` (`crate::text::markdown::BOLD`/`ITALIC` bits) when it was
    /// a markdown string with `**bold**` or `*italic*` parts; empty otherwise.
    pub emphasis: Vec<u8>,
}

/// A mind map; node 0 is the root.
#[derive(Debug, Clone, PartialEq)]
pub struct Mindmap {
    /// Every node; node 0 is the root.
    pub nodes: Vec<MindNode>,
}

/// How many items a mind map makes: a shape and a label per node, a connector per child.
pub fn planned_count(map: &Mindmap) -> usize {
    3 * map.nodes.len() - 1
}

#[cfg(test)]
mod tests;
