//! The flowchart parser, written from Mermaid's grammar (`flow.jison`): the header with its
//! direction, then statements separated by line breaks or `;`: node chains with links (a link may
//! continue on the next line, as Mermaid's link token takes the white space around it),
//! `subgraph … end` blocks with their `direction`, styling statements ([`crate::syntax::style_sheet`]), and the
//! statements that change nothing drawn (`click`, `accTitle`, `accDescr`).
//!
//! The whole body is read by one cursor over its lines, so quoted strings, shape data and texts
//! may run over lines while every error still names its own line and column.
//!
//! A node belongs to the first subgraph it is mentioned in (a mention at the top level does not
//! hold it there), which is how Mermaid draws it too. A link to or from a subgraph's id is a link
//! to the subgraph: see [`Parser::finish`].

use std::collections::{HashMap, HashSet};

mod subgraph_links;

use super::{links, nodes};
use crate::error::DiagramError;
use crate::graph::{Direction, FlowEdge, FlowNode, Flowchart, NodeShape, Subgraph};
use crate::source::{Cursor, Line};
use crate::styling::Style;
use crate::text;

struct Parser {
    chart: Flowchart,
    ids: HashMap<String, usize>,
    /// Where each node was first mentioned, and whether a subgraph holds it.
    mentions: Vec<(usize, bool)>,
    subgraph_ids: HashMap<String, usize>,
    /// Open subgraphs: index and position of their keyword.
    open: Vec<(usize, usize)>,
    /// Edge ids given with `id@`.
    edge_ids: HashSet<String>,
    styles: crate::syntax::style_sheet::Styles,
}

/// Parses a flowchart from its lines (the first is the header). Its front matter's title is set
/// when the diagram is read ([`crate::diagram`], from `styling/theme.rs`).
pub fn parse(lines: &[Line<'_>]) -> Result<Flowchart, DiagramError> {
    let mut parser = Parser {
        chart: Flowchart {
            direction: Direction::TopDown,
            nodes: Vec::new(),
            edges: Vec::new(),
            subgraphs: Vec::new(),
            title: None,
        },
        ids: HashMap::new(),
        mentions: Vec::new(),
        subgraph_ids: HashMap::new(),
        open: Vec::new(),
        edge_ids: HashSet::new(),
        styles: crate::syntax::style_sheet::Styles::default(),
    };
    let mut cur = Cursor::over(lines);
    parser.header(&mut cur)?;
    parser.statements(&mut cur)?;
    if let Some(&(index, pos)) = parser.open.last() {
        let id = &parser.chart.subgraphs[index].id;
        return Err(cur.error_at_pos(pos, format!("subgraph '{id}' is not closed: expected `end`")));
    }
    if parser.chart.nodes.is_empty() && parser.chart.subgraphs.is_empty() {
        let last = lines[lines.len() - 1];
        return Err(DiagramError::new(last.number, last.text.chars().count() + 1, "the flowchart has no nodes"));
    }
    parser.finish(&cur)
}

/// Whether `word` at the probe is a whole word: what follows cannot continue an id.
fn ends_word(probe: &Cursor) -> bool {
    probe.peek().is_none_or(|c| c.is_whitespace() || c == ';')
}

/// A direction keyword.
fn direction(word: &str) -> Option<Direction> {
    Some(match word {
        "TB" | "TD" | "v" => Direction::TopDown,
        "BT" | "^" => Direction::BottomUp,
        "LR" | ">" => Direction::LeftRight,
        "RL" | "<" => Direction::RightLeft,
        _ => return None,
    })
}

impl Parser {
    /// `flowchart TD` / `graph LR` / `flowchart-elk` / `flowchart`.
    fn header(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        cur.skip_ws();
        cur.take_while(|c| !c.is_whitespace() && c != ';');
        cur.skip_spaces();
        let pos = cur.pos;
        let word = cur.take_while(|c| !c.is_whitespace() && c != ';');
        if !word.is_empty() {
            self.chart.direction = direction(&word).ok_or_else(|| {
                cur.error_at_pos(pos, format!("unknown direction '{word}': expected TB, TD, BT, LR or RL"))
            })?;
        }
        cur.skip_spaces();
        if !cur.eof() && !cur.eat(";") && !cur.eat("\n") {
            return Err(cur.error(format!("unexpected {} after the diagram type", cur.token())));
        }
        Ok(())
    }

    /// Every statement to the end.
    fn statements(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        loop {
            cur.skip_ws();
            if cur.eof() {
                return Ok(());
            }
            if cur.eat(";") {
                continue;
            }
            self.statement(cur)?;
            cur.skip_spaces();
            if !cur.eof() && !cur.eat(";") && !cur.eat("\n") {
                return Err(cur.error(format!(
                    "unexpected {}: expected a link such as `-->`, `&`, `;` or the end of the line",
                    cur.token()
                )));
            }
        }
    }

    fn statement(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        let mut probe = cur.clone();
        let pos = probe.pos;
        let word = probe.take_while(|c| c.is_alphanumeric() || c == '_');
        let whole = ends_word(&probe);
        match word.as_str() {
            "subgraph" if whole => {
                *cur = probe;
                self.subgraph(cur, pos)
            }
            "end" if whole => {
                *cur = probe;
                match self.open.pop() {
                    Some(_) => Ok(()),
                    None => Err(cur.error_at_pos(pos, "`end` without an open `subgraph`")),
                }
            }
            "direction" if whole => {
                *cur = probe;
                cur.skip_spaces();
                let at = cur.pos;
                let word = cur.take_while(|c| !c.is_whitespace() && c != ';');
                let dir = direction(&word).ok_or_else(|| {
                    cur.error_at_pos(at, format!("unknown direction '{word}': expected TB, TD, BT, LR or RL"))
                })?;
                if let Some(&(sub, _)) = self.open.last() {
                    self.chart.subgraphs[sub].direction = Some(dir);
                }
                Ok(())
            }
            "accTitle" | "accDescr" if probe.clone().rest().trim_start().starts_with(':') => {
                // Accessibility texts: the map has no place for them.
                *cur = probe;
                cur.pos = cur.line_end();
                Ok(())
            }
            "accDescr" if probe.rest().trim_start().starts_with('{') => {
                *cur = probe;
                let Some(close) = cur.find("}") else {
                    return Err(cur.error_at_pos(pos, "unterminated `accDescr {`: expected a closing '}'"));
                };
                cur.pos = close + 1;
                Ok(())
            }
            "click" | "title" if whole => {
                // Interactions (`click … call …`, `href`) and a `title` line draw nothing.
                *cur = probe;
                cur.pos = cur.line_end();
                Ok(())
            }
            "classDef" | "class" | "style" | "linkStyle" if whole => {
                *cur = probe;
                self.styles.statement(&word, cur)
            }
            _ => self.chain(cur),
        }
    }

    /// `subgraph`, `subgraph id`, `subgraph id [title]`, `subgraph id["title"]`,
    /// `subgraph "title"`, `subgraph Some Title`, `subgraph "Main" timeline`.
    fn subgraph(&mut self, cur: &mut Cursor, pos: usize) -> Result<(), DiagramError> {
        cur.skip_spaces();
        // The header text, quoted parts without their quotes, up to `[`, `;` or the line's end.
        let mut header = String::new();
        let mut quoted = false;
        loop {
            match cur.peek() {
                None | Some('\n' | ';' | '[') => break,
                Some('"') => {
                    let quote = cur.pos;
                    cur.bump();
                    header.push_str(&nodes::quoted(cur, quote)?.text);
                    quoted = true;
                }
                Some(c) => {
                    header.push(c);
                    cur.bump();
                }
            }
        }
        let header = header.trim().to_owned();
        let (id, title) = if cur.peek() == Some('[') {
            let title = nodes::shape(cur)?.map(|(_, t)| t.text).unwrap_or_default();
            (Some(header).filter(|h| !h.is_empty()), title)
        } else {
            let title = if quoted { header.clone() } else { text::clean(&header) };
            // Mermaid gives a title with spaces an id of its own.
            (Some(header.clone()).filter(|h| !h.is_empty() && !h.contains(char::is_whitespace)), title)
        };
        let index = self.chart.subgraphs.len();
        let id = match id {
            Some(id) => {
                // Mermaid draws a subgraph id written again as the same subgraph: it goes on.
                if let Some(&again) = self.subgraph_ids.get(&id) {
                    self.open.push((again, pos));
                    return Ok(());
                }
                id
            }
            None => (index..)
                .map(|n| format!("subGraph{n}"))
                .find(|i| !self.subgraph_ids.contains_key(i))
                .unwrap_or_default(),
        };
        let parent = self.open.last().map(|o| o.0);
        self.chart.subgraphs.push(Subgraph {
            id: id.clone(),
            title: text::clean(&title),
            parent,
            direction: None,
            style: Style::default(),
        });
        self.subgraph_ids.insert(id, index);
        self.open.push((index, pos));
        Ok(())
    }

    /// `A --> B & C -- text --> D`, links possibly continued on the next line.
    fn chain(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        let Some(mut group) = self.group(cur)? else { return Ok(()) };
        loop {
            let mut probe = cur.clone();
            probe.skip_spaces();
            let same_line = probe.peek() != Some('\n');
            probe.skip_ws();
            let mut id = None;
            if let Some((edge_id, after)) = links::edge_id(&probe).filter(|_| same_line) {
                id = Some(edge_id);
                probe.pos = after;
            }
            // On the next line, `o`/`x` start a node id rather than a link end.
            let continues = links::at_link(&probe) && (same_line || !matches!(probe.peek(), Some('o' | 'x')));
            if !continues {
                return Ok(());
            }
            *cur = probe;
            let link = links::parse(cur)?;
            cur.skip_ws();
            let Some(next) = self.group(cur)? else {
                return Err(cur.error(format!("expected a node after the link, found {}", cur.token())));
            };
            if let Some(id) = &id {
                self.edge_ids.insert(id.clone());
            }
            for &from in &group {
                for &to in &next {
                    let (text, marks) = match &link.text {
                        Some(rich) => (Some(rich.text.clone()), rich.marks.clone()),
                        None => (None, Vec::new()),
                    };
                    self.chart.edges.push(FlowEdge {
                        from,
                        to,
                        text,
                        start: link.start,
                        end: link.end,
                        stroke: link.stroke,
                        length: link.length,
                        marks,
                        id: id.clone(),
                        style: Style::default(),
                        from_subgraph: None,
                        to_subgraph: None,
                    });
                }
            }
            group = next;
        }
    }

    /// `A & B & C`; None for an edge's metadata (`e1@{ animate: true }`), which draws nothing.
    fn group(&mut self, cur: &mut Cursor) -> Result<Option<Vec<usize>>, DiagramError> {
        let Some(first) = self.node(cur)? else { return Ok(None) };
        let mut group = vec![first];
        loop {
            let mut probe = cur.clone();
            probe.skip_spaces();
            if !probe.eat("&") {
                return Ok(Some(group));
            }
            probe.skip_spaces();
            *cur = probe;
            match self.node(cur)? {
                Some(node) => group.push(node),
                None => return Err(cur.error("expected a node after '&'")),
            }
        }
    }

    fn node(&mut self, cur: &mut Cursor) -> Result<Option<usize>, DiagramError> {
        let node = nodes::parse(cur)?;
        if node.data && node.shape.is_none() && self.edge_ids.contains(&node.id) && !self.ids.contains_key(&node.id) {
            return Ok(None);
        }
        let index = match self.ids.get(&node.id) {
            Some(&index) => index,
            None => {
                let index = self.chart.nodes.len();
                self.chart.nodes.push(FlowNode {
                    id: node.id.clone(),
                    text: text::clean(&node.id),
                    shape: NodeShape::Rectangle,
                    subgraph: None,
                    marks: Vec::new(),
                    style: Style::default(),
                });
                self.mentions.push((node.pos, false));
                self.ids.insert(node.id.clone(), index);
                index
            }
        };
        if let Some(&(sub, _)) = self.open.last() {
            if !self.mentions[index].1 {
                self.chart.nodes[index].subgraph = Some(sub);
                self.mentions[index].1 = true;
            }
        }
        if let Some((shape, rich)) = node.shape {
            let n = &mut self.chart.nodes[index];
            n.shape = shape;
            if !rich.text.is_empty() {
                n.text = rich.text;
                n.marks = rich.marks;
            }
        }
        self.styles.add_classes(&node.id, node.classes);
        Ok(Some(index))
    }

    /// Links to subgraphs resolved, styles applied.
    fn finish(mut self, cur: &Cursor) -> Result<Flowchart, DiagramError> {
        // `style X …` makes the node X when nothing else does, as Mermaid's does.
        for id in self.styles.styled_ids() {
            if !self.ids.contains_key(&id) && !self.subgraph_ids.contains_key(&id) {
                self.ids.insert(id.clone(), self.chart.nodes.len());
                self.mentions.push((0, false));
                self.chart.nodes.push(FlowNode {
                    text: text::clean(&id),
                    id,
                    shape: NodeShape::Rectangle,
                    subgraph: None,
                    marks: Vec::new(),
                    style: Style::default(),
                });
            }
        }
        self.subgraph_links(cur)?;
        self.styles.apply(&mut self.chart);
        Ok(self.chart)
    }
}
