//! The texts of a class diagram's items turned back into Mermaid: lines the layout wrapped joined
//! again, and each shown text written so that the parser shows it the same way.
//!
//! The parser reworks what it reads (`~T~` becomes `<T>`, a member line becomes
//! `vis name(params) : type`, entity codes are decoded, markup defused), so every text is
//! written by trying the spellings that could give it back and keeping the first one the
//! parser's own functions ([`generics`], [`member`]) turn into exactly the text shown. When none
//! does (a text people typed that no source could produce), the last, escaped spelling is kept:
//! it parses, and shows the same words.

use crate::class::generics;
use crate::class::members::member;
use crate::class::Classifier;
use crate::source::is_id_char;
use crate::text;

/// Characters written as `#code;` in every text: those that start an entity code, a tag or a
/// generic. The parser decodes the codes after it has read the statement.
const ALWAYS: &[char] = &['#', '&', '<', '>', '~', '"', '`', '\\'];

/// `text` with `extra` characters, those of [`ALWAYS`] but `kept`, and line breaks written as
/// Mermaid's numeric entity codes.
fn escape_keeping(text: &str, extra: &[char], kept: &[char]) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if !kept.contains(&c) && (c == '\n' || ALWAYS.contains(&c) || extra.contains(&c)) {
            out.push_str(&format!("#{};", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` with `extra` characters, those of [`ALWAYS`] and line breaks as entity codes.
pub fn escape(text: &str, extra: &[char]) -> String {
    escape_keeping(text, extra, &[])
}

/// A text for a place that reads `<br>` as a line break (notes, relation labels, cardinalities):
/// escaped, its lines joined with `<br>`.
pub fn with_breaks(text: &str) -> String {
    text.split('\n').map(|line| escape(line, &[])).collect::<Vec<_>>().join("<br>")
}

/// The logical lines of a label the layout wrapped at `width` for `font`: consecutive lines are
/// joined (with a space, or nothing where a long word was cut) when wrapping the joined text gives
/// exactly those lines back, and `joinable` agrees.
pub fn unwrap(lines: &[&str], font: f64, width: f64, joinable: impl Fn(&str, &str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut current = lines[i].to_owned();
        let mut j = i + 1;
        'grow: while j < lines.len() {
            if !joinable(&current, lines[j]) {
                break;
            }
            let drawn = lines[i..=j].join("\n");
            // A line without a space that fills the width is a long word cut by characters.
            let joiners = if lines[j - 1].contains(' ') { [" ", ""] } else { ["", " "] };
            for joiner in joiners {
                let candidate = format!("{current}{joiner}{}", lines[j]);
                if text::block(&candidate, font, width).text == drawn {
                    current = candidate;
                    j += 1;
                    continue 'grow;
                }
            }
            break;
        }
        out.push(current);
        i = j;
    }
    out
}

/// The spellings of a shown text to try, `extra` characters escaped in each: generics back as
/// `~T~`, then the brackets kept as codes, then as the `‹›` the parser uses for brackets that
/// would read as a tag.
fn spellings(shown: &str, extra: &[char]) -> Vec<String> {
    let tilde: String = shown.chars().map(|c| if matches!(c, '<' | '>' | '‹' | '›') { '~' } else { c }).collect();
    let angled: String = shown
        .chars()
        .map(|c| match c {
            '<' => '‹',
            '>' => '›',
            c => c,
        })
        .collect();
    // HTML's own codes: a text the parser read as HTML shows `<` only when written `&lt;`.
    let html =
        escape_keeping(&shown.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;"), extra, &['&', ';']);
    let mut out = vec![escape_keeping(&tilde, extra, &['~']), escape(shown, extra), html, escape(&angled, extra)];
    out.dedup();
    out
}

/// A member line as Mermaid member syntax: `+foo(int a) : List<T>` becomes `+foo(int a) List~T~`.
pub fn member_source(shown: &str) -> String {
    let (visibility, rest) = match shown.chars().next() {
        Some(v @ ('+' | '-' | '#' | '~')) => (v.to_string(), &shown[1..]),
        _ => (String::new(), shown),
    };
    // Markers the parser would take for static or abstract are written as codes.
    let extra = ['$', '*'];
    let shapes: Vec<String> = match (rest.find('('), rest.rfind(')')) {
        (Some(open), Some(close)) if open < close => {
            let after = rest[close + 1..].trim();
            let returns = after.strip_prefix(':').unwrap_or(after).trim();
            let (name, params) = (&rest[..open], &rest[open + 1..close]);
            let names = spellings(name, &extra);
            let params = spellings(params, &extra);
            let returns = spellings(returns, &extra);
            (0..names.len().max(params.len()).max(returns.len()))
                .map(|k| {
                    let pick = |v: &Vec<String>| v[k.min(v.len() - 1)].clone();
                    let returns = pick(&returns);
                    let returns = if returns.is_empty() { String::new() } else { format!(" {returns}") };
                    format!("{visibility}{}({}){returns}", pick(&names), pick(&params))
                })
                .collect()
        }
        _ => spellings(rest, &extra).into_iter().map(|s| format!("{visibility}{s}")).collect(),
    };
    let reads_back = |raw: &str| {
        let read = member(raw);
        read.text == shown && read.classifier == Classifier::None
    };
    let fallback = shapes.last().cloned().unwrap_or_default();
    let mut chosen = shapes.into_iter().find(|raw| reads_back(raw)).unwrap_or(fallback);
    // `<<…>>` alone would be read as an annotation.
    if chosen.starts_with("<<") && chosen.ends_with(">>") {
        chosen = escape(&chosen, &[]);
    }
    chosen
}

/// How a class's name is written after its id: the generic (`~T~`, without the tildes) and the
/// label (`["…"]`, its raw text), each only when the id alone would not show `shown`.
pub fn name_parts(id: &str, shown: &str) -> (Option<String>, Option<String>) {
    if generics(id) == shown {
        return (None, None);
    }
    let generic = trailing_generic(shown);
    if let Some((base, generic)) = &generic {
        if generics(&format!("{id}~{generic}~")) == shown {
            return (Some(generic.clone()), None);
        }
        for label in spellings(base, &[]).into_iter().rev() {
            if generics(&format!("{label}~{generic}~")) == shown {
                return (Some(generic.clone()), Some(label));
            }
        }
    }
    let labels = spellings(shown, &[]);
    let fallback = labels.get(1).cloned().unwrap_or_default();
    let label = labels.into_iter().rev().find(|label| generics(label) == shown).unwrap_or(fallback);
    (None, Some(label))
}

/// A name ending in one generic, `Base<T>` or `Base‹T›`: the base and the generic as Mermaid
/// writes it (inner brackets as `~`). None when the generic could not be written after an id.
fn trailing_generic(shown: &str) -> Option<(String, String)> {
    let close = shown.chars().last().filter(|c| matches!(c, '>' | '›'))?;
    let open_char = if close == '>' { '<' } else { '‹' };
    let open = shown.find(open_char)?;
    let base = &shown[..open];
    let inner = &shown[open + open_char.len_utf8()..shown.len() - close.len_utf8()];
    let plain = !inner.is_empty() && inner.chars().all(|c| is_id_char(c) || matches!(c, ' ' | ',' | '.' | '[' | ']'));
    (plain && !base.is_empty()).then(|| (base.to_owned(), inner.to_owned()))
}

/// A name the class parser reads as written, without back-quotes: letters, digits and `_`,
/// with single `-` or `.` between them.
pub fn is_plain_name(name: &str) -> bool {
    let chars: Vec<char> = name.chars().collect();
    !chars.is_empty()
        && chars.iter().enumerate().all(|(i, &c)| {
            is_id_char(c) || (matches!(c, '-' | '.') && i > 0 && chars.get(i + 1).is_some_and(|&n| is_id_char(n)))
        })
}

/// Words that start a statement when a line begins with them (and a space follows).
const STATEMENTS: &[&str] =
    &["class", "namespace", "note", "classDef", "style", "cssClass", "click", "link", "callback", "direction", "title"];

/// A class name as written at the start of a line or after a relation: plain when the parser
/// reads it so and no statement starts with it, else in back-quotes. None when even back-quotes
/// cannot hold it (a back-quote or a line break in it, or nothing but spaces).
pub fn name_token(name: &str) -> Option<String> {
    let statement = STATEMENTS.contains(&name) || name.starts_with("accTitle") || name.starts_with("accDescr");
    if is_plain_name(name) && !statement {
        return Some(name.to_owned());
    }
    let quotable = !name.trim().is_empty() && !name.contains(['`', '\n', '\r']) && name.chars().count() <= 64;
    quotable.then(|| format!("`{name}`"))
}

/// The name token of a lollipop interface showing `shown`: its text as a (back-quoted) name whose
/// generics give the text back.
pub fn interface_token(shown: &str) -> String {
    if generics(shown) == shown {
        if let Some(token) = name_token(shown) {
            return token;
        }
    }
    let spelled = spellings(shown, &[]);
    let fallback = spelled.get(1).cloned().unwrap_or_default();
    let raw = spelled.into_iter().find(|raw| generics(raw) == shown).unwrap_or(fallback);
    format!("`{raw}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_lines_come_back_in_member_syntax() {
        for shown in [
            "+foo(int a) : bool",
            "-int id",
            "test(List<int> ids) : List<bool>",
            "#bar()",
            "~pkg()",
            "+int* ptr",
            "a < b",
            "x$ y*",
            "Map‹K›",
        ] {
            let raw = member_source(shown);
            assert_eq!(member(&raw).text, shown, "{shown} written {raw}");
        }
        assert_eq!(member_source("test(List<int> ids) : List<bool>"), "test(List~int~ ids) List~bool~");
        // No source shows `<<…>>` as a member (it is an annotation): typed into a compartment, it
        // stays a member.
        assert!(!member_source("<<weird>>").starts_with("<<"));
    }

    #[test]
    fn names_keep_their_generic_and_get_a_label_when_they_differ() {
        assert_eq!(name_parts("A", "A"), (None, None));
        assert_eq!(name_parts("A", "A<T>"), (Some("T".into()), None));
        assert_eq!(name_parts("Box", "Box‹B›"), (Some("B".into()), None));
        let (generic, label) = name_parts("A", "Renamed<T>");
        assert_eq!((generic.as_deref(), label.as_deref()), (Some("T"), Some("Renamed")));
        let (_, label) = name_parts("C12", "With >!@#$%^&*()_+=-/?");
        assert_eq!(generics(&label.unwrap()), "With >!@#$%^&*()_+=-/?");
    }

    #[test]
    fn names_are_plain_or_back_quoted() {
        assert_eq!(name_token("Foo.Bar-2").as_deref(), Some("Foo.Bar-2"));
        assert_eq!(name_token("a--b").as_deref(), Some("`a--b`"));
        assert_eq!(name_token("note").as_deref(), Some("`note`"));
        assert_eq!(name_token("has`quote"), None);
        assert_eq!(interface_token("bar"), "bar");
        assert_eq!(generics(interface_token("I<T>").trim_matches('`')), "I<T>");
    }

    #[test]
    fn wrapped_lines_are_joined_again() {
        let long = "+someRatherLongMethodName(int first, String second, Map<K, V> third) : bool";
        let drawn = text::block(long, text::SMALL_FONT_SIZE, 280.0).text;
        assert!(drawn.contains('\n'), "the layout wraps it");
        let lines: Vec<&str> = drawn.split('\n').collect();
        assert_eq!(unwrap(&lines, text::SMALL_FONT_SIZE, 280.0, |_, _| true), vec![long.to_owned()]);
        assert_eq!(unwrap(&["a", "b"], text::SMALL_FONT_SIZE, 280.0, |_, _| true), vec!["a", "b"]);
    }
}
