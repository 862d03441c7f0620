//! Uniformly random playouts to the end of the game, with every ending rule, allocation-free once warm.
//! The classic UCT rollout and the playouts-per-second benchmark both use it.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::history::RepetitionTracker;
use super::{Game, Outcome, Reason};

/// Buffers a playout reuses so that it never allocates once warm.
#[derive(Clone, Debug)]
pub struct PlayoutScratch<G: Game> {
    moves: G::Moves,
    repetition: RepetitionTracker,
}

impl<G: Game> Default for PlayoutScratch<G> {
    fn default() -> PlayoutScratch<G> {
        PlayoutScratch { moves: G::Moves::default(), repetition: RepetitionTracker::default() }
    }
}

impl<G: Game> PlayoutScratch<G> {
    pub fn new() -> PlayoutScratch<G> {
        PlayoutScratch::default()
    }
}

/// How a playout chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RolloutPolicy {
    /// Uniformly random legal moves.
    Uniform,
    /// An immediately winning move when the mover has one, else a uniformly random move. Random
    /// play misses one-move wins (a random General next to the apex steps there a quarter of the
    /// time), which makes rollout values blind to threats two plies deep.
    Decisive,
}

/// Plays random legal moves from `state` (reached after `plies` moves) until the game ends. Repetition
/// counts only positions from `state` on. Returns the outcome and the number of moves played.
pub fn random_playout<G: Game, R: Rng>(
    game: &G,
    mut state: G::State,
    mut plies: u32,
    policy: RolloutPolicy,
    rng: &mut R,
    scratch: &mut PlayoutScratch<G>,
) -> (Outcome, u32) {
    let start = plies;
    scratch.repetition.reset(game.position_hash(&state));
    let mut repeated = false;
    loop {
        // The ending rules in the order of RULES.md 0.3 and 0.4, as `history::judge` applies them.
        if let Some(outcome) = game.immediate_result(&state) {
            return (outcome, plies - start);
        }
        let decisive = match policy {
            RolloutPolicy::Decisive => game.winning_move(&state, &mut scratch.moves),
            RolloutPolicy::Uniform => None,
        };
        let Some(mv) = decisive.or_else(|| game.sample_move(&state, rng, &mut scratch.moves)) else {
            return (game.no_moves_result(&state), plies - start);
        };
        if let Some(reason) = game.rule_draw(&state) {
            return (Outcome::draw(reason), plies - start);
        }
        if repeated {
            return (Outcome::draw(Reason::Repetition), plies - start);
        }
        if plies >= game.max_plies() {
            return (Outcome::draw(Reason::Cap), plies - start);
        }
        let irreversible = game.is_irreversible(&state, mv);
        game.apply(&mut state, mv);
        plies += 1;
        repeated = scratch.repetition.push(game.position_hash(&state), irreversible);
    }
}

/// Random playouts from the start, single thread: how many a second, their mean length, and the share
/// stopped at the draw cap.
pub struct PlayoutSpeed {
    pub per_second: f64,
    pub mean_plies: f64,
    pub cap_share: f64,
}

/// Plays random playouts from the start for `budget` (in batches of 64) and measures them.
pub fn playout_speed<G: Game>(game: &G, budget: Duration, seed: u64) -> PlayoutSpeed {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut scratch = PlayoutScratch::new();
    let start = game.start();
    let timer = Instant::now();
    let (mut games, mut plies, mut caps) = (0u64, 0u64, 0u64);
    while timer.elapsed() < budget {
        for _ in 0..64 {
            let (outcome, length) =
                random_playout(game, start.clone(), 0, RolloutPolicy::Uniform, &mut rng, &mut scratch);
            games += 1;
            plies += length as u64;
            caps += (outcome.reason == Reason::Cap) as u64;
        }
    }
    PlayoutSpeed {
        per_second: games as f64 / timer.elapsed().as_secs_f64(),
        mean_plies: plies as f64 / games as f64,
        cap_share: caps as f64 / games as f64,
    }
}
