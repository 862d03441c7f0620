//! `rebel-zero bench-search`: simulations per second of one search thread from the start position,
//! with the value-0 evaluator (the tree's own overhead) and with random rollouts.

use std::time::{Duration, Instant};

use clap::Args;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::load_game;
use crate::game::Game;
use crate::search::{Evaluator, Mcts, RolloutEvaluator, SearchConfig, UniformEvaluator};
use crate::with_game;

#[derive(Args, Debug)]
pub struct BenchSearchArgs {
    /// Rulesets to measure.
    #[arg(long = "spec", default_value = "sixteen-rebels")]
    specs: Vec<String>,
    /// Simulations per search; each search starts from a fresh tree.
    #[arg(long, default_value_t = 800)]
    sims: u32,
    /// Leaves per evaluator call.
    #[arg(long, default_value_t = 1)]
    batch: usize,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: &BenchSearchArgs) -> anyhow::Result<()> {
    anyhow::ensure!(args.sims >= 1 && args.batch >= 1, "--sims and --batch must be at least 1");
    let budget = Duration::from_secs_f64(args.seconds.max(0.05));
    println!("| ruleset | evaluator | sims/search | batch | simulations/s | tree nodes/search |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for spec in &args.specs {
        let game = load_game(spec)?;
        with_game!(&game, |g| {
            let config = SearchConfig {
                simulations: args.sims,
                batch: args.batch,
                reuse_tree: false,
                ..SearchConfig::default()
            };
            let runs: [(&str, Speed); 2] = [
                ("value 0", speed(g, config, &mut UniformEvaluator, budget, args.seed)),
                ("rollout", speed(g, config, &mut RolloutEvaluator::new(args.seed), budget, args.seed)),
            ];
            for (name, s) in runs {
                println!(
                    "| {spec} | {name} | {} | {} | {:.0} k | {:.0} |",
                    args.sims,
                    args.batch,
                    s.per_second / 1e3,
                    s.nodes_per_search
                );
            }
        });
    }
    Ok(())
}

struct Speed {
    per_second: f64,
    nodes_per_search: f64,
}

fn speed<G: Game, E: Evaluator<G>>(
    game: &G,
    config: SearchConfig,
    evaluator: &mut E,
    budget: Duration,
    seed: u64,
) -> Speed {
    let mut mcts = Mcts::new(game.clone(), config);
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let start = game.start();
    let (mut searches, mut simulations, mut nodes) = (0u64, 0u64, 0u64);
    let timer = Instant::now();
    while timer.elapsed() < budget {
        mcts.set_position(&start, &[]);
        let report = mcts.run(evaluator, &mut rng);
        searches += 1;
        simulations += report.simulations as u64;
        nodes += report.tree_nodes as u64;
    }
    Speed {
        per_second: simulations as f64 / timer.elapsed().as_secs_f64(),
        nodes_per_search: nodes as f64 / searches as f64,
    }
}
