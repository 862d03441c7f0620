//! AlphaZero-style training: generations of self-play games fill a replay window, the learner trains on
//! it, every generation is checkpointed, and every few generations the network plays fixed opponents
//! and its predecessor. Metrics go to TensorBoard and `metrics.jsonl`.
//!
//! A generation runs self-play on `selfplay.workers` threads (each batching its games' leaves into one
//! network call), then trains on the main thread; burn spreads each training step over the cores.

pub mod config;
pub mod learner;
pub mod metrics;
pub mod replay;
pub mod selfplay;
pub mod teacher;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, bail};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use config::SelfPlayConfig;
pub use config::TrainConfig;
use learner::{Learner, StepLosses};
use metrics::{Metrics, process_cpu_seconds};
use replay::{Batch, MirrorMap, ReplayBuffer};
use selfplay::{FinishedGame, GameJob};

use crate::agents::{AgentSpec, MatchSettings, MctsSettings, derive_seed, run_match};
use crate::game::{AnyGame, Side};
use crate::nn::checkpoint::{self, Checkpoint, CheckpointMeta, Counters, Generation};
use crate::nn::{InferenceNet, NetGame};

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

/// Trains as `config` says, from scratch or from the run's last checkpoint.
pub fn train(config: &TrainConfig, start: Start, show_progress: bool) -> anyhow::Result<TrainSummary> {
    let games = config
        .run
        .specs
        .iter()
        .map(|spec| AnyGame::from_spec(spec).with_context(|| format!("run.specs: `{spec}`")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    macro_rules! family {
        ($variant:ident) => {{
            let games: Vec<_> = games
                .into_iter()
                .map(|g| match g {
                    AnyGame::$variant(g) => Ok(g),
                    _ => bail!(
                        "run.specs mixes ruleset families (`{}` and another): one network serves one family",
                        config.run.specs[0],
                    ),
                })
                .collect::<anyhow::Result<_>>()?;
            train_family(config, games, start, show_progress)
        }};
    }
    match &games[0] {
        AnyGame::Hunt(_) => family!(Hunt),
        AnyGame::Imperial(_) => family!(Imperial),
        AnyGame::Chess(_) => family!(Chess),
    }
}

fn train_family<G: NetGame>(
    config: &TrainConfig,
    games: Vec<G>,
    start: Start,
    show_progress: bool,
) -> anyhow::Result<TrainSummary> {
    let encoder = checkpoint::encoder_name(&games[0]);
    if let Some(other) = games.iter().find(|g| checkpoint::encoder_name(*g) != encoder) {
        bail!(
            "run.specs: `{}` and `{}` are on different boards and cannot share a network",
            games[0].spec(),
            other.spec()
        );
    }
    let shape = games[0].net_shape(config.network.size);
    let run_dir = config.run_dir();
    let run_started = Instant::now();
    let cpu_started = process_cpu_seconds();

    let mut replay = ReplayBuffer::new(config.replay.window_games);
    let (mut learner, mut counters) = match start {
        Start::Fresh => {
            if run_dir.join("latest").exists() {
                bail!(
                    "{} already holds a training run; continue it with --resume, or choose another run.name",
                    run_dir.display()
                );
            }
            (Learner::new(shape, &config.optimizer, config.run.seed), Counters::default())
        }
        Start::Resume => {
            let saved = Checkpoint::open(&run_dir).with_context(|| "nothing to resume")?;
            if saved.meta.shape != shape || saved.meta.encoder != encoder {
                bail!(
                    "the checkpoint in {} is a {} network for {}; the config asks for {} on {}",
                    saved.dir.display(),
                    saved.meta.shape.tower,
                    saved.meta.encoder,
                    shape.tower,
                    encoder
                );
            }
            if saved.meta.specs != config.run.specs {
                bail!(
                    "the checkpoint was trained on specs [{}]; the config names [{}]",
                    saved.meta.specs.join(", "),
                    config.run.specs.join(", ")
                );
            }
            let net = saved.load_net(&burn::prelude::Device::flex())?;
            let optimizer = match saved.file(checkpoint::OPTIMIZER_FILE).exists() {
                true => Some(saved.read_verified(checkpoint::OPTIMIZER_FILE)?),
                false => None,
            };
            let learner = Learner::resume(net, optimizer.as_deref(), shape, &config.optimizer)
                .map_err(|e| anyhow::anyhow!("{}: {e}", saved.dir.display()))?;
            let replay_file =
                [REPLAY_FILE, LEGACY_REPLAY_FILE].map(|f| saved.file(f)).into_iter().find(|f| f.exists());
            if let Some(replay_file) = replay_file {
                replay.load_jsonl(&replay_file, &games).map_err(anyhow::Error::msg)?;
            }
            eprintln!(
                "resuming {} at generation {} ({} games played, {} in the replay window)",
                run_dir.display(),
                saved.meta.counters.generation,
                saved.meta.counters.games,
                replay.games()
            );
            (learner, saved.meta.counters)
        }
    };
    std::fs::create_dir_all(&run_dir).with_context(|| format!("cannot create {}", run_dir.display()))?;
    let config_text = toml::to_string_pretty(config).expect("the config serialises");
    let mut metrics = Metrics::open(&run_dir.join("logs"))?;
    let mirror = if config.replay.mirror { MirrorMap::for_game(&games[0]) } else { None };
    let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(config.run.seed, 0x7261_6e64 ^ counters.generation));
    let seconds_before = counters.seconds;
    let mut batch = Batch::default();

    while !finished(config, &counters) {
        let generation_started = Instant::now();
        let cpu_before = process_cpu_seconds();
        let generation = counters.generation + 1;

        // Self-play on the worker threads while the learner trains on the main thread, on the games
        // already in the window: this generation's games train the next one (one generation of delay,
        // as in KataGo's asynchronous loop), so neither phase leaves a core idle while the other runs.
        let net = InferenceNet::new(&learner.inference_net());
        // Teacher games for the run's first generations (the config check parsed the teacher).
        let teacher = (generation <= config.bootstrap.generations)
            .then(|| config.bootstrap.teacher_settings().expect("a checked config"));
        let steps = ((replay.recent_positions(config.selfplay.games_per_generation) as f64
            * config.optimizer.reuse)
            / config.optimizer.batch_size as f64)
            .ceil() as u64;
        let actions = games[0].facts().action_count;
        let mut losses = Vec::with_capacity(steps as usize);
        let (mut selfplay_seconds, mut train_seconds) = (0.0, 0.0);
        let played = std::thread::scope(|scope| {
            let selfplay = scope.spawn(|| {
                let started = Instant::now();
                let played = self_play(config, &games, &net, teacher.as_ref(), counters.games, show_progress);
                (played, started.elapsed().as_secs_f64())
            });
            let train_started = Instant::now();
            let bar = progress(show_progress, steps, "training");
            for _ in 0..steps {
                replay.sample(config.optimizer.batch_size, actions, mirror.as_ref(), &mut rng, &mut batch);
                losses.push(learner.step(&batch));
                bar.inc(1);
            }
            bar.finish_and_clear();
            train_seconds = train_started.elapsed().as_secs_f64();
            let (played, seconds) = selfplay.join().expect("self-play does not panic");
            selfplay_seconds = seconds;
            played
        });
        let played_games = played.len() as u64;
        let stats = SelfPlayStats::of(&played);
        let new_positions: usize = played.iter().map(|g| g.positions.len()).sum();
        for game in played {
            replay.push(game.saved, game.positions);
        }

        counters.generation = generation;
        counters.games += played_games;
        counters.positions += new_positions as u64;
        counters.steps += steps;
        counters.seconds = seconds_before + run_started.elapsed().as_secs_f64();

        // Checkpoint, then evaluate the saved network.
        let net = learner.inference_net();
        let meta = CheckpointMeta::new(&games[0], config.run.specs.clone(), shape, counters);
        let saved = checkpoint::save_generation(
            &run_dir,
            Generation {
                meta: &meta,
                net: &net,
                optimizer: Some(learner.optimizer_bytes()),
                files: vec![
                    (CONFIG_FILE, config_text.clone().into_bytes()),
                    (REPLAY_FILE, replay.to_jsonl_gz()),
                ],
            },
            config.run.keep.max(2),
        )?;
        let wall = generation_started.elapsed().as_secs_f64();
        let cpu_share = match (cpu_before, process_cpu_seconds()) {
            (Some(a), Some(b)) => (b - a) / wall,
            _ => f64::NAN,
        };
        // A generation that took no steps (the first of a run, or of a resume whose checkpoint kept no
        // replay window) has no losses: recording zeros would draw a false dip in the curves.
        let mean = mean_losses(&losses);
        let mut values = Vec::with_capacity(16);
        if let Some(mean) = &mean {
            values.extend([
                ("loss/policy", mean.policy),
                ("loss/value", mean.value),
                ("loss/value_accuracy", mean.value_accuracy),
            ]);
        }
        values.extend([
            ("selfplay/side0_win_rate", stats.wins[0]),
            ("selfplay/side1_win_rate", stats.wins[1]),
            ("selfplay/draw_rate", stats.draws),
            ("selfplay/game_length", stats.mean_plies),
            ("selfplay/teacher", if teacher.is_some() { 1.0 } else { 0.0 }),
            ("speed/games_per_second", played_games as f64 / selfplay_seconds),
            ("speed/positions_per_second", new_positions as f64 / selfplay_seconds),
            (
                "speed/samples_per_second",
                (steps as f64 * config.optimizer.batch_size as f64) / train_seconds.max(1e-9),
            ),
            ("speed/cpu_share", cpu_share),
            ("progress/games", counters.games as f64),
            ("progress/replay_positions", replay.positions() as f64),
        ]);
        // Recorded before the evaluation, whose games take a while: a run stopped during them keeps
        // this generation's curves along with its checkpoint.
        metrics.record(generation, &values);
        let mut scores = Vec::new();
        if config.evaluation.every > 0 && generation % config.evaluation.every == 0 {
            scores = evaluate(config, &games[0], &saved, &run_dir, generation, show_progress)?;
            let score_tags: Vec<(String, f64)> =
                scores.iter().map(|(name, s)| (format!("eval/{name}"), *s)).collect();
            let score_values: Vec<(&str, f64)> = score_tags.iter().map(|(t, s)| (t.as_str(), *s)).collect();
            metrics.record(generation, &score_values);
        }
        let scores_text: String =
            scores.iter().map(|(name, s)| format!(", {name} {:.0}%", s * 100.0)).collect();
        let by = if teacher.is_some() { " teacher" } else { "" };
        eprintln!(
            "generation {generation}: {played_games}{by} games ({:.1} plies, {} {:.0}% / {} {:.0}% / draws {:.0}%), \
             {steps} steps{}, {wall:.0} s, CPU {:.0}%{scores_text}",
            stats.mean_plies,
            games[0].side_names()[0],
            stats.wins[0] * 100.0,
            games[0].side_names()[1],
            stats.wins[1] * 100.0,
            stats.draws * 100.0,
            match &mean {
                Some(mean) => format!(", policy loss {:.3}, value loss {:.3}", mean.policy, mean.value),
                None => " (the replay window was empty)".to_string(),
            },
            cpu_share * 100.0,
        );
    }
    let cpu_share = match (cpu_started, process_cpu_seconds()) {
        (Some(a), Some(b)) => Some((b - a) / run_started.elapsed().as_secs_f64()),
        _ => None,
    };
    Ok(TrainSummary { run_dir, counters, cpu_share })
}

const CONFIG_FILE: &str = "config.toml";
/// Plies drawn in proportion to visits at the start of each game against the previous generation.
const PREVIOUS_MATCH_OPENING: u32 = 4;
const REPLAY_FILE: &str = "replay.jsonl.gz";
/// The replay window as checkpoints before the seventh session saved it, uncompressed.
const LEGACY_REPLAY_FILE: &str = "replay.jsonl";

fn finished(config: &TrainConfig, counters: &Counters) -> bool {
    (config.run.generations > 0 && counters.generation >= config.run.generations)
        || (config.run.minutes > 0.0 && counters.seconds >= config.run.minutes * 60.0)
}

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

/// One generation's games, split across the worker threads; returned in game order. The network plays
/// them, or the teacher when there is one.
fn self_play<G: NetGame>(
    config: &TrainConfig,
    games: &[G],
    net: &InferenceNet,
    teacher: Option<&MctsSettings>,
    games_before: u64,
    show_progress: bool,
) -> Vec<FinishedGame> {
    let count = config.selfplay.games_per_generation;
    let jobs: Vec<GameJob> = (0..count)
        .map(|i| {
            let number = games_before + i as u64;
            GameJob {
                index: i,
                spec: number as usize % games.len(),
                seed: derive_seed(config.run.seed, number),
            }
        })
        .collect();
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
                let mut play = || match teacher {
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
                match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
                    Ok(pool) => pool.install(play),
                    // Without a pool of its own the worker still plays, sharing the global one.
                    Err(_) => play(),
                }
            });
        }
    });
    bar.finish_and_clear();
    let mut finished = finished.into_inner().expect("no self-play worker panicked");
    finished.sort_by_key(|g| g.index);
    finished
}

/// Win and draw rates and length of a generation's games.
struct SelfPlayStats {
    wins: [f64; 2],
    draws: f64,
    mean_plies: f64,
}

impl SelfPlayStats {
    fn of(played: &[FinishedGame]) -> SelfPlayStats {
        let n = played.len().max(1) as f64;
        let wins = Side::BOTH
            .map(|s| played.iter().filter(|g| g.saved.winner == Some(s.index() as u8)).count() as f64 / n);
        SelfPlayStats {
            wins,
            draws: played.iter().filter(|g| g.saved.winner.is_none()).count() as f64 / n,
            mean_plies: played.iter().map(|g| g.plies as f64).sum::<f64>() / n,
        }
    }
}

/// The mean of a generation's step losses; `None` when it took no steps.
fn mean_losses(losses: &[StepLosses]) -> Option<StepLosses> {
    if losses.is_empty() {
        return None;
    }
    let n = losses.len() as f64;
    Some(StepLosses {
        policy: losses.iter().map(|l| l.policy).sum::<f64>() / n,
        value: losses.iter().map(|l| l.value).sum::<f64>() / n,
        value_accuracy: losses.iter().map(|l| l.value_accuracy).sum::<f64>() / n,
    })
}

/// Plays the saved network against each baseline and (when configured) its predecessor; returns each
/// opponent's name with the network's score against it.
fn evaluate<G: NetGame>(
    config: &TrainConfig,
    game: &G,
    saved: &Path,
    run_dir: &Path,
    generation: u64,
    show_progress: bool,
) -> anyhow::Result<Vec<(String, f64)>> {
    let net_agent = |path: &Path, opening: u32| {
        let sims = config.evaluation.simulations;
        AgentSpec::parse(&format!("net:path={},sims={sims},open={opening}", path.display()))
    };
    // Each match: a name, the network's agent and its opponent's.
    let mut matches: Vec<(String, AgentSpec, AgentSpec)> = Vec::new();
    for baseline in &config.evaluation.baselines {
        let name = baseline.replace([':', '=', ','], "_");
        matches.push((name, net_agent(saved, 0)?, AgentSpec::parse(baseline)?));
    }
    if config.evaluation.previous {
        // The generation saved just before this one: always kept, since at least two are.
        let previous = run_dir.join(format!("gen-{:06}", generation - 1));
        if previous.is_dir() {
            // Two networks at temperature 0 play the same two games over and over (seats alternating);
            // drawn openings make the match a sample of games.
            let opening = PREVIOUS_MATCH_OPENING;
            matches.push((
                "previous".to_string(),
                net_agent(saved, opening)?,
                net_agent(&previous, opening)?,
            ));
        }
    }
    let mut scores = Vec::new();
    for (name, net, opponent) in matches {
        let settings = MatchSettings {
            games: config.evaluation.games,
            seed: derive_seed(config.run.seed, 0xe7a1 ^ generation),
            threads: config.selfplay.workers,
            opening: 0,
        };
        let bar = progress(show_progress, settings.games as u64, "evaluate");
        let records = run_match(game, [&net, &opponent], settings, &|_| bar.inc(1))?;
        bar.finish_and_clear();
        let names = game.side_names();
        let points: f64 = records
            .iter()
            .map(|r| {
                // Game i seats the network on side i % 2.
                let net_side = names[r.game % 2];
                match &r.winner {
                    Some(w) if w == net_side => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                }
            })
            .sum();
        scores.push((name, points / records.len().max(1) as f64));
    }
    Ok(scores)
}
