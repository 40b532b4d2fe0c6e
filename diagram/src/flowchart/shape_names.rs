//! Mermaid 11's named shapes (`A@{ shape: <name> }`): every short name and alias of its shape
//! table, each mapped to the nearest of our node shapes, which [`crate::node_boxes`] maps to the
//! spec's shape types. docs/diagrams/flowchart.md shows the table with the canvas type of each.

use crate::graph::NodeShape;

/// (Mermaid's names for one shape, the node shape drawing it.) The first name is the short name.
pub const SHAPES: &[(&[&str], NodeShape)] = &[
    (&["rect", "proc", "process", "rectangle", "squareRect"], NodeShape::Rectangle),
    (&["rounded", "event", "roundedRect"], NodeShape::Rounded),
    (&["stadium", "terminal", "pill"], NodeShape::Stadium),
    (&["fr-rect", "subprocess", "subproc", "framed-rectangle", "subroutine"], NodeShape::Subroutine),
    (&["cyl", "db", "database", "cylinder"], NodeShape::Cylinder),
    (&["datastore", "data-store"], NodeShape::Cylinder),
    (&["circle", "circ"], NodeShape::Circle),
    (&["bang"], NodeShape::Bang),
    (&["cloud"], NodeShape::Cloud),
    (&["diam", "decision", "diamond", "question"], NodeShape::Diamond),
    (&["hex", "hexagon", "prepare"], NodeShape::Hexagon),
    (&["lean-r", "lean-right", "in-out", "lean_right"], NodeShape::Parallelogram),
    (&["lean-l", "lean-left", "out-in", "lean_left"], NodeShape::ParallelogramAlt),
    (&["trap-b", "priority", "trapezoid-bottom", "trapezoid"], NodeShape::Trapezoid),
    (&["trap-t", "manual", "trapezoid-top", "inv-trapezoid", "inv_trapezoid"], NodeShape::TrapezoidAlt),
    (&["dbl-circ", "double-circle", "doublecircle"], NodeShape::DoubleCircle),
    (&["text"], NodeShape::Text),
    (&["notch-rect", "card", "notched-rectangle"], NodeShape::Card),
    (&["lin-rect", "lined-rectangle", "lined-process", "lin-proc", "shaded-process"], NodeShape::Subroutine),
    (&["sm-circ", "start", "small-circle", "stateStart"], NodeShape::SmallCircle),
    (&["fr-circ", "stop", "framed-circle", "stateEnd"], NodeShape::DoubleCircle),
    (&["fork", "join", "forkJoin"], NodeShape::Fork),
    (&["hourglass", "collate"], NodeShape::Triangle),
    (&["brace", "comment", "brace-l"], NodeShape::Brace),
    (&["brace-r"], NodeShape::Brace),
    (&["braces"], NodeShape::Brace),
    (&["bolt", "com-link", "lightning-bolt"], NodeShape::Bolt),
    (&["doc", "document"], NodeShape::Document),
    (&["delay", "half-rounded-rectangle"], NodeShape::Rounded),
    (&["h-cyl", "das", "horizontal-cylinder"], NodeShape::Stadium),
    (&["lin-cyl", "disk", "lined-cylinder"], NodeShape::Cylinder),
    (&["curv-trap", "curved-trapezoid", "display"], NodeShape::Asymmetric),
    (&["div-rect", "div-proc", "divided-rectangle", "divided-process"], NodeShape::Rectangle),
    (&["tri", "extract", "triangle"], NodeShape::Triangle),
    (&["win-pane", "internal-storage", "window-pane"], NodeShape::Subroutine),
    (&["f-circ", "junction", "filled-circle"], NodeShape::SmallCircle),
    (&["notch-pent", "loop-limit", "notched-pentagon"], NodeShape::LoopLimit),
    (&["flip-tri", "manual-file", "flipped-triangle"], NodeShape::Triangle),
    (&["sl-rect", "manual-input", "sloped-rectangle"], NodeShape::Trapezoid),
    (&["docs", "documents", "st-doc", "stacked-document"], NodeShape::Document),
    (&["st-rect", "procs", "processes", "stacked-rectangle"], NodeShape::Subroutine),
    (&["bow-rect", "stored-data", "bow-tie-rectangle"], NodeShape::Plaque),
    (&["cross-circ", "summary", "crossed-circle"], NodeShape::Circle),
    (&["tag-doc", "tagged-document"], NodeShape::Document),
    (&["tag-rect", "tagged-rectangle", "tag-proc", "tagged-process"], NodeShape::Card),
    (&["flag", "paper-tape"], NodeShape::Plaque),
    (&["odd", "rect_left_inv_arrow"], NodeShape::Asymmetric),
    (&["lin-doc", "lined-document"], NodeShape::Document),
    // Shapes of other diagram kinds Mermaid also accepts in flowcharts.
    (&["icon", "iconSquare", "iconRounded", "imageSquare", "image"], NodeShape::Rectangle),
    (&["iconCircle", "mindmapCircle"], NodeShape::Circle),
    (&["anchor"], NodeShape::SmallCircle),
    (
        &["state", "rectWithTitle", "labelRect", "kanbanItem", "classBox", "erBox", "requirementBox"],
        NodeShape::Rectangle,
    ),
    (&["choice"], NodeShape::Diamond),
    (&["note"], NodeShape::Card),
    (&["defaultMindmapNode"], NodeShape::Rounded),
];

/// The node shape of a Mermaid shape name (case as Mermaid spells it; also accepted in any case).
pub fn shape(name: &str) -> Option<NodeShape> {
    SHAPES.iter().find(|(names, _)| names.iter().any(|n| n.eq_ignore_ascii_case(name))).map(|(_, shape)| *shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_of_mermaids_table_is_known_once() {
        let mut seen = std::collections::HashSet::new();
        for (names, _) in SHAPES {
            for name in *names {
                assert!(seen.insert(name.to_ascii_lowercase()), "{name} twice");
            }
        }
        assert_eq!(shape("doc"), Some(NodeShape::Document));
        assert_eq!(shape("Decision"), Some(NodeShape::Diamond));
        assert_eq!(shape("blob"), None);
    }
}
