//! canvas-diagram: Mermaid source turned into a laid-out diagram, and that
//! diagram into the canvas items that draw it.
//!
//! Three steps, all pure functions: [`parse`] reads the source into a
//! [`Diagram`], [`layout`] places it as a [`Scene`] (map units, origin at the
//! top left), and [`to_items`] plans one [`PlannedItem`] per item to create:
//! its type, parent and the exact JSON properties a single REST create takes,
//! with `"ref:<reference>"` wherever another planned item's id belongs.
//!
//! # Layout
//! `lib.rs` is the door: it declares the modules and re-exports the API; it defines nothing.
//! The modules import downwards only, in this order (no module imports one listed after it):
//! - `error.rs` ([`DiagramError`]), `limits.rs` ([`MAX_SOURCE_BYTES`], [`MAX_ITEMS`],
//!   [`MAX_LABEL_CHARS`], [`KINDS`]): what every layer reads.
//! - [`text`]: label text cleaning, width estimate (the renderer's), wrapping; `text/entities.rs`
//!   Mermaid's `#59;` entity codes, `text/markdown.rs` markdown bold/italic as label HTML.
//! - [`source`]: lines and a column-aware cursor. [`styling`] (also [`style`]): CSS styles and
//!   colours of Mermaid's styling statements; `styling/theme.rs` the theme from front matter and
//!   `%%{init}%%`.
//! - `graph.rs` (public as [`model`], with [`Diagram`] and the kinds' models): the flowchart graph
//!   and the shapes, heads, strokes and directions every kind draws with.
//! - `syntax/`: statements several parsers read alike (`mod.rs`: the class, ER and state headers,
//!   `direction`, skipped lines, quoted strings; `style_sheet.rs`: `classDef`, `class`, `style`,
//!   `linkStyle`, shared with flowcharts).
//! - [`scene`]: boxes, lines and texts with their geometry, what every layout produces.
//!   `node_boxes.rs`: node sizes per shape, node colours, the spec type of each shape.
//! - `layered/`: the shared layered (Sugiyama) layout (see below; `layout_boxes` takes boxes sized
//!   elsewhere): `mod.rs` ranks and the layered graph, `simplex.rs` network simplex, `order.rs`
//!   crossing reduction, `position.rs` coordinates, `route.rs` edge routes, `emit.rs` the scene,
//!   `paint.rs` colours and strokes, `ends.rs` links cut at subgraph borders and the title,
//!   `nested.rs` `direction` inside subgraphs, `sized.rs` the engine on given sizes for
//!   [`arrange`]. `section_boxes.rs`: what the class, ER and state layouts add to it (boxes sized
//!   by their sections and filled with labels after the layout, texts at connector ends, ends
//!   moved onto containers, references safe for any id).
//! - One folder per diagram kind, each with its model, parser, layout, item count and tests side
//!   by side: `flowchart/` (`mod.rs` statements, `nodes.rs` node shapes and shape data,
//!   `shape_names.rs` Mermaid's named shapes, `links.rs` arrows, `export.rs` the writer back to
//!   Mermaid; its layout is `layered/`), `mindmap/` (`mod.rs` model, `parse.rs`, `layout.rs` a
//!   tidy tree per side, `export.rs`), `sequence/` (`model.rs`; `mod.rs` statements, `pieces.rs`
//!   statements cut at `;` and comments, `arrows.rs` messages, `declare.rs` participants, boxes
//!   and notes; `layout.rs`, `drawing.rs` participant symbols, bars, marks and the item count,
//!   `export.rs`), [`class`], [`er`], [`state`] (`mod.rs` model, `parse.rs`, `layout.rs`).
//! - `diagram.rs`: [`Diagram`], the one enum naming every kind, and the steps that dispatch on
//!   it: [`parse`], [`layout`], [`planned_count`] (and the theme laid under the diagram's styling).
//! - `planned_items/`: scene to items ([`to_items`], [`PlannedItem`]); `element_keys.rs` (public as
//!   [`elements`]) which Mermaid element each item draws. [`export`]: what the three writers back
//!   to Mermaid share ([`MapItem`], the item map, Mermaid ids, label text as Mermaid strings).
//! - [`arrange`]: existing canvas items (boxes of given sizes, edges between them) laid out as a
//!   grid, a layered graph (`layered/sized.rs`) or a tidy tree (the mind map's Reingold–Tilford in
//!   `mindmap/layout.rs`), for core-service's arrange items; `arrange/tests.rs` its tests.
//!
//! The tests under `tests/` lay out the goldens (`tests/golden/*.mmd`), check their geometry
//! and items, compare edge crossings with Graphviz `dot`, and keep a PNG of each under
//! `$CARGO_TARGET_DIR/test-artifacts/diagrams/` (see `tests/common/mod.rs`).
//!
//! # Supported Mermaid
//! - `flowchart`/`graph`/`flowchart-elk`, Mermaid 11's whole grammar (written from its
//!   `flow.jison`; docs/diagrams/flowchart.md has every construct and how it maps to items):
//!   the bracket shapes and `A@{ shape: …, label: … }` with every name of Mermaid's shape table,
//!   quoted strings over several lines, markdown strings (bold and italic become label HTML),
//!   `<br>`, character codes; every link form with ids (`A e1@--> B`), texts, chains, `&`, and
//!   links continued on the next line; subgraphs with titles of every form, nested, linked to
//!   (a connector attached to the container); `classDef`/`class`/`:::`/`style`/`linkStyle` set
//!   fill, stroke, stroke width and text colour ([`style`]); the front matter's `title`.
//! - `mindmap` (the whole grammar of Mermaid 11, `docs/diagrams/mindmap.md`): indentation as
//!   Mermaid counts it (white space characters; the root anywhere), shapes `[ ]`, `( )`, `(( ))`,
//!   `)) ((`, `) (`, `{{ }}`, `(- -)`, with or without an id, `"strings"` and markdown strings
//!   ``"`**bold** *italic*`"`` (label HTML) over several lines, entity codes, `::icon()`,
//!   `:::class` and `%%` comments read and not drawn.
//! - `sequenceDiagram` (the whole grammar of Mermaid 11, `docs/diagrams/sequence.md`):
//!   participants and actors with any name, `@{ "type": … }` symbols, `as` aliases, `box` groups
//!   with colour and title, `create`/`destroy`, `activate`/`deactivate` and `+`/`-` (bars), every
//!   arrow (`<<->>`, half arrows…), notes, `autonumber` with start, step and `off`, frames `loop`,
//!   `alt`/`else`, `opt`, `par`/`par_over`/`and`, `critical`/`option`, `break`, `rect` (coloured),
//!   `title`; `;` and `#` comments as Mermaid's lexer reads them; `link`, `links`,
//!   `properties`, `details`, `accTitle`, `accDescr` and `()` central connections read and not
//!   drawn.
//! - `classDiagram`/`classDiagram-v2`, `erDiagram`, `stateDiagram-v2`/`stateDiagram`: every
//!   construct of Mermaid 11's grammars, mapped as `docs/diagrams/class.md`, `er.md` and `state.md`
//!   describe (classes as boxes with compartment labels, relation ends as decorators plus texts,
//!   namespaces; entities with attribute tables, cardinalities as texts at the ends; states, `[*]`,
//!   choice, fork and join, composite states and concurrent regions as containers, notes).
//! - Configuration (`styling/theme.rs`): the front matter's `title` (flowcharts), `theme` and
//!   `themeVariables` from front matter `config:` and `%%{init}%%` (colours under the styling).
//!   `direction` inside subgraphs and composite states, as Mermaid honours it (`layered/nested.rs`).
//! - Ignored: flowchart `click`/`call`/`href`, `accTitle`/`accDescr`, edge metadata
//!   (`e1@{ animate: true }`), `%%` comments, the rest of the configuration.
//! - Rejected with a [`DiagramError`] naming line and column: anything else, e.g. a link to a
//!   subgraph with no nodes, an unknown `@{ shape }`; an empty source, an
//!   unknown diagram type, unterminated brackets, strings and link texts, `end` without an open
//!   block, a block left open; a source over [`MAX_SOURCE_BYTES`] or one that would make more
//!   than [`MAX_ITEMS`] items. Texts longer than [`MAX_LABEL_CHARS`] are clipped, not refused.
//!
//! # Items
//! A node is a `shape` (no text: the spec's shapes have none) plus a `label` child with the same
//! box, auto-size off, centred both ways; texts are wrapped here with line breaks, the boxes
//! sized to fit them. A subgraph is a `Rectangle` with a faint fill (`#1F94A3B8`) and a title
//! label, and is the parent of its nodes, nested subgraphs and inner edges. An edge is a
//! `connector` attached to both shapes (`itemId: "ref:n:…"`, `edge: true`, the port as the
//! offset), or to a subgraph's container, `Angled` with `cornerPoints` (`Straight` only when its
//! ends line up); its text a label child beside the line. References are made from Mermaid
//! ids, and any that is not a valid bulk `ref` keeps its allowed characters and gains a stable hash
//! (`planned_items/mod.rs`). Mind maps: one shape + label per node, `Curved` (or angled) connectors without
//! decorators, colours per branch. Sequence diagrams: participant boxes at the top and bottom
//! joined by a lifeline connector, messages as connectors with free ends, notes as
//! `sticky-note`s, frames as `Rectangle` containers with a title label and a line per
//! `else`/`and`, a `box` as a `Rectangle` parent of its participants, activations as thin
//! rectangles on the lifeline, a destroyed lifeline ending in an X of two short connectors.
//! Colours are dark fills with light outlines and white text, for the map's dark background;
//! Mermaid's colours (`rect`, `box`) are laid over it as 30 % tints. Item references are made
//! from scene keys; a key outside the bulk `ref` rule is rewritten (`planned_items/mod.rs`), so no Mermaid
//! id can make a batch that core-service refuses.
//!
//! # Shapes and lines on the canvas
//! Mermaid shapes map to the spec's closest `type`: rectangle → `Rectangle`, rounded →
//! `RoundedRectangle`, stadium → `RoundedRectangle` with half the height as corner radius (a
//! pill), circle and double circle → `Ellipse` (square), diamond → `Diamond`, hexagon →
//! `Hexagon`, both parallelograms → `Parallelogram`, both trapezoids → `Trapezoid` (the
//! spec has one orientation of each), database `[( )]` → `TwoSameSideRoundCornerRectangle`
//! (rounded top, the nearest to a cylinder), subroutine `[[ ]]` → `Frame` (the double outline),
//! asymmetric `> ]` → `DirectionArrowRight` (notched on the left), mind map plain nodes →
//! `RoundedRectangle`, hexagon `{{ }}` → `Hexagon`,
//! mind map bang → `Star6`, cloud → `Ellipse`. The spec has no dotted stroke: dotted links are
//! drawn thinner (1 instead of 2) and dimmer; thick links get `strokeThickness` 4. Ends: `>` is
//! `Arrow`, `o` is `Circle`, and `x` (and the sequence open arrow `)`) is `ArrowLine`, the
//! spec's only other end mark.
//!
//! # Flowchart layout
//! A layered (Sugiyama) layout written here (`layered/`), after evaluating the crates.io
//! options: `layout-rs` has no clusters (its docs list nested graphs as missing) and no API for
//! routes; `rust-sugiyama` takes node sizes but has no clusters, no directions and no edge routes;
//! `dagre` (a young port of dagre.js) has clusters and directions but routes edges as free
//! polylines, while canvas connectors are straight or right-angled, and dagre.js's crossing
//! reduction is weaker than Graphviz's, which the tests compare against. The steps: cycles
//! broken by a depth-first search (back edges reversed); ranks by network simplex; dummy nodes
//! on long edges (a labelled edge spans two ranks, its text beside the line at the middle
//! dummy, which reserves the text's width on its right);
//! crossing reduction by barycenter sweeps with transposition, subgraphs kept contiguous and in
//! one order on every rank, best order kept; x coordinates by network simplex on Graphviz's
//! auxiliary graph (edges pulled straight, separation and subgraph borders as constraints);
//! edges routed right-angled through the channels between ranks on separate tracks, straight
//! only where the ends line up.

pub mod arrange;
pub mod class;
pub mod er;
pub mod export;
pub mod scene;
pub mod source;
pub mod state;
pub mod styling;
pub mod text;

mod diagram;
mod error;
mod flowchart;
mod graph;
mod layered;
mod limits;
mod mindmap;
mod node_boxes;
mod planned_items;
mod section_boxes;
mod sequence;
mod syntax;

pub use class::export::export_class;
pub use diagram::{layout, parse, planned_count, Diagram};
pub use er::export::export_er;
pub use error::DiagramError;
pub use export::MapItem;
pub use flowchart::export::export_flowchart;
pub use limits::{KINDS, MAX_ITEMS, MAX_LABEL_CHARS, MAX_SOURCE_BYTES};
pub use mindmap::export::export_mindmap;
pub use node_boxes::spec_type;
pub use planned_items::element_keys as elements;
pub use planned_items::{to_items, PlannedItem};
pub use scene::{scene_bounds, Scene};
pub use sequence::export::export_sequence;
pub use state::export::export_state;
/// The styling module under its former name.
pub use styling as style;

/// What a source says once parsed, under the path it has always had: [`Diagram`] and the types
/// of its kinds' models.
pub mod model {
    pub use crate::diagram::Diagram;
    pub use crate::graph::*;
    pub use crate::mindmap::{MindNode, Mindmap};
    pub use crate::sequence::{NotePlace, Participant, ParticipantGroup, ParticipantKind, SeqEvent, Sequence};
}
