//! The dense index of one level of the Japanese board, with the board's left-right mirror folded in.
//!
//! A position and its mirror image have the same value, so only one of each pair is stored: the one
//! whose General stands left of the middle file, or on it with the Rebels' mask no larger than its
//! mirror's. The General's point picks a block; inside it the Rebels' set, with the General's point
//! taken out (he never stands on a Rebel), is ranked among the sets of its size (colexicographic order,
//! the order of increasing masks of one popcount). On the middle file the blocks keep a slot for every
//! set; the larger of a mirrored pair is simply never a position.
//!
//! Rebels stand on the points `0..rebel_points` (the main board, plus the triangle when it is open);
//! the General on any point.

use crate::game::hunt::board::Board;

pub use crate::tablebase::index::unrank_within as unrank;
pub use crate::tablebase::index::{binomial, next_set, rank};

/// Where a position of one level lives, and which positions a slot holds.
#[derive(Clone)]
pub struct FoldedIndex {
    rebels: u32,
    /// Points a Rebel may stand on: `0..rebel_points`.
    rebel_points: u32,
    /// The General's points that are stored, left of the middle file first, in point order.
    generals: Vec<u8>,
    /// First slot of each stored General point's block, and one past the last block.
    offsets: Vec<u64>,
    /// Each point's block, or `usize::MAX` for a point right of the middle (stored mirrored).
    block_of: [usize; 64],
    mirror: [u8; 64],
    /// The mirror of a mask, a byte at a time.
    mirror_bytes: [[u32; 256]; 4],
    /// Points on the middle file (their own mirror).
    middle: u64,
}

impl FoldedIndex {
    /// The index of the level with `rebels` Rebels on `board` (which must be mirror-symmetric, with
    /// its Rebel points first).
    pub fn new(board: &Board, rebel_points: u32, rebels: u32) -> FoldedIndex {
        assert!(board.symmetric && board.len() <= 32 && rebel_points as usize <= board.len());
        let points = board.len() as u8;
        let side_of =
            |p: u8| board.coords[p as usize].0.cmp(&board.coords[board.mirror[p as usize] as usize].0);
        let left = (0..points).filter(|&p| side_of(p).is_lt());
        let middle_points = (0..points).filter(|&p| side_of(p).is_eq());
        let generals: Vec<u8> = left.chain(middle_points.clone()).collect();
        let mut block_of = [usize::MAX; 64];
        let mut offsets = vec![0];
        for (block, &g) in generals.iter().enumerate() {
            block_of[g as usize] = block;
            let free = rebel_points - u32::from(u32::from(g) < rebel_points);
            offsets.push(offsets[block] + binomial(free, rebels));
        }
        let mut mirror_bytes = [[0u32; 256]; 4];
        for (byte, table) in mirror_bytes.iter_mut().enumerate() {
            for (value, image) in table.iter_mut().enumerate() {
                for bit in 0..8 {
                    let p = byte * 8 + bit;
                    if value >> bit & 1 == 1 && p < points as usize {
                        *image |= 1 << board.mirror[p];
                    }
                }
            }
        }
        FoldedIndex {
            rebels,
            rebel_points,
            generals,
            offsets,
            block_of,
            mirror: board.mirror,
            mirror_bytes,
            middle: middle_points.fold(0, |m, p| m | 1 << p),
        }
    }

    /// Slots in the level, per side to move.
    pub fn len(&self) -> u64 {
        *self.offsets.last().expect("at least one block")
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn rebels(&self) -> u32 {
        self.rebels
    }

    /// The stored General points, in block order.
    pub fn generals(&self) -> &[u8] {
        &self.generals
    }

    /// The slots of the block of the `block`-th stored General point.
    pub fn block(&self, block: usize) -> std::ops::Range<u64> {
        self.offsets[block]..self.offsets[block + 1]
    }

    #[inline]
    pub fn mirror_set(&self, set: u32) -> u32 {
        let t = &self.mirror_bytes;
        t[0][(set & 0xFF) as usize]
            | t[1][(set >> 8 & 0xFF) as usize]
            | t[2][(set >> 16 & 0xFF) as usize]
            | t[3][(set >> 24) as usize]
    }

    /// Whether the General's point and the Rebels' set are the stored one of their mirror pair.
    #[inline]
    pub fn is_stored(&self, general: u8, set: u32) -> bool {
        self.block_of[general as usize & 63] != usize::MAX
            && (self.middle >> general & 1 == 0 || set <= self.mirror_set(set))
    }

    /// Whether the position is its own mirror image.
    #[inline]
    pub fn is_symmetric(&self, general: u8, set: u32) -> bool {
        self.middle >> general & 1 == 1 && set == self.mirror_set(set)
    }

    /// The slot of a position, mirrored first if it is not the stored one of its pair. The General
    /// must not stand on a Rebel, and the Rebels must stand on Rebel points.
    #[inline]
    pub fn slot(&self, general: u8, set: u32) -> u64 {
        let (g, s) = if self.is_stored(general, set) {
            (general, set)
        } else {
            (self.mirror[general as usize & 63], self.mirror_set(set))
        };
        let block = self.block_of[g as usize & 63];
        self.offsets[block] + rank(squeeze(s, g, self.rebel_points))
    }

    /// The position a slot holds: the General's point and the Rebels' set (which may be the unstored
    /// one of a mirror pair on the middle file: [`Self::is_stored`] tells).
    pub fn position(&self, slot: u64) -> (u8, u32) {
        let block = self.offsets.partition_point(|&o| o <= slot) - 1;
        let g = self.generals[block];
        let free = self.rebel_points - u32::from(u32::from(g) < self.rebel_points);
        let squeezed = unrank(slot - self.offsets[block], self.rebels, free);
        (g, spread(squeezed, g, self.rebel_points))
    }

    /// The Rebel points left free for a block's General, and how to turn the block's ranks into sets.
    pub fn block_points(&self, block: usize) -> (u8, u32) {
        let g = self.generals[block];
        (g, self.rebel_points - u32::from(u32::from(g) < self.rebel_points))
    }

    pub fn rebel_points(&self) -> u32 {
        self.rebel_points
    }
}

/// The set with the General's point taken out: the points above it move down one.
#[inline]
pub fn squeeze(set: u32, general: u8, rebel_points: u32) -> u32 {
    if u32::from(general) >= rebel_points {
        return set;
    }
    let below = (1u32 << general) - 1;
    (set & below) | (set >> 1 & !below)
}

/// The inverse of [`squeeze`].
#[inline]
pub fn spread(squeezed: u32, general: u8, rebel_points: u32) -> u32 {
    if u32::from(general) >= rebel_points {
        return squeezed;
    }
    let below = (1u32 << general) - 1;
    (squeezed & below) | (squeezed & !below) << 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::hunt::board::BoardKind;

    #[test]
    fn every_position_has_one_slot_and_mirror_images_share_it() {
        for (kind, rebel_points) in [(BoardKind::Japanese, 31), (BoardKind::JapaneseClosed, 25)] {
            let board = Board::get(kind);
            for rebels in [1, 2, 3] {
                let index = FoldedIndex::new(board, rebel_points, rebels);
                let mut seen = vec![false; index.len() as usize];
                let all = (1u64 << rebel_points) - 1;
                for general in 0..board.len() as u8 {
                    let mut set = (1u32 << rebels) - 1;
                    while u64::from(set) <= all {
                        if set >> general & 1 == 0 {
                            let slot = index.slot(general, set);
                            let mirrored = index.slot(board.mirror[general as usize], index.mirror_set(set));
                            assert_eq!(slot, mirrored, "{kind:?} {general} {set:#b}");
                            if index.is_stored(general, set) {
                                assert!(!seen[slot as usize], "two positions in slot {slot}");
                                seen[slot as usize] = true;
                                assert_eq!(index.position(slot), (general, set));
                            }
                        }
                        set = next_set(set);
                    }
                }
                // Every slot is used, but for the unstored halves of the middle file's pairs.
                let unused = seen.iter().filter(|s| !**s).count() as u64;
                assert!(unused < index.len() / 4, "{kind:?}, {rebels}: {unused} of {}", index.len());
            }
        }
    }

    #[test]
    fn squeezing_takes_the_generals_point_out() {
        assert_eq!(squeeze(0b1011, 2, 31), 0b111);
        assert_eq!(spread(0b111, 2, 31), 0b1011);
        assert_eq!(squeeze(0b1011, 27, 25), 0b1011);
        assert_eq!(unrank(rank(0b1010_0110), 4, 31), 0b1010_0110);
    }
}
