//! Which rulesets the tables solve, which Rebel counts (levels) a game of them reaches, what is a
//! position, and the key that names a table's rules.

use super::index;
use crate::game::Game;
use crate::game::hunt::board::{Board, BoardKind};
use crate::game::hunt::{HuntGame, HuntState, Leap, StaticCapture};

/// The games the tables solve: the reason for any other game having none.
pub const SOLVED_BOARDS: &str = "only sixteen-rebels, juroku-musashi, their options and rules files like them \
     are solved (hunt games whose Rebels never capture)";

/// Why a ruleset has no tablebase.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no tablebase for `{spec}`: {reason}")]
pub struct Unsupported {
    pub spec: String,
    pub reason: String,
}

/// The board whose tables a game's board shares: a board described in a rules file that is a built-in
/// board point for point, link for link (configs/rules/sixteen-rebels.toml), is that board; any other
/// board is itself.
pub fn board_of(game: &HuntGame) -> BoardKind {
    let kind = game.board().kind;
    if !matches!(kind, BoardKind::Described(_)) {
        return kind;
    }
    let identity = game.board().identity();
    [BoardKind::Chinese, BoardKind::Japanese, BoardKind::JapaneseClosed, BoardKind::Hyde]
        .into_iter()
        .find(|&built_in| Board::get(built_in).identity() == identity)
        .unwrap_or(kind)
}

/// Whether `game` is a ruleset this module solves, and why not. Two builders:
///
/// - the Japanese board's ([`super::juroku`]): juroku-musashi's own rules, the General leaping;
/// - every other board's ([`super::chinese`]): the General captures by intervention (pairs), the
///   Rebels step (forward and sideways only, or in any direction) and win by hemming him in, a
///   threshold of Rebels wins for him, the apex may win for him and a blockade of the privy for them.
///   Its Rebels must stand on the board's first points (a rules file's grid, with the General's own
///   points after it), at most 32 of them: this is sixteen-rebels with any of its options but
///   Murray's and Neeley's, and any rules file like it.
///
/// Murray's custodial capture and Neeley's leaps are not solved (their starts are short forced wins
/// the MCTS-solver proves); nor are Hyde's deferred and static captures, the apex that loses and the
/// bottom row that wins. Whether a table that passes fits the index and this machine's memory is
/// [`TableSize`]'s question, asked before anything is built.
///
/// [`TableSize`]: super::TableSize
pub fn check_supported(game: &HuntGame) -> Result<(), Unsupported> {
    let refuse = |reason: String| Err(Unsupported { spec: game.spec().to_string(), reason });
    let r = &game.rules;
    if is_japanese(game) {
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
        if !juroku {
            return refuse("only juroku-musashi's own rules are solved on the Japanese board".into());
        }
        return Ok(());
    }
    let reason = if r.custodial {
        Some("Murray's custodial capture is not solved (rebels_capture=custodial)")
    } else if r.leap != Leap::None {
        Some("the General's leaps are solved only on the Japanese board (juroku-musashi)")
    } else if !r.intervention || r.deferred || r.static_capture != StaticCapture::Never {
        Some("only the General's intervention capture (a pair on arrival) is solved off the Japanese board")
    } else if r.apex_loses || r.bottom_row_wins {
        Some("an apex that loses and a bottom row that wins are not solved")
    } else if r.general_wins_at.is_none() {
        Some("a game the General can win only by hemming in is not solved: it needs a winning threshold")
    } else {
        None
    };
    if let Some(reason) = reason {
        return refuse(reason.into());
    }
    let board = game.board();
    let rebel_points = board.len() as u32 - board.privy.count_ones();
    if board.privy != all_points(board.len() as u32) & !all_points(rebel_points) {
        return refuse("the Rebels' points must come first on the board (a rules file's grid), the General's own points after them".into());
    }
    if rebel_points > index::MAX_REBEL_POINTS {
        return refuse(format!(
            "its Rebels may stand on {rebel_points} points, and the tables index sets of at most {}",
            index::MAX_REBEL_POINTS
        ));
    }
    Ok(())
}

/// The mask of points `0..n` (all 64 when `n` is 64).
fn all_points(n: u32) -> u64 {
    u64::MAX.checked_shr(64 - n).unwrap_or(0)
}

/// The points a Rebel may stand on are the board's first this-many (see [`check_supported`]).
pub fn rebel_points(game: &HuntGame) -> u32 {
    game.board().len() as u32 - game.board().privy.count_ones()
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
    matches!(board_of(game), BoardKind::Japanese | BoardKind::JapaneseClosed)
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
    let rebel_points = all_points(board.len() as u32) & !board.privy;
    let rebels_on_their_points = s.rebels & !rebel_points == 0;
    rebels_on_their_points && !on_rebel && !on_winning_apex && !blockaded
}

/// The options a table's values depend on among the rulesets it solves (not who moves first, not the
/// cap, not where the pieces start, only how many Rebels: the parity of their count off the Japanese
/// board); only meaningful for a game that passes [`check_supported`]. The threshold is written as
/// the highest count of the levels' parity at or below it: with pairs taken, a threshold of 5 and one
/// of 4 end every game from 16 alike, so they share a table. The built-in boards keep their names; a
/// described board is named by its [`Board::identity`].
pub fn rules_key(game: &HuntGame) -> String {
    let r = &game.rules;
    if is_japanese(game) {
        return format!(
            "juroku-musashi:triangle={},capture={},general_wins_at={}",
            if board_of(game) == BoardKind::Japanese { "open" } else { "closed" },
            if r.mandatory { "mandatory" } else { "optional" },
            r.general_wins_at.unwrap_or(0)
        );
    }
    let board = match board_of(game) {
        BoardKind::Chinese => "sixteen-rebels".to_string(),
        _ => format!("board-{}", game.board().identity()),
    };
    let parity = r.rebel_count % 2;
    let wins_at = r.general_wins_at.unwrap_or(0);
    let threshold = if wins_at < parity { wins_at } else { wins_at - (wins_at - parity) % 2 };
    let mut key = format!(
        "{board}:capture={},general_wins_at={threshold},apex={}",
        if r.mandatory { "mandatory" } else { "optional" },
        if r.apex_wins { "on" } else { "off" }
    );
    if r.rebels_forward_only {
        key += ",rebels=forward";
    }
    if !r.blockade {
        key += ",blockade=off";
    }
    if parity == 1 {
        key += ",count=odd";
    }
    key
}
