//! `rebel-zero perft SPEC --depth D [--position POS] [--divide]` (RULES.md 0.5).

use clap::Args;

use super::{load_game, load_position};
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
}

pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let game = load_game(&args.spec)?;
    with_game!(&game, |g| {
        let state = load_position(g, args.position.as_deref())?;
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
