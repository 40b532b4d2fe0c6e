//! Reduction to text: plain text stays literal, HTML becomes what a browser shows.

use std::ops::ControlFlow;

use canvas_html::{for_each_text, paragraphs, to_text, Text};

#[test]
fn html_becomes_plain_paragraphs() {
    let html = "<h1>Plan</h1><p>Ship <b>fast</b> &amp; safe</p><ul><li>one</li><li>two&#x21;</li></ul>";
    assert_eq!(paragraphs(html), ["Plan", "Ship fast & safe", "one", "two!"]);
    assert_eq!(
        paragraphs("<p>x<!-- hidden --></p><br>&bogus; y &ne z &copy z"),
        ["x", "&bogus; y &ne z \u{a9} z"],
        "only legacy names decode without ;"
    );
    assert_eq!(paragraphs("<p>line\none</p>"), ["line one"], "newlines inside HTML are spaces");
    assert_eq!(to_text("<b>AT&amp;T</b><br>x&lt;y"), "AT&T\nx<y");
}

#[test]
fn plain_text_is_literal() {
    assert_eq!(paragraphs("a < b\nc"), ["a < b", "c"], "plain text keeps '<' and newlines");
    assert_eq!(paragraphs("AT&amp;T  and\tx<y"), ["AT&amp;T and x<y"]);
    assert_eq!(to_text("AT&amp;T\nif x<y then swap"), "AT&amp;T\nif x<y then swap");
    assert_eq!(to_text("use <name>"), "use <name>");
}

#[test]
fn documents_drop_hidden_content_and_break_at_blocks() {
    let mut out = String::new();
    let doc = "<head><title>T</title><style>p{}</style></head><script>if (a<b) x()</script>\
               <p>one<textarea>typed</textarea></p><div>two</div><noscript>n</noscript>";
    for_each_text(doc, |piece| {
        match piece {
            Text::Chars(chars) => out.push_str(chars),
            Text::Break => out.push('|'),
        }
        ControlFlow::Continue(())
    });
    assert_eq!(out, "|onetyped||two|");
}

#[test]
fn a_reader_may_stop_early() {
    let mut seen = 0;
    for_each_text(&"<p>x</p>".repeat(100_000), |_| {
        seen += 1;
        if seen == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(seen, 3);
}

#[test]
fn input_larger_than_one_feed_reads_the_same() {
    // Markup and references straddling the tokenizer's 64 KiB feeds at every offset near the cut.
    for shift in 0..12 {
        let pad = "é".repeat(32 * 1024 - 6 + shift);
        let text = format!("<p>{pad}</p><!-- c --><p>a&amp;b&#x21;</p><p>é</p>");
        assert_eq!(paragraphs(&text), [pad.as_str(), "a&b!", "é"], "shift {shift}");
        assert_eq!(canvas_html::check(&text), Ok(()), "shift {shift}");
    }
}
