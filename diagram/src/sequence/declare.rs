//! Declarations: `participant`/`actor` with `@{ … }` metadata and `as` aliases, `box` data
//! (colour and title), notes, and the colours Mermaid writes as CSS.

use super::{NotePlace, ParticipantKind, SeqEvent};
use crate::error::DiagramError;
use crate::source::Cursor;
use crate::text;

use super::arrows::message_text;
use super::Parser;

/// How much of a Mermaid fill the dark map shows: Mermaid's colours are made for white pages,
/// so a `rect` or `box` colour is laid over the map as a tint, and white text stays readable.
const TINT: f32 = 0.3;

/// A CSS colour (`rgb(…)`, `rgba(…)`, `hsl(…)`, a name, `#hex`) as the `#AARRGGBB` tint the map
/// draws; None for `transparent` and for what is not a colour.
pub fn tint(css: &str) -> Option<String> {
    let color = csscolorparser::parse(css.trim()).ok()?;
    let [r, g, b, a] = color.to_rgba8();
    if a == 0 {
        return None;
    }
    let alpha = (f32::from(a) * TINT).round() as u8;
    Some(format!("#{alpha:02X}{r:02X}{g:02X}{b:02X}"))
}

/// `box` data as Mermaid reads it: a leading colour (`rgb(…)`, `rgba(…)`, `hsl(…)`, `hsla(…)` or
/// one word that is a CSS colour), then the title; without a colour all of it is the title.
pub fn box_data(raw: &str) -> (Option<String>, String) {
    let raw = raw.trim();
    let lower = raw.to_ascii_lowercase();
    let functional = ["rgba", "rgb", "hsla", "hsl"].iter().any(|f| lower.starts_with(f)) && raw.contains(')');
    let split = if functional {
        raw.rfind(')').map_or(raw.len(), |i| i + 1)
    } else {
        raw.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(raw.len())
    };
    let (head, title) = raw.split_at(split);
    if !head.is_empty() && csscolorparser::parse(head).is_ok() {
        (tint(head), text::clean(title))
    } else {
        (None, text::clean(raw))
    }
}

/// The participant kinds `@{ "type": … }` names.
fn kind_named(name: &str) -> Option<ParticipantKind> {
    Some(match name.to_ascii_lowercase().as_str() {
        "participant" => ParticipantKind::Participant,
        "actor" => ParticipantKind::Actor,
        "boundary" => ParticipantKind::Boundary,
        "control" => ParticipantKind::Control,
        "entity" => ParticipantKind::Entity,
        "database" => ParticipantKind::Database,
        "collections" => ParticipantKind::Collections,
        "queue" => ParticipantKind::Queue,
        _ => return None,
    })
}

/// `"type": "database", "alias": "Users"` (JSON or YAML flow style, braces gone): type and alias.
fn metadata(body: &str) -> (Option<ParticipantKind>, Option<String>) {
    let unquote = |s: &str| s.trim().trim_matches(|c| c == '"' || c == '\'').trim().to_owned();
    let (mut kind, mut alias) = (None, None);
    for pair in body.split(',') {
        let Some((key, value)) = pair.split_once(':') else { continue };
        match unquote(key).as_str() {
            "type" => kind = kind_named(&unquote(value)),
            "alias" => alias = Some(text::nonempty(text::clean(&unquote(value)))),
            _ => {}
        }
    }
    (kind, alias)
}

/// Where ` as ` follows the first word of `rest` (Mermaid reads an alias only after a name
/// without spaces): the name and the alias text.
fn split_alias(rest: &str) -> Option<(&str, &str)> {
    let name_end = rest.find(char::is_whitespace)?;
    let after = rest[name_end..].trim_start();
    let word = after.get(..2)?;
    let tail = &after[2..];
    (word.eq_ignore_ascii_case("as") && tail.starts_with(char::is_whitespace)).then(|| (&rest[..name_end], tail))
}

impl Parser {
    /// `participant Name`, `actor Name as Label`, `participant Name@{ "type": "queue" } as Label`.
    pub(super) fn declare(&mut self, cur: &mut Cursor, keyword: &str, created: bool) -> Result<usize, DiagramError> {
        cur.skip_ws();
        let col = cur.col();
        let rest = cur.rest();
        let rest = rest.trim_end();
        let mut kind =
            if keyword.eq_ignore_ascii_case("actor") { ParticipantKind::Actor } else { ParticipantKind::Participant };
        let (name, mut label) = if let Some(at) = rest.find("@{") {
            let Some(close) = rest[at..].find('}').map(|i| at + i) else {
                let open = col + rest[..at].chars().count();
                return Err(cur.error_at(open, "unterminated `@{`: expected `}` on the same line"));
            };
            let (declared, alias) = metadata(&rest[at + 2..close]);
            kind = declared.unwrap_or(kind);
            let after = rest[close + 1..].trim();
            let label = match split_alias(&format!("x {after}")) {
                Some((_, alias_text)) => Some(alias_text.to_owned()),
                None if after.is_empty() => None,
                None => {
                    let at = col + rest.chars().count() - after.chars().count();
                    return Err(cur.error_at(at, format!("unexpected '{after}' after the participant: expected `as`")));
                }
            };
            (rest[..at].trim().to_owned(), label.map(|l| text::nonempty(message_text(&l))).or(alias))
        } else {
            match split_alias(rest) {
                Some((name, alias)) => (name.to_owned(), Some(text::nonempty(message_text(alias)))),
                None => (rest.trim().to_owned(), None),
            }
        };
        if name.is_empty() {
            return Err(cur.error_at(col, format!("expected a name after `{keyword}`")));
        }
        if let Some(bad) = name.chars().position(|c| matches!(c, '<' | '>' | ':' | ',' | '@')) {
            let c = name.chars().nth(bad).unwrap_or(':');
            return Err(cur.error_at(col + bad, format!("a participant's name cannot hold '{c}'")));
        }
        if label.as_deref().is_some_and(str::is_empty) {
            label = None;
        }
        let index = self.participant(&name, label, Some(kind));
        if created {
            self.sequence.participants[index].created = true;
            self.sequence.events.push(SeqEvent::Create(index));
        }
        if let Some(group) = self.open_group() {
            if !self.sequence.groups.iter().any(|g| g.members.contains(&index)) {
                self.sequence.groups[group].members.push(index);
            }
        }
        cur.take_rest();
        Ok(index)
    }

    /// `Note left of A: text`, `Note right of A: text`, `Note over A[,B]: text`.
    pub(super) fn note(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        cur.skip_ws();
        let col = cur.col();
        let rest = cur.rest();
        let Some((place, body)) = rest.split_once(':') else {
            return Err(cur.error_at(col + rest.trim_end().chars().count(), "expected ':' and the note's text"));
        };
        let words: Vec<&str> = place.split_whitespace().collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
        let targets = match lower.first().map(String::as_str) {
            Some("left" | "right") if lower.get(1).map(String::as_str) == Some("of") => words[2..].join(" "),
            Some("over") => words[1..].join(" "),
            _ => return Err(cur.error_at(col, "expected `left of`, `right of` or `over` after `Note`")),
        };
        let names: Vec<&str> = targets.split(',').map(str::trim).collect();
        if names.iter().any(|n| n.is_empty()) || names.len() > 2 {
            return Err(cur.error_at(col, "expected one participant, or two separated by ','"));
        }
        let first = self.participant(names[0], None, None);
        let last = names.get(1).map_or(first, |n| self.participant(n, None, None));
        let place = match lower[0].as_str() {
            "left" => NotePlace::LeftOf(first),
            "right" => NotePlace::RightOf(first),
            _ => NotePlace::Over(first.min(last), first.max(last)),
        };
        self.sequence.events.push(SeqEvent::Note { place, text: text::nonempty(message_text(body)) });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_become_tints() {
        assert_eq!(tint("rgb(191, 223, 255)").as_deref(), Some("#4DBFDFFF"));
        assert_eq!(tint("Aqua").as_deref(), Some("#4D00FFFF"));
        assert_eq!(tint("rgba(0, 0, 255, 0.5)").as_deref(), Some("#260000FF"));
        assert_eq!(tint("transparent"), None);
        assert_eq!(tint("Group"), None);
    }

    #[test]
    fn box_data_is_a_colour_then_a_title() {
        assert_eq!(box_data("Aqua Group Description"), (tint("aqua"), "Group Description".into()));
        assert_eq!(box_data("Group without description"), (None, "Group without description".into()));
        assert_eq!(box_data("rgb(33,66,99)"), (tint("rgb(33,66,99)"), String::new()));
        assert_eq!(box_data("rgba(33,66,99,0.5) Team"), (tint("rgba(33,66,99,0.5)"), "Team".into()));
        assert_eq!(box_data("transparent Aqua"), (None, "Aqua".into()));
    }

    #[test]
    fn metadata_reads_type_and_alias() {
        assert_eq!(metadata(r#" "type" : "database" "#), (Some(ParticipantKind::Database), None));
        assert_eq!(metadata(r#"type: queue, alias: "Jobs""#), (Some(ParticipantKind::Queue), Some("Jobs".into())));
        assert_eq!(metadata(r#""type": "unknown""#), (None, None));
        assert_eq!(split_alias("A as Alice Smith"), Some(("A", " Alice Smith")));
        assert_eq!(split_alias("Cluster creator"), None);
        assert_eq!(split_alias("Alias"), None);
    }
}
