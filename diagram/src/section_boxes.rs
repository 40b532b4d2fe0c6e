//! What the class, ER and state layouts share. Their boxes hold more than one
//! text (a class's name, attributes and methods; an entity's title and its
//! attribute table), so they are sized here from their sections, laid out by
//! the flowchart engine as boxes of those sizes ([`crate::layered::layout_boxes`]),
//! and filled afterwards: each section a label child of the box, a thin
//! free-ended connector between sections as the divider.
//!
//! Also here: item references safe for any Mermaid id, texts at the ends of a
//! connector (cardinalities), and a connector's end moved from a node inside a
//! container to the container's border (transitions to a composite state).

use crate::node_boxes::{NodeBox, NODE_STROKE};
use crate::scene::{BoxRole, End, LineKind, Owner, Point, Rect, Scene, SceneBox, SceneLine, SceneText};
use crate::text::{self, Block};

/// Where member and attribute texts wrap.
pub(crate) const MEMBER_WRAP: f64 = 280.0;
/// Widest a table cell grows before it is cut with `…` (rows must stay one line to align).
const CELL_WIDTH: f64 = 220.0;
/// Narrowest box with sections.
const MIN_BOX_WIDTH: f64 = 90.0;
/// Texts at a connector's ends: the map's own colour behind them, so they read over lines.
const END_TEXT_BACKGROUND: &str = "#0F172A";
pub(crate) const END_TEXT: &str = "#CBD5E1";
/// Fully transparent, for labels drawn on their box's own fill.
pub const CLEAR: &str = "#00000000";

/// The id a box or container gets in the engine (and so its item reference,
/// `n:<id>` or `sg:<id>`): the Mermaid id when it is a valid reference as it
/// is, else `:<index>` (references allow letters, digits, `_`, `-`, `.`, `:`
/// and 64 characters; no Mermaid id kept as written contains `:`, so the two
/// forms never meet).
pub fn safe_id(id: &str, index: usize) -> String {
    let plain = !id.is_empty()
        && id.chars().count() <= 48
        && id.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if plain {
        id.to_owned()
    } else {
        format!(":{index}")
    }
}

/// One band of a box: one or more columns of text side by side.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    /// Each column's text, lines separated by `\n`.
    pub columns: Vec<String>,
    /// Font size.
    pub font: f64,
    /// Centred (a title) or left-aligned (members, table cells).
    pub centred: bool,
    /// Table cells: every line kept on one line (cut with `…`), so rows align across columns.
    pub table: bool,
}

impl Section {
    /// A one-column section.
    pub fn text(text: String, font: f64, centred: bool) -> Section {
        Section { columns: vec![text], font, centred, table: false }
    }
}

/// Sections measured: each column's wrapped text and width, each section's height.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// Per section: its columns (wrapped text, label width) and its height.
    pub sections: Vec<(Vec<(String, f64)>, f64)>,
    /// The box width they need.
    pub width: f64,
    /// The box height they need.
    pub height: f64,
}

/// Measures `sections` for a box at least `min_height` tall.
pub fn measure(sections: &[Section], min_height: f64) -> Measured {
    let mut out = Vec::new();
    let mut width = MIN_BOX_WIDTH;
    for section in sections {
        let mut columns = Vec::new();
        let mut height: f64 = 0.0;
        for column in &section.columns {
            let block = if section.table {
                let lines: Vec<String> = column.split('\n').map(|l| text::fit(l, section.font, CELL_WIDTH)).collect();
                cell_block(&lines, section.font)
            } else {
                text::block(column, section.font, MEMBER_WRAP)
            };
            let (w, h) = text::label_size(&block, section.font);
            height = height.max(h);
            columns.push((block.text, w));
        }
        width = width.max(columns.iter().map(|c| c.1).sum::<f64>() + 8.0);
        out.push((columns, height));
    }
    let height = out.iter().map(|s| s.1).sum::<f64>().max(min_height);
    Measured { sections: out, width: width.ceil(), height: height.ceil() }
}

/// Lines kept as they are, measured as a block.
fn cell_block(lines: &[String], font: f64) -> Block {
    let widest = lines.iter().map(|l| text::width(l, font)).fold(font, f64::max);
    Block { text: lines.join("\n"), width: widest, height: lines.len().max(1) as f64 * text::LINE_HEIGHT * font }
}

/// The engine's box for measured sections: no text of its own (the sections are drawn by [`fill`]).
pub fn section_box(measured: &Measured, shape: &'static str) -> NodeBox {
    NodeBox { text: String::new(), width: measured.width, height: measured.height, shape, corner_radius: None }
}

/// Draws `sections` into box `b` of the scene: a label per column (the box
/// its parent), stacked top to bottom, and a divider between sections. An
/// empty column gets no label (labels need a text).
pub fn fill(scene: &mut Scene, b: usize, sections: &[Section], measured: &Measured) {
    let rect = scene.boxes[b].rect;
    let key = scene.boxes[b].key.clone();
    // The box's own text colour: its style's, or dark on a light fill (layered::paint).
    let color = scene.boxes[b].text_color.clone();
    // Dividers in the box's outline colour when it is opaque (`#RRGGBB` reads the same as a
    // shape colour and as CSS; `#AARRGGBB` would not).
    let stroke = &scene.boxes[b].stroke;
    let divider = if stroke.len() == 7 { stroke.clone() } else { NODE_STROKE.to_owned() };
    let mut top = rect.y;
    for (s, (section, (columns, height))) in sections.iter().zip(&measured.sections).enumerate() {
        if s > 0 {
            scene.lines.push(SceneLine {
                key: format!("div{s}:{key}"),
                start: End { at: (rect.x, top), attach: None, head: crate::graph::Head::None },
                end: End { at: (rect.right(), top), attach: None, head: crate::graph::Head::None },
                corners: Vec::new(),
                kind: LineKind::Straight,
                color: divider.clone(),
                thickness: 1.0,
                container: Some(b),
            });
        }
        let mut left = rect.x + 4.0;
        let count = columns.len();
        for (c, (text, width)) in columns.iter().enumerate() {
            // The last column takes what is left, so a lone column spans the box.
            let width = if c + 1 == count { rect.right() - 4.0 - left } else { *width };
            let cell = |text: &str, rect: Rect, key: String| SceneText {
                key,
                rect,
                text: text.to_owned(),
                font_size: section.font,
                owner: Owner::Box(b),
                color: color.clone(),
                background: CLEAR.into(),
                centred: section.centred,
            };
            let width = width.max(text::FONT_SIZE);
            if sparse(section, text) {
                // Labels drop empty lines, so a column with gaps is drawn cell by cell, each
                // cell's line exactly where the whole column would have put it.
                let line = text::LINE_HEIGHT * section.font;
                let lines = text.split('\n').count() as f64;
                let first_middle = top + (height - lines * line) / 2.0 + line / 2.0;
                for (row, value) in text.split('\n').enumerate().filter(|(_, v)| !v.is_empty()) {
                    let middle = first_middle + row as f64 * line;
                    let cell_height = line + 2.0 * text::LABEL_PADDING * section.font + 2.0;
                    let rect = Rect { x: left, y: middle - cell_height / 2.0, width, height: cell_height };
                    scene.texts.push(cell(value, rect, format!("s{s}c{c}r{row}:{key}")));
                }
            } else if !text.is_empty() {
                let rect = Rect { x: left, y: top, width, height: *height };
                scene.texts.push(cell(text, rect, format!("s{s}c{c}:{key}")));
            }
            left += width;
        }
        top += height;
    }
}

/// Whether a table column has empty cells (and so is drawn cell by cell).
fn sparse(section: &Section, column: &str) -> bool {
    section.table && !column.is_empty() && column.split('\n').any(str::is_empty)
}

/// How many items [`fill`] plans for `sections`: a label per non-empty column (per non-empty cell of
/// a column with gaps), a divider between sections.
pub fn fill_count(sections: &[Section]) -> usize {
    let labels = |s: &Section, column: &String| {
        if sparse(s, column) {
            column.split('\n').filter(|v| !v.is_empty()).count()
        } else {
            usize::from(!column.is_empty())
        }
    };
    let all: usize = sections.iter().map(|s| s.columns.iter().map(|c| labels(s, c)).sum::<usize>()).sum();
    all + sections.len().saturating_sub(1)
}

/// A small text beside the end of line `l` (its start when `at_start`): just
/// off the box it leaves, to the side of the line, on the map's colour.
pub fn end_text(scene: &mut Scene, l: usize, at_start: bool, text: &str, key: String) {
    let points = scene.lines[l].drawn();
    let (tip, next) =
        if at_start { (points[0], points[1]) } else { (points[points.len() - 1], points[points.len() - 2]) };
    let length = ((next.0 - tip.0).powi(2) + (next.1 - tip.1).powi(2)).sqrt().max(1e-9);
    let (ux, uy) = ((next.0 - tip.0) / length, (next.1 - tip.1) / length);
    let block = text::block(text, text::SMALL_FONT_SIZE, 120.0);
    let (w, h) = text::label_size(&block, text::SMALL_FONT_SIZE);
    // Along the line by half the text's extent in that direction, then aside by the other half.
    let along = (ux.abs() * w + uy.abs() * h) / 2.0 + 4.0;
    let aside = (uy.abs() * w + ux.abs() * h) / 2.0 + 3.0;
    let centre = (tip.0 + ux * along - uy * aside, tip.1 + uy * along + ux * aside);
    scene.texts.push(SceneText {
        key,
        rect: Rect::centred(centre.0, centre.1, w, h),
        text: block.text,
        font_size: text::SMALL_FONT_SIZE,
        owner: Owner::Line(l),
        color: END_TEXT.into(),
        background: END_TEXT_BACKGROUND.into(),
        centred: true,
    });
}

/// Where segment a–b first meets `rect` (a parameter 0..=1 along it), when `a` lies outside.
fn entry(rect: &Rect, a: Point, b: Point) -> Option<f64> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, q) in [(-dx, a.0 - rect.x), (dx, rect.right() - a.0), (-dy, a.1 - rect.y), (dy, rect.bottom() - a.1)] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else if p < 0.0 {
            t0 = t0.max(q / p);
        } else {
            t1 = t1.min(q / p);
        }
    }
    (t0 <= t1 && t0 > 1e-9).then_some(t0)
}

/// Moves the end of line `l` (its start when `at_start`) from the node it was
/// routed to onto the border of container box `c`, where the route enters
/// it, and attaches it there. False (nothing changed) when the route starts
/// inside the container, as an edge between a composite state and its own
/// member does.
pub fn end_on_container(scene: &mut Scene, l: usize, at_start: bool, c: usize) -> bool {
    let rect = scene.boxes[c].rect;
    let mut points = scene.lines[l].points();
    if at_start {
        points.reverse();
    }
    let Some((i, t)) = points.windows(2).enumerate().find_map(|(i, w)| entry(&rect, w[0], w[1]).map(|t| (i, t))) else {
        return false;
    };
    let (a, b) = (points[i], points[i + 1]);
    let cut = (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1));
    let mut kept: Vec<Point> = points[..=i].to_vec();
    kept.push(cut);
    if at_start {
        kept.reverse();
    }
    let line = &mut scene.lines[l];
    line.corners = kept[1..kept.len() - 1].to_vec();
    if line.corners.is_empty() {
        line.kind = LineKind::Straight;
    }
    let end = if at_start { &mut line.start } else { &mut line.end };
    end.at = if at_start { kept[0] } else { kept[kept.len() - 1] };
    end.attach = Some(c);
    true
}

/// A plain box (no text) for the engine: start and end dots, choice diamonds, fork bars.
pub fn bare_box(shape: &'static str, width: f64, height: f64) -> NodeBox {
    NodeBox { text: String::new(), width, height, shape, corner_radius: None }
}

/// Turns node box `b` into a sticky note showing `text`.
pub fn make_note(scene: &mut Scene, b: usize, text: &str) {
    let note = &mut scene.boxes[b];
    note.role = BoxRole::Note;
    note.text = text.to_owned();
    note.font_size = text::SMALL_FONT_SIZE;
}

/// The box of a sticky note showing `text` (wrapped), for the engine.
pub fn note_box(text: &str) -> NodeBox {
    let block = text::block(text, text::SMALL_FONT_SIZE, 180.0);
    let (w, h) = text::label_size(&block, text::SMALL_FONT_SIZE);
    NodeBox {
        text: String::new(),
        width: (w + 16.0).max(60.0),
        height: (h + 16.0).max(40.0),
        shape: "Rectangle",
        corner_radius: None,
    }
}

/// A sticky note's wrapped text, as [`note_box`] measured it.
pub fn note_text(text: &str) -> String {
    text::nonempty(text::block(text, text::SMALL_FONT_SIZE, 180.0).text)
}

/// Restyles box `b`: fill, outline and its thickness.
pub fn paint(b: &mut SceneBox, fill: &str, stroke: &str, width: f64) {
    b.fill = fill.into();
    b.stroke = stroke.into();
    b.stroke_width = width;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_that_are_not_references_become_indexes() {
        assert_eq!(safe_id("Order_2.v1-x", 3), "Order_2.v1-x");
        assert_eq!(safe_id("Bestellung Ä", 3), ":3");
        assert_eq!(safe_id("a b", 0), ":0");
        assert_eq!(safe_id(&"x".repeat(49), 7), ":7");
    }

    #[test]
    fn sections_stack_and_tables_keep_rows_on_one_line() {
        let sections = [
            Section::text("Name".into(), 14.0, true),
            Section {
                columns: vec!["string\nint".into(), "a very long attribute name that would wrap".repeat(3)],
                font: 12.0,
                centred: false,
                table: true,
            },
        ];
        let m = measure(&sections, 0.0);
        assert_eq!(m.sections.len(), 2);
        assert!(!m.sections[1].0[1].0.contains('\n'), "a cell stays one line");
        assert!(m.height >= m.sections[0].1 + m.sections[1].1 - 1.0);
        assert_eq!(fill_count(&sections), 4);
    }

    #[test]
    fn a_route_is_cut_where_it_enters_a_container() {
        let rect = Rect { x: 0.0, y: 100.0, width: 200.0, height: 100.0 };
        assert_eq!(entry(&rect, (50.0, 0.0), (50.0, 150.0)), Some(100.0 / 150.0));
        assert_eq!(entry(&rect, (50.0, 120.0), (50.0, 150.0)), None, "starts inside");
        assert_eq!(entry(&rect, (300.0, 0.0), (300.0, 150.0)), None, "misses");
    }
}
