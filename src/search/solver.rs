//! The MCTS-solver's bookkeeping: which nodes have a game-theoretic value, and how a node's value
//! follows from its children's (Winands et al., "Monte-Carlo Tree Search Solver", 2008).
//!
//! Proofs are absolute (a winner, or a draw) rather than relative to depth, so a ruleset in which one
//! player makes two decisions in a row needs nothing special: every node is judged by its own mover.

use crate::game::{Outcome, Side};

/// What is known for certain about a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    Unknown,
    /// The game ends with this winner (`None`: a draw) under best play, within `plies` moves.
    ///
    /// For a proven win or loss, `plies` bounds the length of the game from above: the winner has a
    /// strategy that wins in at most that many moves whatever the loser does. It is the shortest such
    /// bound the proof found, not necessarily the shortest forced win.
    Proven {
        winner: Option<Side>,
        plies: u32,
    },
}

impl Proof {
    /// The proof of a finished position.
    pub fn terminal(outcome: Outcome) -> Proof {
        Proof::Proven { winner: outcome.winner, plies: 0 }
    }

    #[inline]
    pub fn is_proven(self) -> bool {
        matches!(self, Proof::Proven { .. })
    }

    /// +1, 0 or −1 for `side` when proven.
    #[inline]
    pub fn value_for(self, side: Side) -> Option<f32> {
        match self {
            Proof::Unknown => None,
            Proof::Proven { winner: None, .. } => Some(0.0),
            Proof::Proven { winner: Some(w), .. } => Some(if w == side { 1.0 } else { -1.0 }),
        }
    }
}

/// The proof of a node whose player to move is `mover`, from the proofs of all its children
/// (`Proof::Unknown` for a child not yet created).
///
/// - One child proven won for the mover proves the node won (the nearest such win counts).
/// - Otherwise the node stays unknown until every child is proven; then it takes the mover's best
///   result: a draw if there is one, else a loss delayed as long as possible.
pub fn combine(mover: Side, children: impl Iterator<Item = Proof>) -> Proof {
    let mut best_win: Option<u32> = None;
    let mut best_draw: Option<u32> = None;
    let mut longest_loss: Option<u32> = None;
    let mut all_known = true;
    for child in children {
        match child {
            Proof::Unknown => all_known = false,
            Proof::Proven { winner, plies } => {
                let slot = match winner {
                    Some(w) if w == mover => &mut best_win,
                    Some(_) => &mut longest_loss,
                    None => &mut best_draw,
                };
                let keep_larger = winner.is_some_and(|w| w != mover);
                *slot = Some(match *slot {
                    Some(old) if keep_larger => old.max(plies),
                    Some(old) => old.min(plies),
                    None => plies,
                });
            }
        }
    }
    if let Some(plies) = best_win {
        return Proof::Proven { winner: Some(mover), plies: plies + 1 };
    }
    if !all_known {
        return Proof::Unknown;
    }
    match (best_draw, longest_loss) {
        (Some(plies), _) => Proof::Proven { winner: None, plies: plies + 1 },
        (None, Some(plies)) => Proof::Proven { winner: Some(mover.opponent()), plies: plies + 1 },
        (None, None) => Proof::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Side = Side::ZERO;
    const B: Side = Side::ONE;

    fn won(side: Side, plies: u32) -> Proof {
        Proof::Proven { winner: Some(side), plies }
    }

    #[test]
    fn one_winning_child_proves_a_win_at_the_nearest_distance() {
        let children = [Proof::Unknown, won(A, 4), won(B, 0), won(A, 2)];
        assert_eq!(combine(A, children.into_iter()), won(A, 3));
    }

    #[test]
    fn a_loss_needs_every_child_and_takes_the_longest_resistance() {
        assert_eq!(combine(A, [won(B, 0), Proof::Unknown].into_iter()), Proof::Unknown);
        assert_eq!(combine(A, [won(B, 0), won(B, 6)].into_iter()), won(B, 7));
    }

    #[test]
    fn a_draw_beats_a_loss_once_everything_is_known() {
        let draw = Proof::Proven { winner: None, plies: 3 };
        assert_eq!(combine(B, [won(A, 1), draw].into_iter()), Proof::Proven { winner: None, plies: 4 });
        assert_eq!(combine(B, [won(A, 1), draw, Proof::Unknown].into_iter()), Proof::Unknown);
    }

    #[test]
    fn values_are_read_from_the_asking_side() {
        assert_eq!(won(A, 1).value_for(A), Some(1.0));
        assert_eq!(won(A, 1).value_for(B), Some(-1.0));
        assert_eq!(Proof::Proven { winner: None, plies: 0 }.value_for(B), Some(0.0));
        assert_eq!(Proof::Unknown.value_for(A), None);
    }
}
