//! The state diagram parser, one statement per line, after Mermaid 11's
//! `stateDiagram.jison` and `stateDb.ts`: states by id, `state "text" as id`,
//! `id : text` (a second text makes a box with a title and a body),
//! transitions `A --> B : label` with `[*]` as the start (as a source) or end
//! (as a target) of its scope, `state X <<choice>>` / `<<fork>>` / `<<join>>`
//! (or `[[…]]`), composite states `state X { … }` nested, `--` dividing one
//! into concurrent regions (each with its own `[*]`), notes `note left of X :
//! text` and multi-line ones closed by `end note`, `direction` at the top
//! level.
//!
//! As in Mermaid, a state belongs to the composite state it was last
//! mentioned in (a mention at the top level leaves it where it is).
//! `direction` inside a composite state sets its own. Styling (`classDef`,
//! `class`, `:::class`, `style`) goes to the states ([`crate::syntax::style_sheet`]).
//! Ignored: `click`, `hide empty description`, `scale`, floating notes
//! (`note "text" as N`, which Mermaid does not draw).

use std::collections::HashMap;

use super::{State, StateDiagram, StateKind, StateNote, Transition};
use crate::error::DiagramError;
use crate::graph::Direction;
use crate::source::{Cursor, Line};
use crate::{syntax, text};

#[derive(Default)]
struct Parser {
    direction: Option<Direction>,
    states: Vec<State>,
    by_id: HashMap<String, usize>,
    transitions: Vec<Transition>,
    notes: Vec<StateNote>,
    /// Open composite states: index, line and column of their `state`.
    open: Vec<(usize, usize, usize)>,
    styles: crate::syntax::style_sheet::Styles,
    /// The composite state or region statements go into.
    scope: Option<usize>,
    /// The start and end state of each scope.
    starts: HashMap<Option<usize>, usize>,
    ends: HashMap<Option<usize>, usize>,
}

/// Parses a state diagram from its lines (the first is the header).
pub fn parse(lines: &[Line<'_>]) -> Result<StateDiagram, DiagramError> {
    syntax::header(lines[0], &["stateDiagram", "stateDiagram-v2"])?;
    let mut p = Parser::default();
    let mut i = 1;
    while i < lines.len() {
        p.statement(lines, &mut i)?;
        i += 1;
    }
    if let Some(&(_, line, col)) = p.open.last() {
        return Err(DiagramError::new(line, col, "this composite state is not closed: expected `}`"));
    }
    let mut states = p.states;
    // A container is exactly a state that holds others: one written `state X { }` that ends up
    // holding nothing is drawn as a plain state (the layout lays transitions out to members).
    let holders: std::collections::HashSet<usize> = states.iter().filter_map(|s| s.parent).collect();
    for (i, state) in states.iter_mut().enumerate() {
        match (holders.contains(&i), state.kind) {
            (true, StateKind::Region) => {}
            (true, _) => state.kind = StateKind::Composite,
            (false, StateKind::Composite | StateKind::Region) => state.kind = StateKind::State,
            (false, _) => {}
        }
        state.style =
            if state.kind.is_container() { p.styles.group_style(&state.id) } else { p.styles.node_style(&state.id) };
    }
    Ok(StateDiagram {
        direction: p.direction.unwrap_or(Direction::TopDown),
        states,
        transitions: p.transitions,
        notes: p.notes,
    })
}

impl Parser {
    fn statement(&mut self, lines: &[Line<'_>], i: &mut usize) -> Result<(), DiagramError> {
        let mut c = Cursor::new(lines[*i]);
        c.skip_ws();
        if let Some(direction) = syntax::direction(&c) {
            let direction = direction?;
            match self.open.last() {
                Some(&(composite, ..)) => self.states[composite].direction = Some(direction),
                None => self.direction = Some(direction),
            }
            return Ok(());
        }
        if c.starts_with("accTitle") || c.starts_with("accDescr") {
            return syntax::skipped(&c, lines, i).map(|_| ());
        }
        let word = c.clone().take_while(|ch| ch.is_ascii_alphabetic());
        let spaced = c.peek_at(word.chars().count()).is_some_and(char::is_whitespace);
        match word.as_str() {
            "state" if spaced => self.state_statement(&mut c),
            "note" if spaced => self.note(&mut c, lines, i),
            "classDef" | "class" | "style" if spaced => {
                c.eat(&word);
                self.styles.statement(&word, &mut c)
            }
            "click" | "scale" if spaced => Ok(()),
            "hide" if c.rest().trim() == "hide empty description" => Ok(()),
            _ if c.eat("}") => {
                let Some((closed, ..)) = self.open.pop() else {
                    return Err(c.error_at(c.col() - 1, "`}` without an open composite state"));
                };
                self.scope = self.states[closed].parent;
                rest_empty(&mut c)
            }
            _ if c.rest().trim() == "--" => self.divide(&c),
            _ => self.transition_or_state(&mut c),
        }
    }

    /// `A`, `A : text`, `A --> B`, `A --> B : text`; Mermaid's grammar needs no line break between
    /// statements, so `A --> B C D` is a transition and two states, as Mermaid reads it.
    fn transition_or_state(&mut self, c: &mut Cursor) -> Result<(), DiagramError> {
        loop {
            self.one_statement(c)?;
            c.skip_ws();
            c.eat(";");
            c.skip_ws();
            if c.eof() || c.starts_with("%%") {
                return Ok(());
            }
        }
    }

    /// `:::name` after state `id`: the state gets style class `name`.
    fn style_class(&mut self, c: &mut Cursor, id: &str) {
        if c.eat(":::") {
            let name = c.take_while(|ch| ch.is_alphanumeric() || matches!(ch, '_' | '-'));
            self.styles.add_classes(id, vec![name]);
        }
    }

    fn one_statement(&mut self, c: &mut Cursor) -> Result<(), DiagramError> {
        let col = c.col();
        let first =
            id(c).ok_or_else(|| c.error_at(col, format!("expected a state or a transition, found {}", c.token())))?;
        self.style_class(c, &first);
        c.skip_ws();
        if c.eat("-->") {
            c.skip_ws();
            let at = c.col();
            let second =
                id(c).ok_or_else(|| c.error_at(at, format!("expected the target state, found {}", c.token())))?;
            self.style_class(c, &second);
            c.skip_ws();
            let label = if c.eat(":") { Some(text::clean(&c.take_rest())).filter(|t| !t.is_empty()) } else { None };
            let from = self.mention(&first, true);
            let to = self.mention(&second, false);
            self.transitions.push(Transition { from, to, label });
            return Ok(());
        }
        let state = self.mention(&first, true);
        if c.eat(":") {
            let description = text::clean(&c.take_rest());
            if !description.is_empty() && first != "[*]" {
                self.states[state].descriptions.push(description);
            }
        }
        Ok(())
    }

    /// `state …`: a long name, a pseudo state, or a composite state's opening.
    fn state_statement(&mut self, c: &mut Cursor) -> Result<(), DiagramError> {
        let (line, col) = (c.line, c.col());
        c.eat("state");
        c.skip_ws();
        let mut description = None;
        if c.starts_with("\"") {
            description = Some(syntax::quoted(c)?);
            c.skip_ws();
            if !c.eat("as") {
                return Err(c.error(format!("expected `as id` after the state's text, found {}", c.token())));
            }
            c.skip_ws();
        }
        let at = c.col();
        let name = id(c).ok_or_else(|| c.error_at(at, format!("expected a state id, found {}", c.token())))?;
        if name == "[*]" {
            return Err(c.error_at(at, "`[*]` cannot be declared with `state`"));
        }
        self.style_class(c, &name);
        c.skip_ws();
        let state = self.mention(&name, true);
        if let Some(d) = description.map(|d| text::clean(&d)).filter(|d| !d.is_empty()) {
            self.states[state].descriptions.insert(0, d);
        }
        for (open, close) in [("<<", ">>"), ("[[", "]]")] {
            if c.eat(open) {
                let kind = c.take_while(|ch| ch.is_ascii_alphabetic());
                if !c.eat(close) {
                    return Err(c.error(format!("expected `{close}`, found {}", c.token())));
                }
                self.states[state].kind = match kind.as_str() {
                    "choice" => StateKind::Choice,
                    "fork" => StateKind::Fork,
                    "join" => StateKind::Join,
                    _ => {
                        return Err(
                            c.error_at(at, format!("unknown `{open}{kind}{close}`: expected choice, fork or join"))
                        )
                    }
                };
                c.skip_ws();
            }
        }
        if c.eat("{") {
            self.open.push((state, line, col));
            self.scope = Some(state);
        } else if c.eat(":") {
            let d = text::clean(&c.take_rest());
            if !d.is_empty() {
                self.states[state].descriptions.push(d);
            }
        }
        rest_empty(c)
    }

    /// `note left of X : text`, or its text on the lines below up to `end note`.
    fn note(&mut self, c: &mut Cursor, lines: &[Line<'_>], i: &mut usize) -> Result<(), DiagramError> {
        let (line, col) = (c.line, c.col());
        c.eat("note");
        c.skip_ws();
        if c.starts_with("\"") {
            // `note "text" as N`: Mermaid reads a floating note and does not draw it.
            return Ok(());
        }
        let left = c.eat("left of");
        if !left && !c.eat("right of") {
            return Err(c.error(format!("expected `left of` or `right of`, found {}", c.token())));
        }
        c.skip_ws();
        let at = c.col();
        let name = id(c).ok_or_else(|| c.error_at(at, format!("expected the note's state, found {}", c.token())))?;
        let state = self.mention(&name, true);
        c.skip_ws();
        let mut text_lines = Vec::new();
        if c.eat(":") {
            text_lines.push(c.take_rest());
        } else {
            rest_empty(c)?;
            loop {
                *i += 1;
                let Some(next) = lines.get(*i) else {
                    return Err(DiagramError::new(line, col, "this note is not closed: expected `end note`"));
                };
                if next.text.trim_start().starts_with("end note") {
                    break;
                }
                text_lines.push(next.text.to_owned());
            }
        }
        let text = text::nonempty(text::clean(&text_lines.join("\n")));
        self.notes.push(StateNote { state, text, left });
        Ok(())
    }

    /// `--`: the composite state being read is divided into regions from here.
    fn divide(&mut self, c: &Cursor) -> Result<(), DiagramError> {
        let Some(&(composite, ..)) = self.open.last() else {
            return Err(c.error("`--` divides a composite state into regions: use it inside `state X { … }`"));
        };
        if self.scope == Some(composite) {
            // The first divider: what was read so far becomes the first region.
            let first = self.region(composite);
            for s in 0..self.states.len() {
                if self.states[s].parent == Some(composite) && s != first {
                    self.states[s].parent = Some(first);
                }
            }
            for terminals in [&mut self.starts, &mut self.ends] {
                if let Some(t) = terminals.remove(&Some(composite)) {
                    terminals.insert(Some(first), t);
                }
            }
        }
        let next = self.region(composite);
        self.scope = Some(next);
        Ok(())
    }

    fn region(&mut self, composite: usize) -> usize {
        let count = self.states.iter().filter(|s| s.parent == Some(composite) && s.kind == StateKind::Region).count();
        let id = format!("{}--region{count}", self.states[composite].id);
        self.states.push(State {
            id,
            descriptions: Vec::new(),
            kind: StateKind::Region,
            parent: Some(composite),
            direction: None,
            style: Default::default(),
        });
        self.states.len() - 1
    }

    /// The state `id` mentioned in the current scope: `[*]` is that scope's start (as a source) or
    /// end; a named state is added, or moved into the scope when that is a composite state.
    fn mention(&mut self, id: &str, source: bool) -> usize {
        let scope = self.scope;
        if id == "[*]" {
            let (terminals, kind) =
                if source { (&mut self.starts, StateKind::Start) } else { (&mut self.ends, StateKind::End) };
            if let Some(&t) = terminals.get(&scope) {
                return t;
            }
            self.states.push(State {
                id: id.to_owned(),
                descriptions: Vec::new(),
                kind,
                parent: scope,
                direction: None,
                style: Default::default(),
            });
            terminals.insert(scope, self.states.len() - 1);
            return self.states.len() - 1;
        }
        if let Some(&s) = self.by_id.get(id) {
            if let Some(inner) = scope.filter(|&inner| !self.inside(inner, s)) {
                self.states[s].parent = Some(inner);
            }
            return s;
        }
        self.states.push(State {
            id: id.to_owned(),
            descriptions: Vec::new(),
            kind: StateKind::State,
            parent: scope,
            direction: None,
            style: Default::default(),
        });
        self.by_id.insert(id.to_owned(), self.states.len() - 1);
        self.states.len() - 1
    }

    /// Whether `scope` is `state` or lies inside it (moving `state` there would make a cycle).
    fn inside(&self, scope: usize, state: usize) -> bool {
        let mut at = Some(scope);
        while let Some(s) = at {
            if s == state {
                return true;
            }
            at = self.states[s].parent;
        }
        false
    }
}

/// A state id at the cursor: `[*]`, or characters other than white space, `:`, `-`, `{`, `}`, `;`
/// (and up to a `%%` comment).
fn id(c: &mut Cursor) -> Option<String> {
    if c.eat("[*]") {
        return Some("[*]".into());
    }
    let mut id = String::new();
    while let Some(ch) = c.peek() {
        if ch.is_whitespace() || matches!(ch, ':' | '-' | '{' | '}' | ';') || (ch == '%' && c.peek_at(1) == Some('%')) {
            break;
        }
        id.push(ch);
        c.bump();
    }
    (!id.is_empty()).then_some(id)
}

/// Nothing but white space (or a `;`) may follow.
fn rest_empty(c: &mut Cursor) -> Result<(), DiagramError> {
    c.skip_ws();
    c.eat(";");
    c.skip_ws();
    // A `%%` comment may end a line, as Mermaid's lexer skips it anywhere.
    if c.eof() || c.starts_with("%%") {
        Ok(())
    } else {
        Err(c.error(format!("unexpected {}: expected the end of the statement", c.token())))
    }
}
