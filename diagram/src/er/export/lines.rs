//! Relationships read back from connectors between entity boxes.
//!
//! The layout draws a relationship as a connector from the first entity to the second, attached
//! to both boxes, with no decorators; a thin one (1) is non-identifying (`..`), the normal one
//! (2) identifying (`--`). Its label children are the role (at the middle of the line) and a
//! cardinality text beside each end (`1`, `0..1`, `0..*`, `1..*`, `parent`).
//!
//! Read back: a label is an end's cardinality when its text reads as one (those texts, Mermaid's
//! marks `||`, `o{`… and words `one or more`, `many`…) and it lies nearer that end than the other
//! end and the middle; the nearest wins. An end text the layout made (told by its colour) left
//! far from its end by a moved box still counts for an end without one. The role is a label
//! left over: the layout's role first (its colour), then one that is no cardinality, then the
//! one nearest the middle.
//! An end without such a text (a connector someone drew, a deleted text, a text that is no
//! cardinality) takes its decorator: a circle is `0..1` (the circle is crow's-foot "zero"), any
//! other `1` at the start and `0..*` at the end, so a drawn line reads as Mermaid's first
//! example, one-to-many (`||--o{`).

use canvas_vocabulary::items::ItemType;
use serde_json::Value;

use super::boxes::unwrapped;
use crate::er::Cardinality;
use crate::export::text::visible;
use crate::export::Map;
use crate::text::SMALL_FONT_SIZE;

// Where the layered layout wraps a line's text, and the colours the layout gives the end texts
// (`section_boxes::end_text`) and the role (the layered layout's line text): the layout's own.
use crate::layered::{EDGE_TEXT as ROLE_COLOUR, EDGE_TEXT_WIDTH as ROLE_WRAP};
use crate::section_boxes::END_TEXT as END_TEXT_COLOUR;
/// Lines at most this thick are drawn dotted: non-identifying.
const DOTTED_AT_MOST: f64 = 1.5;

/// One relationship as the map shows it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Line {
    /// The entity boxes at its start and end.
    pub from: usize,
    pub to: usize,
    pub from_card: Cardinality,
    pub to_card: Cardinality,
    pub identifying: bool,
    pub role: String,
    /// Where it comes in the source: the layout writes the end texts last, in source order, so
    /// the first end text's place on the list; lines without one after, in the map's order.
    pub order: (bool, usize),
}

/// Reads connector `c` when both its ends are on entity boxes (`entity_of` gives the box an
/// attached item stands for).
pub(super) fn read(map: &Map<'_>, c: usize, entity_of: impl Fn(usize) -> Option<usize>) -> Option<Line> {
    let from = entity_of(map.attached(c, "startPoint")?)?;
    let to = entity_of(map.attached(c, "endPoint")?)?;
    let (start, end) = (map.end_point(c, "startPoint"), map.end_point(c, "endPoint"));
    let middle = middle(map, c, start, end);
    let labels: Vec<usize> =
        map.children(c).iter().copied().filter(|&l| map.kind(l) == Some(ItemType::Label)).collect();
    let centre = |l: usize| {
        let b = map.bounds(l);
        (b.cx, b.cy)
    };
    let readings: Vec<Option<Cardinality>> = labels.iter().map(|&l| cardinality(map.str_prop(l, "text"))).collect();
    // The layout's own end texts and roles have their own colours: they stay what they are
    // when a moved box leaves them far from their end.
    let coloured = |k: usize, colour: &str| map.str_prop(labels[k], "textColor").eq_ignore_ascii_case(colour);
    let candidate = |k: usize| readings[k].is_some() && !coloured(k, ROLE_COLOUR);
    // The cardinality text of one end: nearer it than the other end and (unless it has the end
    // texts' colour) the middle, the nearest.
    let placed = |here: (f64, f64), there: (f64, f64), taken: Option<usize>| {
        (0..labels.len())
            .filter(|&k| candidate(k) && Some(k) != taken)
            .map(|k| (k, distance(centre(labels[k]), here)))
            .filter(|&(k, d)| {
                d <= distance(centre(labels[k]), there)
                    && (d < distance(centre(labels[k]), middle) || coloured(k, END_TEXT_COLOUR))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(k, _)| k)
    };
    let mut start_text = placed(start, end, None);
    let mut end_text = placed(end, start, start_text);
    if start_text.is_none() && end_text.is_some() {
        start_text = placed(start, end, end_text);
    }
    // An end still without one takes an end text the layout made that is left over, in the
    // layout's order (the first entity's first).
    let left_over = |taken: Option<usize>, other: Option<usize>| {
        (0..labels.len())
            .find(|&k| candidate(k) && coloured(k, END_TEXT_COLOUR) && Some(k) != taken && Some(k) != other)
    };
    start_text = start_text.or_else(|| left_over(end_text, None));
    end_text = end_text.or_else(|| left_over(start_text, None));
    // The role: a label left over, the role's colour first, then one that is no cardinality,
    // then the one nearest the middle.
    let role = (0..labels.len())
        .filter(|&k| Some(k) != start_text && Some(k) != end_text)
        .min_by(|&a, &b| {
            let rank = |k: usize| (!coloured(k, ROLE_COLOUR), readings[k].is_some());
            rank(a)
                .cmp(&rank(b))
                .then(distance(centre(labels[a]), middle).total_cmp(&distance(centre(labels[b]), middle)))
        })
        .map(|k| unwrapped(map.str_prop(labels[k], "text"), SMALL_FONT_SIZE, ROLE_WRAP))
        .unwrap_or_default();
    let card = |text: Option<usize>, end: &str, at_start: bool| {
        text.and_then(|k| readings[k]).unwrap_or_else(|| by_decorator(map.decorator(c, end), at_start))
    };
    let first_text = [start_text, end_text].into_iter().flatten().map(|k| labels[k]).min();
    let thickness = map.props(c).get("strokeThickness").and_then(Value::as_f64).unwrap_or(3.0);
    Some(Line {
        from,
        to,
        from_card: card(start_text, "startPoint", true),
        to_card: card(end_text, "endPoint", false),
        identifying: thickness > DOTTED_AT_MOST,
        role,
        order: first_text.map_or((true, c), |l| (false, l)),
    })
}

/// An end without a cardinality text: a circle is zero or one, else one at the start and zero
/// or more at the end (one-to-many).
fn by_decorator(decorator: &str, at_start: bool) -> Cardinality {
    match (decorator.eq_ignore_ascii_case("circle"), at_start) {
        (true, _) => Cardinality::ZeroOrOne,
        (false, true) => Cardinality::ExactlyOne,
        (false, false) => Cardinality::ZeroOrMore,
    }
}

/// The cardinality a text names: the layout's texts, Mermaid's marks and words, and a few
/// spellings people write (`0..n`, `*`, `n`).
pub(super) fn cardinality(text: &str) -> Option<Cardinality> {
    let text = visible(text).to_lowercase();
    let card = match text.trim() {
        "0..1" | "|o" | "o|" | "zero or one" | "one or zero" | "?" => Cardinality::ZeroOrOne,
        "1" | "1..1" | "||" | "one" | "only one" | "exactly one" => Cardinality::ExactlyOne,
        "0..*" | "0..n" | "*" | "n" | "m" | "}o" | "o{" | "many" | "many(0)" | "0+" | "zero or more"
        | "zero or many" => Cardinality::ZeroOrMore,
        "1..*" | "1..n" | "}|" | "|{" | "many(1)" | "1+" | "one or more" | "one or many" => Cardinality::OneOrMore,
        "parent" | "u" => Cardinality::Parent,
        _ => return None,
    };
    Some(card)
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    let d = (a.0 - b.0).hypot(a.1 - b.1);
    if d.is_nan() {
        f64::INFINITY
    } else {
        d
    }
}

/// The point halfway along the drawn line (its corners included), where the role sits.
fn middle(map: &Map<'_>, c: usize, start: (f64, f64), end: (f64, f64)) -> (f64, f64) {
    let corners = map.props(c).get("cornerPoints").and_then(Value::as_array).cloned().unwrap_or_default();
    let finite = |v: Option<&Value>| v.and_then(Value::as_f64).filter(|x| x.is_finite()).unwrap_or(0.0);
    let mut points = vec![start];
    points.extend(corners.iter().map(|p| (finite(p.get("x")), finite(p.get("y")))));
    points.push(end);
    let lengths: Vec<f64> = points.windows(2).map(|w| distance(w[0], w[1])).collect();
    let total: f64 = lengths.iter().sum();
    if !total.is_finite() || total <= 0.0 {
        return ((start.0 + end.0) / 2.0, (start.1 + end.1) / 2.0);
    }
    let mut left = total / 2.0;
    for (w, length) in points.windows(2).zip(&lengths) {
        if left <= *length && *length > 0.0 {
            let t = left / length;
            return (w[0].0 + t * (w[1].0 - w[0].0), w[0].1 + t * (w[1].1 - w[0].1));
        }
        left -= length;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cardinality_texts_are_read_in_every_spelling() {
        assert_eq!(cardinality("0..*"), Some(Cardinality::ZeroOrMore));
        assert_eq!(cardinality(" One or More "), Some(Cardinality::OneOrMore));
        assert_eq!(cardinality("o|"), Some(Cardinality::ZeroOrOne));
        assert_eq!(cardinality("parent"), Some(Cardinality::Parent));
        assert_eq!(cardinality("places"), None);
        for card in [
            Cardinality::ZeroOrOne,
            Cardinality::ExactlyOne,
            Cardinality::ZeroOrMore,
            Cardinality::OneOrMore,
            Cardinality::Parent,
        ] {
            assert_eq!(cardinality(card.text()), Some(card), "the layout's own text");
        }
    }

    #[test]
    fn a_drawn_line_is_one_to_many_and_a_circle_is_zero_or_one() {
        assert_eq!(by_decorator("ArrowLine", true), Cardinality::ExactlyOne);
        assert_eq!(by_decorator("Arrow", false), Cardinality::ZeroOrMore);
        assert_eq!(by_decorator("Circle", false), Cardinality::ZeroOrOne);
    }
}
