//! Repetition inside the tree: the positions of the game since its last irreversible move, followed by
//! the positions on the current descent, in one reusable stack. A tree node is a third occurrence (a
//! draw, RULES.md 0.4) when its position already stands twice on that path.

use crate::game::Game;

#[derive(Clone, Debug, Default)]
pub struct PathRepetition {
    hashes: Vec<u64>,
    /// How many hashes belong to the game history (root included); descents start from there.
    history_len: usize,
    /// Index of the first position after the last irreversible move on the current path.
    since: usize,
}

impl PathRepetition {
    /// Replays `moves` from `start`, records the positions since the last irreversible move (the final
    /// position included), and returns the final position.
    pub fn set_history<G: Game>(&mut self, game: &G, start: &G::State, moves: &[G::Move]) -> G::State {
        let mut state = start.clone();
        self.hashes.clear();
        self.hashes.push(game.position_hash(&state));
        for &mv in moves {
            if game.is_irreversible(&state, mv) {
                self.hashes.clear();
            }
            game.apply(&mut state, mv);
            self.hashes.push(game.position_hash(&state));
        }
        self.history_len = self.hashes.len();
        self.since = 0;
        state
    }

    /// Forgets the previous descent.
    #[inline]
    pub fn begin_descent(&mut self) {
        self.hashes.truncate(self.history_len);
        self.since = 0;
    }

    /// Records the position a descent steps into.
    #[inline]
    pub fn enter(&mut self, hash: u64, irreversible: bool) {
        if irreversible {
            self.since = self.hashes.len();
        }
        self.hashes.push(hash);
    }

    /// Whether a position with `hash`, reached from the end of the path by a move that is `irreversible`
    /// or not, would be its third occurrence. The hash includes the side to move, so every earlier
    /// position is compared, whatever the order of turns.
    #[inline]
    pub fn is_third_occurrence(&self, hash: u64, irreversible: bool) -> bool {
        !irreversible && self.hashes[self.since..].iter().filter(|&&h| h == hash).count() >= 2
    }
}
