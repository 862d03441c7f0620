//! The search tree as two preallocated arenas (the mctx layout): nodes addressed by `u32` ids with the
//! root at 0, and edges stored as one contiguous range per node. Nothing is allocated per simulation
//! once the arenas have grown to the size a search needs.

use super::solver::Proof;
use crate::game::{Game, Side};

pub type NodeId = u32;
pub const ROOT: NodeId = 0;
/// The `child` of an edge never visited, and the `parent` of the root.
pub const NO_NODE: NodeId = u32::MAX;

/// A move out of a node, its prior, and the node it leads to once created.
#[derive(Clone, Copy, Debug)]
pub struct Edge<M> {
    pub mv: M,
    pub prior: f32,
    pub child: NodeId,
}

/// One position of the tree.
#[derive(Clone, Debug)]
pub struct Node<S> {
    pub state: S,
    pub parent: NodeId,
    pub first_edge: u32,
    pub edge_count: u32,
    pub visits: u32,
    /// Descents through this node whose leaf waits for the evaluator (virtual loss).
    pub virtual_visits: u32,
    /// Sum of backed-up values from side zero's point of view. Values are attributed by each node's
    /// player to move, never by depth parity.
    pub value_sum: f64,
    pub to_move: Side,
    /// Moves played since the start of the game.
    pub plies: u32,
    pub hash: u64,
    /// The move into this node can never be undone, so no earlier position can repeat below it.
    pub irreversible: bool,
    /// The priors of the edges have been set by the evaluator.
    pub evaluated: bool,
    pub proof: Proof,
}

impl<S> Node<S> {
    /// The mean value for `side`, or `None` when never visited.
    #[inline]
    pub fn mean_for(&self, side: Side) -> Option<f32> {
        if self.visits == 0 {
            return None;
        }
        let mean = (self.value_sum / self.visits as f64) as f32;
        Some(if side == Side::ZERO { mean } else { -mean })
    }

    /// The value sum from `side`'s point of view.
    #[inline]
    pub fn value_sum_for(&self, side: Side) -> f64 {
        if side == Side::ZERO { self.value_sum } else { -self.value_sum }
    }
}

/// Node and edge arenas, plus spare arenas that re-rooting compacts into.
#[derive(Clone, Debug)]
pub struct Tree<G: Game> {
    pub nodes: Vec<Node<G::State>>,
    pub edges: Vec<Edge<G::Move>>,
    spare_nodes: Vec<Node<G::State>>,
    spare_edges: Vec<Edge<G::Move>>,
    /// For re-rooting: the old id of each node copied so far, in new-id order.
    old_ids: Vec<NodeId>,
}

impl<G: Game> Tree<G> {
    pub fn with_capacity(nodes: usize, edges: usize) -> Tree<G> {
        Tree {
            nodes: Vec::with_capacity(nodes),
            edges: Vec::with_capacity(edges),
            spare_nodes: Vec::with_capacity(nodes),
            spare_edges: Vec::with_capacity(edges),
            old_ids: Vec::with_capacity(nodes),
        }
    }

    pub fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Appends a node with one edge (prior 0, no child) per move; returns its id.
    pub fn push(&mut self, mut node: Node<G::State>, moves: &[G::Move]) -> NodeId {
        let id = self.nodes.len() as NodeId;
        assert!(id < NO_NODE, "search tree full");
        node.first_edge = self.edges.len() as u32;
        node.edge_count = moves.len() as u32;
        self.edges.extend(moves.iter().map(|&mv| Edge { mv, prior: 0.0, child: NO_NODE }));
        self.nodes.push(node);
        id
    }

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node<G::State> {
        &self.nodes[id as usize]
    }

    #[inline]
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node<G::State> {
        &mut self.nodes[id as usize]
    }

    /// The range of `id`'s edges in [`Tree::edges`].
    #[inline]
    pub fn edge_range(&self, id: NodeId) -> std::ops::Range<usize> {
        let node = &self.nodes[id as usize];
        node.first_edge as usize..(node.first_edge + node.edge_count) as usize
    }

    #[inline]
    pub fn edges_of(&self, id: NodeId) -> &[Edge<G::Move>] {
        &self.edges[self.edge_range(id)]
    }

    /// The child reached from `id` by `mv`, if it was created.
    pub fn child_by_move(&self, id: NodeId, mv: G::Move) -> Option<NodeId> {
        self.edges_of(id).iter().find(|e| e.mv == mv && e.child != NO_NODE).map(|e| e.child)
    }

    /// Keeps only the subtree below `new_root`, renumbered breadth-first so that it becomes the root 0.
    /// Costs one copy of the kept subtree; the arenas swap with their spares, so nothing is allocated
    /// once both have grown.
    pub fn reroot(&mut self, new_root: NodeId) {
        self.spare_nodes.clear();
        self.spare_edges.clear();
        self.old_ids.clear();
        let mut root = self.nodes[new_root as usize].clone();
        root.parent = NO_NODE;
        self.spare_nodes.push(root);
        self.old_ids.push(new_root);
        // The spare arena doubles as the breadth-first queue: node `i` is visited after all before it.
        let mut next = 0;
        while next < self.spare_nodes.len() {
            let old = self.old_ids[next];
            let first_edge = self.spare_edges.len() as u32;
            for index in self.edge_range(old) {
                let mut edge = self.edges[index];
                if edge.child != NO_NODE {
                    let mut child = self.nodes[edge.child as usize].clone();
                    child.parent = next as NodeId;
                    self.old_ids.push(edge.child);
                    edge.child = self.spare_nodes.len() as NodeId;
                    self.spare_nodes.push(child);
                }
                self.spare_edges.push(edge);
            }
            self.spare_nodes[next].first_edge = first_edge;
            next += 1;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare_nodes);
        std::mem::swap(&mut self.edges, &mut self.spare_edges);
    }
}
