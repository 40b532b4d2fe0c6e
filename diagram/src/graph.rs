//! What a Mermaid source says, once parsed: the diagram kinds with their
//! nodes, edges and events, before any geometry. Texts are already cleaned
//! (see [`crate::text::clean`]): plain text, `\n` for line breaks, clipped.
//!
//! The diagram of any kind, [`crate::diagram::Diagram`], is one level up: it names every kind,
//! while the kinds build on what is here.

/// Which way a flowchart's edges run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// `TB` / `TD`: top to bottom.
    TopDown,
    /// `BT`: bottom to top.
    BottomUp,
    /// `LR`: left to right.
    LeftRight,
    /// `RL`: right to left.
    RightLeft,
}

impl Direction {
    /// Whether ranks run horizontally (LR, RL).
    pub fn is_horizontal(self) -> bool {
        matches!(self, Direction::LeftRight | Direction::RightLeft)
    }
}

/// The Mermaid shape of a node (flowchart and mind map syntaxes together).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeShape {
    /// `[text]`.
    Rectangle,
    /// `(text)`.
    Rounded,
    /// `([text])`.
    Stadium,
    /// `((text))`.
    Circle,
    /// `(((text)))`.
    DoubleCircle,
    /// `{text}`.
    Diamond,
    /// `{{text}}`.
    Hexagon,
    /// `[/text/]`.
    Parallelogram,
    /// `[\text\]`.
    ParallelogramAlt,
    /// `[/text\]`.
    Trapezoid,
    /// `[\text/]`.
    TrapezoidAlt,
    /// `[(text)]`, a database.
    Cylinder,
    /// `[[text]]`.
    Subroutine,
    /// `>text]`.
    Asymmetric,
    /// Mind map `))text((`.
    Bang,
    /// Mind map `)text(`.
    Cloud,
    /// Mind map node written without brackets.
    Plain,
    /// `@{ shape: text }`: a text with no outline.
    Text,
    /// `@{ shape: notch-rect }` and the tagged shapes: a card, one corner cut.
    Card,
    /// `@{ shape: doc }` and the other documents.
    Document,
    /// `@{ shape: tri }`, `flip-tri`, `hourglass`.
    Triangle,
    /// `@{ shape: bolt }`.
    Bolt,
    /// `@{ shape: bow-rect }`, `flag`: an outline with notched corners.
    Plaque,
    /// `@{ shape: brace }`, `brace-r`, `braces`: a comment bracket.
    Brace,
    /// `@{ shape: notch-pent }`: a loop limit, the top corners cut.
    LoopLimit,
    /// `@{ shape: sm-circ }`, `f-circ`: a small circle without text.
    SmallCircle,
    /// `@{ shape: fork }`: a bar without text.
    Fork,
}

/// How an end of an edge or message is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Head {
    /// No decorator.
    None,
    /// A filled arrow (`>`).
    Arrow,
    /// An open arrow (sequence `-)`).
    Open,
    /// A circle (`o`).
    Circle,
    /// A cross (`x`).
    Cross,
}

/// The stroke of an edge or message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stroke {
    /// `--`.
    Normal,
    /// `-.` (flowchart) or `--` (sequence).
    Dotted,
    /// `==`.
    Thick,
    /// `~~~`: takes part in the layout, drawn as nothing.
    Invisible,
}

/// A flowchart node.
#[derive(Debug, Clone, PartialEq)]
pub struct FlowNode {
    /// The Mermaid id.
    pub id: String,
    /// Its text (the id when none was given).
    pub text: String,
    /// Its shape.
    pub shape: NodeShape,
    /// The innermost subgraph holding it (index into [`Flowchart::subgraphs`]).
    pub subgraph: Option<usize>,
    /// Bold/italic marks per character of `text` (markdown strings), empty for none.
    pub marks: Vec<u8>,
    /// Its style: `classDef`s of its classes, then `style` statements.
    pub style: crate::style::Style,
}

/// A flowchart edge.
#[derive(Debug, Clone, PartialEq)]
pub struct FlowEdge {
    /// Index of the source node.
    pub from: usize,
    /// Index of the target node.
    pub to: usize,
    /// The edge's text, if any.
    pub text: Option<String>,
    /// Decorator at the source.
    pub start: Head,
    /// Decorator at the target.
    pub end: Head,
    /// Line style.
    pub stroke: Stroke,
    /// Ranks the edge asks to span (1 for `-->`, 2 for `--->`…).
    pub length: usize,
    /// Bold/italic marks per character of `text`, empty for none.
    pub marks: Vec<u8>,
    /// Its id (`A e1@--> B`).
    pub id: Option<String>,
    /// Its `linkStyle`.
    pub style: crate::style::Style,
    /// The subgraph the edge leaves, when written from one: `from` is then a node inside it that
    /// stands for it in the layout, and the line starts on the subgraph's border.
    pub from_subgraph: Option<usize>,
    /// The subgraph the edge enters, likewise.
    pub to_subgraph: Option<usize>,
}

/// A `subgraph … end` block.
#[derive(Debug, Clone, PartialEq)]
pub struct Subgraph {
    /// Its id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// The subgraph it is nested in.
    pub parent: Option<usize>,
    /// Its own `direction`, when it sets one.
    pub direction: Option<Direction>,
    /// Its style (`style`, `class`).
    pub style: crate::style::Style,
}

/// A flowchart.
#[derive(Debug, Clone, PartialEq)]
pub struct Flowchart {
    /// Rank direction.
    pub direction: Direction,
    /// Nodes in order of first mention.
    pub nodes: Vec<FlowNode>,
    /// Edges in source order.
    pub edges: Vec<FlowEdge>,
    /// Subgraphs in order of opening.
    pub subgraphs: Vec<Subgraph>,
    /// The front matter's `title`.
    pub title: Option<String>,
}

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
    /// The emphasis of each character of `text` (`crate::rich::BOLD`/`ITALIC` bits) when it was
    /// a markdown string with `**bold**` or `*italic*` parts; empty otherwise.
    pub emphasis: Vec<u8>,
}

/// A mind map; node 0 is the root.
#[derive(Debug, Clone, PartialEq)]
pub struct Mindmap {
    /// Every node; node 0 is the root.
    pub nodes: Vec<MindNode>,
}

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
