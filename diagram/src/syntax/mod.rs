//! Statements the class, ER and state parsers read alike: the header line,
//! `direction`, the accessibility and title lines they skip, quoted strings.

pub(crate) mod style_sheet;

use crate::error::DiagramError;
use crate::graph::Direction;
use crate::source::{Cursor, Line};

/// Checks that the first line holds only the diagram keyword (one of `keywords`).
pub fn header(line: Line<'_>, keywords: &[&str]) -> Result<(), DiagramError> {
    let mut cursor = Cursor::new(line);
    cursor.skip_ws();
    // The word ends where `parse` ended it (white space or `;`), so it is one of `keywords`.
    let keyword = cursor.take_while(|c| !c.is_whitespace() && c != ';');
    debug_assert!(keywords.contains(&keyword.as_str()));
    if cursor.peek() == Some(';') {
        // Mermaid refuses `stateDiagram-v2;` and `classDiagram;` (the `;` is read as part of the word).
        return Err(cursor.error(format!("unexpected `;` directly after `{keyword}`: the diagram type ends its line")));
    }
    cursor.skip_ws();
    if cursor.eof() {
        Ok(())
    } else {
        Err(cursor.error(format!("unexpected {} after `{keyword}`: statements go on their own lines", cursor.token())))
    }
}

/// The direction a `direction XX` statement names (Mermaid reads the word anywhere on such a line).
pub fn direction(cursor: &Cursor) -> Option<Result<Direction, DiagramError>> {
    let mut c = cursor.clone();
    c.skip_ws();
    if !c.eat("direction") || !c.peek().is_some_and(char::is_whitespace) {
        return None;
    }
    c.skip_ws();
    let col = c.col();
    let word = c.take_while(|ch| ch.is_ascii_alphabetic());
    Some(match word.to_ascii_uppercase().as_str() {
        "TB" | "TD" => Ok(Direction::TopDown),
        "BT" => Ok(Direction::BottomUp),
        "LR" => Ok(Direction::LeftRight),
        "RL" => Ok(Direction::RightLeft),
        _ => Err(c.error_at(col, format!("unknown direction '{word}': expected TB, BT, LR or RL"))),
    })
}

/// Whether the line is one the drawing ignores: `accTitle: …`, `accDescr: …`,
/// `title …`. `accDescr { … }` spans lines: `index` is moved past its `}`.
pub fn skipped(cursor: &Cursor, lines: &[Line<'_>], index: &mut usize) -> Result<bool, DiagramError> {
    let mut c = cursor.clone();
    c.skip_ws();
    if c.eat("accTitle") || c.eat("title ") || c.eat("title\t") {
        return Ok(true);
    }
    if !c.eat("accDescr") {
        return Ok(false);
    }
    c.skip_ws();
    if !c.eat("{") {
        return Ok(true);
    }
    let start = *index;
    if c.rest().contains('}') {
        return Ok(true);
    }
    while *index + 1 < lines.len() {
        *index += 1;
        if lines[*index].text.contains('}') {
            return Ok(true);
        }
    }
    Err(DiagramError::new(lines[start].number, cursor.col(), "`accDescr {` is not closed with `}`"))
}

/// A `"…"` string at the cursor, without its quotes.
pub fn quoted(cursor: &mut Cursor) -> Result<String, DiagramError> {
    let col = cursor.col();
    if !cursor.eat("\"") {
        return Err(cursor.error(format!("expected '\"', found {}", cursor.token())));
    }
    match cursor.find("\"") {
        Some(end) => {
            let text = cursor.take_to(end);
            cursor.bump();
            Ok(text)
        }
        None => Err(cursor.error_at(col, "unterminated string: expected a closing '\"'")),
    }
}

/// `\n` written in a note or label (two characters) as a line break, as Mermaid reads it.
pub fn escaped_breaks(text: &str) -> String {
    text.replace("\\n", "\n")
}
