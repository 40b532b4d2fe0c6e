//! The element tables: which names are HTML elements at all, which run or load code, which a label may
//! use, and how browsers treat their end tags and layout. Each list is sorted so it can be searched.

/// Every element of the HTML standard, its obsolete ones that browsers still parse specially (`xmp`,
/// `plaintext`, `image`…), and `svg`/`math`. A tag with one of these names makes text HTML.
#[rustfmt::skip]
const KNOWN: &[&str] = &[
    "a", "abbr", "acronym", "address", "applet", "area", "article", "aside", "audio", "b", "base", "basefont", "bdi",
    "bdo", "bgsound", "big", "blink", "blockquote", "body", "br", "button", "canvas", "caption", "center", "cite",
    "code", "col", "colgroup", "data", "datalist", "dd", "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt",
    "em", "embed", "fencedframe", "fieldset", "figcaption", "figure", "font", "footer", "form", "frame", "frameset",
    "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hgroup", "hr", "html", "i", "iframe", "image", "img",
    "input", "ins", "isindex", "kbd", "keygen", "label", "legend", "li", "link", "listing", "main", "map", "mark",
    "marquee", "math", "menu", "menuitem", "meta", "meter", "multicol", "nav", "nextid", "nobr", "noembed",
    "noframes", "noscript", "object", "ol", "optgroup", "option", "output", "p", "param", "picture", "plaintext",
    "portal", "pre", "progress", "q", "rb", "rp", "rt", "rtc", "ruby", "s", "samp", "script", "search", "section",
    "select", "selectedcontent", "slot", "small", "source", "spacer", "span", "strike", "strong", "style", "sub",
    "summary", "sup", "svg", "table", "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "time", "title",
    "tr", "track", "tt", "u", "ul", "var", "video", "wbr", "xmp",
];

/// Elements that run code, load or embed other documents, take input, or switch the parser into
/// another language (`svg`, `math`). Rejected wherever they appear.
#[rustfmt::skip]
const ACTIVE: &[&str] = &[
    "applet", "base", "button", "datalist", "dialog", "embed", "fencedframe", "form", "frame", "frameset", "iframe",
    "input", "isindex", "keygen", "link", "math", "meta", "noembed", "noframes", "noscript", "object", "optgroup",
    "option", "portal", "script", "select", "style", "svg", "template", "textarea",
];

/// Formatting and structure elements a label may contain.
#[rustfmt::skip]
const ALLOWED: &[&str] = &[
    "a", "abbr", "area", "b", "bdi", "bdo", "blockquote", "br", "caption", "center", "cite", "code", "col",
    "colgroup", "dd", "del", "dfn", "div", "dl", "dt", "em", "font", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i",
    "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "rb", "rp", "rt", "rtc", "ruby", "s", "samp", "small",
    "source", "span", "strike", "strong", "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr",
    "track", "tt", "u", "ul", "var", "wbr",
];

/// Elements whose end tag HTML lets the author omit.
#[rustfmt::skip]
const OPTIONAL_END: &[&str] = &[
    "colgroup", "dd", "dt", "li", "option", "p", "rb", "rp", "rt", "rtc", "tbody", "td", "tfoot", "th", "thead",
    "tr",
];

/// Elements that never have content or an end tag.
#[rustfmt::skip]
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track",
    "wbr",
];

/// Elements a browser lays out as blocks (or a line break): they separate lines of text.
#[rustfmt::skip]
const BLOCK: &[&str] = &[
    "address", "article", "aside", "blockquote", "br", "caption", "center", "dd", "div", "dl", "dt", "figcaption",
    "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre",
    "section", "table", "td", "th", "tr", "ul",
];

/// Elements whose content a reader never sees.
#[rustfmt::skip]
const HIDDEN: &[&str] = &[
    "head", "iframe", "noembed", "noframes", "noscript", "script", "style", "template", "title",
];

/// Start tags that close an open `<p>` (the HTML parser's "close a p element" list).
#[rustfmt::skip]
const CLOSES_P: &[&str] = &[
    "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "li",
    "listing", "main", "menu", "nav", "ol", "p", "pre", "search", "section", "summary", "table", "ul", "xmp",
];

fn contains(list: &[&str], name: &str) -> bool {
    list.binary_search(&name).is_ok()
}

pub(crate) fn is_known(name: &str) -> bool {
    contains(KNOWN, name)
}

pub(crate) fn is_active(name: &str) -> bool {
    contains(ACTIVE, name)
}

pub(crate) fn is_allowed(name: &str) -> bool {
    contains(ALLOWED, name)
}

pub(crate) fn has_optional_end(name: &str) -> bool {
    contains(OPTIONAL_END, name)
}

pub(crate) fn is_void(name: &str) -> bool {
    contains(VOID, name)
}

pub(crate) fn is_block(name: &str) -> bool {
    contains(BLOCK, name)
}

pub(crate) fn is_hidden(name: &str) -> bool {
    contains(HIDDEN, name)
}

/// Whether a start tag `opening` ends the element `open` whose end tag was omitted (`<li>a<li>b`,
/// `<p>a<div>`, `<td>a<td>b`), as the HTML parser does.
pub(crate) fn start_closes(opening: &str, open: &str) -> bool {
    let cells = ["td", "th"];
    let sections = ["tbody", "tfoot", "thead"];
    let ruby = ["rb", "rp", "rt", "rtc"];
    match open {
        "p" => contains(CLOSES_P, opening),
        "li" => opening == "li",
        "dt" | "dd" => matches!(opening, "dt" | "dd"),
        "td" | "th" => cells.contains(&opening) || opening == "tr" || sections.contains(&opening),
        "tr" => opening == "tr" || sections.contains(&opening),
        "tbody" | "tfoot" | "thead" => sections.contains(&opening),
        "rb" | "rp" | "rt" | "rtc" => ruby.contains(&opening),
        "option" => matches!(opening, "option" | "optgroup"),
        "colgroup" => opening != "col",
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_and_consistent() {
        for list in [KNOWN, ACTIVE, ALLOWED, OPTIONAL_END, VOID, BLOCK, HIDDEN, CLOSES_P] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "not sorted or has duplicates: {list:?}");
        }
        for name in ACTIVE.iter().chain(ALLOWED).chain(OPTIONAL_END).chain(VOID).chain(BLOCK).chain(HIDDEN) {
            assert!(is_known(name), "{name} is used but not a known element");
        }
        assert!(ALLOWED.iter().all(|name| !is_active(name)), "an allowed element is active");
    }
}
