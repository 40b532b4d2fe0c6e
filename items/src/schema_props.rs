//! Property tests of the schema's parsers: colours (hex and CSS), property-name folding and an
//! item's tag ids. They read client input, so no input may panic, and each accepts exactly what its
//! rule says.

use proptest::prelude::*;
use serde_json::Value;

use super::schema::{fold_name, is_hex_color, lookup, parse_value, Kind};
use canvas_vocabulary::items::LABEL;

/// Runs one value through the engine: the stored value, or the violations.
fn parse(kind: Kind, value: &str) -> Result<Value, Vec<String>> {
    let mut errors = Vec::new();
    let parsed = parse_value(kind, "color", &Value::String(value.to_owned()), &mut errors);
    match parsed {
        Some(stored) if errors.is_empty() => Ok(stored),
        _ => Err(errors.into_iter().map(|e| format!("{}: {}", e.field, e.description)).collect()),
    }
}

/// The hex rule written independently: `#` and 3, 6 or 8 hex digits.
fn hex_oracle(text: &str) -> bool {
    let digits = text.strip_prefix('#').unwrap_or("-");
    [3, 6, 8].contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_hexdigit())
}

/// CSS colours in the forms clients send.
fn css_color() -> impl Strategy<Value = String> {
    prop_oneof![
        "#[0-9a-fA-F]{6}",
        "#[0-9a-fA-F]{3}",
        (0u8..=255, 0u8..=255, 0u8..=255).prop_map(|(r, g, b)| format!("rgb({r}, {g}, {b})")),
        (0u16..360, 0u8..=100, 0u8..=100).prop_map(|(h, s, l)| format!("hsl({h}, {s}%, {l}%)")),
        prop::sample::select(vec!["red", "DodgerBlue", "rebeccapurple", "transparent", "WHITE"])
            .prop_map(str::to_owned),
    ]
}

/// The words of a property name, lower-case ASCII.
fn words() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec("[a-z][a-z0-9]{0,6}", 1..4)
}

fn capitalised(word: &str) -> String {
    word[..1].to_ascii_uppercase() + &word[1..]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn hex_colors_are_exactly_the_hex_forms(text in prop_oneof![any::<String>(), "#[0-9a-fA-FgG]{0,9}"]) {
        prop_assert_eq!(is_hex_color(&text), hex_oracle(&text), "{:?}", text);
        match parse(Kind::HexColor, &text) {
            Ok(stored) => {
                prop_assert!(hex_oracle(text.trim()));
                prop_assert_eq!(stored, Value::String(text.trim().to_owned()));
            }
            Err(errors) => {
                prop_assert!(!hex_oracle(text.trim()));
                prop_assert_eq!(errors.len(), 1);
                prop_assert!(errors[0].starts_with("color: must be a hex color"), "{:?}", errors);
            }
        }
    }

    #[test]
    fn css_colors_are_accepted_and_stored_trimmed(color in css_color(), pad in "[ \t]{0,2}") {
        let sent = format!("{pad}{color}{pad}");
        prop_assert_eq!(parse(Kind::CssColor, &sent), Ok(Value::String(color.clone())));
    }

    #[test]
    fn any_text_as_a_css_color_gives_a_value_or_one_violation(text in any::<String>()) {
        match parse(Kind::CssColor, &text) {
            Ok(stored) => prop_assert_eq!(stored, Value::String(text.trim().to_owned())),
            Err(errors) => {
                prop_assert_eq!(errors.len(), 1);
                prop_assert!(errors[0].starts_with("color: must be a CSS color"), "{:?}", errors);
            }
        }
    }

    #[test]
    fn folding_is_idempotent_and_never_panics(name in any::<String>()) {
        let folded = fold_name(&name);
        prop_assert_eq!(fold_name(&folded), folded.clone());
        prop_assert!(!folded.contains(['_', '-']));
        let _ = lookup(LABEL, &name);
    }

    #[test]
    fn every_casing_of_a_name_folds_alike(words in words()) {
        let camel = words[0].clone() + &words[1..].iter().map(|w| capitalised(w)).collect::<String>();
        let pascal: String = words.iter().map(|w| capitalised(w)).collect();
        let snake = words.join("_");
        let kebab = words.join("-");
        let upper = snake.to_ascii_uppercase();
        let folded = fold_name(&camel);
        for variant in [&pascal, &snake, &kebab, &upper] {
            prop_assert_eq!(fold_name(variant), folded.clone(), "{} vs {}", variant, camel);
        }
    }

    #[test]
    fn every_casing_of_a_label_property_finds_it(index in 0..LABEL.len(), upper in any::<bool>(), sep in "[_-]?") {
        let def = &LABEL[index];
        // fontSize -> font_size / FONT-SIZE …: a separator before each capital, then the case changed.
        let mut spelled = String::new();
        for c in def.name.chars() {
            if c.is_ascii_uppercase() {
                spelled.push_str(&sep);
            }
            spelled.push(c);
        }
        let spelled = if upper { spelled.to_ascii_uppercase() } else { spelled.to_ascii_lowercase() };
        prop_assert_eq!(lookup(LABEL, &spelled).map(|d| d.name), Some(def.name));
    }
}

#[test]
fn the_documented_spellings_fold_alike() {
    let names = ["fontSize", "FontSize", "font_size", "font-size", "FONT_SIZE"];
    assert!(names.iter().all(|n| fold_name(n) == "fontsize"), "{:?}", names.map(fold_name));
}

/// An item's `tags` through the engine: the stored list, or the violations' fields.
fn parse_tags(value: &Value) -> Result<Value, Vec<String>> {
    let mut errors = Vec::new();
    match parse_value(Kind::TagIds, "tags", value, &mut errors) {
        Some(stored) if errors.is_empty() => Ok(stored),
        _ => Err(errors.into_iter().map(|e| e.field).collect()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Any list of GUIDs is stored hyphenated in lower case, in the order sent, exactly when it
    /// holds at most `MAX_PER_ITEM` ids and none twice (in any spelling); a repeat is named at
    /// its place.
    #[test]
    fn tag_ids_are_kept_in_one_spelling_when_few_and_distinct(
        raw in prop::collection::vec(any::<u128>(), 0..24),
        repeat in any::<bool>(),
        upper in any::<bool>(),
        braces in any::<bool>(),
    ) {
        let mut ids: Vec<uuid::Uuid> = raw.iter().map(|n| uuid::Uuid::from_u128(*n % 40)).collect();
        if repeat && !ids.is_empty() {
            ids.push(ids[0]);
        }
        let spell = |id: &uuid::Uuid| {
            let text = if braces { id.braced().to_string() } else { id.hyphenated().to_string() };
            if upper { text.to_uppercase() } else { text }
        };
        let sent = Value::Array(ids.iter().map(|id| Value::String(spell(id))).collect());
        let mut distinct = ids.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let max = canvas_vocabulary::limits::tags::MAX_PER_ITEM;
        match parse_tags(&sent) {
            Ok(stored) => {
                prop_assert!(ids.len() <= max && distinct.len() == ids.len(), "{sent} accepted");
                let want: Vec<Value> = ids.iter().map(|id| Value::String(id.hyphenated().to_string())).collect();
                prop_assert_eq!(stored, Value::Array(want));
            }
            Err(fields) if ids.len() > max => prop_assert_eq!(fields, vec!["tags".to_owned()]),
            Err(fields) => {
                let first_repeat = (0..ids.len()).find(|&i| ids[..i].contains(&ids[i]));
                prop_assert_eq!(fields.first().cloned(), first_repeat.map(|i| format!("tags[{i}]")), "{}", sent);
            }
        }
    }

    /// Anything that is not a list of GUID strings is refused, naming `tags` or the element, and
    /// never panics.
    #[test]
    fn other_tag_values_are_refused_by_field(text in "\\PC{0,40}", n in any::<i64>(), at in 0usize..3) {
        for value in [Value::String(text.clone()), serde_json::json!(n), serde_json::json!({"id": text.clone()})] {
            prop_assert_eq!(parse_tags(&value), Err(vec!["tags".to_owned()]));
        }
        if uuid::Uuid::parse_str(text.trim()).is_err() {
            let mut list: Vec<Value> =
                (0..at).map(|i| Value::String(uuid::Uuid::from_u128(i as u128 + 1).to_string())).collect();
            list.push(Value::String(text.clone()));
            let refused = parse_tags(&Value::Array(list));
            prop_assert_eq!(refused, Err(vec![format!("tags[{at}]")]));
        }
    }
}
