//! The search driver: descents with PUCT and virtual loss, batched leaf evaluation, backup, the
//! MCTS-solver's proof propagation, subtree reuse between moves, and the final move choice.
//!
//! One simulation is one descent that ends at a leaf. A descent into a new position or an
//! unevaluated root queues the leaf for the evaluator; a descent into a finished or proven position
//! backs up its exact value at once. Up to `batch` leaves are queued per evaluator call, virtual loss
//! steering later descents of the same batch away from earlier ones. Callers that run several trees
//! against one evaluator (self-play) can drive the two halves themselves with
//! [`Mcts::gather_leaves`] and [`Mcts::absorb_evaluations`].

use rand::Rng;

use super::evaluator::{Evaluations, Evaluator, LeafBatch};
use super::gumbel::RootMove;
use super::repetition::PathRepetition;
use super::root::{RootPolicy, RootSearch, choose_by_visits};
use super::select::{Fpu, first_play_value, mean_with_virtual_loss, puct_score};
use super::solver::{Proof, combine};
use super::tree::{NO_NODE, Node, NodeId, ROOT, Tree};
use crate::game::history::judge;
use crate::game::{Game, Side};

/// The knobs of one search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Simulations per [`Mcts::run`] (the reused subtree's earlier visits come on top).
    pub simulations: u32,
    /// The PUCT exploration constant.
    pub c_puct: f32,
    pub fpu: Fpu,
    /// Leaves collected per evaluator call.
    pub batch: usize,
    /// How the root's moves are explored and chosen.
    pub root: RootPolicy,
    /// Keep the subtree of the position reached when the next search starts below the current root.
    pub reuse_tree: bool,
    /// When a node is created, look for a move that wins at once and prove the node by it. Costs one
    /// `apply` per legal move per new node; lets the solver see threats one ply sooner.
    pub find_wins_in_one: bool,
    /// What a draw is worth below 0 to the side to move at the root, and above 0 to its opponent
    /// (Leela Chess Zero's contempt): 0 values a draw at 0 for both, as self-play and the balance lab
    /// want; above 0 the searching side prefers an uncertain position to a likely draw, which scores
    /// more against a weaker opponent. Applies to drawn terminals and proofs, and to the evaluator's
    /// draw probability ([`Evaluations::draws`]).
    pub contempt: f32,
}

/// A finished search's answer: the move to play and the policy target over the root moves (visit
/// shares, a Gumbel root's improved policy, or the proven move alone), the shares summing to one.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutput<M> {
    pub mv: M,
    pub policy: Vec<(M, f32)>,
}

/// The temperature of the move at `plies`: 1 for the first `opening_plies` of a game (so that games
/// differ), then `temperature`.
pub fn move_temperature(plies: u32, opening_plies: u32, temperature: f32) -> f32 {
    if plies < opening_plies { 1.0 } else { temperature }
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            simulations: 800,
            c_puct: 1.5,
            fpu: Fpu::Reduction(0.0),
            batch: 1,
            root: RootPolicy::Puct { noise: None },
            reuse_tree: true,
            find_wins_in_one: true,
            contempt: 0.0,
        }
    }
}

/// What a search found about its root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchReport {
    /// Simulations run by this call (not counting reused ones).
    pub simulations: u32,
    /// Descents that hit a leaf already queued in the same batch and were dropped.
    pub collisions: u32,
    /// The root's mean value for its player to move (exact when proven).
    pub value: f32,
    /// The root's proof: a forced result and its distance in plies.
    pub proof: Proof,
    pub root_visits: u32,
    pub tree_nodes: usize,
}

/// Where a descent ended.
enum Descent {
    /// A finished or proven position: its exact value is backed up now.
    Proven(NodeId),
    /// A position for the evaluator.
    Leaf(NodeId),
    /// A position already queued in this batch.
    Collision,
}

/// A reusable search over one game: the tree and every buffer a simulation needs.
///
/// ```
/// use rand::SeedableRng;
/// use rebel_zero::game::{AnyGame, Game};
/// use rebel_zero::search::{Mcts, SearchConfig, UniformEvaluator};
///
/// let AnyGame::Hunt(game) = AnyGame::from_spec("neeley-rebels").unwrap() else { unreachable!() };
/// let mut search = Mcts::new(game.clone(), SearchConfig { simulations: 200, ..SearchConfig::default() });
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// search.set_position(&game.start(), &[]);
/// let report = search.run(&mut UniformEvaluator, &mut rng);
/// assert!(report.simulations <= 200);
/// let output = search.output(0.0, &mut rng).unwrap(); // the move and the policy target
/// let total: f32 = output.policy.iter().map(|(_, share)| share).sum();
/// assert!((total - 1.0).abs() < 1e-5);
/// ```
#[derive(Clone, Debug)]
pub struct Mcts<G: Game> {
    game: G,
    config: SearchConfig,
    tree: Tree<G>,
    /// The game start and the moves that lead to the root, to recognise a later position as a
    /// descendant whose subtree can be kept.
    start: Option<G::State>,
    root_line: Vec<G::Move>,
    repetition: PathRepetition,
    moves: G::Moves,
    batch: LeafBatch<G>,
    /// The tree node of each queued leaf.
    pending: Vec<NodeId>,
    evaluations: Evaluations,
    /// The root policy's state for the current root.
    root: RootSearch,
    /// Whether the current searches' root gets its Dirichlet noise ([`Mcts::set_budget`]).
    explore_root: bool,
    /// A draw's value for side zero under contempt: `-contempt` when side zero searches, else
    /// `+contempt`. The tree's values hold it, so the tree is kept only for roots of that side.
    draw_value_zero: f32,
    /// Scratch: the root moves as the root policy sees them.
    root_moves: Vec<RootMove>,
    /// The root moves to search (UCI's `go searchmoves`); empty: every legal move.
    root_only: Vec<G::Move>,
}

impl<G: Game> Mcts<G> {
    pub fn new(game: G, config: SearchConfig) -> Mcts<G> {
        // Room for a typical search up front; a bigger one grows the tree as it goes, so a huge
        // `simulations` costs memory only as it is used.
        let nodes = (config.simulations as usize + 1).min(1 << 16);
        Mcts {
            game,
            config,
            tree: Tree::with_capacity(nodes, nodes * 16),
            start: None,
            root_line: Vec::new(),
            repetition: PathRepetition::default(),
            moves: G::Moves::default(),
            batch: LeafBatch::default(),
            pending: Vec::with_capacity(config.batch),
            evaluations: Evaluations::default(),
            root: RootSearch::new(config.root),
            explore_root: true,
            draw_value_zero: 0.0,
            root_moves: Vec::new(),
            root_only: Vec::new(),
        }
    }

    /// Searches only `moves` at the root from now on (those that are legal; none given, or none legal:
    /// every legal move), as UCI's `go searchmoves` asks: the root is made with those moves alone, so
    /// its priors, its proof and the move played are over them.
    pub fn restrict_root(&mut self, moves: &[G::Move]) {
        self.root_only = moves.to_vec();
    }

    /// Sets the simulations of the next searches and whether their root explores (gets the Dirichlet
    /// noise of [`RootPolicy::Puct`]): self-play alternates full searches, which explore and become
    /// training samples, with fast ones, which do neither.
    pub fn set_budget(&mut self, simulations: u32, explore_root: bool) {
        self.config.simulations = simulations;
        self.explore_root = explore_root;
    }

    pub fn game(&self) -> &G {
        &self.game
    }

    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    pub fn tree(&self) -> &Tree<G> {
        &self.tree
    }

    /// Sets the position to search: the game's `start` and the `moves` played since. The moves give the
    /// repetition history and the ply count; when the position lies in the current tree, its subtree
    /// is kept (with `reuse_tree`).
    pub fn set_position(&mut self, start: &G::State, moves: &[G::Move]) {
        let state = self.repetition.set_history(&self.game, start, moves);
        let draw_value_zero = match self.game.to_move(&state) {
            Side::ZERO => -self.config.contempt,
            _ => self.config.contempt,
        };
        let same_draw_value = draw_value_zero == self.draw_value_zero;
        self.draw_value_zero = draw_value_zero;
        if self.root_only.is_empty()
            && let Some(node) = self.reusable_node(start, moves)
            && self.tree.node(node).state == state
            && same_draw_value
        {
            if node != ROOT {
                self.tree.reroot(node);
                self.root.renew();
            }
        } else {
            self.tree.clear();
            self.root.renew();
            let plies = moves.len() as u32;
            // A root that is a third occurrence ended the game already; nobody searches such a position.
            let outcome = judge(&self.game, &state, plies, false, &mut self.moves);
            let root = self.new_node(state, NO_NODE, plies, false, outcome.map(Proof::terminal));
            let only = &self.root_only;
            let kept: Vec<G::Move>;
            let moves: &[G::Move] = if outcome.is_some() {
                &[]
            } else if self.moves.iter().any(|m| only.contains(m)) {
                kept = self.moves.iter().copied().filter(|m| only.contains(m)).collect();
                &kept
            } else {
                &self.moves
            };
            self.tree.push(root, moves);
            self.prove_win_in_one(ROOT);
            // A root searched over some of its moves is no position's whole tree: no later search
            // starts from it.
            self.start = self.root_only.is_empty().then(|| start.clone());
        }
        self.root_line.clear();
        self.root_line.extend_from_slice(moves);
    }

    /// The node for the position after `moves`, if the tree holds it below the current root.
    fn reusable_node(&self, start: &G::State, moves: &[G::Move]) -> Option<NodeId> {
        let reuse = self.config.reuse_tree && self.config.root.reuses_tree();
        if !reuse || self.tree.is_empty() || self.start.as_ref() != Some(start) {
            return None;
        }
        let later = moves.strip_prefix(self.root_line.as_slice())?;
        later.iter().try_fold(ROOT, |node, &mv| self.tree.child_by_move(node, mv))
    }

    fn new_node(
        &self,
        state: G::State,
        parent: NodeId,
        plies: u32,
        irreversible: bool,
        proof: Option<Proof>,
    ) -> Node<G::State> {
        Node {
            to_move: self.game.to_move(&state),
            hash: self.game.position_hash(&state),
            state,
            parent,
            first_edge: 0,
            edge_count: 0,
            visits: 0,
            virtual_visits: 0,
            value_sum: 0.0,
            plies,
            irreversible,
            evaluated: proof.is_some(),
            proof: proof.unwrap_or(Proof::Unknown),
        }
    }

    /// Runs `config.simulations` simulations from the position given to [`Mcts::set_position`], or
    /// fewer when the root gets proven.
    pub fn run<E: Evaluator<G>, R: Rng>(&mut self, evaluator: &mut E, rng: &mut R) -> SearchReport {
        self.run_watched(evaluator, rng, |_| true)
    }

    /// [`Mcts::run`], asking `keep_going` with the simulations done so far before each batch of
    /// leaves: it may report progress, and it ends the search early by answering `false` (a time
    /// limit, a person who stopped waiting). The search is then as good as its simulations so far.
    pub fn run_watched<E: Evaluator<G>, R: Rng>(
        &mut self,
        evaluator: &mut E,
        rng: &mut R,
        mut keep_going: impl FnMut(u32) -> bool,
    ) -> SearchReport {
        assert!(!self.tree.is_empty(), "set_position comes before run");
        let mut report = SearchReport {
            simulations: 0,
            collisions: 0,
            value: 0.0,
            proof: Proof::Unknown,
            root_visits: 0,
            tree_nodes: 0,
        };
        while report.simulations < self.config.simulations
            && !self.tree.node(ROOT).proof.is_proven()
            && keep_going(report.simulations)
        {
            self.prepare_root(rng); // a reused root was evaluated before this search

            let wanted = (self.config.simulations - report.simulations).min(self.config.batch as u32);
            let (finished, collisions) = self.gather_leaves(wanted);
            report.simulations += finished;
            report.collisions += collisions;
            if !self.batch.is_empty() {
                let mut evaluations = std::mem::take(&mut self.evaluations);
                evaluations.prepare(&self.batch);
                evaluator.evaluate(&self.game, &self.batch, &mut evaluations);
                report.simulations += self.absorb_evaluations(&evaluations, rng);
                self.evaluations = evaluations;
            }
        }
        self.prepare_root(rng);
        let root = self.tree.node(ROOT);
        report.proof = root.proof;
        report.value = root.proof.value_for(root.to_move).or(root.mean_for(root.to_move)).unwrap_or(0.0);
        report.root_visits = root.visits;
        report.tree_nodes = self.tree.nodes.len();
        report
    }

    /// Prepares the root once its priors are known, once per root (its root policy's noise or
    /// schedule, drawn from `rng`).
    fn prepare_root<R: Rng>(&mut self, rng: &mut R) {
        if self.root.is_prepared() || !self.tree.node(ROOT).evaluated {
            return;
        }
        self.fill_root_moves();
        let range = self.tree.edge_range(ROOT);
        let (explore, simulations) = (self.explore_root, self.config.simulations);
        self.root.prepare(&self.root_moves, &mut self.tree.edges[range], explore, simulations, rng);
    }

    /// The root moves' priors, visits and values as the root policy sees them, into `root_moves`.
    fn fill_root_moves(&mut self) {
        let mover = self.tree.node(ROOT).to_move;
        let mut moves = std::mem::take(&mut self.root_moves);
        moves.clear();
        moves.extend(self.tree.edges_of(ROOT).iter().map(|edge| match edge.child {
            NO_NODE => RootMove { prior: edge.prior, ..RootMove::default() },
            child => {
                let node = self.tree.node(child);
                let q = self.exact_value(node.proof, mover).or(node.mean_for(mover)).unwrap_or(0.0);
                RootMove { prior: edge.prior, visits: node.visits, in_flight: node.virtual_visits, q }
            }
        }));
        self.root_moves = moves;
    }

    /// The root policy's choice for the next descent (an index into the edge arena), where it picks.
    fn select_root_edge(&mut self) -> Option<usize> {
        if !self.root.picks_moves() {
            return None;
        }
        self.fill_root_moves();
        Some(self.tree.edge_range(ROOT).start + self.root.select(&self.root_moves)?)
    }

    /// Descends up to `wanted` times, queueing new leaves for the evaluator (see [`Mcts::leaves`]) and
    /// backing up finished or proven positions at once. Returns the simulations finished here and the
    /// descents dropped because they met a queued leaf.
    pub fn gather_leaves(&mut self, wanted: u32) -> (u32, u32) {
        self.batch.clear();
        self.pending.clear();
        let (mut finished, mut collisions) = (0, 0);
        while finished + (self.pending.len() as u32) < wanted && collisions < wanted {
            if self.tree.node(ROOT).proof.is_proven() {
                break;
            }
            match self.descend() {
                Descent::Proven(id) => {
                    let node = self.tree.node(id);
                    let value = self.exact_value(node.proof, Side::ZERO).expect("a proven node");
                    self.backup(id, value as f64, false);
                    self.propagate_proof(id);
                    finished += 1;
                }
                Descent::Leaf(id) => {
                    self.add_virtual_loss(id);
                    let node = &self.tree.nodes[id as usize];
                    let moves = self.tree.edges_of(id).iter().map(|e| e.mv);
                    self.batch.push(&node.state, node.plies, moves);
                    self.pending.push(id);
                }
                Descent::Collision => collisions += 1,
            }
        }
        (finished, collisions)
    }

    /// The root's proof so far.
    pub fn root_proof(&self) -> Proof {
        self.tree.node(ROOT).proof
    }

    /// The leaves queued by the last [`Mcts::gather_leaves`].
    pub fn leaves(&self) -> &LeafBatch<G> {
        &self.batch
    }

    /// Stores the evaluator's answers for the queued leaves and backs their values up; once the root
    /// is evaluated, prepares it (its noise or Gumbel schedule, drawn from `rng`). Returns the number
    /// of simulations this finishes.
    pub fn absorb_evaluations<R: Rng>(&mut self, evaluations: &Evaluations, rng: &mut R) -> u32 {
        let pending = std::mem::take(&mut self.pending);
        for (leaf, &id) in pending.iter().enumerate() {
            self.set_priors(id, &evaluations.priors[self.batch.range(leaf)]);
            let draw_value = self.draw_value(self.tree.node(id).to_move);
            let node = self.tree.node_mut(id);
            node.evaluated = true;
            let value = evaluations.values[leaf] + draw_value * evaluations.draws[leaf];
            let value = if value.is_finite() { value.clamp(-1.0, 1.0) } else { 0.0 };
            if id == ROOT {
                self.root.set_raw_value(value);
            }
            let value = if node.to_move == Side::ZERO { value } else { -value };
            self.backup(id, value as f64, true);
        }
        let count = pending.len() as u32;
        self.pending = pending;
        self.pending.clear();
        self.prepare_root(rng);
        count
    }

    /// Normalised priors; weights that are negative, not finite or all zero fall back to uniform.
    fn set_priors(&mut self, id: NodeId, weights: &[f32]) {
        let range = self.tree.edge_range(id);
        let usable = |w: f32| if w.is_finite() && w > 0.0 { w } else { 0.0 };
        let total: f32 = weights.iter().map(|&w| usable(w)).sum();
        let uniform = 1.0 / range.len().max(1) as f32;
        for (edge, &w) in self.tree.edges[range].iter_mut().zip(weights) {
            edge.prior = if total > 0.0 { usable(w) / total } else { uniform };
        }
    }

    /// One descent from the root to a leaf.
    fn descend(&mut self) -> Descent {
        self.repetition.begin_descent();
        let mut id = ROOT;
        loop {
            let node = self.tree.node(id);
            if node.proof.is_proven() {
                return Descent::Proven(id);
            }
            if !node.evaluated {
                // Only a fresh root is unevaluated without being queued.
                return if node.virtual_visits > 0 { Descent::Collision } else { Descent::Leaf(id) };
            }
            let picked = if id == ROOT { self.select_root_edge() } else { None };
            let edge = picked.unwrap_or_else(|| self.select_edge(id));
            let child = self.tree.edges[edge].child;
            if child == NO_NODE {
                let child = self.create_child(id, edge);
                let proven = self.tree.node(child).proof.is_proven();
                return if proven { Descent::Proven(child) } else { Descent::Leaf(child) };
            }
            let child_node = self.tree.node(child);
            self.repetition.enter(child_node.hash, child_node.irreversible);
            id = child;
        }
    }

    /// The PUCT choice among `id`'s edges (an index into the edge arena).
    #[inline]
    fn select_edge(&self, id: NodeId) -> usize {
        let node = self.tree.node(id);
        let mover = node.to_move;
        let sqrt_visits = ((node.visits + node.virtual_visits) as f32).sqrt();
        let unvisited_value = first_play_value(self.config.fpu, node.mean_for(mover).unwrap_or(0.0));
        let range = self.tree.edge_range(id);
        let mut best = (range.start, f32::NEG_INFINITY);
        for (index, edge) in self.tree.edges[range.clone()].iter().enumerate() {
            let (q, visits) = if edge.child == NO_NODE {
                (unvisited_value, 0)
            } else {
                let child = self.tree.node(edge.child);
                let visits = child.visits + child.virtual_visits;
                let q = match self.exact_value(child.proof, mover) {
                    Some(exact) => exact,
                    None => {
                        mean_with_virtual_loss(child.value_sum_for(mover), child.visits, child.virtual_visits)
                    }
                };
                (q, visits)
            };
            let score = puct_score(q, edge.prior, sqrt_visits, visits, self.config.c_puct);
            if score > best.1 {
                best = (range.start + index, score);
            }
        }
        best.0
    }

    /// Creates the node behind edge `edge` of `parent`, judging it with the full ending rules: a
    /// finished position (repetition along the game and tree path and the cap included) is proven.
    fn create_child(&mut self, parent: NodeId, edge: usize) -> NodeId {
        let parent_node = self.tree.node(parent);
        let mv = self.tree.edges[edge].mv;
        let mut state = parent_node.state.clone();
        let plies = parent_node.plies + 1;
        let irreversible = self.game.is_irreversible(&state, mv);
        self.game.apply(&mut state, mv);
        let repeated = self.repetition.is_third_occurrence(self.game.position_hash(&state), irreversible);
        let outcome = judge(&self.game, &state, plies, repeated, &mut self.moves);
        let node = self.new_node(state, parent, plies, irreversible, outcome.map(Proof::terminal));
        let moves: &[G::Move] = if outcome.is_some() { &[] } else { &self.moves };
        let child = self.tree.push(node, moves);
        self.tree.edges[edge].child = child;
        self.prove_win_in_one(child);
        child
    }

    /// With `find_wins_in_one`, proves `id` won when one of its moves wins at once, creating that
    /// child so the winning move can be played. An immediate win comes before every draw rule
    /// (RULES.md 0.3), so the repetition path is not needed for it.
    fn prove_win_in_one(&mut self, id: NodeId) {
        if !self.config.find_wins_in_one || self.tree.node(id).proof.is_proven() {
            return;
        }
        let node = self.tree.node(id);
        let mover = node.to_move;
        let found = self.tree.edge_range(id).find_map(|edge| {
            let mut state = node.state.clone();
            self.game.apply(&mut state, self.tree.edges[edge].mv);
            match self.game.immediate_result(&state) {
                Some(outcome) if outcome.winner == Some(mover) => Some((edge, state, outcome)),
                _ => None,
            }
        });
        let Some((edge, state, outcome)) = found else { return };
        let (plies, irreversible) =
            (node.plies + 1, self.game.is_irreversible(&node.state, self.tree.edges[edge].mv));
        let winner = self.new_node(state, id, plies, irreversible, Some(Proof::terminal(outcome)));
        let child = self.tree.push(winner, &[]);
        self.tree.edges[edge].child = child;
        self.tree.node_mut(id).proof = Proof::Proven { winner: Some(mover), plies: 1 };
    }

    fn add_virtual_loss(&mut self, mut id: NodeId) {
        while id != NO_NODE {
            let node = self.tree.node_mut(id);
            node.virtual_visits += 1;
            id = node.parent;
        }
    }

    /// Adds one visit with `value` (side zero's view) from `id` up to the root, removing the virtual
    /// visit of a queued leaf.
    fn backup(&mut self, mut id: NodeId, value: f64, was_queued: bool) {
        while id != NO_NODE {
            let node = self.tree.node_mut(id);
            node.visits += 1;
            node.value_sum += value;
            node.virtual_visits -= was_queued as u32;
            id = node.parent;
        }
    }

    /// A draw's value for `side` (0 without contempt).
    #[inline]
    fn draw_value(&self, side: Side) -> f32 {
        if side == Side::ZERO { self.draw_value_zero } else { -self.draw_value_zero }
    }

    /// A proven result's value for `side`, a draw valued with contempt; `None` when not proven.
    #[inline]
    fn exact_value(&self, proof: Proof, side: Side) -> Option<f32> {
        match proof {
            Proof::Proven { winner: None, .. } => Some(self.draw_value(side)),
            _ => proof.value_for(side),
        }
    }

    /// After `id` got proven, proves its ancestors as far as its proof decides them.
    fn propagate_proof(&mut self, mut id: NodeId) {
        loop {
            let parent = self.tree.node(id).parent;
            if parent == NO_NODE || self.tree.node(parent).proof.is_proven() {
                return;
            }
            let nodes = &self.tree.nodes;
            let children = self.tree.edges_of(parent).iter().map(|e| match e.child {
                NO_NODE => Proof::Unknown,
                child => nodes[child as usize].proof,
            });
            let proof = combine(self.tree.node(parent).to_move, children);
            if !proof.is_proven() {
                return;
            }
            self.tree.node_mut(parent).proof = proof;
            id = parent;
        }
    }

    /// Each root move with its visit count (the policy target of self-play).
    pub fn root_visits(&self) -> impl Iterator<Item = (G::Move, u32)> + '_ {
        self.tree.edges_of(ROOT).iter().map(|e| {
            let visits = if e.child == NO_NODE { 0 } else { self.tree.node(e.child).visits };
            (e.mv, visits)
        })
    }

    /// Each root move with its visits and its value for the player to move at the root (exact when
    /// proven; `None` when never visited), in the order of the root's moves.
    pub fn root_stats(&self) -> impl Iterator<Item = (G::Move, u32, Option<f32>)> + '_ {
        let mover = self.tree.node(ROOT).to_move;
        self.tree.edges_of(ROOT).iter().map(move |e| match e.child {
            NO_NODE => (e.mv, 0, None),
            child => {
                let node = self.tree.node(child);
                (e.mv, node.visits, self.exact_value(node.proof, mover).or(node.mean_for(mover)))
            }
        })
    }

    /// The search's answer, `None` when the root has no move: the move to play (see
    /// [`Mcts::choose_move`]) and the policy target over the root moves.
    pub fn output<R: Rng>(&mut self, temperature: f32, rng: &mut R) -> Option<SearchOutput<G::Move>> {
        let mv = self.choose_move(temperature, rng)?;
        Some(SearchOutput { mv, policy: self.policy_target(mv) })
    }

    /// The root policy's own target (a Gumbel root's improved policy), or the visit shares of the
    /// root moves; a proven root, or one without visits, teaches `chosen` alone.
    fn policy_target(&mut self, chosen: G::Move) -> Vec<(G::Move, f32)> {
        let total: u32 = self.root_visits().map(|(_, v)| v).sum();
        if self.root_proof().is_proven() || total == 0 {
            return vec![(chosen, 1.0)];
        }
        if self.root.picks_moves() {
            self.fill_root_moves();
            let moves = self.tree.edges_of(ROOT).iter().map(|e| e.mv);
            if let Some(target) = self.root.target(&self.root_moves, moves) {
                return target;
            }
        }
        let visited = self.root_visits().filter(|&(_, visits)| visits > 0);
        visited.map(|(mv, visits)| (mv, visits as f32 / total as f32)).collect()
    }

    /// The move to play after a search, `None` when the root has no move: the root policy's pick
    /// (a Gumbel root plays the best survivor of its halving) unless the root is proven, else by the
    /// visit counts and proofs ([`choose_by_visits`]).
    fn choose_move<R: Rng>(&mut self, temperature: f32, rng: &mut R) -> Option<G::Move> {
        let root = self.tree.node(ROOT);
        if self.root.picks_moves() && !root.proof.is_proven() && root.edge_count > 0 {
            self.fill_root_moves();
            if let Some(index) = self.root.choose(&self.root_moves) {
                return Some(self.tree.edges[self.tree.edge_range(ROOT).start + index].mv);
            }
        }
        choose_by_visits(&self.tree, temperature, rng)
    }
}

#[cfg(test)]
mod tests;
