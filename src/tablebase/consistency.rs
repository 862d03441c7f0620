//! What a table must say of a position given what it says of the positions its moves lead to, and the
//! errors a check of a table reports. Both boards' checks ([`super::verify`], [`super::juroku`]) and
//! the table's own probes of moves use it.

use super::format::TableFileError;
use super::verdict::Verdict;
use crate::game::hunt::{HuntGame, HuntMove, HuntState};
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

/// Why a table failed its check.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error(transparent)]
    Inconsistent(#[from] Inconsistency),
    /// A level file that cannot be read or does not match its checksum.
    #[error(transparent)]
    File(#[from] TableFileError),
    /// The spot check's search and the table disagree.
    #[error("the table says {stored} of `{position}`, a full search to depth {depth} says {searched}")]
    Search { position: String, stored: Verdict, searched: String, depth: u32 },
}

/// Each legal move of `s` with its verdict for the side that plays it (a move that ends the game is a
/// win or loss in 1), the positions they lead to valued by `probe`.
pub(super) fn move_verdicts(
    game: &HuntGame,
    s: &HuntState,
    probe: &dyn Fn(&HuntState) -> Option<Verdict>,
) -> Vec<(HuntMove, Option<Verdict>)> {
    let mut verdicts = Vec::new();
    for_each_move_verdict(game, s, probe, |m, v| verdicts.push((m, v)));
    verdicts
}

/// Calls `f` with each legal move of `s` and its verdict, as [`move_verdicts`] lists them.
fn for_each_move_verdict(
    game: &HuntGame,
    s: &HuntState,
    probe: &dyn Fn(&HuntState) -> Option<Verdict>,
    mut f: impl FnMut(HuntMove, Option<Verdict>),
) {
    let mut moves = Default::default();
    game.legal_moves(s, &mut moves);
    for &m in moves.iter() {
        let mut next = *s;
        game.apply(&mut next, m);
        let verdict = match ended(&next, s.to_move) {
            Some(v) => Some(v),
            None => probe(&next).map(|v| v.for_side(next.to_move, s.to_move).one_ply_earlier()),
        };
        f(m, verdict);
    }
}

/// The verdict for `mover` of a move that ended the game at once (in 1 ply), if it did.
fn ended(next: &HuntState, mover: Side) -> Option<Verdict> {
    next.result.map(|o| match o.winner {
        Some(winner) if winner == mover => Verdict::Win { plies: 1 },
        Some(_) => Verdict::Loss { plies: 1 },
        None => Verdict::Draw,
    })
}

/// The verdict of `s` from its moves' verdicts (no move: lost now); `None` where a move's is unknown.
pub(super) fn verdict_from_moves(
    game: &HuntGame,
    s: &HuntState,
    probe: &dyn Fn(&HuntState) -> Option<Verdict>,
) -> Option<Verdict> {
    let (mut best_win, mut longest_loss, mut draw, mut unknown) = (None::<u32>, 0, false, false);
    for_each_move_verdict(game, s, probe, |_, verdict| match verdict {
        Some(Verdict::Win { plies }) => best_win = Some(best_win.map_or(plies, |b| b.min(plies))),
        Some(Verdict::Loss { plies }) => longest_loss = longest_loss.max(plies),
        Some(Verdict::Draw) => draw = true,
        None => unknown = true,
    });
    if unknown {
        return None;
    }
    Some(match (best_win, draw) {
        (Some(plies), _) => Verdict::Win { plies },
        (None, true) => Verdict::Draw,
        (None, false) => Verdict::Loss { plies: longest_loss },
    })
}
