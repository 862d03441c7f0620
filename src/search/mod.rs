//! Monte-Carlo tree search over any [`Game`](crate::game::Game), guided by an [`Evaluator`] that
//! answers batches of leaves (random rollouts here; a network in the `nn` layer later).
//!
//! - [`tree`]: the preallocated node and edge arenas, re-rooting for subtree reuse;
//! - [`select`]: PUCT, first-play urgency and virtual loss as pure functions;
//! - [`solver`]: proofs of won, lost and drawn nodes and their distances;
//! - [`repetition`]: repetition draws along the game history and the tree path;
//! - [`noise`]: Dirichlet root noise (gamma sampling);
//! - [`root`]: the root policies (PUCT with noise, Gumbel): how the root explores, plays and teaches;
//! - [`gumbel`]: Gumbel AlphaZero's root: sequential halving and the improved policy;
//! - [`evaluator`]: the batch interface and the uniform and rollout evaluators;
//! - [`mcts`]: the driver tying them together: descents, batched evaluation, backup and proofs;
//! - [`alphabeta`]: a classical search (iterative deepening, PVS, a transposition table, quiescence)
//!   over the game's [`Tactics`](crate::game::tactics::Tactics), with a hand-written chess evaluation.

pub mod alphabeta;
pub mod evaluator;
pub mod gumbel;
pub mod mcts;
pub mod noise;
pub mod repetition;
pub mod root;
pub mod select;
pub mod solver;
pub mod tree;

pub use evaluator::{Evaluations, Evaluator, LeafBatch, RolloutEvaluator, UniformEvaluator};
pub use mcts::{Mcts, SearchConfig, SearchOutput, SearchReport, move_temperature};
pub use noise::DirichletNoise;
pub use root::RootPolicy;
pub use select::Fpu;
pub use solver::Proof;
