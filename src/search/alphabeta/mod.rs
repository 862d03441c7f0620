//! Alpha-beta search over any [`Game`] whose [`Tactics`] it knows, with an [`Evaluation`] of the
//! leaves: a hand-written one for the chess family (`crate::eval::chess`), a network's value head for the
//! hunt boards (in the `nn` layer).
//!
//! Iterative deepening with principal-variation search and aspiration windows; a transposition table
//! ([`table`]); quiescence over captures and promotions (losing exchanges skipped); move ordering by
//! the table's move, winning captures (most valuable victim first), two killers per ply, a history of
//! quiet moves that cut, then losing captures; a check extension; null-move pruning where a pass is
//! sound ([`Tactics::pass`]), reverse futility pruning and late-move reductions for quiet moves that
//! do not give check. A position that repeats one on the path or in the game's history since the
//! last irreversible move, the game's own draws ([`Game::rule_draw`]) and the draw cap score 0; mates
//! score `MATE − plies`.
//!
//! A search stops at its depth, its nodes, or its deadlines: the soft one is not passed by starting an
//! iteration it cannot finish, the hard one ends the search mid-iteration (the clock is read every
//! 1,024 nodes). A stop flag another thread may set ends it too (UCI's `stop`).

mod order;
pub mod table;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::tactics::Tactics;
use crate::game::{Game, Playthrough, Side};
use order::{History, Key, Picker};
use table::{Bound, Table, TableTooBig};

/// The score of a mate now; a mate `n` plies away scores `MATE − n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The deepest the search goes, extensions and quiescence included.
pub const MAX_PLY: usize = 128;

/// A leaf's value for the side to move, on the scale of centipawns (a pawn about 100), strictly
/// inside ±[`MATE_BOUND`]; `plies` is the game's length so far (a network's progress plane reads it).
pub trait Evaluation<G: Game> {
    fn evaluate(&mut self, game: &G, state: &G::State, plies: u32) -> i32;
}

impl<G: Game, E: Evaluation<G> + ?Sized> Evaluation<G> for Box<E> {
    fn evaluate(&mut self, game: &G, state: &G::State, plies: u32) -> i32 {
        (**self).evaluate(game, state, plies)
    }
}

/// Material alone: 100 per piece of the side to move less the opponent's (the fallback of a game with
/// no evaluation of its own).
pub struct Material;

impl<G: Game> Evaluation<G> for Material {
    fn evaluate(&mut self, game: &G, state: &G::State, _plies: u32) -> i32 {
        let [zero, one] = game.material(state).unwrap_or([0, 0]).map(|n| n as i32);
        let white = 100 * (zero - one);
        if game.to_move(state) == Side::ZERO { white } else { -white }
    }
}

/// When a search ends: the first limit reached.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// No iteration starts past this (its search would run past the hard deadline).
    pub soft: Option<Duration>,
    /// The search ends mid-iteration at this.
    pub hard: Option<Duration>,
}

/// A score as UCI shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    pub fn of(score: i32) -> Score {
        if score > MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score < -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Centipawns(score)
        }
    }
}

/// What one finished iteration found.
#[derive(Clone, Debug)]
pub struct Iteration<M> {
    /// Which of the best lines this is (1: the best; more with [`AlphaBeta::set_lines`]).
    pub line: u32,
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub pv: Vec<M>,
}

/// The outcome of a search: the move to play and the last iteration's numbers.
#[derive(Clone, Debug)]
pub struct Found<M> {
    pub best: M,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The searcher: its transposition table, ordering tables and evaluation persist between searches.
pub struct AlphaBeta<G: Tactics, E: Evaluation<G>> {
    game: G,
    eval: E,
    table: Table<G::Move>,
    history: History,
    killers: Vec<[Option<G::Move>; 2]>,
    /// Where moves are generated (boxed: a chess move list is ten kilobytes, too much for each frame of
    /// the recursion's stack), and the moves of every ply on the path, one range each.
    buffer: Box<G::Moves>,
    moves: Vec<G::Move>,
    /// Each ply's range of `moves`.
    ranges: Vec<std::ops::Range<usize>>,
    /// Each ply's move-ordering keys.
    order: Vec<Vec<Key>>,
    pv: Vec<Vec<G::Move>>,
    /// Table keys of the game's positions since its last irreversible move, then of the search path,
    /// each with whether the move into it was reversible (a repetition cannot reach across one that
    /// was not).
    keys: Vec<(u64, bool)>,
    /// The game's plies before the root (for the draw cap).
    root_plies: u32,
    /// The root moves searched (UCI's `go searchmoves`); empty: every legal move.
    root_moves: Vec<G::Move>,
    /// How many best lines each iteration finds (UCI's `MultiPV`), and the root moves of the lines
    /// already found in this iteration, left out of the search for the next.
    lines: usize,
    root_excluded: Vec<G::Move>,
    nodes: u64,
    seldepth: usize,
    started: Instant,
    limits: Limits,
    stop: Arc<AtomicBool>,
    aborted: bool,
}

impl<G: Tactics, E: Evaluation<G>> AlphaBeta<G, E> {
    /// A search with a transposition table of about `table_megabytes` MB, or why the machine's free
    /// memory cannot hold that table.
    pub fn new(game: G, eval: E, table_megabytes: usize) -> Result<AlphaBeta<G, E>, TableTooBig> {
        let actions = game.facts().action_count;
        Ok(AlphaBeta {
            game,
            eval,
            table: Table::new(table_megabytes)?,
            history: History::new(actions),
            killers: vec![[None; 2]; MAX_PLY + 1],
            buffer: Box::default(),
            moves: Vec::new(),
            ranges: vec![0..0; MAX_PLY + 1],
            order: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            keys: Vec::new(),
            root_plies: 0,
            root_moves: Vec::new(),
            lines: 1,
            root_excluded: Vec::new(),
            nodes: 0,
            seldepth: 0,
            started: Instant::now(),
            limits: Limits::default(),
            stop: Arc::new(AtomicBool::new(false)),
            aborted: false,
        })
    }

    /// The flag that ends a search when set (from another thread). Whoever sets it clears it before
    /// the next search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Searches only `moves` at the root from now on (those that are legal; none given, or none
    /// legal: every legal move), as UCI's `go searchmoves` asks.
    pub fn restrict_root(&mut self, moves: &[G::Move]) {
        self.root_moves = moves.to_vec();
    }

    /// Finds the `lines` best root moves from now on (UCI's `MultiPV`), each with its own line; the
    /// first is the move played. At least 1.
    pub fn set_lines(&mut self, lines: usize) {
        self.lines = lines.max(1);
    }

    /// Uses `flag` as the stop flag from now on.
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.clear();
    }

    pub fn evaluation(&mut self) -> &mut E {
        &mut self.eval
    }

    /// Searches the position `line` has reached; `None` when the game is over. `report` sees each
    /// finished iteration, one report per line found (the best first).
    ///
    /// With more than one line, each iteration searches the root again for each further line with the
    /// moves of the lines before it left out (Stockfish's MultiPV), each in its own aspiration window.
    pub fn search(
        &mut self,
        line: &Playthrough<G>,
        limits: Limits,
        report: &mut dyn FnMut(&Iteration<G::Move>),
    ) -> Option<Found<G::Move>> {
        if line.is_over() {
            return None;
        }
        self.prepare(line, limits);
        let root = line.state().clone();
        let legal = line.legal_moves();
        if !legal.iter().any(|m| self.root_moves.contains(m)) {
            self.root_moves.clear();
        }
        let searchable = legal.iter().filter(|m| self.root_moves.is_empty() || self.root_moves.contains(m));
        let first = *searchable.clone().next()?;
        let lines = self.lines.min(searchable.count());
        let mut best = Found { best: first, score: 0, depth: 0, nodes: 0, elapsed: Duration::ZERO };
        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as u32 - 1).min(MAX_PLY as u32 - 1);
        let mut previous = vec![0; lines];
        for depth in 1..=max_depth {
            self.root_excluded.clear();
            let mut found = Vec::with_capacity(lines);
            for (index, previous) in previous.iter_mut().enumerate() {
                let score = self.aspiration(&root, depth as i32, *previous);
                if self.aborted {
                    break;
                }
                *previous = score;
                let pv = self.pv[0].clone();
                let Some(&head) = pv.first() else { break };
                if index == 0 {
                    best = Found {
                        best: head,
                        score,
                        depth,
                        nodes: self.nodes,
                        elapsed: self.started.elapsed(),
                    };
                }
                self.root_excluded.push(head);
                found.push((score, pv));
            }
            self.root_excluded.clear();
            for (index, (score, pv)) in found.iter().enumerate() {
                report(&Iteration {
                    line: index as u32 + 1,
                    depth,
                    seldepth: self.seldepth as u32,
                    score: *score,
                    nodes: self.nodes,
                    elapsed: self.started.elapsed(),
                    hashfull: self.table.hashfull(),
                    pv: pv.clone(),
                });
            }
            if self.aborted {
                break;
            }
            // Once every line is a mate found, no deeper search changes it; an iteration that cannot
            // finish before the soft deadline is not started (each takes about twice the last).
            let mated = |score: i32| score.abs() > MATE_BOUND && depth as i32 > MATE - score.abs() + 1;
            if found.iter().all(|(score, _)| mated(*score)) {
                break;
            }
            if self.limits.soft.is_some_and(|soft| self.started.elapsed() * 2 > soft) {
                break;
            }
        }
        best.nodes = self.nodes;
        best.elapsed = self.started.elapsed();
        Some(best)
    }

    fn prepare(&mut self, line: &Playthrough<G>, limits: Limits) {
        self.limits = limits;
        self.started = Instant::now();
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.table.new_search();
        self.history.age();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.root_plies = line.plies();
        self.keys.clear();
        let states = line.states();
        // Only positions since the last irreversible move can repeat.
        let mut from = 0;
        for (i, &mv) in line.moves().iter().enumerate() {
            if self.game.is_irreversible(&states[i], mv) {
                from = i + 1;
            }
        }
        self.keys.extend(states[from..].iter().enumerate().map(|(i, s)| (self.game.table_key(s), i > 0)));
    }

    /// The root searched in a window around the last iteration's score, widened on failure.
    fn aspiration(&mut self, root: &G::State, depth: i32, previous: i32) -> i32 {
        let mut delta = 30;
        let (mut alpha, mut beta) =
            if depth >= 5 { (previous - delta, previous + delta) } else { (-MATE, MATE) };
        loop {
            let score = self.negamax(root, depth, 0, alpha, beta, true);
            if self.aborted {
                return score;
            }
            if score <= alpha && alpha > -MATE {
                alpha = (score - delta).max(-MATE);
            } else if score >= beta && beta < MATE {
                beta = (score + delta).min(MATE);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 600 {
                (alpha, beta) = (-MATE, MATE);
            }
        }
    }

    /// Whether the search must end now (checked every 1,024 nodes).
    fn out_of_time(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            let late = self.limits.hard.is_some_and(|hard| self.started.elapsed() >= hard);
            let spent = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if late || spent || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The game's own end at `state`, `ply` plies into the search, other than having no move: a draw
    /// by repetition, by a rule of the game, or by the cap.
    fn drawn(&self, state: &G::State, ply: usize) -> bool {
        if self.root_plies + ply as u32 >= self.game.max_plies() || self.game.rule_draw(state).is_some() {
            return true;
        }
        let n = self.keys.len() - 1;
        let key = self.keys[n].0;
        let mut i = n;
        // Two plies back at a time, while both moves between are reversible.
        while i >= 2 && self.keys[i].1 && self.keys[i - 1].1 {
            i -= 2;
            if self.keys[i].0 == key {
                return true;
            }
        }
        false
    }

    /// The score for the side to move of a finished game (no legal move, or an immediate result).
    fn ended(&self, state: &G::State, ply: usize) -> Option<i32> {
        let outcome = match self.game.immediate_result(state) {
            Some(result) => result,
            None if self.ranges[ply].is_empty() => self.game.no_moves_result(state),
            None => return None,
        };
        let mover = self.game.to_move(state);
        Some(match outcome.winner {
            None => 0,
            Some(w) if w == mover => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
        })
    }

    fn negamax(
        &mut self,
        state: &G::State,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_time() {
            return 0;
        }
        if ply > 0 && self.drawn(state, ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.eval.evaluate(&self.game, state, self.root_plies + ply as u32);
        }
        // Mate-distance pruning: no line from here beats a mate already in hand.
        let (alpha_floor, beta_cap) = (-(MATE - ply as i32), MATE - ply as i32 - 1);
        let (alpha0, beta) = (alpha.max(alpha_floor), beta.min(beta_cap));
        alpha = alpha0;
        if alpha >= beta {
            return alpha;
        }
        let key = self.keys.last().expect("the current position's key").0;
        let entry = self.table.probe(key);
        if let Some(e) = entry.filter(|e| !pv_node && e.depth as i32 >= depth && ply > 0) {
            let score = from_table(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }
        let in_check = self.game.in_check(state);
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(state, ply, alpha, beta);
        }
        self.generate(state, ply);
        if let Some(score) = self.ended(state, ply) {
            self.release(ply);
            return score;
        }
        let static_eval = if in_check {
            -MATE
        } else {
            self.eval.evaluate(&self.game, state, self.root_plies + ply as u32)
        };
        if !pv_node && !in_check && ply > 0 {
            // Reverse futility: far above beta at a shallow depth, a quiet move will not fall below it.
            if depth <= 5 && static_eval - 90 * depth >= beta && beta.abs() < MATE_BOUND {
                self.release(ply);
                return static_eval;
            }
            if let Some(score) = self.null_move(state, depth, ply, beta, static_eval) {
                self.release(ply);
                return score;
            }
        }
        // Futility: in the last plies of a node neither on the PV nor in check, the static evaluation
        // plus a margin no quiet move is likely to make up.
        let futility = (!pv_node && !in_check && ply > 0 && depth <= 3 && alpha.abs() < MATE_BOUND)
            .then_some(static_eval + 80 + 120 * depth);
        let score = self.search_moves(
            state,
            depth,
            ply,
            alpha,
            beta,
            pv_node,
            in_check,
            entry.and_then(|e| e.mv),
            key,
            futility,
        );
        self.release(ply);
        score
    }

    /// The legal moves of `state` as ply `ply`'s range of the move stack.
    fn generate(&mut self, state: &G::State, ply: usize) {
        self.game.legal_moves(state, &mut self.buffer);
        let start = self.moves.len();
        if ply == 0 && self.root_restricted() {
            let (allowed, excluded) = (&self.root_moves, &self.root_excluded);
            self.moves.extend(
                self.buffer
                    .iter()
                    .filter(|m| allowed.is_empty() || allowed.contains(m))
                    .filter(|m| !excluded.contains(m)),
            );
        } else {
            self.moves.extend_from_slice(&self.buffer);
        }
        self.ranges[ply] = start..self.moves.len();
    }

    /// Whether the root searches only some of its moves (`searchmoves`, or a further line of MultiPV):
    /// its score is then not the position's, and is not kept in the table.
    fn root_restricted(&self) -> bool {
        !self.root_moves.is_empty() || !self.root_excluded.is_empty()
    }

    /// Gives ply `ply`'s moves back to the move stack.
    fn release(&mut self, ply: usize) {
        self.moves.truncate(self.ranges[ply].start);
    }

    /// Null-move pruning: with the move handed over, a shallower search that still fails high says the
    /// position is good enough.
    fn null_move(
        &mut self,
        state: &G::State,
        depth: i32,
        ply: usize,
        beta: i32,
        static_eval: i32,
    ) -> Option<i32> {
        if depth < 3 || static_eval < beta || beta.abs() >= MATE_BOUND {
            return None;
        }
        let passed = self.game.pass(state)?;
        let reduction = 3 + depth / 4;
        self.keys.push((self.game.table_key(&passed), false));
        let score = -self.negamax(&passed, depth - 1 - reduction, ply + 1, -beta, -beta + 1, false);
        self.keys.pop();
        (!self.aborted && score >= beta).then_some(beta)
    }

    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        state: &G::State,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv_node: bool,
        in_check: bool,
        table_move: Option<G::Move>,
        key: u64,
        futility: Option<i32>,
    ) -> i32 {
        let alpha0 = alpha;
        let range = self.ranges[ply].clone();
        let mut keys = std::mem::take(&mut self.order[ply]);
        let moves = &self.moves[range.clone()];
        Picker::key(&self.game, state, moves, table_move, self.killers[ply], &self.history, &mut keys);
        let mover = self.game.to_move(state);
        let (mut best_score, mut best_move) = (-MATE, None);
        for searched in 0..range.len() {
            let Some((index, quiet)) = Picker::next(&mut keys, searched) else { break };
            let mv = self.moves[range.start + index];
            let mut next = state.clone();
            self.game.apply(&mut next, mv);
            let reversible = !self.game.is_irreversible(state, mv);
            self.keys.push((self.game.table_key(&next), reversible));
            let gives_check = self.game.in_check(&next);
            // A quiet move that gives no check is skipped where the futility margin leaves it below
            // alpha, or late in the order (after 4 + depth² moves).
            if let Some(value) = futility.filter(|_| quiet && !gives_check && searched > 0)
                && (value <= alpha || searched >= 4 + (depth * depth) as usize)
            {
                self.keys.pop();
                continue;
            }
            let score = if searched == 0 {
                -self.negamax(&next, depth - 1, ply + 1, -beta, -alpha, pv_node)
            } else {
                let reduction = if quiet && !in_check && !gives_check && depth >= 3 && searched >= 2 {
                    late_move_reduction(depth, searched, pv_node)
                } else {
                    0
                };
                let mut score =
                    -self.negamax(&next, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha, false);
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&next, depth - 1, ply + 1, -alpha - 1, -alpha, false);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&next, depth - 1, ply + 1, -beta, -alpha, true);
                }
                score
            };
            self.keys.pop();
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet {
                            self.remember_cut(state, mv, mover, ply, depth);
                        }
                        break;
                    }
                }
            }
            if quiet {
                self.history.tried(&self.game, state, mv, mover, depth);
            }
        }
        self.order[ply] = keys;
        if self.aborted {
            return 0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if ply > 0 || !self.root_restricted() {
            self.table.store(key, best_move, to_table(best_score, ply), depth as i16, bound);
        }
        best_score
    }

    /// A quiet move that cut: a killer at this ply, and a history bonus.
    fn remember_cut(&mut self, state: &G::State, mv: G::Move, mover: Side, ply: usize, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        self.history.cut(&self.game, state, mv, mover, depth);
    }

    /// Quiescence: captures and promotions that keep their material, until the position is quiet (all
    /// moves when in check).
    fn quiesce(&mut self, state: &G::State, ply: usize, alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_time() {
            return 0;
        }
        if self.game.rule_draw(state).is_some() || self.root_plies + ply as u32 >= self.game.max_plies() {
            return 0;
        }
        self.generate(state, ply);
        let best = self.quiesce_moves(state, ply, alpha, beta);
        self.release(ply);
        best
    }

    /// The quiescence search of a position whose moves are generated.
    fn quiesce_moves(&mut self, state: &G::State, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if let Some(score) = self.ended(state, ply) {
            return score;
        }
        // The stacks end at MAX_PLY: a line that is still capturing, or still in check, this deep is
        // scored as it stands (a rebellion-chess quiescence once ran past them on checks alone).
        if ply >= MAX_PLY - 1 {
            return self.eval.evaluate(&self.game, state, self.root_plies + ply as u32);
        }
        let in_check = self.game.in_check(state);
        if !in_check {
            let stand = self.eval.evaluate(&self.game, state, self.root_plies + ply as u32);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let range = self.ranges[ply].clone();
        let mut keys = std::mem::take(&mut self.order[ply]);
        Picker::key_noisy(&self.game, state, &self.moves[range.clone()], in_check, &mut keys);
        let mut best = if in_check { -MATE } else { alpha };
        for picked in 0..range.len() {
            let Some((index, _)) = Picker::next(&mut keys, picked) else { break };
            let mv = self.moves[range.start + index];
            let mut next = state.clone();
            self.game.apply(&mut next, mv);
            // Quiescence looks for no repetition: its moves are (nearly all) irreversible.
            let score = -self.quiesce(&next, ply + 1, -beta, -alpha);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.order[ply] = keys;
        best
    }
}

/// How many plies a late quiet move is searched shallower: more the later it comes and the deeper the
/// search (the logarithmic formula of Stockfish and Ethereal), less at a PV node.
fn late_move_reduction(depth: i32, searched: usize, pv_node: bool) -> i32 {
    let r = 0.75 + (depth as f64).ln() * (searched as f64).ln() / 2.25;
    let r = if pv_node { r - 1.0 } else { r } as i32;
    r.clamp(0, depth - 2)
}

/// A mate score stored relative to the node (distance from it), not the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quiescence at the last ply of the stacks answers, in check or not, rather than reaching past
    /// them.
    #[test]
    fn quiescence_stops_at_the_end_of_the_stacks_even_in_check() {
        let crate::game::AnyGame::Chess(game) = crate::game::AnyGame::from_spec("rebellion-chess").unwrap()
        else {
            unreachable!("a chess-family ruleset")
        };
        let mut search = AlphaBeta::new(game.clone(), crate::eval::chess::ChessEval::default(), 1).unwrap();
        // White in check from the rook on e8, with captures on both sides.
        let state = game.parse_position("4r2k/8/8/8/3p4/2N5/8/4K3 w - - 0 1").unwrap();
        assert!(search.game.in_check(&state));
        for ply in [MAX_PLY - 1, MAX_PLY] {
            search.quiesce(&state, ply, -MATE, MATE);
        }
    }
}
