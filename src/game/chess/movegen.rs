//! Legal normal moves (FIDE rules, FIDE or Berolina pawns) for the side to move, in any position where
//! the side not to move is not in check. Pins and check evasions are computed up front, so only en
//! passant needs a trial move; nothing allocates.

use super::bitboard::{Bitboard, NO_SQUARE, Square, Tables, bit, file_of, rank_of, squares};
use super::moves::{ChessMove, MoveKind};
use super::piece::{Piece, WHITE};
use super::position::{BLACK_KINGSIDE, BLACK_QUEENSIDE, Position, WHITE_KINGSIDE, WHITE_QUEENSIDE};

/// Calls `push` with every legal normal move of the side to move.
#[inline]
pub fn normal_moves(pos: &Position, t: &Tables, berolina: bool, push: &mut impl FnMut(ChessMove)) {
    let us = pos.side;
    let own = pos.colours[us.index()];
    let enemy = pos.colours[us.opponent().index()];
    let occupied = own | enemy;
    let ksq = pos.king(us);
    let checkers = pos.attackers_to(t, ksq, occupied, berolina) & enemy;

    let without_king = occupied ^ bit(ksq);
    for to in squares(t.king[ksq as usize] & !own) {
        if pos.attackers_to(t, to, without_king, berolina) & enemy == 0 {
            push(ChessMove::new(ksq, to, MoveKind::Normal));
        }
    }
    if checkers & (checkers.wrapping_sub(1)) != 0 {
        return;
    }
    let target = !own
        & if checkers != 0 {
            t.between[ksq as usize][checkers.trailing_zeros() as usize] | checkers
        } else {
            !0
        };
    let pinned = pinned_pieces(pos, t, ksq, own, enemy);
    let pin_line =
        |from: Square| if pinned & bit(from) != 0 { t.line[ksq as usize][from as usize] } else { !0 };

    if checkers == 0 {
        castling(pos, t, berolina, occupied, enemy, push);
    }
    for from in squares(pos.of(us, Piece::Knight) & !pinned) {
        for to in squares(t.knight[from as usize] & target) {
            push(ChessMove::new(from, to, MoveKind::Normal));
        }
    }
    let queens = pos.of(us, Piece::Queen);
    for from in squares(pos.of(us, Piece::Bishop) | queens) {
        for to in squares(t.bishop(from, occupied) & target & pin_line(from)) {
            push(ChessMove::new(from, to, MoveKind::Normal));
        }
    }
    for from in squares(pos.of(us, Piece::Rook) | queens) {
        for to in squares(t.rook(from, occupied) & target & pin_line(from)) {
            push(ChessMove::new(from, to, MoveKind::Normal));
        }
    }
    let allowed = |from: Square| target & pin_line(from);
    if berolina {
        berolina_pawns(pos, t, occupied, enemy, allowed, push);
    } else {
        fide_pawns(pos, t, occupied, enemy, allowed, push);
    }
    if pos.ep != NO_SQUARE {
        en_passant(pos, t, berolina, ksq, occupied, enemy, push);
    }
}

/// Own pieces that alone stand between the king and an enemy slider.
#[inline]
fn pinned_pieces(pos: &Position, t: &Tables, ksq: Square, own: Bitboard, enemy: Bitboard) -> Bitboard {
    let p = &pos.pieces;
    let rooks = p[Piece::Rook as usize] | p[Piece::Queen as usize];
    let bishops = p[Piece::Bishop as usize] | p[Piece::Queen as usize];
    let snipers = (t.rook(ksq, 0) & rooks | t.bishop(ksq, 0) & bishops) & enemy;
    let occupied = own | enemy;
    let mut pinned = 0;
    for sniper in squares(snipers) {
        let blockers = t.between[ksq as usize][sniper as usize] & occupied;
        if blockers & blockers.wrapping_sub(1) == 0 {
            pinned |= blockers & own;
        }
    }
    pinned
}

#[inline(always)]
fn push_pawn_move(from: Square, to: Square, push: &mut impl FnMut(ChessMove)) {
    if rank_of(to) == 0 || rank_of(to) == 7 {
        for kind in MoveKind::PROMOTIONS {
            push(ChessMove::new(from, to, kind));
        }
    } else {
        push(ChessMove::new(from, to, MoveKind::Normal));
    }
}

/// Pushes and diagonal captures; `allowed(from)` is the check-evasion target masked by any pin line.
#[inline]
fn fide_pawns(
    pos: &Position,
    t: &Tables,
    occupied: Bitboard,
    enemy: Bitboard,
    allowed: impl Fn(Square) -> Bitboard,
    push: &mut impl FnMut(ChessMove),
) {
    let us = pos.side;
    let (forward, start_rank): (i8, u8) = if us == WHITE { (8, 1) } else { (-8, 6) };
    for from in squares(pos.of(us, Piece::Pawn)) {
        let ok = allowed(from);
        let one = (from as i8 + forward) as Square;
        if occupied & bit(one) == 0 {
            if ok & bit(one) != 0 {
                push_pawn_move(from, one, push);
            }
            let two = (one as i8 + forward) as Square;
            if rank_of(from) == start_rank && occupied & bit(two) == 0 && ok & bit(two) != 0 {
                push(ChessMove::new(from, two, MoveKind::DoubleStep));
            }
        }
        for to in squares(t.fide_pawn[us.index()][from as usize] & enemy & ok) {
            push_pawn_move(from, to, push);
        }
    }
}

/// Diagonal moves (and diagonal double steps from the start rank) and straight captures.
#[inline]
fn berolina_pawns(
    pos: &Position,
    t: &Tables,
    occupied: Bitboard,
    enemy: Bitboard,
    allowed: impl Fn(Square) -> Bitboard,
    push: &mut impl FnMut(ChessMove),
) {
    let us = pos.side;
    let (forward, start_rank): (i8, u8) = if us == WHITE { (8, 1) } else { (-8, 6) };
    for from in squares(pos.of(us, Piece::Pawn)) {
        let ok = allowed(from);
        for one in squares(t.fide_pawn[us.index()][from as usize] & !occupied) {
            if ok & bit(one) != 0 {
                push_pawn_move(from, one, push);
            }
            if rank_of(from) == start_rank {
                let two = (2 * one as i8 - from as i8) as Square;
                let same_direction = file_of(two).abs_diff(file_of(from)) == 2;
                if same_direction && occupied & bit(two) == 0 && ok & bit(two) != 0 {
                    push(ChessMove::new(from, two, MoveKind::DoubleStep));
                }
            }
        }
        let ahead = (from as i8 + forward) as Square;
        if enemy & bit(ahead) & ok != 0 {
            push_pawn_move(from, ahead, push);
        }
    }
}

/// En-passant captures, each tried on the board because removing two pawns from one line can expose
/// the king in ways no pin test sees.
#[inline]
fn en_passant(
    pos: &Position,
    t: &Tables,
    berolina: bool,
    ksq: Square,
    occupied: Bitboard,
    enemy: Bitboard,
    push: &mut impl FnMut(ChessMove),
) {
    let us = pos.side;
    let (ep, victim) = (pos.ep, pos.ep_victim);
    let capturers = if berolina {
        let behind = if us == WHITE { ep.wrapping_sub(8) } else { ep + 8 };
        if behind < 64 { bit(behind) } else { 0 }
    } else {
        t.fide_pawn[us.opponent().index()][ep as usize]
    } & pos.of(us, Piece::Pawn);
    for from in squares(capturers) {
        let after = occupied ^ bit(from) ^ bit(victim) | bit(ep);
        let attackers = pos.attackers_to(t, ksq, after, berolina) & enemy & !bit(victim);
        if attackers == 0 {
            push(ChessMove::new(from, ep, MoveKind::EnPassant));
        }
    }
}

/// Castling: the right, the rook at home, an empty path, and no attacked square on the king's way.
#[inline]
fn castling(
    pos: &Position,
    t: &Tables,
    berolina: bool,
    occupied: Bitboard,
    enemy: Bitboard,
    push: &mut impl FnMut(ChessMove),
) {
    let (kingside, queenside, home) = if pos.side == WHITE {
        (WHITE_KINGSIDE, WHITE_QUEENSIDE, 4u8)
    } else {
        (BLACK_KINGSIDE, BLACK_QUEENSIDE, 60u8)
    };
    if pos.castling & (kingside | queenside) == 0 {
        return;
    }
    let rooks = pos.of(pos.side, Piece::Rook);
    let safe = |sq: Square| pos.attackers_to(t, sq, occupied, berolina) & enemy == 0;
    let empty = |mask: Bitboard| occupied & mask == 0;
    if pos.castling & kingside != 0
        && rooks & bit(home + 3) != 0
        && empty(bit(home + 1) | bit(home + 2))
        && safe(home + 1)
        && safe(home + 2)
    {
        push(ChessMove::new(home, home + 2, MoveKind::Castle));
    }
    if pos.castling & queenside != 0
        && rooks & bit(home - 4) != 0
        && empty(bit(home - 1) | bit(home - 2) | bit(home - 3))
        && safe(home - 1)
        && safe(home - 2)
    {
        push(ChessMove::new(home, home - 2, MoveKind::Castle));
    }
}
