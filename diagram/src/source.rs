//! Reading Mermaid source: its lines (comments, directives and front matter
//! left out) and a character cursor over one line that knows its 1-based
//! line and column, so every error can point at the offending token.

use crate::error::DiagramError;

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

/// A cursor over the characters of one line, or of several lines joined by `\n` (see
/// [`Cursor::over`]), which knows the line and column of every position.
#[derive(Debug, Clone)]
pub struct Cursor {
    chars: Vec<char>,
    /// Index of the next character.
    pub pos: usize,
    /// 1-based line number (of the first line, for a cursor over several).
    pub line: usize,
    /// For a cursor over several lines: the index where each line starts.
    starts: Vec<usize>,
}

impl Cursor {
    /// A cursor at the start of `line`.
    pub fn new(line: Line<'_>) -> Cursor {
        Cursor { chars: line.text.chars().collect(), pos: 0, line: line.number, starts: Vec::new() }
    }

    /// A cursor over `lines` joined by `\n`, from the first line's number to the last; the
    /// numbers missing between them (comments, blank lines) are empty lines, so a statement or
    /// a string may run on across them and every position keeps its own line and column.
    pub fn over(lines: &[Line<'_>]) -> Cursor {
        let first = lines.first().map_or(1, |l| l.number);
        let mut chars = Vec::new();
        let mut starts = Vec::new();
        let mut next = first;
        for line in lines {
            while next <= line.number {
                if next > first {
                    chars.push('\n');
                }
                starts.push(chars.len());
                if next == line.number {
                    chars.extend(line.text.chars());
                }
                next += 1;
            }
        }
        if starts.is_empty() {
            starts.push(0);
        }
        Cursor { chars, pos: 0, line: first, starts }
    }

    /// 1-based line and column of the character at `pos`.
    pub fn place(&self, pos: usize) -> (usize, usize) {
        if self.starts.is_empty() {
            return (self.line, pos + 1);
        }
        let index = self.starts.partition_point(|&start| start <= pos).saturating_sub(1);
        (self.line + index, pos - self.starts[index] + 1)
    }

    /// An error at the character at `pos`.
    pub fn error_at_pos(&self, pos: usize, message: impl Into<String>) -> DiagramError {
        let (line, column) = self.place(pos);
        DiagramError::new(line, column, message)
    }

    /// Skips spaces and tabs, not line breaks.
    pub fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c.is_whitespace() && c != '\n') {
            self.pos += 1;
        }
    }

    /// Index of the end of the current line (its `\n`, or the end of the text).
    pub fn line_end(&self) -> usize {
        (self.pos..self.chars.len()).find(|&i| self.chars[i] == '\n').unwrap_or(self.chars.len())
    }

    /// Where `needle` next starts before `limit` (a character index).
    pub fn find_before(&self, needle: &str, limit: usize) -> Option<usize> {
        self.find(needle).filter(|&at| at + needle.chars().count() <= limit)
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
        self.place(self.pos).1
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
        let end = end.clamp(self.pos.min(self.chars.len()), self.chars.len());
        let text = self.chars[self.pos.min(end)..end].iter().collect();
        self.pos = end;
        text
    }

    /// An error at the next character.
    pub fn error(&self, message: impl Into<String>) -> DiagramError {
        self.error_at_pos(self.pos, message)
    }

    /// An error at column `col` of the current line.
    pub fn error_at(&self, col: usize, message: impl Into<String>) -> DiagramError {
        DiagramError::new(self.place(self.pos).0, col, message)
    }

    /// The token at the cursor, for messages ("unexpected 'x'").
    pub fn token(&self) -> String {
        let start = self.pos.min(self.chars.len());
        let word: String = self.chars[start..].iter().take_while(|c| !c.is_whitespace()).take(20).collect();
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

    #[test]
    fn a_cursor_over_lines_knows_each_place() {
        let lines = [Line { number: 2, text: "ab" }, Line { number: 4, text: "  cd" }];
        let mut cursor = Cursor::over(&lines);
        assert_eq!(cursor.find("cd"), Some(6));
        assert_eq!(cursor.place(6), (4, 3));
        assert_eq!(cursor.place(3), (3, 1), "the skipped line is empty");
        cursor.pos = 2;
        assert_eq!(cursor.line_end(), 2);
        cursor.skip_ws();
        assert_eq!(cursor.error("x").to_string(), "line 4, column 3: x");
    }
}
