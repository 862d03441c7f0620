//! One training run of one board's network: opened fresh or from its last checkpoint, then advanced a
//! generation at a time (self-play beside the learner, checkpoint, metrics, evaluation, a log line).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::config::TrainConfig;
use super::config::check_specs_extend;
use super::distributed::take_games;
use super::evaluation::evaluate;
use super::exact::{ExactValues, Relabelled};
use super::family::with_family;
use super::learner::{Learner, StepLosses};
use super::metrics::{Metrics, process_cpu_seconds};
use super::progress::progress;
use super::replay::{Batch, MirrorMap, ReplayBuffer};
use super::selfplay::FinishedGame;
use super::teacher::Teacher;
use super::workers::{generation_jobs, self_play};
use crate::family::Family;
use crate::game::Side;
use crate::nn::checkpoint::{self, Checkpoint, CheckpointMeta, Counters, Generation};
use crate::nn::int8::Scales;
use crate::nn::load::{CALIBRATION_FILE, read_scales};
use crate::nn::{InferenceNet, NetShape, Precision};
use crate::seed::derive_seed;

pub(super) const CONFIG_FILE: &str = "config.toml";
pub(super) const REPLAY_FILE: &str = "replay.jsonl.gz";
/// The replay window as older checkpoints saved it, uncompressed (still read on resume).
pub(super) const LEGACY_REPLAY_FILE: &str = "replay.jsonl";

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

/// Trains as `config` says, from scratch or from the run's last checkpoint. With `incoming`, the
/// process is a learner only: its games come from the files self-play processes write there
/// ([`super::distributed`]) instead of its own self-play.
pub fn train(
    config: &TrainConfig,
    start: Start,
    show_progress: bool,
    incoming: Option<&Path>,
) -> anyhow::Result<TrainSummary> {
    with_family!(config, |games| train_family(config, games, start, show_progress, incoming))
}

fn train_family<G: Family>(
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

/// Positions of the replay window an 8-bit calibration reads.
const CALIBRATION_POSITIONS: usize = 2048;
/// Mixed into the run's seed for the calibration's draws.
const CALIBRATION_STREAM: u64 = 0xca11b;
/// Mixed into the run's seed for the learner's samples.
const SAMPLING_STREAM: u64 = 0x7261_6e64;

/// A run in progress: its network and optimizer, replay window, counters and metrics.
pub(super) struct Run<'a, G: Family> {
    config: &'a TrainConfig,
    games: Vec<G>,
    shape: NetShape,
    pub(super) dir: PathBuf,
    learner: Learner,
    pub(super) counters: Counters,
    replay: ReplayBuffer,
    metrics: Metrics,
    mirror: Option<MirrorMap>,
    batch: Batch,
    config_text: String,
    started: Instant,
    seconds_before: f64,
    /// A learner's folder of game files (played elsewhere), in place of its own self-play.
    incoming: Option<PathBuf>,
    /// Game files this generation took from `incoming`, deleted once it is saved.
    taken: Vec<PathBuf>,
    /// The tables that give solved positions their exact values (`replay.exact_values`).
    exact: Option<ExactValues>,
    /// Who plays the teacher games, while the run is in its bootstrap generations.
    teacher: Option<Teacher>,
    /// The resumed generation's saved 8-bit scales: its first generation plays with them when the
    /// checkpoint kept no replay window to calibrate on.
    resumed_scales: Option<Scales>,
}

/// What one generation did, for its metrics and log line.
pub(super) struct GenerationReport {
    generation: u64,
    games: u64,
    new_positions: usize,
    steps: u64,
    losses: Option<StepLosses>,
    stats: SelfPlayStats,
    teacher: bool,
    selfplay_seconds: f64,
    train_seconds: f64,
    wall_seconds: f64,
    cpu_share: f64,
    /// Each evaluation opponent's name and the network's score against it.
    scores: Vec<(String, f64)>,
    /// What the tables relabelled of this generation's samples (`replay.exact_values`).
    exact: Option<Relabelled>,
}

impl<'a, G: Family> Run<'a, G> {
    /// A new run (its folder must not hold one yet) or the last checkpoint of the run's folder.
    pub(super) fn open(
        config: &'a TrainConfig,
        games: Vec<G>,
        start: Start,
        incoming: Option<&Path>,
    ) -> anyhow::Result<Run<'a, G>> {
        let encoder = checkpoint::encoder_name(&games[0]);
        if let Some(other) = games.iter().find(|g| checkpoint::encoder_name(*g) != encoder) {
            bail!(
                "run.specs: `{}` and `{}` are on different boards and cannot share a network",
                games[0].spec(),
                other.spec()
            );
        }
        let shape = games[0].net_shape(config.network.size);
        if let Some(other) = games.iter().find(|g| g.net_shape(config.network.size) != shape) {
            bail!(
                "run.specs: `{}` and `{}` have different action spaces and cannot share a network",
                games[0].spec(),
                other.spec()
            );
        }
        let dir = config.run_dir();
        let mut replay = ReplayBuffer::new(config.replay.window_games);
        let (learner, counters, resumed_scales) = match start {
            Start::Fresh => {
                if dir.join("latest").exists() {
                    bail!(
                        "{} already holds a training run; continue it with --resume, or choose another run.name",
                        dir.display()
                    );
                }
                (Learner::new(shape, &config.optimizer, config.run.seed), Counters::default(), None)
            }
            Start::Resume => resume(config, &games, shape, &dir, &mut replay)?,
        };
        let teacher = Teacher::open(&config.bootstrap, counters.generation, &games)?;
        let exact = if config.replay.exact_values {
            Some(ExactValues::open(&games, config.replay.exact_discount)?)
        } else {
            None
        };
        if let Some(exact) = &exact {
            // A resumed window is labelled as its games were played; label it as new games will be.
            for (saved, positions) in replay.games_mut() {
                exact.relabel(&games[saved.spec_index], saved, positions).map_err(anyhow::Error::msg)?;
            }
        }
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(Run {
            config,
            shape,
            metrics: Metrics::open(&dir.join("logs"))?,
            mirror: if config.replay.mirror { MirrorMap::for_game(&games[0]) } else { None },
            batch: Batch::default(),
            config_text: toml::to_string_pretty(config).expect("the config serialises"),
            started: Instant::now(),
            seconds_before: counters.seconds,
            incoming: incoming.map(Path::to_path_buf),
            taken: Vec::new(),
            exact,
            teacher,
            resumed_scales,
            games,
            dir,
            learner,
            counters,
            replay,
        })
    }

    /// Whether the run has reached its generations or minutes.
    pub(super) fn is_finished(&self) -> bool {
        let run = &self.config.run;
        (run.generations > 0 && self.counters.generation >= run.generations)
            || (run.minutes > 0.0 && self.counters.seconds >= run.minutes * 60.0)
    }

    /// Plays and learns one generation, saves it, records its metrics and evaluates it.
    pub(super) fn generation(&mut self, show_progress: bool) -> anyhow::Result<GenerationReport> {
        let started = Instant::now();
        let cpu_before = process_cpu_seconds();
        let mut report = self.play_and_learn(show_progress)?;
        let saved = self.save()?;
        for file in self.taken.drain(..) {
            std::fs::remove_file(&file).with_context(|| format!("removing {}", file.display()))?;
        }
        report.wall_seconds = started.elapsed().as_secs_f64();
        report.cpu_share = match (cpu_before, process_cpu_seconds()) {
            (Some(a), Some(b)) => (b - a) / report.wall_seconds,
            _ => f64::NAN,
        };
        // Recorded before the evaluation, whose games take a while: a run stopped during them keeps
        // this generation's curves along with its checkpoint.
        self.record_metrics(&report);
        let every = self.config.evaluation.every;
        if every > 0 && report.generation.is_multiple_of(every) {
            let game = self.evaluation_game(report.generation / every);
            report.scores = evaluate(self.config, game, &saved, &self.dir, report.generation, show_progress)?;
            let tags: Vec<(String, f64)> =
                report.scores.iter().map(|(n, s)| (format!("eval/{n}"), *s)).collect();
            let values: Vec<(&str, f64)> = tags.iter().map(|(t, s)| (t.as_str(), *s)).collect();
            self.metrics.record(report.generation, &values);
        }
        Ok(report)
    }

    /// The spec the `evaluation`-th evaluation (from 1) plays: the run's distinct specs in turn, so
    /// that each gets its own curve for the price of one spec's games.
    fn evaluation_game(&self, evaluation: u64) -> &G {
        let mut distinct: Vec<&G> = Vec::new();
        for game in &self.games {
            if !distinct.iter().any(|seen| seen.spec() == game.spec()) {
                distinct.push(game);
            }
        }
        distinct[(evaluation.saturating_sub(1) % distinct.len() as u64) as usize]
    }

    /// Self-play on the worker threads while the learner trains on the main thread, on the games
    /// already in the window: this generation's games train the next one (one generation of delay, as
    /// in KataGo's asynchronous loop), so neither phase leaves a core idle while the other runs.
    fn play_and_learn(&mut self, show_progress: bool) -> anyhow::Result<GenerationReport> {
        let config = self.config;
        let generation = self.counters.generation + 1;
        let net = self.playing_net(&InferenceNet::new(&self.learner.inference_net()));
        // Teacher games for the run's first generations.
        let teacher = self.teacher.as_ref().filter(|_| generation <= config.bootstrap.generations);
        let recent = self.replay.recent_positions(config.selfplay.games_per_generation) as f64;
        let steps = (recent * config.optimizer.reuse / config.optimizer.batch_size as f64).ceil() as u64;
        let actions = self.games[0].facts().action_count;
        let mut losses = Vec::with_capacity(steps as usize);
        let (games, games_before) = (&self.games, self.counters.games);
        let (incoming, taken) = (self.incoming.as_deref(), &mut self.taken);
        let mut train_seconds = 0.0;
        // The learner's draws from the window, seeded by the run and the generation alone, so that a
        // resumed run draws what the run it resumes would have (a stream kept across generations
        // started over at the resume, and the run went another way from its first generation).
        let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(config.run.seed ^ SAMPLING_STREAM, generation));
        let (played, selfplay_seconds) = std::thread::scope(|scope| {
            let selfplay = scope.spawn(|| {
                let started = Instant::now();
                let played = match incoming {
                    Some(dir) => take_games(dir, config.selfplay.games_per_generation, games, taken)?,
                    None => {
                        let jobs = generation_jobs(config, games.len(), games_before);
                        self_play(config, games, &net, teacher, jobs, show_progress)
                    }
                };
                anyhow::Ok((played, started.elapsed().as_secs_f64()))
            });
            let train_started = Instant::now();
            let bar = progress(show_progress, steps, "training");
            for _ in 0..steps {
                let batch_size = config.optimizer.batch_size;
                self.replay.sample(batch_size, actions, self.mirror.as_ref(), &mut rng, &mut self.batch);
                losses.push(self.learner.step(&self.batch));
                bar.inc(1);
            }
            bar.finish_and_clear();
            train_seconds = train_started.elapsed().as_secs_f64();
            selfplay.join().expect("self-play does not panic")
        })?;
        let stats = SelfPlayStats::of(&played);
        let (played_games, new_positions) =
            (played.len() as u64, played.iter().map(|g| g.positions.len()).sum());
        let mut exact = self.exact.as_ref().map(|_| Relabelled::default());
        for mut game in played {
            if let (Some(tables), Some(total)) = (&self.exact, &mut exact) {
                let spec = &self.games[game.saved.spec_index];
                let done =
                    tables.relabel(spec, &game.saved, &mut game.positions).map_err(anyhow::Error::msg)?;
                *total += done;
            }
            self.replay.push(game.saved, game.positions);
        }
        let counters = &mut self.counters;
        counters.generation = generation;
        counters.games += played_games;
        counters.positions += new_positions as u64;
        counters.steps += steps;
        counters.seconds = self.seconds_before + self.started.elapsed().as_secs_f64();
        Ok(GenerationReport {
            generation,
            games: played_games,
            new_positions,
            steps,
            losses: mean_losses(&losses),
            stats,
            teacher: teacher.is_some() && incoming.is_none(),
            selfplay_seconds,
            train_seconds,
            wall_seconds: 0.0,
            cpu_share: f64::NAN,
            scores: Vec::new(),
            exact,
        })
    }

    /// `net` as self-play runs it: in 8 bits when the config asks for it and the replay window has
    /// positions to calibrate on, or the run resumed a generation with saved scales (the first
    /// generation of a fresh run plays in f32).
    fn playing_net(&self, net: &InferenceNet) -> InferenceNet {
        match self.calibration(net) {
            Some(scales) => net.quantized(&scales),
            None => net.clone(),
        }
    }

    /// The 8-bit scales of `net` on positions of the replay window, drawn by a generator of their own
    /// (seeded by the run and the generation) so that the learner's samples are the same at either
    /// precision; none in f32. While the window is empty no step has changed the network since the
    /// run started, so a resumed generation's saved scales are its own.
    fn calibration(&self, net: &InferenceNet) -> Option<Scales> {
        if self.config.selfplay.precision != Precision::Int8 {
            return None;
        }
        if self.replay.positions() == 0 {
            return self.resumed_scales.clone().filter(|scales| net.fits(scales));
        }
        let generation = self.counters.generation;
        let mut rng =
            Pcg64Mcg::seed_from_u64(derive_seed(self.config.run.seed ^ CALIBRATION_STREAM, generation));
        let mut batch = Batch::default();
        let actions = self.games[0].facts().action_count;
        self.replay.sample(CALIBRATION_POSITIONS, actions, None, &mut rng, &mut batch);
        let source = format!(
            "{CALIBRATION_POSITIONS} positions drawn from the replay window after generation {generation} \
             (run seed {}, stream {CALIBRATION_STREAM:#x})",
            self.config.run.seed
        );
        Some(net.calibrate(&batch.input, CALIBRATION_POSITIONS, &source))
    }

    /// Saves the current generation; returns its folder.
    pub(super) fn save(&self) -> anyhow::Result<PathBuf> {
        let net = self.learner.inference_net();
        let meta =
            CheckpointMeta::new(&self.games[0], self.config.run.specs.clone(), self.shape, self.counters);
        let mut files = vec![
            (CONFIG_FILE, self.config_text.clone().into_bytes()),
            (REPLAY_FILE, self.replay.to_jsonl_gz()),
        ];
        // The saved network's 8-bit scales, so that whoever plays it in 8 bits (an evaluation, a
        // distributed worker, `play`) runs exactly what self-play will.
        if let Some(scales) = self.calibration(&InferenceNet::new(&net)) {
            let text = serde_json::to_string_pretty(&scales).expect("scales serialise") + "\n";
            files.push((CALIBRATION_FILE, text.into_bytes()));
        }
        let optimizer = Some(self.learner.optimizer_bytes());
        let generation = Generation { meta: &meta, net: &net, optimizer, files };
        Ok(checkpoint::save_generation(&self.dir, generation, self.config.run.keep.max(2))?)
    }

    fn record_metrics(&mut self, r: &GenerationReport) {
        // A generation that took no steps (the first of a run, or of a resume whose checkpoint kept no
        // replay window) has no losses: recording zeros would draw a false dip in the curves.
        let mut values = Vec::with_capacity(16);
        if let Some(mean) = &r.losses {
            values.extend([
                ("loss/policy", mean.policy),
                ("loss/value", mean.value),
                ("loss/value_accuracy", mean.value_accuracy),
            ]);
        }
        let samples = r.steps as f64 * self.config.optimizer.batch_size as f64;
        values.extend([
            ("selfplay/side0_win_rate", r.stats.wins[0]),
            ("selfplay/side1_win_rate", r.stats.wins[1]),
            ("selfplay/draw_rate", r.stats.draws),
            ("selfplay/game_length", r.stats.mean_plies),
            ("selfplay/teacher", if r.teacher { 1.0 } else { 0.0 }),
            ("speed/games_per_second", r.games as f64 / r.selfplay_seconds),
            ("speed/positions_per_second", r.new_positions as f64 / r.selfplay_seconds),
            ("speed/samples_per_second", samples / r.train_seconds.max(1e-9)),
            ("speed/cpu_share", r.cpu_share),
            ("progress/games", self.counters.games as f64),
            ("progress/replay_positions", self.replay.positions() as f64),
        ]);
        if let Some(exact) = r.exact {
            // Shares of the generation's samples: solved by a table, and relabelled by it.
            let new = r.new_positions.max(1) as f64;
            values.extend([
                ("exact/solved_share", exact.solved as f64 / new),
                ("exact/changed_share", exact.changed as f64 / new),
            ]);
        }
        self.metrics.record(r.generation, &values);
    }

    /// The generation's line on stderr.
    pub(super) fn log_line(&self, r: &GenerationReport) -> String {
        let names = self.games[0].side_names();
        let scores: String = r.scores.iter().map(|(name, s)| format!(", {name} {:.0}%", s * 100.0)).collect();
        let by = if r.teacher { " teacher" } else { "" };
        let losses = match &r.losses {
            Some(mean) => format!(", policy loss {:.3}, value loss {:.3}", mean.policy, mean.value),
            None => " (the replay window was empty)".to_string(),
        };
        let exact = match r.exact {
            Some(e) => {
                format!(", {} of {} samples solved, {} relabelled", e.solved, r.new_positions, e.changed)
            }
            None => String::new(),
        };
        let s = &r.stats;
        format!(
            "generation {}: {}{by} games ({:.1} plies, {} {:.0}% / {} {:.0}% / draws {:.0}%){exact}, {} steps{losses}, \
             {:.0} s, CPU {:.0}%{scores}",
            r.generation,
            r.games,
            s.mean_plies,
            names[0],
            s.wins[0] * 100.0,
            names[1],
            s.wins[1] * 100.0,
            s.draws * 100.0,
            r.steps,
            r.wall_seconds,
            r.cpu_share * 100.0,
        )
    }
}

/// The learner, counters and replay window of the run's last checkpoint, checked against the config.
fn resume<G: Family>(
    config: &TrainConfig,
    games: &[G],
    shape: NetShape,
    dir: &Path,
    replay: &mut ReplayBuffer,
) -> anyhow::Result<(Learner, Counters, Option<Scales>)> {
    let encoder = checkpoint::encoder_name(&games[0]);
    let saved = Checkpoint::open(dir).with_context(|| "nothing to resume")?;
    if saved.meta.shape != shape || saved.meta.encoder != encoder {
        bail!(
            "the checkpoint in {} is a {} network for {}; the config asks for {} on {}",
            saved.dir.display(),
            saved.meta.shape.tower,
            saved.meta.specs.join(", "),
            shape.tower,
            config.run.specs.join(", ")
        );
    }
    check_specs_extend(&saved, &config.run.specs)?;
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
        replay.load_jsonl(&replay_file, games).map_err(anyhow::Error::msg)?;
    }
    eprintln!(
        "resuming {} at generation {} ({} games played, {} in the replay window)",
        dir.display(),
        saved.meta.counters.generation,
        saved.meta.counters.games,
        replay.games()
    );
    Ok((learner, saved.meta.counters, read_scales(&saved)))
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
