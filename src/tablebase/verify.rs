//! The proof that a table is right: every position's stored verdict must equal the one its moves
//! give, by the rules' own move generator (not the builder's un-moves). A labelling of wins, losses
//! and distances that agrees with its moves everywhere is the game's only one: by induction on the
//! distance, each decided position is decided the same way in both, and so are the draws left over.
//!
//! Beside it, a spot check that shares nothing with the tables: a plain minimax over the rules to a
//! small depth, from random positions, must find exactly the results the table says lie within reach.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

use super::consistency::{Inconsistency, VerifyError};
use super::index;
use super::rules::is_position;
use super::table::{Store, Tablebase};
use super::verdict::Verdict;
use crate::game::hunt::{HuntGame, HuntState};
use crate::game::{Game, Side};

/// Positions checked per parallel chunk.
const CHUNK: usize = 1 << 10;

impl Tablebase {
    /// Checks every position of every level; returns how many, or the first contradiction found.
    /// `progress` hears each level's Rebel count and positions checked.
    pub fn verify(&self, mut progress: impl FnMut(u32, u64)) -> Result<u64, VerifyError> {
        let levels = match &self.store {
            Store::Chinese(levels) => levels,
            Store::Japanese(table) => return table.verify(&self.game, progress),
        };
        let mut checked = 0;
        for level in levels.iter() {
            let sets = level.sets();
            let n = (0..sets.div_ceil(CHUNK))
                .into_par_iter()
                .map(|chunk| {
                    let first = chunk * CHUNK;
                    let mut set = level.set_at(first);
                    let mut n = 0u64;
                    for r in first..(first + CHUNK).min(sets) {
                        n += self.verify_set(set as u64)?;
                        if r + 1 < sets {
                            set = index::next_set(set);
                        }
                    }
                    Ok::<u64, Inconsistency>(n)
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

    /// The spot check: `positions` random positions of the table's levels (of at most `most_rebels`
    /// Rebels), each searched to `depth` plies by plain minimax over the rules; every result the search
    /// finds must be the table's, and every result the table puts within `depth` plies the search's.
    pub fn spot_check(
        &self,
        positions: usize,
        depth: u32,
        most_rebels: u32,
        seed: u64,
    ) -> Result<SpotCheck, VerifyError> {
        let levels: Vec<u32> =
            self.level_tallies().into_iter().map(|(n, _)| n).filter(|&n| n <= most_rebels).collect();
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let points = self.game.board().len() as u32;
        let starts: Vec<HuntState> = (0..positions)
            .map(|_| {
                loop {
                    let rebels = levels[rng.random_range(0..levels.len())];
                    let mut set = 0u64;
                    while set.count_ones() < rebels {
                        set |= 1 << rng.random_range(0..points);
                    }
                    let s = HuntState {
                        general: rng.random_range(0..points) as u8,
                        rebels: set,
                        to_move: if rng.random_bool(0.5) { Side::ZERO } else { Side::ONE },
                        result: None,
                    };
                    if is_position(&self.game, &s) {
                        break s;
                    }
                }
            })
            .collect();
        let within: Vec<bool> = starts
            .par_iter()
            .map(|s| {
                let stored = self.probe(s).expect("a position of a held level");
                let searched = search(&self.game, s, depth);
                let reachable = match stored {
                    Verdict::Win { plies } | Verdict::Loss { plies } => plies <= depth,
                    Verdict::Draw => false,
                };
                if searched.is_some() != reachable || searched.is_some_and(|v| v != stored) {
                    return Err(VerifyError::Search {
                        position: self.game.format_position(s),
                        stored,
                        searched: searched.map_or("nothing within reach".to_string(), |v| v.to_string()),
                        depth,
                    });
                }
                Ok(reachable)
            })
            .collect::<Result<_, _>>()?;
        Ok(SpotCheck { positions, decided_within_depth: within.iter().filter(|w| **w).count(), depth })
    }
}

/// What the spot check compared.
#[derive(Clone, Copy, Debug)]
pub struct SpotCheck {
    pub positions: usize,
    /// Positions whose result lay within the depth (the others the search must leave open).
    pub decided_within_depth: usize,
    pub depth: u32,
}

/// The result of `s` for its side to move if one is forced within `depth` plies (exact: the shortest
/// win, the longest loss), by minimax over every move; `None` when neither side forces one that soon.
fn search(game: &HuntGame, s: &HuntState, depth: u32) -> Option<Verdict> {
    let mut moves = Default::default();
    game.legal_moves(s, &mut moves);
    if moves.is_empty() {
        return Some(Verdict::Loss { plies: 0 });
    }
    if depth == 0 {
        return None;
    }
    let (mut best_win, mut longest_loss, mut all_lose) = (None::<u32>, 0, true);
    for &m in moves.iter() {
        let mut next = *s;
        game.apply(&mut next, m);
        let verdict = match next.result {
            Some(o) if o.winner == Some(s.to_move) => Some(Verdict::Win { plies: 1 }),
            Some(o) if o.winner.is_some() => Some(Verdict::Loss { plies: 1 }),
            Some(_) => None,
            None => {
                search(game, &next, depth - 1).map(|v| v.for_side(next.to_move, s.to_move).one_ply_earlier())
            }
        };
        match verdict {
            Some(Verdict::Win { plies }) => best_win = Some(best_win.map_or(plies, |b| b.min(plies))),
            Some(Verdict::Loss { plies }) => longest_loss = longest_loss.max(plies),
            _ => all_lose = false,
        }
    }
    match best_win {
        Some(plies) => Some(Verdict::Win { plies }),
        None if all_lose => Some(Verdict::Loss { plies: longest_loss }),
        None => None,
    }
}
