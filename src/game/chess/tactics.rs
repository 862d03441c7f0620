//! What an alpha-beta search needs of the chess family ([`Tactics`]): captures and promotions as the
//! noisy moves (a rebel step never captures, so it is quiet; a squirm turn is noisy when its normal
//! move captures), most-valuable-victim ordering, the static exchange evaluation of a capture on its
//! square, and the null move (not while in check, nor for a side with only king and pawns, where
//! zugzwang is common).

use super::ChessGame;
use super::bitboard::{Bitboard, NO_SQUARE, bit, tables};
use super::moves::{ChessMove, MoveKind};
use super::piece::Piece;
use super::position::Position;
use super::zobrist;
use crate::game::tactics::Tactics;

/// Piece values for ordering and exchanges, in centipawns.
pub const EXCHANGE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

/// The position a squirm turn's normal move is played in (the position itself for other turns).
fn before_normal_part(pos: &Position, m: ChessMove) -> Position {
    let mut squirmed = *pos;
    if m.is_squirm() {
        squirmed.step_piece(pos.squirmable, m.squirm_to);
    }
    squirmed
}

/// The piece a normal move takes, if any.
fn victim(pos: &Position, m: ChessMove) -> Option<Piece> {
    match m.kind {
        MoveKind::Rebel => None,
        MoveKind::EnPassant => Some(Piece::Pawn),
        _ if pos.colours[pos.side.opponent().index()] & bit(m.to) != 0 => pos.piece_at(m.to),
        _ => None,
    }
}

impl Tactics for ChessGame {
    #[inline]
    fn in_check(&self, pos: &Position) -> bool {
        ChessGame::in_check(self, pos)
    }

    #[inline]
    fn is_noisy(&self, pos: &Position, m: ChessMove) -> bool {
        m.kind.promotion_piece().is_some() || victim(&before_normal_part(pos, m), m).is_some()
    }

    #[inline]
    fn noisy_rank(&self, pos: &Position, m: ChessMove) -> i32 {
        let pos = before_normal_part(pos, m);
        let taken = victim(&pos, m).map_or(0, |p| EXCHANGE_VALUES[p as usize]);
        let promoted = m.kind.promotion_piece().map_or(0, |p| EXCHANGE_VALUES[p as usize]);
        let mover = pos.piece_at(m.from).map_or(0, |p| p as i32);
        16 * (taken + promoted) - mover
    }

    fn keeps_material(&self, pos: &Position, m: ChessMove) -> bool {
        exchange(&before_normal_part(pos, m), m, self.berolina) >= 0
    }

    fn pass(&self, pos: &Position) -> Option<Position> {
        let us = pos.colours[pos.side.index()];
        let pawns_and_king = pos.pieces[Piece::Pawn as usize] | pos.pieces[Piece::King as usize];
        if self.in_check(pos) || us & !pawns_and_king == 0 {
            return None;
        }
        let mut passed = *pos;
        passed.ep = NO_SQUARE;
        passed.ep_victim = NO_SQUARE;
        passed.squirmable = NO_SQUARE;
        passed.pass_turn();
        Some(passed)
    }

    #[inline]
    fn table_key(&self, pos: &Position) -> u64 {
        zobrist::hash(pos, pos.ep != NO_SQUARE)
    }
}

/// The static exchange evaluation of normal move `m`: the material the mover wins on `m.to` when both
/// sides go on capturing there with their least valuable piece while it pays (the swap algorithm,
/// x-rays through the pieces that have left included). Rebel steps and squirms are left out of the
/// exchange.
pub fn exchange(pos: &Position, m: ChessMove, berolina: bool) -> i32 {
    if matches!(m.kind, MoveKind::Castle | MoveKind::Rebel) {
        return 0;
    }
    let t = tables();
    let value = |p: Piece| EXCHANGE_VALUES[p as usize];
    let Some(mut attacker) = pos.piece_at(m.from) else { return 0 };
    let mut gain = [0i32; 34];
    gain[0] = victim(pos, m).map_or(0, value);
    if let Some(promoted) = m.kind.promotion_piece() {
        gain[0] += value(promoted) - value(Piece::Pawn);
        attacker = promoted;
    }
    let mut occupied = pos.occupied() ^ bit(m.from);
    if m.kind == MoveKind::EnPassant {
        occupied ^= bit(pos.ep_victim);
    }
    let mut side = pos.side.opponent();
    let mut depth = 0;
    loop {
        depth += 1;
        // The capture of `attacker` on the square, should `side` have a piece to make it.
        gain[depth] = value(attacker) - gain[depth - 1];
        if (-gain[depth - 1]).max(gain[depth]) < 0 {
            break;
        }
        let attackers: Bitboard = pos.attackers_to(t, m.to, occupied, berolina) & occupied;
        let ours = attackers & pos.colours[side.index()];
        let Some(next) = Piece::ALL.into_iter().find(|&p| ours & pos.pieces[p as usize] != 0) else {
            break;
        };
        // A king takes only where nothing takes it back.
        if next == Piece::King && attackers & pos.colours[side.opponent().index()] != 0 {
            break;
        }
        let from = ours & pos.pieces[next as usize];
        occupied ^= from & from.wrapping_neg();
        attacker = next;
        side = side.opponent();
        if depth + 1 >= gain.len() {
            break;
        }
    }
    while depth > 1 {
        depth -= 1;
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn game() -> ChessGame {
        let crate::game::AnyGame::Chess(g) = crate::game::AnyGame::from_spec("chess").unwrap() else {
            unreachable!()
        };
        g
    }

    fn see(fen: &str, mv: &str) -> i32 {
        let g = game();
        let pos = g.parse_position(fen).unwrap();
        let m = g.parse_move(&pos, mv).unwrap();
        exchange(&pos, m, false)
    }

    /// The chessprogramming wiki's SEE examples: Rxe5 wins a pawn; Nxe5 in the second loses a knight
    /// for a pawn (320 − 100 = −220).
    #[test]
    fn exchanges_follow_the_swap_algorithm() {
        assert_eq!(see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), 100);
        assert_eq!(see("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5"), -220);
        // An undefended queen taken by a pawn, and a defended pawn taken by a queen.
        assert_eq!(see("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 900);
        assert_eq!(see("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5"), 100 - 900);
    }

    #[test]
    fn noisy_moves_are_captures_and_promotions() {
        let g = game();
        let pos = g.parse_position("4k3/1P6/8/8/8/7p/8/R3K3 w Q - 0 1").unwrap();
        let mv = |text: &str| g.parse_move(&pos, text).unwrap();
        assert!(g.is_noisy(&pos, mv("b7b8q")));
        assert!(!g.is_noisy(&pos, mv("a1a2")));
        assert!(g.noisy_rank(&pos, mv("b7b8q")) > g.noisy_rank(&pos, mv("b7b8n")));
        assert!(g.pass(&pos).is_some());
        let bare = g.parse_position("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert!(g.pass(&bare).is_none(), "kings and pawns: zugzwang is likely");
    }
}
