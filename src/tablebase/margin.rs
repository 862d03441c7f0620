//! How much room for error a result leaves: the share of the mover's legal moves that keep what it can
//! force (a win stays a win, a draw a draw), at one position, along best play, and over a level's
//! positions by a seeded sample. "The Rebels win almost automatically" is a margin near 1; a win that
//! only one move in ten keeps is hard to play.
//!
//! The game's cap and repetition are left out: the margin is the table's, position by position.

use std::collections::HashSet;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::Tablebase;
use super::index;
use super::rules::{is_position, rebel_points};
use super::verdict::Verdict;
use crate::game::hunt::{HuntMove, HuntState};
use crate::game::{Game, Side};

/// The moves of one position that keep what the mover can force.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Keeping {
    /// What the mover can force: a win or a draw (a lost position has nothing to keep).
    pub verdict: Verdict,
    pub keeping: u32,
    pub moves: u32,
}

impl Keeping {
    pub fn share(&self) -> f64 {
        f64::from(self.keeping) / f64::from(self.moves)
    }
}

/// A margin over many positions: their count, the mean share of moves that keep the result, and the
/// smallest.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Margin {
    pub positions: u32,
    pub mean: f64,
    pub least: f64,
}

impl Margin {
    /// The margin of these shares (each in 0..=1); the default where there is none.
    pub fn of(shares: impl IntoIterator<Item = f64>) -> Margin {
        let (mut n, mut sum, mut least) = (0u32, 0.0, 1.0f64);
        for share in shares {
            n += 1;
            sum += share;
            least = least.min(share);
        }
        match n {
            0 => Margin::default(),
            _ => Margin { positions: n, mean: sum / f64::from(n), least },
        }
    }
}

/// How the mover ranks a move by its verdict: wins first, the sooner the better; then draws; then
/// losses, the later the better (a move that leaves the table counts as a draw).
fn rank(verdict: Option<Verdict>) -> i64 {
    match verdict {
        Some(Verdict::Win { plies }) => 2_000 - i64::from(plies),
        Some(Verdict::Draw) | None => 1_000,
        Some(Verdict::Loss { plies }) => i64::from(plies),
    }
}

fn keeps(forced: Verdict, verdict: Option<Verdict>) -> bool {
    match forced {
        Verdict::Win { .. } => matches!(verdict, Some(Verdict::Win { .. })),
        _ => matches!(verdict, Some(Verdict::Win { .. } | Verdict::Draw)),
    }
}

impl Tablebase {
    /// The moves of `s` that keep what its mover can force; `None` for a lost position, a finished
    /// game, or one the table does not hold.
    pub fn keeping(&self, s: &HuntState) -> Option<Keeping> {
        let verdict = self.probe(s)?;
        if matches!(verdict, Verdict::Loss { .. }) {
            return None;
        }
        let verdicts = self.move_verdicts(s);
        let keeping = verdicts.iter().filter(|(_, v)| keeps(verdict, *v)).count();
        Some(Keeping { verdict, keeping: keeping as u32, moves: verdicts.len() as u32 })
    }

    /// Best play from `s`: the winner's quickest win against the loser's longest defence, a draw held
    /// by both, the first such move in the move generator's order; the positions before each move, up
    /// to the game's end, `most` moves, or a position met again (a drawn line goes round).
    pub fn best_line(&self, s: &HuntState, most: usize) -> Vec<HuntState> {
        let mut line = Vec::new();
        let mut seen = HashSet::new();
        let mut s = *s;
        while line.len() < most && s.result.is_none() && self.probe(&s).is_some() && seen.insert(s) {
            line.push(s);
            let best: Option<HuntMove> =
                self.move_verdicts(&s).into_iter().max_by_key(|&(_, v)| rank(v)).map(|(m, _)| m);
            let Some(best) = best else { break };
            self.game.apply(&mut s, best);
        }
        line
    }

    /// `side`'s margin along best play from `s`: at each position of the line where `side` moves and
    /// has a win or a draw to keep.
    pub fn margin_along(&self, line: &[HuntState], side: Side) -> Margin {
        Margin::of(
            line.iter().filter(|s| s.to_move == side).filter_map(|s| self.keeping(s)).map(|k| k.share()),
        )
    }

    /// The margin over the positions of `rebels` Rebels, `side` to move, that `side` wins (`drawn`:
    /// that are drawn): a sample of up to `samples` of them drawn uniformly with `seed`, or every one
    /// where the level has fewer. `None` when the table lacks the level (or is not kept in memory).
    pub fn margin_over_level(
        &self,
        rebels: u32,
        side: Side,
        drawn: bool,
        samples: u32,
        seed: u64,
    ) -> Option<Margin> {
        let super::table::Store::Chinese(levels) = &self.store else { return None };
        levels.get(rebels)?;
        let points = rebel_points(&self.game);
        let slots = self.game.board().len();
        let sets = index::sets_on(points, rebels);
        let wanted = |s: &HuntState| match self.probe(s) {
            Some(Verdict::Win { .. }) => !drawn,
            Some(Verdict::Draw) => drawn,
            _ => false,
        };
        let state = |r: usize, general: usize| HuntState {
            general: general as u8,
            rebels: u64::from(index::unrank_on(r as u32, rebels, points)),
            to_move: side,
            result: None,
        };
        let total = sets * slots;
        let shares: Vec<f64> = if total <= samples as usize * 4 {
            (0..total)
                .map(|i| state(i / slots, i % slots))
                .filter(|s| is_position(&self.game, s) && wanted(s))
                .filter_map(|s| self.keeping(&s).map(|k| k.share()))
                .collect()
        } else {
            let mut rng = Pcg64Mcg::seed_from_u64(seed ^ u64::from(rebels) << 32 ^ side.index() as u64);
            let mut found = Vec::new();
            // Tries bounded so that a level where the side wins almost nowhere still ends.
            for _ in 0..samples as usize * 200 {
                if found.len() == samples as usize {
                    break;
                }
                let s = state(rng.random_range(0..sets), rng.random_range(0..slots));
                if is_position(&self.game, &s) && wanted(&s) {
                    found.extend(self.keeping(&s).map(|k| k.share()));
                }
            }
            found
        };
        Some(Margin::of(shares))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::testing::{position_with_a_choice, six_rebels};

    #[test]
    fn a_win_with_a_choice_keeps_some_moves_and_best_play_ends_in_the_win() {
        let tb = six_rebels();
        let general = Side::BOTH[0];
        let s = position_with_a_choice(&tb, general);
        let k = tb.keeping(&s).unwrap();
        assert!(matches!(k.verdict, Verdict::Win { .. }));
        assert!(0 < k.keeping && k.keeping < k.moves, "{k:?}");
        let Verdict::Win { plies } = k.verdict else { unreachable!() };
        let line = tb.best_line(&s, 1_000);
        // The winner moves first and last: the line holds every position before a move of the win.
        assert_eq!(line.len() as u32, plies, "a win in {plies} plies");
        let margin = tb.margin_along(&line, general);
        assert_eq!(margin.positions, plies.div_ceil(2));
        assert!(margin.least <= k.share() && margin.mean <= 1.0, "{margin:?}");
        // The loser has nothing to keep.
        assert_eq!(tb.margin_along(&line, general.opponent()).positions, 0);
    }

    #[test]
    fn a_level_margin_is_a_mean_of_shares_and_is_reproducible() {
        let tb = six_rebels();
        let general = Side::BOTH[0];
        let a = tb.margin_over_level(6, general, false, 300, 7).unwrap();
        let b = tb.margin_over_level(6, general, false, 300, 7).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.positions, 300);
        assert!(0.0 < a.least && a.least <= a.mean && a.mean <= 1.0, "{a:?}");
        let drawn = tb.margin_over_level(6, general, true, 300, 7).unwrap();
        assert!(drawn.positions > 0 && drawn.mean > 0.0, "{drawn:?}");
        assert!(tb.margin_over_level(8, general, false, 300, 7).is_none(), "no such level");
    }
}
