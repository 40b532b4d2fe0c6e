//! canvas-render: draws a project map as SVG, and rasterises that SVG to PNG.
//!
//! A pure library: the input is the items exactly as core-service presents
//! them (the JSON objects of the REST item listing), plus a lookup for the
//! stored bytes of image and SVG items. Nothing here does I/O, so the REST
//! gateway, the tests and the benchmark all draw the same picture.
//!
//! # Layout
//! - [`geometry`]: rectangles, frames and connector points in map units (core-service's geometry).
//! - [`model`]: items read into kinds and frames.
//! - [`label`], [`shape`], [`connector`], [`media`]: one drawing module per family of types.
//! - [`text`]: HTML reduced to plain text, line wrapping, and a label's text laid out in its box.
//! - [`style`]: colours, numbers and escaping as SVG writes them.
//! - [`svg`]: the document, [`render_svg`] and what it answers ([`Drawing`], [`RenderError`]).
//! - `png` (feature `png`, on by default): rasterisation with resvg, with a pixel budget. Without
//!   it the crate is the SVG drawing and the text metrics alone (what `canvas-diagram` sizes with).
//!
//! The modules import downwards only: `style` and `geometry` at the bottom, then `text`, then
//! `model`, then the drawing modules, then `svg` (the document) and `png`; `lib.rs` only declares
//! the modules and re-exports the API.
//!
//! The output is one `<svg>` whose `viewBox` is the drawn region in map units;
//! every item is a `<g class="item" id="item-{itemId}" data-item-id=…>` so a
//! page can find, centre and highlight it; a connector's also names the items it joins
//! (`data-start-id`, `data-end-id`).

pub mod connector;
pub mod frames;
pub mod geometry;
pub mod label;
pub mod media;
pub mod model;
#[cfg(feature = "png")]
pub mod png;
pub mod shape;
pub mod style;
pub mod svg;
pub mod text;

pub use media::{Content, ContentLookup, NoContent};
pub use model::Rect;
#[cfg(feature = "png")]
pub use png::{render_png, MAX_PNG_PIXELS};
pub use svg::{render_svg, Drawing, RenderError, RenderOptions, BACKGROUND, SCALE_RANGE};
