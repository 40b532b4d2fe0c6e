//! An entity box read back: its title and attribute table from its label children, its colours.
//!
//! The layout (`er/layout.rs`, `section_boxes::fill`) draws the title as a centred label in the
//! top band and the table below as left-aligned labels, one per column (type, name, then keys
//! and comment when some attribute has them), each line a row. A column with gaps is drawn cell
//! by cell, each cell one line at its row's height. Read back: the centred label is the title;
//! the other labels are grouped into columns by their left edge and into rows by their lines
//! (a whole column) or their height (a cell), rows placed with the table's own line height.

use canvas_vocabulary::items::ItemType;
use serde_json::Value;

use crate::er::Attribute;
use crate::export::text::visible;
use crate::export::Map;
use crate::node_boxes::{NODE_FILL, NODE_STROKE, NODE_TEXT};
use crate::styling::Color;
use crate::text::{self, FONT_SIZE, LABEL_PADDING, LINE_HEIGHT, SMALL_FONT_SIZE};

/// Where the layout wraps a title (`section_boxes`' member wrap).
const TITLE_WRAP: f64 = 280.0;
/// Labels whose left edges are this close (map units) are one column.
const SAME_COLUMN: f64 = 2.0;
/// The outline thickness of an unstyled entity box.
const NODE_STROKE_WIDTH: f64 = 2.0;

/// What an entity box shows.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct EntityBox {
    /// The title label's text (None when there is no title label).
    pub title: Option<String>,
    /// The table's rows, texts as shown.
    pub attributes: Vec<Attribute>,
    /// CSS for a `style` statement when the box is not drawn in the default colours.
    pub style: Option<String>,
}

/// Reads box `b`.
pub(super) fn read(map: &Map<'_>, b: usize) -> EntityBox {
    let labels: Vec<usize> =
        map.children(b).iter().copied().filter(|&c| map.kind(c) == Some(ItemType::Label)).collect();
    let title = labels.iter().copied().find(|&l| map.str_prop(l, "horizontalTextAlignment") == "Center");
    let table: Vec<usize> = labels.iter().copied().filter(|&l| Some(l) != title).collect();
    EntityBox {
        title: title.map(|l| unwrapped(map.str_prop(l, "text"), FONT_SIZE, TITLE_WRAP)),
        attributes: attributes(map, &table),
        style: style(map, b, title.or(table.first().copied())),
    }
}

/// A label's text as written before the layout wrapped it: its lines joined by spaces when
/// wrapping that line gives exactly these lines (the map cannot tell a wrap from a break, so a
/// break that the wrap would have made is read as a wrap), else its lines as they are.
pub(super) fn unwrapped(label_text: &str, font: f64, wrap: f64) -> String {
    let shown = visible(label_text);
    let joined = shown.replace('\n', " ");
    if shown.contains('\n') && text::block(&joined, font, wrap).text == shown {
        joined
    } else {
        shown
    }
}

/// One table label placed: its column's left edge, and its cells as (row, text).
struct Placed {
    left: f64,
    cells: Vec<(usize, String)>,
}

/// The attribute rows the table labels show.
fn attributes(map: &Map<'_>, table: &[usize]) -> Vec<Attribute> {
    let font_of = |l: usize| map.props(l).get("fontSize").and_then(Value::as_f64).filter(|f| *f > 0.0);
    // A whole column spans the band, so the tallest label gives the band and its row count.
    let Some(reference) = table.iter().copied().max_by(|&a, &b| map.bounds(a).half_h.total_cmp(&map.bounds(b).half_h))
    else {
        return Vec::new();
    };
    let band = map.bounds(reference);
    let font = font_of(reference).unwrap_or(SMALL_FONT_SIZE);
    let line = LINE_HEIGHT * font;
    let padding = 2.0 * LABEL_PADDING * font + 2.0;
    let rows = ((2.0 * band.half_h - padding) / line).round().clamp(1.0, 10_000.0);
    let first_middle = band.top() + (2.0 * band.half_h - rows * line) / 2.0 + line / 2.0;
    let mut placed: Vec<Placed> = table
        .iter()
        .map(|&l| {
            let bounds = map.bounds(l);
            let lines: Vec<String> = visible(map.str_prop(l, "text")).split('\n').map(str::to_owned).collect();
            let cells = if (bounds.half_h - band.half_h).abs() < 0.5 {
                lines.into_iter().enumerate().collect()
            } else {
                let row = ((bounds.cy - first_middle) / line).round().clamp(0.0, rows - 1.0) as usize;
                vec![(row, lines.join(" "))]
            };
            Placed { left: bounds.left(), cells }
        })
        .collect();
    placed.sort_by(|a, b| a.left.total_cmp(&b.left));
    let mut columns: Vec<Vec<(usize, String)>> = Vec::new();
    let mut column_left = f64::NEG_INFINITY;
    for label in placed {
        if columns.is_empty() || label.left - column_left > SAME_COLUMN {
            columns.push(Vec::new());
            column_left = label.left;
        }
        columns.last_mut().expect("pushed above").extend(label.cells);
    }
    let row_count = columns.iter().flatten().map(|(r, _)| r + 1).max().unwrap_or(0);
    let mut grid = vec![vec![String::new(); columns.len()]; row_count];
    for (c, column) in columns.iter().enumerate() {
        for (row, value) in column {
            let cell = &mut grid[*row][c];
            if !cell.is_empty() {
                cell.push(' ');
            }
            cell.push_str(value);
        }
    }
    let (keys_at, comment_at) = extra_columns(&grid, columns.len());
    grid.iter()
        .filter(|row| row.iter().any(|cell| !cell.is_empty()))
        .map(|row| {
            let cell = |c: Option<usize>| c.and_then(|c| row.get(c)).cloned().unwrap_or_default();
            Attribute {
                kind: cell(Some(0)),
                name: cell(Some(1)),
                keys: keys_of(&cell(keys_at)).unwrap_or_else(|| known_keys(&cell(keys_at))),
                comment: Some(cell(comment_at)).filter(|c| !c.is_empty()),
            }
        })
        .collect()
}

/// Which columns hold the keys and the comment. With four or more columns, the third and the
/// fourth (more columns are extra labels someone added, left out); with three, the third is
/// the keys when most of its cells read as keys, else the comment.
fn extra_columns(grid: &[Vec<String>], columns: usize) -> (Option<usize>, Option<usize>) {
    match columns {
        0..=2 => (None, None),
        3 => {
            let filled: Vec<&String> = grid.iter().map(|row| &row[2]).filter(|c| !c.is_empty()).collect();
            let keys = filled.iter().filter(|c| keys_of(c).is_some()).count();
            if 2 * keys > filled.len() {
                (Some(2), None)
            } else {
                (None, Some(2))
            }
        }
        _ => (Some(2), Some(3)),
    }
}

/// The keys a cell lists (`PK, FK`), when it lists nothing else.
fn keys_of(cell: &str) -> Option<Vec<String>> {
    cell.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| ["PK", "FK", "UK"].iter().find(|k| k.eq_ignore_ascii_case(t)).map(|k| (*k).to_owned()))
        .collect()
}

/// The keys a cell lists among other words (which Mermaid has no place for).
fn known_keys(cell: &str) -> Vec<String> {
    cell.split(|c: char| c == ',' || c.is_whitespace())
        .filter_map(|t| ["PK", "FK", "UK"].iter().find(|k| k.eq_ignore_ascii_case(t)).map(|k| (*k).to_owned()))
        .collect()
}

/// The `style` declarations that draw box `b` as it is: fill, outline, its thickness and the
/// text colour (of `text_label`), each only when it is not the default.
fn style(map: &Map<'_>, b: usize, text_label: Option<usize>) -> Option<String> {
    let mut declarations = Vec::new();
    let shape_color = |name: &str, default: &str| {
        let hex = map.str_prop(b, name);
        (!hex.is_empty() && !hex.eq_ignore_ascii_case(default)).then(|| argb_to_css(hex)).flatten()
    };
    if let Some(fill) = shape_color("fillColor", NODE_FILL) {
        declarations.push(format!("fill:{fill}"));
    }
    if let Some(stroke) = shape_color("strokeColor", NODE_STROKE) {
        declarations.push(format!("stroke:{stroke}"));
    }
    let width = map.props(b).get("strokeThickness").and_then(Value::as_f64).filter(|w| w.is_finite() && *w >= 0.0);
    if let Some(width) = width.filter(|w| (w - NODE_STROKE_WIDTH).abs() > 1e-9) {
        declarations.push(format!("stroke-width:{width}px"));
    }
    let color = text_label.map(|l| map.str_prop(l, "textColor")).filter(|c| !c.eq_ignore_ascii_case(NODE_TEXT));
    if let Some(color) = color.and_then(Color::parse) {
        declarations.push(format!("color:{}", color.css()));
    }
    (!declarations.is_empty()).then(|| declarations.join(","))
}

/// A shape colour (`#RRGGBB` or `#AARRGGBB`, alpha first) as CSS (`#RRGGBBAA`, alpha last).
fn argb_to_css(hex: &str) -> Option<String> {
    let digits = hex.strip_prefix('#')?;
    if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let css = match digits.len() {
        6 => format!("#{digits}"),
        8 => format!("#{}{}", &digits[2..], &digits[..2]),
        _ => return None,
    };
    Color::parse(&css).map(|c| if c.rgba[3] == 255 { c.css() } else { css })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_cells_are_read_as_keys_only_when_they_hold_nothing_else() {
        assert_eq!(keys_of("PK, fk"), Some(vec!["PK".to_owned(), "FK".to_owned()]));
        assert_eq!(keys_of(""), Some(vec![]));
        assert_eq!(keys_of("PK primary"), None);
        assert_eq!(known_keys("PK primary"), vec!["PK".to_owned()]);
    }

    #[test]
    fn shape_colours_become_css() {
        assert_eq!(argb_to_css("#FF99FF").as_deref(), Some("#FF99FF"));
        assert_eq!(argb_to_css("#80FF0000").as_deref(), Some("#FF000080"));
        assert_eq!(argb_to_css("red"), None);
        assert_eq!(argb_to_css("#12"), None);
    }

    #[test]
    fn a_wrapped_title_is_read_as_one_line() {
        let long = "word ".repeat(30);
        let wrapped = text::block(long.trim(), FONT_SIZE, TITLE_WRAP).text;
        assert!(wrapped.contains('\n'));
        assert_eq!(unwrapped(&wrapped, FONT_SIZE, TITLE_WRAP), long.trim());
        assert_eq!(unwrapped("one\ntwo", FONT_SIZE, TITLE_WRAP), "one\ntwo", "a break the wrap would not make");
    }
}
