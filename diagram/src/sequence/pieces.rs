//! A sequence diagram's source lines cut into statements as Mermaid's lexer cuts them: `;` ends a
//! statement, `#` (outside an entity code such as `#59;`) and `%%` start a comment that runs to
//! the end of the line.

use crate::source::Line;
use crate::text::entities;

/// One statement: its line number, and the line's text with everything outside the statement
/// blanked to spaces, so a cursor over it reports the columns of the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// 1-based line number.
    pub number: usize,
    /// The statement, at its columns.
    pub text: String,
}

impl Piece {}

/// The statements of one line, in order (blank ones left out).
pub fn split(line: Line<'_>) -> Vec<Piece> {
    let chars: Vec<char> = line.text.chars().collect();
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let mut push = |from: usize, to: usize| {
        let text: String = (0..to).map(|k| if k < from { ' ' } else { chars[k] }).collect();
        if !text.trim().is_empty() {
            pieces.push(Piece { number: line.number, text });
        }
    };
    while i < chars.len() {
        match chars[i] {
            '#' => match entities::code_end(&chars, i) {
                Some(end) => {
                    i = end;
                    continue;
                }
                None => break,
            },
            '%' if chars.get(i + 1) == Some(&'%') && chars.get(i + 2) != Some(&'{') => break,
            ';' => {
                push(start, i);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    push(start, i.min(chars.len()));
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str) -> Vec<String> {
        split(Line { number: 4, text }).into_iter().map(|p| p.text).collect()
    }

    #[test]
    fn semicolons_split_and_comments_end_the_line() {
        assert_eq!(texts("A->>B: hi; B->>A: yo"), ["A->>B: hi", "           B->>A: yo"], "at their columns");
        assert_eq!(texts("A->>B: a#59; b # note"), ["A->>B: a#59; b "]);
        assert_eq!(texts("A->>B: x %% later"), ["A->>B: x "]);
        assert_eq!(texts(";;  ;"), Vec::<String>::new());
        assert_eq!(split(Line { number: 4, text: "x" })[0].number, 4);
    }
}
