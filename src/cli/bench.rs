//! `rebel-zero bench`: perft nodes per second (bulk-counted at the last ply) and random playouts per
//! second, single thread, for each ruleset. Figures for docs/BENCHMARKS.md.

use std::time::{Duration, Instant};

use clap::Args;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::common::load_game;
use crate::game::perft::perft;
use crate::game::playout::{PlayoutScratch, RolloutPolicy, random_playout};
use crate::game::registry::all_rulesets;
use crate::game::{Game, Reason};
use crate::with_game;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Rulesets to measure (default: every ruleset with its default options).
    #[arg(long = "spec")]
    specs: Vec<String>,
    /// Seconds to spend on each measurement.
    #[arg(long, default_value_t = 2.0, value_parser = super::common::measure_seconds)]
    seconds: f64,
    /// Seed of the random playouts.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the measurements as one JSON object (`{"rows": [...]}`) instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let specs: Vec<String> = if args.specs.is_empty() {
        all_rulesets().map(|r| r.name.to_string()).collect()
    } else {
        args.specs.clone()
    };
    let budget = Duration::from_secs_f64(args.seconds.max(0.05));
    if !args.json {
        println!("| ruleset | perft depth | perft nodes/s | playouts/s | mean plies | cap draws |");
        println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    }
    let mut rows = Vec::new();
    for spec in &specs {
        let game = load_game(spec)?;
        with_game!(&game, |g| {
            let (depth, nodes_per_second) = perft_speed(g, budget);
            let playouts = playout_speed(g, budget, args.seed);
            rows.push(serde_json::json!({
                "spec": spec,
                "perft_depth": depth,
                "perft_nodes_per_second": nodes_per_second,
                "playouts_per_second": playouts.per_second,
                "mean_plies": playouts.mean_plies,
                "cap_share": playouts.cap_share,
            }));
            if !args.json {
                println!(
                    "| {spec} | {depth} | {:.1} M | {:.1} k | {:.1} | {:.0}% |",
                    nodes_per_second / 1e6,
                    playouts.per_second / 1e3,
                    playouts.mean_plies,
                    100.0 * playouts.cap_share
                );
            }
        });
    }
    if args.json {
        super::common::print_json(&serde_json::json!({ "rows": rows }))?;
    }
    Ok(())
}

/// The deepest start-position perft that fits the budget, and its nodes per second.
fn perft_speed<G: Game>(game: &G, budget: Duration) -> (u32, f64) {
    let start = game.start();
    let mut depth = 1;
    loop {
        let timer = Instant::now();
        let nodes = perft(game, &start, depth);
        let elapsed = timer.elapsed();
        // Stop when this depth took a good share of the budget or the next would overrun it.
        if elapsed * 4 >= budget || depth >= 12 {
            return (depth, nodes as f64 / elapsed.as_secs_f64());
        }
        depth += 1;
    }
}

struct PlayoutSpeed {
    per_second: f64,
    mean_plies: f64,
    cap_share: f64,
}

fn playout_speed<G: Game>(game: &G, budget: Duration, seed: u64) -> PlayoutSpeed {
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
