//! Dense indices of hunt positions: the Rebels' set as its rank among all sets of the same size
//! (colexicographic order, the order in which increasing masks of one popcount come), times the
//! General's point.
//!
//! Rebels stand only on the 25 points of the main board (points 0..25 in `board` numbering), so a set of
//! `n` Rebels has one of C(25, n) ranks. The General may stand on any of the board's points; slots where
//! he stands on a Rebel, or that are not positions at all, are simply never used.

/// Points a Rebel may stand on: the 5 × 5 main board.
pub const REBEL_POINTS: u32 = 25;

/// The most points a Rebel set may range over: sets are `u32` masks.
pub const MAX_REBEL_POINTS: u32 = 32;

/// The most slots (sets × General points) in one level: a level's positions are numbered in 31 bits,
/// the 32nd telling the builder's two arrays apart.
pub const MAX_LEVEL_SLOTS: u64 = 1 << 31;

/// `BINOMIAL[n][k]` = C(n, k) for n, k ≤ 32 (0 where k > n).
static BINOMIAL: [[u64; 33]; 33] = binomials();

const fn binomials() -> [[u64; 33]; 33] {
    let mut c = [[0u64; 33]; 33];
    let mut n = 0;
    while n < 33 {
        c[n][0] = 1;
        let mut k = 1;
        while k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

/// C(n, k) for n, k ≤ 32.
pub fn binomial(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
}

/// The number of Rebel sets of size `n` on the main board.
pub fn sets_of(n: u32) -> usize {
    binomial(REBEL_POINTS, n) as usize
}

/// The number of sets of `n` Rebels on `points` points.
pub fn sets_on(points: u32, n: u32) -> usize {
    binomial(points, n) as usize
}

/// The colexicographic rank of a set among the sets of its size: Σ C(pᵢ, i) over its points
/// p₁ < p₂ < … (i counted from 1). The same for any number of points, since it never looks above the
/// set's highest.
#[inline]
pub fn rank(mut set: u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        r += BINOMIAL[set.trailing_zeros() as usize][i];
        set &= set - 1;
        i += 1;
    }
    r
}

/// The set of `n` main-board points with the given rank (the inverse of [`rank`]).
pub fn unrank(r: u32, n: u32) -> u32 {
    unrank_within(u64::from(r), n, REBEL_POINTS)
}

/// The set of `n` points among `0..points` with the given rank.
pub fn unrank_on(r: u32, n: u32, points: u32) -> u32 {
    unrank_within(u64::from(r), n, points)
}

/// The set of size `k` within the points `0..points` with the given rank.
pub fn unrank_within(mut r: u64, k: u32, points: u32) -> u32 {
    let mut set = 0;
    let mut top = points as usize;
    for i in (1..=k as usize).rev() {
        // The largest point p with C(p, i) ≤ r.
        top -= 1;
        while BINOMIAL[top][i] > r {
            top -= 1;
        }
        r -= BINOMIAL[top][i];
        set |= 1 << top;
    }
    set
}

/// The next larger set with the same number of points (Gosper's hack), which is the next rank.
#[inline]
pub fn next_set(set: u32) -> u32 {
    let lowest = set & set.wrapping_neg();
    let ripple = set.wrapping_add(lowest);
    (((ripple ^ set) >> 2) / lowest) | ripple
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_count_every_set_once_in_increasing_order() {
        for n in [0, 1, 2, 5, 12, 25] {
            let total = sets_of(n);
            let mut set = (1u32 << n) - 1;
            for r in 0..total {
                assert_eq!(rank(set), r as u64, "n = {n}, set {set:#b}");
                assert_eq!(unrank(r as u32, n), set, "n = {n}, rank {r}");
                if r + 1 < total {
                    let next = next_set(set);
                    assert!(next > set && next.count_ones() == n);
                    set = next;
                }
            }
            assert!(
                n == 0 || set.leading_zeros() == 32 - REBEL_POINTS,
                "the last set of size {n} is the top one"
            );
        }
    }

    #[test]
    fn binomials_are_pascals_triangle() {
        assert_eq!(sets_of(16), 2_042_975);
        assert_eq!(sets_of(12), 5_200_300);
        assert_eq!(binomial(4, 5), 0);
        assert_eq!(binomial(30, 15), 155_117_520);
    }
}
