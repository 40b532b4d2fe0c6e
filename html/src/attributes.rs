//! Attributes that make a tag active: event handlers, URLs a browser would run or load as something
//! other than a web page, and CSS that loads or runs something.
//!
//! Values arrive decoded by the HTML5 tokenizer (every character reference, named or numeric, with or
//! without `;`), so `javascript&colon;`, `&#106;avascript:` and `java&Tab;script:` are judged as the
//! browser will see them.

use html5ever::tokenizer::Tag;
use url::Url;

/// Attributes holding one URL.
const URL: &[&str] = &[
    "action",
    "attributionsrc",
    "background",
    "cite",
    "classid",
    "codebase",
    "data",
    "dynsrc",
    "formaction",
    "href",
    "icon",
    "longdesc",
    "lowsrc",
    "manifest",
    "poster",
    "profile",
    "src",
    "usemap",
    "xlink:href",
    "xml:base",
];

/// Attributes holding a list of URLs, separated by white space or commas (with descriptors such as
/// `2x` or `100w` in `srcset`, which read as harmless relative URLs).
const URL_LIST: &[&str] = &["archive", "imagesrcset", "ping", "srcset"];

/// The URL schemes a link or image may use; a relative reference resolves to the page's own scheme.
const ALLOWED_SCHEMES: &[&str] = &["http", "https", "mailto", "tel"];

/// What `style` must not contain once CSS comments and escapes are decoded, white space removed and
/// letters lower-cased: functions that load a resource or run script, and old script bindings.
const CSS_FORBIDDEN: &[&str] = &[
    "url(",
    "src(",
    "image(",
    "image-set(",
    "expression(",
    "@import",
    "javascript:",
    "vbscript:",
    "-moz-binding",
    "behavior:",
];

/// Checks every attribute of a tag; the error names the attribute and the rule.
pub(crate) fn check(tag: &Tag) -> Result<(), String> {
    for attribute in &tag.attrs {
        let name: &str = &attribute.name.local;
        let value: &str = &attribute.value;
        if name.starts_with("on") {
            return Err(format!("event-handler attribute '{name}' is not allowed (in <{}>)", tag.name));
        }
        if URL.contains(&name) {
            check_url(name, value)?;
        } else if URL_LIST.contains(&name) {
            for url in value.split(|c: char| c == ',' || c.is_ascii_whitespace()).filter(|u| !u.is_empty()) {
                check_url(name, url)?;
            }
        } else if name == "style" {
            check_css(value)?;
        }
    }
    Ok(())
}

/// The scheme of `value` as a browser resolves it from a web page (WHATWG URL parsing: tabs and
/// newlines removed anywhere, leading and trailing C0 controls and spaces trimmed, scheme lower-cased).
/// A URL the parser refuses (`https://exa mple.com`) cannot be followed; its scheme is still read,
/// as the URL standard's scheme state reads it, so nothing unparseable slips through the allow-list.
pub fn browser_scheme(value: &str) -> String {
    // Any http(s) base does: a relative reference takes the base's scheme, an absolute one its own.
    let base = Url::parse("https://item.invalid/").expect("the base URL is valid");
    match base.join(value) {
        Ok(url) => url.scheme().to_owned(),
        Err(_) => written_scheme(value).unwrap_or_else(|| base.scheme().to_owned()),
    }
}

/// The scheme as the URL standard's scheme state reads it, or None for a relative reference.
fn written_scheme(value: &str) -> Option<String> {
    let trimmed = value.trim_matches(|c: char| c <= ' ');
    let cleaned: String = trimmed.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect();
    let (scheme, _) = cleaned.split_once(':')?;
    let mut chars = scheme.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then(|| scheme.to_ascii_lowercase())
}

fn check_url(attribute: &str, value: &str) -> Result<(), String> {
    let scheme = browser_scheme(value);
    if ALLOWED_SCHEMES.contains(&scheme.as_str()) {
        return Ok(());
    }
    Err(format!("'{attribute}' must not use a {scheme}: URL (allowed: http, https, mailto, tel or a relative URL)"))
}

fn check_css(value: &str) -> Result<(), String> {
    let decoded: String =
        decode_css(value).chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect();
    match CSS_FORBIDDEN.iter().find(|forbidden| decoded.contains(*forbidden)) {
        Some(forbidden) => Err(format!("'style' must not use {forbidden} (CSS that loads or runs something)")),
        None => Ok(()),
    }
}

/// CSS with comments removed and escapes decoded (`\75 rl(` is `url(`), as CSS reads them.
fn decode_css(css: &str) -> String {
    let mut out = String::with_capacity(css.len());
    let mut chars = css.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '\\' => match chars.peek().copied() {
                None => out.push('\u{FFFD}'),
                Some('\n' | '\r' | '\u{C}') => {
                    chars.next();
                }
                Some(h) if h.is_ascii_hexdigit() => {
                    let mut code = 0u32;
                    for _ in 0..6 {
                        match chars.peek().and_then(|d| d.to_digit(16)) {
                            Some(digit) => {
                                code = code * 16 + digit;
                                chars.next();
                            }
                            None => break,
                        }
                    }
                    if chars.peek().is_some_and(|w| matches!(w, ' ' | '\t' | '\n' | '\r' | '\u{C}')) {
                        chars.next();
                    }
                    out.push(char::from_u32(code).filter(|c| *c != '\0').unwrap_or('\u{FFFD}'));
                }
                Some(other) => {
                    chars.next();
                    out.push(other);
                }
            },
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_escapes_and_comments_are_decoded() {
        assert_eq!(decode_css(r"\75 rl(x)"), "url(x)");
        assert_eq!(decode_css(r"\000075rl(x)"), "url(x)");
        assert_eq!(decode_css(r"u\rl(x)"), "url(x)");
        assert_eq!(decode_css("exp/* hidden */ression(1)"), "expression(1)");
        assert_eq!(decode_css(r"a\"), "a\u{FFFD}");
        assert_eq!(decode_css(r"\0 x"), "\u{FFFD}x");
        assert_eq!(decode_css("/* never closed"), "");
    }

    #[test]
    fn browser_schemes() {
        assert_eq!(browser_scheme(" \u{1}JaVa\tScRiPt:alert(1) "), "javascript");
        assert_eq!(browser_scheme("//evil.example/x"), "https");
        assert_eq!(browser_scheme("x.png"), "https");
        assert_eq!(browser_scheme("\u{a0}javascript:x"), "https", "NBSP is not trimmed: a relative path");
        assert_eq!(browser_scheme("mailto:a@b.c"), "mailto");
        assert_eq!(browser_scheme("https://exa mple.com"), "https", "unparseable, scheme still read");
        assert_eq!(written_scheme("\u{1} Java\nScript:x"), Some("javascript".to_owned()));
        assert_eq!(written_scheme("a b:x"), None);
    }
}
