//! The sequence diagram parser: participants and actors, the eight message
//! arrows with their text, notes, `autonumber`, and frames (`loop`, `alt` …
//! `end`), which the layout draws as labelled frame containers.

use std::collections::HashMap;

use crate::model::{Head, NotePlace, Participant, SeqEvent, Sequence, Stroke};
use crate::source::{Cursor, Line};
use crate::text;
use crate::{Diagram, DiagramError};

/// Message arrows, longest first: stroke and head.
const ARROWS: &[(&str, Stroke, Head)] = &[
    ("-->>", Stroke::Dotted, Head::Arrow),
    ("->>", Stroke::Normal, Head::Arrow),
    ("--x", Stroke::Dotted, Head::Cross),
    ("-x", Stroke::Normal, Head::Cross),
    ("--)", Stroke::Dotted, Head::Open),
    ("-)", Stroke::Normal, Head::Open),
    ("-->", Stroke::Dotted, Head::None),
    ("->", Stroke::Normal, Head::None),
];

const OPENERS: &[&str] = &["loop", "alt", "opt", "par", "critical", "break", "rect"];
const DIVIDERS: &[&str] = &["else", "and", "option"];
const IGNORED: &[&str] = &["activate", "deactivate", "title", "accTitle", "accDescr"];
const UNSUPPORTED: &[&str] = &["box", "create", "destroy", "link", "links", "properties", "details"];

struct Parser {
    sequence: Sequence,
    ids: HashMap<String, usize>,
    /// Next number when `autonumber` is on.
    number: Option<(i64, i64)>,
    /// Open frames: line and column of their keyword.
    open: Vec<(usize, usize)>,
}

/// Parses a sequence diagram from its lines (the first is the header).
pub fn parse(lines: &[Line<'_>]) -> Result<Diagram, DiagramError> {
    let mut parser = Parser {
        sequence: Sequence { participants: Vec::new(), events: Vec::new() },
        ids: HashMap::new(),
        number: None,
        open: Vec::new(),
    };
    let mut header = Cursor::new(lines[0]);
    header.skip_ws();
    header.take_while(|c| !c.is_whitespace());
    header.skip_ws();
    if !header.eof() {
        return Err(header.error(format!("unexpected {}: statements go on their own lines", header.token())));
    }
    for line in &lines[1..] {
        parser.statement(&mut Cursor::new(*line))?;
    }
    if let Some(&(line, col)) = parser.open.last() {
        return Err(DiagramError::new(line, col, "this block is not closed: expected `end`"));
    }
    if parser.sequence.participants.is_empty() {
        let last = lines[lines.len() - 1];
        return Err(DiagramError::new(
            last.number,
            last.text.chars().count() + 1,
            "the sequence diagram has no participants",
        ));
    }
    Ok(Diagram::Sequence(parser.sequence))
}

impl Parser {
    fn participant(&mut self, id: &str, label: Option<String>, actor: bool) -> usize {
        if let Some(&index) = self.ids.get(id) {
            if let Some(label) = label {
                self.sequence.participants[index].label = label;
            }
            self.sequence.participants[index].actor |= actor;
            return index;
        }
        let index = self.sequence.participants.len();
        let label = text::nonempty(label.unwrap_or_else(|| text::clean(id)));
        self.sequence.participants.push(Participant { id: id.to_owned(), label, actor });
        self.ids.insert(id.to_owned(), index);
        index
    }

    fn statement(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        cur.skip_ws();
        let col = cur.col();
        let mut probe = cur.clone();
        let word = probe.take_while(|c| c.is_alphanumeric() || c == '_');
        let whole_word = probe.peek().is_none_or(|c| c.is_whitespace() || c == ':');
        let keyword = if whole_word { word.as_str() } else { "" };
        let rest_text = text::clean(probe.rest().trim());
        match keyword {
            "participant" | "actor" => {
                let decl = probe.rest();
                let (id, label) = match decl.split_once(" as ") {
                    Some((id, label)) => (id.trim().to_owned(), Some(text::nonempty(text::clean(label)))),
                    None => (decl.trim().to_owned(), None),
                };
                if id.is_empty() {
                    return Err(probe.error(format!("expected a name after `{keyword}`")));
                }
                self.participant(&id, label, keyword == "actor");
            }
            "autonumber" => {
                let numbers: Vec<i64> = probe.rest().split_whitespace().filter_map(|n| n.parse().ok()).collect();
                self.number = match numbers.as_slice() {
                    [] => Some((1, 1)),
                    [start] => Some((*start, 1)),
                    [start, step, ..] => Some((*start, *step)),
                };
            }
            "end" => {
                if self.open.pop().is_none() {
                    return Err(cur.error_at(col, "`end` without an open block (`loop`, `alt`, `opt`…)"));
                }
                self.sequence.events.push(SeqEvent::Close);
            }
            k if OPENERS.contains(&k) => {
                let label = if k == "rect" { String::new() } else { rest_text };
                self.open.push((cur.line, col));
                self.sequence.events.push(SeqEvent::Open { kind: k.to_owned(), label });
            }
            k if DIVIDERS.contains(&k) => {
                if self.open.is_empty() {
                    return Err(cur.error_at(col, format!("`{k}` outside a block")));
                }
                self.sequence.events.push(SeqEvent::Divide { label: rest_text });
            }
            k if IGNORED.contains(&k) => {}
            k if UNSUPPORTED.contains(&k) => {
                return Err(cur.error_at(col, format!("`{k}` is not supported in sequence diagrams here")));
            }
            _ if word.eq_ignore_ascii_case("note") && whole_word => self.note(&mut probe)?,
            _ => self.message(cur)?,
        }
        Ok(())
    }

    /// `Note left of A: text`, `Note right of A: text`, `Note over A[,B]: text`.
    fn note(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        cur.skip_ws();
        let col = cur.col();
        let rest = cur.rest();
        let Some((place, body)) = rest.split_once(':') else {
            return Err(cur.error_at(col + rest.chars().count(), "expected ':' and the note's text"));
        };
        let words: Vec<&str> = place.split_whitespace().collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let targets = match lower.first().map(String::as_str) {
            Some("left") | Some("right") if lower.get(1).map(String::as_str) == Some("of") => words[2..].join(" "),
            Some("over") => words[1..].join(" "),
            _ => return Err(cur.error_at(col, "expected `left of`, `right of` or `over` after `Note`")),
        };
        let names: Vec<&str> = targets.split(',').map(str::trim).collect();
        if names.iter().any(|n| n.is_empty()) || names.len() > 2 {
            return Err(cur.error_at(col, "expected one participant, or two separated by ','"));
        }
        let first = self.participant(names[0], None, false);
        let last = names.get(1).map_or(first, |n| self.participant(n, None, false));
        let place = match lower[0].as_str() {
            "left" => NotePlace::LeftOf(first),
            "right" => NotePlace::RightOf(first),
            _ => NotePlace::Over(first.min(last), first.max(last)),
        };
        self.sequence.events.push(SeqEvent::Note { place, text: text::nonempty(text::clean(body)) });
        Ok(())
    }

    /// `A->>B: text`, with an optional `+`/`-` before the receiver.
    fn message(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        let col = cur.col();
        let mut found = None;
        let mut probe = cur.clone();
        while !probe.eof() && probe.peek() != Some(':') {
            if let Some(arrow) = ARROWS.iter().find(|(arrow, ..)| probe.starts_with(arrow)) {
                found = Some((probe.pos, *arrow));
                break;
            }
            probe.bump();
        }
        let Some((at, (arrow, stroke, head))) = found else {
            return Err(cur.error_at(col, format!("expected a message such as `A->>B: text`, found {}", cur.token())));
        };
        let from = cur.take_to(at).trim().to_owned();
        if from.is_empty() || from.contains(['<', '>']) {
            return Err(cur.error_at(col, "expected the sender's name before the arrow"));
        }
        cur.eat(arrow);
        if matches!(cur.peek(), Some('+' | '-')) {
            cur.bump();
        }
        let to_col = cur.col();
        let rest = cur.take_rest();
        let (to, body) = rest.split_once(':').unwrap_or((&rest, ""));
        let to = to.trim();
        if to.is_empty() || to.contains(['<', '>']) {
            return Err(cur.error_at(to_col, "expected the receiver's name after the arrow"));
        }
        let from = self.participant(&from, None, false);
        let to = self.participant(to, None, false);
        let mut text = text::clean(body);
        if let Some((number, step)) = self.number {
            text = if text.is_empty() { format!("{number}.") } else { format!("{number}. {text}") };
            self.number = Some((number + step, step));
        }
        self.sequence.events.push(SeqEvent::Message { from, to, text, stroke, head });
        Ok(())
    }
}

#[cfg(test)]
mod tests;
