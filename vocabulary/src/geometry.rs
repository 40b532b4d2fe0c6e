//! The geometry every reader of the map must agree on: the box an item covers once turned by its
//! angle. core-service's region filter, arrangement and diagram placement, the renderer's bounds
//! and the MCP gateway's neighbourhood of items all take it from here.

/// Half extents (half width, half height) of the axis-aligned box around a rectangle of half
/// extents `half_width` × `half_height` turned by `angle_radians` about its centre.
pub fn turned_half_extents(half_width: f64, half_height: f64, angle_radians: f64) -> (f64, f64) {
    let (sin, cos) = angle_radians.sin_cos();
    (half_width * cos.abs() + half_height * sin.abs(), half_width * sin.abs() + half_height * cos.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turned_box_covers_the_turned_rectangle() {
        assert_eq!(turned_half_extents(50.0, 20.0, 0.0), (50.0, 20.0));
        let (w, h) = turned_half_extents(50.0, 20.0, std::f64::consts::FRAC_PI_2);
        assert!((w - 20.0).abs() < 1e-9 && (h - 50.0).abs() < 1e-9);
        let (w, h) = turned_half_extents(10.0, 10.0, std::f64::consts::FRAC_PI_4);
        assert!((w - 200f64.sqrt()).abs() < 1e-9 && (h - w).abs() < 1e-12);
    }
}
