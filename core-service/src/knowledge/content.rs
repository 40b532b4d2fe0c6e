//! What text of an item goes into the knowledge index.
//!
//! - labels and sticky notes: their text, HTML reduced to plain text;
//! - web items: the URL;
//! - images: the file name;
//! - documents and SVGs: the file name and the text extracted from the stored file;
//! - connectors: a relation sentence joining the texts of the items at their two ends;
//! - shapes: nothing (they hold no text).

use serde_json::Value;

use crate::domain::ItemId;
use crate::storage::ItemRow;
use canvas_items::ItemType;

/// Longest excerpt of an end item's text used in a connector's relation sentence.
const RELATION_EXCERPT_CHARS: usize = 300;

/// What must be read to know an item's text.
#[derive(Debug, Clone, PartialEq)]
pub enum ItemText {
    /// The text is in the item's properties.
    Inline(String),
    /// The text is in the stored file; `prefix` (the file name) goes first.
    File { prefix: String, content_key: String, mime_type: String },
    /// A connector: the ids of the items at its ends (`None` for a free end).
    Relation { start: Option<ItemId>, end: Option<ItemId> },
}

/// Where an item's text comes from.
pub fn text_of(row: &ItemRow) -> ItemText {
    let props = &row.properties;
    let str_prop = |name: &str| props.get(name).and_then(Value::as_str).unwrap_or_default().to_owned();
    match row.item_type {
        ItemType::Label | ItemType::StickyNote => ItemText::Inline(canvas_files::html_to_text(&str_prop("text"))),
        ItemType::Web => ItemText::Inline(str_prop("url")),
        ItemType::Image => ItemText::Inline(str_prop("fileName")),
        ItemType::Document | ItemType::Svg => match &row.content_key {
            Some(key) => ItemText::File {
                prefix: str_prop("fileName"),
                content_key: key.clone(),
                mime_type: match str_prop("mimeType") {
                    m if m.is_empty() && row.item_type == ItemType::Svg => "image/svg+xml".into(),
                    m => m,
                },
            },
            None => ItemText::Inline(str_prop("fileName")),
        },
        ItemType::Connector => {
            let end_item = |name: &str| {
                props
                    .get(name)
                    .and_then(|p| p.get("itemId"))
                    .and_then(Value::as_str)
                    .and_then(|s| ItemId::parse(s).ok())
            };
            ItemText::Relation { start: end_item("startPoint"), end: end_item("endPoint") }
        }
        ItemType::Shape => ItemText::Inline(String::new()),
        // A frame's title names a part of the map ("Sprint 3", "Risks"): worth finding.
        ItemType::Frame => ItemText::Inline(str_prop("title")),
    }
}

/// The text indexed for an open comment thread: its comments, the thread's own first, each as plain
/// text on its own line (docs/COMMENTS.md "Knowledge").
pub fn thread_text(texts: &[String]) -> String {
    texts.iter().map(|text| canvas_files::html_to_text(text)).collect::<Vec<_>>().join("\n")
}

/// The short form of an item's text used when a connector refers to it.
pub fn excerpt(row: &ItemRow) -> String {
    let text = match text_of(row) {
        ItemText::Inline(text) => text,
        ItemText::File { prefix, .. } => prefix,
        ItemText::Relation { .. } => String::new(),
    };
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.char_indices().nth(RELATION_EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// The sentence indexed for a connector, or empty when neither end has text.
pub fn relation_sentence(start: Option<&str>, end: Option<&str>) -> String {
    let named = |t: Option<&str>| t.map(str::trim).filter(|t| !t.is_empty()).map(|t| format!("\"{t}\""));
    match (named(start), named(end)) {
        (Some(a), Some(b)) => format!("{a} is connected to {b}."),
        (Some(a), None) | (None, Some(a)) => format!("{a} has a connection."),
        (None, None) => String::new(),
    }
}

/// Joins a file's name and its text.
pub fn with_prefix(prefix: &str, text: &str) -> String {
    match (prefix.trim(), text.trim()) {
        ("", t) => t.to_owned(),
        (p, "") => p.to_owned(),
        (p, t) => format!("{p}\n{t}"),
    }
}

#[cfg(test)]
mod tests {
    use chrono::Utc;
    use serde_json::json;

    use super::*;
    use crate::domain::{ProjectId, UserId};
    use uuid::Uuid;

    fn row(item_type: &str, props: Value) -> ItemRow {
        let id = Uuid::now_v7();
        ItemRow {
            id: ItemId::from_uuid(id),
            project_id: ProjectId::from_uuid(id),
            item_type: ItemType::parse(item_type).unwrap(),
            parent: canvas_items::Parent::Panel,
            properties: props,
            version: 1,
            created_by: UserId::from_uuid(id),
            updated_by: UserId::from_uuid(id),
            created_at: Utc::now(),
            updated_at: Utc::now(),
            content_key: None,
        }
    }

    #[test]
    fn label_html_becomes_text() {
        let label = row("label", json!({"text": "<p>Wing <b>lift</b></p><p>drag</p>"}));
        match text_of(&label) {
            ItemText::Inline(text) => {
                assert!(text.contains("Wing lift"), "{text:?}");
                assert!(text.contains("drag") && !text.contains('<'), "{text:?}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn media_and_connectors() {
        assert_eq!(
            text_of(&row("web", json!({"url": "https://example.com/a"}))),
            ItemText::Inline("https://example.com/a".into())
        );
        assert_eq!(text_of(&row("image", json!({"fileName": "plan.png"}))), ItemText::Inline("plan.png".into()));
        assert_eq!(text_of(&row("shape", json!({"type": "Circle"}))), ItemText::Inline(String::new()));
        let a = Uuid::now_v7();
        let connector = row(
            "connector",
            json!({"startPoint": {"itemId": a.to_string()}, "endPoint": {"position": {"x": 1, "y": 2}}}),
        );
        assert_eq!(text_of(&connector), ItemText::Relation { start: Some(ItemId::from_uuid(a)), end: None });
        let mut doc = row("document", json!({"fileName": "r.pdf", "mimeType": "application/pdf"}));
        doc.content_key = Some("abc".into());
        assert_eq!(
            text_of(&doc),
            ItemText::File { prefix: "r.pdf".into(), content_key: "abc".into(), mime_type: "application/pdf".into() }
        );
    }

    #[test]
    fn relation_sentences() {
        assert_eq!(relation_sentence(Some("Wing"), Some("Lift")), "\"Wing\" is connected to \"Lift\".");
        assert_eq!(relation_sentence(None, Some("Lift")), "\"Lift\" has a connection.");
        assert_eq!(relation_sentence(Some(" "), None), "");
        let long = row("label", json!({"text": "x".repeat(1000)}));
        assert_eq!(excerpt(&long).chars().count(), RELATION_EXCERPT_CHARS + 1);
    }
}
