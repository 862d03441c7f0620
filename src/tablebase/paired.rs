//! Two tables of one board read position by position: where a rule changes who wins, and how much
//! sooner or later a side wins where it wins under both (the apex escape, a capture rule). The Chinese
//! board's tables share one layout whatever their options, so the scan walks both arrays together.

use super::chinese::Level;
use super::rules::is_position;
use super::table::{Store, Tablebase};
use super::verdict::Verdict;
use crate::game::Side;
use crate::game::hunt::{HuntGame, HuntState};

/// One side's wins under two tables (`a` and `b`), over every position both hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PairedWins {
    /// Positions the side wins under both, with the sum of the distances under each.
    pub both: u64,
    pub plies_a: u64,
    pub plies_b: u64,
    /// Of those, where `a` wins sooner and where it wins later.
    pub sooner_a: u64,
    pub later_a: u64,
    /// Positions the side wins under one table only.
    pub only_a: u64,
    pub only_b: u64,
    /// Positions both tables hold.
    pub positions: u64,
}

impl PairedWins {
    fn add(mut self, a: Option<u32>, b: Option<u32>) -> PairedWins {
        self.positions += 1;
        match (a, b) {
            (Some(a), Some(b)) => {
                self.both += 1;
                self.plies_a += u64::from(a);
                self.plies_b += u64::from(b);
                self.sooner_a += u64::from(a < b);
                self.later_a += u64::from(a > b);
            }
            (Some(_), None) => self.only_a += 1,
            (None, Some(_)) => self.only_b += 1,
            (None, None) => {}
        }
        self
    }

    fn merge(self, o: PairedWins) -> PairedWins {
        PairedWins {
            both: self.both + o.both,
            plies_a: self.plies_a + o.plies_a,
            plies_b: self.plies_b + o.plies_b,
            sooner_a: self.sooner_a + o.sooner_a,
            later_a: self.later_a + o.later_a,
            only_a: self.only_a + o.only_a,
            only_b: self.only_b + o.only_b,
            positions: self.positions + o.positions,
        }
    }

    /// The mean distance of the wins under both tables, under `a` and under `b`.
    pub fn means(&self) -> Option<(f64, f64)> {
        (self.both > 0)
            .then(|| (self.plies_a as f64 / self.both as f64, self.plies_b as f64 / self.both as f64))
    }

    /// Counts one position's verdicts under both tables, for its side to move.
    pub fn count(self, side: Side, mover: Side, a: Verdict, b: Verdict) -> PairedWins {
        self.add(won_in(a, mover, side), won_in(b, mover, side))
    }
}

/// The distance of `side`'s forced win, if the verdict (for `mover`) is one.
fn won_in(v: Verdict, mover: Side, side: Side) -> Option<u32> {
    match v.for_side(mover, side) {
        Verdict::Win { plies } => Some(plies),
        _ => None,
    }
}

impl Tablebase {
    /// `side`'s wins under this table and under `other`, over every position of the levels both hold
    /// (both sides to move); `None` unless both are tables of one board kept in memory (the Chinese
    /// builder's).
    pub fn paired_wins(&self, other: &Tablebase, side: Side) -> Option<PairedWins> {
        let (Store::Chinese(mine), Store::Chinese(theirs)) = (&self.store, &other.store) else { return None };
        if self.game.board().identity() != other.game.board().identity() {
            return None;
        }
        let games = [&self.game, &other.game];
        let total = mine
            .iter()
            .filter_map(|level| Some((level, theirs.get(level.rebels)?)))
            .map(|(a, b)| paired_level(games, [a, b], side))
            .fold(PairedWins::default(), PairedWins::merge);
        Some(total)
    }
}

fn paired_level(games: [&HuntGame; 2], levels: [&Level; 2], side: Side) -> PairedWins {
    use rayon::prelude::*;
    (0..levels[0].sets())
        .into_par_iter()
        .map(|r| {
            let set = u64::from(levels[0].set_at(r));
            let mut wins = PairedWins::default();
            for general in 0..games[0].board().len() as u8 {
                for mover in Side::BOTH {
                    let s = HuntState { general, rebels: set, to_move: mover, result: None };
                    if !is_position(games[0], &s) || !is_position(games[1], &s) {
                        continue;
                    }
                    let [a, b] = levels.map(|l| Verdict::from_stored(l.value(&s)));
                    wins = wins.count(side, mover, a, b);
                }
            }
            wins
        })
        .reduce(PairedWins::default, PairedWins::merge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::index;
    use crate::tablebase::testing::hunt;

    /// The apex escape on the levels of up to 6 Rebels: every position the General wins without it he
    /// still wins with it, never later; the scan agrees with probing each position of both tables.
    #[test]
    fn the_apex_lets_the_general_win_no_later_and_the_scan_agrees_with_probes() {
        let (with, without) = (hunt("sixteen-rebels"), hunt("sixteen-rebels:apex=off"));
        let a = Tablebase::build_up_to(&with, 6, |_| {}).unwrap();
        let b = Tablebase::build_up_to(&without, 6, |_| {}).unwrap();
        let the_general = Side::BOTH[0];
        let scanned = a.paired_wins(&b, the_general).expect("two Chinese tables");
        assert!(scanned.both > 0 && scanned.positions > scanned.both, "{scanned:?}");
        assert_eq!(scanned.later_a, 0, "the apex never makes a won game longer: {scanned:?}");
        assert!(scanned.sooner_a > 0, "the apex shortens some wins: {scanned:?}");
        assert_eq!(scanned.only_b, 0, "no position is won only without the apex: {scanned:?}");
        let (mean_a, mean_b) = scanned.means().unwrap();
        assert!(mean_a < mean_b, "{mean_a} {mean_b}");
        let mut probed = PairedWins::default();
        let rebels = 6;
        {
            for r in 0..index::sets_of(rebels) {
                let set = u64::from(index::unrank(r as u32, rebels));
                for general in 0..with.board().len() as u8 {
                    for mover in Side::BOTH {
                        let s = HuntState { general, rebels: set, to_move: mover, result: None };
                        if let (Some(va), Some(vb)) = (a.probe(&s), b.probe(&s)) {
                            probed = probed.count(the_general, mover, va, vb);
                        }
                    }
                }
            }
        }
        let (Store::Chinese(la), Store::Chinese(lb)) = (&a.store, &b.store) else { unreachable!() };
        let six = paired_level([&with, &without], [la.get(6).unwrap(), lb.get(6).unwrap()], the_general);
        assert_eq!(probed, six);
    }
}
