//! The spec's closed lists of names that several crates need without sharing rules. core-service
//! validates shape types against [`SHAPE_TYPES`], the renderer draws every one of them, and the
//! OpenAPI document enumerates them; one copy here means the three cannot disagree.
//!
//! # Layout
//! - `lib.rs`: [`SHAPE_TYPES`].

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
