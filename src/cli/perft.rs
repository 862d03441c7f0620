//! `rebel-zero perft SPEC --depth D [--position POS] [--divide]` (RULES.md 0.5).

use std::collections::BTreeMap;

use clap::Args;
use serde_json::json;

use super::common::{load_game, load_position};
use crate::game::Game;
use crate::game::perft::{divide, perft};
use crate::with_game;

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Ruleset spec, e.g. `sixteen-rebels:first=rebels`.
    spec: String,
    /// Deepest depth to count; one line is printed per depth 1..=D.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Start from this position instead of the ruleset's start (RULES.md section 7 notation).
    #[arg(long)]
    position: Option<String>,
    /// Also print, on stderr, each first move with its count at the deepest depth.
    #[arg(long)]
    divide: bool,
    /// One JSON object (`{"spec", "position", "counts": [...], "divide": {...}}`) instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let game = load_game(&args.spec)?;
    with_game!(&game, |g| {
        let state = load_position(g, args.position.as_deref())?;
        if args.json {
            let counts: Vec<u64> = (1..=args.depth).map(|depth| perft(g, &state, depth)).collect();
            let divided: Option<BTreeMap<String, u64>> =
                args.divide.then(|| divide(g, &state, args.depth).into_iter().collect());
            return super::common::print_json(&json!({
                "spec": g.spec(),
                "position": g.format_position(&state),
                "counts": counts,
                "divide": divided,
            }));
        }
        for depth in 1..=args.depth {
            println!("perft {depth} {}", perft(g, &state, depth));
        }
        if args.divide {
            for (mv, count) in divide(g, &state, args.depth) {
                eprintln!("{mv} {count}");
            }
        }
    });
    Ok(())
}
