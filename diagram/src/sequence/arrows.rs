//! Messages: `Sender<arrow>Receiver: text`, with Mermaid 11's arrows (every token of its
//! lexer), `+`/`-` activation shortcuts and `()` central connections.

use super::SeqEvent;
use crate::error::DiagramError;
use crate::graph::{Head, Stroke};
use crate::source::Cursor;
use crate::text;

use super::Parser;

/// An arrow token: its stroke, the decorator at the receiver and at the sender.
struct Arrow {
    token: &'static str,
    stroke: Stroke,
    head: Head,
    tail: Head,
}

const fn arrow(token: &'static str, stroke: Stroke, head: Head, tail: Head) -> Arrow {
    Arrow { token, stroke, head, tail }
}

use Head::{Arrow as Filled, Cross, None as Plain, Open};
use Stroke::{Dotted, Normal};

/// Every message arrow of Mermaid 11. A half arrowhead (`|\`, `|/`) is drawn as a whole filled
/// arrow and a stick half (`\\`, `//`) as an open one: the canvas has no half decorators. The
/// reversed forms (`/|-`, `\\-`…) put the head at the sender.
const ARROWS: &[Arrow] = &[
    arrow("<<-->>", Dotted, Filled, Filled),
    arrow("<<->>", Normal, Filled, Filled),
    arrow("-->>", Dotted, Filled, Plain),
    arrow("->>", Normal, Filled, Plain),
    arrow("--x", Dotted, Cross, Plain),
    arrow("-x", Normal, Cross, Plain),
    arrow("--)", Dotted, Open, Plain),
    arrow("-)", Normal, Open, Plain),
    arrow("--|\\", Dotted, Filled, Plain),
    arrow("--|/", Dotted, Filled, Plain),
    arrow("--\\\\", Dotted, Open, Plain),
    arrow("--//", Dotted, Open, Plain),
    arrow("-|\\", Normal, Filled, Plain),
    arrow("-|/", Normal, Filled, Plain),
    arrow("-\\\\", Normal, Open, Plain),
    arrow("-//", Normal, Open, Plain),
    arrow("/|--", Dotted, Plain, Filled),
    arrow("\\|--", Dotted, Plain, Filled),
    arrow("//--", Dotted, Plain, Open),
    arrow("\\\\--", Dotted, Plain, Open),
    arrow("/|-", Normal, Plain, Filled),
    arrow("\\|-", Normal, Plain, Filled),
    arrow("//-", Normal, Plain, Open),
    arrow("\\\\-", Normal, Plain, Open),
    arrow("-->", Dotted, Plain, Plain),
    arrow("->", Normal, Plain, Plain),
];

/// The longest arrow starting at the cursor.
fn arrow_at(cur: &Cursor) -> Option<&'static Arrow> {
    ARROWS.iter().filter(|a| cur.starts_with(a.token)).max_by_key(|a| a.token.len())
}

/// Whether a participant name in a message is one Mermaid's lexer refuses: one holding `<`,
/// `>`, `+` or `,`, or starting with `(`, `)`, `/` or `\` (inside a name they may appear:
/// `MS1 (OldMS)->>B`).
fn bad_name(name: &str) -> bool {
    name.contains(['<', '>', '+', ',']) || name.starts_with(['(', ')', '/', '\\'])
}

/// Text after `:`: Mermaid's `wrap:`/`nowrap:` prefix dropped, entity codes decoded, cleaned.
pub fn message_text(raw: &str) -> String {
    let raw = raw.trim_start();
    let raw = ["wrap:", "nowrap:"]
        .iter()
        .find_map(|p| raw.get(..p.len()).filter(|h| h.eq_ignore_ascii_case(p)).map(|_| &raw[p.len()..]))
        .unwrap_or(raw);
    text::clean(&crate::text::decode_entities(raw))
}

impl Parser {
    /// `A->>B: text`: `+` after the arrow activates the receiver, `-` deactivates the sender,
    /// `()` on either side of the arrow (a central connection) is read and not drawn.
    pub(super) fn message(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        let col = cur.col();
        let mut probe = cur.clone();
        let mut found = None;
        while !probe.eof() && probe.peek() != Some(':') {
            if let Some(arrow) = arrow_at(&probe) {
                found = Some((probe.pos, arrow));
                break;
            }
            probe.bump();
        }
        let Some((at, arrow)) = found else {
            return Err(cur.error_at(col, format!("expected a message such as `A->>B: text`, found {}", cur.token())));
        };
        let from = cur.take_to(at);
        let from = from.trim();
        let from = from.strip_suffix("()").unwrap_or(from).trim();
        if from.is_empty() || bad_name(from) {
            return Err(cur.error_at(col, "expected the sender's name before the arrow"));
        }
        cur.eat(arrow.token);
        let (mut activate, mut deactivate) = (false, false);
        loop {
            cur.skip_ws();
            if cur.eat("()") {
                continue;
            }
            match cur.peek() {
                Some('+') if !activate && !deactivate => activate = true,
                Some('-') if !activate && !deactivate => deactivate = true,
                _ => break,
            }
            cur.bump();
        }
        let to_col = cur.col();
        let rest = cur.take_rest();
        let (to, body) = rest.split_once(':').unwrap_or((&rest, ""));
        let to = to.trim();
        if to.is_empty() || bad_name(to) {
            return Err(cur.error_at(to_col, "expected the receiver's name after the arrow"));
        }
        let from = self.participant(from, None, None);
        let to = self.participant(to, None, None);
        let mut text = message_text(body);
        if let Some((number, step)) = self.number {
            let shown = format_number(number);
            text = if text.is_empty() { shown } else { format!("{shown}. {text}") };
            self.number = Some((number + step, step));
        }
        self.sequence.events.push(SeqEvent::Message {
            from,
            to,
            text,
            stroke: arrow.stroke,
            head: arrow.head,
            tail: arrow.tail,
        });
        if activate {
            self.sequence.events.push(SeqEvent::Activate(to));
        }
        if deactivate {
            self.sequence.events.push(SeqEvent::Deactivate(from));
        }
        Ok(())
    }
}

/// A sequence number as Mermaid shows it: whole numbers without decimals, at most two decimals.
pub fn format_number(number: f64) -> String {
    let rounded = (number * 100.0).round() / 100.0;
    if rounded.fract() == 0.0 && rounded.abs() < 1e15 {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_unique_and_numbers_read_as_shown() {
        for (i, a) in ARROWS.iter().enumerate() {
            assert!(ARROWS[i + 1..].iter().all(|b| b.token != a.token), "{}", a.token);
        }
        assert_eq!(format_number(3.0), "3");
        assert_eq!(format_number(1.5), "1.5");
        assert_eq!(format_number(0.1 + 0.2), "0.3");
        assert_eq!(message_text(" wrap: long #59; text"), "long ; text");
    }
}
