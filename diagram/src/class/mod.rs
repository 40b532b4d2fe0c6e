//! `classDiagram`: the model (this file), the parser (`parse.rs`, written from
//! Mermaid 11's `classDiagram.jison` and `classDb.ts`; `members.rs` how member lines, generics
//! and names are shown), the layout
//! (`layout.rs`: the layered engine on class boxes sized by their
//! compartments) and the tests (`tests.rs`).

pub(crate) mod export;
mod layout;
mod members;
mod parse;
#[cfg(test)]
mod tests;

pub(crate) use layout::{layout, planned_count};
pub(crate) use members::generics;
pub(crate) use parse::parse;

use crate::graph::Direction;

/// What an end of a relationship shows (`<|`, `*`, `o`, `<`, `()` or nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelEnd {
    /// A plain end.
    None,
    /// `<|` / `|>`: inheritance (with `..`, realization).
    Inheritance,
    /// `*`: composition.
    Composition,
    /// `o`: aggregation.
    Aggregation,
    /// `<` / `>`: association or dependency.
    Arrow,
    /// `()`: a lollipop interface.
    Lollipop,
}

/// `static` (`$`) or `abstract` (`*`) at the end of a member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Classifier {
    /// Neither.
    None,
    /// `$`: drawn underlined by Mermaid.
    Static,
    /// `*`: drawn in italics by Mermaid.
    Abstract,
}

/// An attribute or a method, as Mermaid displays it.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// Visibility, name, `(parameters) : return type`, generics as `<…>`.
    pub text: String,
    /// The classifier written at its end (not part of `text`).
    pub classifier: Classifier,
}

/// A class box (or the small box of a lollipop interface).
#[derive(Debug, Clone, PartialEq)]
pub struct Class {
    /// The id relations use (a generic's `~T~` left out).
    pub id: String,
    /// What its name compartment shows: the label or the id, with its generic as `<T>`.
    pub name: String,
    /// `<<interface>>` and the like, without the brackets.
    pub annotations: Vec<String>,
    /// Attributes, in source order.
    pub attributes: Vec<Member>,
    /// Methods, in source order.
    pub methods: Vec<Member>,
    /// The innermost namespace holding it.
    pub namespace: Option<usize>,
    /// A lollipop interface made by `name ()-- Class`: drawn as a small named pill.
    pub lollipop: bool,
    /// Its style: `classDef`s of its classes (`cssClass`, `:::`), then `style` statements.
    pub style: crate::styling::Style,
}

/// A relationship between two classes.
#[derive(Debug, Clone, PartialEq)]
pub struct Relation {
    /// The class written first.
    pub from: usize,
    /// The class written second.
    pub to: usize,
    /// The mark at the first class.
    pub start: RelEnd,
    /// The mark at the second class.
    pub end: RelEnd,
    /// `..` rather than `--`.
    pub dotted: bool,
    /// The text after `:`.
    pub label: Option<String>,
    /// The quoted cardinality beside the first class.
    pub start_card: Option<String>,
    /// The quoted cardinality beside the second class.
    pub end_card: Option<String>,
}

/// A `namespace Name { … }` block.
#[derive(Debug, Clone, PartialEq)]
pub struct Namespace {
    /// Its name as written.
    pub id: String,
    /// What its title shows.
    pub title: String,
    /// The namespace it is nested in.
    pub parent: Option<usize>,
}

/// `note for Class "text"` or a free `note "text"`.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    /// Its text.
    pub text: String,
    /// The class it is for.
    pub class: Option<usize>,
    /// The namespace it was written in.
    pub namespace: Option<usize>,
}

/// A class diagram.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassDiagram {
    /// `direction`, top to bottom when not given.
    pub direction: Direction,
    /// Classes (and lollipop interfaces) in order of first mention.
    pub classes: Vec<Class>,
    /// Relationships in source order.
    pub relations: Vec<Relation>,
    /// Namespaces in order of opening.
    pub namespaces: Vec<Namespace>,
    /// Notes in source order.
    pub notes: Vec<Note>,
}
