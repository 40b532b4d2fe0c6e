//! The sequence diagram parser, written from Mermaid 11's grammar (`sequenceDiagram.jison`):
//! statements are cut at `;` and comments (`pieces.rs`), keywords are read in any case, then
//! declarations (`declare.rs`: participants, actors and their `@{ "type" }`, `box`, notes) and
//! messages (`arrows.rs`: every arrow, `+`/`-`, `()`) become [`SeqEvent`]s in source order.
//! `box … end` groups participants; `loop`, `alt` … `end` open frames the layout draws around
//! their steps. Accessibility texts, links, properties and details are read and not drawn.
//!
//! The folder holds the whole kind: the model (`model.rs`), this parser with its pieces and its
//! tests (`tests.rs`), the layout (`layout.rs`, its tests in `layout/tests.rs`), the pieces it
//! draws and how many items they make (`drawing.rs`), and the writer that reads a drawn sequence
//! diagram back as Mermaid (`export.rs`).

mod arrows;
mod declare;
pub mod drawing;
pub mod export;
pub mod layout;
mod model;
mod pieces;

pub use drawing::planned_count;
pub use layout::layout;
pub use model::{NotePlace, Participant, ParticipantGroup, ParticipantKind, SeqEvent, Sequence};

use std::collections::HashMap;

use crate::error::DiagramError;
use crate::source::{Cursor, Line};
use crate::text;

const OPENERS: &[&str] = &["loop", "alt", "opt", "par", "par_over", "critical", "break", "rect"];
const DIVIDERS: &[&str] = &["else", "and", "option"];

/// A block waiting for its `end`.
enum Block {
    /// A frame (`loop`, `alt` …).
    Frame,
    /// A `box` (index into the groups).
    Group(usize),
}

pub(crate) struct Parser {
    sequence: Sequence,
    ids: HashMap<String, usize>,
    /// Next number and step while `autonumber` is on.
    number: Option<(f64, f64)>,
    /// Where numbering resumes after `autonumber off` … `autonumber`.
    next_number: (f64, f64),
    /// Open blocks with the line and column of their keyword.
    open: Vec<(Block, usize, usize)>,
}

/// Parses a sequence diagram from its lines (the first is the header).
pub fn parse(lines: &[Line<'_>]) -> Result<Sequence, DiagramError> {
    let mut parser = Parser {
        sequence: Sequence { participants: Vec::new(), events: Vec::new(), groups: Vec::new(), title: None },
        ids: HashMap::new(),
        number: None,
        next_number: (1.0, 1.0),
        open: Vec::new(),
    };
    let mut header = Cursor::new(lines[0]);
    header.skip_ws();
    header.take_while(|c| !c.is_whitespace() && c != ';');
    let first: Vec<pieces::Piece> = pieces::split(Line { number: lines[0].number, text: &header.rest() });
    // `accDescr {` … `}` spans lines: its text is skipped up to the closing brace.
    let mut in_description = false;
    let header_rest = first.into_iter().map(|p| Statement { offset: header.pos, piece: p });
    let body = lines[1..].iter().flat_map(|line| pieces::split(*line)).map(|piece| Statement { offset: 0, piece });
    for Statement { offset, piece } in header_rest.chain(body) {
        let text = format!("{}{}", " ".repeat(offset), piece.text);
        let line = Line { number: piece.number, text: &text };
        if in_description {
            in_description = !line.text.contains('}');
            continue;
        }
        let mut cur = Cursor::new(line);
        in_description = parser.statement(&mut cur)?;
    }
    if let Some(&(ref block, line, col)) = parser.open.last() {
        let what = if matches!(block, Block::Group(_)) { "`box`" } else { "block" };
        return Err(DiagramError::new(line, col, format!("this {what} is not closed: expected `end`")));
    }
    if parser.sequence.participants.is_empty() {
        let last = lines[lines.len() - 1];
        return Err(DiagramError::new(
            last.number,
            last.text.chars().count() + 1,
            "the sequence diagram has no participants",
        ));
    }
    Ok(parser.sequence)
}

/// A statement with the columns its line had before it (the header line's rest).
struct Statement {
    offset: usize,
    piece: pieces::Piece,
}

impl Parser {
    /// The participant `id`, declared now if it is new; a label or kind given replaces the old.
    fn participant(&mut self, id: &str, label: Option<String>, kind: Option<ParticipantKind>) -> usize {
        if let Some(&index) = self.ids.get(id) {
            let participant = &mut self.sequence.participants[index];
            if let Some(label) = label {
                participant.label = label;
            }
            if let Some(kind) = kind {
                participant.kind = kind;
                participant.actor = kind == ParticipantKind::Actor;
            }
            return index;
        }
        let index = self.sequence.participants.len();
        let label = text::nonempty(label.unwrap_or_else(|| text::clean(&crate::text::decode_entities(id))));
        let kind = kind.unwrap_or(ParticipantKind::Participant);
        self.sequence.participants.push(Participant {
            id: id.to_owned(),
            label,
            actor: kind == ParticipantKind::Actor,
            kind,
            created: false,
        });
        self.ids.insert(id.to_owned(), index);
        index
    }

    /// The innermost open `box`, if the innermost block is one.
    fn open_group(&self) -> Option<usize> {
        match self.open.last() {
            Some((Block::Group(g), ..)) => Some(*g),
            _ => None,
        }
    }

    /// One statement. Answers whether a multi-line `accDescr {` starts (and is not closed) here.
    fn statement(&mut self, cur: &mut Cursor) -> Result<bool, DiagramError> {
        cur.skip_ws();
        if cur.eof() {
            return Ok(false);
        }
        let col = cur.col();
        let mut probe = cur.clone();
        let word = probe.take_while(|c| c.is_alphanumeric() || c == '_');
        let whole_word = !word.is_empty() && probe.peek().is_none_or(|c| c.is_whitespace() || c == ':' || c == '{');
        let keyword = if whole_word { word.to_ascii_lowercase() } else { String::new() };
        let rest_text = arrows::message_text(probe.rest().trim_start().trim_start_matches(':'));
        match keyword.as_str() {
            "participant" | "actor" => {
                self.declare(&mut probe, &word, false)?;
            }
            "create" => {
                probe.skip_ws();
                let what_col = probe.col();
                let what = probe.take_while(char::is_alphanumeric).to_ascii_lowercase();
                if what != "participant" && what != "actor" {
                    return Err(probe.error_at(what_col, "expected `participant` or `actor` after `create`"));
                }
                self.declare(&mut probe, &what, true)?;
            }
            "destroy" | "activate" | "deactivate" => {
                let name = probe.rest();
                let name = name.trim();
                if name.is_empty() {
                    return Err(probe.error(format!("expected a participant after `{keyword}`")));
                }
                let index = self.participant(name, None, None);
                self.sequence.events.push(match keyword.as_str() {
                    "destroy" => SeqEvent::Destroy(index),
                    "activate" => SeqEvent::Activate(index),
                    _ => SeqEvent::Deactivate(index),
                });
            }
            "autonumber" => self.autonumber(&mut probe)?,
            "title" => {
                self.sequence.title = Some(rest_text).filter(|t| !t.is_empty());
            }
            "accdescr" => {
                let rest = probe.rest();
                let rest = rest.trim_start();
                return Ok(rest.starts_with('{') && !rest.contains('}'));
            }
            "box" => {
                if self.open.iter().any(|(b, ..)| matches!(b, Block::Group(_))) {
                    return Err(cur.error_at(col, "a `box` cannot hold another `box`"));
                }
                let (color, label) = declare::box_data(&probe.rest());
                self.sequence.groups.push(ParticipantGroup { label, color, members: Vec::new() });
                self.open.push((Block::Group(self.sequence.groups.len() - 1), cur.line, col));
            }
            "end" => match self.open.pop() {
                None => return Err(cur.error_at(col, "`end` without an open block (`loop`, `alt`, `box`…)")),
                Some((Block::Frame, ..)) => self.sequence.events.push(SeqEvent::Close),
                Some((Block::Group(_), ..)) => {}
            },
            k if OPENERS.contains(&k) => {
                let (label, color) = if k == "rect" {
                    let raw = probe.rest();
                    let color = declare::tint(&raw).unwrap_or_else(|| "#2660A5FA".to_owned());
                    (String::new(), Some(color))
                } else {
                    (rest_text, None)
                };
                self.open.push((Block::Frame, cur.line, col));
                self.sequence.events.push(SeqEvent::Open { kind: k.to_owned(), label, color });
            }
            k if DIVIDERS.contains(&k) => {
                if !self.open.iter().any(|(b, ..)| matches!(b, Block::Frame)) {
                    return Err(cur.error_at(col, format!("`{k}` outside a block")));
                }
                self.sequence.events.push(SeqEvent::Divide { label: rest_text });
            }
            "link" | "links" | "properties" | "details" => {
                // `link A: Label @ url`: the participant is declared; the menu is not drawn.
                let rest = probe.rest();
                let name = rest.split(':').next().unwrap_or_default().trim();
                if !name.is_empty() {
                    self.participant(name, None, None);
                }
            }
            // Read and not drawn: the canvas has no place for an accessible title.
            "acctitle" => {}
            "note" => self.note(&mut probe)?,
            _ => self.message(cur)?,
        }
        Ok(false)
    }

    /// `autonumber`, `autonumber 10`, `autonumber 10 5`, `autonumber off`.
    fn autonumber(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        let mut numbers = Vec::new();
        loop {
            cur.skip_ws();
            if cur.eof() {
                break;
            }
            let col = cur.col();
            let word = cur.take_while(|c| !c.is_whitespace());
            if word.eq_ignore_ascii_case("off") && numbers.is_empty() {
                if let Some(current) = self.number.take() {
                    self.next_number = current;
                }
                return Ok(());
            }
            match word.parse::<f64>() {
                Ok(n) if n.is_finite() && numbers.len() < 2 => numbers.push(n),
                _ => {
                    return Err(
                        cur.error_at(col, format!("expected a start and a step after `autonumber`, found '{word}'"))
                    )
                }
            }
        }
        let (mut start, mut step) = self.number.unwrap_or(self.next_number);
        if let Some(&n) = numbers.first() {
            (start, step) = (n, 1.0);
        }
        if let Some(&n) = numbers.get(1) {
            step = n;
        }
        self.number = Some((start, step));
        Ok(())
    }
}

#[cfg(test)]
mod tests;
