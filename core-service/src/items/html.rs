//! The rule "plain text or valid HTML" for label and sticky-note text.
//!
//! Text with no markup (no `<` followed by a letter, `/` or `!`) is plain
//! text and always accepted. Anything else must be well-formed HTML made of
//! known elements, and must not carry active content: script-like elements,
//! `on*` event-handler attributes, or `javascript:`/`vbscript:`/`data:` URLs.
//! Active content is rejected, not stripped, so nothing the client sent is
//! silently lost.

/// Elements whose end tag HTML lets the author omit.
const OPTIONAL_END: &[&str] =
    &["p", "li", "dt", "dd", "tr", "td", "th", "option", "thead", "tbody", "tfoot", "colgroup", "rt", "rp"];

/// Elements that never have content or an end tag.
const VOID: &[&str] = &["br", "hr", "img", "wbr", "col", "area", "source", "track"];

/// Elements that run code, load other documents, or take input.
const ACTIVE: &[&str] = &[
    "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "form", "input", "button",
    "textarea", "select", "link", "meta", "base", "template", "noscript", "svg", "math", "portal", "dialog",
];

/// Formatting and structure elements a label may contain.
const ALLOWED: &[&str] = &[
    "a",
    "abbr",
    "b",
    "bdi",
    "bdo",
    "blockquote",
    "br",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "dd",
    "del",
    "dfn",
    "div",
    "dl",
    "dt",
    "em",
    "font",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "ins",
    "kbd",
    "li",
    "mark",
    "ol",
    "p",
    "pre",
    "q",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "small",
    "span",
    "strike",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "tr",
    "tt",
    "u",
    "ul",
    "var",
    "wbr",
    "area",
    "source",
    "track",
];

const URL_ATTRIBUTES: &[&str] =
    &["href", "src", "action", "formaction", "xlink:href", "background", "poster", "cite", "srcset"];

/// True when the text contains markup and must be checked as HTML.
pub fn looks_like_html(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.windows(2).any(|w| w[0] == b'<' && (w[1].is_ascii_alphabetic() || w[1] == b'/' || w[1] == b'!'))
}

/// Checks text against the rule; the error says what is wrong.
pub fn check(text: &str) -> Result<(), String> {
    if !looks_like_html(text) {
        return Ok(());
    }
    let mut open: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        rest = &rest[start..];
        if let Some(after) = rest.strip_prefix("<!--") {
            let end = after.find("-->").ok_or("malformed HTML: a comment is not closed")?;
            rest = &after[end + 3..];
            continue;
        }
        let next = rest.as_bytes().get(1).copied().unwrap_or(b' ');
        if !(next.is_ascii_alphabetic() || next == b'/' || next == b'!') {
            rest = &rest[1..];
            continue;
        }
        let end = find_tag_end(rest).ok_or("malformed HTML: a tag is not closed with '>'")?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') {
            return Err("malformed HTML: declarations such as <!DOCTYPE> are not allowed in item text".into());
        }
        if let Some(name) = tag.strip_prefix('/') {
            close(&mut open, &name.trim().to_ascii_lowercase())?;
        } else {
            let (name, self_closing) = open_tag(tag)?;
            if !self_closing && !VOID.contains(&name.as_str()) {
                if OPTIONAL_END.contains(&name.as_str()) && open.last() == Some(&name) && name != "td" && name != "th" {
                    open.pop();
                }
                open.push(name);
            }
        }
    }
    while let Some(name) = open.pop() {
        if !OPTIONAL_END.contains(&name.as_str()) {
            return Err(format!("malformed HTML: <{name}> is not closed"));
        }
    }
    Ok(())
}

/// Index of the `>` ending the tag at the start of `s`, skipping quoted values.
fn find_tag_end(s: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices().skip(1) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return Some(i),
            (None, '<') => return None,
            _ => {}
        }
    }
    None
}

fn close(open: &mut Vec<String>, name: &str) -> Result<(), String> {
    if VOID.contains(&name) {
        return Ok(());
    }
    while let Some(top) = open.pop() {
        if top == name {
            return Ok(());
        }
        if !OPTIONAL_END.contains(&top.as_str()) {
            return Err(format!("malformed HTML: </{name}> closes <{top}>"));
        }
    }
    Err(format!("malformed HTML: </{name}> has no opening tag"))
}

/// Parses `name attr="v" …` and checks the element and its attributes.
fn open_tag(tag: &str) -> Result<(String, bool), String> {
    let self_closing = tag.trim_end().ends_with('/');
    let body = tag.trim_end().trim_end_matches('/');
    let name_end = body.find(|c: char| c.is_whitespace()).unwrap_or(body.len());
    let name = body[..name_end].to_ascii_lowercase();
    if !name.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!("malformed HTML: '<{name}' is not a valid tag"));
    }
    if ACTIVE.contains(&name.as_str()) {
        return Err(format!("must not contain active content: <{name}> elements are not allowed"));
    }
    if !ALLOWED.contains(&name.as_str()) {
        return Err(format!("malformed HTML: <{name}> is not an HTML element allowed in item text"));
    }
    for (attr, value) in attributes(&body[name_end..])? {
        if attr.starts_with("on") {
            return Err(format!("must not contain active content: event-handler attribute '{attr}' is not allowed"));
        }
        let squashed: String =
            value.chars().filter(|c| !c.is_whitespace() && !c.is_control()).collect::<String>().to_ascii_lowercase();
        let dangerous = ["javascript:", "vbscript:", "data:"].iter().any(|scheme| squashed.contains(scheme));
        if URL_ATTRIBUTES.contains(&attr.as_str()) && dangerous {
            return Err(format!(
                "must not contain active content: '{attr}' must not use a javascript:, vbscript: or data: URL"
            ));
        }
        if attr == "style" && (squashed.contains("expression(") || squashed.contains("url(")) {
            return Err("must not contain active content: 'style' must not use expression() or url()".into());
        }
    }
    Ok((name, self_closing))
}

/// The attributes of a tag, names lower-cased, entity-free values.
fn attributes(mut s: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return Ok(out);
        }
        let name_end = s.find(|c: char| c.is_whitespace() || c == '=').unwrap_or(s.len());
        let name = s[..name_end].to_ascii_lowercase();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "-_:.".contains(c)) {
            return Err(format!("malformed HTML: invalid attribute near '{}'", s.chars().take(20).collect::<String>()));
        }
        s = s[name_end..].trim_start();
        let value = if let Some(after) = s.strip_prefix('=') {
            let after = after.trim_start();
            let (value, rest) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let close = after[1..].find(q).ok_or("malformed HTML: an attribute value is not closed")?;
                    (after[1..1 + close].to_owned(), &after[close + 2..])
                }
                _ => {
                    let end = after.find(char::is_whitespace).unwrap_or(after.len());
                    (after[..end].to_owned(), &after[end..])
                }
            };
            s = rest;
            decode_entities(&value)
        } else {
            String::new()
        };
        out.push((name, value));
    }
}

/// Decodes numeric character references, which attackers use to hide
/// `javascript:` from naive checks.
fn decode_entities(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(pos) = rest.find("&#") {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 2..];
        let (radix, digits) = match after.strip_prefix(['x', 'X']) {
            Some(hex) => (16, hex),
            None => (10, after),
        };
        let len = digits.find(|c: char| !c.is_digit(radix)).unwrap_or(digits.len());
        match u32::from_str_radix(&digits[..len], radix).ok().and_then(char::from_u32) {
            Some(c) => {
                out.push(c);
                let consumed = &digits[len..];
                rest = consumed.strip_prefix(';').unwrap_or(consumed);
            }
            None => {
                out.push_str("&#");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn plain_text_and_valid_html_pass() {
        for ok in [
            "hello",
            "a < b && c > d",
            "<b>bold</b> and <i>italic</i>",
            "<p>one<p>two",
            "<ul><li>a<li>b</ul>",
            "line<br>break<br/>",
            "<a href=\"https://example.com\">link</a>",
            "<span style=\"color: red\">x</span><!-- note -->",
        ] {
            assert_eq!(check(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn malformed_html_fails() {
        for bad in ["<b>open", "<b><i>x</b></i>", "</b>", "<b", "<blink>x</blink>", "<!DOCTYPE html>"] {
            let err = check(bad).unwrap_err();
            assert!(err.starts_with("malformed HTML"), "{bad}: {err}");
        }
    }

    #[test]
    fn active_content_fails() {
        for bad in [
            "<script>alert(1)</script>",
            "<img src=x onerror=alert(1)>",
            "<a href=\"javascript:alert(1)\">x</a>",
            "<a href=\"jav&#x61;script:alert(1)\">x</a>",
            "<a href=' java\tscript:x'>x</a>",
            "<iframe src=\"https://e.com\"></iframe>",
            "<span style=\"background:url(x)\">x</span>",
        ] {
            let err = check(bad).unwrap_err();
            assert!(err.starts_with("must not contain active content"), "{bad}: {err}");
        }
    }
}
