//! An Imperial Contest position and move, and the move list's bound: the types the game, its move
//! generator and its notation share.

use crate::game::{MoveList, Side};

pub const RUSSIANS: Side = Side::ZERO;
pub const ALLIES: Side = Side::ONE;

pub const START_RUSSIAN_MEN: u32 = 8;
pub const START_ALLIES: u32 = 16;

/// The most legal moves a position can have. The Allies bound it (the Russians, 9 pieces taking up to
/// 16 Allies and with no Rule 11, have at most 9 × 16 + 16 × 4 × 3 = 336):
/// - 16 Allies × at most 16 rook destinations each (8 along the rank, 8 along the file) = 256 moves
///   that take nothing; every move that can take also has its capture-less version among these;
/// - custodian captures: the taken man (one of ≤ 8 Russian men), the destination next to it (4 sides),
///   and the mover arriving there along one of the 3 other directions (at most one nearest Ally each):
///   8 × 4 × 3 = 96;
/// - Rule 11: one man per position, taken by an Ally arriving on the single missing square along one
///   of its 3 directions not blocked by the Emperor or the man: 3.
pub const MAX_IMPERIAL_MOVES: usize = 256 + 96 + 3;

pub type Moves = MoveList<ImperialMove, MAX_IMPERIAL_MOVES>;

/// A position: the men of each side (index 0 the Russian men without the Emperor, index 1 the
/// Allies), the Emperor's square and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImperialState {
    pub men: [u128; 2],
    pub emperor: u8,
    pub to_move: Side,
}

/// A whole turn: a rook move from `from` to `to`, and the man it takes or [`NO_SQUARE`](super::board::NO_SQUARE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImperialMove {
    pub from: u8,
    pub to: u8,
    pub taken: u8,
}
