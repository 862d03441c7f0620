//! Move ordering: each move gets a key once, and the picker hands out the best remaining one at a time
//! (most nodes cut after a move or two, so sorting them all would be waste). The table's move first,
//! then captures and promotions that keep their material (most valuable victim first), the killers,
//! quiet moves by their history, and captures that lose material last.

use crate::game::tactics::Tactics;
use crate::game::{Game, Side};

const TABLE_MOVE: i32 = 2_000_000_000;
const GOOD_NOISY: i32 = 1_000_000_000;
const KILLER: [i32; 2] = [900_000_000, 800_000_000];
const BAD_NOISY: i32 = -1_000_000_000;
/// History scores stay within ± this (bonuses shrink as a score nears it).
const HISTORY_CAP: i32 = 16_384;

/// How often each quiet move (by side and action index) has cut, weighted by depth.
pub struct History {
    scores: [Vec<i32>; 2],
}

impl History {
    pub fn new(actions: usize) -> History {
        History { scores: [vec![0; actions], vec![0; actions]] }
    }

    pub fn clear(&mut self) {
        self.scores.iter_mut().for_each(|s| s.iter_mut().for_each(|x| *x = 0));
    }

    /// Halves every score at a new search, so old lessons fade.
    pub fn age(&mut self) {
        self.scores.iter_mut().for_each(|s| s.iter_mut().for_each(|x| *x /= 2));
    }

    fn get<G: Game>(&self, game: &G, state: &G::State, mv: G::Move, side: Side) -> i32 {
        self.scores[side.index()][game.action_index(state, mv).get()]
    }

    fn add<G: Game>(&mut self, game: &G, state: &G::State, mv: G::Move, side: Side, bonus: i32) {
        let score = &mut self.scores[side.index()][game.action_index(state, mv).get()];
        // The "gravity" update: a score approaches the cap rather than passing it.
        *score += bonus - *score * bonus.abs() / HISTORY_CAP;
    }

    /// A quiet move that cut at `depth`.
    pub fn cut<G: Game>(&mut self, game: &G, state: &G::State, mv: G::Move, side: Side, depth: i32) {
        self.add(game, state, mv, side, (depth * depth).min(400));
    }

    /// A quiet move searched without cutting.
    pub fn tried<G: Game>(&mut self, game: &G, state: &G::State, mv: G::Move, side: Side, depth: i32) {
        self.add(game, state, mv, side, -(depth * depth).min(400) / 4);
    }
}

/// A move's ordering key, whether it is quiet, and its index in the node's moves.
pub type Key = (i32, bool, u32);

/// Orders a node's moves: each gets a key once ([`Picker::key`] or [`Picker::key_noisy`]), then
/// [`Picker::next`] hands out the best remaining one (by index into the node's moves, which the
/// search keeps on its move stack).
pub struct Picker;

impl Picker {
    /// The keys of a full node's moves.
    pub fn key<G: Tactics>(
        game: &G,
        state: &G::State,
        moves: &[G::Move],
        table_move: Option<G::Move>,
        killers: [Option<G::Move>; 2],
        history: &History,
        keys: &mut Vec<Key>,
    ) {
        let mover = game.to_move(state);
        keys.clear();
        keys.extend(moves.iter().enumerate().map(|(i, &mv)| {
            let i = i as u32;
            if Some(mv) == table_move {
                return (TABLE_MOVE, !game.is_noisy(state, mv), i);
            }
            if game.is_noisy(state, mv) {
                let rank = game.noisy_rank(state, mv);
                let base = if game.keeps_material(state, mv) { GOOD_NOISY } else { BAD_NOISY };
                return (base + rank, false, i);
            }
            let key = if killers[0] == Some(mv) {
                KILLER[0]
            } else if killers[1] == Some(mv) {
                KILLER[1]
            } else {
                history.get(game, state, mv, mover)
            };
            (key, true, i)
        }));
    }

    /// The keys of a quiescence node's moves: captures and promotions that keep their material (every
    /// move when `in_check`); the others are never handed out.
    pub fn key_noisy<G: Tactics>(
        game: &G,
        state: &G::State,
        moves: &[G::Move],
        in_check: bool,
        keys: &mut Vec<Key>,
    ) {
        keys.clear();
        keys.extend(moves.iter().enumerate().map(|(i, &mv)| {
            let (i, noisy) = (i as u32, game.is_noisy(state, mv));
            if noisy && (in_check || game.keeps_material(state, mv)) {
                (GOOD_NOISY + game.noisy_rank(state, mv), false, i)
            } else if in_check {
                (0, true, i)
            } else {
                (i32::MIN, true, i)
            }
        }));
    }

    /// The best move not yet handed out, the `picked` before it having been (by its index, and whether
    /// it is quiet); moves keyed `i32::MIN` never are.
    pub fn next(keys: &mut [Key], picked: usize) -> Option<(usize, bool)> {
        let rest = keys.get(picked..)?;
        let best = picked + (0..rest.len()).max_by_key(|&i| rest[i].0)?;
        let (key, quiet, index) = keys[best];
        if key == i32::MIN {
            return None;
        }
        keys.swap(picked, best);
        Some((index as usize, quiet))
    }
}
