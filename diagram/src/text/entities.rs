//! Mermaid's entity codes: `#59;`, `#9829;` (decimal code points) and `#quot;`, `#infin;`
//! (HTML entity names), which Mermaid reads before any diagram grammar, so a `;` or `#` written as
//! a code never splits a statement or starts a comment.

/// Where the entity code starting at `chars[at]` (a `#`) ends: the index just past its `;`.
/// Mermaid's pattern is `#\w+;`.
pub fn code_end(chars: &[char], at: usize) -> Option<usize> {
    if chars.get(at) != Some(&'#') {
        return None;
    }
    let mut end = at + 1;
    while chars.get(end).is_some_and(|c| c.is_alphanumeric() || *c == '_') {
        end += 1;
    }
    (end > at + 1 && chars.get(end) == Some(&';')).then_some(end + 1)
}

/// The character an entity name (`quot`, `infin`, … between `#` or `&` and `;`) stands for: the
/// one table of names every diagram kind reads (`crate::text::decode_entities`).
pub(crate) fn named(body: &str) -> Option<char> {
    let named = match body {
        "quot" => '"',
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "apos" => '\'',
        "nbsp" => ' ',
        "semi" => ';',
        "colon" => ':',
        "num" => '#',
        "comma" => ',',
        "lpar" => '(',
        "rpar" => ')',
        "lsqb" | "lbrack" => '[',
        "rsqb" | "rbrack" => ']',
        "lcub" | "lbrace" => '{',
        "rcub" | "rbrace" => '}',
        "vert" | "verbar" => '|',
        "infin" => '∞',
        "hearts" => '♥',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "hellip" => '…',
        "mdash" => '—',
        "ndash" => '–',
        "larr" => '←',
        "rarr" => '→',
        "uarr" => '↑',
        "darr" => '↓',
        "harr" => '↔',
        "check" => '✓',
        "times" => '×',
        "deg" => '°',
        "plusmn" => '±',
        "middot" => '·',
        "bull" => '•',
        "euro" => '€',
        "pound" => '£',
        "laquo" => '«',
        "raquo" => '»',
        "divide" => '÷',
        "para" => '¶',
        "sect" => '§',
        "yen" => '¥',
        "ne" => '≠',
        "le" => '≤',
        "ge" => '≥',
        _ => return None,
    };
    Some(named)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::decode_entities as decode;

    #[test]
    fn numbers_and_names_become_characters() {
        assert_eq!(decode("I #9829; you #infin; times#59; more"), "I ♥ you ∞ times; more");
        assert_eq!(decode("say #quot;hi#quot;"), "say \"hi\"");
        assert_eq!(decode("#unknownname; #; # 12;"), "#unknownname; #; # 12;");
        assert_eq!(decode("#0;"), "#0;", "control characters stay written");
    }

    #[test]
    fn code_ends_are_found() {
        let chars: Vec<char> = "a#59;b".chars().collect();
        assert_eq!(code_end(&chars, 1), Some(5));
        assert_eq!(code_end(&chars, 0), None);
        let chars: Vec<char> = "#x y;".chars().collect();
        assert_eq!(code_end(&chars, 0), None);
    }
}
