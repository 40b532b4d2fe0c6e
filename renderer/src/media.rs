//! Web links, images, documents and SVG items.
//!
//! File content comes from the caller ([`ContentLookup`]), never from a URL
//! or path named in the data. Images and SVG items are embedded as
//! `data:` URIs inside `<image>`: browsers and resvg treat an SVG loaded that
//! way as a picture (no scripts, no external loads, no event handlers), so an
//! uploaded SVG cannot act on the page even if it slipped past core-service's
//! sanitiser. Web links and documents are drawn as cards; a link card is not
//! a live hyperlink, so nothing on the map navigates by itself.

use std::collections::HashMap;
use std::fmt::Write;

use base64::Engine;

use crate::model::{Item, ItemType};
use crate::style::{escape, num};
use crate::text;

/// The stored bytes of an image or SVG item.
#[derive(Debug, Clone)]
pub struct Content {
    /// The sniffed type core-service stored (`image/png`, `image/svg+xml`, …).
    pub mime_type: String,
    pub bytes: Vec<u8>,
}

/// Where the renderer gets file content, by item id.
pub trait ContentLookup {
    fn content(&self, item_id: &str) -> Option<&Content>;
}

impl ContentLookup for HashMap<String, Content> {
    fn content(&self, item_id: &str) -> Option<&Content> {
        self.get(item_id)
    }
}

/// No content at all: images and SVGs draw as placeholders.
pub struct NoContent;

impl ContentLookup for NoContent {
    fn content(&self, _item_id: &str) -> Option<&Content> {
        None
    }
}

/// MIME types that may be embedded; anything else draws as a placeholder.
const EMBEDDABLE: &[&str] = &["image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"];

pub fn draw(out: &mut String, item: &Item<'_>, contents: &dyn ContentLookup) {
    match item.kind {
        ItemType::Web => web_card(out, item),
        ItemType::Document => document_card(out, item),
        ItemType::Image | ItemType::Svg => match contents.content(item.id).filter(|c| embeddable(item.kind, c)) {
            Some(content) => embed(out, item, content),
            None => placeholder(out, item),
        },
        _ => {}
    }
}

fn embeddable(kind: ItemType, content: &Content) -> bool {
    let mime = content.mime_type.split(';').next().unwrap_or_default().trim();
    EMBEDDABLE.contains(&mime) && (kind == ItemType::Svg) == (mime == "image/svg+xml")
}

fn embed(out: &mut String, item: &Item<'_>, content: &Content) {
    let (w, h) = (item.frame.width, item.frame.height);
    let mime = content.mime_type.split(';').next().unwrap_or_default().trim();
    let data = base64::engine::general_purpose::STANDARD.encode(&content.bytes);
    let _ = write!(
        out,
        "<image class=\"body\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" href=\"data:{mime};base64,{data}\"/>",
        num(-w / 2.0),
        num(-h / 2.0),
        num(w),
        num(h)
    );
}

/// A card frame: rounded box, title and caption lines, fitted to the box.
fn card(out: &mut String, item: &Item<'_>, fill: &str, title: &str, caption: &str) {
    let (w, h) = (item.frame.width, item.frame.height);
    let (left, top) = (-w / 2.0, -h / 2.0);
    let _ = write!(
        out,
        "<rect class=\"body\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{fill}\" stroke=\"#94a3b8\" stroke-width=\"1\"/>",
        num(left),
        num(top),
        num(w),
        num(h),
        num(w.min(h) * 0.04)
    );
    let font = (w.min(h) / 8.0).clamp(4.0, 48.0);
    let max = (w - font).max(font);
    for (i, (line, size, color)) in [(title, font, "#0f172a"), (caption, font * 0.7, "#475569")].into_iter().enumerate()
    {
        let Some(fitted) = text::wrap(&[line.to_owned()], size, Some(max)).into_iter().next() else { continue };
        let fitted = if text::width(line, size) > max { format!("{}…", fitted.trim_end()) } else { fitted };
        let y = if i == 0 { font * 0.35 } else { font * 1.4 };
        let _ = write!(
            out,
            "<text x=\"0\" y=\"{}\" font-family=\"Arial, sans-serif\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{color}\">{}</text>",
            num(y),
            num(size),
            escape(&fitted)
        );
    }
}

/// A link card: a globe over the host name, the whole URL as caption.
fn web_card(out: &mut String, item: &Item<'_>) {
    let url = item.str("url").unwrap_or_default();
    let host = url.split("://").nth(1).and_then(|rest| rest.split(['/', '?', '#']).next()).unwrap_or(url);
    card(out, item, "#f8fafc", host, url);
    let r = item.frame.width.min(item.frame.height) / 8.0;
    let cy = -r * 1.6;
    let _ = write!(
        out,
        "<g fill=\"none\" stroke=\"#2563eb\" stroke-width=\"{sw}\"><circle cx=\"0\" cy=\"{cy}\" r=\"{r}\"/><ellipse cx=\"0\" cy=\"{cy}\" rx=\"{rx}\" ry=\"{r}\"/><path d=\"M-{r} {cy}H{r}\"/></g>",
        sw = num(r / 8.0),
        cy = num(cy),
        r = num(r),
        rx = num(r / 2.0)
    );
}

/// A file card: a page with a folded corner and the file's type.
fn document_card(out: &mut String, item: &Item<'_>) {
    let name = item.str("fileName").unwrap_or("document");
    card(out, item, "#ffffff", name, &file_caption(item));
    let s = item.frame.width.min(item.frame.height) / 5.0;
    let (x, y) = (-s / 2.0, -s * 2.0);
    let _ = write!(
        out,
        "<path d=\"M{x} {y}h{a}l{b} {b}v{c}h-{s}Z\" fill=\"#e2e8f0\" stroke=\"#64748b\" stroke-width=\"{sw}\"/>",
        x = num(x),
        y = num(y),
        a = num(s * 0.7),
        b = num(s * 0.3),
        c = num(s),
        s = num(s),
        sw = num(s / 20.0)
    );
}

/// An image or SVG whose content is not available: a card with the file name.
fn placeholder(out: &mut String, item: &Item<'_>) {
    let name = item.str("fileName").unwrap_or(if item.kind == ItemType::Svg { "vector image" } else { "image" });
    card(out, item, "#e2e8f0", name, &file_caption(item));
}

/// "PDF · 12 KB": the type and size of a file item.
fn file_caption(item: &Item<'_>) -> String {
    let kind = item
        .str("fileName")
        .and_then(|n| n.rsplit_once('.'))
        .map(|(_, ext)| ext.to_ascii_uppercase())
        .or_else(|| item.str("mimeType").map(str::to_owned))
        .unwrap_or_default();
    match item.f64("fileSize") {
        Some(bytes) if bytes >= 1024.0 * 1024.0 => format!("{kind} · {:.1} MB", bytes / 1024.0 / 1024.0),
        Some(bytes) if bytes >= 1024.0 => format!("{kind} · {:.0} KB", bytes / 1024.0),
        Some(bytes) => format!("{kind} · {bytes} B"),
        None => kind,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_svg_is_embedded_as_a_picture_never_inline() {
        let value = json!({"itemId": "s1", "itemType": "svg", "size": {"width": 10, "height": 10}});
        let item = Item::read(&value).unwrap();
        let hostile =
            Content { mime_type: "image/svg+xml".into(), bytes: b"<svg><script>alert(1)</script></svg>".to_vec() };
        let contents = HashMap::from([("s1".to_owned(), hostile)]);
        let mut out = String::new();
        draw(&mut out, &item, &contents);
        assert!(out.contains("href=\"data:image/svg+xml;base64,"), "{out}");
        assert!(!out.contains("<script") && !out.contains("<svg"), "{out}");
    }

    #[test]
    fn content_of_the_wrong_kind_draws_a_placeholder() {
        let value =
            json!({"itemId": "i1", "itemType": "image", "fileName": "a.png", "size": {"width": 100, "height": 100}});
        let item = Item::read(&value).unwrap();
        let svg = Content { mime_type: "image/svg+xml".into(), bytes: b"<svg/>".to_vec() };
        let mut out = String::new();
        draw(&mut out, &item, &HashMap::from([("i1".to_owned(), svg)]));
        assert!(!out.contains("data:") && out.contains("a.png"), "{out}");
    }
}
