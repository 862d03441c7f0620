//! `rebel-zero train CONFIG.toml [--resume]`.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

use crate::train::{self, Start, TrainConfig};

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The training config (see configs/*.toml).
    #[arg(required_unless_present = "preset", conflicts_with = "preset")]
    pub config: Option<PathBuf>,
    /// A training config built into the binary: smoke, sixteen-rebels, juroku-musashi,
    /// twenty-six-rebels, imperial-contest, chess (`--preset list` lists them).
    #[arg(long, value_name = "NAME")]
    pub preset: Option<String>,
    /// Continue the run's last checkpoint instead of starting a new run.
    #[arg(long)]
    pub resume: bool,
    /// Override run.minutes: stop after this many minutes of training in total.
    #[arg(long)]
    pub minutes: Option<f64>,
    /// Override run.generations: stop after this many generations in total (at least 1; a config's
    /// `generations = 0` means no limit).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub generations: Option<u64>,
    /// Be a learner only: take the generation's games from the game files that `rebel-zero selfplay`
    /// processes write into DIR (waiting for them) instead of playing them; the first generation saved
    /// is the initial network for them to start from. scripts/ray/train.py runs this.
    #[arg(long, value_name = "DIR")]
    pub learner: Option<PathBuf>,
    /// No progress bars (for logs).
    #[arg(long)]
    pub quiet: bool,
}

/// Reads and checks a training config file (a mistake in it is a usage error).
pub fn load_config(path: &std::path::Path) -> anyhow::Result<TrainConfig> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the training config {}", path.display()))?;
    let source = path.display().to_string();
    let config = TrainConfig::from_text(&text, &source).map_err(super::common::usage)?;
    config.check().map_err(|e| super::common::usage(anyhow::anyhow!("{source}: {e}")))?;
    Ok(config)
}

pub fn run(args: &TrainArgs) -> anyhow::Result<()> {
    if args.preset.as_deref() == Some("list") {
        super::presets::print_list(super::presets::Kind::Training);
        return Ok(());
    }
    let (mut config, source) = match (&args.config, &args.preset) {
        (Some(path), _) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the training config {}", path.display()))?;
            let source = path.display().to_string();
            (TrainConfig::from_text(&text, &source).map_err(super::common::usage)?, source)
        }
        (None, name) => {
            let preset =
                super::presets::find(super::presets::Kind::Training, name.as_deref().unwrap_or("list"))?;
            (TrainConfig::from_text(preset.text, preset.path)?, format!("{} (built in)", preset.path))
        }
    };
    if let Some(minutes) = args.minutes {
        if !(minutes > 0.0 && minutes.is_finite()) {
            super::common::usage_bail!("--minutes must be a number of minutes above 0 (got {minutes})");
        }
        config.run.minutes = minutes;
    }
    if let Some(generations) = args.generations {
        config.run.generations = generations;
    }
    config.check().map_err(|e| super::common::usage(anyhow::anyhow!("{source}: {e}")))?;
    if config.run.minutes == 0.0 && config.run.generations == 0 {
        super::common::usage_bail!(
            "{}: set run.minutes or run.generations (or pass --minutes), or training never stops",
            source
        );
    }
    let start = if args.resume { Start::Resume } else { Start::Fresh };
    if let Some(dir) = &args.learner {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let summary = train::train(&config, start, !args.quiet, args.learner.as_deref())?;
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
