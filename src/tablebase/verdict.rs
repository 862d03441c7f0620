//! What a table says of a position: [`Verdict`] (win, loss or draw for the side to move, and in how
//! many plies), as a byte stores it, and [`Tally`], how a level's positions divide.

use crate::game::Side;

/// The longest forced result a table can hold (a byte per position, 0 for a draw). The longest in
/// sixteen-rebels is 57 plies.
pub const MAX_PLIES: u32 = 254;

/// Distances below this are exact. Juroku-musashi with its triangle open has forced results of
/// hundreds of plies, more than a byte holds: its tables keep a loss of 252 plies or more as
/// `Loss { plies: 252 }` and a win of 253 or more as `Win { plies: 253 }`, meaning "at least". Both
/// lie beyond any draw cap a game uses by default (200), so no value in play changes; and since
/// saturating commutes with the `min`, `max` and `+ 1` that make distances, every shorter distance
/// stays exact.
pub const EXACT_BELOW: u32 = 252;

/// What best play gives the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move forces a win in `plies` moves of both sides (its own last).
    Win { plies: u32 },
    /// The opponent forces a win in `plies`; the side to move can delay it no longer.
    Loss { plies: u32 },
    /// Neither side can force a win.
    Draw,
}

impl std::fmt::Display for Verdict {
    /// "win in 12 plies" (for the side to move), "loss in 3 plies", "draw"; "win in at least 253
    /// plies" where the table keeps only a bound.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bound = if self.is_bound() { "at least " } else { "" };
        match self {
            Verdict::Win { plies } => write!(f, "win in {bound}{plies} plies"),
            Verdict::Loss { plies } => write!(f, "loss in {bound}{plies} plies"),
            Verdict::Draw => write!(f, "draw"),
        }
    }
}

impl Verdict {
    /// From the stored form: 0 a draw, else the distance + 1, odd distances won for the mover.
    pub(super) fn from_stored(v: u8) -> Verdict {
        match u32::from(v).checked_sub(1) {
            None => Verdict::Draw,
            Some(plies) if plies % 2 == 1 => Verdict::Win { plies },
            Some(plies) => Verdict::Loss { plies },
        }
    }

    /// The verdict for `side` when `mover` is to move.
    pub fn for_side(self, mover: Side, side: Side) -> Verdict {
        match self {
            _ if mover == side => self,
            Verdict::Win { plies } => Verdict::Loss { plies },
            Verdict::Loss { plies } => Verdict::Win { plies },
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// The same result seen one ply earlier, from before the move that led here.
    pub(super) fn one_ply_earlier(self) -> Verdict {
        match self {
            Verdict::Win { plies } => Verdict::Win { plies: plies + 1 }.saturated(),
            Verdict::Loss { plies } => Verdict::Loss { plies: plies + 1 }.saturated(),
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// The verdict as a table stores it: a distance of [`EXACT_BELOW`] or more kept as "at least".
    pub(super) fn saturated(self) -> Verdict {
        match self {
            Verdict::Win { plies } => Verdict::Win { plies: plies.min(EXACT_BELOW + 1) },
            Verdict::Loss { plies } => Verdict::Loss { plies: plies.min(EXACT_BELOW) },
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// Whether the distance is a bound ("at least") rather than exact.
    pub fn is_bound(self) -> bool {
        matches!(self, Verdict::Win { plies } | Verdict::Loss { plies } if plies >= EXACT_BELOW)
    }

    /// The stored byte: 0 a draw, else the (saturated) distance + 1.
    pub(super) fn to_stored(self) -> u8 {
        match self.saturated() {
            Verdict::Draw => 0,
            Verdict::Win { plies } | Verdict::Loss { plies } => plies as u8 + 1,
        }
    }

    /// The result once the draw cap is counted: a win or loss further away than `plies_left` is a draw.
    pub fn within(self, plies_left: u32) -> Verdict {
        match self {
            Verdict::Win { plies } | Verdict::Loss { plies } if plies > plies_left => Verdict::Draw,
            v => v,
        }
    }
}

/// A solved level, as the build reports it.
#[derive(Clone, Copy, Debug)]
pub struct LevelReport {
    pub rebels: u32,
    /// The positions with each side to move, indexed by side.
    pub tallies: [Tally; 2],
    pub seconds: f64,
}

/// How the positions of one side to move divide, and the longest forced result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub longest: u32,
}

impl Tally {
    pub fn positions(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    pub(super) fn add(mut self, v: Verdict) -> Tally {
        match v {
            Verdict::Win { plies } | Verdict::Loss { plies } => {
                *(if matches!(v, Verdict::Win { .. }) { &mut self.wins } else { &mut self.losses }) += 1;
                self.longest = self.longest.max(plies);
            }
            Verdict::Draw => self.draws += 1,
        }
        self
    }

    pub(super) fn merge(self, other: Tally) -> Tally {
        Tally {
            wins: self.wins + other.wins,
            losses: self.losses + other.losses,
            draws: self.draws + other.draws,
            longest: self.longest.max(other.longest),
        }
    }
}
