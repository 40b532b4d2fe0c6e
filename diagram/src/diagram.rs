//! A diagram of any kind, and the three steps that dispatch on its kind: [`parse`] reads the
//! header and hands the lines to that kind's parser, [`layout`] to its layout, and
//! [`planned_count`] asks it how many items it will make. This is the only module that knows
//! every kind; the kinds know nothing of each other or of it.

use crate::class::{self, ClassDiagram};
use crate::er::{self, ErDiagram};
use crate::error::DiagramError;
use crate::graph::Flowchart;
use crate::limits::{KINDS, MAX_ITEMS, MAX_SOURCE_BYTES};
use crate::mindmap::Mindmap;
use crate::scene::Scene;
use crate::sequence::Sequence;
use crate::state::{self, StateDiagram};
use crate::styling::theme::{self, Config};
use crate::{flowchart, layered, mindmap, sequence, source, text};

/// A parsed diagram.
#[derive(Debug, Clone, PartialEq)]
pub enum Diagram {
    /// `flowchart` / `graph`.
    Flowchart(Flowchart),
    /// `mindmap`.
    Mindmap(Mindmap),
    /// `sequenceDiagram`.
    Sequence(Sequence),
    /// `classDiagram`.
    Class(ClassDiagram),
    /// `erDiagram`.
    Er(ErDiagram),
    /// `stateDiagram-v2` / `stateDiagram`.
    State(StateDiagram),
}

/// Reads Mermaid source. The first statement names the diagram type, one of [`KINDS`].
pub fn parse(source: &str) -> Result<Diagram, DiagramError> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(DiagramError::new(
            1,
            1,
            format!("the source is {} bytes, more than the limit of {MAX_SOURCE_BYTES}", source.len()),
        ));
    }
    let lines = source::lines(source);
    let Some(first) = lines.first() else {
        return Err(DiagramError::new(1, 1, "the source is empty: expected a diagram type such as `flowchart TD`"));
    };
    let mut cursor = source::Cursor::new(*first);
    cursor.skip_ws();
    let column = cursor.col();
    let keyword = cursor.take_while(|c| !c.is_whitespace() && c != ';');
    let mut diagram = match keyword.as_str() {
        "flowchart" | "graph" | "flowchart-elk" => Diagram::Flowchart(flowchart::parse(&lines)?),
        "mindmap" => Diagram::Mindmap(mindmap::parse(&lines)?),
        "sequenceDiagram" => Diagram::Sequence(sequence::parse(&lines)?),
        "classDiagram" | "classDiagram-v2" => Diagram::Class(class::parse(&lines)?),
        "erDiagram" => Diagram::Er(er::parse(&lines)?),
        "stateDiagram" | "stateDiagram-v2" => Diagram::State(state::parse(&lines)?),
        other => {
            return Err(DiagramError::new(
                first.number,
                column,
                format!("unknown diagram type '{other}': expected one of {}", KINDS.join(", ")),
            ))
        }
    };
    apply_config(&mut diagram, &theme::read(source));
    let count = planned_count(&diagram);
    if count > MAX_ITEMS {
        return Err(DiagramError::new(
            first.number,
            column,
            format!("the diagram would make {count} canvas items, more than the limit of {MAX_ITEMS}"),
        ));
    }
    Ok(diagram)
}

/// Places a diagram: positions in map units, origin (0, 0) at the top left.
pub fn layout(diagram: &Diagram) -> Scene {
    match diagram {
        Diagram::Flowchart(chart) => layered::layout(chart),
        Diagram::Mindmap(map) => mindmap::layout(map),
        Diagram::Sequence(sequence) => sequence::layout(sequence),
        Diagram::Class(class) => class::layout(class),
        Diagram::Er(er) => er::layout(er),
        Diagram::State(state) => state::layout(state),
    }
}

/// How many items [`crate::to_items`] will plan for `diagram`, known before any layout
/// (so the item limit is checked when parsing).
pub fn planned_count(diagram: &Diagram) -> usize {
    match diagram {
        Diagram::Flowchart(chart) => flowchart::planned_count(chart),
        Diagram::Mindmap(map) => mindmap::planned_count(map),
        Diagram::Sequence(seq) => sequence::planned_count(seq),
        Diagram::Class(class) => class::planned_count(class),
        Diagram::Er(er) => er::planned_count(er),
        Diagram::State(state) => state::planned_count(state),
    }
}

/// Lays the configuration under the diagram's own styling, and sets a flowchart's title.
fn apply_config(diagram: &mut Diagram, config: &Config) {
    match diagram {
        Diagram::Flowchart(chart) => {
            chart.title = config.title.as_deref().map(text::clean).filter(|t| !t.is_empty());
            chart.nodes.iter_mut().for_each(|n| n.style = config.node.over(&n.style));
            chart.subgraphs.iter_mut().for_each(|s| s.style = config.group.over(&s.style));
            chart.edges.iter_mut().for_each(|e| e.style = config.link.over(&e.style));
        }
        Diagram::Class(d) => d.classes.iter_mut().for_each(|c| c.style = config.node.over(&c.style)),
        Diagram::Er(d) => d.entities.iter_mut().for_each(|e| e.style = config.node.over(&e.style)),
        Diagram::State(d) => {
            for state in &mut d.states {
                let theme = if state.kind.is_container() { &config.group } else { &config.node };
                state.style = theme.over(&state.style);
            }
        }
        // Mind maps and sequence diagrams draw with the map's colours (Mermaid gives them
        // palettes of their own: sections, actors), as without a theme.
        Diagram::Mindmap(_) | Diagram::Sequence(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diagram_type_is_required_and_known() {
        let err = parse("").unwrap_err();
        assert_eq!((err.line, err.column), (1, 1));
        let err = parse("%% only a comment\n\n  pie title x\n").unwrap_err();
        assert_eq!((err.line, err.column), (3, 3), "{err}");
        assert!(err.message.contains("unknown diagram type 'pie'"), "{err}");
        assert!(matches!(parse("graph LR\nA-->B"), Ok(Diagram::Flowchart(_))));
        assert!(matches!(parse("mindmap\n  root"), Ok(Diagram::Mindmap(_))));
        assert!(matches!(parse("sequenceDiagram\nA->>B: hi"), Ok(Diagram::Sequence(_))));
        assert!(err.message.contains("classDiagram, classDiagram-v2, erDiagram"), "{err}");
    }

    /// Every kind the vocabulary lists is read here, and no other.
    #[test]
    fn the_kinds_are_the_vocabularys_list() {
        let smallest = |kind: &str| match kind {
            "flowchart" | "flowchart-elk" | "graph" => "A-->B",
            "mindmap" => "  root",
            "sequenceDiagram" => "A->>B: hi",
            "classDiagram" | "classDiagram-v2" => "A <|-- B",
            "erDiagram" => "A ||--o{ B : has",
            _ => "[*] --> A",
        };
        for kind in KINDS {
            let source = format!("{kind}\n{}", smallest(kind));
            assert!(parse(&source).is_ok(), "{kind}: {:?}", parse(&source).err());
        }
        for other in ["pie", "gantt", "journey", "gitGraph", "timeline", "C4Context", "quadrantChart"] {
            let err = parse(&format!("{other}\nx")).unwrap_err();
            assert!(err.message.starts_with("unknown diagram type"), "{other}: {err}");
        }
    }

    /// A `;` right after the type word is refused, as Mermaid refuses it (checked with
    /// `mermaid.parse` 11): the word is read up to it, so no kind's header mistakes it for part of
    /// the word (a mutation of a real state diagram once tripped an assertion here).
    #[test]
    fn a_semicolon_glued_to_the_type_word_is_refused_at_it() {
        for kind in ["stateDiagram", "stateDiagram-v2", "classDiagram", "classDiagram-v2", "erDiagram"] {
            for rest in [";", ";foo", ";-->"] {
                let source = format!("{kind}{rest}\nA");
                let err = parse(&source).unwrap_err();
                assert_eq!((err.line, err.column), (1, kind.len() + 1), "{source:?}: {err}");
                assert!(err.message.contains("unexpected `;` directly after"), "{source:?}: {err}");
            }
        }
    }

    #[test]
    fn the_limits_are_errors() {
        let big = format!("graph TD\n{}", "A-->B\n".repeat(MAX_SOURCE_BYTES / 6 + 1));
        assert!(parse(&big).unwrap_err().message.contains("more than the limit of 65536"));
        let many: String = (0..400).map(|i| format!("N{i}-->M{i}\n")).collect();
        let err = parse(&format!("graph TD\n{many}")).unwrap_err();
        assert!(err.message.contains("canvas items, more than the limit of 1000"), "{err}");
        assert_eq!((err.line, err.column), (1, 1));
    }
}
