//! The per-type property tables of the spec's item tables, and the closed lists they use.
//! Defaults that the spec calls "theme default" come from [`crate::theme`].

use super::{Kind, PropertyDef};
use crate::theme;

/// Horizontal text alignments of labels and sticky notes.
pub const HORIZONTAL_ALIGNMENTS: &[&str] = &["Left", "Center", "Right"];
/// Vertical text alignments of labels and sticky notes.
pub const VERTICAL_ALIGNMENTS: &[&str] = &["Top", "Center", "Bottom"];
/// Connector line types.
pub const LINE_TYPES: &[&str] = &["Straight", "Angled", "Curved"];
/// Decorators at a connector's ends.
pub const DECORATORS: &[&str] = &["None", "Arrow", "ArrowLine", "Circle"];
/// Image types the spec accepts.
pub const IMAGE_TYPES: &[&str] = &["image/jpeg", "image/png", "image/gif", "image/webp"];

/// The base properties every drawn item has, with the default position; `scale` and `angle`.
const POSITION: PropertyDef = PropertyDef::new("position", Kind::Point).default(r#"{"x":0,"y":0}"#);
const SCALE: PropertyDef = PropertyDef::new("scale", Kind::NumberAbove(0.0)).default("1");
const ANGLE: PropertyDef = PropertyDef::new("angle", Kind::NumberBetween(0.0, 360.0)).default("0");
const TEXT: PropertyDef = PropertyDef::new("text", Kind::RichText).required();
const FONT_FAMILY: PropertyDef = PropertyDef::new("fontFamily", Kind::Name(256)).default(theme::FONT_FAMILY);
/// Every type's tags (beyond the spec; docs/ITEMS.md "Tags"): absent until set.
const TAGS: PropertyDef =
    PropertyDef::new("tags", Kind::TagIds).note("ids of the project's tags (GET .../tags); each at most once");
const AUTO_SIZE_NOTE: &str = "an auto-sized dimension must be 0 or omitted; the others at least 5";

pub const LABEL: &[PropertyDef] = &[
    POSITION,
    PropertyDef::new("size", Kind::AutoSize).default(r#"{"width":0,"height":0}"#).note(AUTO_SIZE_NOTE),
    SCALE,
    ANGLE,
    TEXT,
    PropertyDef::new("fontSize", Kind::NumberAtLeast(1.0)).default(theme::LABEL_FONT_SIZE),
    FONT_FAMILY,
    PropertyDef::new("textColor", Kind::CssColor).default(r##""#FFFFFF""##),
    PropertyDef::new("backgroundColor", Kind::CssColor).default(theme::LABEL_BACKGROUND),
    PropertyDef::new("isAutoSizeWidth", Kind::Bool).default("true"),
    PropertyDef::new("isAutoSizeHeight", Kind::Bool).default("true"),
    PropertyDef::new("horizontalTextAlignment", Kind::OneOf(HORIZONTAL_ALIGNMENTS)).default(r#""Left""#),
    PropertyDef::new("verticalTextAlignment", Kind::OneOf(VERTICAL_ALIGNMENTS)).default(r#""Top""#),
    TAGS,
];

pub const STICKY_NOTE: &[PropertyDef] = &[
    POSITION,
    PropertyDef::new("size", Kind::AutoSize).default(r#"{"width":212,"height":106}"#).note(AUTO_SIZE_NOTE),
    SCALE,
    ANGLE,
    TEXT,
    PropertyDef::new("fontSize", Kind::NumberAtLeast(1.0)).default("15"),
    FONT_FAMILY,
    PropertyDef::new("textColor", Kind::CssColor).default(r##""#000000""##),
    PropertyDef::new("backgroundColor", Kind::CssColor).default(theme::ACCENT_90),
    PropertyDef::new("isAutoSizeWidth", Kind::Bool).default("false"),
    PropertyDef::new("isAutoSizeHeight", Kind::Bool).default("false"),
    PropertyDef::new("horizontalTextAlignment", Kind::OneOf(HORIZONTAL_ALIGNMENTS)).default(r#""Center""#),
    PropertyDef::new("verticalTextAlignment", Kind::OneOf(VERTICAL_ALIGNMENTS)).default(r#""Center""#),
    TAGS,
];

pub const SHAPE: &[PropertyDef] = &[
    POSITION,
    PropertyDef::new("size", Kind::Size).required(),
    SCALE,
    ANGLE,
    PropertyDef::new("type", Kind::OneOf(&crate::SHAPE_TYPES)).fixed().default(r#""Rectangle""#),
    PropertyDef::new("fillColor", Kind::HexColor).default(r##""#00000000""##),
    PropertyDef::new("strokeColor", Kind::HexColor).default(r##""#FFFFFF""##),
    PropertyDef::new("strokeThickness", Kind::NumberAtLeast(0.0)).default("2"),
    PropertyDef::new("adjustmentValues", Kind::NonNegativeList).default("[]").note(
        "shape-specific; the first is the corner radius of round-corner types, as a fraction of the shorter side",
    ),
    PropertyDef::new("cornerRadius", Kind::NumberAtLeast(0.0))
        .note("world units, round-corner shape types only; read back as the drawn radius, null for other types"),
    TAGS,
];

/// The members of a connector end (unknown members are refused).
pub const CONNECTOR_POINT: &[PropertyDef] = &[
    PropertyDef::new("edge", Kind::Bool).default("true").note("attach to the item's outline"),
    PropertyDef::new("position", Kind::Point)
        .note("required unless itemId is given; relative to that item when it is (default {0, 0})"),
    PropertyDef::new("itemId", Kind::ItemId).note("another, non-connector item of the project to follow"),
    PropertyDef::new("decorator", Kind::OneOf(DECORATORS)).default(r#""ArrowLine""#),
];

/// Members a connector end gains on read (never accepted on writes).
pub const CONNECTOR_POINT_DERIVED: &[PropertyDef] =
    &[PropertyDef::new("absolutePosition", Kind::Point).note("where the end is drawn")];

pub const CONNECTOR: &[PropertyDef] = &[
    PropertyDef::new("position", Kind::Point).ignored(),
    PropertyDef::new("size", Kind::Size).ignored(),
    PropertyDef::new("scale", Kind::NumberAbove(0.0)).ignored(),
    PropertyDef::new("angle", Kind::NumberBetween(0.0, 360.0)).ignored(),
    PropertyDef::new("type", Kind::OneOf(LINE_TYPES)).default(r#""Straight""#),
    PropertyDef::new("strokeColor", Kind::CssColor).default(theme::ACCENT),
    PropertyDef::new("strokeThickness", Kind::NumberAtLeast(0.0)).default("3"),
    PropertyDef::new("cornerPoints", Kind::PointList).default("[]"),
    PropertyDef::new("radius", Kind::NumberAtLeast(0.0)).default("0.5"),
    PropertyDef::new("startPoint", Kind::ConnectorPoint).required(),
    PropertyDef::new("endPoint", Kind::ConnectorPoint).required(),
    TAGS,
];

pub const WEB: &[PropertyDef] = &[
    POSITION,
    PropertyDef::new("size", Kind::Size).default(r#"{"width":1280,"height":768}"#),
    SCALE,
    ANGLE,
    PropertyDef::new("url", Kind::WebUrl).required(),
    TAGS,
];

/// Images: a JSON create names the file facts; an upload fills them from the bytes. `mimeType`
/// and `fileSize` are fixed once the image has uploaded content (a rule of core-service).
pub const IMAGE: &[PropertyDef] = &[
    POSITION,
    PropertyDef::new("size", Kind::Size).required(),
    SCALE,
    ANGLE,
    PropertyDef::new("fileName", Kind::FileName).required(),
    PropertyDef::new("mimeType", Kind::OneOf(IMAGE_TYPES)).required(),
    PropertyDef::new("fileSize", Kind::ByteCount).required(),
    TAGS,
];

/// The file facts of documents and SVGs come from the upload and cannot be set by a client
/// (except the name).
const FILE_FACTS: [PropertyDef; 3] = [
    PropertyDef::new("fileName", Kind::FileName),
    PropertyDef::new("mimeType", Kind::Name(255)).fixed(),
    PropertyDef::new("fileSize", Kind::ByteCount).fixed(),
];

pub const DOCUMENT: &[PropertyDef] = &[
    POSITION,
    PropertyDef::new("size", Kind::Size).default(r#"{"width":240,"height":320}"#),
    SCALE,
    ANGLE,
    FILE_FACTS[0],
    FILE_FACTS[1],
    FILE_FACTS[2],
    TAGS,
];

pub const SVG: &[PropertyDef] = &[
    POSITION,
    PropertyDef::new("size", Kind::Size).default(r#"{"width":256,"height":256}"#),
    SCALE,
    ANGLE,
    FILE_FACTS[0],
    FILE_FACTS[1],
    FILE_FACTS[2],
    TAGS,
];

/// Frames (beyond the spec; docs/ITEMS.md "Frames"): a titled rectangle that holds items and moves
/// them with it. Never scaled or turned, so what it holds is clipped to an upright box.
pub const FRAME: &[PropertyDef] = &[
    POSITION,
    PropertyDef::new("size", Kind::Size).default(r#"{"width":800,"height":600}"#),
    PropertyDef::new("title", Kind::Name(crate::limits::frames::MAX_TITLE_CHARS))
        .default(r#""Frame""#)
        .note("plain text, drawn above the frame's top-left corner"),
    PropertyDef::new("fillColor", Kind::HexColor).default(theme::FRAME_FILL),
    TAGS,
];
