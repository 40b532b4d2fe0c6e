//! Label and sticky-note text wrapped into lines.
//!
//! The paragraphs come from `canvas_html::paragraphs`, which classifies the
//! text exactly as core-service's rule does (plain text literally, HTML reduced
//! to its visible text). The renderer never trusts markup: what remains is
//! escaped again when written into the SVG, so no markup from a client ever
//! reaches the output as markup.
//!
//! Widths are estimated from per-character em widths of a sans-serif face
//! rather than measured with a font: the output must be identical on every
//! machine (golden tests, browsers and the PNG rasteriser all get the same
//! lines), and an estimate is close enough to wrap sensibly.

/// Estimated advance of one character, in em.
fn char_em(c: char) -> f64 {
    match c {
        ' ' | 'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '!' | '|' | 'I' => 0.28,
        'f' | 't' | 'r' | '(' | ')' | '-' | '[' | ']' | '"' => 0.36,
        'm' | 'w' | 'M' | 'W' | '@' => 0.85,
        c if c.is_ascii_uppercase() => 0.67,
        c if c.is_ascii() => 0.55,
        // CJK and other wide scripts take a full em.
        c if (c as u32) >= 0x1100 => 1.0,
        _ => 0.6,
    }
}

/// Estimated width of `text` at `font_size`.
pub fn width(text: &str, font_size: f64) -> f64 {
    text.chars().map(char_em).sum::<f64>() * font_size
}

/// Greedy word wrap of the paragraphs into lines no wider than `max_width`
/// (None: no wrapping). A word wider than the line is broken by characters.
pub fn wrap(paragraphs: &[String], font_size: f64, max_width: Option<f64>) -> Vec<String> {
    let Some(max_width) = max_width else { return paragraphs.to_vec() };
    let mut lines = Vec::new();
    for paragraph in paragraphs {
        let mut line = String::new();
        for word in paragraph.split(' ') {
            let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
            if width(&candidate, font_size) <= max_width {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            for c in word.chars() {
                if !line.is_empty() && width(&line, font_size) + char_em(c) * font_size > max_width {
                    lines.push(std::mem::take(&mut line));
                }
                line.push(c);
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_lines_inside_the_width() {
        let text = vec!["the quick brown fox jumps over the lazy dog".to_owned()];
        let lines = wrap(&text, 10.0, Some(80.0));
        assert!(lines.len() > 2, "{lines:?}");
        assert!(lines.iter().all(|l| width(l, 10.0) <= 80.0), "{lines:?}");
        assert_eq!(lines.join(" "), text[0]);
        let long = wrap(&["aaaaaaaaaaaaaaaaaaaa".to_owned()], 10.0, Some(30.0));
        assert!(long.len() > 1 && long.iter().all(|l| width(l, 10.0) <= 30.0), "{long:?}");
    }
}
