//! How a class diagram's texts are shown: Mermaid's `~T~` generics as `<T>` (also read by the
//! ER parser), a member line as `vis name(params) : type`, and names kept readable when the HTML
//! rule would take `<T>` for a tag. Apart from the parser, which only reads statements.

use super::{Classifier, Member};
use crate::source::is_id_char;
use crate::text;

/// Mermaid's `~T~` generics as `<T>` (nested ones too: a `~` before a name opens, any other closes).
pub fn generics(raw: &str) -> String {
    let chars: Vec<char> = raw.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c != '~' {
            out.push(c);
            continue;
        }
        let opens = i > 0 && chars.get(i + 1).is_some_and(|&n| is_id_char(n) || n == '`') && chars[i - 1] != ' ';
        out.push(if opens { '<' } else { '>' });
    }
    shown(&out)
}

/// A text as a label shows it: cleaned, and `<T>` kept readable when the HTML rule would take it
/// for a tag (`Box<B>`): then the brackets become `‹›`.
fn shown(raw: &str) -> String {
    let mut text = raw.to_owned();
    if canvas_html::classify(&text) == canvas_html::Kind::Html {
        text = text.replace('<', "‹").replace('>', "›");
    }
    text::clean(&text)
}

/// A member line as Mermaid shows it: methods (with `)`) as `vis name(params) : type`.
pub(super) fn member(raw: &str) -> Member {
    let raw = raw.trim();
    let (visibility, rest) = match raw.chars().next() {
        Some(v @ ('+' | '-' | '#' | '~')) => (v.to_string(), &raw[1..]),
        _ => (String::new(), raw),
    };
    let classify = |c: Option<char>| match c {
        Some('$') => Classifier::Static,
        Some('*') => Classifier::Abstract,
        _ => Classifier::None,
    };
    match (rest.find('('), rest.rfind(')')) {
        (Some(open), Some(close)) if open < close => {
            let (name, params) = (&rest[..open], &rest[open + 1..close]);
            let mut after = rest[close + 1..].trim();
            let mut classifier = classify(after.chars().next());
            if classifier != Classifier::None {
                after = after[1..].trim();
            } else if let Some(last) = after.chars().last().filter(|c| matches!(c, '$' | '*')) {
                classifier = classify(Some(last));
                after = after[..after.len() - 1].trim();
            }
            let returns = if after.is_empty() { String::new() } else { format!(" : {after}") };
            let text = format!("{visibility}{}({}){returns}", name.trim(), params.trim());
            Member { text: generics_after(&visibility, &text), classifier }
        }
        _ => {
            let classifier = classify(rest.chars().last());
            let name = if classifier == Classifier::None { rest } else { &rest[..rest.len() - 1] };
            let text = format!("{visibility}{}", name.trim());
            Member { text: generics_after(&visibility, &text), classifier }
        }
    }
}

/// Generics of a member's text, its visibility mark (`~` for package) left as it is.
fn generics_after(visibility: &str, text: &str) -> String {
    format!("{visibility}{}", generics(&text[visibility.len()..]))
}
