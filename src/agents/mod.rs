//! Players: agents that choose moves (random, rollout MCTS; a network agent joins in the `nn` layer),
//! the spec strings that name them, and the arena that plays matches between them.
//!
//! The arena lives here rather than in `lab` because it only needs agents and games; the lab's balance
//! studies schedule many such matches.

pub mod arena;
pub mod mcts;
pub mod perfect;
pub mod random;
pub mod spec;

pub use arena::{MatchSettings, MatchSummary, play_game, random_opening, run_match};
pub use spec::{AgentError, AgentSpec, MAX_SIMULATIONS, MctsSettings, NetSettings, SearchSettings};

use crate::game::{Game, Playthrough};

/// A player. Every random choice it makes flows from the seed it was built with.
pub trait Agent<G: Game> {
    /// The move to play in `line`'s current position; the game is not over.
    fn choose(&mut self, line: &Playthrough<G>) -> G::Move;

    /// A line for a person about the last choice ("value +0.31 after 800 simulations"), if any.
    fn last_note(&self) -> Option<String> {
        None
    }
}
