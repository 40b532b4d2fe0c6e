//! PNG export: the SVG drawing rasterised by resvg (pure Rust, no system
//! libraries), at the drawing's own pixel size.
//!
//! Two guards: a pixel budget, so one request cannot ask for a gigapixel
//! buffer, and an `<image>` resolver that accepts only `data:` URIs, so a
//! nested SVG can never make the rasteriser read a file from this machine.

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia;
use resvg::usvg::{self, fontdb};

use crate::svg::{Drawing, RenderError};

/// Largest PNG, in pixels (about 8000 × 5000; 160 MB of RGBA while drawing).
pub const MAX_PNG_PIXELS: u64 = 40_000_000;

/// Sans-serif faces preferred for text, in order; Liberation Sans has Arial's metrics.
const SANS_SERIF: &[&str] = &["Liberation Sans", "Arimo", "DejaVu Sans", "Noto Sans", "FreeSans"];

/// The system fonts, loaded once per process (scanning font directories is slow).
fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            db.load_system_fonts();
            let families: Vec<String> =
                db.faces().flat_map(|face| face.families.iter().map(|(name, _)| name.clone())).collect();
            let sans = SANS_SERIF
                .iter()
                .find(|wanted| families.iter().any(|f| f == *wanted))
                .map(|s| s.to_string())
                .or_else(|| families.first().cloned());
            if let Some(sans) = sans {
                db.set_sans_serif_family(sans);
            }
            Arc::new(db)
        })
        .clone()
}

/// Checks the pixel budget of a drawing before any buffer is allocated.
pub fn check_size(width: u32, height: u32) -> Result<(), RenderError> {
    let pixels = u64::from(width) * u64::from(height);
    if pixels > MAX_PNG_PIXELS {
        return Err(RenderError::TooLarge { width: width.into(), height: height.into(), max: MAX_PNG_PIXELS });
    }
    Ok(())
}

/// Rasterises a drawing to PNG bytes of `drawing.width × drawing.height` pixels.
pub fn render_png(drawing: &Drawing) -> Result<Vec<u8>, RenderError> {
    check_size(drawing.width, drawing.height)?;
    let options = usvg::Options {
        fontdb: fonts(),
        font_family: "sans-serif".into(),
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: usvg::ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&drawing.svg, &options).map_err(|e| RenderError::Rasterise(e.to_string()))?;
    let mut pixmap = tiny_skia::Pixmap::new(drawing.width, drawing.height)
        .ok_or_else(|| RenderError::Rasterise("the image size is zero".into()))?;
    let size = tree.size();
    let transform = tiny_skia::Transform::from_scale(
        drawing.width as f32 / size.width().max(1.0),
        drawing.height as f32 / size.height().max(1.0),
    );
    // tiny-skia asserts (panics) on some extreme geometry instead of returning an error; one bad
    // drawing must not take a worker down, so its panic becomes an answer. The pixmap is dropped
    // with it, so no half-drawn state outlives the call.
    let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        resvg::render(&tree, transform, &mut pixmap.as_mut());
    }));
    if drawn.is_err() {
        return Err(RenderError::Unrasterisable);
    }
    pixmap.encode_png().map_err(|e| RenderError::Rasterise(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// tiny-skia panics on a path reaching billions of pixels above the image (its issue #167);
    /// the PNG export answers an error instead.
    #[test]
    fn geometry_the_rasteriser_cannot_draw_is_an_error_not_a_panic() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><path d="m3 6h8v-5651705554"/></svg>"#;
        let drawing = Drawing {
            svg: svg.to_owned(),
            region: crate::model::Rect { x: 0.0, y: 0.0, width: 32.0, height: 32.0 },
            width: 32,
            height: 32,
            items: 1,
        };
        assert!(matches!(render_png(&drawing), Err(RenderError::Unrasterisable)));
    }

    #[test]
    fn the_pixel_budget_is_enforced_before_drawing() {
        assert!(check_size(8000, 5000).is_ok());
        let err = check_size(8001, 5000).unwrap_err();
        assert!(err.to_string().contains("8001×5000 pixels"), "{err}");
    }
}
