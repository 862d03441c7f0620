//! The proof that a table is right: every position's stored verdict must equal the one its moves
//! give, by the rules' own move generator (not the builder's un-moves). A labelling of wins, losses
//! and distances that agrees with its moves everywhere is the game's only one: by induction on the
//! distance, each decided position is decided the same way in both, and so are the draws left over.

use rayon::prelude::*;

use super::{Tablebase, Verdict, index, is_position};
use crate::game::hunt::HuntState;
use crate::game::{Game, Side};

/// A position whose stored verdict its moves contradict.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the table says {stored} of `{position}` (for the side to move), its moves say {}",
    from_moves.map_or("nothing (no legal move)".to_string(), |v| v.to_string())
)]
pub struct Inconsistency {
    pub position: String,
    pub stored: Verdict,
    pub from_moves: Option<Verdict>,
}

/// Positions checked per parallel chunk.
const CHUNK: usize = 1 << 10;

impl Tablebase {
    /// Checks every position of every level; returns how many, or the first contradiction found.
    pub fn verify(&self, mut progress: impl FnMut(u32, u64)) -> Result<u64, Inconsistency> {
        let mut checked = 0;
        for level in self.levels.0.iter().flatten() {
            let sets = index::sets_of(level.rebels);
            let n = (0..sets.div_ceil(CHUNK))
                .into_par_iter()
                .map(|chunk| {
                    let first = chunk * CHUNK;
                    let mut set = index::unrank(first as u32, level.rebels);
                    let mut n = 0u64;
                    for r in first..(first + CHUNK).min(sets) {
                        n += self.verify_set(set as u64)?;
                        if r + 1 < sets {
                            set = index::next_set(set);
                        }
                    }
                    Ok(n)
                })
                .try_reduce(|| 0, |a, b| Ok(a + b))?;
            checked += n;
            progress(level.rebels, n);
        }
        Ok(checked)
    }

    fn verify_set(&self, rebels: u64) -> Result<u64, Inconsistency> {
        let mut n = 0;
        for general in 0..self.game.board().len() as u8 {
            for to_move in Side::BOTH {
                let s = HuntState { general, rebels, to_move, result: None };
                if !is_position(&self.game, &s) {
                    continue;
                }
                let stored = self.probe(&s).expect("a position of a solved level");
                let from_moves = self.verdict_from_moves(&s);
                if from_moves != Some(stored) {
                    return Err(Inconsistency {
                        position: self.game.format_position(&s),
                        stored,
                        from_moves,
                    });
                }
                n += 1;
            }
        }
        Ok(n)
    }
}
