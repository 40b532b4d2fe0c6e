//! Links to subgraphs, resolved once the whole chart is read (Mermaid lets a link name a
//! subgraph before or after its block): the parser's last step before styling.

use std::collections::{HashMap, HashSet};

use super::Parser;
use crate::error::DiagramError;
use crate::graph::Flowchart;
use crate::source::Cursor;

impl Parser {
    /// A node named like a subgraph stands for the subgraph: its links become links to the
    /// subgraph (laid out through one node inside it, drawn to the subgraph's border), and the
    /// node itself goes. A subgraph with nothing inside is drawn as Mermaid draws it: as a plain
    /// node titled like it, in its place, which the links attach to.
    pub(super) fn subgraph_links(&mut self, cur: &Cursor) -> Result<(), DiagramError> {
        let aliases: Vec<(usize, usize)> = (0..self.chart.nodes.len())
            .filter_map(|n| self.subgraph_ids.get(&self.chart.nodes[n].id).map(|&s| (n, s)))
            .collect();
        if aliases.is_empty() {
            return Ok(());
        }
        let alias_nodes: HashSet<usize> = aliases.iter().map(|a| a.0).collect();
        // The node standing for each subgraph: its first node, its nested subgraphs' included.
        let within = |node: usize, sub: usize, chart: &Flowchart| {
            let mut at = chart.nodes[node].subgraph;
            while let Some(s) = at {
                if s == sub {
                    return true;
                }
                at = chart.subgraphs[s].parent;
            }
            false
        };
        let mut stand_in = HashMap::new();
        let mut emptied = Vec::new();
        for &(alias, sub) in &aliases {
            let inside =
                (0..self.chart.nodes.len()).find(|&n| !alias_nodes.contains(&n) && within(n, sub, &self.chart));
            match inside {
                Some(n) => {
                    stand_in.insert(alias, (n, sub));
                }
                None if self.chart.subgraphs.iter().any(|s| s.parent == Some(sub)) => {
                    let id = &self.chart.subgraphs[sub].id;
                    return Err(cur.error_at_pos(
                        self.mentions[alias].0,
                        format!("'{id}' is a subgraph with no nodes: a link to it has nothing to attach to"),
                    ));
                }
                None => emptied.push((alias, sub)),
            }
        }
        // The empty subgraphs become their alias nodes.
        for &(alias, sub) in &emptied {
            let group = &self.chart.subgraphs[sub];
            let node = &mut self.chart.nodes[alias];
            if node.text == node.id && !group.title.is_empty() {
                node.text = group.title.clone();
            }
            node.subgraph = group.parent;
        }
        let is_alias: HashSet<usize> = stand_in.keys().copied().collect();
        for edge in &mut self.chart.edges {
            if let Some(&(n, sub)) = stand_in.get(&edge.from) {
                edge.from = n;
                edge.from_subgraph = Some(sub);
            }
            if let Some(&(n, sub)) = stand_in.get(&edge.to) {
                edge.to = n;
                edge.to_subgraph = Some(sub);
            }
        }
        // Drop the alias nodes and renumber.
        let mut renumber = vec![usize::MAX; self.chart.nodes.len()];
        let mut kept = Vec::new();
        for (i, node) in std::mem::take(&mut self.chart.nodes).into_iter().enumerate() {
            if !is_alias.contains(&i) {
                renumber[i] = kept.len();
                kept.push(node);
            }
        }
        self.chart.nodes = kept;
        for edge in &mut self.chart.edges {
            edge.from = renumber[edge.from];
            edge.to = renumber[edge.to];
        }
        let mut gone: Vec<usize> = emptied.iter().map(|e| e.1).collect();
        gone.sort_unstable();
        gone.dedup();
        for &sub in gone.iter().rev() {
            self.remove_subgraph(sub);
        }
        Ok(())
    }

    /// Removes subgraph `sub`, which holds nothing, and renumbers the later ones.
    fn remove_subgraph(&mut self, sub: usize) {
        self.chart.subgraphs.remove(sub);
        let shift = |at: &mut Option<usize>| {
            if let Some(i) = *at {
                *at = if i > sub { Some(i - 1) } else { Some(i) };
            }
        };
        for node in &mut self.chart.nodes {
            shift(&mut node.subgraph);
        }
        for group in &mut self.chart.subgraphs {
            shift(&mut group.parent);
        }
        for edge in &mut self.chart.edges {
            shift(&mut edge.from_subgraph);
            shift(&mut edge.to_subgraph);
        }
        self.subgraph_ids.retain(|_, i| *i != sub);
        for i in self.subgraph_ids.values_mut() {
            if *i > sub {
                *i -= 1;
            }
        }
    }
}
