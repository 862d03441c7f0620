//! AlphaZero-style training: generations of self-play games fill a replay window, the learner trains on
//! it, every generation is checkpointed, and every few generations the network plays fixed opponents
//! and its predecessor. Metrics go to TensorBoard and `metrics.jsonl`.
//!
//! A generation runs self-play on `selfplay.workers` threads (each batching its games' leaves into one
//! network call), then trains on the main thread; burn spreads each training step over the cores.

pub mod config;
pub mod distributed;
pub mod exact;
pub mod learner;
pub mod metrics;
pub mod replay;
mod run;
pub mod selfplay;
pub mod tables;
pub mod teacher;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, bail};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};

use config::SelfPlayConfig;
pub use config::TrainConfig;
use metrics::process_cpu_seconds;
use run::Run;
use selfplay::{FinishedGame, GameJob};

use crate::agents::{AgentSpec, MatchSettings, MatchSummary, run_match};
use crate::game::AnyGame;
use crate::nn::checkpoint::Counters;
use crate::nn::{InferenceNet, NetGame};
use crate::seed::derive_seed;

/// How a training session starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// A new run; its folder must not hold a checkpoint yet.
    Fresh,
    /// Continue the run's last checkpoint.
    Resume,
}

/// What a finished session did.
#[derive(Clone, Debug)]
pub struct TrainSummary {
    pub run_dir: PathBuf,
    pub counters: Counters,
    /// Process CPU time over wall time for this session (2.0 = both cores busy).
    pub cpu_share: Option<f64>,
}

/// The run's games, built from its specs: every spec must build and belong to one family.
fn run_games(config: &TrainConfig) -> anyhow::Result<Vec<AnyGame>> {
    config
        .run
        .specs
        .iter()
        .map(|spec| AnyGame::from_spec(spec).with_context(|| format!("run.specs: `{spec}`")))
        .collect()
}

/// Runs `$body` with `$games` bound to the run's games of one family (`Vec<HuntGame>`, …), once
/// `selfplay.stray_side` is checked against them.
macro_rules! with_family {
    ($config:expr, |$games:ident| $body:expr) => {{
        let all = run_games($config)?;
        macro_rules! family {
            ($variant:ident) => {{
                let $games: Vec<_> = all
                    .into_iter()
                    .map(|g| match g {
                        AnyGame::$variant(g) => Ok(g),
                        _ => bail!(
                            "run.specs mixes ruleset families (`{}` and another): one network serves one family",
                            $config.run.specs[0],
                        ),
                    })
                    .collect::<anyhow::Result<_>>()?;
                selfplay::check_stray_side(&$games, &$config.selfplay)?;
                $body
            }};
        }
        match &all[0] {
            AnyGame::Hunt(_) => family!(Hunt),
            AnyGame::Imperial(_) => family!(Imperial),
            AnyGame::Chess(_) => family!(Chess),
        }
    }};
}

/// Trains as `config` says, from scratch or from the run's last checkpoint. With `incoming`, the
/// process is a learner only: its games come from the files self-play processes write there
/// ([`distributed`]) instead of its own self-play.
pub fn train(
    config: &TrainConfig,
    start: Start,
    show_progress: bool,
    incoming: Option<&Path>,
) -> anyhow::Result<TrainSummary> {
    with_family!(config, |games| train_family(config, games, start, show_progress, incoming))
}

/// Plays `count` self-play games with the generation at `checkpoint`, seeded from `seed`, into the
/// game file `out` (see [`distributed`]); returns how many were written.
pub fn play_batch(
    config: &TrainConfig,
    checkpoint: &Path,
    count: usize,
    seed: u64,
    out: &Path,
    show_progress: bool,
) -> anyhow::Result<usize> {
    with_family!(config, |games| distributed::play_batch(
        config,
        &games,
        checkpoint,
        count,
        seed,
        out,
        show_progress
    ))
}

fn train_family<G: NetGame>(
    config: &TrainConfig,
    games: Vec<G>,
    start: Start,
    show_progress: bool,
    incoming: Option<&Path>,
) -> anyhow::Result<TrainSummary> {
    let started = Instant::now();
    let cpu_started = process_cpu_seconds();
    let mut run = Run::open(config, games, start, incoming)?;
    if incoming.is_some() && run.counters.generation == 0 {
        // Self-play elsewhere needs a network to start from: the learner saves its first one.
        let saved = run.save()?;
        eprintln!("learner: saved the initial network as {}", saved.display());
    }
    while !run.is_finished() {
        let report = run.generation(show_progress)?;
        eprintln!("{}", run.log_line(&report));
    }
    let cpu_share = match (cpu_started, process_cpu_seconds()) {
        (Some(a), Some(b)) => Some((b - a) / started.elapsed().as_secs_f64()),
        _ => None,
    };
    Ok(TrainSummary { run_dir: run.dir, counters: run.counters, cpu_share })
}

const CONFIG_FILE: &str = "config.toml";
/// Plies drawn in proportion to visits at the start of each game against the previous generation.
const PREVIOUS_MATCH_OPENING: u32 = 4;
const REPLAY_FILE: &str = "replay.jsonl.gz";
/// The replay window as older checkpoints saved it, uncompressed (still read on resume).
const LEGACY_REPLAY_FILE: &str = "replay.jsonl";

/// A progress bar drawn below the others that are live (self-play and training run at once).
fn progress(show: bool, length: u64, what: &'static str) -> ProgressBar {
    static BARS: std::sync::LazyLock<MultiProgress> = std::sync::LazyLock::new(MultiProgress::new);
    if !show {
        return ProgressBar::hidden();
    }
    let bar = BARS.add(ProgressBar::new(length));
    bar.set_style(
        ProgressStyle::with_template("{prefix:>9} [{bar:30}] {pos}/{len} {per_sec} eta {eta}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.set_prefix(what);
    bar
}

/// One generation's games: the run's games numbered on from `games_before`, each seeded from the
/// run's seed and its number, the specs taken in turn.
fn generation_jobs(config: &TrainConfig, specs: usize, games_before: u64) -> Vec<GameJob> {
    (0..config.selfplay.games_per_generation)
        .map(|i| {
            let number = games_before + i as u64;
            GameJob {
                index: i,
                spec_index: number as usize % specs,
                seed: derive_seed(config.run.seed, number),
            }
        })
        .collect()
}

/// Plays `jobs`, split across the worker threads; returned in game order. The network plays them, or
/// the teacher when there is one.
fn self_play<G: NetGame>(
    config: &TrainConfig,
    games: &[G],
    net: &InferenceNet,
    teacher: Option<&teacher::Teacher>,
    jobs: Vec<GameJob>,
    show_progress: bool,
) -> Vec<FinishedGame> {
    let count = jobs.len();
    if count == 0 {
        return Vec::new();
    }
    let workers = config.selfplay.workers.min(count);
    // A worker fills its slots from the shared queue at once, so with fewer games than
    // workers × concurrent_games the first worker would take most of them and the others sit idle
    // when their few are done (48 imperial games split 32/16 kept self-play near 160% CPU). No worker
    // holds more than its fair share of the generation at once.
    let worker_config = SelfPlayConfig {
        concurrent_games: config.selfplay.concurrent_games.min(count.div_ceil(workers)),
        ..config.selfplay.clone()
    };
    let worker_config = &worker_config;
    let bar = progress(show_progress, count as u64, "self-play");
    let finished: Mutex<Vec<FinishedGame>> = Mutex::new(Vec::with_capacity(count));
    // Each worker runs inside a rayon pool of its own single thread, so burn's parallel kernels run
    // inline on the worker instead of queueing on the global pool, where the workers and the learner
    // would wait on each other's small operations (that waiting left a fifth of the CPU idle).
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (bar, finished, jobs, next) = (&bar, &finished, &jobs, &next);
            scope.spawn(move || {
                let mut on_finished = |game| {
                    bar.inc(1);
                    finished.lock().expect("no self-play worker panics holding the lock").push(game);
                };
                let play = || match teacher {
                    Some(teacher) => teacher::play_teacher_games(
                        games,
                        teacher,
                        worker_config,
                        jobs,
                        next,
                        &mut on_finished,
                    ),
                    None => selfplay::play_games(games, net, worker_config, jobs, next, &mut on_finished),
                };
                crate::nn::inference::on_one_kernel_thread(play)
            });
        }
    });
    bar.finish_and_clear();
    let mut finished = finished.into_inner().expect("no self-play worker panicked");
    finished.sort_by_key(|g| g.index);
    finished
}

/// Plays the saved network against each baseline and (when configured) its predecessor on `game`'s
/// spec; returns each match's name (`spec/opponent`) with the network's score in it.
fn evaluate<G: NetGame>(
    config: &TrainConfig,
    game: &G,
    saved: &Path,
    run_dir: &Path,
    generation: u64,
    show_progress: bool,
) -> anyhow::Result<Vec<(String, f64)>> {
    let net_agent = |path: &Path, opening: u32| {
        AgentSpec::net(path, config.evaluation.simulations, opening, config.selfplay.precision)
    };
    // Each match: a name, the network's agent and its opponent's.
    let mut matches: Vec<(String, AgentSpec, AgentSpec)> = Vec::new();
    let tag = |name: &str| format!("{}/{}", game.spec(), name).replace([':', '=', ','], "_");
    for baseline in &config.evaluation.baselines {
        matches.push((tag(baseline), net_agent(saved, 0), AgentSpec::parse(baseline)?));
    }
    if config.evaluation.previous {
        // The generation saved just before this one: always kept, since at least two are.
        let previous = run_dir.join(format!("gen-{:06}", generation - 1));
        if previous.is_dir() {
            // Two networks at temperature 0 play the same two games over and over (seats alternating);
            // drawn openings make the match a sample of games.
            let opening = PREVIOUS_MATCH_OPENING;
            matches.push((tag("previous"), net_agent(saved, opening), net_agent(&previous, opening)));
        }
    }
    let mut scores = Vec::new();
    for (name, net, opponent) in matches {
        let settings = MatchSettings::new(
            config.evaluation.games,
            derive_seed(config.run.seed, 0xe7a1 ^ generation),
            config.selfplay.workers,
            0,
        );
        let bar = progress(show_progress, settings.games as u64, "evaluate");
        let records = run_match(game, [&net, &opponent], settings, &|_| bar.inc(1))?;
        bar.finish_and_clear();
        let summary = MatchSummary::new(game, [&net, &opponent], settings.seed, &records);
        scores.push((name, summary.agents[0].score));
    }
    Ok(scores)
}
