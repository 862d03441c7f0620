//! The pieces and the two sides' names, apart from the position so that a move (which names the
//! piece a pawn promotes to) and the position (which holds pieces) need not import each other.

use crate::game::Side;

pub const WHITE: Side = Side::ZERO;
pub const BLACK: Side = Side::ONE;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Piece {
    pub const ALL: [Piece; 6] =
        [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King];

    /// The FEN letter of a white piece (upper case).
    pub const fn letter(self) -> char {
        ['P', 'N', 'B', 'R', 'Q', 'K'][self as usize]
    }
}
