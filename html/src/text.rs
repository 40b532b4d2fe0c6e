//! HTML reduced to the text a reader sees: tags gone, character references decoded, the content of
//! hidden elements (`script`, `style`, `head`…) dropped, block elements as line breaks.

use std::ops::ControlFlow;

use html5ever::tokenizer::{EndTag, StartTag};

use crate::elements;
use crate::rule::{classify, Kind};
use crate::tokens::{tokenize, Piece};

/// A piece of the visible text of an HTML document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text<'a> {
    /// Text as a browser decodes it; white space is as written (a browser would collapse it).
    Chars(&'a str),
    /// A block element starts or ends, or a `<br>`: what follows is on a new line.
    Break,
}

/// Hands the visible text of an HTML document (always read as HTML, never classified) to `each`, in
/// order, until `each` breaks. For uploaded HTML files and HTML inside Markdown.
pub fn for_each_text(html: &str, mut each: impl FnMut(Text<'_>) -> ControlFlow<()>) {
    // The hidden element we are inside of, if any; its end tag ends the hiding.
    let mut hidden: Option<String> = None;
    tokenize(html, |piece| match piece {
        Piece::Text(text) if hidden.is_none() => each(Text::Chars(text)),
        Piece::Tag(tag) => {
            let name: &str = &tag.name;
            match (&hidden, tag.kind) {
                (Some(open), EndTag) if open == name => {
                    hidden = None;
                    ControlFlow::Continue(())
                }
                (Some(_), _) => ControlFlow::Continue(()),
                (None, StartTag) if elements::is_hidden(name) && !elements::is_void(name) => {
                    hidden = Some(name.to_owned());
                    ControlFlow::Continue(())
                }
                (None, _) if elements::is_block(name) => each(Text::Break),
                (None, _) => ControlFlow::Continue(()),
            }
        }
        Piece::Text(_) | Piece::Comment { .. } | Piece::Doctype => ControlFlow::Continue(()),
    });
}

/// The paragraphs of a label text, for drawing: plain text split at its newlines, HTML split at its
/// blocks and line breaks (its own newlines are spaces, as a browser shows them). Runs of white space
/// become one space; empty paragraphs are dropped.
pub fn paragraphs(text: &str) -> Vec<String> {
    let collapse = |line: &str| line.split_whitespace().collect::<Vec<_>>().join(" ");
    match classify(text) {
        Kind::Plain => text.split('\n').map(collapse).filter(|p| !p.is_empty()).collect(),
        Kind::Html => {
            let mut blocks = vec![String::new()];
            for_each_text(text, |piece| {
                match piece {
                    Text::Chars(chars) => blocks.last_mut().expect("never empty").push_str(chars),
                    Text::Break => blocks.push(String::new()),
                }
                ControlFlow::Continue(())
            });
            blocks.iter().map(|block| collapse(block)).filter(|p| !p.is_empty()).collect()
        }
    }
}

/// A label text as plain text, for search: plain text unchanged, HTML as its paragraphs on lines.
pub fn to_text(text: &str) -> String {
    match classify(text) {
        Kind::Plain => text.to_owned(),
        Kind::Html => paragraphs(text).join("\n"),
    }
}
