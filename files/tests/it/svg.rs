//! `sanitize_svg` against hostile input.

use canvas_files::{extract_text, sanitize_svg};

const MALICIOUS: &str = r##"<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet href="https://evil.test/sheet.css"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
     width="200" height="100" onload="alert('load')" inkscape:version="1.3">
  <title>Quarterly chart</title>
  <desc>Revenue bars</desc>
  <script type="text/javascript">alert('script')</script>
  <script xlink:href="https://evil.test/payload.js"/>
  <style>@import url(https://evil.test/import.css);
    rect { fill: url(https://evil.test/paint.svg#p); stroke: url(#grad) }
    .t { font-family: 'Open Sans'; background: u\72l(//evil.test/escaped.png) }</style>
  <defs><linearGradient id="grad"><stop offset="0" stop-color="#f00"/></linearGradient></defs>
  <a href="javascript:alert('a')" xlink:href="JaVaScRiPt:alert('b')">
    <rect id="bar1" x="10" y="10" width="30" height="80" fill="url(#grad)" onclick="alert('click')"
          style="stroke:url('https://evil.test/stroke.png');stroke-width:2"/>
  </a>
  <image xlink:href="https://evil.test/tracker.png" width="5" height="5"/>
  <image href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==" width="5" height="5"/>
  <image href="data:image/png;base64,iVBORw0KGgo=" width="6" height="6"/>
  <use xlink:href="https://evil.test/sprite.svg#icon"/>
  <use href="#bar1" x="40"/>
  <foreignObject width="100" height="100"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.test/frame"></iframe>html content</div></foreignObject>
  <set attributeName="href" to="javascript:alert('set')" begin="0s"/>
  <animate attributeName="href" values="javascript:alert('animate')"/>
  <text x="10" y="95" class="t">Revenue <tspan font-weight="bold">2024</tspan></text>
  <!-- a comment that should not survive -->
</svg>"##;

fn sanitized(input: &str) -> String {
    String::from_utf8(sanitize_svg(input.as_bytes()).expect("sanitize")).expect("utf-8 output")
}

#[test]
fn malicious_svg_loses_every_active_or_external_part() {
    let out = sanitized(MALICIOUS);
    let lower = out.to_ascii_lowercase();
    for banned in [
        "script",
        "onload",
        "onclick",
        "javascript",
        "evil.test",
        "foreignobject",
        "iframe",
        "@import",
        "<set",
        "<animate",
        "html content",
        "xml-stylesheet",
        "inkscape",
        "comment",
        "data:text/html",
    ] {
        assert!(!lower.contains(banned), "{banned:?} survived in:\n{out}");
    }
    for kept in [
        "<title>Quarterly chart</title>",
        "<desc>Revenue bars</desc>",
        r#"<rect id="bar1" x="10" y="10" width="30" height="80" fill="url(#grad)""#,
        "stroke-width:2",
        "stroke: url(#grad)",
        "font-family: 'Open Sans'",
        r##"<use href="#bar1" x="40"/>"##,
        "data:image/png;base64,iVBORw0KGgo=",
        r#"<text x="10" y="95" class="t">Revenue <tspan font-weight="bold">2024</tspan></text>"#,
        r##"<stop offset="0" stop-color="#f00"/>"##,
        r#"width="200" height="100""#,
    ] {
        assert!(out.contains(kept), "{kept:?} missing from:\n{out}");
    }
}

#[test]
fn sanitised_output_is_svg_and_stable() {
    let once = sanitize_svg(MALICIOUS.as_bytes()).expect("first pass");
    let twice = sanitize_svg(&once).expect("second pass");
    assert_eq!(once, twice, "sanitising is idempotent");
    let text = extract_text(&once, "image/svg+xml").expect("text of the output");
    assert_eq!(text, "Quarterly chart\nRevenue bars\nRevenue 2024");
}

#[test]
fn entity_declarations_are_refused() {
    let xxe = r#"<?xml version="1.0"?>
<!DOCTYPE svg [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<svg xmlns="http://www.w3.org/2000/svg"><text>&xxe;</text><rect width="1" height="1"/></svg>"#;
    let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE svg [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<svg xmlns="http://www.w3.org/2000/svg"><text>&lol3;</text></svg>"#;
    let parameter = r#"<!DOCTYPE svg [ <!entity % remote SYSTEM "https://evil.test/x.dtd"> %remote; ]><svg/>"#;
    for input in [xxe, laughs, parameter] {
        let error = sanitize_svg(input.as_bytes()).expect_err("entities must be refused");
        assert!(error.contains("entities"), "{error}");
    }
}

#[test]
fn a_plain_svg_doctype_is_accepted_and_dropped() {
    let input = r#"<?xml version="1.0" standalone="no"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg width="4" height="4"><circle cx="2" cy="2" r="1"/></svg>"#;
    let out = sanitized(input);
    assert!(!out.contains("DOCTYPE"), "{out}");
    // A file without xmlns is read as SVG and written with the SVG namespace.
    assert!(out.contains(r#"<svg xmlns="http://www.w3.org/2000/svg""#), "{out}");
    assert!(out.contains(r#"<circle cx="2" cy="2" r="1"/>"#), "{out}");
}

#[test]
fn invalid_xml_and_other_roots_are_errors() {
    assert!(sanitize_svg(b"<svg><rect></svg>").is_err());
    assert!(sanitize_svg(b"not xml at all").is_err());
    assert!(sanitize_svg(b"").is_err());
    assert!(sanitize_svg(b"\xff\xfe<\x00s\x00").is_err());
    let html = sanitize_svg(br#"<html xmlns="http://www.w3.org/1999/xhtml"><svg/></html>"#).expect_err("root");
    assert!(html.contains("not <svg>"), "{html}");
    let foreign = sanitize_svg(br#"<svg xmlns="urn:not-svg"/>"#).expect_err("namespace");
    assert!(foreign.contains("not <svg>"), "{foreign}");
}

#[test]
fn deep_nesting_is_refused() {
    let depth = 600;
    let input =
        format!(r#"<svg xmlns="http://www.w3.org/2000/svg">{}{}</svg>"#, "<g>".repeat(depth), "</g>".repeat(depth));
    let error = sanitize_svg(input.as_bytes()).expect_err("too deep");
    assert!(error.contains("deeper"), "{error}");
}
