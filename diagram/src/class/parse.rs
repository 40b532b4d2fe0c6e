//! The class diagram parser, one statement per line (class bodies and
//! namespaces span lines), after Mermaid 11's `classDiagram.jison`: class
//! names with `.`, `-`, back-quotes and a `~generic~`; `class Name["label"]
//! :::style <<annotation>> { members }`; `Name : member`; `<<annotation>>
//! Name`; relations `A "1" <|-- "*" B : label` with every end mark;
//! `namespace Name { … }` (nested); `note for Name "text"` and `note
//! "text"`; `direction`. Styling (`classDef`, `style`, `cssClass "A,B"
//! name`, `:::name`) goes to the classes' boxes ([`crate::syntax::style_sheet`]);
//! interaction (`click`, `link`, `callback`) is read and ignored.

use std::collections::HashMap;

use super::members::{generics, member};
use super::{Class, ClassDiagram, Namespace, Note, RelEnd, Relation};
use crate::error::DiagramError;
use crate::graph::Direction;
use crate::source::{is_id_char, Cursor, Line};
use crate::{syntax, text};

/// Statements that only link a class: read, not drawn.
const IGNORED: &[&str] = &["click", "link", "callback"];

#[derive(Default)]
struct Parser {
    direction: Option<Direction>,
    classes: Vec<Class>,
    by_id: HashMap<String, usize>,
    relations: Vec<Relation>,
    namespaces: Vec<Namespace>,
    notes: Vec<Note>,
    /// Open namespaces: index, line and column of their `namespace`.
    open: Vec<(usize, usize, usize)>,
    interfaces: usize,
    styles: crate::syntax::style_sheet::Styles,
}

/// Parses a class diagram from its lines (the first is the header).
pub fn parse(lines: &[Line<'_>]) -> Result<ClassDiagram, DiagramError> {
    syntax::header(lines[0], &["classDiagram", "classDiagram-v2"])?;
    let mut p = Parser::default();
    let mut i = 1;
    while i < lines.len() {
        p.statement(lines, &mut i)?;
        i += 1;
    }
    if let Some(&(_, line, col)) = p.open.last() {
        return Err(DiagramError::new(line, col, "this namespace is not closed: expected `}`"));
    }
    for class in &mut p.classes {
        class.style = p.styles.node_style(&class.id);
    }
    Ok(ClassDiagram {
        direction: p.direction.unwrap_or(Direction::TopDown),
        classes: p.classes,
        relations: p.relations,
        namespaces: p.namespaces,
        notes: p.notes,
    })
}

impl Parser {
    fn statement(&mut self, lines: &[Line<'_>], i: &mut usize) -> Result<(), DiagramError> {
        let mut c = Cursor::new(lines[*i]);
        c.skip_ws();
        if let Some(direction) = syntax::direction(&c) {
            self.direction = Some(direction?);
            return Ok(());
        }
        if syntax::skipped(&c, lines, i)? {
            return Ok(());
        }
        if c.eat("}") {
            if self.open.pop().is_none() {
                return Err(c.error_at(c.col() - 1, "`}` without an open namespace"));
            }
            return rest_empty(&mut c);
        }
        let word = c.clone().take_while(|ch| ch.is_ascii_alphabetic());
        let spaced = c.peek_at(word.chars().count()).is_none_or(char::is_whitespace);
        match word.as_str() {
            "namespace" if spaced => self.namespace(&mut c),
            "class" if spaced => self.class_statement(&mut c, lines, i),
            "note" if spaced => self.note(&mut c),
            "classDef" | "style" if spaced => {
                c.eat(&word);
                self.styles.statement(&word, &mut c)
            }
            "cssClass" if spaced => self.css_class(&mut c),
            w if IGNORED.contains(&w) && spaced => Ok(()),
            _ if c.starts_with("<<") => {
                let annotation = annotation(&mut c)?;
                c.skip_ws();
                let (id, generic) = self.name_or_error(&mut c)?;
                let class = self.class(&id, generic);
                self.classes[class].annotations.push(annotation);
                rest_empty(&mut c)
            }
            _ => self.relation_or_member(&mut c),
        }
    }

    /// `cssClass "A,B" name`: classes A and B get style class `name`.
    fn css_class(&mut self, c: &mut Cursor) -> Result<(), DiagramError> {
        c.eat("cssClass");
        c.skip_ws();
        let ids = syntax::quoted(c)?;
        c.skip_ws();
        let names: Vec<String> =
            c.take_rest().split([',', ' ']).map(str::trim).filter(|n| !n.is_empty()).map(str::to_owned).collect();
        for id in ids.split(',').map(str::trim).filter(|id| !id.is_empty()) {
            self.styles.add_classes(id, names.clone());
        }
        Ok(())
    }

    fn namespace(&mut self, c: &mut Cursor) -> Result<(), DiagramError> {
        let col = c.col();
        c.eat("namespace");
        c.skip_ws();
        let (id, _) = self.name_or_error(c)?;
        let mut title = id.clone();
        c.skip_ws();
        if c.starts_with("[") {
            title = label(c)?;
            c.skip_ws();
        }
        if !c.eat("{") {
            return Err(c.error(format!("expected `{{` after the namespace name, found {}", c.token())));
        }
        // `A.B.C` nests C in B in A, each made on first use; a namespace opened again adds to the
        // first one, as Mermaid keys namespaces by name.
        let segments: Vec<&str> = id.split('.').collect();
        let mut parent = self.open.last().map(|o| o.0);
        let mut index = 0;
        for k in 0..segments.len() {
            let prefix = segments[..=k].join(".");
            index = match self.namespaces.iter().position(|n| n.id == prefix) {
                Some(index) => index,
                None => {
                    let shown = if k + 1 == segments.len() { title.as_str() } else { segments[k] };
                    let title = text::nonempty(text::clean(if shown == id { segments[k] } else { shown }));
                    self.namespaces.push(Namespace { id: prefix, title, parent });
                    self.namespaces.len() - 1
                }
            };
            parent = Some(index);
        }
        self.open.push((index, c.line, col));
        c.skip_ws();
        if c.eat("}") {
            self.open.pop();
        }
        rest_empty(c)
    }

    fn class_statement(&mut self, c: &mut Cursor, lines: &[Line<'_>], i: &mut usize) -> Result<(), DiagramError> {
        c.eat("class");
        c.skip_ws();
        let (id, generic) = self.name_or_error(c)?;
        let class = self.class(&id, generic.clone());
        // Declared inside a namespace: it belongs there (a later `class` line outside leaves it).
        if let Some(&(namespace, ..)) = self.open.last() {
            self.classes[class].namespace = Some(namespace);
        }
        loop {
            c.skip_ws();
            if c.starts_with("[") {
                let shown = label(c)?;
                let generic = generic.as_deref().map(|g| format!("~{g}~")).unwrap_or_default();
                self.classes[class].name = text::nonempty(generics(&format!("{shown}{generic}")));
            } else if c.eat(":::") {
                let name = c.take_while(|ch| is_id_char(ch) || ch == '-');
                self.styles.add_classes(&id, vec![name]);
            } else if c.starts_with("<<") {
                let annotation = annotation(c)?;
                self.classes[class].annotations.push(annotation);
            } else {
                break;
            }
        }
        if !c.starts_with("{") {
            return rest_empty(c);
        }
        let (open_line, open_col) = (c.line, c.col());
        c.bump();
        let mut current = c.clone();
        loop {
            let close = current.find("}");
            if let Some(open) = current.find("{").filter(|&o| close.is_none_or(|cl| o < cl)) {
                return Err(current.error_at(open + 1, "`{` inside a class body: close the body with `}` first"));
            }
            match close {
                Some(end) => {
                    let text = current.take_to(end);
                    self.add_member(class, &text);
                    current.bump();
                    return rest_empty(&mut current);
                }
                None => {
                    let text = current.take_rest();
                    self.add_member(class, &text);
                }
            }
            *i += 1;
            let Some(next) = lines.get(*i) else {
                return Err(DiagramError::new(open_line, open_col, "this class body is not closed: expected `}`"));
            };
            current = Cursor::new(*next);
        }
    }

    fn add_member(&mut self, class: usize, raw: &str) {
        let raw = raw.trim();
        if let Some(inner) = raw.strip_prefix("<<").and_then(|r| r.strip_suffix(">>")) {
            self.classes[class].annotations.push(text::clean(inner));
        } else if raw.find(')').is_some_and(|at| at > 0) {
            self.classes[class].methods.push(member(raw));
        } else if !raw.is_empty() {
            self.classes[class].attributes.push(member(raw));
        }
    }

    fn note(&mut self, c: &mut Cursor) -> Result<(), DiagramError> {
        c.eat("note");
        c.skip_ws();
        let mut class = None;
        if c.eat("for") {
            c.skip_ws();
            let (id, generic) = self.name_or_error(c)?;
            class = Some(self.class(&id, generic));
            c.skip_ws();
        }
        let raw = note_text(c)?;
        let namespace = self.open.last().map(|o| o.0);
        self.notes.push(Note { text: text::nonempty(text::clean(&syntax::escaped_breaks(&raw))), class, namespace });
        rest_empty(c)
    }

    fn relation_or_member(&mut self, c: &mut Cursor) -> Result<(), DiagramError> {
        let (first, first_generic) = self.name_or_error(c)?;
        c.skip_ws();
        if c.eat(":::") {
            // `A:::name` styles A; like Mermaid's `setCssClass`, it makes no class of its own.
            let _ = first_generic;
            let name = c.take_while(|ch| is_id_char(ch) || ch == '-');
            self.styles.add_classes(&first, vec![name]);
            return Ok(());
        }
        if c.eat(":") {
            let class = self.class(&first, first_generic);
            let raw = c.take_rest();
            self.add_member(class, &raw);
            return Ok(());
        }
        if c.eof() {
            // Mermaid draws nothing for a class name alone on a line.
            return Ok(());
        }
        let start_card = if c.starts_with("\"") { Some(syntax::quoted(c)?) } else { None };
        c.skip_ws();
        let col = c.col();
        let Some((start, dotted, end)) = relation(c) else {
            return Err(c.error_at(
                col,
                format!("expected a relation such as `-->`, `<|--` or `..>`, or `: member`; found {}", c.token()),
            ));
        };
        c.skip_ws();
        let end_card = if c.starts_with("\"") { Some(syntax::quoted(c)?) } else { None };
        c.skip_ws();
        let (second, second_generic) = self.name_or_error(c)?;
        c.skip_ws();
        let label = if c.eat(":") { Some(text::clean(&c.take_rest())).filter(|l| !l.is_empty()) } else { None };
        rest_empty(c)?;
        let (from, to) = match (start, end) {
            (RelEnd::Lollipop, RelEnd::None) => (self.interface(&first), self.class(&second, second_generic)),
            (RelEnd::None, RelEnd::Lollipop) => (self.class(&first, first_generic), self.interface(&second)),
            _ => (self.class(&first, first_generic), self.class(&second, second_generic)),
        };
        let card = |raw: Option<String>| raw.map(|r| text::clean(&r)).filter(|r| !r.is_empty());
        self.relations.push(Relation {
            from,
            to,
            start,
            end,
            dotted,
            label,
            start_card: card(start_card),
            end_card: card(end_card),
        });
        Ok(())
    }

    /// The class `id`, added on first mention.
    fn class(&mut self, id: &str, generic: Option<String>) -> usize {
        if let Some(&i) = self.by_id.get(id) {
            return i;
        }
        let generic = generic.map(|g| format!("~{g}~")).unwrap_or_default();
        self.classes.push(Class {
            id: id.to_owned(),
            name: text::nonempty(generics(&format!("{id}{generic}"))),
            annotations: Vec::new(),
            attributes: Vec::new(),
            methods: Vec::new(),
            namespace: None,
            lollipop: false,
            style: Default::default(),
        });
        self.by_id.insert(id.to_owned(), self.classes.len() - 1);
        self.classes.len() - 1
    }

    /// A new lollipop interface named `name` (each lollipop is its own, as in Mermaid).
    fn interface(&mut self, name: &str) -> usize {
        self.interfaces += 1;
        self.classes.push(Class {
            id: format!("interface{}", self.interfaces - 1),
            name: text::nonempty(generics(name)),
            annotations: Vec::new(),
            attributes: Vec::new(),
            methods: Vec::new(),
            namespace: None,
            lollipop: true,
            style: Default::default(),
        });
        self.classes.len() - 1
    }

    /// A class name at the cursor: its id and its generic (without the tildes).
    fn name_or_error(&self, c: &mut Cursor) -> Result<(String, Option<String>), DiagramError> {
        let col = c.col();
        let mut id = String::new();
        let mut generic = None;
        while let Some(ch) = c.peek() {
            let next = c.peek_at(1);
            if ch == '`' {
                c.bump();
                let Some(end) = c.find("`") else {
                    return Err(c.error_at(c.col() - 1, "unterminated `name`: expected a closing back-quote"));
                };
                id.push_str(&c.take_to(end));
                c.bump();
            } else if is_id_char(ch) || (matches!(ch, '-' | '.') && next.is_some_and(is_id_char) && !id.is_empty()) {
                id.push(ch);
                c.bump();
            } else if ch == '~' && !id.is_empty() && generic.is_none() {
                let at = c.col();
                c.bump();
                let Some(end) = c.find("~") else {
                    return Err(c.error_at(at, "unterminated generic: expected a closing `~`"));
                };
                generic = Some(c.take_to(end));
                c.bump();
            } else {
                break;
            }
        }
        if id.trim().is_empty() {
            return Err(c.error_at(col, format!("expected a class name, found {}", c.token())));
        }
        Ok((id, generic))
    }
}

/// A note's `"text"`: up to the last `"` of the line, so HTML with quoted attributes inside
/// (`"<a href='…' target="_blank">…</a>"`, which Mermaid accepts) stays whole.
fn note_text(c: &mut Cursor) -> Result<String, DiagramError> {
    let rest = c.rest();
    let last = rest.rfind('"').map(|at| rest[..at].chars().count());
    match last {
        Some(end) if c.peek() == Some('"') && end > 0 => {
            c.bump();
            let text = c.take_to(c.pos + end - 1);
            c.bump();
            Ok(text)
        }
        _ => syntax::quoted(c),
    }
}

/// `<<text>>` at the cursor, without its brackets.
fn annotation(c: &mut Cursor) -> Result<String, DiagramError> {
    let col = c.col();
    c.eat("<<");
    let Some(end) = c.find(">>") else {
        return Err(c.error_at(col, "unterminated annotation: expected `>>`"));
    };
    let text = c.take_to(end);
    c.eat(">>");
    Ok(text::clean(&text))
}

/// `["text"]` at the cursor: the text.
fn label(c: &mut Cursor) -> Result<String, DiagramError> {
    c.eat("[");
    c.skip_ws();
    let text = syntax::quoted(c)?;
    c.skip_ws();
    if !c.eat("]") {
        return Err(c.error(format!("expected `]` after the label, found {}", c.token())));
    }
    Ok(text)
}

/// A relation operator at the cursor: the start mark, dotted or not, the end mark.
fn relation(c: &mut Cursor) -> Option<(RelEnd, bool, RelEnd)> {
    let save = c.pos;
    let start = if c.eat("<|") {
        RelEnd::Inheritance
    } else if c.eat("()") {
        RelEnd::Lollipop
    } else if c.eat("<") {
        RelEnd::Arrow
    } else if c.eat("*") {
        RelEnd::Composition
    } else if c.starts_with("o--") || c.starts_with("o..") {
        c.bump();
        RelEnd::Aggregation
    } else {
        RelEnd::None
    };
    let dotted = if c.eat("--") {
        false
    } else if c.eat("..") {
        true
    } else {
        c.pos = save;
        return None;
    };
    let end = if c.eat("|>") {
        RelEnd::Inheritance
    } else if c.eat("()") {
        RelEnd::Lollipop
    } else if c.eat(">") {
        RelEnd::Arrow
    } else if c.eat("*") {
        RelEnd::Composition
    } else if c.peek() == Some('o') && c.peek_at(1).is_none_or(|n| n.is_whitespace() || n == '"') {
        c.bump();
        RelEnd::Aggregation
    } else {
        RelEnd::None
    };
    Some((start, dotted, end))
}

/// Nothing but white space may follow.
fn rest_empty(c: &mut Cursor) -> Result<(), DiagramError> {
    c.skip_ws();
    // A `%%` comment may end a line, as Mermaid's lexer skips it anywhere.
    if c.eof() || c.starts_with("%%") {
        Ok(())
    } else {
        Err(c.error(format!("unexpected {}: expected the end of the statement", c.token())))
    }
}
