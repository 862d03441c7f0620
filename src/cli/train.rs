//! `rebel-zero train CONFIG.toml [--resume]`.

use std::path::PathBuf;

use clap::Args;

use crate::train::{self, Start, TrainConfig};

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The training config (see configs/*.toml).
    pub config: PathBuf,
    /// Continue the run's last checkpoint instead of starting a new run.
    #[arg(long)]
    pub resume: bool,
    /// Override run.minutes: stop after this many minutes of training in total.
    #[arg(long)]
    pub minutes: Option<f64>,
    /// Override run.generations: stop after this many generations in total.
    #[arg(long)]
    pub generations: Option<u64>,
    /// No progress bars (for logs).
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: &TrainArgs) -> anyhow::Result<()> {
    let mut config = TrainConfig::load(&args.config)?;
    if let Some(minutes) = args.minutes {
        config.run.minutes = minutes;
    }
    if let Some(generations) = args.generations {
        config.run.generations = generations;
    }
    config.check().map_err(anyhow::Error::msg)?;
    if config.run.minutes == 0.0 && config.run.generations == 0 {
        anyhow::bail!(
            "{}: set run.minutes or run.generations (or pass --minutes), or training never stops",
            args.config.display()
        );
    }
    let start = if args.resume { Start::Resume } else { Start::Fresh };
    let summary = train::train(&config, start, !args.quiet)?;
    let cpu = summary.cpu_share.map(|c| format!(", CPU {:.0}% of one core", c * 100.0)).unwrap_or_default();
    println!(
        "trained {} to generation {} ({} games, {} steps, {:.1} min in total{cpu}); checkpoint: {}",
        config.run.name,
        summary.counters.generation,
        summary.counters.games,
        summary.counters.steps,
        summary.counters.seconds / 60.0,
        summary.run_dir.display()
    );
    println!("curves: tensorboard --logdir {}", summary.run_dir.join("logs").display());
    Ok(())
}
