//! The rule, case by case: the issue's strings, plain text with `<`, allowed HTML, malformed HTML and
//! adversarial encodings of active content.

use canvas_html::{check, classify, Kind, Refusal};

fn active(text: &str) -> String {
    let err = check(text).expect_err(text);
    assert!(matches!(err, Refusal::Active(_)), "{text:?}: {err}");
    let err = err.to_string();
    assert!(err.starts_with("must not contain active content: "), "{text:?}: {err}");
    err
}

fn malformed(text: &str) -> String {
    let err = check(text).expect_err(text);
    assert!(matches!(err, Refusal::Malformed(_)), "{text:?}: {err}");
    let err = err.to_string();
    assert!(err.starts_with("malformed HTML: "), "{text:?}: {err}");
    err
}

#[test]
fn the_issue_strings() {
    let err = active(r#"<a href="javascript&colon;alert(1)">x</a>"#);
    assert!(err.contains("'href' must not use a javascript: URL"), "{err}");
    let err = active(r#"<a href="java&Tab;script:alert(1)">x</a>"#);
    assert!(err.contains("javascript:"), "{err}");
    assert_eq!(check("if x<y then swap"), Ok(()));
    assert_eq!(classify("if x<y then swap"), Kind::Plain);
}

#[test]
fn text_with_lt_but_no_html_element_is_plain() {
    for plain in [
        "x<y",
        "if x<y then swap",
        "a < b",
        "a < b && c > d",
        "use <name>",
        "use <name> and <value>",
        "AT&amp;T",
        "<b",
        "x <",
        "x </",
        "I </3 you",
        "<3",
        "1<2>0",
        "<x tabindex=1>",
        "<foo title=\"javascript:alert(1)\">",
        r#"<a href="x>y"#,
        "<scr<script>ipt>",
    ] {
        assert_eq!(classify(plain), Kind::Plain, "{plain:?}");
        assert_eq!(check(plain), Ok(()), "{plain:?}");
    }
}

#[test]
fn valid_html_is_accepted() {
    for html in [
        "<b>bold</b> and <i>italic</i>",
        "<p>one<p>two",
        "<ul><li>a<li>b</ul>",
        "<dl><dt>t<dd>d<dt>u<dd>e</dl>",
        "<table><tr><td>a<td>b<tr><td>c</table>",
        "<p>para<div>block</div>",
        "line<br>break<br/></br>",
        r#"<a href="https://example.com">link</a>"#,
        r##"<a href="/relative?q=1#top">link</a><a href="#">top</a><a href="">here</a>"##,
        r#"<a href="mailto:a@example.com">mail</a> <a href="TEL:+4412345">call</a>"#,
        r#"<img src="x.png" srcset="a.png 1x, https://e.com/b.png 2x" alt="">"#,
        r#"<span style="color: red; font-weight: bold">x</span><!-- note -->"#,
        "<!-- only a comment -->",
        "<P>upper <B>case</B></P>",
        "<b>AT&amp;T &copy; &#169;</b>",
    ] {
        assert_eq!(classify(html), Kind::Html, "{html:?}");
        assert_eq!(check(html), Ok(()), "{html:?}");
    }
}

#[test]
fn malformed_html_is_named() {
    assert_eq!(malformed("<b>open"), "malformed HTML: <b> is not closed");
    assert_eq!(malformed("<b><i>x</b></i>"), "malformed HTML: </b> closes <i>");
    assert_eq!(malformed("</b>"), "malformed HTML: </b> has no opening tag");
    assert_eq!(malformed("<blink>x</blink>"), "malformed HTML: <blink> is not an HTML element allowed in item text");
    assert!(malformed("<!DOCTYPE html>").contains("<!DOCTYPE>"));
    assert!(malformed("<b>x</b> <!-- never closed").contains("comment is not closed"));
    assert!(malformed("<b>x</b><i").contains("not closed with '>'"));
    assert!(malformed("<b>x</b> y<z").contains("not closed with '>'"), "in HTML, write x&lt;y");
    assert!(malformed("<b>x</b><script").contains("not closed with '>'"), "a tag named 'script…', not script");
    assert!(malformed("<span/>x").contains("<span> is not closed"), "the slash does not close a span");
    assert!(malformed("<b>x</b><title>t</title>").contains("<title>"));
    assert!(malformed("<b>x</b><foo>y</foo>").contains("<foo> is not an HTML element allowed"));
}

#[test]
fn active_elements_are_rejected() {
    for text in [
        "<script>alert(1)</script>",
        "<SCRIPT>alert(1)</SCRIPT>",
        "<style>p{}</style>",
        "<iframe src=\"https://e.com\"></iframe>",
        "<object data=x></object>",
        "<embed src=x>",
        "<form><b>x</b></form>",
        "<svg><script>alert(1)</script></svg>",
        "<math><mi>x</mi></math>",
        "<!--><script>alert(1)</script>",
        "<p><textarea><script>x</script></textarea></p>",
        "x <script src=//evil.example/x.js ",
    ] {
        let err = active(text);
        assert!(err.contains("elements are not allowed"), "{text:?}: {err}");
    }
}

#[test]
fn event_handlers_are_rejected_in_any_tag() {
    for text in [
        "<img src=x onerror=alert(1)>",
        "<x onclick=alert(1)>",
        "<foo tabindex=1 autofocus onfocus=alert(1)>",
        "<b ONMOUSEOVER=\"alert(1)\">x</b>",
        "<b/onclick=alert(1)>x</b>",
        "x<y onclick=alert(1)",
        "x<y onclick='alert(1)",
        "x<y onclick=\"alert(1)",
        "x<y onclick=",
        "x<y onclick",
        "</b onclick=alert(1)>",
    ] {
        let err = active(text);
        assert!(err.contains("event-handler attribute"), "{text:?}: {err}");
    }
}

#[test]
fn encoded_dangerous_urls_are_rejected() {
    for text in [
        r#"<a href="javascript:alert(1)">x</a>"#,
        r#"<a href="&#106;avascript:alert(1)">x</a>"#,
        r#"<a href="&#x6A;avascript:alert(1)">x</a>"#,
        r#"<a href="&#X6a;avascript:alert(1)">x</a>"#,
        r#"<a href="&#0000106avascript:alert(1)">x</a>"#,
        r#"<a href="&#106avascript:alert(1)">x</a>"#,
        r#"<a href="javascript&colon;alert(1)">x</a>"#,
        r#"<a href="java&NewLine;script:alert(1)">x</a>"#,
        r#"<a href="java&Tab;script:alert(1)">x</a>"#,
        r#"<a href="java&#9;script:alert(1)">x</a>"#,
        "<a href=\"java\nscript:alert(1)\">x</a>",
        r#"<a href="JaVaScRiPt:alert(1)">x</a>"#,
        r#"<a href="  javascript:alert(1)">x</a>"#,
        r#"<a href="&#1;&#20; javascript:alert(1)">x</a>"#,
        "<a href=\"\u{1}\u{1f} javascript:alert(1)\">x</a>",
        "<a href=javascript:alert(1)>x</a>",
        "<a href=vbscript:msgbox(1)>x</a>",
        r#"<a href="data:text/html,<script>alert(1)</script>">x</a>"#,
        r#"<img src="data:image/svg+xml;base64,PHN2Zz4=">"#,
        r#"<img src="x.png" srcset="x.png 1x, data:image/png;base64,AAAA 2x">"#,
        r#"<img srcset="javascript:alert(1)">"#,
        r#"<img src="DaTa&colon;image/png,x">"#,
        r#"<table background="javascript:alert(1)"><tr><td>x</table>"#,
        r#"<q cite="javascript:x">q</q>"#,
        r#"<a href="ftp://example.com/file">x</a>"#,
        r#"<x href="javascript:alert(1)">"#,
        r#"x <a href="javascript:alert(1)"#,
    ] {
        let err = active(text);
        assert!(err.contains("must not use a"), "{text:?}: {err}");
    }
}

#[test]
fn dangerous_css_is_rejected() {
    for text in [
        r#"<span style="background:url(x)">x</span>"#,
        r#"<span style="background:URL(x)">x</span>"#,
        r#"<span style="background:\75 rl(x)">x</span>"#,
        r#"<span style="background:u\72 l(x)">x</span>"#,
        r#"<span style="background:&#117;rl(x)">x</span>"#,
        r#"<span style="width:expression(alert(1))">x</span>"#,
        r#"<span style="width:exp/**/ression(alert(1))">x</span>"#,
        r#"<span style="@import 'x.css'">x</span>"#,
        r#"<span style="x:java\73 cript:alert(1)">x</span>"#,
        r#"<x style="behavior: url(x.htc)">"#,
    ] {
        let err = active(text);
        assert!(err.contains("'style' must not use"), "{text:?}: {err}");
    }
}

#[test]
fn unclosed_quotes_and_odd_tokens() {
    // An unclosed quote swallows the rest: a browser drops the tag, and it is judged as if closed.
    assert_eq!(check(r#"<a href="https://e.com>x</a>"#), Ok(()));
    assert!(active(r#"<b>x</b><a href="javascript:alert(1)>x</a>"#).contains("javascript"));
    // `<scr<script>` is one unknown tag named "scr<script": no script element exists in a browser.
    assert_eq!(classify("<scr<script>ipt>alert(1)</script>"), Kind::Html, "the end tag names script");
    assert!(check("<scr<script>ipt>alert(1)</script>").is_err());
}
