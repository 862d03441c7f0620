//! `rebel-zero bench-search`: simulations per second of one search thread from the start position,
//! with the value-0 evaluator (the tree's own overhead, with and without the win-in-one check at
//! node creation) and with random rollouts.

use std::time::{Duration, Instant};

use clap::Args;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::common::load_game;
use crate::game::Game;
use crate::game::playout::RolloutPolicy;
use crate::search::{Evaluator, Mcts, RolloutEvaluator, SearchConfig, UniformEvaluator};
use crate::with_game;

#[derive(Args, Debug)]
pub struct BenchSearchArgs {
    /// Rulesets to measure.
    #[arg(long = "spec", default_value = "sixteen-rebels")]
    specs: Vec<String>,
    /// Simulations per search; each search starts from a fresh tree (1..10,000,000, as an agent's).
    #[arg(long, default_value_t = 800, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::agents::MAX_SIMULATIONS)))]
    sims: u32,
    /// Leaves per evaluator call (1..4096, as an agent's `batch=`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=4096))]
    batch: u16,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 2.0, value_parser = super::common::measure_seconds)]
    seconds: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the measurements as one JSON object (`{"rows": [...]}`) instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &BenchSearchArgs) -> anyhow::Result<()> {
    let budget = Duration::from_secs_f64(args.seconds.max(0.05));
    if !args.json {
        println!("| ruleset | evaluator | win-in-one check | sims/search | batch | simulations/s |");
        println!("| --- | --- | --- | ---: | ---: | ---: |");
    }
    let mut rows = Vec::new();
    for spec in &args.specs {
        let game = load_game(spec)?;
        with_game!(&game, |g| {
            let rollouts = |policy| RolloutEvaluator::new(policy, args.seed);
            let config = SearchConfig {
                simulations: args.sims,
                batch: usize::from(args.batch),
                reuse_tree: false,
                ..SearchConfig::default()
            };
            let unchecked = SearchConfig { find_wins_in_one: false, ..config };
            let runs = [
                ("value 0", "off", speed(g, unchecked, &mut UniformEvaluator, budget, args.seed)),
                ("value 0", "on", speed(g, config, &mut UniformEvaluator, budget, args.seed)),
                (
                    "uniform rollout",
                    "on",
                    speed(g, config, &mut rollouts(RolloutPolicy::Uniform), budget, args.seed),
                ),
                (
                    "decisive rollout",
                    "on",
                    speed(g, config, &mut rollouts(RolloutPolicy::Decisive), budget, args.seed),
                ),
            ];
            for (name, check, per_second) in runs {
                rows.push(serde_json::json!({
                    "spec": spec,
                    "evaluator": name,
                    "win_in_one_check": check == "on",
                    "simulations_per_search": args.sims,
                    "batch": args.batch,
                    "simulations_per_second": per_second,
                }));
                if args.json {
                    continue;
                }
                println!(
                    "| {spec} | {name} | {check} | {} | {} | {:.0} k |",
                    args.sims,
                    args.batch,
                    per_second / 1e3
                );
            }
        });
    }
    if args.json {
        super::common::print_json(&serde_json::json!({ "rows": rows }))?;
    }
    Ok(())
}

/// Simulations per second.
fn speed<G: Game, E: Evaluator<G>>(
    game: &G,
    config: SearchConfig,
    evaluator: &mut E,
    budget: Duration,
    seed: u64,
) -> f64 {
    let mut mcts = Mcts::new(game.clone(), config);
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let start = game.start();
    let mut simulations = 0u64;
    let timer = Instant::now();
    while timer.elapsed() < budget {
        mcts.set_position(&start, &[]);
        let report = mcts.run(evaluator, &mut rng);
        simulations += report.simulations as u64;
    }
    simulations as f64 / timer.elapsed().as_secs_f64()
}
