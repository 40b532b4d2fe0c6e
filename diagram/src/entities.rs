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

/// The character a code's body (between `#` and `;`) stands for, when it is known.
fn character(body: &str) -> Option<char> {
    if let Ok(number) = body.parse::<u32>() {
        return char::from_u32(number).filter(|c| !c.is_control() || *c == '\n' || *c == '\t');
    }
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
        _ => return None,
    };
    Some(named)
}

/// `text` with every known entity code replaced by its character; unknown codes stay as written.
pub fn decode(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if let Some(end) = code_end(&chars, i) {
            let body: String = chars[i + 1..end - 1].iter().collect();
            if let Some(c) = character(&body) {
                out.push(c);
                i = end;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
