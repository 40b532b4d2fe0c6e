//! Reading Mermaid source: its lines (comments, directives and front matter
//! left out) and a character cursor over one line that knows its 1-based
//! line and column, so every error can point at the offending token.

use crate::DiagramError;

/// One line of source that may hold statements.
#[derive(Debug, Clone, Copy)]
pub struct Line<'a> {
    /// 1-based line number.
    pub number: usize,
    /// The line as written (no line break).
    pub text: &'a str,
}

impl Line<'_> {
    /// Width of the leading white space, a tab counting as four.
    pub fn indent(&self) -> usize {
        self.text.chars().take_while(|c| c.is_whitespace()).map(|c| if c == '\t' { 4 } else { 1 }).sum()
    }
}

/// The lines of `source` that may hold statements: blank lines, `%%`
/// comments, `%%{init}%%` directives and a leading `---` front matter block
/// are skipped (Mermaid gives them no meaning for the drawing).
pub fn lines(source: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut in_front_matter = false;
    let mut seen_content = false;
    for (index, text) in source.split('\n').enumerate() {
        let text = text.strip_suffix('\r').unwrap_or(text);
        let trimmed = text.trim();
        if !seen_content && trimmed == "---" {
            in_front_matter = !in_front_matter;
            continue;
        }
        if in_front_matter || trimmed.is_empty() || trimmed.starts_with("%%") {
            continue;
        }
        seen_content = true;
        out.push(Line { number: index + 1, text });
    }
    out
}

/// A cursor over the characters of one line.
#[derive(Debug, Clone)]
pub struct Cursor {
    chars: Vec<char>,
    /// Index of the next character.
    pub pos: usize,
    /// 1-based line number.
    pub line: usize,
}

impl Cursor {
    /// A cursor at the start of `line`.
    pub fn new(line: Line<'_>) -> Cursor {
        Cursor { chars: line.text.chars().collect(), pos: 0, line: line.number }
    }

    /// The next character.
    pub fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    /// The character `n` places ahead.
    pub fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.pos + n).copied()
    }

    /// Takes the next character.
    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    /// Whether the line is used up.
    pub fn eof(&self) -> bool {
        self.pos >= self.chars.len()
    }

    /// 1-based column of the next character.
    pub fn col(&self) -> usize {
        self.pos + 1
    }

    /// Skips spaces and tabs.
    pub fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    /// Whether the rest of the line starts with `text`.
    pub fn starts_with(&self, text: &str) -> bool {
        (self.pos..).zip(text.chars()).all(|(i, c)| self.chars.get(i) == Some(&c))
    }

    /// Takes `text` if the rest of the line starts with it.
    pub fn eat(&mut self, text: &str) -> bool {
        let found = self.starts_with(text);
        if found {
            self.pos += text.chars().count();
        }
        found
    }

    /// Takes characters while `keep` holds.
    pub fn take_while(&mut self, keep: impl Fn(char) -> bool) -> String {
        let start = self.pos;
        while self.peek().is_some_and(&keep) {
            self.pos += 1;
        }
        self.chars[start..self.pos].iter().collect()
    }

    /// The rest of the line (not taken).
    pub fn rest(&self) -> String {
        self.chars[self.pos.min(self.chars.len())..].iter().collect()
    }

    /// Takes the rest of the line.
    pub fn take_rest(&mut self) -> String {
        let rest = self.rest();
        self.pos = self.chars.len();
        rest
    }

    /// Where `needle` next starts (a character index), from the cursor on.
    pub fn find(&self, needle: &str) -> Option<usize> {
        let needle: Vec<char> = needle.chars().collect();
        (self.pos..self.chars.len()).find(|&i| self.chars[i..].starts_with(&needle))
    }

    /// The characters from the cursor up to `end` (an index), taken.
    pub fn take_to(&mut self, end: usize) -> String {
        let text = self.chars[self.pos..end].iter().collect();
        self.pos = end;
        text
    }

    /// An error at the next character.
    pub fn error(&self, message: impl Into<String>) -> DiagramError {
        self.error_at(self.col(), message)
    }

    /// An error at column `col` of this line.
    pub fn error_at(&self, col: usize, message: impl Into<String>) -> DiagramError {
        DiagramError::new(self.line, col, message)
    }

    /// The token at the cursor, for messages ("unexpected 'x'").
    pub fn token(&self) -> String {
        let word: String = self.chars[self.pos..].iter().take_while(|c| !c.is_whitespace()).take(20).collect();
        if word.is_empty() {
            "end of line".into()
        } else {
            format!("'{word}'")
        }
    }
}

/// Whether `c` may be part of an id.
pub fn is_id_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_directives_and_front_matter_are_skipped() {
        let source = "---\ntitle: x\n---\n%%{init: {}}%%\nflowchart\n  %% note\n\n  A\r\n";
        let kept: Vec<(usize, &str)> = lines(source).iter().map(|l| (l.number, l.text)).collect();
        assert_eq!(kept, [(5, "flowchart"), (8, "  A")]);
    }

    #[test]
    fn the_cursor_reports_columns_of_characters() {
        let line = Line { number: 3, text: "ab  [é]" };
        let mut cursor = Cursor::new(line);
        assert_eq!(cursor.take_while(is_id_char), "ab");
        cursor.skip_ws();
        assert_eq!((cursor.col(), cursor.peek()), (5, Some('[')));
        assert_eq!(cursor.find("]"), Some(6));
        assert_eq!(cursor.error("x").to_string(), "line 3, column 5: x");
        assert_eq!(line.indent(), 0);
    }
}
