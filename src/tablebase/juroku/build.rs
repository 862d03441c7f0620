//! Retrograde analysis of one level (one Rebel count) of the Japanese board, in about two bytes a
//! position.
//!
//! The General's leaps take one Rebel and the Rebels never capture, so a level is solved from the one
//! below it: a leap leads there, every other move stays in the level. The algorithm is the Chinese
//! board's ([`crate::tablebase`]'s `build`), with three changes that let the largest levels (about
//! 3 × 10⁹ slots per side to move) fit in memory:
//!
//! - positions are stored once per mirror pair ([`FoldedIndex`]), so a move's count is kept with its
//!   multiplicity: a symmetric position's two mirrored moves into one stored pair count twice;
//! - a working slot is a `u16` (a `u32` in the Chinese builder), and only the lower level's
//!   Rebels-to-move bytes are kept (the General's leaps are the only moves into it);
//! - the positions to tell in each wave are bits in two bitmaps per side instead of lists; positions
//!   decided for a later wave (a win through a lower level, a loss whose longest line goes through a
//!   lower level) are found by scanning for their distance when that wave comes.
//!
//! Distances are exact: a win as short as the winner can force it, a loss as long as the loser can
//! make it, counted in plies to the game's decisive move.

use std::sync::atomic::{AtomicU16, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::index::{FoldedIndex, next_set, spread, unrank};
use crate::game::hunt::HuntGame;
use crate::game::hunt::board::{Board, NONE};
use crate::tablebase::verdict::{Tally, Verdict};

// A working slot is a u16:
//
// | bits  | decided                  | undecided, General to move             | undecided, Rebels to move |
// | ----- | ------------------------ | -------------------------------------- | ------------------------- |
// | 15    | DECIDED                  | 0                                      | 0                         |
// | 14    | distance (bits 0..15)    | NEVER_LOST                             | 0                         |
// | 13    |                          | WIN_PENDING                            | 0                         |
// | 4..12 |                          | longest lower loss + 1, or pending win | counter (bits 0..8)       |
// | 0..4  |                          | steps not yet known won for the Rebels |                           |
//
// A decided distance is exact in the working slots; the stored bytes saturate it at
// [`EXACT_BELOW`](crate::tablebase::EXACT_BELOW). Lower-level distances come saturated, so the
// lower-loss and pending-win fields fit 8 bits.

const DECIDED: u16 = 1 << 15;
const DISTANCE: u16 = 0x7FFF;
/// Slots that are no position (the unstored half of a mirror pair on the middle file).
const NOT_A_POSITION: u16 = u16::MAX;
/// Waves a level may take: distances below `NOT_A_POSITION`'s.
const MAX_WAVES: usize = DISTANCE as usize;
/// Undecided: a leap leads to a lower-level draw or win, so this position is never lost.
const NEVER_LOST: u16 = 1 << 14;
/// Undecided, with a win through a lower level whose distance is in the distance bits: its wave
/// decides it unless a shorter win came first.
const WIN_PENDING: u16 = 1 << 13;
const GENERAL_COUNTER: u16 = 0xF;
const GENERAL_DISTANCE_SHIFT: u32 = 4;
const REBELS_COUNTER: u16 = 0xFF;

/// The arrays of one side to move.
pub(super) const GENERAL_SIDE: usize = 0;
pub(super) const REBELS_SIDE: usize = 1;

/// Slots per parallel job of the seeding and finishing passes.
const CHUNK: u64 = 1 << 15;
/// Bitmap words per parallel job of a wave.
const WAVE_WORDS: usize = 1 << 10;

/// The level below: its index and its Rebels-to-move values (stored bytes).
pub struct Lower<'a> {
    pub index: &'a FoldedIndex,
    pub rebels_to_move: &'a [u8],
}

/// A finished level: the stored bytes of each side to move (0 a draw or no position, else the
/// distance + 1, odd distances won for the mover) and how its positions divide (mirror images
/// counted apart, so the counts are of positions, not slots).
pub struct Solved {
    pub general_to_move: Vec<u8>,
    pub rebels_to_move: Vec<u8>,
    pub tallies: [Tally; 2],
}

/// Where the build of a level stands, for a progress bar.
pub trait LevelProgress: Sync {
    /// A new phase with `total` units of work ("seeding" slots, "waves" positions to tell).
    fn phase(&self, name: &'static str, total: u64);
    /// `done` more units.
    fn advance(&self, done: u64);
    /// The wave now being told.
    fn wave(&self, wave: u32);
}

struct Work<'a> {
    board: &'static Board,
    index: &'a FoldedIndex,
    lower: Option<Lower<'a>>,
    /// A leap that leaves this many Rebels wins at once.
    wins_at: u32,
    mandatory: bool,
    rebel_targets: [u64; 64],
    /// Working slots, indexed by side to move.
    arrays: [Vec<AtomicU16>; 2],
    /// The positions to tell in this wave and the next, per side, one bit each.
    now: [Vec<AtomicU64>; 2],
    next: [Vec<AtomicU64>; 2],
    /// How many positions (per side, per distance) were decided or wait for that wave without a bit.
    waiting: [Vec<AtomicU64>; 2],
    /// The General-to-move positions decided for a later wave than the next, or with a win pending
    /// through a lower level: one bit each, found again when their wave comes.
    later: Vec<AtomicU64>,
    /// Bits newly set in `next`.
    next_count: AtomicU64,
}

/// Solves the level `index` describes; every leap's landing must be in `lower` (or win at once).
pub fn build_level(
    game: &HuntGame,
    index: &FoldedIndex,
    lower: Option<Lower>,
    progress: &dyn LevelProgress,
) -> Solved {
    let len = index.len() as usize;
    let words = len.div_ceil(64);
    let bitmap = || zeroed_u64s(words);
    let waiting = || (0..MAX_WAVES + 1).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
    let rules = &game.rules;
    let mut work = Work {
        board: game.board(),
        index,
        lower,
        wins_at: rules.general_wins_at.unwrap_or(0),
        mandatory: rules.mandatory,
        rebel_targets: std::array::from_fn(|p| game.rebel_targets(p as u8)),
        arrays: [zeroed_u16s(len), zeroed_u16s(len)],
        now: [bitmap(), bitmap()],
        next: [bitmap(), bitmap()],
        waiting: [waiting(), waiting()],
        later: bitmap(),
        next_count: AtomicU64::new(0),
    };
    progress.phase("seeding", index.len());
    work.seed(progress);
    progress.phase("telling", index.len() * 2);
    let mut wave = 0u32;
    loop {
        progress.wave(wave);
        let mut count = work.next_count.swap(0, Relaxed);
        if work.waiting[GENERAL_SIDE][wave as usize].load(Relaxed) > 0 {
            count += work.collect_later(wave);
        }
        if wave == 0 && work.waiting[REBELS_SIDE][0].load(Relaxed) > 0 {
            count += work.collect_rebels_without_moves();
        }
        let later = work.waiting.iter().any(|w| w[wave as usize + 1..].iter().any(|n| n.load(Relaxed) > 0));
        if count == 0 && !later {
            break;
        }
        work.tell_wave(wave, progress);
        for side in [GENERAL_SIDE, REBELS_SIDE] {
            work.now[side].par_iter().for_each(|w| w.store(0, Relaxed));
        }
        std::mem::swap(&mut work.now, &mut work.next);
        wave += 1;
        assert!((wave as usize) < MAX_WAVES, "a forced result longer than {MAX_WAVES} plies");
    }
    let Work { arrays: [general, rebels], now, next, later, lower, .. } = work;
    drop((now, next, later, lower));
    let (general_to_move, general_tally) = finish(index, general);
    let (rebels_to_move, rebels_tally) = finish(index, rebels);
    Solved { general_to_move, rebels_to_move, tallies: [general_tally, rebels_tally] }
}

/// The jobs of a pass over every slot: (block, first rank, end rank).
pub(super) fn jobs(index: &FoldedIndex) -> Vec<(usize, u64, u64)> {
    (0..index.generals().len())
        .flat_map(|block| {
            let n = index.block(block).end - index.block(block).start;
            (0..n.div_ceil(CHUNK)).map(move |c| (block, c * CHUNK, ((c + 1) * CHUNK).min(n)))
        })
        .collect()
}

/// Calls `f(slot, general, set)` for every slot of a job, in order.
pub(super) fn for_each_slot(
    index: &FoldedIndex,
    (block, from, to): (usize, u64, u64),
    mut f: impl FnMut(u64, u8, u32),
) {
    let (general, free) = index.block_points(block);
    let base = index.block(block).start;
    let mut squeezed = unrank(from, index.rebels(), free);
    for r in from..to {
        f(base + r, general, spread(squeezed, general, index.rebel_points()));
        if r + 1 < to {
            squeezed = next_set(squeezed);
        }
    }
}

impl Work<'_> {
    fn seed(&self, progress: &dyn LevelProgress) {
        jobs(self.index).into_par_iter().for_each(|job| {
            for_each_slot(self.index, job, |slot, general, set| {
                let at = slot as usize;
                if !self.index.is_stored(general, set) {
                    self.arrays[GENERAL_SIDE][at].store(NOT_A_POSITION, Relaxed);
                    self.arrays[REBELS_SIDE][at].store(NOT_A_POSITION, Relaxed);
                    return;
                }
                let v = self.seed_general(general, set);
                self.arrays[GENERAL_SIDE][at].store(v, Relaxed);
                if let Some(wave) = seeded_wave(v) {
                    self.wait_for(GENERAL_SIDE, slot, wave);
                }
                let v = self.seed_rebels(general, set);
                self.arrays[REBELS_SIDE][at].store(v, Relaxed);
                if v & DECIDED != 0 {
                    self.waiting[REBELS_SIDE][0].fetch_add(1, Relaxed);
                }
            });
            progress.advance(job.2 - job.1);
        });
    }

    /// A General-to-move position to tell at `wave` (later than the next): counted, and its bit set.
    fn wait_for(&self, side: usize, slot: u64, wave: u32) {
        debug_assert_eq!(side, GENERAL_SIDE, "only the General's positions wait for a later wave");
        self.waiting[side][wave as usize].fetch_add(1, Relaxed);
        self.later[(slot / 64) as usize].fetch_or(1 << (slot % 64), Relaxed);
    }

    /// The General to move: his steps stay in the level and are counted; his leaps land in the
    /// level below (or win at once), whose values are known.
    fn seed_general(&self, general: u8, set: u32) -> u16 {
        let board = self.board;
        let occupied = u64::from(set) | 1 << general;
        let (mut steps, mut leaps) = (0u16, false);
        let (mut never_lost, mut best_win, mut longest_loss) = (false, None::<u32>, 0u32);
        let mut directions = board.directions[general as usize & 63];
        while directions != 0 {
            let d = directions.trailing_zeros() as usize;
            directions &= directions - 1;
            let to = board.next(general, d);
            if occupied >> to & 1 == 0 {
                steps += 1;
                continue;
            }
            let beyond = board.next(to, d);
            if beyond == NONE || occupied >> beyond & 1 == 1 {
                continue;
            }
            leaps = true;
            if self.index.rebels() - 1 <= self.wins_at {
                return DECIDED | 1;
            }
            let lower = self.lower.as_ref().expect("a level below to leap into");
            let stored = lower.rebels_to_move[lower.index.slot(beyond, set & !(1 << to)) as usize];
            match Verdict::from_stored(stored) {
                Verdict::Draw => never_lost = true,
                // The Rebels lose there: his leap wins, one ply later.
                Verdict::Loss { plies } => best_win = Some(best_win.map_or(plies + 1, |b| b.min(plies + 1))),
                Verdict::Win { plies } => longest_loss = longest_loss.max(plies),
            }
        }
        let stay = if self.mandatory && leaps { 0 } else { steps };
        if stay == 0 && !leaps {
            return DECIDED; // no move: lost now
        }
        if let Some(plies) = best_win {
            return NEVER_LOST | WIN_PENDING | (plies as u16) << GENERAL_DISTANCE_SHIFT | stay;
        }
        match (stay, never_lost) {
            (0, true) => NEVER_LOST, // a draw, decided at once
            (0, false) => DECIDED | (longest_loss + 1) as u16,
            (n, true) => NEVER_LOST | n,
            (n, false) => n | ((longest_loss + 1) as u16) << GENERAL_DISTANCE_SHIFT,
        }
    }

    /// The Rebels to move: every step stays in the level.
    fn seed_rebels(&self, general: u8, set: u32) -> u16 {
        let empty = !(u64::from(set) | 1 << general);
        let mut rebels = set;
        let mut moves = 0;
        while rebels != 0 {
            moves += (self.rebel_targets[rebels.trailing_zeros() as usize] & empty).count_ones();
            rebels &= rebels - 1;
        }
        assert!(moves <= u32::from(REBELS_COUNTER), "{moves} Rebel moves do not fit a counter");
        if moves == 0 { DECIDED } else { moves as u16 }
    }

    /// Moves the General-to-move positions waiting for `wave` into it: a pending win is decided now
    /// (only a shorter win could have come first, and that set DECIDED), a position decided for this
    /// wave is told now. Positions decided meanwhile by a shorter win leave the waiting bits. Returns
    /// how many positions it added to the wave.
    fn collect_later(&self, wave: u32) -> u64 {
        let decided_here = DECIDED | wave as u16;
        let array = &self.arrays[GENERAL_SIDE];
        self.later
            .par_iter()
            .enumerate()
            .map(|(w, word)| {
                let mut bits = word.load(Relaxed);
                if bits == 0 {
                    return 0;
                }
                let (mut found, mut done) = (0u64, 0u64);
                while bits != 0 {
                    let bit = bits.trailing_zeros();
                    bits &= bits - 1;
                    let cell = &array[w * 64 + bit as usize];
                    let v = cell.load(Relaxed);
                    if v & DECIDED == 0 {
                        if u32::from(v >> GENERAL_DISTANCE_SHIFT & 0xFF) == wave {
                            cell.store(decided_here, Relaxed);
                            found |= 1 << bit;
                            done |= 1 << bit;
                        }
                    } else if v == decided_here {
                        found |= 1 << bit;
                        done |= 1 << bit;
                    } else if u32::from(v & DISTANCE) < wave {
                        done |= 1 << bit; // decided sooner, and told then
                    }
                }
                if done != 0 {
                    word.fetch_and(!done, Relaxed);
                }
                let fresh = found & !self.now[GENERAL_SIDE][w].fetch_or(found, Relaxed);
                u64::from(fresh.count_ones())
            })
            .sum()
    }

    /// The Rebels-to-move positions without a move, lost now: the first wave's.
    fn collect_rebels_without_moves(&self) -> u64 {
        let array = &self.arrays[REBELS_SIDE];
        self.now[REBELS_SIDE]
            .par_iter()
            .enumerate()
            .map(|(w, word)| {
                let end = ((w + 1) * 64).min(array.len());
                let found = array[w * 64..end]
                    .iter()
                    .enumerate()
                    .filter(|(_, cell)| cell.load(Relaxed) == DECIDED)
                    .fold(0u64, |found, (bit, _)| found | 1 << bit);
                let fresh = found & !word.fetch_or(found, Relaxed);
                u64::from(fresh.count_ones())
            })
            .sum()
    }

    /// Tells the predecessors of every position of this wave.
    fn tell_wave(&self, wave: u32, progress: &dyn LevelProgress) {
        for side in [GENERAL_SIDE, REBELS_SIDE] {
            self.now[side].par_chunks(WAVE_WORDS).enumerate().for_each(|(c, words)| {
                let mut told = 0;
                for (w, word) in words.iter().enumerate() {
                    let mut bits = word.load(Relaxed);
                    while bits != 0 {
                        let slot = ((c * WAVE_WORDS + w) * 64) as u64 + u64::from(bits.trailing_zeros());
                        bits &= bits - 1;
                        self.tell(side, slot, wave);
                        told += 1;
                    }
                }
                progress.advance(told);
            });
        }
    }

    /// Tells the predecessors of one position decided at `wave`: from a General-to-move position the
    /// Rebels' steps back, from a Rebels-to-move one the General's steps back (a leap comes from the
    /// level above).
    fn tell(&self, side: usize, slot: u64, wave: u32) {
        let (general, set) = self.index.position(slot);
        let mover_won = wave % 2 == 1;
        let symmetric = self.index.is_symmetric(general, set);
        if side == GENERAL_SIDE {
            let empty = self.rebel_points_mask() & !u64::from(set) & !(1 << general);
            let mut rebels = set;
            while rebels != 0 {
                let r = rebels.trailing_zeros();
                rebels &= rebels - 1;
                let mut origins = self.rebel_targets[r as usize] & empty;
                while origins != 0 {
                    let q = origins.trailing_zeros();
                    origins &= origins - 1;
                    let before = set ^ (1 << r) ^ (1 << q);
                    self.deliver(REBELS_SIDE, general, before, symmetric, mover_won, wave);
                }
            }
        } else {
            let mut origins = self.board.adjacent[general as usize & 63] & !u64::from(set);
            while origins != 0 {
                let q = origins.trailing_zeros() as u8;
                origins &= origins - 1;
                if self.mandatory && self.can_leap(q, set) {
                    continue; // his step from there was not allowed
                }
                self.deliver(GENERAL_SIDE, q, set, symmetric, mover_won, wave);
            }
        }
    }

    /// One predecessor `(general, set)` with `side` to move of a position decided at `wave`: it wins in
    /// one ply more if the position is lost for its mover, else one of its moves is known lost. A
    /// stored position counts the moves into a mirror pair once each, so the un-moves of the stored
    /// position are weighted to match: from a symmetric position only the stored predecessor counts,
    /// and into an asymmetric one a symmetric predecessor counts twice (its move and the mirrored one).
    fn deliver(&self, side: usize, general: u8, set: u32, symmetric: bool, mover_won: bool, wave: u32) {
        let times = if symmetric {
            usize::from(self.index.is_stored(general, set))
        } else if self.index.is_symmetric(general, set) {
            2
        } else {
            1
        };
        if times == 0 {
            return;
        }
        let at = self.index.slot(general, set);
        if mover_won {
            for _ in 0..times {
                self.count_down(side, at, wave);
            }
        } else {
            self.win(side, at, wave + 1);
        }
    }

    fn rebel_points_mask(&self) -> u64 {
        (1u64 << self.index.rebel_points()) - 1
    }

    /// Whether the General on `general` has a leap (under mandatory capture his steps are then not
    /// allowed).
    fn can_leap(&self, general: u8, set: u32) -> bool {
        let occupied = u64::from(set) | 1 << general;
        let board = self.board;
        (0..8).any(|d| {
            let to = board.next(general, d);
            to != NONE && set >> to & 1 == 1 && {
                let beyond = board.next(to, d);
                beyond != NONE && occupied >> beyond & 1 == 0
            }
        })
    }

    /// A predecessor that can move into a position lost for its mover: won in `plies`.
    fn win(&self, side: usize, at: u64, plies: u32) {
        let cell = &self.arrays[side][at as usize];
        let mut v = cell.load(Relaxed);
        while v & DECIDED == 0 {
            match cell.compare_exchange_weak(v, DECIDED | plies as u16, Relaxed, Relaxed) {
                Ok(_) => return self.mark_next(side, at),
                Err(now) => v = now,
            }
        }
    }

    /// A predecessor one of whose moves leads to a position won for its opponent (decided at `wave`):
    /// one move fewer to hope for; with none left it is lost, as late as its longest line.
    fn count_down(&self, side: usize, at: u64, wave: u32) {
        let cell = &self.arrays[side][at as usize];
        let general = side == GENERAL_SIDE;
        let counter = if general { GENERAL_COUNTER } else { REBELS_COUNTER };
        let longest = |v: u16| if general { u32::from(v >> GENERAL_DISTANCE_SHIFT & 0xFF) } else { 0 };
        let mut v = cell.load(Relaxed);
        while v & DECIDED == 0 {
            assert!(v & counter != 0, "more moves into a level than its positions counted");
            let lost = v & counter == 1 && v & NEVER_LOST == 0;
            let plies = (wave + 1).max(longest(v));
            let new = if lost { DECIDED | plies as u16 } else { v - 1 };
            match cell.compare_exchange_weak(v, new, Relaxed, Relaxed) {
                Ok(_) if !lost => return,
                Ok(_) if plies == wave + 1 => return self.mark_next(side, at),
                Ok(_) => return self.wait_for(side, at, plies),
                Err(now) => v = now,
            }
        }
    }

    fn mark_next(&self, side: usize, at: u64) {
        let bit = 1u64 << (at % 64);
        if self.next[side][(at / 64) as usize].fetch_or(bit, Relaxed) & bit == 0 {
            self.next_count.fetch_add(1, Relaxed);
        }
    }
}

/// The wave a seeded General-to-move position is told in, if it is decided or has a win pending.
fn seeded_wave(v: u16) -> Option<u32> {
    if v & DECIDED != 0 {
        Some(u32::from(v & DISTANCE))
    } else if v & WIN_PENDING != 0 {
        Some(u32::from(v >> GENERAL_DISTANCE_SHIFT & 0xFF))
    } else {
        None
    }
}

/// The stored bytes of one side's slots, and how its positions divide (distances saturated).
fn finish(index: &FoldedIndex, array: Vec<AtomicU16>) -> (Vec<u8>, Tally) {
    let mut bytes = vec![0u8; array.len()];
    let jobs = jobs(index);
    // Each job's slots are consecutive; hand each its own piece of the output.
    let mut pieces = Vec::with_capacity(jobs.len());
    let mut rest = bytes.as_mut_slice();
    for &(block, from, to) in &jobs {
        let start = (index.block(block).start + from) as usize;
        let consumed = array.len() - rest.len();
        let (_, tail) = rest.split_at_mut(start - consumed);
        let (piece, tail) = tail.split_at_mut((to - from) as usize);
        pieces.push(piece);
        rest = tail;
    }
    let tally = jobs
        .into_par_iter()
        .zip(pieces)
        .map(|(job, piece)| {
            let mut tally = Tally::default();
            let first = index.block(job.0).start + job.1;
            for_each_slot(index, job, |slot, general, set| {
                let v = array[slot as usize].load(Relaxed);
                if v == NOT_A_POSITION {
                    return;
                }
                let verdict = match u32::from(v & DISTANCE) {
                    _ if v & DECIDED == 0 => Verdict::Draw,
                    plies if plies % 2 == 1 => Verdict::Win { plies },
                    plies => Verdict::Loss { plies },
                };
                let stored = verdict.to_stored();
                piece[(slot - first) as usize] = stored;
                let copies = if index.is_symmetric(general, set) { 1 } else { 2 };
                for _ in 0..copies {
                    tally = tally.add(Verdict::from_stored(stored));
                }
            });
            tally
        })
        .reduce(Tally::default, Tally::merge);
    (bytes, tally)
}

/// `len` zeroed atomics, allocated zeroed (the kernel's zero pages, not a pass writing them).
fn zeroed_u16s(len: usize) -> Vec<AtomicU16> {
    let mut plain = std::mem::ManuallyDrop::new(vec![0u16; len]);
    // SAFETY: `AtomicU16` has the same size, alignment and bit validity as `u16`, and the vector's
    // ownership passes to the new one whole.
    unsafe { Vec::from_raw_parts(plain.as_mut_ptr().cast::<AtomicU16>(), plain.len(), plain.capacity()) }
}

fn zeroed_u64s(len: usize) -> Vec<AtomicU64> {
    let mut plain = std::mem::ManuallyDrop::new(vec![0u64; len]);
    // SAFETY: as in `zeroed_u16s`, for `AtomicU64` and `u64`.
    unsafe { Vec::from_raw_parts(plain.as_mut_ptr().cast::<AtomicU64>(), plain.len(), plain.capacity()) }
}
