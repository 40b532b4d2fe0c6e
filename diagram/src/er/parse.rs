//! The ER diagram parser, after Mermaid 11's `erDiagram.jison`: entities
//! (bare or `"quoted"` names, an alias `p[Person]`, `:::style`) with an
//! attribute block `{ type name PK, FK "comment" … }` over one or more lines;
//! relationships `A ||--o{ B : role` with every cardinality in symbols
//! (`|o`, `||`, `}o`, `}|`, `o|`, `o{`, `|{`, `u`) or words (`one or more`,
//! `zero or many`, `many(1)`, `1+`, `only one`…), identifying `--` / `to` and
//! non-identifying `..`, `.-`, `-.`, `optionally to`; `direction`.
//! Styling (`classDef`, `class`, `:::a,b`, `style`) goes to the entities'
//! boxes ([`crate::syntax::style_sheet`]).

use std::collections::HashMap;

use super::{Attribute, Cardinality, Entity, ErDiagram, Relationship};
use crate::error::DiagramError;
use crate::graph::Direction;
use crate::source::{Cursor, Line};
use crate::{syntax, text};

/// Cardinalities in words, longest first (Mermaid reads them case-insensitively).
const WORDS: &[(&str, Cardinality)] = &[
    ("one or zero", Cardinality::ZeroOrOne),
    ("zero or one", Cardinality::ZeroOrOne),
    ("one or more", Cardinality::OneOrMore),
    ("one or many", Cardinality::OneOrMore),
    ("zero or more", Cardinality::ZeroOrMore),
    ("zero or many", Cardinality::ZeroOrMore),
    ("many(0)", Cardinality::ZeroOrMore),
    ("many(1)", Cardinality::OneOrMore),
    ("only one", Cardinality::ExactlyOne),
    ("many", Cardinality::ZeroOrMore),
    ("one", Cardinality::ExactlyOne),
    ("1+", Cardinality::OneOrMore),
    ("0+", Cardinality::ZeroOrMore),
    ("1", Cardinality::ExactlyOne),
];

/// Cardinalities in symbols.
const SYMBOLS: &[(&str, Cardinality)] = &[
    ("|o", Cardinality::ZeroOrOne),
    ("o|", Cardinality::ZeroOrOne),
    ("||", Cardinality::ExactlyOne),
    ("}o", Cardinality::ZeroOrMore),
    ("o{", Cardinality::ZeroOrMore),
    ("}|", Cardinality::OneOrMore),
    ("|{", Cardinality::OneOrMore),
];

/// Relationship lines: identifying or not.
const LINES: &[(&str, bool)] =
    &[("--", true), ("..", false), (".-", false), ("-.", false), ("optionally to", false), ("to", true)];

#[derive(Default)]
struct Parser {
    direction: Option<Direction>,
    entities: Vec<Entity>,
    by_id: HashMap<String, usize>,
    relationships: Vec<Relationship>,
    styles: crate::syntax::style_sheet::Styles,
}

/// Parses an ER diagram from its lines (the first is the header).
pub fn parse(lines: &[Line<'_>]) -> Result<ErDiagram, DiagramError> {
    syntax::header(lines[0], &["erDiagram"])?;
    let mut p = Parser::default();
    let mut i = 1;
    while i < lines.len() {
        p.statement(lines, &mut i)?;
        i += 1;
    }
    for entity in &mut p.entities {
        entity.style = p.styles.node_style(&entity.id);
    }
    Ok(ErDiagram {
        direction: p.direction.unwrap_or(Direction::TopDown),
        entities: p.entities,
        relationships: p.relationships,
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
        let word = c.clone().take_while(|ch| ch.is_ascii_alphabetic());
        let spaced = c.peek_at(word.chars().count()).is_some_and(char::is_whitespace);
        if spaced && matches!(word.as_str(), "classDef" | "class" | "style") {
            c.eat(&word);
            return self.styles.statement(&word, &mut c);
        }
        let first = self.entity_ref(&mut c)?;
        c.skip_ws();
        if c.eof() {
            return Ok(());
        }
        if c.starts_with("{") {
            return self.block(first, &mut c, lines, i);
        }
        let col = c.col();
        let Some(from_card) = cardinality(&mut c) else {
            return Err(c.error_at(
                col,
                format!("expected `{{`, a relationship such as `||--o{{`, or the end of the line; found {}", c.token()),
            ));
        };
        c.skip_ws();
        let Some(identifying) = line_kind(&mut c) else {
            return Err(c.error(format!("expected `--` or `..` after the cardinality, found {}", c.token())));
        };
        c.skip_ws();
        let Some(to_card) = cardinality(&mut c) else {
            return Err(c.error(format!("expected a cardinality such as `o{{` or `||`, found {}", c.token())));
        };
        c.skip_ws();
        let second = self.entity_ref(&mut c)?;
        c.skip_ws();
        if !c.eat(":") {
            return Err(c.error(format!("expected `: role` after the second entity, found {}", c.token())));
        }
        let raw = c.take_rest();
        let label = text::clean(raw.trim().trim_matches('"'));
        self.relationships.push(Relationship { from: first, to: second, from_card, to_card, identifying, label });
        Ok(())
    }

    /// An entity name (with its alias and style class), added on first mention.
    fn entity_ref(&mut self, c: &mut Cursor) -> Result<usize, DiagramError> {
        let col = c.col();
        let id = name(c)?.ok_or_else(|| c.error_at(col, format!("expected an entity name, found {}", c.token())))?;
        let mut alias = None;
        if c.eat("[") {
            c.skip_ws();
            let at = c.col();
            alias = Some(name(c)?.ok_or_else(|| c.error_at(at, "expected the alias inside `[ ]`"))?);
            c.skip_ws();
            if !c.eat("]") {
                return Err(c.error(format!("expected `]` after the alias, found {}", c.token())));
            }
        }
        let classes = if c.eat(":::") {
            let names = c.take_while(|ch| ch.is_alphanumeric() || matches!(ch, '_' | '-' | ','));
            names.split(',').filter(|n| !n.is_empty()).map(str::to_owned).collect()
        } else {
            Vec::new()
        };
        self.styles.add_classes(&id, classes);
        let index = match self.by_id.get(&id) {
            Some(&index) => index,
            None => {
                self.entities.push(Entity {
                    id: id.clone(),
                    title: text::nonempty(text::clean(&id)),
                    attributes: Vec::new(),
                    style: Default::default(),
                });
                self.by_id.insert(id, self.entities.len() - 1);
                self.entities.len() - 1
            }
        };
        if let Some(alias) = alias {
            self.entities[index].title = text::nonempty(text::clean(&alias));
        }
        Ok(index)
    }

    /// `{ attributes }`, from the `{` at the cursor to the `}` that closes it (maybe lines below).
    fn block(&mut self, entity: usize, c: &mut Cursor, lines: &[Line<'_>], i: &mut usize) -> Result<(), DiagramError> {
        let (open_line, open_col) = (c.line, c.col());
        c.bump();
        let mut current = c.clone();
        loop {
            let close = current.find("}");
            let end = close.unwrap_or(usize::MAX);
            self.attribute_line(entity, &mut current, end)?;
            if close.is_some() {
                current.bump();
                current.skip_ws();
                if !current.eof() {
                    return Err(current.error(format!("unexpected {} after `}}`", current.token())));
                }
                return Ok(());
            }
            *i += 1;
            let Some(next) = lines.get(*i) else {
                return Err(DiagramError::new(open_line, open_col, "this attribute block is not closed: expected `}`"));
            };
            current = Cursor::new(*next);
        }
    }

    /// The attributes on the rest of a line up to character `end`: `type name [keys] ["comment"]`.
    fn attribute_line(&mut self, entity: usize, c: &mut Cursor, end: usize) -> Result<(), DiagramError> {
        loop {
            c.skip_ws();
            if c.eof() || c.pos >= end {
                return Ok(());
            }
            let col = c.col();
            let kind = word(c, end);
            c.skip_ws();
            let name = word(c, end);
            if kind.is_empty() || name.is_empty() || kind.starts_with('"') || name.starts_with('"') {
                return Err(c.error_at(col, "expected an attribute: a type and a name, e.g. `string name PK`"));
            }
            let mut attribute = Attribute { kind: clean(&kind), name: clean(&name), keys: Vec::new(), comment: None };
            loop {
                c.skip_ws();
                let save = c.pos;
                let key = c.take_while(|ch| ch.is_ascii_alphabetic());
                if matches!(key.as_str(), "PK" | "FK" | "UK") && c.pos <= end {
                    attribute.keys.push(key);
                    c.skip_ws();
                    c.eat(",");
                    continue;
                }
                c.pos = save;
                break;
            }
            if c.starts_with("\"") && c.pos < end {
                let comment = syntax::quoted(c)?;
                attribute.comment = Some(text::clean(&comment)).filter(|t| !t.is_empty());
            }
            self.entities[entity].attributes.push(attribute);
        }
    }
}

/// A word of an attribute (up to white space, a quote or character `end`).
fn word(c: &mut Cursor, end: usize) -> String {
    let mut out = String::new();
    while let Some(ch) = c.peek() {
        if ch.is_whitespace() || c.pos >= end || (ch == '"' && !out.is_empty()) {
            break;
        }
        out.push(ch);
        c.bump();
    }
    out
}

/// An attribute word as shown: a generic's `~T~` as `<T>`.
fn clean(word: &str) -> String {
    crate::class::generics(word)
}

/// An entity name: `"quoted"` or letters, digits, `_`, `-`, `*`, `.` (not `--`, `..`).
fn name(c: &mut Cursor) -> Result<Option<String>, DiagramError> {
    if c.starts_with("\"") {
        return syntax::quoted(c).map(Some);
    }
    let mut out = String::new();
    while let Some(ch) = c.peek() {
        let next = c.peek_at(1);
        let joiner = matches!(ch, '-' | '.') && !next.is_some_and(|n| matches!(n, '-' | '.'));
        if ch.is_alphanumeric()
            || matches!(ch, '_' | '*')
            || (joiner && !out.is_empty())
            || !ch.is_ascii() && !ch.is_whitespace()
        {
            out.push(ch);
            c.bump();
        } else {
            break;
        }
    }
    Ok((!out.is_empty()).then_some(out))
}

/// A cardinality at the cursor, in symbols or words.
fn cardinality(c: &mut Cursor) -> Option<Cardinality> {
    for &(symbol, card) in SYMBOLS {
        if c.eat(symbol) {
            return Some(card);
        }
    }
    if c.peek() == Some('u') && c.peek_at(1).is_some_and(|n| matches!(n, '.' | '-' | '|')) {
        c.bump();
        return Some(Cardinality::Parent);
    }
    let rest = c.rest().to_lowercase();
    for &(word, card) in WORDS {
        let after = rest.chars().nth(word.chars().count());
        let bounded = after.is_none_or(|a| a.is_whitespace() || matches!(a, '-' | '.' | '"'));
        if rest.starts_with(word) && bounded {
            c.pos += word.chars().count();
            return Some(card);
        }
    }
    None
}

/// `--`, `..`, `.-`, `-.`, `to` or `optionally to` at the cursor: whether it is identifying.
fn line_kind(c: &mut Cursor) -> Option<bool> {
    let rest = c.rest().to_lowercase();
    LINES.iter().find(|(word, _)| rest.starts_with(word)).map(|&(word, identifying)| {
        c.pos += word.chars().count();
        identifying
    })
}
