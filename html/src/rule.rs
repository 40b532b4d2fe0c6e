//! The rule for label and sticky-note text (see the crate documentation for the statement).

use std::ops::ControlFlow;

use html5ever::tokenizer::{EndTag, StartTag, Tag};

use crate::tokens::{tokenize, Piece};
use crate::{attributes, elements};

/// Prefix of every message about active content.
const ACTIVE: &str = "must not contain active content";
/// Prefix of every message about HTML that is not well formed or not made of allowed elements.
const MALFORMED: &str = "malformed HTML";

/// Appended to the text to see the tag the text ends inside of, if any (`… <x onclick=alert(1)`): a
/// browser drops such a tag, but pasted into a page it would be closed by the page's next `>`. A
/// control character first, because it never starts a tag after `<` or `</` yet continues any tag name,
/// attribute name or value; then `"`, `'` and `>` close a double-quoted, single-quoted or unquoted value
/// and the tag.
const CLOSE_PENDING_TAG: &str = "\u{1}\"'>";

/// Whether text is plain text or HTML.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Shown as written: `<`, `&` and everything else are literal characters.
    Plain,
    /// Read as a browser reads HTML: tags are markup, character references are decoded.
    Html,
}

/// Plain text or HTML, by the rule in the crate documentation.
pub fn classify(text: &str) -> Kind {
    if text.contains("<!--") {
        return Kind::Html;
    }
    let mut kind = Kind::Plain;
    tokenize(text, |piece| match piece {
        Piece::Doctype => {
            kind = Kind::Html;
            ControlFlow::Break(())
        }
        Piece::Tag(tag) if elements::is_known(&tag.name) => {
            kind = Kind::Html;
            ControlFlow::Break(())
        }
        _ => ControlFlow::Continue(()),
    });
    kind
}

/// Why text breaks the rule: active content, or HTML that is not well formed. Displayed as the rule
/// broken, starting with "must not contain active content: " or "malformed HTML: ".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Something that would run or load in a client (an element, handler, URL or CSS).
    Active(String),
    /// Markup a browser would not read as written (unclosed, misnested, unknown elements).
    Malformed(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Active(rule) => write!(f, "{ACTIVE}: {rule}"),
            Self::Malformed(rule) => write!(f, "{MALFORMED}: {rule}"),
        }
    }
}

/// Checks text against the rule; the error says which rule and why.
pub fn check(text: &str) -> Result<(), Refusal> {
    let kind = classify(text);
    let mut result = Ok(());
    let mut tags = 0usize;
    let mut open: Vec<String> = Vec::new();
    tokenize(text, |piece| {
        result = match piece {
            Piece::Tag(tag) => {
                tags += 1;
                check_tag(tag).and_then(|()| match kind {
                    Kind::Html => nest(&mut open, tag),
                    Kind::Plain => Ok(()),
                })
            }
            Piece::Doctype => {
                Err(Refusal::Malformed("declarations such as <!DOCTYPE> are not allowed in item text".to_owned()))
            }
            Piece::Comment { closed: false } if kind == Kind::Html => {
                Err(Refusal::Malformed("a comment is not closed (it hides the rest of the text)".to_owned()))
            }
            Piece::Comment { .. } | Piece::Text(_) => Ok(()),
        };
        if result.is_err() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    result?;
    check_pending_tag(text, tags, kind)?;
    if kind == Kind::Html {
        if let Some(name) = open.iter().rev().find(|name| !elements::has_optional_end(name)) {
            return Err(Refusal::Malformed(format!("<{name}> is not closed")));
        }
    }
    Ok(())
}

/// Rejects a tag that would be active in any client: an active element, or an active attribute.
fn check_tag(tag: &Tag) -> Result<(), Refusal> {
    if elements::is_active(&tag.name) {
        return Err(Refusal::Active(format!("<{}> elements are not allowed", tag.name)));
    }
    attributes::check(tag).map_err(Refusal::Active)
}

/// Judges the tag the text ends inside of, if any, as if the text went on to close it.
fn check_pending_tag(text: &str, tags_seen: usize, kind: Kind) -> Result<(), Refusal> {
    let probe = format!("{text}{CLOSE_PENDING_TAG}");
    let mut index = 0usize;
    let mut result = Ok(());
    tokenize(&probe, |piece| {
        if let Piece::Tag(tag) = piece {
            index += 1;
            if index > tags_seen {
                result = check_tag(tag).and_then(|()| match kind {
                    Kind::Html => Err(Refusal::Malformed("the last tag is not closed with '>'".to_owned())),
                    Kind::Plain => Ok(()),
                });
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    });
    result
}

/// Tracks open elements: end tags must close what is open, except elements whose end tag HTML lets
/// the author omit; only allowed elements may appear.
fn nest(open: &mut Vec<String>, tag: &Tag) -> Result<(), Refusal> {
    let name: &str = &tag.name;
    if !elements::is_allowed(name) {
        return Err(Refusal::Malformed(format!("<{name}> is not an HTML element allowed in item text")));
    }
    if elements::is_void(name) {
        // `<br/>` and `<br>` alike; a browser reads `</br>` as `<br>`.
        return Ok(());
    }
    match tag.kind {
        StartTag => {
            // `<b/>` opens a <b> in HTML: the slash is ignored on elements that are not void.
            while open.last().is_some_and(|top| elements::has_optional_end(top) && elements::start_closes(name, top)) {
                open.pop();
            }
            open.push(name.to_owned());
            Ok(())
        }
        EndTag => {
            while let Some(top) = open.pop() {
                if top == name {
                    return Ok(());
                }
                if !elements::has_optional_end(&top) {
                    return Err(Refusal::Malformed(format!("</{name}> closes <{top}>")));
                }
            }
            Err(Refusal::Malformed(format!("</{name}> has no opening tag")))
        }
    }
}
