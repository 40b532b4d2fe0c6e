//! What an open map may say about itself (`ItemsService::announce`): its client id, cursor,
//! selection, and the part of the map it shows, each refused with the field it names.

use uuid::Uuid;

use crate::domain::ItemId;
use crate::error::{CoreError, CoreResult};

/// The bounds, stated once in the vocabulary (the OpenAPI document shows the same).
pub use canvas_vocabulary::limits::presence::{MAX_CLIENT_ID, MAX_SELECTION, MAX_VIEWPORT_EXTENT};

/// The part of the map a client shows: its top-left corner and size, in map units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// What a client says about itself, as the caller sent it (checked by [`check_announcement`]).
#[derive(Debug, Clone, Default)]
pub struct Announcement {
    pub client_id: String,
    /// The pointer on the map; `None` when it is off the map.
    pub cursor: Option<(f64, f64)>,
    pub selection: Vec<String>,
    pub leaving: bool,
    /// The part of the map it shows; `None` when it does not say.
    pub viewport: Option<Viewport>,
    /// Asks every other open map to follow this one's view (needs a viewport).
    pub summon: bool,
}

/// A client id: 1 to [`MAX_CLIENT_ID`] characters of `A-Z a-z 0-9 _ -`.
fn check_client_id(client_id: &str) -> CoreResult<()> {
    let fits = (1..=MAX_CLIENT_ID).contains(&client_id.len())
        && client_id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if fits {
        Ok(())
    } else {
        Err(CoreError::invalid(
            "clientId",
            format!("must be 1 to {MAX_CLIENT_ID} characters of A-Z, a-z, 0-9, _ and -"),
        ))
    }
}

/// A viewport of finite numbers and a size within bounds; a summons needs one.
fn check_viewport(viewport: Option<Viewport>, summon: bool) -> CoreResult<()> {
    let Some(Viewport { x, y, width, height }) = viewport else {
        if summon {
            return Err(CoreError::invalid("summon", "needs a viewport: the view everyone is brought to"));
        }
        return Ok(());
    };
    for (field, value) in [("viewport.x", x), ("viewport.y", y), ("viewport.width", width), ("viewport.height", height)]
    {
        if !value.is_finite() {
            return Err(CoreError::invalid(field, "must be a finite number"));
        }
    }
    for (field, value) in [("viewport.width", width), ("viewport.height", height)] {
        if value <= 0.0 || value > MAX_VIEWPORT_EXTENT {
            return Err(CoreError::invalid(field, format!("must be above 0 and at most {MAX_VIEWPORT_EXTENT}")));
        }
    }
    Ok(())
}

/// The announcement's checked selection, once every field has passed its rule.
pub(super) fn check_announcement(announcement: &Announcement) -> CoreResult<Vec<ItemId>> {
    check_client_id(&announcement.client_id)?;
    if let Some((x, y)) = announcement.cursor {
        for (field, value) in [("cursor.x", x), ("cursor.y", y)] {
            if !value.is_finite() {
                return Err(CoreError::invalid(field, "must be a finite number"));
            }
        }
    }
    check_viewport(announcement.viewport, announcement.summon)?;
    if announcement.selection.len() > MAX_SELECTION {
        return Err(CoreError::invalid(
            "selection",
            format!("names {} items; at most {MAX_SELECTION} may be selected", announcement.selection.len()),
        ));
    }
    announcement
        .selection
        .iter()
        .enumerate()
        .map(|(i, id)| {
            Uuid::parse_str(id.trim())
                .map(ItemId::from_uuid)
                .map_err(|_| CoreError::invalid(format!("selection[{i}]"), "must be an item id (a GUID)"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn announcements_are_checked_by_field() {
        let field = |announcement: Announcement| match check_announcement(&announcement) {
            Err(CoreError::Validation(v)) => v[0].field.clone(),
            other => panic!("{other:?}"),
        };
        let ok = Announcement { client_id: "tab-1_A".into(), ..Announcement::default() };
        assert!(check_announcement(&ok).is_ok());
        for bad in ["", "a b", "é", "x".repeat(65).as_str()] {
            assert_eq!(field(Announcement { client_id: bad.into(), ..ok.clone() }), "clientId", "{bad:?}");
        }
        assert_eq!(field(Announcement { cursor: Some((f64::NAN, 0.0)), ..ok.clone() }), "cursor.x");
        assert_eq!(field(Announcement { cursor: Some((0.0, f64::INFINITY)), ..ok.clone() }), "cursor.y");
        let many = vec![Uuid::nil().to_string(); MAX_SELECTION + 1];
        assert_eq!(field(Announcement { selection: many, ..ok.clone() }), "selection");
        let odd = vec![Uuid::nil().to_string(), "nope".into()];
        assert_eq!(field(Announcement { selection: odd, ..ok.clone() }), "selection[1]");

        let view = Viewport { x: -5.0, y: 3.5, width: 800.0, height: 600.0 };
        assert!(check_announcement(&Announcement { viewport: Some(view), summon: true, ..ok.clone() }).is_ok());
        assert_eq!(field(Announcement { summon: true, ..ok.clone() }), "summon", "a summon says where to");
        let bad_views = [
            (Viewport { x: f64::NAN, ..view }, "viewport.x"),
            (Viewport { y: f64::NEG_INFINITY, ..view }, "viewport.y"),
            (Viewport { width: 0.0, ..view }, "viewport.width"),
            (Viewport { width: -1.0, ..view }, "viewport.width"),
            (Viewport { height: MAX_VIEWPORT_EXTENT * 2.0, ..view }, "viewport.height"),
        ];
        for (viewport, name) in bad_views {
            assert_eq!(field(Announcement { viewport: Some(viewport), ..ok.clone() }), name, "{viewport:?}");
        }
    }
}
