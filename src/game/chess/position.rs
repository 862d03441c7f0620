//! The position (copy-make: a few bitboards and counters) and how each kind of move changes it.

use super::bitboard::{Bitboard, NO_SQUARE, Square, Tables, bit, squares};
use super::moves::{ChessMove, MoveKind};
use super::piece::{BLACK, Piece, WHITE};
use crate::game::Side;

/// Castling rights, one bit each.
pub const WHITE_KINGSIDE: u8 = 1;
pub const WHITE_QUEENSIDE: u8 = 2;
pub const BLACK_KINGSIDE: u8 = 4;
pub const BLACK_QUEENSIDE: u8 = 8;

/// The rights that survive a piece leaving or arriving on each square (king and rook home squares).
const fn rights_kept() -> [u8; 64] {
    let mut kept = [15u8; 64];
    kept[0] = 15 & !WHITE_QUEENSIDE;
    kept[7] = 15 & !WHITE_KINGSIDE;
    kept[4] = 15 & !(WHITE_KINGSIDE | WHITE_QUEENSIDE);
    kept[56] = 15 & !BLACK_QUEENSIDE;
    kept[63] = 15 & !BLACK_KINGSIDE;
    kept[60] = 15 & !(BLACK_KINGSIDE | BLACK_QUEENSIDE);
    kept
}
pub const RIGHTS_KEPT: [u8; 64] = rights_kept();

/// A chess position. `ep` is the square a pawn passed over in a double step on the last move (set after
/// every double step, whether or not a capture is possible); `ep_victim` is that pawn's square, which a
/// Berolina double step does not determine from `ep` alone.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub pieces: [Bitboard; 6],
    pub colours: [Bitboard; 2],
    pub side: Side,
    pub castling: u8,
    pub ep: Square,
    pub ep_victim: Square,
    pub halfmove: u16,
    pub fullmove: u16,
    /// Squirm chess: the square of the piece that made the last normal move (`NO_SQUARE` when none).
    pub squirmable: Square,
}

impl Position {
    pub const fn empty() -> Position {
        Position {
            pieces: [0; 6],
            colours: [0; 2],
            side: WHITE,
            castling: 0,
            ep: NO_SQUARE,
            ep_victim: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            squirmable: NO_SQUARE,
        }
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colours[0] | self.colours[1]
    }

    #[inline(always)]
    pub fn of(&self, side: Side, piece: Piece) -> Bitboard {
        self.pieces[piece as usize] & self.colours[side.index()]
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = bit(sq);
        Piece::ALL.into_iter().find(|&p| self.pieces[p as usize] & b != 0)
    }

    #[inline]
    pub fn colour_at(&self, sq: Square) -> Option<Side> {
        if self.colours[0] & bit(sq) != 0 {
            Some(WHITE)
        } else if self.colours[1] & bit(sq) != 0 {
            Some(BLACK)
        } else {
            None
        }
    }

    /// The king of `side`; every valid position has exactly one.
    #[inline(always)]
    pub fn king(&self, side: Side) -> Square {
        self.of(side, Piece::King).trailing_zeros() as Square
    }

    #[inline(always)]
    pub fn put(&mut self, side: Side, piece: Piece, sq: Square) {
        self.pieces[piece as usize] |= bit(sq);
        self.colours[side.index()] |= bit(sq);
    }

    #[inline(always)]
    pub fn remove(&mut self, side: Side, piece: Piece, sq: Square) {
        self.pieces[piece as usize] &= !bit(sq);
        self.colours[side.index()] &= !bit(sq);
    }

    /// Pieces of both colours attacking `sq` given occupancy `occupied`. A FIDE pawn attacks the two
    /// squares diagonally ahead, a Berolina pawn the square straight ahead.
    #[inline(always)]
    pub fn attackers_to(&self, t: &Tables, sq: Square, occupied: Bitboard, berolina: bool) -> Bitboard {
        let p = &self.pieces;
        let rooks = p[Piece::Rook as usize] | p[Piece::Queen as usize];
        let bishops = p[Piece::Bishop as usize] | p[Piece::Queen as usize];
        let pawns = if berolina {
            (bit(sq) >> 8) & self.colours[0] | (bit(sq) << 8) & self.colours[1]
        } else {
            t.fide_pawn[1][sq as usize] & self.colours[0] | t.fide_pawn[0][sq as usize] & self.colours[1]
        };
        (t.knight[sq as usize] & p[Piece::Knight as usize])
            | (t.king[sq as usize] & p[Piece::King as usize])
            | (pawns & p[Piece::Pawn as usize])
            | (t.rook(sq, occupied) & rooks)
            | (t.bishop(sq, occupied) & bishops)
    }

    /// Whether `side`'s king is attacked.
    #[inline]
    pub fn king_attacked(&self, t: &Tables, side: Side, berolina: bool) -> bool {
        let them = self.colours[side.opponent().index()];
        self.attackers_to(t, self.king(side), self.occupied(), berolina) & them != 0
    }

    /// Whether an enemy rook, bishop or queen sees `side`'s king through occupancy `occupied`.
    #[inline]
    pub fn king_seen_by_slider(&self, t: &Tables, side: Side, occupied: Bitboard) -> bool {
        let ksq = self.king(side);
        let them = self.colours[side.opponent().index()];
        let p = &self.pieces;
        let rooks = (p[Piece::Rook as usize] | p[Piece::Queen as usize]) & them;
        let bishops = (p[Piece::Bishop as usize] | p[Piece::Queen as usize]) & them;
        t.rook(ksq, occupied) & rooks != 0 || t.bishop(ksq, occupied) & bishops != 0
    }

    /// Moves a piece one square to an empty square without any other effect (a rebel step or squirm);
    /// castling rights go with a rook or king leaving its home square, and the en-passant square is
    /// cleared (RULES.md 6.2).
    #[inline]
    pub fn step_piece(&mut self, from: Square, to: Square) {
        let side = self.colour_at(from).expect("a rebel step moves a piece");
        let piece = self.piece_at(from).expect("a rebel step moves a piece");
        self.remove(side, piece, from);
        self.put(side, piece, to);
        self.castling &= RIGHTS_KEPT[from as usize] & RIGHTS_KEPT[to as usize];
        self.ep = NO_SQUARE;
        self.ep_victim = NO_SQUARE;
    }

    /// Plays a normal chess move of the side to move (no squirm part) and passes the turn.
    #[inline]
    pub fn apply_normal(&mut self, mv: ChessMove) {
        let us = self.side;
        let them = us.opponent();
        let (from, to) = (mv.from, mv.to);
        let piece = self.piece_at(from).expect("a normal move moves a piece");
        self.halfmove += 1;
        if let Some(captured) =
            if self.colours[them.index()] & bit(to) != 0 { self.piece_at(to) } else { None }
        {
            self.remove(them, captured, to);
            self.halfmove = 0;
        }
        self.remove(us, piece, from);
        self.put(us, mv.kind.promotion_piece().unwrap_or(piece), to);
        match mv.kind {
            MoveKind::EnPassant => self.remove(them, Piece::Pawn, self.ep_victim),
            MoveKind::Castle => {
                let (rook_from, rook_to) =
                    if to > from { (from + 3, from + 1) } else { (from - 4, from - 1) };
                self.remove(us, Piece::Rook, rook_from);
                self.put(us, Piece::Rook, rook_to);
            }
            _ => {}
        }
        if piece == Piece::Pawn {
            self.halfmove = 0;
        }
        self.castling &= RIGHTS_KEPT[from as usize] & RIGHTS_KEPT[to as usize];
        if mv.kind == MoveKind::DoubleStep {
            self.ep = (from + to) / 2;
            self.ep_victim = to;
        } else {
            self.ep = NO_SQUARE;
            self.ep_victim = NO_SQUARE;
        }
        self.squirmable = to;
        self.pass_turn();
    }

    /// Hands the move to the other side, counting full moves after Black's.
    #[inline]
    pub fn pass_turn(&mut self) {
        if self.side == BLACK {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.opponent();
    }

    /// Every piece of `side` as (piece, square).
    pub fn pieces_of(&self, side: Side) -> impl Iterator<Item = (Piece, Square)> + '_ {
        Piece::ALL.into_iter().flat_map(move |p| squares(self.of(side, p)).map(move |sq| (p, sq)))
    }
}
