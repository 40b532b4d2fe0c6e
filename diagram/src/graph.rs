//! The graph of boxes and links before any geometry: a flowchart's nodes, links and subgraphs,
//! and the vocabulary every kind draws with (node shapes, link heads and strokes, directions).
//! Texts are already cleaned (see [`crate::text::clean`]): plain text, `\n` for line breaks,
//! clipped.
//!
//! It is shared, not the flowchart's own: the class, ER and state layouts build a [`Flowchart`]
//! of boxes for the layered engine ([`crate::layered`]), and mind maps and sequence diagrams use
//! its shapes, heads and strokes. Each kind's own model is in its folder; the diagram of any
//! kind, [`crate::diagram::Diagram`], is above them all.

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
    pub style: crate::styling::Style,
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
    pub style: crate::styling::Style,
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
    pub style: crate::styling::Style,
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
