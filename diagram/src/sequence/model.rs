//! What a sequence diagram says, once parsed: participants, their boxes, and the steps top to
//! bottom (messages, notes, frames, activations), before any geometry.

use crate::graph::{Head, Stroke};

/// A sequence diagram participant.
#[derive(Debug, Clone, PartialEq)]
pub struct Participant {
    /// The id messages use.
    pub id: String,
    /// What its box shows.
    pub label: String,
    /// Declared with `actor`.
    pub actor: bool,
    /// The symbol it is drawn as (`actor`, `@{ "type": … }`).
    pub kind: ParticipantKind,
    /// Declared with `create`: drawn from the message that creates it on.
    pub created: bool,
}

/// The symbols Mermaid draws a participant as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParticipantKind {
    /// `participant`: a box.
    Participant,
    /// `actor`: a stick figure.
    Actor,
    /// `@{ "type": "boundary" }`.
    Boundary,
    /// `@{ "type": "control" }`.
    Control,
    /// `@{ "type": "entity" }`.
    Entity,
    /// `@{ "type": "database" }`: a cylinder.
    Database,
    /// `@{ "type": "collections" }`: stacked boxes.
    Collections,
    /// `@{ "type": "queue" }`: a lying cylinder.
    Queue,
}

/// A `box … end` around participants.
#[derive(Debug, Clone, PartialEq)]
pub struct ParticipantGroup {
    /// Its title (may be empty).
    pub label: String,
    /// Its fill, `#RRGGBB` or `#AARRGGBB`; None for transparent.
    pub color: Option<String>,
    /// The participants declared inside it.
    pub members: Vec<usize>,
}

/// Where a note sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotePlace {
    /// `left of A`.
    LeftOf(usize),
    /// `right of A`.
    RightOf(usize),
    /// `over A` or `over A,B` (first, last).
    Over(usize, usize),
}

/// One step of a sequence diagram, top to bottom.
#[derive(Debug, Clone, PartialEq)]
pub enum SeqEvent {
    /// A message between two participants (the same one for a self message).
    Message {
        /// Sender.
        from: usize,
        /// Receiver.
        to: usize,
        /// Its text, numbered when `autonumber` is on.
        text: String,
        /// Solid or dotted.
        stroke: Stroke,
        /// Decorator at the receiver.
        head: Head,
        /// Decorator at the sender (`<<->>`, reversed half arrows).
        tail: Head,
    },
    /// A note.
    Note {
        /// Where it sits.
        place: NotePlace,
        /// Its text.
        text: String,
    },
    /// `loop`, `alt`, `opt`, `par`, `par_over`, `critical`, `break` or `rect` opens a frame.
    Open {
        /// The keyword.
        kind: String,
        /// The text after it (empty for `rect`).
        label: String,
        /// The fill of a `rect`, `#AARRGGBB`.
        color: Option<String>,
    },
    /// `else`, `and` or `option` divides the innermost frame.
    Divide {
        /// The text after the keyword.
        label: String,
    },
    /// `end` closes the innermost frame.
    Close,
    /// A participant's lifeline becomes active (`activate`, `+`): an activation bar starts.
    Activate(usize),
    /// The innermost activation of a participant ends (`deactivate`, `-`).
    Deactivate(usize),
    /// `create`: the participant appears at its next message.
    Create(usize),
    /// `destroy`: the participant's lifeline ends at its next message.
    Destroy(usize),
}

/// A sequence diagram.
#[derive(Debug, Clone, PartialEq)]
pub struct Sequence {
    /// Participants, left to right.
    pub participants: Vec<Participant>,
    /// Steps, top to bottom.
    pub events: Vec<SeqEvent>,
    /// `box … end` groups.
    pub groups: Vec<ParticipantGroup>,
    /// `title`, drawn above the diagram.
    pub title: Option<String>,
}
