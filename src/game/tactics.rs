//! What a classical (alpha-beta) search needs to know of a ruleset beyond its moves: which moves change
//! material (the moves a quiescence search plays), how promising such a move looks before it is
//! searched, whether the side to move must answer an attack (searched a ply deeper, never standing
//! pat), whether handing the move over is a sound guess at a position's worth (null-move pruning,
//! unsound where zugzwang is common), and a cheap key for a transposition table.
//!
//! The defaults fit a game with no captures worth chasing and no null moves; each family overrides
//! what it knows.

use super::Game;

pub trait Tactics: Game {
    /// Whether the side to move is attacked in a way it must answer (a chess check).
    fn in_check(&self, _state: &Self::State) -> bool {
        false
    }

    /// Whether a move changes material: a capture or a promotion.
    fn is_noisy(&self, _state: &Self::State, _mv: Self::Move) -> bool {
        false
    }

    /// How good a noisy move looks before it is searched, higher first: the most valuable victim by
    /// the least valuable attacker.
    fn noisy_rank(&self, _state: &Self::State, _mv: Self::Move) -> i32 {
        0
    }

    /// Whether a noisy move keeps its material once the exchanges on its square are played out (a
    /// static exchange evaluation of at least 0); a quiescence search skips those that do not.
    fn keeps_material(&self, _state: &Self::State, _mv: Self::Move) -> bool {
        true
    }

    /// The position with the move handed to the opponent and nothing else changed (a null move), where
    /// a pass is a sound guess at a lower bound of the position's worth; `None` where zugzwang is
    /// likely or a pass is not a position of the game.
    fn pass(&self, _state: &Self::State) -> Option<Self::State> {
        None
    }

    /// A key of the position for a transposition table: like [`Game::position_hash`], but it may be
    /// cheaper where that one does more than a table needs.
    fn table_key(&self, state: &Self::State) -> u64 {
        self.position_hash(state)
    }
}
