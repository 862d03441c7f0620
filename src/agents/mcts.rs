//! The MCTS agent: [`Mcts`] with an evaluator (random playouts for `mcts:`, the network for `net:`),
//! keeping its tree between moves.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use std::fmt;
use std::sync::atomic::Ordering;

use super::{Agent, Watch};
use crate::game::{Game, Playthrough};
use crate::search::{Evaluator, Mcts, Proof, SearchConfig, SearchReport, move_temperature};
use crate::seed::derive_seed;

/// The search settings `mcts` and `net` share.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchSettings {
    pub simulations: u32,
    pub c_puct: f32,
    /// Temperature of the move choice after the opening (0: the most visited move).
    pub temperature: f32,
    /// The first `opening` plies of a game are drawn in proportion to visit counts (temperature 1),
    /// as AlphaZero's self-play does, so that an agent without randomness of its own (a network at
    /// `temp=0`) still plays varied games against itself.
    pub opening: u32,
    /// What a draw costs this agent, in [0, 1] ([`SearchConfig::contempt`]).
    pub contempt: f32,
    pub batch: usize,
}

impl SearchSettings {
    pub(super) fn with_simulations_and_batch(simulations: u32, batch: usize) -> SearchSettings {
        SearchSettings {
            simulations,
            c_puct: SearchConfig::default().c_puct,
            temperature: 0.0,
            opening: 0,
            contempt: 0.0,
            batch,
        }
    }

    pub(crate) fn config(&self) -> SearchConfig {
        SearchConfig {
            simulations: self.simulations,
            c_puct: self.c_puct,
            batch: self.batch,
            contempt: self.contempt,
            ..SearchConfig::default()
        }
    }
}

/// `sims=…,c=…,temp=…[,open=…][,contempt=…],batch=…`: `open` and `contempt` are written only when
/// set, so the canonical text of every spec from before they existed (recorded in study cells) is
/// unchanged.
impl fmt::Display for SearchSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sims={},c={},temp={}", self.simulations, self.c_puct, self.temperature)?;
        if self.opening > 0 {
            write!(f, ",open={}", self.opening)?;
        }
        if self.contempt > 0.0 {
            write!(f, ",contempt={}", self.contempt)?;
        }
        write!(f, ",batch={}", self.batch)
    }
}

pub struct MctsAgent<G: Game, E: Evaluator<G>> {
    search: Mcts<G>,
    evaluator: E,
    temperature: f32,
    /// Plies at the start of a game chosen at temperature 1.
    opening: u32,
    rng: Pcg64Mcg,
    last: Option<SearchReport>,
}

impl<G: Game, E: Evaluator<G>> MctsAgent<G, E> {
    pub fn new(game: G, settings: &SearchSettings, evaluator: E, seed: u64) -> MctsAgent<G, E> {
        MctsAgent {
            search: Mcts::new(game, settings.config()),
            evaluator,
            temperature: settings.temperature,
            opening: settings.opening,
            rng: Pcg64Mcg::seed_from_u64(derive_seed(seed, 2)),
            last: None,
        }
    }
}

impl<G: Game, E: Evaluator<G>> Agent<G> for MctsAgent<G, E> {
    fn choose(&mut self, line: &Playthrough<G>) -> G::Move {
        self.choose_watched(line, &Watch::default())
    }

    fn choose_watched(&mut self, line: &Playthrough<G>, watch: &Watch) -> G::Move {
        self.search.set_position(line.start(), line.moves());
        watch.planned.store(self.search.config().simulations, Ordering::Relaxed);
        let report = self.search.run_watched(&mut self.evaluator, &mut self.rng, |done| {
            watch.done.store(done, Ordering::Relaxed);
            !watch.should_stop()
        });
        watch.done.store(report.simulations, Ordering::Relaxed);
        self.last = Some(report);
        let temperature = move_temperature(line.plies(), self.opening, self.temperature);
        self.search.output(temperature, &mut self.rng).expect("a game not over has a move").mv
    }

    fn search_only(&mut self, moves: &[G::Move]) -> bool {
        self.search.restrict_root(moves);
        true
    }

    fn last_root(&self) -> Vec<(G::Move, u32, Option<f32>)> {
        if self.last.is_none() {
            return Vec::new();
        }
        let mut root: Vec<_> = self.search.root_stats().collect();
        root.sort_by_key(|&(_, visits, _)| std::cmp::Reverse(visits));
        root
    }

    fn last_value(&self) -> Option<f32> {
        self.last.map(|report| report.value)
    }

    fn last_note(&self) -> Option<String> {
        let report = self.last?;
        let names = self.search.game().side_names();
        let proof = match report.proof {
            Proof::Unknown => String::new(),
            Proof::Proven { winner: Some(side), plies } => {
                format!(", proven: {} win in at most {plies} plies", names[side.index()])
            }
            Proof::Proven { winner: None, .. } => ", proven: draw".to_string(),
        };
        Some(format!(
            "value {:+.2} for the mover after {} simulations ({} in the tree){proof}",
            report.value, report.simulations, report.root_visits
        ))
    }
}
