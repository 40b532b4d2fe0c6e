//! Labels and sticky notes: the same properties, different defaults (their tables are
//! `canvas_vocabulary::items::{LABEL, STICKY_NOTE}`), and the auto-size rules.

use serde_json::{Map, Value};

use canvas_vocabulary::items::MIN_SIZE;

use super::RuleContext;

/// Names the single-property read accepts for labels and sticky notes
/// (besides position, size, scale, angle).
pub const READABLE: &[(&str, &str)] = &[
    ("text", "text"),
    ("fontSize", "fontSize"),
    ("fontFamily", "fontFamily"),
    ("textColor", "textColor"),
    ("backgroundColor", "backgroundColor"),
    ("horizontalTextAlignment", "horizontalTextAlignment"),
    ("verticalTextAlignment", "verticalTextAlignment"),
];

/// The auto-size rules of the spec:
/// 1. `isAutoSizeWidth` true: `size.width` must be 0 or omitted.
/// 2. `isAutoSizeHeight` true: `size.height` must be 0 or omitted.
/// 3. Auto-size off for a dimension: that size must be >= [`MIN_SIZE`].
///
/// A stored auto-sized dimension is 0 ("fitted to the text"); turning
/// auto-size on in an update resets it to 0.
pub fn apply_auto_size(ctx: &mut RuleContext<'_>) {
    let sent_size = ctx.sent("size");
    // The size as sent may lack a dimension (an auto-sized one "must be 0 or omitted"); an update
    // keeps the stored value of a dimension it does not send.
    let sent: Map<String, Value> = match ctx.props.get("size") {
        Some(Value::Object(size)) if sent_size => size.clone(),
        _ => Map::new(),
    };
    let previous = ctx.previous().and_then(|p| p.get("size")).cloned();
    let mut size = Map::new();
    for (flag, dimension) in [("isAutoSizeWidth", "width"), ("isAutoSizeHeight", "height")] {
        let auto = ctx.props.get(flag).and_then(Value::as_bool).unwrap_or(false);
        let field = format!("size.{dimension}");
        let sent_value = sent.get(dimension).cloned();
        let kept =
            if sent_size { previous.as_ref() } else { ctx.props.get("size") }.and_then(|s| s.get(dimension)).cloned();
        let value = sent_value.clone().or(kept).unwrap_or(Value::from(0));
        let number = value.as_f64().unwrap_or(0.0);
        if auto {
            if sent_value.is_some() && number != 0.0 {
                ctx.violation(&field, format!("must be 0 or omitted when {flag} is true"));
            }
            size.insert(dimension.to_owned(), Value::from(0));
        } else {
            if number < MIN_SIZE {
                let rule = if sent_value.is_some() || ctx.is_create() {
                    format!("must be >= {MIN_SIZE} when {flag} is false")
                } else {
                    format!("must be sent (>= {MIN_SIZE}) when {flag} is set to false")
                };
                ctx.violation(&field, rule);
            }
            size.insert(dimension.to_owned(), value);
        }
    }
    ctx.props.insert("size".to_owned(), Value::Object(size));
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Map, Value};

    use crate::{validate_create, validate_update, ItemFacts, ItemType};
    use canvas_domain::Invalid;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    fn create(item_type: ItemType, body: Value) -> Result<Map<String, Value>, Vec<(String, String)>> {
        validate_create(item_type, object(body), ItemFacts::default()).map_err(fields)
    }

    fn update(
        item_type: ItemType,
        stored: &Map<String, Value>,
        patch: Value,
    ) -> Result<Map<String, Value>, Vec<(String, String)>> {
        validate_update(item_type, stored, object(patch), ItemFacts::default()).map_err(fields)
    }

    fn fields(Invalid(violations): Invalid) -> Vec<(String, String)> {
        violations.into_iter().map(|v| (v.field, v.description)).collect()
    }

    #[test]
    fn an_auto_sized_dimension_may_be_omitted() {
        let label =
            create(ItemType::Label, json!({"text": "t", "isAutoSizeHeight": false, "size": {"height": 40}})).unwrap();
        assert_eq!(label["size"], json!({"width": 0, "height": 40}));
        let label =
            create(ItemType::Label, json!({"text": "t", "isAutoSizeWidth": false, "size": {"width": 12.5}})).unwrap();
        assert_eq!(label["size"], json!({"width": 12.5, "height": 0}));
        let label = create(ItemType::Label, json!({"text": "t", "size": {}})).unwrap();
        assert_eq!(label["size"], json!({"width": 0, "height": 0}));
    }

    #[test]
    fn a_fixed_dimension_still_needs_a_size() {
        let errors = create(ItemType::Label, json!({"text": "t", "isAutoSizeHeight": false})).unwrap_err();
        assert_eq!(errors, [("size.height".to_owned(), "must be >= 5 when isAutoSizeHeight is false".to_owned())]);
        let errors = create(ItemType::Label, json!({"text": "t", "size": {"width": 10}})).unwrap_err();
        assert_eq!(errors[0].0, "size.width");
        assert!(errors[0].1.contains("0 or omitted"));
        let errors = create(ItemType::StickyNote, json!({"text": "t", "size": {"width": 3}})).unwrap_err();
        assert_eq!(errors[0].0, "size.width");
    }

    #[test]
    fn an_update_keeps_the_dimension_it_does_not_send() {
        let note = create(ItemType::StickyNote, json!({"text": "t"})).unwrap();
        let moved = update(ItemType::StickyNote, &note, json!({"size": {"width": 300}})).unwrap();
        assert_eq!(moved["size"], json!({"width": 300, "height": 106}));
        let label =
            create(ItemType::Label, json!({"text": "t", "isAutoSizeHeight": false, "size": {"height": 40}})).unwrap();
        let taller = update(ItemType::Label, &label, json!({"size": {"height": 60}})).unwrap();
        assert_eq!(taller["size"], json!({"width": 0, "height": 60}));
        let errors = update(ItemType::Label, &label, json!({"isAutoSizeWidth": false})).unwrap_err();
        assert_eq!(
            errors,
            [("size.width".to_owned(), "must be sent (>= 5) when isAutoSizeWidth is set to false".to_owned())]
        );
        let auto_again = update(ItemType::Label, &taller, json!({"isAutoSizeHeight": true})).unwrap();
        assert_eq!(auto_again["size"], json!({"width": 0, "height": 0}));
    }
}
