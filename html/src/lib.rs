//! The one reader of label and sticky-note text: whether it is plain text or HTML, whether it is
//! allowed, and the text it shows. core-service's rule, the renderer's drawing and the knowledge index
//! (through canvas-files) all use it, so they never disagree about what a text is.
//!
//! Everything is read with html5ever's HTML5 tokenizer, driven as a browser's tree builder drives it
//! (raw text after `<script>`, `<style>`, `<textarea>`…), so character references (numeric and every
//! HTML5 name, with or without `;`) decode exactly as in a browser.
//!
//! # The rule
//!
//! **Plain text or HTML.** A text is HTML when, read by a browser as the content of an element, it has
//! a start or end tag naming an element of the HTML standard (including obsolete ones such as `<blink>`
//! or `<xmp>`, and `<svg>`/`<math>`), a `<!DOCTYPE>`, or contains `<!--`. Anything else is plain text
//! and is shown as written: `x<y`, `if x<y then swap`, `a < b`, `use <name>` and `AT&amp;T` are plain.
//!
//! **Active content is rejected, not stripped, in plain text and HTML alike.** Every tag a browser
//! would see, whatever its name, is rejected when
//! - it is an active element: `script`, `style`, `iframe`, `object`, `embed`, `form` and the other
//!   elements that run code, load documents or take input, `svg` and `math`;
//! - it has an attribute whose name starts with `on` (an event handler);
//! - a URL attribute (`href`, `src`, `srcset` entries, `action`, `background`, `poster`, `cite`…),
//!   decoded and parsed as a browser parses URLs (tabs and newlines removed anywhere, leading and
//!   trailing control characters and spaces trimmed, scheme case-insensitive), has a scheme other than
//!   `http`, `https`, `mailto` or `tel` (a relative reference is fine): `javascript:`, `vbscript:` and
//!   `data:` are rejected however they are encoded;
//! - its `style`, with CSS comments and escapes decoded (`\75 rl(` is `url(`), contains `url(`,
//!   `expression(`, `@import`, `javascript:` or another way of loading or running something.
//!
//! A tag the text ends inside of (`x<y onclick=alert(1)`) is judged as if the text went on to close it,
//! since pasted into a page it would be.
//!
//! **HTML must be well formed and made of formatting elements.** Every element must be one a label may
//! use (`b`, `i`, `p`, `a`, `img`, `ul`, `table`…), end tags must close the element that is open
//! (`p`, `li`, `td`, `dd`… may omit theirs), every other element must be closed, and comments must be
//! closed. A `<!DOCTYPE>` is not allowed.
//!
//! **Shown as classified.** Plain text is drawn and indexed literally; HTML is drawn and indexed as the
//! text a browser shows (tags gone, references decoded, blocks on their own lines).

mod attributes;
mod elements;
pub mod escape;
mod rule;
mod text;
mod tokens;

pub use attributes::browser_scheme;
pub use rule::{check, classify, Kind, Refusal};
pub use text::{for_each_text, paragraphs, to_text, Text};
