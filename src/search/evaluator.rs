//! What the search asks of a position: priors over its legal moves and a value. An [`Evaluator`]
//! answers a whole batch of leaves at once, so a neural network (added in the `nn` layer) can run one
//! forward pass per batch; the search itself does not change.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::game::Game;
use crate::game::playout::{PlayoutScratch, RolloutPolicy, random_playout};

/// Leaf positions waiting for evaluation, stored flat so that a batch reuses its buffers.
#[derive(Clone, Debug)]
pub struct LeafBatch<G: Game> {
    states: Vec<G::State>,
    plies: Vec<u32>,
    /// Every leaf's legal moves, concatenated; leaf `i` owns `moves[offsets[i]..offsets[i + 1]]`.
    moves: Vec<G::Move>,
    offsets: Vec<usize>,
}

impl<G: Game> Default for LeafBatch<G> {
    fn default() -> LeafBatch<G> {
        LeafBatch { states: Vec::new(), plies: Vec::new(), moves: Vec::new(), offsets: vec![0] }
    }
}

impl<G: Game> LeafBatch<G> {
    pub fn clear(&mut self) {
        self.states.clear();
        self.plies.clear();
        self.moves.clear();
        self.offsets.truncate(1);
    }

    /// Adds a leaf: its position, the moves played to reach it since the game's start, its legal moves.
    pub fn push(&mut self, state: &G::State, plies: u32, moves: impl IntoIterator<Item = G::Move>) {
        self.states.push(state.clone());
        self.plies.push(plies);
        self.moves.extend(moves);
        self.offsets.push(self.moves.len());
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    pub fn state(&self, leaf: usize) -> &G::State {
        &self.states[leaf]
    }

    /// Moves played since the start of the game (for the draw cap).
    pub fn plies(&self, leaf: usize) -> u32 {
        self.plies[leaf]
    }

    /// The leaf's legal moves, in the order its priors are expected.
    pub fn moves(&self, leaf: usize) -> &[G::Move] {
        &self.moves[self.offsets[leaf]..self.offsets[leaf + 1]]
    }

    /// Where leaf `leaf`'s moves (and priors) lie in the flat arrays.
    pub fn range(&self, leaf: usize) -> std::ops::Range<usize> {
        self.offsets[leaf]..self.offsets[leaf + 1]
    }

    /// The number of moves of all leaves together.
    pub fn total_moves(&self) -> usize {
        self.moves.len()
    }
}

/// An evaluator's answers for a [`LeafBatch`], laid out like it.
#[derive(Clone, Debug, Default)]
pub struct Evaluations {
    /// One non-negative weight per move of every leaf (same flat layout as the batch's moves). They need
    /// not sum to one; the search normalises them.
    pub priors: Vec<f32>,
    /// One value per leaf in [-1, 1], from the point of view of the leaf's player to move.
    pub values: Vec<f32>,
    /// One probability per leaf that it ends in a draw (the network's D of win/draw/loss, a drawn
    /// rollout's 1); left at 0 by evaluators that do not say. Only a search with contempt reads it.
    pub draws: Vec<f32>,
}

impl Evaluations {
    /// Sizes the buffers for `batch`, keeping their capacity.
    pub fn prepare<G: Game>(&mut self, batch: &LeafBatch<G>) {
        self.priors.clear();
        self.priors.resize(batch.total_moves(), 0.0);
        self.values.clear();
        self.values.resize(batch.len(), 0.0);
        self.draws.clear();
        self.draws.resize(batch.len(), 0.0);
    }
}

/// Evaluates a batch of non-terminal positions. `out` arrives sized for `leaves` (see
/// [`Evaluations::prepare`]) and filled with zeros.
pub trait Evaluator<G: Game> {
    fn evaluate(&mut self, game: &G, leaves: &LeafBatch<G>, out: &mut Evaluations);
}

/// Uniform priors and the value 0: search guided by nothing but the rules (and the solver). Measures the
/// tree's own overhead.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformEvaluator;

impl<G: Game> Evaluator<G> for UniformEvaluator {
    fn evaluate(&mut self, _game: &G, _leaves: &LeafBatch<G>, out: &mut Evaluations) {
        out.priors.fill(1.0);
    }
}

/// Uniform priors and the result of one random playout: classic UCT. The playout counts repetitions
/// only from the leaf on, not along the tree path above it.
#[derive(Clone, Debug)]
pub struct RolloutEvaluator<G: Game> {
    policy: RolloutPolicy,
    rng: Pcg64Mcg,
    scratch: PlayoutScratch<G>,
}

impl<G: Game> RolloutEvaluator<G> {
    pub fn new(policy: RolloutPolicy, seed: u64) -> RolloutEvaluator<G> {
        RolloutEvaluator { policy, rng: Pcg64Mcg::seed_from_u64(seed), scratch: PlayoutScratch::new() }
    }
}

impl<G: Game> Evaluator<G> for RolloutEvaluator<G> {
    fn evaluate(&mut self, game: &G, leaves: &LeafBatch<G>, out: &mut Evaluations) {
        out.priors.fill(1.0);
        for leaf in 0..leaves.len() {
            let state = leaves.state(leaf);
            let mover = game.to_move(state);
            let (outcome, _) = random_playout(
                game,
                state.clone(),
                leaves.plies(leaf),
                self.policy,
                &mut self.rng,
                &mut self.scratch,
            );
            out.values[leaf] = outcome.value_for(mover);
            out.draws[leaf] = if outcome.winner.is_none() { 1.0 } else { 0.0 };
        }
    }
}
