//! The shown diagram written as `classDiagram` source, in an order that makes the parser build
//! the same model: classes in the map's order (a lollipop interface is made by its relation, so
//! relations are written as soon as the classes before their ends exist), relations in the map's
//! order, then namespaces (each block opened inside its parents; a block opened again adds to the
//! namespace), notes and styles.

use std::collections::HashSet;
use std::fmt::Write;

use super::read::{Shown, ShownClass};
use super::texts::{escape, interface_token, is_plain_name, member_source, name_parts, name_token, with_breaks};
use crate::class::RelEnd;
use crate::class::Relation;
use crate::node_boxes::{NODE_FILL, NODE_STROKE, NODE_TEXT};

/// How much is written: everything, or less when everything would not parse (a map edited past
/// the size limits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Detail {
    /// Names, annotations, members, relation texts, notes, styles.
    Full,
    /// Classes, their names, namespaces and bare relations.
    Lean,
    /// Classes and namespaces.
    Bare,
}

/// Ids handed out once each: the names a diagram record keeps, else made from the item id.
#[derive(Default)]
struct Ids {
    used: HashSet<String>,
}

impl Ids {
    fn take(&mut self, name: &str, valid: impl Fn(&str) -> bool) -> Option<String> {
        (valid(name) && self.used.insert(name.to_owned())).then(|| name.to_owned())
    }

    /// `prefix` and the first letters and digits of the item id (more when taken).
    fn generate(&mut self, prefix: &str, item_id: &str) -> String {
        let tail: String =
            item_id.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect();
        for length in tail.len().min(6)..=tail.len() {
            let candidate = format!("{prefix}{}", &tail[..length]);
            if self.used.insert(candidate.clone()) {
                return candidate;
            }
        }
        (1usize..).map(|n| format!("{prefix}{tail}_{n}")).find(|c| self.used.insert(c.clone())).unwrap_or_default()
    }
}

/// The Mermaid id of every class (None for a lollipop pill, which has no id) and namespace.
fn ids(shown: &Shown, item_ids: &[&str]) -> (Vec<Option<String>>, Vec<String>) {
    let mut ids = Ids::default();
    let mut classes: Vec<Option<String>> = shown
        .classes
        .iter()
        .map(|c| c.given.as_deref().and_then(|g| ids.take(g, |n| name_token(n).is_some())))
        .collect();
    for (k, class) in shown.classes.iter().enumerate() {
        if class.pill {
            classes[k] = None;
        } else if classes[k].is_none() {
            // A box without a recorded id is named after what it shows, when that is a plain name.
            let shown_name = class.name.as_deref().map(|n| n.split(['<', '‹']).next().unwrap_or(n));
            let taken =
                shown_name.and_then(|n| ids.take(n, |n| is_plain_name(n) && name_token(n).as_deref() == Some(n)));
            classes[k] = Some(taken.unwrap_or_else(|| ids.generate("C", item_ids[class.item])));
        }
    }
    let mut spaces = Ids::default();
    let mut namespaces: Vec<String> = Vec::with_capacity(shown.namespaces.len());
    for namespace in &shown.namespaces {
        // `namespace A.B` makes B inside A: a dotted name is kept only under the namespace it names.
        let parent = namespace.parent.and_then(|p| namespaces.get(p)).map(String::as_str);
        let fits = |name: &str| {
            is_plain_name(name) && name.rsplit_once('.').map(|(head, _)| head) == parent.filter(|_| name.contains('.'))
        };
        let taken = namespace.given.as_deref().and_then(|g| spaces.take(g, fits));
        namespaces.push(taken.unwrap_or_else(|| spaces.generate("ns", &format!("{}", namespaces.len()))));
    }
    (classes, namespaces)
}

/// Writes `shown` as `classDiagram` source; `item_ids` are the map's item ids by map index.
pub fn write(shown: &Shown, item_ids: &[&str], detail: Detail) -> String {
    let (class_ids, namespace_ids) = ids(shown, item_ids);
    let writer = Writer { shown, class_ids, namespace_ids, detail };
    let mut out = String::from("classDiagram\n");
    if shown.direction != "TD" {
        let _ = writeln!(out, "    direction {}", shown.direction);
    }
    writer.classes_and_relations(&mut out);
    writer.namespaces(&mut out);
    if detail == Detail::Full {
        writer.notes(&mut out);
        writer.styles(&mut out);
    }
    out
}

struct Writer<'s> {
    shown: &'s Shown,
    class_ids: Vec<Option<String>>,
    namespace_ids: Vec<String>,
    detail: Detail,
}

impl Writer<'_> {
    fn token(&self, class: usize) -> String {
        match &self.class_ids[class] {
            Some(id) => name_token(id).unwrap_or_else(|| id.clone()),
            None => interface_token(self.shown.classes[class].name.as_deref().unwrap_or("…")),
        }
    }

    fn classes_and_relations(&self, out: &mut String) {
        let classes = &self.shown.classes;
        let mut declared = vec![false; classes.len()];
        if self.detail != Detail::Bare {
            for relation in &self.shown.relations {
                if classes[relation.from].pill {
                    // `bar ()-- Class` makes the interface, then the class when it is new.
                    self.declare_to(relation.from, &mut declared, out);
                    let fresh = !declared[relation.to];
                    declared[relation.to] = true;
                    self.relation(relation, fresh, out);
                    if fresh {
                        self.class(relation.to, out);
                    }
                } else {
                    self.declare_to(relation.from.max(relation.to), &mut declared, out);
                    self.relation(relation, false, out);
                }
            }
        }
        self.declare_to(classes.len(), &mut declared, out);
    }

    /// Declares every class up to `last` not declared yet (pills are made by their relation).
    fn declare_to(&self, last: usize, declared: &mut [bool], out: &mut String) {
        for k in 0..last.saturating_add(1).min(declared.len()) {
            if !declared[k] && !self.shown.classes[k].pill {
                declared[k] = true;
                self.class(k, out);
            }
        }
    }

    /// `class Id~T~["Label"]` and its body (annotations and members), or its members as
    /// `Id : member` lines when one of them cannot stand in a body.
    fn class(&self, k: usize, out: &mut String) {
        let class: &ShownClass = &self.shown.classes[k];
        let id = self.class_ids[k].clone().unwrap_or_default();
        let token = self.token(k);
        let (generic, label) = match &class.name {
            Some(name) if self.detail != Detail::Bare => name_parts(&id, name),
            _ => (None, None),
        };
        let mut head = format!("    class {token}");
        if let Some(generic) = generic {
            head.push_str(&format!("~{generic}~"));
        }
        if let Some(label) = label {
            head.push_str(&format!("[\"{label}\"]"));
        }
        if self.detail != Detail::Full {
            let _ = writeln!(out, "{head}");
            return;
        }
        let mut lines: Vec<String> = class.annotations.iter().map(|a| format!("<<{}>>", escape(a, &[]))).collect();
        lines.extend(class.members.iter().map(|m| member_source(m)));
        if lines.is_empty() {
            let _ = writeln!(out, "{head}");
        } else if lines.iter().all(|l| !l.contains(['{', '}']) && !l.trim_start().starts_with("%%")) {
            let _ = writeln!(out, "{head} {{");
            for line in lines {
                let _ = writeln!(out, "        {line}");
            }
            let _ = writeln!(out, "    }}");
        } else {
            let _ = writeln!(out, "{head}");
            let annotations = class.annotations.len();
            for (n, line) in lines.iter().enumerate() {
                if n < annotations {
                    let _ = writeln!(out, "    {line} {token}");
                } else {
                    let _ = writeln!(out, "    {token} : {line}");
                }
            }
        }
    }

    /// A relation line; `makes_second` when it makes its second class, which then gets its
    /// generic here (a later `class` line cannot add one).
    fn relation(&self, relation: &Relation, makes_second: bool, out: &mut String) {
        let start = match relation.start {
            RelEnd::None => "",
            RelEnd::Inheritance => "<|",
            RelEnd::Composition => "*",
            RelEnd::Aggregation => "o",
            RelEnd::Arrow => "<",
            RelEnd::Lollipop => "()",
        };
        let end = match relation.end {
            RelEnd::None => "",
            RelEnd::Inheritance => "|>",
            RelEnd::Composition => "*",
            RelEnd::Aggregation => "o",
            RelEnd::Arrow => ">",
            RelEnd::Lollipop => "()",
        };
        let line = if relation.dotted { ".." } else { "--" };
        let full = self.detail == Detail::Full;
        let card = |text: &Option<String>| match text {
            Some(text) if full => format!(" \"{}\"", with_breaks(text)),
            _ => String::new(),
        };
        let (from, mut to) = (self.token(relation.from), self.token(relation.to));
        if makes_second {
            let (id, name) = (self.class_ids[relation.to].as_deref(), self.shown.classes[relation.to].name.as_deref());
            if let (Some(id), Some(name)) = (id, name) {
                if let (Some(generic), _) = name_parts(id, name) {
                    to.push_str(&format!("~{generic}~"));
                }
            }
        }
        // `A "1" --> "*" B`: each cardinality beside its class.
        let mut text =
            format!("    {from}{} {start}{line}{end}{} {to}", card(&relation.start_card), card(&relation.end_card));
        if let Some(label) = relation.label.as_deref().filter(|_| full) {
            text.push_str(&format!(" : {}", with_breaks(label)));
        }
        let _ = writeln!(out, "{text}");
    }

    /// Each namespace's block, opened inside its parents, with the classes it holds.
    fn namespaces(&self, out: &mut String) {
        let mut opened = vec![false; self.shown.namespaces.len()];
        for k in 0..self.shown.namespaces.len() {
            let members: Vec<String> = (0..self.shown.classes.len())
                .filter(|&c| self.shown.classes[c].namespace == Some(k) && !self.shown.classes[c].pill)
                .map(|c| format!("class {}", self.token(c)))
                .collect();
            self.block(k, &members, &mut opened, out);
        }
    }

    /// Writes `lines` inside namespace `k`, its parents' blocks around it.
    fn block(&self, k: usize, lines: &[String], opened: &mut [bool], out: &mut String) {
        let mut chain = vec![k];
        while let Some(parent) = self.shown.namespaces[*chain.last().unwrap_or(&k)].parent {
            if chain.contains(&parent) {
                break;
            }
            chain.push(parent);
        }
        chain.reverse();
        for (depth, &n) in chain.iter().enumerate() {
            let id = &self.namespace_ids[n];
            let indent = "    ".repeat(depth + 1);
            let last_segment = id.rsplit('.').next().unwrap_or(id);
            let title = &self.shown.namespaces[n].title;
            if opened[n] || title == last_segment || title.is_empty() || self.detail == Detail::Bare {
                let _ = writeln!(out, "{indent}namespace {id} {{");
            } else {
                let _ = writeln!(out, "{indent}namespace {id}[\"{}\"] {{", escape(title, &[]));
            }
            opened[n] = true;
        }
        let inner = "    ".repeat(chain.len() + 1);
        for line in lines {
            let _ = writeln!(out, "{inner}{line}");
        }
        for depth in (0..chain.len()).rev() {
            let _ = writeln!(out, "{}}}", "    ".repeat(depth + 1));
        }
    }

    /// `note for Id "…"` and `note "…"`, inside the namespace the note is drawn in when that is
    /// not where its class puts it.
    fn notes(&self, out: &mut String) {
        let mut opened = vec![true; self.shown.namespaces.len()];
        for note in &self.shown.notes {
            let text = with_breaks(&note.text);
            let line = match note.class {
                Some(c) => format!("note for {} \"{text}\"", self.token(c)),
                None => format!("note \"{text}\""),
            };
            let placed_by_class = note.class.map(|c| self.shown.classes[c].namespace);
            match note.namespace {
                Some(n) if placed_by_class != Some(Some(n)) => self.block(n, &[line], &mut opened, out),
                _ => {
                    let _ = writeln!(out, "    {line}");
                }
            }
        }
    }

    /// `style Id fill:…,stroke:…,stroke-width:…,color:…` for each box not drawn in the default
    /// colours (the source's `classDef`, `cssClass`, `:::` and `style`, or a person's recolouring).
    fn styles(&self, out: &mut String) {
        for (k, class) in self.shown.classes.iter().enumerate() {
            let Some(id) = &self.class_ids[k] else { continue };
            let (fill, stroke, width, text) = &class.paint;
            let default = fill.eq_ignore_ascii_case(NODE_FILL)
                && stroke.eq_ignore_ascii_case(NODE_STROKE)
                && width.is_none_or(|w| w == 2.0)
                && (text.is_empty() || text.eq_ignore_ascii_case(NODE_TEXT));
            // `style` takes its target up to the first space; `,` and `;` end it too.
            if default || id.contains(|c: char| c.is_whitespace() || c == ',' || c == ';') {
                continue;
            }
            let mut css = Vec::new();
            css.extend(shape_color(fill).map(|c| format!("fill:{c}")));
            css.extend(shape_color(stroke).map(|c| format!("stroke:{c}")));
            css.extend(
                width.filter(|w| w.is_finite() && (0.0..=20.0).contains(w)).map(|w| format!("stroke-width:{w}px")),
            );
            css.extend(text_color(text).map(|c| format!("color:{c}")));
            if !css.is_empty() {
                let _ = writeln!(out, "    style {id} {}", css.join(","));
            }
        }
    }
}

/// A shape colour (`#RRGGBB`, or `#AARRGGBB` alpha first) as CSS (`#RRGGBBAA`).
fn shape_color(color: &str) -> Option<String> {
    let hex = color.strip_prefix('#')?;
    if !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    match hex.len() {
        6 => Some(format!("#{hex}")),
        8 => Some(format!("#{}{}", &hex[2..], &hex[..2])),
        _ => None,
    }
}

/// A label's text colour (`#RRGGBB` or `rgba(…)`) when it is one CSS reads as written.
fn text_color(color: &str) -> Option<String> {
    let hex = color.strip_prefix('#').is_some_and(|h| h.len() == 6 && h.chars().all(|c| c.is_ascii_hexdigit()));
    let rgba = color
        .strip_prefix("rgba(")
        .and_then(|c| c.strip_suffix(')'))
        .is_some_and(|inner| inner.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | ' ')));
    (hex || rgba).then(|| color.to_owned())
}
