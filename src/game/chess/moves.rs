//! One turn of the chess family as a value: a normal move, a rebel step, or a squirm plus a normal move.

use super::bitboard::{NO_SQUARE, Square};
use super::piece::Piece;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// Any move or capture that is none of the kinds below.
    Normal,
    /// A pawn's two-square first move (straight, or diagonal for Berolina pawns).
    DoubleStep,
    /// The king's two-square move; `to` is the king's destination.
    Castle,
    EnPassant,
    PromoteKnight,
    PromoteBishop,
    PromoteRook,
    PromoteQueen,
    /// A rebel step of an opponent's piece (rebellion chess).
    Rebel,
}

impl MoveKind {
    pub const PROMOTIONS: [MoveKind; 4] =
        [MoveKind::PromoteQueen, MoveKind::PromoteRook, MoveKind::PromoteBishop, MoveKind::PromoteKnight];

    /// The piece a promotion makes.
    #[inline(always)]
    pub const fn promotion_piece(self) -> Option<Piece> {
        match self {
            MoveKind::PromoteKnight => Some(Piece::Knight),
            MoveKind::PromoteBishop => Some(Piece::Bishop),
            MoveKind::PromoteRook => Some(Piece::Rook),
            MoveKind::PromoteQueen => Some(Piece::Queen),
            _ => None,
        }
    }

    /// The UCI suffix of a promotion.
    pub const fn promotion_letter(self) -> Option<char> {
        match self {
            MoveKind::PromoteKnight => Some('n'),
            MoveKind::PromoteBishop => Some('b'),
            MoveKind::PromoteRook => Some('r'),
            MoveKind::PromoteQueen => Some('q'),
            _ => None,
        }
    }
}

/// A whole turn. For a squirm turn (squirm chess), `squirm_to` is where the squirmable piece steps
/// before the normal move `from`–`to`; the squirm's origin is the position's squirmable square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ChessMove {
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
    pub squirm_to: Square,
}

impl ChessMove {
    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> ChessMove {
        ChessMove { from, to, kind, squirm_to: NO_SQUARE }
    }

    #[inline(always)]
    pub const fn is_squirm(self) -> bool {
        self.squirm_to != NO_SQUARE
    }
}
