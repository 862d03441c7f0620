//! Move notation (RULES.md section 7: UCI, `r:` rebel steps, `r:f6f5+e2e4` squirm turns), the fixed
//! action space, and the text board.

use super::bitboard::{NO_SQUARE, Square, file_of, parse_square, rank_of, square_name};
use super::moves::{ChessMove, MoveKind};
use super::piece::WHITE;
use super::position::Position;
use super::variants::{REBEL_DIRECTIONS, rebel_target};
use crate::game::{MoveError, Side};

pub fn format_move(pos: &Position, m: ChessMove) -> String {
    let normal = format!(
        "{}{}{}",
        square_name(m.from),
        square_name(m.to),
        m.kind.promotion_letter().map(String::from).unwrap_or_default()
    );
    if m.kind == MoveKind::Rebel {
        format!("r:{normal}")
    } else if m.is_squirm() {
        format!("r:{}{}+{normal}", square_name(pos.squirmable), square_name(m.squirm_to))
    } else {
        normal
    }
}

/// Checks the shape of a move and returns it in canonical spelling (lower case).
pub fn normalize(text: &str) -> Result<String, MoveError> {
    let lower = text.trim().to_ascii_lowercase();
    let malformed =
        |problem: &str| MoveError::Malformed { text: text.trim().to_string(), problem: problem.into() };
    let is_uci = |s: &str| {
        // ASCII first: the slices below index bytes.
        let ok_squares = s.is_ascii()
            && s.len() >= 4
            && parse_square(&s[..2]).is_some()
            && parse_square(&s[2..4]).is_some();
        ok_squares && (s.len() == 4 || (s.len() == 5 && matches!(&s[4..], "q" | "r" | "b" | "n")))
    };
    let shape = "expected UCI (`e2e4`, `e7e8q`), a rebel step (`r:b8b7`), a squirm turn (`r:f6f5+e2e4`), \
                 or a legal move in SAN (`Nf3`, `exd5`, `O-O`, `r:Nc6`)";
    match lower.strip_prefix("r:") {
        None if is_uci(&lower) => Ok(lower),
        Some(rest) => match rest.split_once('+') {
            None if rest.len() == 4 && is_uci(rest) => Ok(lower),
            Some((squirm, normal)) if squirm.len() == 4 && is_uci(squirm) && is_uci(normal) => Ok(lower),
            _ => Err(malformed(shape)),
        },
        None => Err(malformed(shape)),
    }
}

/// The king-takes-rook spelling of castling (`e1h1`) in the king-to-destination spelling (`e1g1`).
pub fn castling_alias(text: &str) -> Option<String> {
    let (prefix, normal) = match text.rsplit_once('+') {
        Some((squirm, normal)) => (format!("{squirm}+"), normal),
        None => (String::new(), text),
    };
    let alias = match normal {
        "e1h1" => "e1g1",
        "e1a1" => "e1c1",
        "e8h8" => "e8g8",
        "e8a8" => "e8c8",
        _ => return None,
    };
    Some(format!("{prefix}{alias}"))
}

/// Kinds of normal move from one square, as in AlphaZero's chess encoding (56 queen-line moves by
/// direction and distance, 8 knight jumps, 9 under-promotions by piece and file step).
pub const NORMAL_KINDS: usize = 73;
/// Action kinds per square, one layout for the whole family so one network serves it: the normal
/// moves; the same 73 kinds again for each of the five squirm directions (squirm-chess turns); the
/// five rebel-step directions.
pub const KINDS_PER_SQUARE: usize = NORMAL_KINDS * 6 + REBEL_DIRECTIONS.len();
/// The family's action space: every action is `origin square × KINDS_PER_SQUARE + kind`.
pub const ACTIONS: usize = 64 * KINDS_PER_SQUARE;

const KING_DIRECTIONS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
const KNIGHT_JUMPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// The kind (0..[`NORMAL_KINDS`]) of a normal move from `from` to `to`.
pub fn normal_kind(from: Square, to: Square, kind: MoveKind) -> usize {
    let df = file_of(to) as i8 - file_of(from) as i8;
    let dr = rank_of(to) as i8 - rank_of(from) as i8;
    let under = match kind {
        MoveKind::PromoteKnight => Some(0),
        MoveKind::PromoteBishop => Some(1),
        MoveKind::PromoteRook => Some(2),
        _ => None,
    };
    if let Some(piece) = under {
        64 + piece * 3 + (df + 1) as usize
    } else if let Some(jump) = KNIGHT_JUMPS.iter().position(|&j| j == (df, dr)) {
        56 + jump
    } else {
        let direction = KING_DIRECTIONS
            .iter()
            .position(|&d| d == (df.signum(), dr.signum()))
            .expect("a non-knight move runs along a line");
        direction * 7 + (df.abs().max(dr.abs()) - 1) as usize
    }
}

/// The owner-relative direction (0..5) of a one-square step of a piece of `owner`.
pub fn rebel_direction(from: Square, to: Square, owner: Side) -> usize {
    (0..REBEL_DIRECTIONS.len())
        .find(|&d| rebel_target(from, owner, d) == Some(to))
        .expect("a rebel step goes one square in one of the five directions")
}

pub fn render(pos: &Position, squirm_chess: bool) -> String {
    let mut out = String::new();
    for rank in (0..8u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..8u8 {
            let sq = rank * 8 + file;
            let c = match (pos.piece_at(sq), pos.colour_at(sq)) {
                (Some(piece), Some(side)) if side == WHITE => piece.letter(),
                (Some(piece), Some(_)) => piece.letter().to_ascii_lowercase(),
                _ => '.',
            };
            out.push(' ');
            out.push(c);
        }
        out.push('\n');
    }
    out.push_str("   a b c d e f g h\n");
    let castling: String = [('K', 1u8), ('Q', 2), ('k', 4), ('q', 8)]
        .iter()
        .filter(|(_, bit)| pos.castling & bit != 0)
        .map(|(c, _)| *c)
        .collect();
    let optional = |sq: Square| if sq == NO_SQUARE { "-".to_string() } else { square_name(sq) };
    out.push_str(&format!(
        "{} to move; castling {}; en passant {}",
        if pos.side == WHITE { "white" } else { "black" },
        if castling.is_empty() { "-" } else { &castling },
        optional(pos.ep)
    ));
    if squirm_chess {
        out.push_str(&format!("; squirmable {}", optional(pos.squirmable)));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_accepts_the_three_shapes_and_nothing_else() {
        assert_eq!(normalize(" E7E8Q ").unwrap(), "e7e8q");
        assert_eq!(normalize("r:b8b7").unwrap(), "r:b8b7");
        assert_eq!(normalize("r:f6f5+e2e4").unwrap(), "r:f6f5+e2e4");
        for bad in ["", "e2e", "e2e9", "r:b8b7q", "r:f6f5+", "x:e2e4", "e2€4", "r:+e2e4"] {
            assert!(matches!(normalize(bad), Err(MoveError::Malformed { .. })), "{bad:?}");
        }
        assert_eq!(castling_alias("r:e4d4+e8a8").as_deref(), Some("r:e4d4+e8c8"));
        assert_eq!(castling_alias("e2e4"), None);
    }

    #[test]
    fn promotions_from_one_square_get_distinct_actions() {
        let (from, to) = (48, 56);
        let kinds =
            [MoveKind::Normal, MoveKind::PromoteKnight, MoveKind::PromoteBishop, MoveKind::PromoteRook];
        let actions: std::collections::HashSet<usize> =
            kinds.iter().map(|&k| normal_kind(from, to, k)).collect();
        assert_eq!(actions.len(), 4);
        assert!(actions.iter().all(|&a| a < NORMAL_KINDS));
    }
}
