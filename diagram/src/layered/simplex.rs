//! Network simplex (Gansner, Koutsofios, North, Vo: "A technique for drawing
//! directed graphs", 1993): integer values `v` for the nodes of an acyclic
//! graph minimising `Σ weight·(v[head] − v[tail])` subject to
//! `v[head] − v[tail] ≥ minlen` for every edge.
//!
//! The layout uses it twice, as Graphviz does: for ranks (edges as they are),
//! and for x coordinates (an auxiliary graph whose constraints keep nodes
//! apart and whose weights pull edges straight).

/// Work (nodes × edges) above which only a feasible solution is given: the
/// optimisation would take too long, and only pathological inputs get there.
const MAX_TREE_WORK: usize = 150_000_000;
/// Work (pivots × edges) the pivots may take in all.
const MAX_PIVOT_WORK: usize = 300_000_000;

/// A constraint `v[head] − v[tail] ≥ minlen`, costing `weight` per unit of length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    /// Tail node.
    pub tail: usize,
    /// Head node.
    pub head: usize,
    /// Least length.
    pub minlen: i64,
    /// Cost of one unit of length.
    pub weight: i64,
}

/// Solves the problem for `n` nodes; every connected component's least value is 0.
/// `edges` must form an acyclic graph. Stops improving after `max_rounds`
/// pivots per component (the values stay feasible, only less tight).
pub fn solve(n: usize, edges: &[Edge], max_rounds: usize) -> Vec<i64> {
    let mut merged: std::collections::HashMap<(usize, usize), Edge> = std::collections::HashMap::new();
    for e in edges.iter().filter(|e| e.tail != e.head) {
        merged
            .entry((e.tail, e.head))
            .and_modify(|m| {
                m.minlen = m.minlen.max(e.minlen);
                m.weight += e.weight;
            })
            .or_insert(*e);
    }
    let mut edges: Vec<Edge> = merged.into_values().collect();
    edges.sort_by_key(|e| (e.tail, e.head));
    // Components, each solved on its own.
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for e in &edges {
        let (a, b) = (find(&mut parent, e.tail), find(&mut parent, e.head));
        parent[a] = b;
    }
    let comp: Vec<usize> = (0..n).map(|v| find(&mut parent, v)).collect();
    let mut members: std::collections::BTreeMap<usize, Vec<usize>> = std::collections::BTreeMap::new();
    for (v, &root) in comp.iter().enumerate() {
        members.entry(root).or_default().push(v);
    }
    let mut values = vec![0; n];
    let mut local = vec![0usize; n];
    for (&root, nodes) in &members {
        for (i, &v) in nodes.iter().enumerate() {
            local[v] = i;
        }
        let part: Vec<Edge> = edges
            .iter()
            .filter(|e| comp[e.tail] == root)
            .map(|e| Edge { tail: local[e.tail], head: local[e.head], ..*e })
            .collect();
        let solved = Simplex::new(nodes.len(), part).run(max_rounds);
        for (i, &v) in nodes.iter().enumerate() {
            values[v] = solved[i];
        }
    }
    values
}

#[derive(Clone)]
struct Simplex {
    n: usize,
    edges: Vec<Edge>,
    /// Edge indexes incident to each node.
    incident: Vec<Vec<usize>>,
    rank: Vec<i64>,
    tree: Vec<bool>,
    cut: Vec<i64>,
    low: Vec<usize>,
    lim: Vec<usize>,
    /// The tree edge to the parent (None at the root).
    up: Vec<Option<usize>>,
}

impl Simplex {
    fn new(n: usize, edges: Vec<Edge>) -> Simplex {
        let mut incident = vec![Vec::new(); n];
        for (i, e) in edges.iter().enumerate() {
            incident[e.tail].push(i);
            incident[e.head].push(i);
        }
        let m = edges.len();
        Simplex {
            n,
            edges,
            incident,
            rank: vec![0; n],
            tree: vec![false; m],
            cut: vec![0; m],
            low: vec![0; n],
            lim: vec![0; n],
            up: vec![None; n],
        }
    }

    fn slack(&self, e: usize) -> i64 {
        let e = &self.edges[e];
        self.rank[e.head] - self.rank[e.tail] - e.minlen
    }

    fn run(mut self, max_rounds: usize) -> Vec<i64> {
        if self.n == 0 {
            return Vec::new();
        }
        self.longest_path();
        // The tight tree costs nodes × edges; beyond this the feasible start is kept as it is.
        if self.n.saturating_mul(self.edges.len()) > MAX_TREE_WORK {
            let least = self.rank.iter().copied().min().unwrap_or(0);
            return self.rank.iter().map(|r| r - least).collect();
        }
        self.tight_tree();
        self.tree_structure();
        for _ in 0..max_rounds.min(MAX_PIVOT_WORK / self.edges.len().max(1)) {
            let Some(leave) = (0..self.edges.len()).find(|&e| self.tree[e] && self.cut[e] < 0) else { break };
            let Some(enter) = self.enter(leave) else { break };
            // Only the subtree under the entering edge's ends' common ancestor changes
            // (its node set stays, the leaving edge lies inside it), so only it is redone.
            let top = self.common_ancestor(self.edges[enter].tail, self.edges[enter].head);
            self.tree[leave] = false;
            self.tree[enter] = true;
            self.subtree_structure(top);
        }
        let least = self.rank.iter().copied().min().unwrap_or(0);
        self.rank.iter().map(|r| r - least).collect()
    }

    /// A feasible start: every node as low as its predecessors force.
    fn longest_path(&mut self) {
        let mut indegree = vec![0usize; self.n];
        for e in &self.edges {
            indegree[e.head] += 1;
        }
        let mut ready: Vec<usize> = (0..self.n).filter(|&v| indegree[v] == 0).collect();
        while let Some(v) = ready.pop() {
            for &i in &self.incident[v] {
                let e = self.edges[i];
                if e.tail == v {
                    self.rank[e.head] = self.rank[e.head].max(self.rank[v] + e.minlen);
                    indegree[e.head] -= 1;
                    if indegree[e.head] == 0 {
                        ready.push(e.head);
                    }
                }
            }
        }
    }

    /// Grows a spanning tree of tight edges, shifting the tree to make the
    /// least-slack edge out of it tight whenever it stops growing.
    fn tight_tree(&mut self) {
        let mut in_tree = vec![false; self.n];
        in_tree[0] = true;
        let mut size = 1;
        let mut stack = vec![0];
        loop {
            while let Some(v) = stack.pop() {
                for &i in &self.incident[v] {
                    let e = self.edges[i];
                    let other = if e.tail == v { e.head } else { e.tail };
                    if !in_tree[other] && self.slack(i) == 0 {
                        in_tree[other] = true;
                        self.tree[i] = true;
                        size += 1;
                        stack.push(other);
                    }
                }
            }
            if size == self.n {
                return;
            }
            let best = (0..self.edges.len())
                .filter(|&i| in_tree[self.edges[i].tail] != in_tree[self.edges[i].head])
                .min_by_key(|&i| self.slack(i));
            let Some(best) = best else { return };
            let delta = if in_tree[self.edges[best].tail] { self.slack(best) } else { -self.slack(best) };
            for (rank, _) in self.rank.iter_mut().zip(&in_tree).filter(|(_, &inside)| inside) {
                *rank += delta;
            }
            stack.extend((0..self.n).filter(|&v| in_tree[v]));
        }
    }

    /// Parents, postorder numbers (`low`..`lim` spans a subtree), cut values
    /// and ranks, all from the tree edges.
    fn tree_structure(&mut self) {
        self.up = vec![None; self.n];
        self.low[0] = 0;
        self.subtree_structure(0);
    }

    /// [`Self::tree_structure`] for the subtree under `top` alone, whose parent
    /// edge, rank and first postorder number (`low`) stand. A depth-first search
    /// numbers a subtree as one block, so this equals redoing the whole tree.
    fn subtree_structure(&mut self, top: usize) {
        let mut order = Vec::new();
        // Iterative DFS: (node, next incident index). A tree edge other than the
        // parent edge leads to a child.
        let mut stack = vec![(top, 0usize)];
        let mut counter = self.low[top];
        while let Some(&(v, next)) = stack.last() {
            if let Some(&i) = self.incident[v].get(next) {
                if let Some(last) = stack.last_mut() {
                    last.1 += 1;
                }
                let e = self.edges[i];
                let other = if e.tail == v { e.head } else { e.tail };
                if self.tree[i] && self.up[v] != Some(i) {
                    self.up[other] = Some(i);
                    // Ranks follow the tight tree edges from the root.
                    self.rank[other] = if e.tail == v { self.rank[v] + e.minlen } else { self.rank[v] - e.minlen };
                    self.low[other] = counter;
                    stack.push((other, 0));
                }
            } else {
                stack.pop();
                self.lim[v] = counter;
                counter += 1;
                order.push(v);
            }
        }
        for &v in &order {
            let Some(pe) = self.up[v] else { continue };
            let child_is_tail = self.edges[pe].tail == v;
            let mut cut = self.edges[pe].weight;
            for &i in &self.incident[v] {
                if i == pe {
                    continue;
                }
                let e = self.edges[i];
                let points_to_head = (e.tail == v) == child_is_tail;
                cut += if points_to_head { e.weight } else { -e.weight };
                if self.tree[i] {
                    cut += if points_to_head { -self.cut[i] } else { self.cut[i] };
                }
            }
            self.cut[pe] = cut;
        }
    }

    /// The lowest tree node holding both `a` and `b` below it.
    fn common_ancestor(&self, a: usize, b: usize) -> usize {
        let mut v = a;
        while !self.descends(b, v) {
            let Some(edge) = self.up[v] else { break };
            let e = self.edges[edge];
            v = if e.tail == v { e.head } else { e.tail };
        }
        v
    }

    fn descends(&self, v: usize, root: usize) -> bool {
        self.low[root] <= self.lim[v] && self.lim[v] <= self.lim[root]
    }

    /// The non-tree edge to replace `leave`: across the cut the other way, least slack.
    fn enter(&self, leave: usize) -> Option<usize> {
        let e = self.edges[leave];
        let (side, flip) = if self.lim[e.tail] > self.lim[e.head] { (e.head, true) } else { (e.tail, false) };
        (0..self.edges.len())
            .filter(|&i| i != leave && !self.tree[i])
            .filter(|&i| {
                let f = self.edges[i];
                flip == self.descends(f.tail, side) && flip != self.descends(f.head, side)
            })
            .min_by_key(|&i| self.slack(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(tail: usize, head: usize, minlen: i64, weight: i64) -> Edge {
        Edge { tail, head, minlen, weight }
    }

    #[test]
    fn ranks_minimise_total_edge_length() {
        // a→b→c→d and a→d: longest path puts d at 3; nothing shorter is feasible.
        let ranks = solve(4, &[edge(0, 1, 1, 1), edge(1, 2, 1, 1), edge(2, 3, 1, 1), edge(0, 3, 1, 1)], 100);
        assert_eq!(ranks, [0, 1, 2, 3]);
        // A source with a single far successor is pulled down next to it.
        let ranks = solve(4, &[edge(0, 1, 1, 1), edge(1, 2, 1, 1), edge(3, 2, 1, 1)], 100);
        assert_eq!(ranks, [0, 1, 2, 1]);
    }

    #[test]
    fn weights_decide_between_competing_pulls() {
        // x coordinates as the layout asks them: a and b 10 apart; c pulled to b with
        // weight 1 and to a with weight 3 (through the auxiliary nodes 3 and 4).
        let edges = [edge(0, 1, 10, 0), edge(3, 1, 0, 1), edge(3, 2, 0, 1), edge(4, 0, 0, 3), edge(4, 2, 0, 3)];
        let x = solve(5, &edges, 100);
        assert_eq!(x[1] - x[0], 10);
        assert_eq!(x[2], x[0], "{x:?}");
    }

    #[test]
    fn redoing_a_subtree_equals_redoing_the_tree() {
        // Random layered x problems: separations along a row, pulls between rows.
        let mut seed = 0x1234_5678_9abc_def1_u64;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m) as usize
        };
        let mut pivots = 0;
        for _ in 0..20 {
            let n = 40;
            let mut edges: Vec<Edge> =
                (1..n).filter(|v| v % 8 != 0).map(|v| edge(v - 1, v, next(50) as i64, 0)).collect();
            let mut aux = n;
            for _ in 0..30 {
                let (u, v) = (next(n as u64), next(n as u64));
                edges.push(edge(aux, u, 0, 1 + next(3) as i64));
                edges.push(edge(aux, v, 0, 1 + next(3) as i64));
                aux += 1;
            }
            let mut s = Simplex::new(aux, edges);
            s.longest_path();
            s.tight_tree();
            s.tree_structure();
            for _ in 0..200 {
                let Some(leave) = (0..s.edges.len()).find(|&e| s.tree[e] && s.cut[e] < 0) else { break };
                let Some(enter) = s.enter(leave) else { break };
                let top = s.common_ancestor(s.edges[enter].tail, s.edges[enter].head);
                s.tree[leave] = false;
                s.tree[enter] = true;
                let mut full = s.clone();
                s.subtree_structure(top);
                full.tree_structure();
                assert_eq!(
                    (&s.rank, &s.cut, &s.low, &s.lim, &s.up),
                    (&full.rank, &full.cut, &full.low, &full.lim, &full.up)
                );
                pivots += 1;
            }
        }
        assert!(pivots > 100, "the problems need pivots: {pivots}");
    }

    #[test]
    fn components_are_solved_apart_and_start_at_zero() {
        let values = solve(5, &[edge(0, 1, 2, 1), edge(3, 4, 5, 1)], 100);
        assert_eq!(values, [0, 2, 0, 0, 5]);
    }
}
