//! The pieces of an `erDiagram` written so that the crate's ER parser reads back exactly what the
//! map shows: entity names (bare or quoted), attribute words, quoted comments and titles, role
//! labels and cardinality marks. Each writer checks its own output against the parser's rules
//! (or the parser itself), so no text can end a string, open a block or start a statement.

use std::collections::HashSet;

use crate::class::generics;
use crate::er::Cardinality;
use crate::export::ids::{Grammar, Ids};
use crate::export::text::{mermaid, Place};
use crate::Diagram;

/// A text as a quoted ER string (title alias or attribute comment), without its quotes. Besides
/// the shared escapes, `{` and `}` are written as codes: the attribute block ends at the first
/// `}` of its line, even inside a comment.
pub(super) fn quoted_body(text: &str) -> String {
    mermaid(text, Place::Quoted, false).replace('{', "#123;").replace('}', "#125;")
}

/// The role after `:`. Plain words stay bare (`places`); anything else is quoted and escaped;
/// an empty role is `""` (Mermaid requires a label).
pub(super) fn role(text: &str) -> String {
    let plain = !text.is_empty()
        && text.starts_with(|c: char| c.is_alphanumeric())
        && text.ends_with(|c: char| c.is_alphanumeric())
        && text.chars().all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '-' | '.'))
        && !text.contains("  ");
    if plain {
        text.to_owned()
    } else {
        format!("\"{}\"", quoted_body(text))
    }
}

/// An attribute word (type or name) that reads back as `shown`, the text its cell shows. A word
/// holds no white space (runs of it become `_`); a generic shown as `<T>` or `‹T›` is written
/// Mermaid's way, `~T~`, when that reads back the same; characters the parser would stop at
/// (`"`, `}`), a leading `%%` (a comment line) and `#`, `&`, `<`, `>` that would be decoded are
/// written as codes. An empty cell is `_` (Mermaid needs both words).
pub(super) fn word(shown: &str) -> String {
    let target: String = shown.split_whitespace().collect::<Vec<_>>().join("_");
    if target.is_empty() {
        return "_".to_owned();
    }
    let as_generic: String = target.chars().map(|c| if matches!(c, '<' | '>' | '‹' | '›') { '~' } else { c }).collect();
    for candidate in [as_generic, target.clone()] {
        if word_is_safe(&candidate) && generics(&candidate) == target {
            return candidate;
        }
    }
    let mut escaped = String::new();
    for c in target.chars() {
        if c.is_alphanumeric() || matches!(c, '_' | '-' | '*' | '[' | ']' | '(' | ')' | '.' | ',') {
            escaped.push(c);
        } else {
            escaped.push_str(&format!("#{};", u32::from(c)));
        }
    }
    escaped
}

/// Whether the parser reads `word` as one attribute word: no white space, no quote or brace, and
/// not a comment line's `%%`.
fn word_is_safe(word: &str) -> bool {
    !word.is_empty()
        && !word.starts_with("%%")
        && !word.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '{' | '}'))
}

/// The mark of a cardinality on the first entity's side (`u` is only read there).
pub(super) fn left_mark(card: Cardinality) -> &'static str {
    match card {
        Cardinality::ZeroOrOne => "|o",
        Cardinality::ExactlyOne => "||",
        Cardinality::ZeroOrMore => "}o",
        Cardinality::OneOrMore => "}|",
        Cardinality::Parent => "u",
    }
}

/// The mark of a cardinality on the second entity's side; None for `parent`, which Mermaid only
/// takes on the first side.
pub(super) fn right_mark(card: Cardinality) -> Option<&'static str> {
    match card {
        Cardinality::ZeroOrOne => Some("o|"),
        Cardinality::ExactlyOne => Some("||"),
        Cardinality::ZeroOrMore => Some("o{"),
        Cardinality::OneOrMore => Some("|{"),
        Cardinality::Parent => None,
    }
}

/// Longest entity name kept as given or taken from a title.
const MAX_NAME_CHARS: usize = 64;

/// Entity names, unique: given names and titles when the parser reads them back as written
/// (bare, else quoted), generated ones (`e` and the item id's first characters) otherwise.
pub(super) struct Names {
    used: HashSet<String>,
    generated: Ids,
}

impl Names {
    pub fn new() -> Names {
        Names { used: HashSet::new(), generated: Ids::new(Grammar::Flowchart) }
    }

    /// Takes `name` (a Mermaid id) when it is free and can be written: (id, how it is written).
    pub fn take(&mut self, name: &str) -> Option<(String, String)> {
        if name.is_empty() || name.chars().count() > MAX_NAME_CHARS || self.used.contains(name) {
            return None;
        }
        let written = [name.to_owned(), format!("\"{name}\"")].into_iter().find(|w| reads_as_name(w, name))?;
        self.used.insert(name.to_owned());
        Some((name.to_owned(), written))
    }

    /// A new name for the item `item_id`, stable as long as the item lives.
    pub fn generate(&mut self, item_id: &str) -> (String, String) {
        loop {
            let id = self.generated.generate("e", item_id);
            if self.used.insert(id.clone()) {
                return (id.clone(), id);
            }
        }
    }
}

/// Whether `written` reads back as the entity `name` wherever an entity name is written: alone,
/// with an alias and on either side of a relationship (a name such as `direction`, `title`,
/// `accTitle1` or `style` would be read as a statement there).
fn reads_as_name(written: &str, name: &str) -> bool {
    if written.contains(['\n', '\r']) || written.trim() != written {
        return false;
    }
    let probe = format!("erDiagram\n{written}\n{written}[\"t\"]\n{written} ||--o{{ {written} : r\n");
    match crate::parse(&probe) {
        Ok(Diagram::Er(d)) => d.entities.len() == 1 && d.entities[0].id == name && d.relationships.len() == 1,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_back_as_their_cells() {
        assert_eq!(word("string"), "string");
        assert_eq!(word("string(99)"), "string(99)");
        assert_eq!(word("first name"), "first_name");
        assert_eq!(word(""), "_");
        assert_eq!(word("List<int>"), "List~int~");
        for hostile in ["a\"b", "}", "%%x", "x{y}", "a#35;b", "<b>x</b>", "\"", "‹T›"] {
            let written = word(hostile);
            assert!(word_is_safe(&written), "{hostile:?} -> {written:?}");
        }
        assert_eq!(generics(&word("a#35;b")), "a#35;b");
    }

    #[test]
    fn names_are_written_bare_quoted_or_generated() {
        let mut names = Names::new();
        assert_eq!(names.take("LINE-ITEM"), Some(("LINE-ITEM".into(), "LINE-ITEM".into())));
        assert_eq!(names.take("LINE-ITEM"), None, "taken");
        assert_eq!(names.take("This ❤ Unicode").map(|n| n.1), Some("\"This ❤ Unicode\"".into()));
        assert_eq!(names.take("direction").map(|n| n.1), Some("\"direction\"".into()));
        assert_eq!(names.take("a\"b"), None);
        assert_eq!(names.generate("0A1B2C3D-0000").0, "e0a1b2c");
    }

    #[test]
    fn roles_are_bare_only_when_plain() {
        assert_eq!(role("places"), "places");
        assert_eq!(role("liable for"), "liable for");
        assert_eq!(role(""), "\"\"");
        assert_eq!(role("a \"b\" {c}"), "\"a #quot;b#quot; #123;c#125;\"");
    }
}
