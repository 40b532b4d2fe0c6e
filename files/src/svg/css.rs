//! Neutralises the parts of CSS text that load resources, for `<style>` elements, `style` attributes and
//! presentation attributes of an SVG.
//!
//! A small tokenizer rather than a pattern match, because CSS escapes (`u\72l(`), comments and strings
//! would defeat a search for `url(`: identifiers are decoded the way a browser decodes them before the
//! decision, and strings and comments are skipped whole. What it does:
//! - `url(...)` stays when its target passes [`url_allowed`] (a `#fragment` or raster `data:` URI) and
//!   becomes `none` otherwise;
//! - functions that fetch or evaluate without `url(` (`image()`, `image-set()`, `cross-fade()`,
//!   `element()`, `expression()`, `paint()`, `src()`, and vendor variants) become `none`;
//! - `@import` rules are removed up to their `;`;
//! - comments become a space. Everything else is copied unchanged.

use super::allow::url_allowed;

/// Functions that load a resource from a string argument or run code; replaced whole.
const BLOCKED_FUNCTIONS: &[&str] = &[
    "image",
    "image-set",
    "-webkit-image-set",
    "cross-fade",
    "-webkit-cross-fade",
    "element",
    "-moz-element",
    "expression",
    "paint",
    "src",
];

/// Returns `input` with resource-loading constructs neutralised (see the module documentation).
pub(crate) fn sanitize_css(input: &str) -> String {
    let chars: Vec<char> = input.chars().collect();
    let mut out = String::with_capacity(input.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            i = skip_comment(&chars, i);
            out.push(' ');
        } else if c == '"' || c == '\'' {
            let end = skip_string(&chars, i);
            out.extend(&chars[i..end]);
            i = end;
        } else if c == '@' && starts_ident(&chars, i + 1) {
            let (name, end) = read_ident(&chars, i + 1);
            if name.eq_ignore_ascii_case("import") {
                i = skip_to_statement_end(&chars, end);
            } else {
                out.extend(&chars[i..end]);
                i = end;
            }
        } else if starts_ident(&chars, i) {
            let (name, end) = read_ident(&chars, i);
            if chars.get(end) != Some(&'(') {
                out.extend(&chars[i..end]);
                i = end;
                continue;
            }
            let lower = name.to_ascii_lowercase();
            if lower == "url" {
                let (target, close) = read_url_argument(&chars, end + 1);
                if url_allowed(&target) {
                    out.extend(&chars[i..close]);
                } else {
                    out.push_str("none");
                }
                i = close;
            } else if BLOCKED_FUNCTIONS.contains(&lower.as_str()) {
                out.push_str("none");
                i = skip_balanced(&chars, end);
            } else {
                // Other functions (var(), calc(), rgb()...) are copied; their arguments are scanned in
                // turn, so a url() nested inside them is still caught.
                out.extend(&chars[i..=end]);
                i = end + 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Index just past the `*/` closing the comment that opens at `start` (or the end of input).
fn skip_comment(chars: &[char], start: usize) -> usize {
    let mut i = start + 2;
    while i + 1 < chars.len() {
        if chars[i] == '*' && chars[i + 1] == '/' {
            return i + 2;
        }
        i += 1;
    }
    chars.len()
}

/// Index just past the string opening at `start`. An unescaped newline ends a string too (CSS "bad
/// string"), as does the end of input.
fn skip_string(chars: &[char], start: usize) -> usize {
    let quote = chars[start];
    let mut i = start + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    chars.len()
}

/// Whether an identifier starts at `i` (CSS Syntax §4.3.9, simplified to what matters here).
fn starts_ident(chars: &[char], i: usize) -> bool {
    let is_start = |c: char| c.is_ascii_alphabetic() || c == '_' || !c.is_ascii();
    let is_escape = |j: usize| chars.get(j) == Some(&'\\') && chars.get(j + 1).is_some_and(|c| *c != '\n');
    match chars.get(i) {
        Some('-') => chars.get(i + 1).is_some_and(|c| is_start(*c) || *c == '-') || is_escape(i + 1),
        Some(c) if is_start(*c) => true,
        Some('\\') => is_escape(i),
        _ => false,
    }
}

/// Reads an identifier starting at `start`, decoding escapes; returns the decoded name and the index
/// just past it.
fn read_ident(chars: &[char], start: usize) -> (String, usize) {
    let mut name = String::new();
    let mut i = start;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' || !c.is_ascii() {
            name.push(c);
            i += 1;
        } else if c == '\\' && chars.get(i + 1).is_some_and(|n| *n != '\n') {
            let (decoded, next) = read_escape(chars, i + 1);
            name.push(decoded);
            i = next;
        } else {
            break;
        }
    }
    (name, i)
}

/// Decodes the escape whose body starts at `i` (just after the backslash): up to six hex digits and
/// one optional whitespace, or a single literal character.
fn read_escape(chars: &[char], i: usize) -> (char, usize) {
    let hex_len = chars[i..].iter().take(6).take_while(|c| c.is_ascii_hexdigit()).count();
    if hex_len == 0 {
        return match chars.get(i) {
            Some(c) => (*c, i + 1),
            None => (char::REPLACEMENT_CHARACTER, i),
        };
    }
    let digits: String = chars[i..i + hex_len].iter().collect();
    let value = u32::from_str_radix(&digits, 16).unwrap_or(0);
    let decoded = match char::from_u32(value) {
        Some(c) if value != 0 => c,
        _ => char::REPLACEMENT_CHARACTER,
    };
    let mut next = i + hex_len;
    if chars.get(next).is_some_and(|c| c.is_ascii_whitespace()) {
        next += 1;
    }
    (decoded, next)
}

/// Reads the argument of `url(` starting at `start`: a quoted string or an unquoted URL, decoded.
/// Returns it and the index just past the closing parenthesis (or the end of input).
fn read_url_argument(chars: &[char], start: usize) -> (String, usize) {
    let mut i = start;
    while chars.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
        i += 1;
    }
    let mut value = String::new();
    if let Some(&quote) = chars.get(i).filter(|c| **c == '"' || **c == '\'') {
        i += 1;
        while i < chars.len() && chars[i] != quote && chars[i] != '\n' {
            if chars[i] == '\\' && i + 1 < chars.len() {
                let (decoded, next) = read_escape(chars, i + 1);
                value.push(decoded);
                i = next;
            } else {
                value.push(chars[i]);
                i += 1;
            }
        }
        // Whatever follows the string up to `)` is part of the function; a browser would reject
        // trailing junk, and keeping the whole span keeps the output faithful.
        return (value, skip_balanced(chars, start - 1));
    }
    while i < chars.len() && chars[i] != ')' {
        if chars[i] == '\\' && i + 1 < chars.len() {
            let (decoded, next) = read_escape(chars, i + 1);
            value.push(decoded);
            i = next;
        } else {
            value.push(chars[i]);
            i += 1;
        }
    }
    (value, (i + 1).min(chars.len()))
}

/// Index just past the parenthesis that closes the one at `open`, skipping strings and comments.
fn skip_balanced(chars: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            '"' | '\'' => {
                i = skip_string(chars, i);
                continue;
            }
            '\\' => i += 1,
            '/' if chars.get(i + 1) == Some(&'*') => {
                i = skip_comment(chars, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    chars.len()
}

/// Index just past the `;` ending the at-rule that continues at `start`, or past its `{...}` block.
fn skip_to_statement_end(chars: &[char], start: usize) -> usize {
    let mut i = start;
    while i < chars.len() {
        match chars[i] {
            ';' => return i + 1,
            '{' => return skip_block(chars, i),
            '"' | '\'' => {
                i = skip_string(chars, i);
                continue;
            }
            '(' => {
                i = skip_balanced(chars, i);
                continue;
            }
            _ => i += 1,
        }
    }
    chars.len()
}

/// Index just past the `}` closing the block at `open`.
fn skip_block(chars: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '{' => depth += 1,
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            '"' | '\'' => {
                i = skip_string(chars, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    chars.len()
}

#[cfg(test)]
mod tests {
    use super::sanitize_css;

    #[test]
    fn external_urls_become_none_and_fragments_stay() {
        assert_eq!(sanitize_css("fill: url(#g1); stroke: url(https://x.test/a)"), "fill: url(#g1); stroke: none");
        assert_eq!(sanitize_css("background: url( 'http://x.test/a' )"), "background: none");
        assert_eq!(sanitize_css("fill:u\\72l(//x.test/a)"), "fill:none");
        assert_eq!(sanitize_css("fill:\\75 rl(javascript:alert(1))"), "fill:none)");
        assert_eq!(sanitize_css("fill: var(--a, url(http://x.test))"), "fill: var(--a, none)");
    }

    #[test]
    fn imports_and_loading_functions_go_strings_and_comments_stay() {
        assert_eq!(sanitize_css("@import url(a.css); rect{fill:red}"), " rect{fill:red}");
        assert_eq!(sanitize_css("@IMPORT 'a.css';x{}"), "x{}");
        assert_eq!(sanitize_css("a{b:image-set('x.png' 1x)}"), "a{b:none}");
        assert_eq!(sanitize_css("a{content:\"url(http://x)\"}"), "a{content:\"url(http://x)\"}");
        assert_eq!(sanitize_css("a{/* c */fill:red}"), "a{ fill:red}");
        assert_eq!(sanitize_css("text{font-family:'Open Sans';fill:#333}"), "text{font-family:'Open Sans';fill:#333}");
    }
}
