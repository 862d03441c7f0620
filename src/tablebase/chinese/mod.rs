//! The table of the Chinese board (sixteen-rebels and its options) and of every other board the General
//! captures on in pairs (rules files like it): only every other Rebel count occurs; every level is
//! solved in memory ([`build`]) and kept in one file ([`store`]). The module keeps the Chinese board's
//! name, the one it was written for.

pub(super) mod build;
pub(super) mod store;

use super::index;
use super::rules::{is_position, rebel_points};
use super::verdict::{Tally, Verdict};
use crate::game::Side;
use crate::game::hunt::{HuntGame, HuntState, REBELS};

/// One Rebel count's values, one array per side to move, indexed by [`index::rank`] × points.
pub struct Level {
    pub(in crate::tablebase) rebels: u32,
    /// The points the Rebels may stand on (the board's first), which the sets range over.
    rebel_points: u32,
    general_to_move: Vec<u8>,
    rebels_to_move: Vec<u8>,
}

impl Level {
    /// The stored value of a position with this level's Rebel count.
    pub(in crate::tablebase) fn value(&self, s: &HuntState) -> u8 {
        let slots = self.general_to_move.len() / self.sets();
        let at = index::rank(s.rebels as u32) as usize * slots + s.general as usize;
        if s.to_move == REBELS { self.rebels_to_move[at] } else { self.general_to_move[at] }
    }

    /// How many Rebel sets the level has.
    pub(in crate::tablebase) fn sets(&self) -> usize {
        index::sets_on(self.rebel_points, self.rebels)
    }

    /// The Rebel set of rank `r`.
    pub(in crate::tablebase) fn set_at(&self, r: usize) -> u32 {
        index::unrank_on(r as u32, self.rebels, self.rebel_points)
    }

    /// How this level's positions with `side` to move divide.
    pub(in crate::tablebase) fn tally(&self, game: &HuntGame, side: Side) -> Tally {
        use rayon::prelude::*;
        debug_assert_eq!(self.rebel_points, rebel_points(game));
        (0..self.sets())
            .into_par_iter()
            .map(|r| {
                let rebels = u64::from(self.set_at(r));
                (0..game.board().len() as u8)
                    .map(|general| HuntState { general, rebels, to_move: side, result: None })
                    .filter(|s| is_position(game, s))
                    .fold(Tally::default(), |t, s| t.add(Verdict::from_stored(self.value(&s))))
            })
            .reduce(Tally::default, Tally::merge)
    }
}

/// The solved levels, indexed by Rebel count.
#[derive(Default)]
pub struct Levels(Vec<Option<Level>>);

impl Levels {
    pub(in crate::tablebase) fn get(&self, rebels: u32) -> Option<&Level> {
        self.0.get(rebels as usize).and_then(Option::as_ref)
    }

    /// The solved levels, fewest Rebels first.
    pub(in crate::tablebase) fn iter(&self) -> impl Iterator<Item = &Level> {
        self.0.iter().flatten()
    }

    pub(in crate::tablebase) fn insert(&mut self, level: Level) {
        let at = level.rebels as usize;
        if self.0.len() <= at {
            self.0.resize_with(at + 1, || None);
        }
        self.0[at] = Some(level);
    }
}
