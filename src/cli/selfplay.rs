//! `rebel-zero selfplay CONFIG.toml --checkpoint GEN_DIR --games N --seed S --out FILE`: one batch of
//! self-play games from a saved generation, as the run's config plays them, written atomically as a
//! game file for a learner (`rebel-zero train CONFIG --learner DIR`) to ingest. One unit of work for
//! a scheduler: scripts/ray/train.py runs it in its actors.

use std::path::PathBuf;

use clap::Args;

use crate::train;

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// The run's training config (its selfplay settings and specs are used).
    config: PathBuf,
    /// The generation to play with: a run folder (its latest generation) or a generation folder.
    #[arg(long)]
    checkpoint: PathBuf,
    /// Games to play.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    games: u64,
    /// Seed of the batch: each game's seed is derived from it and the game's number.
    #[arg(long)]
    seed: u64,
    /// The game file to write (one saved game per line, as the replay window keeps them).
    #[arg(long)]
    out: PathBuf,
    /// Self-play threads, in place of the config's selfplay.workers, and the cores used.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: &SelfplayArgs) -> anyhow::Result<()> {
    let mut config = super::train::load_config(&args.config)?;
    if let Some(threads) = args.threads {
        config.selfplay.workers = super::common::worker_threads(Some(threads as usize))?;
    }
    let batch = train::SelfPlayBatch {
        checkpoint: &args.checkpoint,
        count: args.games as usize,
        seed: args.seed,
        out: &args.out,
    };
    let played = train::play_batch(&config, &batch, !args.quiet)?;
    println!("{played} games: {}", args.out.display());
    Ok(())
}
