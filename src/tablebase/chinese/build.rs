//! Retrograde analysis of one level (one Rebel count) of a Chinese-board hunt game.
//!
//! The General's captures only ever lower the Rebel count and the Rebels never capture, so levels are
//! solved from the fewest Rebels up: a capture leads into a level already solved, every other move stays
//! in the level. Within a level the classic algorithm runs on two arrays, one per side to move:
//!
//! 1. **Seed.** Every position's moves are generated once. A move that wins at once (apex, the last
//!    capture, a blockade) or captures into a lower position the mover wins decides it; otherwise the
//!    position keeps a counter of its moves that stay in the level. A move into a lower draw means the
//!    position is never lost; a move into a lower loss only raises the loss's length.
//! 2. **Propagate** in waves of increasing distance: a position lost for its mover in `d` plies makes
//!    every predecessor won in `d + 1`; a position won in `d` takes one off each predecessor's counter,
//!    and a predecessor whose counter reaches 0 is lost, in one ply more than its longest line.
//!    Predecessors come from un-moves: a Rebel stepping back, or the General stepping back without a
//!    capture (a capturing arrival comes from another level).
//! 3. Whatever was never decided is a draw: neither side can force a win, so play goes on until the
//!    repetition rule or the cap ends it.
//!
//! Distances are exact: a win is as short as the winner can force it, a loss as long as the loser can
//! make it, counting plies from the position to the game's decisive move. Every step runs in parallel
//! on rayon's pool; the counters are atomics updated by compare-and-swap.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

use super::index::{next_set, rank, sets_on, unrank_on};
use super::{Level, Levels};
use crate::game::Game;
use crate::game::hunt::{GENERAL, HuntGame, HuntState, REBELS};
use crate::tablebase::juroku::LevelProgress;

type Moves = <HuntGame as Game>::Moves;

// A working slot is a u32:
//
// | bits  | decided position               | undecided position                                   |
// | ----- | ------------------------------ | ---------------------------------------------------- |
// | 31    | DECIDED                        | 0                                                    |
// | 30    | PROPAGATED (predecessors told) | 0                                                    |
// | 29    | —                              | NEVER_LOST                                           |
// | 28    | —                              | WIN_PENDING                                          |
// | 8..24 | —                              | longest lower-level loss, or a pending win's distance |
// | 0..16 | distance in plies              | (bits 0..8) moves in the level not yet known won for  |
// |       |                                | the opponent                                         |

/// Decided: the low 16 bits hold the distance in plies (odd: won for the side to move, even: lost).
const DECIDED: u32 = 1 << 31;
/// A decided position whose predecessors have been told.
const PROPAGATED: u32 = 1 << 30;
/// Undecided, but never lost: a move leads to a lower-level draw, or to a lower-level win that waits
/// in its distance's wave.
const NEVER_LOST: u32 = 1 << 29;
/// Undecided, with a win through a lower level whose distance sits in the lower-loss bits; its wave
/// decides it unless a shorter win came first.
const WIN_PENDING: u32 = 1 << 28;
/// Undecided: the low 8 bits count the moves that stay in the level and are not yet known won for the
/// opponent; bits 8..24 hold the longest lower-level loss among the other moves.
const COUNTER: u32 = 0xFF;
const LOWER_LOSS_SHIFT: u32 = 8;
/// Slots that are no position: the General on a Rebel, or a game already over.
const NOT_A_POSITION: u32 = DECIDED | PROPAGATED | 0xFFFF;

/// A wave entry: the index in one of the two arrays, bit 31 set for the Rebels-to-move array.
const REBELS_ARRAY: u32 = 1 << 31;

/// Positions per parallel chunk of the seeding pass.
const SEED_CHUNK: usize = 1 << 12;
/// Wave entries per parallel chunk.
const WAVE_CHUNK: usize = 1 << 14;

struct Work<'a> {
    game: &'a HuntGame,
    rebels: u32,
    /// The points Rebels stand on: the board's first, `main_board` as a mask.
    rebel_points: u32,
    main_board: u32,
    slots: usize,
    general: Vec<AtomicU32>,
    rebel: Vec<AtomicU32>,
}

/// New entries found while processing a wave: for the next wave, and for later ones.
#[derive(Default)]
struct Found {
    next: Vec<u32>,
    later: Vec<(u32, u32)>,
}

impl Found {
    fn merge(mut self, other: Found) -> Found {
        self.next.extend(other.next);
        self.later.extend(other.later);
        self
    }
}

/// Solves the level of `rebels` Rebels; every level its captures reach must be in `lower`. `progress`
/// hears the seeding pass (positions) and the waves (positions told, out of every slot: the draws are
/// never told, so the bar ends short of them).
pub(in crate::tablebase) fn build_level(
    game: &HuntGame,
    rebels: u32,
    lower: &Levels,
    progress: &dyn LevelProgress,
) -> Level {
    let slots = game.board().len();
    let rebel_points = super::rebel_points(game);
    let len = sets_on(rebel_points, rebels) * slots;
    let new_array = || (0..len).into_par_iter().map(|_| AtomicU32::new(0)).collect::<Vec<_>>();
    let main_board = (((1u64 << rebel_points) - 1) & u64::from(u32::MAX)) as u32;
    let work =
        Work { game, rebels, rebel_points, main_board, slots, general: new_array(), rebel: new_array() };

    let mut waves: Vec<Vec<u32>> = Vec::new();
    progress.phase("seeding", len as u64);
    let seeded = work.seed(lower, progress);
    progress.phase("telling", 2 * len as u64);
    add_found(&mut waves, 0, seeded);
    let mut d = 0;
    while d < waves.len() {
        progress.wave(d as u32);
        let wave = std::mem::take(&mut waves[d]);
        progress.advance(wave.len() as u64);
        let found = wave
            .par_chunks(WAVE_CHUNK)
            .map(|chunk| {
                let mut found = Found::default();
                for &entry in chunk {
                    work.process(entry, d as u32, &mut found);
                }
                found
            })
            .reduce(Found::default, Found::merge);
        add_found(&mut waves, d + 1, found);
        d += 1;
    }
    Level { rebels, rebel_points, general_to_move: finish(work.general), rebels_to_move: finish(work.rebel) }
}

/// Files `found.next` under wave `next` and each later entry under its own distance.
fn add_found(waves: &mut Vec<Vec<u32>>, next: usize, found: Found) {
    fn slot(waves: &mut Vec<Vec<u32>>, d: usize) -> &mut Vec<u32> {
        if waves.len() <= d {
            waves.resize_with(d + 1, Vec::new);
        }
        &mut waves[d]
    }
    if !found.next.is_empty() {
        slot(waves, next).extend(found.next);
    }
    for (d, entry) in found.later {
        slot(waves, d as usize).push(entry);
    }
}

/// The stored form: 0 for a draw or no position, else the distance + 1 ([`crate::tablebase::MAX_PLIES`] at most).
fn finish(array: Vec<AtomicU32>) -> Vec<u8> {
    array
        .into_par_iter()
        .map(|cell| {
            let v = cell.into_inner();
            if v & DECIDED == 0 || v == NOT_A_POSITION {
                return 0;
            }
            let plies = v & 0xFFFF;
            assert!(
                plies <= crate::tablebase::MAX_PLIES,
                "a forced result {plies} plies away does not fit the table's bytes"
            );
            plies as u8 + 1
        })
        .collect()
}

impl Work<'_> {
    /// Pass 1: every position's moves, once. Returns the positions decided so far, by distance.
    fn seed(&self, lower: &Levels, progress: &dyn LevelProgress) -> Found {
        let sets = sets_on(self.rebel_points, self.rebels);
        (0..sets.div_ceil(SEED_CHUNK))
            .into_par_iter()
            .map(|chunk| {
                let mut found = Found::default();
                let mut moves = Moves::default();
                let first = chunk * SEED_CHUNK;
                let mut set = unrank_on(first as u32, self.rebels, self.rebel_points);
                for r in first..(first + SEED_CHUNK).min(sets) {
                    for g in 0..self.slots {
                        let at = r * self.slots + g;
                        let s = HuntState {
                            general: g as u8,
                            rebels: set as u64,
                            to_move: GENERAL,
                            result: None,
                        };
                        if !self.is_position(&s) {
                            self.general[at].store(NOT_A_POSITION, Relaxed);
                            self.rebel[at].store(NOT_A_POSITION, Relaxed);
                            continue;
                        }
                        let v = self.seed_general(&s, lower, &mut moves);
                        self.general[at].store(v, Relaxed);
                        note_seed(&mut found, v, at as u32);
                        let v = self.seed_rebels(&HuntState { to_move: REBELS, ..s }, &mut moves);
                        self.rebel[at].store(v, Relaxed);
                        note_seed(&mut found, v, at as u32 | REBELS_ARRAY);
                    }
                    if r + 1 < sets {
                        set = next_set(set);
                    }
                }
                progress.advance((SEED_CHUNK.min(sets - first) * self.slots) as u64);
                found
            })
            .reduce(Found::default, Found::merge)
    }

    fn is_position(&self, s: &HuntState) -> bool {
        super::is_position(self.game, s)
    }

    fn seed_general(&self, s: &HuntState, lower: &Levels, moves: &mut Moves) -> u32 {
        self.game.legal_moves(s, moves);
        if moves.is_empty() {
            return DECIDED; // no move: lost now
        }
        let mut stay = 0;
        let mut never_lost = false;
        let mut best_win: Option<u32> = None;
        let mut longest_loss = 0;
        for &m in moves.iter() {
            let mut next = *s;
            self.game.apply(&mut next, m);
            if let Some(outcome) = next.result {
                // His own move never loses on this board: he enters the privy through an empty exit.
                assert_eq!(outcome.winner, Some(GENERAL), "a General move that loses at once");
                return DECIDED | 1;
            }
            if m.captured == 0 {
                stay += 1;
                continue;
            }
            let child =
                lower.get(next.rebels.count_ones()).expect("capture into a solved level").value(&next);
            match child {
                0 => never_lost = true,
                v if (v - 1) % 2 == 0 => {
                    let plies = u32::from(v - 1) + 1;
                    best_win = Some(best_win.map_or(plies, |b| b.min(plies)));
                }
                v => longest_loss = longest_loss.max(u32::from(v - 1)),
            }
        }
        if let Some(plies) = best_win {
            // A win through a lower level: a shorter one may still come from this level, so it waits
            // in its wave as an undecided entry that can never be lost.
            return NEVER_LOST | stay | plies << LOWER_LOSS_SHIFT | WIN_PENDING;
        }
        match (stay, never_lost) {
            (0, true) => NEVER_LOST, // a draw, decided at once
            (0, false) => DECIDED | (longest_loss + 1),
            (n, true) => NEVER_LOST | n,
            (n, false) => n | (longest_loss + 1) << LOWER_LOSS_SHIFT,
        }
    }

    fn seed_rebels(&self, s: &HuntState, moves: &mut Moves) -> u32 {
        self.game.legal_moves(s, moves);
        if moves.is_empty() {
            return DECIDED; // the Rebels cannot move: they lose
        }
        let mut stay = 0;
        for &m in moves.iter() {
            let mut next = *s;
            self.game.apply(&mut next, m);
            match next.result {
                Some(outcome) => {
                    assert_eq!(outcome.winner, Some(REBELS), "a Rebel move that loses at once");
                    return DECIDED | 1;
                }
                None => stay += 1,
            }
        }
        stay
    }
}

/// Files a seeded position under the wave where it is decided.
fn note_seed(found: &mut Found, v: u32, entry: u32) {
    if v & DECIDED != 0 {
        found.later.push((v & 0xFFFF, entry));
    } else if v & WIN_PENDING != 0 {
        found.later.push(((v >> LOWER_LOSS_SHIFT) & 0xFFFF, entry));
    }
}

impl Work<'_> {
    /// Pass 2, one wave entry: claims it (deciding a pending win now), then tells its predecessors.
    fn process(&self, entry: u32, d: u32, found: &mut Found) {
        let in_rebels = entry & REBELS_ARRAY != 0;
        let at = (entry & !REBELS_ARRAY) as usize;
        let cell = if in_rebels { &self.rebel[at] } else { &self.general[at] };
        let mut v = cell.load(Relaxed);
        loop {
            let claimed = if v & DECIDED == 0 {
                assert!(v & WIN_PENDING != 0, "an undecided position in a wave");
                DECIDED | PROPAGATED | d
            } else if v & PROPAGATED != 0 || v & 0xFFFF != d {
                return; // told already, or decided in an earlier wave than its pending win
            } else {
                v | PROPAGATED
            };
            match cell.compare_exchange_weak(v, claimed, Relaxed, Relaxed) {
                Ok(_) => break,
                Err(now) => v = now,
            }
        }
        let set = unrank_on((at / self.slots) as u32, self.rebels, self.rebel_points);
        let general = (at % self.slots) as u8;
        let mover_won = d % 2 == 1;
        if in_rebels {
            self.tell_general_predecessors(set, general, mover_won, d, found);
        } else {
            self.tell_rebel_predecessors(set, general, mover_won, d, found);
        }
    }

    /// The positions, Rebels to move, from which a Rebel step led to this General-to-move position:
    /// each Rebel steps back to an empty point it could have stepped from (where Rebels step only
    /// forward and sideways, not from the point ahead of it).
    fn tell_rebel_predecessors(&self, set: u32, general: u8, general_won: bool, d: u32, found: &mut Found) {
        let board = self.game.board();
        let empty = self.main_board & !set & !1u32.checked_shl(u32::from(general)).unwrap_or(0);
        let mut rebels = set;
        while rebels != 0 {
            let r = rebels.trailing_zeros();
            rebels &= rebels - 1;
            let mut origins = board.adjacent[r as usize] as u32 & empty;
            while origins != 0 {
                let q = origins.trailing_zeros();
                origins &= origins - 1;
                if self.game.rebel_targets(q as u8) >> r & 1 == 0 {
                    continue; // a step the Rebels may not take (back toward their own side)
                }
                let before = set ^ (1 << r) ^ (1 << q);
                if !self.is_position(&HuntState {
                    general,
                    rebels: before as u64,
                    to_move: REBELS,
                    result: None,
                }) {
                    continue; // a blockade: the game ended before the Rebels' step
                }
                let at = rank(before) as usize * self.slots + general as usize;
                let entry = at as u32 | REBELS_ARRAY;
                if general_won {
                    self.count_down(&self.rebel[at], entry, d, found);
                } else {
                    self.win(&self.rebel[at], entry, d + 1, found);
                }
            }
        }
    }

    /// The positions, General to move, from which a step without capture led to this Rebels-to-move
    /// position. None when Rebels stand opposite each other across him: his arrival would have taken
    /// them.
    fn tell_general_predecessors(&self, set: u32, general: u8, rebels_won: bool, d: u32, found: &mut Found) {
        let board = self.game.board();
        let rebels = set as u64;
        if board.pairs[general as usize].iter().any(|&pair| pair != 0 && rebels & pair == pair) {
            return;
        }
        let base = rank(set) as usize * self.slots;
        let mut origins = board.adjacent[general as usize] & !rebels;
        while origins != 0 {
            let q = origins.trailing_zeros() as u8;
            origins &= origins - 1;
            let before = HuntState { general: q, rebels, to_move: GENERAL, result: None };
            if !self.is_position(&before) || (self.game.rules.mandatory && self.can_capture(&before)) {
                continue;
            }
            let at = base + q as usize;
            if rebels_won {
                self.count_down(&self.general[at], at as u32, d, found);
            } else {
                self.win(&self.general[at], at as u32, d + 1, found);
            }
        }
    }

    /// Whether the General has a capturing step (the mandatory-capture rule takes his other moves away).
    fn can_capture(&self, s: &HuntState) -> bool {
        let board = self.game.board();
        let occupied = s.rebels | 1 << s.general;
        board.neighbour[s.general as usize].iter().any(|&to| {
            to != crate::game::hunt::board::NONE
                && occupied >> to & 1 == 0
                && board.pairs[to as usize].iter().any(|&pair| pair != 0 && s.rebels & pair == pair)
        })
    }

    /// A predecessor that can move into a position lost for its mover: won in `plies`.
    fn win(&self, cell: &AtomicU32, entry: u32, plies: u32, found: &mut Found) {
        let mut v = cell.load(Relaxed);
        while v & DECIDED == 0 {
            match cell.compare_exchange_weak(v, DECIDED | plies, Relaxed, Relaxed) {
                Ok(_) => return found.next.push(entry),
                Err(now) => v = now,
            }
        }
    }

    /// A predecessor one of whose moves leads to a position won for its opponent (decided at `d`):
    /// one move fewer to hope for; with none left it is lost, as late as its longest line.
    fn count_down(&self, cell: &AtomicU32, entry: u32, d: u32, found: &mut Found) {
        let mut v = cell.load(Relaxed);
        while v & DECIDED == 0 {
            assert!(v & COUNTER != 0, "more moves into a level than its positions counted");
            let lost = v & COUNTER == 1 && v & NEVER_LOST == 0;
            let plies = (d + 1).max((v >> LOWER_LOSS_SHIFT) & 0xFFFF);
            let new = if lost { DECIDED | plies } else { v - 1 };
            match cell.compare_exchange_weak(v, new, Relaxed, Relaxed) {
                Ok(_) if !lost => return,
                Ok(_) if plies == d + 1 => return found.next.push(entry),
                Ok(_) => return found.later.push((plies, entry)),
                Err(now) => v = now,
            }
        }
    }
}
