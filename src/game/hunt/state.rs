//! A hunt position and a hunt move: the types the game and its notation share.

use crate::game::{Outcome, Side};

pub const GENERAL: Side = Side::ZERO;
pub const REBELS: Side = Side::ONE;

/// A position: the General's point, the Rebels' mask, the side to move, and the result once decided
/// (a custodial capture cannot be read off the position alone, so the result is kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HuntState {
    pub general: u8,
    pub rebels: u64,
    pub to_move: Side,
    pub result: Option<Outcome>,
}

/// A whole turn: a step (`from != to`), a leap, or a static capture (`from == to`), with the Rebels
/// it removes. `kind` is the move's slot in the action space of its from-point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HuntMove {
    pub from: u8,
    pub to: u8,
    pub kind: u8,
    pub captured: u64,
}
