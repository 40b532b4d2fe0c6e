//! `stateDiagram-v2` (and `stateDiagram`): the model (this file), the parser
//! (`parse.rs`, written from Mermaid 11's `stateDiagram.jison` and
//! `stateDb.ts`), the layout (`layout.rs`: the layered engine with composite
//! states as containers) and the tests (`tests.rs`).

pub(crate) mod export;
mod layout;
mod parse;
#[cfg(test)]
mod tests;

pub(crate) use layout::{layout, planned_count};
pub(crate) use parse::parse;

use crate::graph::Direction;

/// What a state is drawn as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateKind {
    /// A plain state: a rounded box.
    State,
    /// `[*]` as a transition's source: where its scope starts (a small filled dot).
    Start,
    /// `[*]` as a transition's target: where its scope ends (a ringed dot).
    End,
    /// `<<choice>>`: a small diamond.
    Choice,
    /// `<<fork>>`: a bar.
    Fork,
    /// `<<join>>`: a bar.
    Join,
    /// A state holding others (`state X { … }`): a container.
    Composite,
    /// One of the regions `--` divides a composite state into: a container without a title.
    Region,
}

impl StateKind {
    /// Whether it is drawn as a container holding other states (a composite state or a region).
    pub fn is_container(self) -> bool {
        matches!(self, StateKind::Composite | StateKind::Region)
    }

    /// A start or end dot: `[*]`, which names the scope it is written in.
    pub fn is_dot(self) -> bool {
        matches!(self, StateKind::Start | StateKind::End)
    }
}

/// A state.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// Its id (`[*]` for start and end states, a made-up one for regions).
    pub id: String,
    /// Texts given by `state "text" as id` and `id : text`, in order.
    pub descriptions: Vec<String>,
    /// How it is drawn.
    pub kind: StateKind,
    /// The composite state or region holding it.
    pub parent: Option<usize>,
    /// A composite state's own `direction` (followed when nothing outside links into it).
    pub direction: Option<crate::graph::Direction>,
    /// Its style: `classDef`s of its classes (`class`, `:::`), then `style` statements.
    pub style: crate::styling::Style,
}

impl State {
    /// Its name as shown: the first description, else the id (as a label shows it).
    pub fn name(&self) -> String {
        match self.descriptions.first() {
            Some(description) => description.clone(),
            None => crate::text::nonempty(crate::text::clean(&self.id)),
        }
    }
}

/// A transition `A --> B : label`.
#[derive(Debug, Clone, PartialEq)]
pub struct Transition {
    /// Source state.
    pub from: usize,
    /// Target state.
    pub to: usize,
    /// The text after `:`.
    pub label: Option<String>,
}

/// `note left of X` / `note right of X`.
#[derive(Debug, Clone, PartialEq)]
pub struct StateNote {
    /// The state it is about.
    pub state: usize,
    /// Its text.
    pub text: String,
    /// Left of the state (else right).
    pub left: bool,
}

/// A state diagram.
#[derive(Debug, Clone, PartialEq)]
pub struct StateDiagram {
    /// `direction` at the top level, top to bottom when not given.
    pub direction: Direction,
    /// Every state, composite states and regions included, in order of first mention.
    pub states: Vec<State>,
    /// Transitions in source order.
    pub transitions: Vec<Transition>,
    /// Notes in source order.
    pub notes: Vec<StateNote>,
}
