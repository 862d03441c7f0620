//! Which rulesets the tables solve, which Rebel counts (levels) a game of them reaches, what is a
//! position, and the key that names a table's rules.

use crate::game::Game;
use crate::game::hunt::board::BoardKind;
use crate::game::hunt::{HuntGame, HuntState, Leap, StaticCapture};

/// The boards the tables solve: the reason for any other board, or game, having none.
pub const SOLVED_BOARDS: &str =
    "only the Chinese board (sixteen-rebels) and the Japanese board (juroku-musashi) are solved";

/// Why a ruleset has no tablebase.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no tablebase for `{spec}`: {reason}")]
pub struct Unsupported {
    pub spec: String,
    pub reason: &'static str,
}

/// Whether `game` is a ruleset this module solves: the Chinese board with intervention capture,
/// optional or mandatory, the apex on or off, any winning threshold; not Murray's custodial capture
/// or Neeley's leaps (their starts are short forced wins the MCTS-solver proves).
pub fn check_supported(game: &HuntGame) -> Result<(), Unsupported> {
    let r = &game.rules;
    let reason = if matches!(r.board, BoardKind::Japanese | BoardKind::JapaneseClosed) {
        let juroku = r.leap == Leap::AnyLine
            && !r.intervention
            && !r.deferred
            && r.static_capture == StaticCapture::Never
            && !r.custodial
            && !r.rebels_forward_only
            && !r.bottom_row_wins
            && !r.apex_wins
            && !r.apex_loses
            && !r.blockade
            && r.general_wins_at.is_some();
        (!juroku).then_some("only juroku-musashi's own rules are solved on the Japanese board")
    } else if r.board != BoardKind::Chinese {
        Some(SOLVED_BOARDS)
    } else if r.custodial {
        Some("Murray's custodial capture is not solved (rebels_capture=custodial)")
    } else if r.leap != Leap::None {
        Some("the General's leaps are not solved (general_leap=diagonal)")
    } else if !r.intervention
        || r.deferred
        || r.static_capture != StaticCapture::Never
        || r.rebels_forward_only
        || r.bottom_row_wins
        || r.apex_loses
        || r.general_wins_at.is_none()
    {
        Some("only intervention capture with a winning threshold is solved")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(Unsupported { spec: game.spec().to_string(), reason }),
        None => Ok(()),
    }
}

/// The Rebel counts a game from the start can reach that the General has not yet won at: every
/// other count where he captures in pairs, every count where he leaps.
pub fn levels_of(game: &HuntGame) -> Vec<u32> {
    let start = game.rules.rebel_count;
    let wins_at = game.rules.general_wins_at.unwrap_or(0);
    let step = if is_japanese(game) { 1 } else { 2 };
    (0..=start).filter(|n| n % step == start % step && *n > wins_at).collect()
}

/// Whether the game is played on the Japanese board (its tables are kept in a folder of level files).
pub fn is_japanese(game: &HuntGame) -> bool {
    matches!(game.rules.board, BoardKind::Japanese | BoardKind::JapaneseClosed)
}

/// Whether a General point and Rebel set are a position of the game, with either side to move: the
/// General on an empty point, not on the apex when it wins, not blockaded in the privy (both would
/// be games already over), and the Rebels on points they may stand on (not the privy, nor the
/// Japanese triangle when it is closed).
pub(super) fn is_position(game: &HuntGame, s: &HuntState) -> bool {
    let board = game.board();
    if s.general as usize >= board.len() {
        return false;
    }
    let rules = &game.rules;
    let on_rebel = s.rebels >> s.general & 1 == 1;
    let on_winning_apex = rules.apex_wins && Some(s.general) == board.apex;
    let blockaded =
        rules.blockade && board.privy >> s.general & 1 == 1 && s.rebels & board.exits == board.exits;
    let rebel_points = ((1u64 << board.len()) - 1) & !board.privy;
    let rebels_on_their_points = s.rebels & !rebel_points == 0;
    rebels_on_their_points && !on_rebel && !on_winning_apex && !blockaded
}

/// The options a table's values depend on among the rulesets it solves (not who moves first, not the
/// cap); only meaningful for a game that passes [`check_supported`].
pub fn rules_key(game: &HuntGame) -> String {
    let r = &game.rules;
    if is_japanese(game) {
        return format!(
            "juroku-musashi:triangle={},capture={},general_wins_at={}",
            if r.board == BoardKind::Japanese { "open" } else { "closed" },
            if r.mandatory { "mandatory" } else { "optional" },
            r.general_wins_at.unwrap_or(0)
        );
    }
    format!(
        "sixteen-rebels:capture={},general_wins_at={},apex={}",
        if r.mandatory { "mandatory" } else { "optional" },
        r.general_wins_at.unwrap_or(0),
        if r.apex_wins { "on" } else { "off" }
    )
}
