//! The HTML5 tokenizer (html5ever's), driven as a browser's tree builder drives it.
//!
//! A browser's tree builder switches the tokenizer into a raw-text state after `<script>`, `<style>`,
//! `<textarea>` and their kin, so that their content is not read as tags. The sink below does the
//! same, so every reader of this crate sees the tokens a browser sees when the text is the content of
//! an ordinary element (a `<div>`). Character references (numeric and all HTML5 names, with or
//! without `;`, in text and attribute values) are decoded by the tokenizer itself.

use std::cell::{Cell, RefCell};
use std::ops::ControlFlow;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{BufferQueue, StartTag, Tag, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts};

/// One thing the tokenizer found, borrowed for the duration of the callback.
pub(crate) enum Piece<'a> {
    /// Decoded text (character references resolved, `\r\n` as `\n`).
    Text(&'a str),
    /// A start or end tag, name and attribute names lower-cased, attribute values decoded.
    Tag(&'a Tag),
    /// A comment (`<!-- -->`, or a bogus one such as `<?x>` or `</3>`).
    Comment {
        /// False when the input ended inside the comment, which then swallows the rest of the text.
        closed: bool,
    },
    /// A `<!DOCTYPE …>`.
    Doctype,
}

/// Input is fed in pieces of this many bytes (or a little less, at a character boundary), so a reader
/// that stops early does not pay for tokenizing the rest of a large document.
const CHUNK: usize = 64 * 1024;

/// Tokenizes `text` and hands each piece to `each` until it breaks.
pub(crate) fn tokenize(text: &str, each: impl FnMut(Piece<'_>) -> ControlFlow<()>) {
    let sink = Sink { each: RefCell::new(each), stopped: Cell::new(false), ending: Cell::new(false) };
    let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
    let input = BufferQueue::default();
    let mut rest = text;
    while !rest.is_empty() && !tokenizer.sink.stopped.get() {
        let mut cut = rest.len().min(CHUNK);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        input.push_back(StrTendril::from_slice(&rest[..cut]));
        rest = &rest[cut..];
        // The sink never asks to pause for a script, so feeding runs until the queue is empty.
        let _ = tokenizer.feed(&input);
    }
    if !tokenizer.sink.stopped.get() {
        tokenizer.sink.ending.set(true);
        tokenizer.end();
    }
}

/// Passes tokens on as [`Piece`]s and switches the tokenizer state as a tree builder would.
struct Sink<F> {
    /// The caller's callback; a `RefCell` because the tokenizer hands the sink out by shared reference.
    each: RefCell<F>,
    /// Set once the callback breaks: later tokens are ignored and feeding stops.
    stopped: Cell<bool>,
    /// Set while the tokenizer processes the end of input: a comment emitted then was never closed.
    ending: Cell<bool>,
}

impl<F: FnMut(Piece<'_>) -> ControlFlow<()>> Sink<F> {
    fn emit(&self, piece: Piece<'_>) {
        if !self.stopped.get() && (self.each.borrow_mut())(piece).is_break() {
            self.stopped.set(true);
        }
    }
}

impl<F: FnMut(Piece<'_>) -> ControlFlow<()>> TokenSink for Sink<F> {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        match token {
            Token::CharacterTokens(text) => self.emit(Piece::Text(&text)),
            Token::TagToken(tag) => {
                self.emit(Piece::Tag(&tag));
                if tag.kind == StartTag {
                    return content_state(&tag.name);
                }
            }
            Token::CommentToken(_) => self.emit(Piece::Comment { closed: !self.ending.get() }),
            Token::DoctypeToken(_) => self.emit(Piece::Doctype),
            // A browser drops U+0000 in element content; parse errors do not change what is read.
            Token::NullCharacterToken | Token::ParseError(_) | Token::EOFToken => {}
        }
        TokenSinkResult::Continue
    }
}

/// The tokenizer state a browser's tree builder sets after this start tag (HTML namespace, scripting
/// enabled, as in a browser showing the text).
fn content_state(name: &str) -> TokenSinkResult<()> {
    match name {
        "script" => TokenSinkResult::RawData(RawKind::ScriptData),
        "style" | "xmp" | "iframe" | "noembed" | "noframes" | "noscript" => TokenSinkResult::RawData(RawKind::Rawtext),
        "title" | "textarea" => TokenSinkResult::RawData(RawKind::Rcdata),
        "plaintext" => TokenSinkResult::Plaintext,
        _ => TokenSinkResult::Continue,
    }
}
