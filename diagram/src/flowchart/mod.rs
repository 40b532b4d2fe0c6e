//! The flowchart parser: the header with its direction, then statements
//! (separated by line breaks or `;`): node chains with links, `subgraph … end`
//! blocks, and styling statements that are read and ignored.
//!
//! A node belongs to the first subgraph it is mentioned in (a mention at the
//! top level does not hold it there), which is how Mermaid draws it too.

mod links;
mod nodes;

use std::collections::HashMap;

use crate::model::{Direction, FlowEdge, FlowNode, Flowchart, NodeShape, Subgraph};
use crate::source::{is_id_char, Cursor, Line};
use crate::text;
use crate::DiagramError;

/// Statements that style or link out and do not change the drawing's structure.
const IGNORED: &[&str] = &["classDef", "class", "style", "linkStyle", "click", "accTitle", "accDescr", "title"];

struct Parser {
    chart: Flowchart,
    ids: HashMap<String, usize>,
    /// Where each node was first mentioned, and whether a subgraph holds it.
    mentions: Vec<(usize, usize, bool)>,
    subgraph_ids: HashMap<String, usize>,
    /// Open subgraphs: index, line and column of their keyword.
    open: Vec<(usize, usize, usize)>,
}

/// Parses a flowchart from its lines (the first is the header).
pub fn parse(lines: &[Line<'_>]) -> Result<crate::Diagram, DiagramError> {
    let mut parser = Parser {
        chart: Flowchart { direction: Direction::TopDown, nodes: Vec::new(), edges: Vec::new(), subgraphs: Vec::new() },
        ids: HashMap::new(),
        mentions: Vec::new(),
        subgraph_ids: HashMap::new(),
        open: Vec::new(),
    };
    for (index, line) in lines.iter().enumerate() {
        let mut cur = Cursor::new(*line);
        if index == 0 {
            parser.header(&mut cur)?;
        }
        parser.statements(&mut cur)?;
    }
    if parser.chart.nodes.is_empty() && parser.chart.subgraphs.is_empty() {
        let header = lines[lines.len() - 1];
        return Err(DiagramError::new(header.number, header.text.chars().count() + 1, "the flowchart has no nodes"));
    }
    if let Some(&(index, line, col)) = parser.open.last() {
        let id = &parser.chart.subgraphs[index].id;
        return Err(DiagramError::new(line, col, format!("subgraph '{id}' is not closed: expected `end`")));
    }
    for (node, FlowNode { id, .. }) in parser.chart.nodes.iter().enumerate() {
        if parser.subgraph_ids.contains_key(id) {
            let (line, col, _) = parser.mentions[node];
            return Err(DiagramError::new(
                line,
                col,
                format!("'{id}' is a subgraph: links to subgraphs and nodes named like one are not supported"),
            ));
        }
    }
    Ok(crate::Diagram::Flowchart(parser.chart))
}

impl Parser {
    /// `flowchart TD` / `graph LR` / `flowchart`.
    fn header(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        cur.skip_ws();
        cur.take_while(|c| !c.is_whitespace() && c != ';');
        cur.skip_ws();
        let col = cur.col();
        let word = cur.take_while(is_id_char);
        self.chart.direction = match word.as_str() {
            "" => Direction::TopDown,
            "TB" | "TD" => Direction::TopDown,
            "BT" => Direction::BottomUp,
            "LR" => Direction::LeftRight,
            "RL" => Direction::RightLeft,
            other => {
                return Err(cur.error_at(col, format!("unknown direction '{other}': expected TB, TD, BT, LR or RL")))
            }
        };
        cur.skip_ws();
        if !cur.eof() && !cur.eat(";") {
            return Err(cur.error(format!("unexpected {} after the diagram type", cur.token())));
        }
        Ok(())
    }

    /// Every statement of one line.
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
            cur.skip_ws();
            if !cur.eof() && !cur.eat(";") {
                return Err(cur.error(format!(
                    "unexpected {}: expected a link such as `-->`, `&`, `;` or the end of the line",
                    cur.token()
                )));
            }
        }
    }

    fn statement(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        let mut probe = cur.clone();
        let col = probe.col();
        let word = probe.take_while(is_id_char);
        let ends_word = probe.peek().is_none_or(|c| c.is_whitespace() || c == ';');
        match word.as_str() {
            "subgraph" if ends_word => {
                *cur = probe;
                self.subgraph(cur, col)
            }
            "end" if ends_word => {
                *cur = probe;
                match self.open.pop() {
                    Some(_) => Ok(()),
                    None => Err(cur.error_at(col, "`end` without an open `subgraph`")),
                }
            }
            "direction" if ends_word => {
                // Subgraphs follow the diagram's direction (see the crate docs).
                *cur = probe;
                cur.take_while(|c| c != ';');
                Ok(())
            }
            w if ends_word && IGNORED.contains(&w) => {
                cur.take_rest();
                Ok(())
            }
            _ => self.chain(cur),
        }
    }

    /// `subgraph id`, `subgraph id [title]`, `subgraph "title"`, `subgraph some title`.
    fn subgraph(&mut self, cur: &mut Cursor, col: usize) -> Result<(), DiagramError> {
        cur.skip_ws();
        let at = cur.col();
        let (id, title) = if cur.peek() == Some('"') {
            cur.bump();
            let end = cur.find("\"").ok_or_else(|| cur.error_at(at, "unterminated string: expected a closing '\"'"))?;
            let title = cur.take_to(end);
            cur.bump();
            (title.clone(), title)
        } else {
            let id = nodes::read_id(cur);
            if id.is_empty() {
                return Err(cur.error(format!("expected a subgraph id or title, found {}", cur.token())));
            }
            cur.skip_ws();
            if cur.peek() == Some('[') {
                let title = nodes::shape(cur)?.map(|(_, t)| t).unwrap_or_default();
                (id, title)
            } else if cur.eof() || cur.peek() == Some(';') {
                (id.clone(), id)
            } else {
                let rest = cur.take_while(|c| c != ';');
                let title = format!("{id} {}", rest.trim());
                (title.clone(), title)
            }
        };
        if self.subgraph_ids.contains_key(&id) {
            return Err(cur.error_at(at, format!("subgraph '{id}' is defined twice")));
        }
        let index = self.chart.subgraphs.len();
        let parent = self.open.last().map(|o| o.0);
        let title =
            text::nonempty(Some(text::clean(&title)).filter(|t| !t.is_empty()).unwrap_or_else(|| text::clean(&id)));
        self.chart.subgraphs.push(Subgraph { id: id.clone(), title, parent });
        self.subgraph_ids.insert(id, index);
        self.open.push((index, cur.line, col));
        Ok(())
    }

    /// `A --> B & C -- text --> D`.
    fn chain(&mut self, cur: &mut Cursor) -> Result<(), DiagramError> {
        let mut group = self.group(cur)?;
        loop {
            cur.skip_ws();
            if !links::at_link(cur) {
                return Ok(());
            }
            let link = links::parse(cur)?;
            cur.skip_ws();
            let next = self.group(cur)?;
            for &from in &group {
                for &to in &next {
                    self.chart.edges.push(FlowEdge {
                        from,
                        to,
                        text: link.text.clone(),
                        start: link.start,
                        end: link.end,
                        stroke: link.stroke,
                        length: link.length,
                    });
                }
            }
            group = next;
        }
    }

    /// `A & B & C`.
    fn group(&mut self, cur: &mut Cursor) -> Result<Vec<usize>, DiagramError> {
        let mut group = vec![self.node(cur)?];
        loop {
            let mut probe = cur.clone();
            probe.skip_ws();
            if !probe.eat("&") {
                return Ok(group);
            }
            probe.skip_ws();
            *cur = probe;
            group.push(self.node(cur)?);
        }
    }

    fn node(&mut self, cur: &mut Cursor) -> Result<usize, DiagramError> {
        let node = nodes::parse(cur)?;
        let index = match self.ids.get(&node.id) {
            Some(&index) => index,
            None => {
                let index = self.chart.nodes.len();
                self.chart.nodes.push(FlowNode {
                    id: node.id.clone(),
                    text: text::clean(&node.id),
                    shape: NodeShape::Rectangle,
                    subgraph: None,
                });
                self.mentions.push((cur.line, node.column, false));
                self.ids.insert(node.id.clone(), index);
                index
            }
        };
        if let Some(&(sub, ..)) = self.open.last() {
            if !self.mentions[index].2 {
                self.chart.nodes[index].subgraph = Some(sub);
                self.mentions[index].2 = true;
            }
        }
        if let Some((shape, text)) = node.shape {
            let node = &mut self.chart.nodes[index];
            node.shape = shape;
            if !text.is_empty() {
                node.text = text;
            }
        }
        Ok(index)
    }
}

#[cfg(test)]
mod tests;
