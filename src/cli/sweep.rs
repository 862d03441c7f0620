//! `rebel-zero sweep SPEC --key KEY=VALUES [--key KEY=VALUES] [--out DIR]`: solves a hunt ruleset for
//! every setting of one or two rule keys and writes where the balance turns (report.md, charts,
//! sweep.json); see [`crate::lab::sweep`]. Prints what the tables to build will take before it starts,
//! a bar over the settings, and resumes from the settings already written.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

use super::table_bars::TableBar;
use crate::game::hunt::HuntGame;
use crate::tablebase::juroku::LevelProgress;

use crate::lab::sweep::{SettingResult, SweepKey, SweepObserver, SweepPlan, run_sweep};
use crate::lab::sweep_report::{SweepRecord, write_report};
use crate::tablebase::{LevelReport, TableSize};

#[derive(Args, Debug)]
pub struct SweepArgs {
    /// The ruleset: sixteen-rebels (with options) or a rules file (`file:RULES.toml`) the tables solve.
    spec: String,
    /// A key and its values: `general_wins_at=0..6`, `first=general,rebels`, `capture=optional,mandatory`,
    /// `apex=on,off`, any option of a rules file, or `rebels=16..5` (the start with fewer Rebels, taken
    /// off as --remove-order says). Once or twice; the first is the charts' axis.
    #[arg(long = "key", value_name = "KEY=VALUES", required = true, value_parser = parse_key)]
    keys: Vec<SweepKey>,
    /// For `rebels`: the points whose Rebels come off first, comma-separated (default: from the lowest
    /// rank up, each rank from file a).
    #[arg(long, value_delimiter = ',', value_name = "POINTS")]
    remove_order: Vec<String>,
    /// Where the report goes; a sweep stopped there resumes from the settings it finished.
    #[arg(long, default_value = "sweep")]
    out: PathBuf,
    /// Positions drawn per Rebel count and side for the margins over positions.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    samples: u32,
    /// The seed of those draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn parse_key(text: &str) -> Result<SweepKey, String> {
    SweepKey::parse(text)
}

pub fn run(args: &SweepArgs) -> anyhow::Result<()> {
    if args.keys.len() > 2 {
        super::common::usage_bail!("--key is given {} times; a sweep takes one or two keys", args.keys.len());
    }
    let plan = SweepPlan {
        spec: args.spec.clone(),
        keys: args.keys.clone(),
        remove_order: args.remove_order.clone(),
        samples: args.samples,
        seed: args.seed,
    };
    let settings = plan.settings().map_err(super::common::usage)?;
    let tables = SweepPlan::tables(&settings);
    for table in &tables {
        if let Some(size) = &table.to_build {
            size.check(crate::memory::available_bytes()).map_err(|why| {
                super::common::usage(anyhow::anyhow!("cannot build the table of `{}` here: {why}", table.key))
            })?;
        }
    }
    announce(settings.len(), &tables);
    let clock = Instant::now();
    let mut bars = SweepBars::new(settings.len());
    let results = run_sweep(&plan, &args.out, &mut bars)?;
    bars.bar.finish_and_clear();
    bars.table.0.finish_and_clear();
    let command = command_line();
    let record = SweepRecord {
        command: &command,
        version: env!("CARGO_PKG_VERSION"),
        plan: &plan,
        seconds: clock.elapsed().as_secs_f64(),
        results: &results,
    };
    write_report(&args.out, &record)?;
    for r in &results {
        let values: Vec<String> = r.values.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let value = match (&r.value.winner, r.value.plies) {
            (Some(w), Some(p)) => format!("{w} win in {p} plies"),
            _ => "draw".to_string(),
        };
        println!(
            "{}: {value}; winner's margin along best play {:.3}",
            values.join(", "),
            r.along_best_play.mean
        );
    }
    eprintln!("wrote {}", args.out.join("report.md").display());
    Ok(())
}

/// Says, before any work, how many tables the sweep reads and what building the missing ones takes.
fn announce(settings: usize, tables: &[crate::lab::sweep::TablePlan]) {
    let to_build: Vec<&TableSize> = tables.iter().filter_map(|t| t.to_build.as_ref()).collect();
    let cached = tables.len() - to_build.len();
    eprintln!("{settings} settings, {} tables ({cached} in the cache folder)", tables.len());
    if !to_build.is_empty() {
        let seconds: f64 = to_build.iter().map(|s| s.estimate.seconds).sum();
        let peak = to_build.iter().map(|s| s.estimate.memory_bytes).max().unwrap_or(0);
        let disk: u64 = to_build.iter().map(|s| s.estimate.disk_bytes).sum();
        eprintln!(
            "building {} tables: about {:.0} minutes on 2 cores, {:.1} GB of memory at the peak, {:.1} GB of disk \
             (stop it at any time: finished settings and tables are kept)",
            to_build.len(),
            seconds / 60.0,
            peak as f64 / 1e9,
            disk as f64 / 1e9
        );
    }
}

/// The command as typed, for the report.
fn command_line() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    format!("rebel-zero {}", args.join(" "))
}

/// A bar over the settings, and below it one for the table being built.
struct SweepBars {
    bar: ProgressBar,
    table: TableBar,
    /// The Rebel counts of the table being built, and how many are done.
    levels: Vec<u32>,
    done: std::cell::Cell<usize>,
}

impl SweepBars {
    fn new(settings: usize) -> SweepBars {
        let bars = MultiProgress::new();
        let bar = bars.add(
            ProgressBar::new(settings as u64).with_style(
                ProgressStyle::with_template("sweep {pos}/{len} settings [{elapsed_precise}] {msg}")
                    .expect("a valid template"),
            ),
        );
        let table = TableBar::new(bars.add(ProgressBar::new(0)));
        SweepBars { bar, table, levels: Vec::new(), done: std::cell::Cell::new(0) }
    }
}

impl SweepObserver for SweepBars {
    fn table(&mut self, key: &str, path: &Path, game: &HuntGame, size: Option<&TableSize>) {
        let line = match size {
            Some(size) => format!("building `{key}` at {}: {size}", path.display()),
            None => format!("reading {}", path.display()),
        };
        self.bar.suspend(|| eprintln!("{line}"));
        self.bar.set_message(key.to_string());
        self.levels = crate::tablebase::levels_of(game);
        self.done.set(0);
        self.table.level(&self.levels, 0);
    }

    fn level(&self, r: &LevelReport) {
        let line = format!("  {:2} Rebels solved in {:.1} s", r.rebels, r.seconds);
        self.bar.suspend(|| eprintln!("{line}"));
        self.done.set(self.done.get() + 1);
        self.table.level(&self.levels, self.done.get());
    }

    fn progress(&self) -> &dyn LevelProgress {
        &self.table
    }

    fn setting(&mut self, r: &SettingResult, kept: bool) {
        if kept {
            let values: Vec<String> = r.values.iter().map(|(k, v)| format!("{k}={v}")).collect();
            self.bar.suspend(|| eprintln!("kept {} from an earlier run", values.join(", ")));
        }
        self.bar.inc(1);
    }
}
