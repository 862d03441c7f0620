//! Squares, bitboards and precomputed attack tables. Sliding attacks use "fancy" magic bitboards: one
//! multiply and shift per lookup. The magics are searched on first use with a fixed-seed generator,
//! which keeps the source free of opaque constant tables but costs about 0.4 s per process (measured:
//! 98% of `rebel-zero perft chess --depth 1`); generating them at build time would remove that.

use std::sync::LazyLock;

/// Square index 0..64: a1 = 0, b1 = 1, …, h8 = 63.
pub type Square = u8;
pub type Bitboard = u64;

pub const NO_SQUARE: Square = 64;

#[inline]
pub const fn bit(sq: Square) -> Bitboard {
    1u64 << sq
}

#[inline]
pub const fn file_of(sq: Square) -> u8 {
    sq & 7
}

#[inline]
pub const fn rank_of(sq: Square) -> u8 {
    sq >> 3
}

/// Iterates the squares of a bitboard, lowest first.
#[inline]
pub fn squares(mut bb: Bitboard) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bb == 0 {
            return None;
        }
        let sq = bb.trailing_zeros() as Square;
        bb &= bb - 1;
        Some(sq)
    })
}

/// The square `(df, dr)` away from `sq`, if it is on the board.
pub const fn offset(sq: Square, df: i8, dr: i8) -> Option<Square> {
    let f = file_of(sq) as i8 + df;
    let r = rank_of(sq) as i8 + dr;
    if f < 0 || f > 7 || r < 0 || r > 7 { None } else { Some((r * 8 + f) as Square) }
}

pub fn square_name(sq: Square) -> String {
    format!("{}{}", (b'a' + file_of(sq)) as char, (b'1' + rank_of(sq)) as char)
}

pub fn parse_square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 8 + (b[0] - b'a'))
}

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_JUMPS: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// Ray attacks by walking: the reference for the magic tables and their search.
fn slow_slider(sq: Square, occupied: Bitboard, dirs: &[(i8, i8); 4]) -> Bitboard {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = offset(cur, df, dr) {
            attacks |= bit(next);
            if occupied & bit(next) != 0 {
                break;
            }
            cur = next;
        }
    }
    attacks
}

/// The squares whose occupancy matters for a slider on `sq`: its rays without their last square.
fn relevant_mask(sq: Square, dirs: &[(i8, i8); 4]) -> Bitboard {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let mut cur = sq;
        while let Some(next) = offset(cur, df, dr) {
            if offset(next, df, dr).is_none() {
                break;
            }
            mask |= bit(next);
            cur = next;
        }
    }
    mask
}

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline(always)]
    fn index(&self, occupied: Bitboard) -> usize {
        self.offset + ((occupied & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// Every precomputed table of the chess family.
pub struct Tables {
    pub knight: [Bitboard; 64],
    pub king: [Bitboard; 64],
    /// `fide_pawn[colour][sq]`: the diagonal capture targets of a FIDE pawn.
    pub fide_pawn: [[Bitboard; 64]; 2],
    /// Squares strictly between two aligned squares (0 when not aligned).
    pub between: Box<[[Bitboard; 64]; 64]>,
    /// The whole line through two aligned squares (0 when not aligned).
    pub line: Box<[[Bitboard; 64]; 64]>,
    rook_magics: [Magic; 64],
    bishop_magics: [Magic; 64],
    slider_table: Vec<Bitboard>,
}

impl Tables {
    #[inline(always)]
    pub fn rook(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.slider_table[self.rook_magics[sq as usize].index(occupied)]
    }

    #[inline(always)]
    pub fn bishop(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.slider_table[self.bishop_magics[sq as usize].index(occupied)]
    }

    #[inline(always)]
    pub fn queen(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        self.rook(sq, occupied) | self.bishop(sq, occupied)
    }
}

pub fn tables() -> &'static Tables {
    static TABLES: LazyLock<Tables> = LazyLock::new(build_tables);
    &TABLES
}

fn jump_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [0; 64];
    for sq in 0..64u8 {
        table[sq as usize] =
            steps.iter().filter_map(|&(df, dr)| offset(sq, df, dr)).fold(0, |m, s| m | bit(s));
    }
    table
}

fn build_tables() -> Tables {
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut slider_table = Vec::new();
    let rook_magics =
        std::array::from_fn(|sq| find_magic(sq as Square, &ROOK_DIRS, &mut slider_table, &mut rng));
    let bishop_magics =
        std::array::from_fn(|sq| find_magic(sq as Square, &BISHOP_DIRS, &mut slider_table, &mut rng));
    let mut between = Box::new([[0; 64]; 64]);
    let mut line = Box::new([[0; 64]; 64]);
    for a in 0..64u8 {
        for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
            let from_a = slow_slider(a, 0, dirs);
            for b in squares(from_a) {
                let from_b = slow_slider(b, 0, dirs);
                between[a as usize][b as usize] = slow_slider(a, bit(b), dirs) & slow_slider(b, bit(a), dirs);
                line[a as usize][b as usize] = (from_a & from_b) | bit(a) | bit(b);
            }
        }
    }
    let mut fide_pawn = [[0; 64]; 2];
    fide_pawn[0] = jump_table(&[(-1, 1), (1, 1)]);
    fide_pawn[1] = jump_table(&[(-1, -1), (1, -1)]);
    Tables {
        knight: jump_table(&KNIGHT_JUMPS),
        king: jump_table(&KING_STEPS),
        fide_pawn,
        between,
        line,
        rook_magics,
        bishop_magics,
        slider_table,
    }
}

fn next_random(state: &mut u64) -> u64 {
    // xorshift64*: plenty for a magic search.
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// Finds a collision-free magic for one square and appends its attack table to `table`.
fn find_magic(sq: Square, dirs: &[(i8, i8); 4], table: &mut Vec<Bitboard>, rng: &mut u64) -> Magic {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    let mut occupancies = Vec::with_capacity(size);
    let mut subset: Bitboard = 0;
    loop {
        occupancies.push((subset, slow_slider(sq, subset, dirs)));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    let mut slots = vec![(0u32, 0 as Bitboard); size];
    let mut attempt = 0u32;
    loop {
        let magic = next_random(rng) & next_random(rng) & next_random(rng);
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let candidate = Magic { mask, magic, shift: 64 - bits, offset: 0 };
        let fits = occupancies.iter().all(|&(occ, attacks)| {
            let slot = &mut slots[candidate.index(occ)];
            if slot.0 != attempt {
                *slot = (attempt, attacks);
                true
            } else {
                slot.1 == attacks
            }
        });
        if fits {
            let offset = table.len();
            table.extend(slots.iter().map(|&(_, attacks)| attacks));
            return Magic { offset, ..candidate };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_ray_walking() {
        let t = tables();
        let mut rng = 7u64;
        for _ in 0..2000 {
            let occ = next_random(&mut rng) & next_random(&mut rng);
            for sq in 0..64u8 {
                assert_eq!(t.rook(sq, occ), slow_slider(sq, occ, &ROOK_DIRS));
                assert_eq!(t.bishop(sq, occ), slow_slider(sq, occ, &BISHOP_DIRS));
            }
        }
    }

    #[test]
    fn between_and_line() {
        let t = tables();
        let (a1, c3, h8, b3) = (0u8, 18u8, 63u8, 17u8);
        assert_eq!(t.between[a1 as usize][c3 as usize], bit(9));
        assert_eq!(t.line[a1 as usize][c3 as usize].count_ones(), 8);
        assert_ne!(t.line[c3 as usize][h8 as usize] & bit(a1), 0);
        assert_eq!(t.between[a1 as usize][b3 as usize], 0);
        assert_eq!(parse_square("e4"), Some(28));
        assert_eq!(square_name(28), "e4");
        assert_eq!(parse_square("i1"), None);
    }
}
