//! The map as an MCP App (the MCP Apps extension, `io.modelcontextprotocol/ui`): one `ui://`
//! resource, an HTML view that a chat client supporting MCP Apps shows inline beside the result of
//! a tool that answers with item links (their definitions name it in `_meta.ui.resourceUri`).
//!
//! The view needs no network and no credentials of its own: the host hands it the tool's result
//! (`ui/notifications/tool-result`), it draws the map around the result's items by calling
//! `render_map` through the host (`tools/call`, with the user's own connection and token), and
//! "Open the live map" asks the host to open the item link (`ui/open-link`), where the person
//! edits. So its declared CSP allows nothing beyond the host, and the live map page itself keeps
//! refusing to be framed (`frame-ancestors 'none'`): an editor that writes with the person's
//! session must not sit inside another site's page.

use rmcp::model::{ExtensionCapabilities, JsonObject, MetaObject, ReadResourceResult, Resource, ResourceContents};
use rmcp::ErrorData;
use serde_json::{json, Value};

/// The extension's identifier in the capabilities.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The view's resource URI.
pub const MAP_VIEW_URI: &str = "ui://canvas/map.html";
/// The media type of an MCP App view.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The view: one self-contained page (script and style inline, as hosts load it from text).
const MAP_VIEW: &str = include_str!("../assets/map-app.html");

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    }
}

/// The `extensions` capability: MCP Apps, with the one media type the views use.
pub fn capability() -> ExtensionCapabilities {
    ExtensionCapabilities::from([(EXTENSION.to_owned(), object(json!({ "mimeTypes": [MIME_TYPE] })))])
}

/// The view's `_meta.ui`: no network, no frames, no permissions; a border around it.
fn view_meta() -> MetaObject {
    MetaObject(object(json!({
        "ui": {
            "csp": { "connectDomains": [], "resourceDomains": [], "frameDomains": [] },
            "prefersBorder": true
        }
    })))
}

/// The `_meta` of a tool whose result the view shows.
pub fn tool_meta() -> MetaObject {
    MetaObject(object(json!({ "ui": { "resourceUri": MAP_VIEW_URI } })))
}

/// The `resources/list` entries.
pub fn resources() -> Vec<Resource> {
    vec![Resource::new(MAP_VIEW_URI, "map")
        .with_title("Project map")
        .with_description("The project map around a tool's result, shown inline; opens the live map to edit.")
        .with_mime_type(MIME_TYPE)
        .with_meta(view_meta())]
}

/// `resources/read`: the view, or "resource not found" for any other URI.
pub fn read(uri: &str) -> Result<ReadResourceResult, ErrorData> {
    if uri != MAP_VIEW_URI {
        return Err(ErrorData::resource_not_found(
            format!("no resource '{uri}': this server has one, {MAP_VIEW_URI}"),
            Some(json!({ "uri": uri })),
        ));
    }
    Ok(ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
        uri: MAP_VIEW_URI.to_owned(),
        mime_type: Some(MIME_TYPE.to_owned()),
        text: MAP_VIEW.to_owned(),
        meta: Some(view_meta()),
    }]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_view_is_one_page_that_reaches_nothing_but_its_host() {
        let page = MAP_VIEW.to_ascii_lowercase();
        assert!(page.starts_with("<!doctype html>"));
        for outside in ["http://", "https://", "<iframe", "src=\"/", "fetch(", "xmlhttprequest", "websocket", "eval("] {
            assert!(!page.contains(outside), "the view must not use {outside}");
        }
        for method in [
            "ui/initialize",
            "ui/notifications/initialized",
            "ui/notifications/tool-result",
            "tools/call",
            "ui/open-link",
        ] {
            assert!(MAP_VIEW.contains(method), "the view speaks {method}");
        }
    }

    #[test]
    fn only_the_view_can_be_read() {
        let read = read(MAP_VIEW_URI).unwrap();
        let text = serde_json::to_value(&read).unwrap();
        assert_eq!(text["contents"][0]["mimeType"], MIME_TYPE);
        let missing = super::read("ui://canvas/other.html").unwrap_err();
        assert_eq!(missing.code, rmcp::model::ErrorCode::RESOURCE_NOT_FOUND);
    }
}
