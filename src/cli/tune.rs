//! `rebel-zero tune`: fits the chess family's evaluation weights to game results (Texel's method,
//! [`crate::search::alphabeta::texel`]). The data are self-play games of the alpha-beta agent at a
//! fixed depth from random openings, on each variant asked for; every quiet position after the opening
//! (the side to move not in check and with no capture that keeps its material) becomes a sample
//! labelled with its game's result. The positions file and the weights file both record the command.
//!
//! ```sh
//! rebel-zero tune --games 800 --depth 4 --seed 1 --data runs/tune/positions.jsonl --out configs/eval/chess.toml
//! ```

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::agents::{AgentSpec, MatchSettings, run_match};
use crate::game::chess::ChessGame;
use crate::game::tactics::Tactics;
use crate::game::{AnyGame, Game};
use crate::search::alphabeta::chess_eval::{Weights, shipped};
use crate::search::alphabeta::texel::{Sample, tune};

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

/// One labelled position.
#[derive(Serialize, Deserialize)]
struct Labelled {
    variant: String,
    fen: String,
    /// White's result: 1, ½ or 0.
    result: f32,
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
    let settings = format!(
        "games {} per variant, ab:depth={} self-play, {} random opening plies, seed {}, variants {}",
        args.games, args.depth, args.opening, args.seed, args.variants
    );
    let labelled = match read_data(&args.data, &settings) {
        Some(labelled) => labelled,
        None => make_data(args, &variants, &settings, threads)?,
    };
    let samples: Vec<Sample> = labelled
        .iter()
        .map(|l| {
            let game = variants.iter().find(|g| g.spec() == l.variant).context("a variant of the data")?;
            let pos = game.parse_position(&l.fen).map_err(|e| anyhow::anyhow!("{}: {e}", l.fen))?;
            Ok(Sample::of(game, &pos, l.result))
        })
        .collect::<anyhow::Result<_>>()?;
    eprintln!("tuning on {} positions ({settings})", samples.len());
    let tuned = tune(&samples, &shipped().flat(), args.epochs, args.rate, args.pull);
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let header = format!(
        "The chess family's evaluation weights (src/search/alphabeta/chess_eval.rs), each [middlegame, endgame]\n\
         in centipawns, fitted by Texel's method (src/search/alphabeta/texel.rs) to {} quiet positions of\n\
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

/// The positions of `path` when its first line records these settings.
fn read_data(path: &std::path::Path, settings: &str) -> Option<Vec<Labelled>> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = text.lines();
    (lines.next()? == format!("# {settings}"))
        .then(|| lines.filter_map(|l| serde_json::from_str(l).ok()).collect())
}

/// Plays the self-play games and writes their quiet positions.
fn make_data(
    args: &TuneArgs,
    variants: &[ChessGame],
    settings: &str,
    threads: usize,
) -> anyhow::Result<Vec<Labelled>> {
    let agent = AgentSpec::parse(&format!("ab:depth={}", args.depth)).map_err(super::common::usage)?;
    let mut labelled = Vec::new();
    for (v, game) in variants.iter().enumerate() {
        eprintln!("self-play: {} games of {} ({})", args.games, game.spec(), agent);
        let seed = crate::seed::derive_seed(args.seed, v as u64);
        let records = run_match(
            game,
            [&agent, &agent],
            MatchSettings::new(args.games, seed, threads, args.opening),
            &|_| {},
        )?;
        for record in &records {
            let result = match record.winner.as_deref() {
                Some("white") => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            let line = record.replay(game).map_err(|e| anyhow::anyhow!("game {}: {e}", record.game))?;
            for state in line.states().iter().skip(record.opening as usize + 1) {
                if quiet(game, state) {
                    labelled.push(Labelled {
                        variant: game.spec().to_string(),
                        fen: game.format_position(state),
                        result,
                    });
                }
            }
        }
    }
    if let Some(dir) = args.data.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut text = format!("# {settings}\n").into_bytes();
    for l in &labelled {
        serde_json::to_writer(&mut text, l)?;
        text.write_all(b"\n")?;
    }
    crate::files::write_atomic(&args.data, &text)?;
    Ok(labelled)
}

/// A position the evaluation alone should judge: the game goes on, the side to move is not in check
/// and has no capture that keeps its material.
fn quiet(game: &ChessGame, pos: &<ChessGame as Game>::State) -> bool {
    let mut moves = <ChessGame as Game>::Moves::default();
    game.legal_moves(pos, &mut moves);
    !moves.is_empty()
        && game.rule_draw(pos).is_none()
        && !game.in_check(pos)
        && !moves.iter().any(|&m| game.is_noisy(pos, m) && game.keeps_material(pos, m))
}
