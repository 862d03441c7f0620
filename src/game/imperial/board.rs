//! The 9 × 9 board of RULES.md section 5: squares, labels, and the masks move generation reads, all
//! computed at compile time.
//!
//! Square `s` is file `s % 9` (a..i) and rank `s / 9` (1..9), so a set of squares is a `u128` with bit
//! `s` set; north is `+9` and east is `+1`.

pub const SIZE: u8 = 9;
pub const SQUARES: usize = 81;
/// "No square": a missing neighbour, or no man taken.
pub const NO_SQUARE: u8 = u8::MAX;

/// Every square of the board.
pub const BOARD: u128 = (1 << SQUARES) - 1;

/// The orthogonal directions: north, east, south, west. `(d + 2) % 4` is the opposite direction.
pub const NORTH: usize = 0;
pub const EAST: usize = 1;
pub const SOUTH: usize = 2;
pub const WEST: usize = 3;
const DELTAS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

#[inline]
pub const fn opposite(direction: usize) -> usize {
    (direction + 2) & 3
}

/// The set holding only `square`.
#[inline]
pub const fn bit(square: u8) -> u128 {
    1 << square
}

#[inline]
pub const fn file(square: u8) -> u8 {
    square % SIZE
}

#[inline]
pub const fn rank(square: u8) -> u8 {
    square / SIZE
}

#[inline]
pub const fn square(file: u8, rank: u8) -> u8 {
    rank * SIZE + file
}

/// The square's label, `a1`..`i9`.
pub fn label(square: u8) -> String {
    format!("{}{}", (b'a' + file(square)) as char, rank(square) + 1)
}

/// The square a label names, if it is exactly a file letter a..i and a rank digit 1..9.
pub fn parse_square(text: &str) -> Option<u8> {
    match text.as_bytes() {
        &[f @ b'a'..=b'i', r @ b'1'..=b'9'] => Some(square(f - b'a', r - b'1')),
        _ => None,
    }
}

/// The squares of `set`, lowest first.
#[inline]
pub fn squares(mut set: u128) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let s = set.trailing_zeros() as u8;
            set &= set - 1;
            s
        })
    })
}

/// Precomputed geometry.
pub struct Tables {
    /// `next[s][d]`: the neighbour of `s` in direction `d`, or [`NO_SQUARE`].
    pub next: [[u8; 4]; SQUARES],
    /// `ray[d][s]`: the squares from `s` (excluded) to the edge in direction `d`.
    pub ray: [[u128; SQUARES]; 4],
    /// `short_ray[d][s]`: the first four squares of `ray[d][s]` (the Emperor's reach).
    pub short_ray: [[u128; SQUARES]; 4],
    /// The orthogonal neighbours of each square.
    pub neighbours: [u128; SQUARES],
    /// Rank 1, rank 9, file a and file i (the "Turkish territory").
    pub border: u128,
    /// Squares whose neighbour east has a further neighbour east (files a..g); likewise west (c..i).
    /// They keep the shifted masks of custodian capture from wrapping round the board's edge.
    pub two_east: u128,
    pub two_west: u128,
}

pub static TABLES: Tables = Tables::build();

impl Tables {
    const fn build() -> Tables {
        let mut t = Tables {
            next: [[NO_SQUARE; 4]; SQUARES],
            ray: [[0; SQUARES]; 4],
            short_ray: [[0; SQUARES]; 4],
            neighbours: [0; SQUARES],
            border: 0,
            two_east: 0,
            two_west: 0,
        };
        let mut s = 0;
        while s < SQUARES {
            let (f, r) = (file(s as u8) as i8, rank(s as u8) as i8);
            if f == 0 || f == 8 || r == 0 || r == 8 {
                t.border |= bit(s as u8);
            }
            if f <= 6 {
                t.two_east |= bit(s as u8);
            }
            if f >= 2 {
                t.two_west |= bit(s as u8);
            }
            let mut d = 0;
            while d < 4 {
                let (df, dr) = DELTAS[d];
                let mut distance = 1;
                loop {
                    let (tf, tr) = (f + df * distance, r + dr * distance);
                    if tf < 0 || tf > 8 || tr < 0 || tr > 8 {
                        break;
                    }
                    let target = square(tf as u8, tr as u8);
                    if distance == 1 {
                        t.next[s][d] = target;
                        t.neighbours[s] |= bit(target);
                    }
                    t.ray[d][s] |= bit(target);
                    if distance <= 4 {
                        t.short_ray[d][s] |= bit(target);
                    }
                    distance += 1;
                }
                d += 1;
            }
            s += 1;
        }
        t
    }
}

/// The squares a slider on `from` reaches along `ray` (a ray of direction `direction` from `from`)
/// before the first occupied square.
#[inline]
pub fn slide(ray: u128, occupied: u128, direction: usize) -> u128 {
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    // North and east run to higher indices, so the nearest blocker is the lowest set bit.
    let nearest = if direction == NORTH || direction == EAST {
        blockers.trailing_zeros()
    } else {
        127 - blockers.leading_zeros()
    };
    ray & !(TABLES.ray[direction][nearest as usize] | bit(nearest as u8))
}

/// The direction and distance of a rook move, if `from` and `to` share a rank or a file.
pub fn direction_and_distance(from: u8, to: u8) -> Option<(usize, u8)> {
    let direction = (0..4).find(|&d| TABLES.ray[d][from as usize] & bit(to) != 0)?;
    Some((direction, file(from).abs_diff(file(to)) + rank(from).abs_diff(rank(to))))
}

/// The direction from `square` to its orthogonal neighbour `other`, if they are neighbours.
pub fn neighbour_direction(square: u8, other: u8) -> Option<usize> {
    (0..4).find(|&d| TABLES.next[square as usize][d] == other)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> u8 {
        parse_square(text).unwrap()
    }

    #[test]
    fn labels_round_trip_and_junk_is_refused() {
        for s in 0..SQUARES as u8 {
            assert_eq!(parse_square(&label(s)), Some(s));
        }
        for junk in ["", "a", "a0", "j1", "a10", "A1", "1a", "é5"] {
            assert_eq!(parse_square(junk), None, "{junk}");
        }
    }

    #[test]
    fn border_is_the_outer_ring_of_32_squares() {
        assert_eq!(TABLES.border.count_ones(), 32);
        for s in ["a1", "a5", "i9", "e1", "e9", "i4"] {
            assert_ne!(TABLES.border & bit(sq(s)), 0, "{s}");
        }
        for s in ["b2", "e5", "h8"] {
            assert_eq!(TABLES.border & bit(sq(s)), 0, "{s}");
        }
    }

    #[test]
    fn rays_stop_at_the_edge_and_the_emperor_reaches_four() {
        assert_eq!(TABLES.ray[NORTH][sq("e5") as usize].count_ones(), 4);
        assert_eq!(TABLES.ray[EAST][sq("a1") as usize].count_ones(), 8);
        assert_eq!(TABLES.ray[WEST][sq("a1") as usize], 0);
        assert_eq!(TABLES.short_ray[EAST][sq("a1") as usize], squares_of(&["b1", "c1", "d1", "e1"]));
        assert_eq!(TABLES.next[sq("i5") as usize][EAST], NO_SQUARE);
        assert_eq!(TABLES.neighbours[sq("a1") as usize], squares_of(&["a2", "b1"]));
    }

    #[test]
    fn slide_stops_before_the_nearest_blocker_both_ways() {
        let occupied = squares_of(&["e8", "e7", "e2"]);
        let north = slide(TABLES.ray[NORTH][sq("e5") as usize], occupied, NORTH);
        assert_eq!(north, squares_of(&["e6"]));
        let south = slide(TABLES.ray[SOUTH][sq("e5") as usize], occupied, SOUTH);
        assert_eq!(south, squares_of(&["e4", "e3"]));
        assert_eq!(direction_and_distance(sq("e5"), sq("e3")), Some((SOUTH, 2)));
        assert_eq!(direction_and_distance(sq("e5"), sq("f6")), None);
    }

    fn squares_of(labels: &[&str]) -> u128 {
        labels.iter().fold(0, |set, l| set | bit(sq(l)))
    }
}
