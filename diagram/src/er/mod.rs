//! `erDiagram`: the model (this file), the parser (`parse.rs`, written from
//! Mermaid 11's `erDiagram.jison`), the layout (`layout.rs`: the layered
//! engine on entity boxes sized by their attribute tables) and the tests
//! (`tests.rs`).

pub(crate) mod export;
mod layout;
mod parse;
#[cfg(test)]
mod tests;

pub(crate) use layout::{layout, planned_count};
pub(crate) use parse::parse;

use crate::graph::Direction;

/// How many of an entity one relationship end takes (crow's foot notation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cardinality {
    /// `|o` / `o|`: zero or one.
    ZeroOrOne,
    /// `||`: exactly one.
    ExactlyOne,
    /// `}o` / `o{`: zero or more.
    ZeroOrMore,
    /// `}|` / `|{`: one or more.
    OneOrMore,
    /// `u`: the parent of a master-detail pair.
    Parent,
}

impl Cardinality {
    /// How the end is written beside its entity.
    pub fn text(self) -> &'static str {
        match self {
            Cardinality::ZeroOrOne => "0..1",
            Cardinality::ExactlyOne => "1",
            Cardinality::ZeroOrMore => "0..*",
            Cardinality::OneOrMore => "1..*",
            Cardinality::Parent => "parent",
        }
    }
}

/// One row of an entity's attribute block.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// Its type, as written.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// `PK`, `FK`, `UK` as written.
    pub keys: Vec<String>,
    /// The quoted comment.
    pub comment: Option<String>,
}

/// An entity.
#[derive(Debug, Clone, PartialEq)]
pub struct Entity {
    /// The name relationships use.
    pub id: String,
    /// What its title shows: the alias (`p[Person]`) or the name.
    pub title: String,
    /// Its attributes, in source order.
    pub attributes: Vec<Attribute>,
    /// Its style: `classDef`s of its classes (`class`, `:::`), then `style` statements.
    pub style: crate::styling::Style,
}

/// A relationship between two entities.
#[derive(Debug, Clone, PartialEq)]
pub struct Relationship {
    /// The entity written first.
    pub from: usize,
    /// The entity written second.
    pub to: usize,
    /// The cardinality at the first entity.
    pub from_card: Cardinality,
    /// The cardinality at the second entity.
    pub to_card: Cardinality,
    /// `--` (identifying) rather than `..` (non-identifying).
    pub identifying: bool,
    /// The role after `:` (may be empty).
    pub label: String,
}

/// An entity-relationship diagram.
#[derive(Debug, Clone, PartialEq)]
pub struct ErDiagram {
    /// `direction`, top to bottom when not given.
    pub direction: Direction,
    /// Entities in order of first mention.
    pub entities: Vec<Entity>,
    /// Relationships in source order.
    pub relationships: Vec<Relationship>,
}
