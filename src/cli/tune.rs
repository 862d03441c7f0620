//! `rebel-zero tune`: fits the chess family's evaluation weights to game results (Texel's method,
//! [`crate::eval::texel`]). The data are self-play games of the alpha-beta agent at a
//! fixed depth from random openings, on each variant asked for; every quiet position after the opening
//! (the side to move not in check and with no capture that keeps its material) becomes a sample
//! labelled with its game's result. The positions file and the weights file both record the command.
//!
//! ```sh
//! rebel-zero tune --games 800 --depth 4 --seed 1 --data runs/tune/positions.jsonl --out configs/eval/chess.toml
//! ```

use std::path::PathBuf;

use clap::Args;

use crate::eval::chess::{Weights, shipped};
use crate::eval::texel::tune;
use crate::game::AnyGame;
use crate::game::chess::ChessGame;
use crate::train::texel::SelfPlay;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Self-play games per variant (1..1,000,000: a match keeps every game in memory).
    #[arg(long, default_value_t = 800, value_parser = super::arena::game_count)]
    games: usize,
    /// The alpha-beta agent's depth in those games.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Random plies opening each game (left out of the samples).
    #[arg(long, default_value_t = 8)]
    opening: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Chess variants played, comma-separated.
    #[arg(long, default_value = "chess,rebellion-chess,squirm-chess")]
    variants: String,
    /// The positions file: read when it was made with these settings, else made and written.
    #[arg(long)]
    data: PathBuf,
    /// Where the fitted weights are written (the shipped file is configs/eval/chess.toml).
    #[arg(long)]
    out: PathBuf,
    /// Passes of Adam over the samples, and its step in centipawns.
    #[arg(long, default_value_t = 1500)]
    epochs: usize,
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// The pull of each weight toward its starting value (L2).
    #[arg(long, default_value_t = 1e-7)]
    pull: f64,
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: &TuneArgs) -> anyhow::Result<()> {
    let threads = super::common::worker_threads(args.threads)?;
    let variants: Vec<ChessGame> = args
        .variants
        .split(',')
        .map(|spec| match AnyGame::from_spec(spec.trim()).map_err(super::common::usage)? {
            AnyGame::Chess(game) => Ok(game),
            _ => Err(super::common::usage(anyhow::anyhow!("`{spec}` is not a chess variant"))),
        })
        .collect::<anyhow::Result<_>>()?;
    let play = SelfPlay { games: args.games, depth: args.depth, opening: args.opening, seed: args.seed };
    let settings = play.describe(&variants);
    let samples = play.samples(&variants, &args.data, threads, &|line| eprintln!("{line}"))?;
    eprintln!("tuning on {} positions ({settings})", samples.len());
    let tuned = tune(&samples, &shipped().flat(), args.epochs, args.rate, args.pull);
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let header = format!(
        "The chess family's evaluation weights (src/eval/chess.rs), each [middlegame, endgame]\n\
         in centipawns, fitted by Texel's method (src/eval/texel.rs) to {} quiet positions of\n\
         self-play games ({settings}); scale K = {:.3}, mean squared error {:.5} before, {:.5} after\n\
         ({} epochs, rate {}, pull {}). Made by:\n    {command}",
        samples.len(),
        tuned.scale,
        tuned.error_before,
        tuned.error_after,
        tuned.epochs,
        args.rate,
        args.pull
    );
    let text = Weights::from_flat(&tuned.weights).to_toml(&header);
    crate::files::write_atomic(&args.out, text.as_bytes())?;
    println!(
        "{} positions: error {:.5} → {:.5} (K {:.3}); wrote {}",
        samples.len(),
        tuned.error_before,
        tuned.error_after,
        tuned.scale,
        args.out.display()
    );
    Ok(())
}
