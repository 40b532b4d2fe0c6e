//! Property tests: no input panics; whatever the rule accepts is inert in a browser's DOM; encoded
//! payloads are always rejected; text without `<` is always plain and extracts to itself.

use std::ops::ControlFlow;

use canvas_html::{browser_scheme, check, classify, for_each_text, paragraphs, to_text, Kind};
use html5ever::tendril::TendrilSink;
use html5ever::{parse_fragment, LocalName, ParseOpts, QualName};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use proptest::prelude::*;

/// Elements that run, load or take input, in any namespace, as a browser's DOM names them.
const ACTIVE: &[&str] = &[
    "applet", "base", "button", "embed", "form", "frame", "frameset", "iframe", "input", "link", "math", "meta",
    "noscript", "object", "script", "select", "style", "svg", "template", "textarea",
];
const URL_ATTRIBUTES: &[&str] = &["href", "src", "action", "formaction", "background", "poster", "cite", "data"];

/// Parses `text` as a browser parses the content of a `<div>`, with html5ever's tree builder.
fn browser_dom(text: &str) -> RcDom {
    let context = QualName::new(None, html5ever::ns!(html), LocalName::from("div"));
    parse_fragment(RcDom::default(), ParseOpts::default(), context, vec![], false).one(text)
}

/// The first active thing in the DOM, if any.
fn active_content(node: &Handle) -> Option<String> {
    if let NodeData::Element { name, attrs, .. } = &node.data {
        if ACTIVE.contains(&&*name.local) {
            return Some(format!("element <{}>", name.local));
        }
        for attr in attrs.borrow().iter() {
            let (attr_name, value): (&str, &str) = (&attr.name.local, &attr.value);
            if attr_name.starts_with("on") {
                return Some(format!("attribute {attr_name}"));
            }
            let urls: Vec<&str> = if attr_name == "srcset" {
                value.split([',', ' ', '\t', '\n', '\r', '\u{c}']).filter(|u| !u.is_empty()).collect()
            } else if URL_ATTRIBUTES.contains(&attr_name) {
                vec![value]
            } else {
                vec![]
            };
            for url in urls {
                // A URL the browser cannot parse is never followed; one it parses must be web or contact.
                let scheme = url::Url::parse("https://base.example/").unwrap().join(url).map(|u| u.scheme().to_owned());
                if let Ok(scheme) = scheme {
                    if !["http", "https", "mailto", "tel"].contains(&scheme.as_str()) {
                        return Some(format!("{attr_name}={url:?} ({scheme})"));
                    }
                }
            }
            let css: String = value.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_lowercase();
            if attr_name == "style" && ["url(", "expression(", "@import", "javascript:"].iter().any(|b| css.contains(b))
            {
                return Some(format!("style {value:?}"));
            }
        }
    }
    node.children.borrow().iter().find_map(active_content)
}

/// HTML-like fragments built from the pieces attacks and labels are made of.
fn fragment() -> impl Strategy<Value = String> {
    let name = prop::sample::select(vec![
        "b", "i", "p", "a", "img", "span", "li", "ul", "br", "td", "tr", "table", "x", "foo", "script", "style", "svg",
        "math", "iframe", "textarea", "title", "xmp", "noscript", "object", "scr", "blink", "image",
    ]);
    let attr = prop::sample::select(vec![
        "href",
        "src",
        "srcset",
        "style",
        "onclick",
        "ONerror",
        "title",
        "alt",
        "background",
        "xlink:href",
        "cite",
    ]);
    let value = prop::sample::select(vec![
        "https://e.com/",
        "x.png",
        "javascript:alert(1)",
        "java&Tab;script:x",
        "&#106;avascript:x",
        "JaVaScRiPt:x",
        "javascript&colon;x",
        " \u{1}javascript:x",
        "data:text/html,x",
        "mailto:a@b.c",
        "color:red",
        "background:url(x)",
        "\\75 rl(x)",
        "exp/**/ression(x)",
        "1x, data:x 2x",
        "",
        "&quot;",
        "a\"b",
        "<script>",
    ]);
    let quote = prop::sample::select(vec!["\"", "'", ""]);
    let attribute = (attr, quote.clone(), value, quote).prop_map(|(a, q1, v, q2)| format!(" {a}={q1}{v}{q2}"));
    let tag = (any::<bool>(), name, prop::collection::vec(attribute, 0..3), prop::sample::select(vec![">", "/>", ""]))
        .prop_map(|(end, n, attrs, close)| format!("<{}{n}{}{close}", if end { "/" } else { "" }, attrs.concat()));
    let text = prop::sample::select(vec![
        "x",
        " ",
        "a < b",
        "x<y",
        "&amp;",
        "&lt;script&gt;",
        "&",
        "<",
        "</",
        "<!--",
        "-->",
        "<!-->",
        "\n",
        "\t",
        "'",
        "\"",
        ">",
        "&#60;",
        "<!DOCTYPE html>",
        "<?x>",
    ]);
    prop::collection::vec(prop_oneof![tag, text.prop_map(str::to_owned)], 0..12).prop_map(|parts| parts.concat())
}

/// Balanced trees of label elements with attributes from the same pool, so that much of what is
/// generated is well-formed HTML the rule accepts (and the browser check has something to judge).
fn balanced() -> impl Strategy<Value = String> {
    let name = prop::sample::select(vec!["b", "i", "p", "a", "span", "div", "em", "q", "img", "br", "x", "svg"]);
    let attr = prop::sample::select(vec!["href", "src", "srcset", "style", "title", "onclick", "cite"]);
    let value = prop::sample::select(vec![
        "https://e.com/",
        "x.png",
        "mailto:a@b.c",
        "color:red",
        "#top",
        "java&Tab;script:x",
        "&#106;avascript:x",
        " data:x",
        "\\75 rl(x)",
        "a.png 1x, b.png 2x",
        "x&amp;y",
        "",
    ]);
    let attribute = (attr, value).prop_map(|(a, v)| format!(" {a}=\"{v}\""));
    let leaf = prop::sample::select(vec!["text", "a < b", "x&lt;y", "&amp;", " ", "<!-- c -->", "x<y z"])
        .prop_map(str::to_owned);
    leaf.prop_recursive(4, 40, 4, move |inner| {
        (name.clone(), prop::collection::vec(attribute.clone(), 0..2), prop::collection::vec(inner, 0..4)).prop_map(
            |(n, attrs, children)| match n {
                "img" | "br" => format!("<{n}{}>{}", attrs.concat(), children.concat()),
                _ => format!("<{n}{}>{}</{n}>", attrs.concat(), children.concat()),
            },
        )
    })
}

/// `scheme:rest` with the scheme encoded the ways browsers decode: random case, numeric references
/// (decimal or hex, zero-padded, with or without `;`), named references, tabs and newlines inside
/// (raw or encoded), and control characters or spaces in front.
fn encoded_url(scheme: &'static str, rest: &'static str, separators: bool) -> impl Strategy<Value = String> {
    let per_char = prop::collection::vec((0u8..6, 0usize..4, any::<bool>(), 0u8..8), scheme.len() + 1);
    let lead =
        prop::collection::vec(prop::sample::select(vec![" ", "\u{1}", "\u{1f}", "\t", "&#1;", "&#32;", "&Tab;"]), 0..3);
    (per_char, lead).prop_map(move |(choices, lead)| {
        let mut out = lead.concat();
        for (c, (how, zeros, semicolon, insert)) in format!("{scheme}:").chars().zip(choices) {
            let end = if semicolon { ";" } else { "" };
            let pad = "0".repeat(zeros);
            match how {
                0 => out.push(c.to_ascii_uppercase()),
                1 => out.push(c),
                2 => out.push_str(&format!("&#{pad}{};", c as u32)),
                // Hex references always end in `;`: a following letter a-f would extend the number.
                3 => out.push_str(&format!("&#x{pad}{:X};", c as u32)),
                4 => out.push_str(&format!("&#X{pad}{:x};", c as u32)),
                _ if c == ':' => out.push_str("&colon;"),
                _ => out.push_str(&format!("&#{pad}{}{end}", c as u32)),
            }
            // Tabs and newlines anywhere before the colon are removed by the URL parser.
            // (Not in `srcset`, where white space separates candidates and so splits the scheme.)
            if c != ':' && !separators {
                out.push_str(["", "", "", "\t", "\n", "&Tab;", "&NewLine;", "&#13;"][insert as usize]);
            }
        }
        out.push_str(rest);
        out
    })
}

/// A CSS keyword hidden with CSS escapes, comments and HTML references.
fn encoded_css(keyword: &'static str, rest: &'static str) -> impl Strategy<Value = String> {
    prop::collection::vec((0u8..5, any::<bool>()), keyword.len()).prop_map(move |choices| {
        let mut out = String::from("color:red;");
        for (c, (how, comment)) in keyword.chars().zip(choices) {
            match how {
                0 if c.is_ascii_alphabetic() => out.push(c.to_ascii_uppercase()),
                1 if c.is_ascii_alphanumeric() => out.push_str(&format!("\\{:x} ", c as u32)),
                2 if c.is_ascii_alphanumeric() => out.push_str(&format!("\\{:06x}", c as u32)),
                3 => out.push_str(&format!("&#{};", c as u32)),
                _ => out.push(c),
            }
            if comment && c != '(' {
                out.push_str("/**/");
            }
        }
        out.push_str(rest);
        out
    })
}

fn payload() -> impl Strategy<Value = String> {
    let url = |separators| {
        prop_oneof![
            encoded_url("javascript", "alert(1)", separators),
            encoded_url("vbscript", "msgbox(1)", separators),
            encoded_url("data", "text/html,x", separators),
        ]
    };
    let css = prop_oneof![
        encoded_css("url(", "x)"),
        encoded_css("expression(", "alert(1))"),
        encoded_css("@import", " 'x.css'"),
        encoded_css("javascript:", "x"),
    ];
    let element = prop::sample::select(vec!["a", "img", "span", "x", "table"]);
    prop_oneof![
        (element.clone(), prop::sample::select(vec!["href", "src", "background", "xlink:href", "cite"]), url(false))
            .prop_map(|(e, a, u)| format!("before <{e} {a}=\"{u}\">x</{e}> after")),
        (element.clone(), url(true)).prop_map(|(e, u)| format!("<{e} srcset='a.png 1x, {u} 2x'>")),
        (element.clone(), url(false))
            .prop_map(|(e, u)| format!("<{e} title=x href={}>", u.replace(['\t', '\n', ' '], "&Tab;"))),
        (element, css).prop_map(|(e, c)| format!("<{e} style=\"{c}\">x</{e}>")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn no_function_panics(text in any::<String>()) {
        let _ = check(&text);
        let _ = classify(&text);
        let _ = to_text(&text);
        let _ = paragraphs(&text);
        let _ = browser_scheme(&text);
        for_each_text(&text, |_| ControlFlow::Continue(()));
    }

    #[test]
    fn no_function_panics_on_markup(text in fragment()) {
        let _ = (check(&text), classify(&text), to_text(&text), paragraphs(&text));
    }

    #[test]
    fn accepted_text_is_inert_in_a_browser(text in prop_oneof![fragment(), balanced(), "[<>a-z=\"' /&#;:!?-]{0,40}"]) {
        if check(&text).is_ok() {
            let dom = browser_dom(&text);
            prop_assert_eq!(active_content(&dom.document), None, "accepted {:?}", text);
        }
    }

    #[test]
    fn encoded_payloads_are_rejected(text in payload()) {
        let verdict = check(&text);
        prop_assert!(
            verdict.as_ref().is_err_and(|e| matches!(e, canvas_html::Refusal::Active(_))),
            "{:?} -> {:?}", text, verdict
        );
    }

    #[test]
    fn text_without_lt_is_plain_and_itself(text in "[^<]{0,200}") {
        prop_assert_eq!(classify(&text), Kind::Plain);
        prop_assert_eq!(check(&text), Ok(()));
        prop_assert_eq!(to_text(&text), text.clone());
        let expected: Vec<String> = text
            .split('\n')
            .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|line| !line.is_empty())
            .collect();
        prop_assert_eq!(paragraphs(&text), expected);
    }
}
