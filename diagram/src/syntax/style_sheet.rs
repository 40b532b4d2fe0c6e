//! Styling statements, collected while parsing and applied once everything they name is known
//! (Mermaid lets a statement style what is defined after it). Flowcharts, class diagrams and
//! state diagrams share them (class diagrams spell `class` as `cssClass`):
//! - `classDef a,b fill:#f9f,stroke:#333` defines classes (`default` applies to every node);
//! - `class A,B a` and `A:::a` give classes to nodes and subgraphs;
//! - `style A fill:#f9f` styles one node or subgraph;
//! - `linkStyle 0,2 stroke:#f00` / `linkStyle default …` style edges by their index in the
//!   source (`interpolate …` is read and ignored).
//!
//! A statement naming something that does not exist, an index past the last edge or a colour
//! that cannot be read changes nothing: styling never makes a diagram refused.

use std::collections::HashMap;

use crate::error::DiagramError;
use crate::graph::Flowchart;
use crate::source::Cursor;
use crate::styling::Style;

/// What the styling statements said.
#[derive(Debug, Default)]
pub struct Styles {
    classes: HashMap<String, Style>,
    /// Node or subgraph id → its classes, in the order given.
    assigned: HashMap<String, Vec<String>>,
    /// Node or subgraph id → its `style` statements, in order.
    direct: HashMap<String, Vec<Style>>,
    /// Ids of `style` statements in the order first named.
    order: Vec<String>,
    /// `linkStyle`s in order: edge indexes (None: `default`) and the style.
    links: Vec<(Option<Vec<usize>>, Style)>,
}

impl Styles {
    /// Reads the rest of a `classDef`, `class`, `style` or `linkStyle` statement (the keyword
    /// taken) up to the end of the line or a `;`.
    pub fn statement(&mut self, keyword: &str, cur: &mut Cursor) -> Result<(), DiagramError> {
        cur.skip_spaces();
        let end = cur.find_before(";", cur.line_end()).unwrap_or_else(|| cur.line_end());
        let rest = cur.take_to(end);
        let (target, css) = match rest.trim().split_once(char::is_whitespace) {
            Some((target, css)) => (target.trim().to_owned(), css.trim().to_owned()),
            None => (rest.trim().to_owned(), String::new()),
        };
        let names = || target.split(',').map(|n| n.trim().to_owned()).filter(|n| !n.is_empty());
        match keyword {
            "classDef" => {
                let style = Style::parse(&css);
                for name in names() {
                    let entry = self.classes.entry(name).or_default();
                    *entry = entry.over(&style);
                }
            }
            "class" => {
                let classes: Vec<String> =
                    css.split([',', ' ']).map(str::trim).filter(|c| !c.is_empty()).map(str::to_owned).collect();
                for name in names() {
                    self.add_classes(&name, classes.clone());
                }
            }
            "style" => {
                let style = Style::parse(&css);
                if !target.is_empty() && !self.direct.contains_key(&target) {
                    self.order.push(target.clone());
                }
                if !target.is_empty() {
                    self.direct.entry(target.clone()).or_default().push(style);
                }
            }
            _ => {
                // `linkStyle 0,1 interpolate basis stroke:…`: the curve is Mermaid's renderer's.
                let css = match css.strip_prefix("interpolate") {
                    Some(after) => after.trim_start().split_once(char::is_whitespace).map_or("", |(_, c)| c).to_owned(),
                    None => css,
                };
                let style = Style::parse(&css);
                if target == "default" {
                    self.links.push((None, style));
                } else {
                    let indexes: Vec<usize> = names().filter_map(|n| n.parse().ok()).collect();
                    self.links.push((Some(indexes), style));
                }
            }
        }
        Ok(())
    }

    /// The ids `style` statements name, in the order first named.
    pub fn styled_ids(&self) -> Vec<String> {
        let mut ids: Vec<&String> = self.direct.keys().collect();
        ids.sort_by_key(|id| self.order.iter().position(|o| o == *id));
        ids.into_iter().cloned().collect()
    }

    /// Classes given to a node or subgraph (`:::a` or `class`).
    pub fn add_classes(&mut self, id: &str, classes: Vec<String>) {
        if !classes.is_empty() {
            self.assigned.entry(id.to_owned()).or_default().extend(classes);
        }
    }

    /// The style of a node (a class, a state) `id`: `default`, its classes, its `style`s.
    pub fn node_style(&self, id: &str) -> Style {
        self.resolve(id, true)
    }

    /// The style of a group (a subgraph, a composite state) `id`: its classes, its `style`s.
    pub fn group_style(&self, id: &str) -> Style {
        self.resolve(id, false)
    }

    /// The style of a node or subgraph `id`: `default` (nodes only), its classes, its `style`s.
    fn resolve(&self, id: &str, node: bool) -> Style {
        let mut style = Style::default();
        if node {
            if let Some(default) = self.classes.get("default") {
                style = style.over(default);
            }
        }
        for class in self.assigned.get(id).into_iter().flatten() {
            if let Some(defined) = self.classes.get(class) {
                style = style.over(defined);
            }
        }
        for direct in self.direct.get(id).into_iter().flatten() {
            style = style.over(direct);
        }
        style
    }

    /// Every style set on the chart's nodes, subgraphs and edges.
    pub fn apply(&self, chart: &mut Flowchart) {
        for node in &mut chart.nodes {
            node.style = self.resolve(&node.id, true);
        }
        for sub in &mut chart.subgraphs {
            sub.style = self.resolve(&sub.id, false);
        }
        // `default` first, wherever it was written: an edge's own linkStyle wins over it.
        for (_, style) in self.links.iter().filter(|(indexes, _)| indexes.is_none()) {
            chart.edges.iter_mut().for_each(|e| e.style = e.style.over(style));
        }
        for (indexes, style) in &self.links {
            for &i in indexes.iter().flatten() {
                if let Some(edge) = chart.edges.get_mut(i) {
                    edge.style = edge.style.over(style);
                }
            }
        }
    }
}
