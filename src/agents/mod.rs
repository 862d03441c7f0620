//! Players: agents that choose moves (random, rollout MCTS; a network agent joins in the `nn` layer),
//! the spec strings that name them, and the arena that plays matches between them.
//!
//! The arena lives here rather than in `lab` because it only needs agents and games; the lab's balance
//! studies schedule many such matches.

pub mod alphabeta;
pub mod arena;
pub mod match_folder;
pub mod mcts;
pub mod perfect;
pub mod random;
pub mod spec;

pub use arena::{BookOpenings, MatchSettings, MatchSummary, play_game, random_opening, run_match};
pub use match_folder::{MatchFolder, MatchFolderError, MatchIdentity};
pub use mcts::SearchSettings;
pub use spec::{AgentError, AgentSpec, MAX_SIMULATIONS, MctsSettings, NetSettings, SHIPPED_PATH};

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;

use crate::game::{Game, Playthrough};

/// A player. Every random choice it makes flows from the seed it was built with.
pub trait Agent<G: Game> {
    /// The move to play in `line`'s current position; the game is not over.
    fn choose(&mut self, line: &Playthrough<G>) -> G::Move;

    /// [`Agent::choose`] watched from another thread: an agent that searches reports its progress in
    /// `watch` and stops early (playing its best move so far) once [`Watch::should_stop`] says so.
    fn choose_watched(&mut self, line: &Playthrough<G>, watch: &Watch) -> G::Move {
        let _ = watch;
        self.choose(line)
    }

    /// Searches only `moves` in the positions it is asked about from now on (UCI's `go searchmoves`;
    /// none given, or none legal there: every move). Whether the agent can: one that does not search
    /// answers `false` and plays as before.
    fn search_only(&mut self, moves: &[G::Move]) -> bool {
        let _ = moves;
        false
    }

    /// The root of the last search, most visited move first: each move with its visits and its value
    /// for the player who searched (−1..1; `None` when unvisited). Empty for agents that do not search.
    fn last_root(&self) -> Vec<(G::Move, u32, Option<f32>)> {
        Vec::new()
    }

    /// The value of the last searched position for the player to move there (−1 a loss, +1 a win), if
    /// the agent searches: what the lab's opening judge reads.
    fn last_value(&self) -> Option<f32> {
        None
    }

    /// A line for a person about the last choice ("value +0.31 after 800 simulations"), if any.
    fn last_note(&self) -> Option<String> {
        None
    }
}

/// A search in progress as another thread sees it: simulations done out of those planned, a stop
/// flag, and an optional deadline (which may be set once the search gets going).
#[derive(Debug, Default)]
pub struct Watch {
    pub done: AtomicU32,
    pub planned: AtomicU32,
    stop: AtomicBool,
    deadline: OnceLock<Instant>,
}

impl Watch {
    /// A watch whose search ends by itself at `deadline`.
    pub fn until(deadline: Instant) -> Watch {
        let watch = Watch::default();
        watch.start_clock(deadline);
        watch
    }

    /// Sets the deadline, unless one is set already.
    pub fn start_clock(&self, deadline: Instant) {
        let _ = self.deadline.set(deadline);
    }

    /// Asks the search to end as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the search should end now: stopped, or past its deadline.
    pub fn should_stop(&self) -> bool {
        self.is_stopped() || self.deadline.get().is_some_and(|&d| Instant::now() >= d)
    }
}
