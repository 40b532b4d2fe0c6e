//! The read state diagram written as Mermaid, in an order that gives the states and transitions
//! back in the order the map holds them (the layout follows that order, so an unedited map reads
//! back as text that draws it again exactly).
//!
//! Mermaid puts a state in the composite state it was last mentioned in, and `[*]` means the start
//! or end of the scope it is written in, so where a statement goes matters: a transition with a
//! dot is written in the dot's scope, one between two states of one scope in that scope, any other
//! at the top level (where a mention moves nothing). Within a scope, statements follow the map's
//! order of states: the next transition in connector order that mentions no state before its
//! turn, else the next state declared (or the composite state holding it written as a block).

use std::fmt::Write;

use super::read::Drawn;
use crate::export::text::{mermaid, Place};
use crate::state::StateKind as Kind;

/// A text as the rest of a line: entity codes for what could end it or start a comment.
pub(super) fn line_text(text: &str) -> String {
    mermaid(text, Place::Line, false).replace('%', "#37;")
}

pub(super) struct Writer<'d> {
    d: &'d Drawn,
    /// Per transition: the scope it is written in (None: the top), or dropped (`Err`).
    home: Vec<Result<Option<usize>, ()>>,
    mentioned: Vec<bool>,
    written: Vec<bool>,
    out: String,
}

impl<'d> Writer<'d> {
    pub fn new(d: &'d Drawn) -> Writer<'d> {
        let home = d.transitions.iter().map(|t| home(d, t.from, t.to)).collect();
        let n = d.states.len();
        Writer { d, home, mentioned: vec![false; n], written: vec![false; d.transitions.len()], out: String::new() }
    }

    /// The statements of the whole diagram (the top scope, then the notes).
    pub fn finish(mut self) -> String {
        self.body(None, 1);
        let d = self.d;
        for note in &d.notes {
            let side = if note.left { "left" } else { "right" };
            let id = &d.states[note.state].id;
            // Mermaid's one-line note ends its text at a second `:` (`note right of S : a: b` is
            // refused, by mermaid.parse itself: diagram/tests/corpus_export.rs), so a note's colons
            // are written as the entity code Mermaid and this crate read back as `:`.
            let text = line_text(&note.text).replace(':', "#58;");
            let _ = writeln!(self.out, "    note {side} of {id} : {text}");
        }
        self.out
    }

    fn members(&self, scope: Option<usize>) -> Vec<usize> {
        (0..self.d.states.len()).filter(|&s| self.d.states[s].scope == scope).collect()
    }

    /// Whether state `s` lies in `scope` (or deeper).
    fn under(&self, s: usize, scope: Option<usize>) -> bool {
        let Some(scope) = scope else { return true };
        let mut at = self.d.states[s].scope;
        while let Some(p) = at {
            if p == scope {
                return true;
            }
            at = self.d.states[p].scope;
        }
        false
    }

    /// The states a transition mentions that are not containers, in the order it mentions them.
    fn leaves_of(&self, t: usize) -> Vec<usize> {
        let t = &self.d.transitions[t];
        let mut out: Vec<usize> =
            [t.from, t.to].into_iter().filter(|&s| !self.d.states[s].kind.is_container()).collect();
        out.dedup();
        out
    }

    /// Writes the statements of `scope` at `depth`.
    fn body(&mut self, scope: Option<usize>, depth: usize) {
        let d = self.d;
        // A composite's regions are written after it, one by one, not as blocks.
        let target: Vec<usize> = (0..d.states.len())
            .filter(|&s| !d.states[s].kind.is_container() && self.under(s, scope))
            .filter(|&s| d.states[s].scope == scope || d.states[self.child_holding(s, scope)].kind != Kind::Region)
            .collect();
        let mine: Vec<usize> = (0..d.transitions.len()).filter(|&t| self.home[t] == Ok(scope)).collect();
        let mut declared = vec![false; d.states.len()];
        loop {
            let waiting: Vec<usize> = target.iter().copied().filter(|&s| !self.mentioned[s]).collect();
            if let Some(t) = self.next_transition(&mine, &waiting) {
                self.transition(t, depth);
                continue;
            }
            let Some(&next) = waiting.first() else { break };
            if d.states[next].scope == scope {
                if d.states[next].kind == Kind::End {
                    // An end cannot be written alone: the first transition into it brings it.
                    match mine.iter().find(|&&t| !self.written[t] && self.leaves_of(t).contains(&next)) {
                        Some(&t) => self.transition(t, depth),
                        None => self.mentioned[next] = true,
                    }
                } else {
                    declared[next] = true;
                    self.declare(next, depth);
                }
            } else {
                let block = self.child_holding(next, scope);
                declared[block] = true;
                self.block(block, depth);
            }
        }
        // What no order asked for: transitions left (none, normally), blocks whose states were all
        // mentioned elsewhere, and the kinds and texts of states first mentioned by a transition.
        for t in mine {
            if !self.written[t] {
                self.transition(t, depth);
            }
        }
        for s in self.members(scope) {
            if declared[s] || d.states[s].kind == Kind::Region {
                continue;
            }
            if d.states[s].kind == Kind::Composite {
                self.block(s, depth);
            } else if !d.states[s].kind.is_dot() && (d.states[s].kind != Kind::State || !d.states[s].texts.is_empty()) {
                self.declare(s, depth);
            }
        }
    }

    /// The transition to write next among `mine`: one that mentions no state before its turn
    /// (`waiting` is the states not mentioned yet, in the map's order), written after those of its
    /// group and after the labelled ones whose labels come first on the map; of those, one from
    /// the state that comes first on the map (writers go through the states in turn), one that
    /// brings a new state, then the map's order. When none is in order (an edited map), the first that mentions none too early.
    fn next_transition(&self, mine: &[usize], waiting: &[usize]) -> Option<usize> {
        let d = self.d;
        let open: Vec<usize> = mine.iter().copied().filter(|&t| !self.written[t]).collect();
        // Composite states of one depth are on the map in the order they were first mentioned.
        let depth = |mut s: usize| {
            let mut depth = 0;
            while let Some(p) = d.states[s].scope {
                depth += 1;
                s = p;
            }
            depth
        };
        let container_in_turn =
            |c: usize| (0..c).all(|o| self.mentioned[o] || d.states[o].kind != Kind::Composite || depth(o) != depth(c));
        let fits = |t: usize| {
            let new: Vec<usize> = self.leaves_of(t).into_iter().filter(|&s| !self.mentioned[s]).collect();
            let tr = &d.transitions[t];
            let containers = [tr.from, tr.to].into_iter().filter(|&s| d.states[s].kind == Kind::Composite);
            waiting.starts_with(&new) && containers.filter(|&c| !self.mentioned[c]).all(container_in_turn)
        };
        let in_order = |t: usize| {
            let tr = &d.transitions[t];
            open.iter().all(|&o| {
                let other = &d.transitions[o];
                let group_first = o < t && other.group == tr.group;
                let label_first = matches!((other.label_item, tr.label_item), (Some(a), Some(b)) if a < b);
                !(group_first || label_first)
            })
        };
        // A composite state comes where its first state does (containers come first on the map).
        let place = |s: usize| {
            let inner = (0..d.states.len()).find(|&i| !d.states[i].kind.is_container() && self.under(i, Some(s)));
            if d.states[s].kind.is_container() {
                inner.unwrap_or(s)
            } else {
                s
            }
        };
        let brings_none = |t: usize| self.leaves_of(t).into_iter().all(|s| self.mentioned[s]);
        let best = open
            .iter()
            .copied()
            .filter(|&t| in_order(t) && fits(t))
            .min_by_key(|&t| (place(d.transitions[t].from), brings_none(t), t));
        best.or_else(|| open.iter().copied().find(|&t| fits(t)))
    }

    /// The member of `scope` that holds `s`.
    fn child_holding(&self, s: usize, scope: Option<usize>) -> usize {
        let mut at = s;
        while let Some(p) = self.d.states[at].scope {
            if Some(p) == scope {
                return at;
            }
            at = p;
        }
        at
    }

    fn indent(depth: usize) -> String {
        "    ".repeat(depth)
    }

    fn declare(&mut self, s: usize, depth: usize) {
        let state = &self.d.states[s];
        let indent = Self::indent(depth);
        self.mentioned[s] = true;
        let id = &state.id;
        match state.kind {
            Kind::Start => {
                let _ = writeln!(self.out, "{indent}[*]");
            }
            Kind::Choice | Kind::Fork | Kind::Join => {
                let kind = match state.kind {
                    Kind::Choice => "choice",
                    Kind::Fork => "fork",
                    _ => "join",
                };
                let _ = writeln!(self.out, "{indent}state {id} <<{kind}>>");
            }
            _ if state.texts.is_empty() => {
                let _ = writeln!(self.out, "{indent}{id}");
            }
            _ => {}
        }
        for text in &state.texts {
            let _ = writeln!(self.out, "{indent}{id} : {}", line_text(text));
        }
    }

    /// A composite state: its title, then `state X { … }` with its regions divided by `--`.
    fn block(&mut self, c: usize, depth: usize) {
        let state = &self.d.states[c];
        let indent = Self::indent(depth);
        for text in &state.texts {
            let _ = writeln!(self.out, "{indent}{} : {}", state.id, line_text(text));
        }
        let _ = writeln!(self.out, "{indent}state {} {{", state.id);
        self.mentioned[c] = true;
        let regions: Vec<usize> =
            self.members(Some(c)).into_iter().filter(|&r| self.d.states[r].kind == Kind::Region).collect();
        // States held by the composite itself (beside its regions) go first: Mermaid puts them in
        // the first region.
        self.body(Some(c), depth + 1);
        for (k, &r) in regions.iter().enumerate() {
            if k > 0 {
                let _ = writeln!(self.out, "{}--", Self::indent(depth + 1));
            }
            self.body(Some(r), depth + 1);
        }
        let _ = writeln!(self.out, "{indent}}}");
    }

    fn transition(&mut self, t: usize, depth: usize) {
        self.written[t] = true;
        let tr = &self.d.transitions[t];
        let name = |s: usize| {
            let state = &self.d.states[s];
            if state.kind.is_dot() {
                "[*]".to_owned()
            } else {
                state.id.clone()
            }
        };
        let (from, to) = (name(tr.from), name(tr.to));
        let indent = Self::indent(depth);
        match &tr.label {
            Some(label) => {
                let _ = writeln!(self.out, "{indent}{from} --> {to} : {}", line_text(label));
            }
            None => {
                let _ = writeln!(self.out, "{indent}{from} --> {to}");
            }
        }
        self.mentioned[tr.from] = true;
        self.mentioned[tr.to] = true;
    }
}

/// Where a transition is written: in its dot's scope (a start only as the source, an end only as
/// the target, and the other end in that scope or holding it), in the scope of both its ends, or
/// at the top level. `Err` when Mermaid cannot say it (a dot of another scope, a start as target).
fn home(d: &Drawn, from: usize, to: usize) -> Result<Option<usize>, ()> {
    let (a, b) = (&d.states[from], &d.states[to]);
    if a.kind == Kind::End || b.kind == Kind::Start {
        return Err(());
    }
    let holds = |outer: usize, mut scope: Option<usize>| {
        while let Some(s) = scope {
            if s == outer {
                return true;
            }
            scope = d.states[s].scope;
        }
        false
    };
    let dot = match (a.kind.is_dot(), b.kind.is_dot()) {
        (true, true) => return if a.scope == b.scope { Ok(a.scope) } else { Err(()) },
        (true, false) => Some((a.scope, to)),
        (false, true) => Some((b.scope, from)),
        (false, false) => None,
    };
    match dot {
        Some((scope, other)) if d.states[other].scope == scope || holds(other, scope) => Ok(scope),
        Some(_) => Err(()),
        None if a.scope == b.scope => Ok(a.scope),
        None => Ok(None),
    }
}
