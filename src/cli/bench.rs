//! `rebel-zero bench`: perft nodes per second (bulk-counted at the last ply) and random playouts per
//! second, single thread, for each ruleset. Figures for docs/BENCHMARKS.md.

use std::time::Duration;

use clap::Args;

use super::common::load_game;
use crate::game::perft::perft_speed;
use crate::game::playout::playout_speed;
use crate::game::registry::all_rulesets;
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
