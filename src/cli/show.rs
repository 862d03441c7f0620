//! `rebel-zero show SPEC [--position POS] [--moves m1,m2,…]`: the board as text and the legal moves.

use anyhow::Context;
use clap::Args;

use super::{load_game, load_position};
use crate::game::{Game, Playthrough, describe_outcome};
use crate::with_game;

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// Ruleset spec, e.g. `twenty-six-rebels`.
    spec: String,
    /// Start from this position instead of the ruleset's start.
    #[arg(long)]
    position: Option<String>,
    /// Moves to play first, comma-separated, in RULES.md section 7 notation.
    #[arg(long, value_delimiter = ',')]
    moves: Vec<String>,
}

pub fn run(args: &ShowArgs) -> anyhow::Result<()> {
    let game = load_game(&args.spec)?;
    with_game!(&game, |g| {
        let state = load_position(g, args.position.as_deref())?;
        let mut line = Playthrough::from_position(g.clone(), state);
        for (i, text) in args.moves.iter().enumerate() {
            line.play_text(text).with_context(|| format!("move {} of --moves", i + 1))?;
        }
        print!("{}", g.render(line.state()));
        println!("position: {}", g.format_position(line.state()));
        match line.outcome() {
            Some(outcome) => println!("game over: {}", describe_outcome(g, &outcome)),
            None => {
                let moves: Vec<String> =
                    line.legal_moves().iter().map(|&m| g.format_move(line.state(), m)).collect();
                println!("{} legal moves: {}", moves.len(), moves.join(" "));
            }
        }
    });
    Ok(())
}
