//! `rebel-zero show SPEC [--position POS] [--moves m1,m2,…]`: the board as text and the legal moves.

use clap::Args;
use serde_json::json;

use super::common::{load_game, load_position};
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
    /// One JSON object (position, side to move, legal moves or the result) instead of the board.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &ShowArgs) -> anyhow::Result<()> {
    let game = load_game(&args.spec)?;
    with_game!(&game, |g| {
        let state = load_position(g, args.position.as_deref())?;
        let mut line = Playthrough::from_position(g.clone(), state);
        super::common::play_typed_moves(&mut line, &args.moves)?;
        if args.json {
            let names = g.side_names();
            let moves: Vec<String> =
                line.legal_moves().iter().map(|&m| g.format_move(line.state(), m)).collect();
            let outcome = line.outcome();
            return super::common::print_json(&json!({
                "spec": g.spec(),
                "position": g.format_position(line.state()),
                "to_move": names[g.to_move(line.state()).index()],
                "legal_moves": if outcome.is_some() { Vec::new() } else { moves },
                "game_over": outcome.map(|o| json!({
                    "winner": o.winner.map(|s| names[s.index()]),
                    "reason": o.reason.as_str(),
                    "text": describe_outcome(g, &o),
                })),
                "board": g.render(line.state()),
            }));
        }
        print!("{}", g.render(line.state()));
        println!("position: {}", g.format_position(line.state()));
        match line.outcome() {
            Some(outcome) => println!("game over: {}", describe_outcome(g, &outcome)),
            None => {
                let moves: Vec<String> =
                    line.legal_moves().iter().map(|&m| g.display_move(line.state(), m)).collect();
                println!("{} legal moves: {}", moves.len(), moves.join(" "));
            }
        }
    });
    Ok(())
}
