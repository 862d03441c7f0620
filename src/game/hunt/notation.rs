//! Hunt-game notation (RULES.md section 7): positions `G:c3;R:a1,b1,…;g` and moves `c3-c4xb4xd4`
//! (a static capture is `c5xb5xd5`).

use super::board::Board;
use super::state::{GENERAL, HuntMove, HuntState, REBELS};
use crate::game::{Game, MoveError, PositionError, illegal_move_error};

pub fn format_position(board: &Board, s: &HuntState) -> String {
    format!(
        "G:{};R:{};{}",
        board.label(s.general),
        board.labels_of(s.rebels).join(","),
        if s.to_move == GENERAL { "g" } else { "r" }
    )
}

/// `rebel_count`: the most Rebels a position of this ruleset may hold (its start's).
pub fn parse_position(board: &Board, rebel_count: u32, text: &str) -> Result<HuntState, PositionError> {
    let err = |problem: String| PositionError::new(text, problem);
    let fields: Vec<&str> = text.trim().split(';').map(str::trim).collect();
    let [general_field, rebels_field, side_field] = fields[..] else {
        return Err(err(format!(
            "expected three fields `G:<point>;R:<point>,…;<g|r>`, found {} separated by `;`",
            fields.len()
        )));
    };
    let point = |label: &str| {
        board.point(label).ok_or_else(|| {
            err(format!(
                "`{label}` is not a point of this board (points: {})",
                board.labels_of(u64::MAX).join(" ")
            ))
        })
    };
    let general_text = general_field
        .strip_prefix("G:")
        .ok_or_else(|| err(format!("the first field must be `G:<point>`, found `{general_field}`")))?;
    if general_text.contains(',') {
        return Err(err("there is exactly one General".to_string()));
    }
    let general = point(general_text.trim())?;
    let rebels_text = rebels_field
        .strip_prefix("R:")
        .ok_or_else(|| err(format!("the second field must be `R:<point>,…`, found `{rebels_field}`")))?;
    let mut rebels = 0u64;
    for label in rebels_text.split(',').map(str::trim).filter(|l| !l.is_empty()) {
        let p = point(label)?;
        if rebels >> p & 1 == 1 {
            return Err(err(format!("two Rebels on {label}")));
        }
        if p == general {
            return Err(err(format!("a Rebel on the General's point {label}")));
        }
        if board.privy >> p & 1 == 1 {
            return Err(err(format!("a Rebel on {label}, where only the General may stand")));
        }
        rebels |= 1 << p;
    }
    if rebels.count_ones() > rebel_count {
        return Err(err(format!(
            "{} Rebels, more than the {} this ruleset starts with",
            rebels.count_ones(),
            rebel_count
        )));
    }
    let to_move = match side_field {
        "g" => GENERAL,
        "r" => REBELS,
        other => {
            return Err(err(format!("the side to move must be `g` or `r`, found `{other}`")));
        }
    };
    Ok(HuntState { general, rebels, to_move, result: None })
}

pub fn format_move(board: &Board, m: HuntMove) -> String {
    let mut text = board.label(m.from).to_string();
    if m.to != m.from {
        text.push('-');
        text.push_str(board.label(m.to));
    }
    for label in board.labels_of(m.captured) {
        text.push('x');
        text.push_str(label);
    }
    text
}

/// Reads `from-to`, `from-toxPxQ` or `fromxPxQ`. Captures may be listed in any order; when they are
/// left out and only one legal move goes from `from` to `to`, that move is meant.
pub fn parse_move<G: Game<State = HuntState, Move = HuntMove>>(
    game: &G,
    board: &Board,
    s: &HuntState,
    text: &str,
) -> Result<HuntMove, MoveError> {
    let trimmed = text.trim();
    let malformed = |problem: String| MoveError::Malformed { text: trimmed.to_string(), problem };
    let mut parts = trimmed.split('x');
    let head = parts.next().unwrap_or_default();
    let (from_label, to_label) = head.split_once('-').unwrap_or((head, head));
    let point = |label: &str| {
        board.point(label).ok_or_else(|| malformed(format!("`{label}` is not a point of this board")))
    };
    let (from, to) = (point(from_label)?, point(to_label)?);
    let mut captured = 0u64;
    let mut captures_given = false;
    for label in parts {
        captured |= 1 << point(label)?;
        captures_given = true;
    }
    if from == to && !captures_given {
        return Err(malformed("a move is `from-to` (a static capture: `fromxPxQ`)".to_string()));
    }
    let mut moves = G::Moves::default();
    game.legal_moves(s, &mut moves);
    let same_path = |m: &&HuntMove| m.from == from && m.to == to;
    if let Some(m) = moves.iter().filter(same_path).find(|m| m.captured == captured) {
        return Ok(*m);
    }
    if !captures_given {
        let mut candidates = moves.iter().filter(same_path);
        if let (Some(m), None) = (candidates.next(), candidates.next()) {
            return Ok(*m);
        }
    }
    Err(illegal_move_error(game, s, trimmed))
}
