//! The variant rules on top of FIDE moves: rebel steps (RULES.md 6.2), rebellion chess (6.3) and squirm
//! chess (6.4). A whole turn of each variant is generated here.

use super::bitboard::{NO_SQUARE, Square, Tables, bit, offset};
use super::movegen::normal_moves;
use super::moves::{ChessMove, MoveKind};
use super::piece::{Piece, WHITE};
use super::position::Position;
use crate::game::Side;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variant {
    Chess,
    Rebellion,
    Squirm,
}

/// The five rebel-step directions, seen from the piece owner's side: F, FL, FR, L, R as (file, rank)
/// steps for White; Black's are the same turned round.
pub const REBEL_DIRECTIONS: [(i8, i8); 5] = [(0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0)];
pub const REBEL_DIRECTION_NAMES: [&str; 5] = ["F", "FL", "FR", "L", "R"];

/// The rebel-step directions left to each piece once its own patterns are excluded (R9), as a bit set
/// over [`REBEL_DIRECTIONS`]. FIDE and Berolina pawns both keep only L and R.
#[inline(always)]
pub const fn rebel_directions(piece: Piece) -> u8 {
    const F: u8 = 1;
    const FL: u8 = 2;
    const FR: u8 = 4;
    const L: u8 = 8;
    const R: u8 = 16;
    match piece {
        Piece::Pawn => L | R,
        Piece::Knight => F | FL | FR | L | R,
        Piece::Bishop => F | L | R,
        Piece::Rook => FL | FR,
        Piece::Queen | Piece::King => 0,
    }
}

/// The square one rebel step in direction `d` from `sq`, for a piece owned by `owner`.
#[inline(always)]
pub fn rebel_target(sq: Square, owner: Side, d: usize) -> Option<Square> {
    let (df, dr) = REBEL_DIRECTIONS[d];
    if owner == WHITE { offset(sq, df, dr) } else { offset(sq, -df, -dr) }
}

/// The empty squares a piece of `owner` on `sq` can be rebel-stepped to, with each direction index.
#[inline]
pub fn rebel_steps(
    pos: &Position,
    piece: Piece,
    owner: Side,
    sq: Square,
) -> impl Iterator<Item = (usize, Square)> {
    let occupied = pos.occupied();
    let directions = rebel_directions(piece);
    (0..5).filter(move |d| directions >> d & 1 == 1).filter_map(move |d| {
        rebel_target(sq, owner, d).filter(|&to| occupied & bit(to) == 0).map(|to| (d, to))
    })
}

/// Every legal turn of the side to move under `variant`.
#[inline]
pub fn legal_turns(
    pos: &Position,
    t: &Tables,
    variant: Variant,
    berolina: bool,
    push: &mut impl FnMut(ChessMove),
) {
    match variant {
        Variant::Chess => normal_moves(pos, t, berolina, push),
        Variant::Rebellion => {
            normal_moves(pos, t, berolina, push);
            rebellion_steps(pos, t, berolina, push);
        }
        Variant::Squirm => squirm_turns(pos, t, berolina, push),
    }
}

/// Rebel steps of the opponent's pieces that leave the mover's king unattacked (6.3).
fn rebellion_steps(pos: &Position, t: &Tables, berolina: bool, push: &mut impl FnMut(ChessMove)) {
    let us = pos.side;
    let owner = us.opponent();
    for (piece, from) in pos.pieces_of(owner) {
        for (_, to) in rebel_steps(pos, piece, owner, from) {
            let mut after = *pos;
            after.step_piece(from, to);
            if !after.king_attacked(t, us, berolina) {
                push(ChessMove::new(from, to, MoveKind::Rebel));
            }
        }
    }
}

/// Squirm-chess turns: each normal move, with no squirm or after each squirm of the squirmable piece,
/// that leaves the king unattacked and cannot be punished by a squirm of the moved piece (6.4).
fn squirm_turns(pos: &Position, t: &Tables, berolina: bool, push: &mut impl FnMut(ChessMove)) {
    normal_moves(pos, t, berolina, &mut |m| {
        if squirm_proof(pos, t, m) {
            push(m);
        }
    });
    let sq = pos.squirmable;
    if sq == NO_SQUARE {
        return;
    }
    let owner = pos.side.opponent();
    let Some(piece) = pos.piece_at(sq).filter(|_| pos.colour_at(sq) == Some(owner)) else {
        return;
    };
    for (_, squirm_to) in rebel_steps(pos, piece, owner, sq) {
        let mut squirmed = *pos;
        squirmed.step_piece(sq, squirm_to);
        normal_moves(&squirmed, t, berolina, &mut |m| {
            if squirm_proof(&squirmed, t, m) {
                push(ChessMove { squirm_to, ..m });
            }
        });
    }
}

/// Whether, after normal move `m`, no squirm of the moved piece by the opponent would expose the
/// mover's king. Only a slider line through the moved piece's destination can open, so most moves
/// are settled without playing them.
#[inline]
pub fn squirm_proof(pos: &Position, t: &Tables, m: ChessMove) -> bool {
    let us = pos.side;
    let ksq = pos.king(us);
    if m.from == ksq || matches!(m.kind, MoveKind::PromoteQueen) {
        return true;
    }
    if t.line[ksq as usize][m.to as usize] == 0 {
        return true;
    }
    let mut after = *pos;
    after.apply_normal(m);
    let occupied = after.occupied();
    if !after.king_seen_by_slider(t, us, occupied ^ bit(m.to)) {
        return true;
    }
    let piece = after.piece_at(m.to).expect("the moved piece stands on its destination");
    rebel_steps(&after, piece, us, m.to)
        .all(|(_, to)| !after.king_seen_by_slider(t, us, occupied ^ bit(m.to) ^ bit(to)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::chess::bitboard::parse_square;
    use crate::game::chess::piece::BLACK;

    fn sq(name: &str) -> Square {
        parse_square(name).unwrap()
    }

    #[test]
    fn rebel_directions_are_seen_from_the_owners_side() {
        let white: Vec<_> = (0..5).map(|d| rebel_target(sq("d4"), WHITE, d)).collect();
        assert_eq!(white, ["d5", "c5", "e5", "c4", "e4"].map(|s| Some(sq(s))));
        let black: Vec<_> = (0..5).map(|d| rebel_target(sq("d5"), BLACK, d)).collect();
        assert_eq!(black, ["d4", "e4", "c4", "e5", "c5"].map(|s| Some(sq(s))));
        assert_eq!(rebel_target(sq("a1"), WHITE, 3), None, "no step off the board");
    }

    #[test]
    fn excluded_patterns_follow_r9() {
        assert_eq!(rebel_directions(Piece::Pawn).count_ones(), 2);
        assert_eq!(rebel_directions(Piece::Knight).count_ones(), 5);
        assert_eq!(rebel_directions(Piece::Bishop), 1 | 8 | 16);
        assert_eq!(rebel_directions(Piece::Rook), 2 | 4);
        assert_eq!(rebel_directions(Piece::Queen) | rebel_directions(Piece::King), 0);
    }
}
