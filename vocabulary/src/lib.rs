//! The spec's closed lists, the item property table and the request limits: data that several
//! crates need and that must not be restated. core-service owns the rules and applies this data
//! (it validates shape types against [`SHAPE_TYPES`], items against [`items`], page sizes against
//! [`limits`]); the renderer draws every shape type; the gateways depend on this crate (never on
//! core-service) and export the data: the OpenAPI document and the MCP tool schemas are generated
//! from [`json_schema`], so what clients are told cannot drift from what core-service checks.
//!
//! # Layout
//! - `lib.rs`: [`SHAPE_TYPES`].
//! - [`items`]: property kinds and definitions, the item types, and the per-type tables (`items/tables.rs`).
//! - [`theme`]: the theme defaults the tables use.
//! - [`limits`]: page sizes, retrieval and webhook limits.
//! - [`json_schema`]: the tables as JSON Schema and in words.
//! - [`webhook_payloads`]: the webhook event catalog, each call body as JSON Schema.
//! - [`geometry`]: an item's box turned by its angle; [`names`]: how names are folded for comparison.

pub mod geometry;
pub mod items;
pub mod json_schema;
pub mod limits;
pub mod names;
pub mod theme;
pub mod webhook_payloads;

/// The spec's 45 shape types, in its order (the values of a shape's `type`).
pub const SHAPE_TYPES: [&str; 45] = [
    "Rectangle",
    "Ellipse",
    "RoundedRectangle",
    "Triangle",
    "RightTriangle",
    "Diamond",
    "Hexagon",
    "Heptagon",
    "Octagon",
    "Decagon",
    "Dodecagon",
    "Pentagon",
    "Parallelogram",
    "Trapezoid",
    "Plus",
    "Donut",
    "Heart",
    "LightningBolt",
    "Star4",
    "Star5",
    "Star6",
    "DirectionArrow",
    "DirectionArrowRight",
    "DirectionArrowLeft",
    "RightArrow",
    "LeftArrow",
    "UpArrow",
    "DownArrow",
    "LeftRightArrow",
    "UpDownArrow",
    "QuadArrow",
    "LeftRightUpArrow",
    "StripedRightArrow",
    "NotchedRightArrow",
    "Plaque",
    "Frame",
    "HalfFrame",
    "Corner",
    "OneSnipCornerRectangle",
    "TwoSameSideSnipCornerRectangle",
    "TwoDiagonalSnipCornerRectangle",
    "OneSnipOneRoundCornerRectangle",
    "OneRoundCornerRectangle",
    "TwoSameSideRoundCornerRectangle",
    "TwoDiagonalRoundCornerRectangle",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let mut shapes = SHAPE_TYPES.to_vec();
        shapes.sort_unstable();
        shapes.dedup();
        assert_eq!(shapes.len(), SHAPE_TYPES.len());
    }
}
