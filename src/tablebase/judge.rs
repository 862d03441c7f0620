//! Judging played games against best play: after every move, what the mover could have forced and
//! what the move left him, so that each side's mistakes (a win let go, a draw lost) can be counted.

use super::{Tablebase, Verdict};
use crate::game::hunt::HuntGame;
use crate::game::{Game, Playthrough, Side};

/// What best play gives, ordered from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Prospect {
    Loss,
    Draw,
    Win,
}

impl Prospect {
    /// The prospect of a verdict once the draw cap is counted.
    pub fn of(verdict: Verdict, plies_left: u32) -> Prospect {
        match verdict.within(plies_left) {
            Verdict::Win { .. } => Prospect::Win,
            Verdict::Loss { .. } => Prospect::Loss,
            Verdict::Draw => Prospect::Draw,
        }
    }
}

/// One move of a game, judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JudgedMove {
    /// The move's number in the game, from 1.
    pub ply: u32,
    pub mover: Side,
    /// What the mover could force before the move, and what he could force after it.
    pub before: Prospect,
    pub after: Prospect,
}

impl JudgedMove {
    /// A move that gave up some of what the mover could force.
    pub fn is_mistake(&self) -> bool {
        self.after < self.before
    }
}

impl Tablebase {
    /// Judges each move of a played game; stops at the first position the table does not hold. A
    /// move that ended the game by repetition or the cap is judged a draw, whatever the position.
    ///
    /// What a side could force is read from the position and the plies left, not from the game's
    /// history: a third occurrence the losing side could have made is not counted as a draw in hand,
    /// so passing it up is no mistake. A winning side is charged with letting its win go only when its
    /// own move makes the third occurrence; when the losing side makes it, no move is marked, and the
    /// lost win shows only as a game it had a win in and did not win.
    pub fn judge_game(&self, line: &Playthrough<HuntGame>) -> Vec<JudgedMove> {
        let max_plies = line.game().max_plies();
        let states = line.states();
        let mut judged = Vec::new();
        for (i, pair) in states.windows(2).enumerate() {
            let (s, next) = (&pair[0], &pair[1]);
            let ply = i as u32 + 1;
            let plies_left = max_plies.saturating_sub(ply - 1);
            let Some(before) = self.probe(s) else { break };
            let last = ply == line.plies();
            let after = match (next.result, line.outcome()) {
                (Some(o), _) if o.winner == Some(s.to_move) => Prospect::Win,
                (Some(o), _) if o.winner.is_some() => Prospect::Loss,
                (None, Some(o)) if last && o.winner.is_none() => Prospect::Draw,
                _ => match self.probe(next) {
                    Some(v) => Prospect::of(v.for_side(next.to_move, s.to_move), plies_left - 1),
                    None => break,
                },
            };
            judged.push(JudgedMove {
                ply,
                mover: s.to_move,
                before: Prospect::of(before, plies_left),
                after,
            });
        }
        judged
    }
}
