//! The theme: the values the spec calls "theme default" and "accent color", as JSON text (they are
//! property defaults). Written down in docs/ITEMS.md; changing one changes only new items.

/// Font family of labels and sticky notes.
pub const FONT_FAMILY: &str = "\"Arial\"";
/// Font size of labels, in points.
pub const LABEL_FONT_SIZE: &str = "14";
/// Background of labels: a dark slate that white text (the label default) reads well on.
pub const LABEL_BACKGROUND: &str = "\"#1E293B\"";
/// The accent colour (connectors).
pub const ACCENT: &str = "\"#F59E0B\"";
/// The accent colour at 90% opacity (sticky notes).
pub const ACCENT_90: &str = "\"rgba(245, 158, 11, 0.9)\"";
/// Fill of frames: a slate a step lighter than the map's background, so a frame reads as an area
/// and the label defaults (white text on slate) read on it.
pub const FRAME_FILL: &str = "\"#1E293B\"";
