//! Zobrist keys for the repetition hash (RULES.md 0.4), generated at compile time by splitmix64.

use super::bitboard::{NO_SQUARE, file_of, squares};
use super::piece::{Piece, WHITE};
use super::position::Position;

struct Keys {
    pieces: [[[u64; 64]; 6]; 2],
    black_to_move: u64,
    castling: [u64; 16],
    ep_file: [u64; 8],
    squirmable: [u64; 64],
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build_keys() -> Keys {
    let mut s = 0x0005_EEDC_4E55_u64;
    let mut keys = Keys {
        pieces: [[[0; 64]; 6]; 2],
        black_to_move: 0,
        castling: [0; 16],
        ep_file: [0; 8],
        squirmable: [0; 64],
    };
    let mut i = 0;
    while i < 2 * 6 * 64 {
        keys.pieces[i / 384][(i / 64) % 6][i % 64] = splitmix(&mut s);
        i += 1;
    }
    keys.black_to_move = splitmix(&mut s);
    let mut r = 0;
    while r < 16 {
        keys.castling[r] = splitmix(&mut s);
        r += 1;
    }
    let mut f = 0;
    while f < 8 {
        keys.ep_file[f] = splitmix(&mut s);
        f += 1;
    }
    let mut q = 0;
    while q < 64 {
        keys.squirmable[q] = splitmix(&mut s);
        q += 1;
    }
    keys
}

static KEYS: Keys = build_keys();

/// The hash of placement, side to move, castling rights, the en-passant file when `ep_capturable`
/// (the caller decides whether an en-passant capture is really available) and the squirmable square.
pub fn hash(pos: &Position, ep_capturable: bool) -> u64 {
    let mut h = 0;
    for (side_index, &colour) in pos.colours.iter().enumerate() {
        for piece in Piece::ALL {
            for sq in squares(pos.pieces[piece as usize] & colour) {
                h ^= KEYS.pieces[side_index][piece as usize][sq as usize];
            }
        }
    }
    if pos.side != WHITE {
        h ^= KEYS.black_to_move;
    }
    h ^= KEYS.castling[pos.castling as usize];
    if ep_capturable {
        h ^= KEYS.ep_file[file_of(pos.ep) as usize];
    }
    if pos.squirmable != NO_SQUARE {
        h ^= KEYS.squirmable[pos.squirmable as usize];
    }
    h
}
