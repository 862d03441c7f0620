//! Solver results: the MCTS-solver (rollout evaluation, decisive playouts) searches a variant's start
//! position with a bounded number of simulations and reports a proven result with its length, or
//! that none was proven within the budget.

use std::time::Instant;

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::store::SolverResult;
use crate::agents::derive_seed;
use crate::game::playout::RolloutPolicy;
use crate::game::{AnyGame, Game};
use crate::search::{Mcts, RolloutEvaluator, SearchConfig};
use crate::with_game;

/// Searches the start of `game` for at most `budget` simulations.
pub fn solve_start(variant: &str, game: &AnyGame, budget: u32, seed: u64) -> SolverResult {
    let clock = Instant::now();
    with_game!(game, |g| {
        let config = SearchConfig { simulations: budget, reuse_tree: false, ..SearchConfig::default() };
        let mut search = Mcts::new(g.clone(), config);
        search.set_position(&g.start(), &[]);
        let mut evaluator = RolloutEvaluator::new(RolloutPolicy::Decisive, derive_seed(seed, 1));
        let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(seed, 2));
        let report = search.run(&mut evaluator, &mut rng);
        let (proven, plies) = SolverResult::proof_text(report.proof, g.side_names());
        SolverResult {
            variant: variant.to_string(),
            spec: g.spec().to_string(),
            budget,
            simulations: report.simulations,
            proven,
            plies,
            seconds: clock.elapsed().as_secs_f64(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn murray_rebels_is_proven_a_rebel_win_or_left_unproven() {
        let game = AnyGame::from_spec("murray-rebels").unwrap();
        let r = solve_start("murray", &game, 2000, 1);
        assert_eq!(r.budget, 2000);
        assert!(r.simulations <= 2000);
        match (&r.proven, r.plies) {
            (Some(w), Some(p)) => assert!(w == "rebels" && p > 0, "{r:?}"),
            (None, None) => {}
            other => panic!("{other:?}"),
        }
    }
}
