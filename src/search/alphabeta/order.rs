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

/// Hands out a node's moves best first, with whether each is quiet.
pub struct Picker<'a, M> {
    moves: &'a [M],
    keys: &'a mut Vec<Key>,
    next: usize,
}

impl<'a, M: Copy + PartialEq> Picker<'a, M> {
    /// The ordering of a full node's moves.
    pub fn new<G: Tactics<Move = M>>(
        game: &G,
        state: &G::State,
        moves: &'a [M],
        table_move: Option<M>,
        killers: [Option<M>; 2],
        history: &History,
        keys: &'a mut Vec<Key>,
    ) -> Picker<'a, M> {
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
        Picker { moves, keys, next: 0 }
    }

    /// The ordering of a quiescence node: captures and promotions that keep their material (every move
    /// when `in_check`), the others left out.
    pub fn noisy<G: Tactics<Move = M>>(
        game: &G,
        state: &G::State,
        moves: &'a [M],
        in_check: bool,
        keys: &'a mut Vec<Key>,
    ) -> Picker<'a, M> {
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
        Picker { moves, keys, next: 0 }
    }
}

impl<M: Copy> Iterator for Picker<'_, M> {
    type Item = (M, bool);

    /// The best move not yet handed out (moves keyed `i32::MIN` never are).
    fn next(&mut self) -> Option<(M, bool)> {
        let rest = self.keys.get(self.next..)?;
        let best = self.next + (0..rest.len()).max_by_key(|&i| rest[i].0)?;
        let (key, quiet, index) = self.keys[best];
        if key == i32::MIN {
            return None;
        }
        self.keys.swap(self.next, best);
        self.next += 1;
        Some((self.moves[index as usize], quiet))
    }
}
