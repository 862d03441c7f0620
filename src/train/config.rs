//! The training config file (TOML). Every section and key has a default except the run's name and
//! specs; unknown keys are errors, so a typo never silently trains with a default.

use crate::agents::spec::MAX_SIMULATIONS;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::agents::{AgentSpec, MctsSettings};
use crate::nn::{Precision, TowerSize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    pub run: RunConfig,
    #[serde(default)]
    pub network: NetworkConfig,
    #[serde(default)]
    pub selfplay: SelfPlayConfig,
    #[serde(default)]
    pub bootstrap: BootstrapConfig,
    #[serde(default)]
    pub replay: ReplayConfig,
    #[serde(default)]
    pub optimizer: OptimizerConfig,
    #[serde(default)]
    pub evaluation: EvaluationConfig,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// The run's folder under `checkpoint_dir`.
    pub name: String,
    /// Ruleset specs of one family; self-play games cycle through them, so one network learns them all
    /// (a spec listed twice gets twice the games), and evaluations through the distinct ones.
    pub specs: Vec<String>,
    #[serde(default = "defaults::seed")]
    pub seed: u64,
    /// Stop after this many minutes of training in total (over resumed sessions); 0: no limit.
    #[serde(default)]
    pub minutes: f64,
    /// Stop after this many generations in total; 0: no limit.
    #[serde(default)]
    pub generations: u64,
    #[serde(default = "defaults::checkpoint_dir")]
    pub checkpoint_dir: PathBuf,
    /// Saved generations kept on disk (the newest ones).
    #[serde(default = "defaults::keep")]
    pub keep: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NetworkConfig {
    pub size: TowerSize,
}

impl Default for NetworkConfig {
    fn default() -> NetworkConfig {
        NetworkConfig { size: TowerSize { blocks: 4, channels: 32 } }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SelfPlayConfig {
    pub games_per_generation: usize,
    /// Worker threads; each plays `concurrent_games` games at once and evaluates their leaves in one
    /// network batch.
    pub workers: usize,
    pub concurrent_games: usize,
    /// Simulations of a full search, whose move becomes a training sample.
    pub simulations: u32,
    /// Simulations of a fast search (KataGo's playout-cap randomisation), not recorded; 0 turns
    /// the randomisation off (every search is full).
    pub fast_simulations: u32,
    /// The share of moves searched fully when fast searches are on.
    pub full_search_share: f64,
    /// Leaves each game adds to a network batch.
    pub leaves_per_game: usize,
    pub c_puct: f32,
    /// Root Dirichlet noise of full searches.
    pub dirichlet_alpha: f64,
    pub dirichlet_share: f32,
    /// Moves are drawn ∝ visits for this many plies, then the most visited move is played.
    pub temperature_plies: u32,
    /// Gumbel AlphaZero's root search considering this many moves, in place of PUCT with Dirichlet
    /// noise at the root (`temperature_plies`, `dirichlet_*` then do nothing): moves are sampled by
    /// Gumbel-top-k and sequential halving, and the sample's policy is the improved policy; 0: off.
    pub gumbel_actions: u32,
    /// A side (`rebels`, `black`, …) that in half the games ([`super::selfplay::GameJob::explores`])
    /// draws every move in proportion to visits, not only its first `temperature_plies`: the other side
    /// meets the mistakes a weaker opponent makes and learns to punish them, where self-play between
    /// equals would teach it only that every position is lost. Empty: off.
    pub stray_side: String,
    /// The precision self-play and evaluation run the network at: `int8` (the default: the tower in 8
    /// bits, calibrated on the replay window, or on a resumed generation's saved scales while the
    /// window is empty, where the CPU has VNNI) or `f32`. The learner is f32 either way.
    pub precision: Precision,
}

impl Default for SelfPlayConfig {
    fn default() -> SelfPlayConfig {
        SelfPlayConfig {
            games_per_generation: 64,
            workers: 2,
            concurrent_games: 32,
            simulations: 160,
            fast_simulations: 32,
            full_search_share: 0.25,
            leaves_per_game: 8,
            c_puct: 1.5,
            dirichlet_alpha: 0.3,
            dirichlet_share: 0.25,
            temperature_plies: 16,
            gumbel_actions: 0,
            stray_side: String::new(),
            precision: Precision::Int8,
        }
    }
}

impl SelfPlayConfig {
    /// Whether the next move gets a full search and becomes a sample (playout-cap randomisation): always
    /// when fast searches are off, else with probability `full_search_share`.
    pub fn draw_full_search<R: rand::Rng>(&self, rng: &mut R) -> bool {
        use rand::RngExt;
        self.fast_simulations == 0 || rng.random::<f64>() < self.full_search_share
    }
}

/// Teacher games at the start of a run ([`super::teacher`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BootstrapConfig {
    /// Who plays the teacher games: a rollout MCTS agent (an `mcts:` spec), or `perfect`, best play by
    /// each spec's tablebase.
    pub teacher: String,
    /// The first this-many generations play teacher games instead of self-play; 0: none.
    pub generations: u64,
}

impl Default for BootstrapConfig {
    fn default() -> BootstrapConfig {
        BootstrapConfig { teacher: "mcts:sims=800".to_string(), generations: 0 }
    }
}

/// Who plays a run's teacher games.
#[derive(Clone, Debug, PartialEq)]
pub enum TeacherSpec {
    /// Rollout MCTS with these settings.
    Rollouts(MctsSettings),
    /// Best play by each spec's tablebase.
    Perfect,
}

impl BootstrapConfig {
    /// The teacher; `Err` names what is wrong with `teacher`.
    pub fn teacher_spec(&self) -> Result<TeacherSpec, String> {
        match AgentSpec::parse(&self.teacher) {
            Ok(AgentSpec::Mcts(settings)) => Ok(TeacherSpec::Rollouts(settings)),
            Ok(AgentSpec::Perfect { table: None }) => Ok(TeacherSpec::Perfect),
            Ok(AgentSpec::Perfect { table: Some(_) }) => {
                Err("bootstrap.teacher: `perfect` plays each spec by its own table; name no table file"
                    .to_string())
            }
            Ok(other) => {
                Err(format!("bootstrap.teacher must be a rollout `mcts:` agent or `perfect`, not `{other}`"))
            }
            Err(e) => Err(format!("bootstrap.teacher: {e}")),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReplayConfig {
    /// Games in the sliding window the learner samples from.
    pub window_games: usize,
    /// Augment with the board's mirror image where the rules allow it.
    pub mirror: bool,
    /// Value targets from the tablebase where one solves a sample's position, in place of its game's
    /// result (`train::exact`); the tables must be built first.
    pub exact_values: bool,
    /// With `exact_values`: a win or loss the table puts `d` plies away is labelled with weight
    /// ½ + ½·`exact_discount^d`, the rest a draw, so that values say how near a result is; 1: every win alike.
    pub exact_discount: f32,
}

impl Default for ReplayConfig {
    fn default() -> ReplayConfig {
        ReplayConfig { window_games: 1000, mirror: true, exact_values: false, exact_discount: 1.0 }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OptimizerConfig {
    pub batch_size: usize,
    pub learning_rate: f64,
    /// L2 regularisation (Adam's weight decay).
    pub weight_decay: f32,
    /// Training samples drawn per new position: steps per generation =
    /// new positions × this / batch size.
    pub reuse: f64,
    /// What the value head learns: the game's result as win/draw/loss classes, or only its score.
    pub value_target: ValueTarget,
}

/// The value loss: `wdl`, the cross-entropy of the predicted win/draw/loss probabilities (Leela Chess
/// Zero), or `scalar`, the squared error of predicted win minus loss against the result in {−1, 0, 1}
/// (AlphaZero); the network has the same three outputs either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueTarget {
    #[default]
    Wdl,
    Scalar,
}

impl Default for OptimizerConfig {
    fn default() -> OptimizerConfig {
        OptimizerConfig {
            batch_size: 256,
            learning_rate: 2e-3,
            weight_decay: 1e-4,
            reuse: 4.0,
            value_target: ValueTarget::Wdl,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvaluationConfig {
    /// Evaluate every this many generations; 0: never.
    pub every: u64,
    /// Games per opponent (seats alternate).
    pub games: usize,
    /// Simulations of the network agent in evaluation games.
    pub simulations: u32,
    /// Fixed opponents, as agent specs.
    pub baselines: Vec<String>,
    /// Also play the generation saved just before (the network this one replaces).
    pub previous: bool,
}

impl Default for EvaluationConfig {
    fn default() -> EvaluationConfig {
        EvaluationConfig {
            every: 5,
            games: 20,
            simulations: 100,
            baselines: vec!["mcts:sims=200".to_string()],
            previous: true,
        }
    }
}

mod defaults {
    use std::path::PathBuf;
    pub fn seed() -> u64 {
        1
    }
    pub fn checkpoint_dir() -> PathBuf {
        PathBuf::from("checkpoints")
    }
    pub fn keep() -> usize {
        2
    }
}

impl TrainConfig {
    /// Reads and checks a config file.
    pub fn load(path: &Path) -> anyhow::Result<TrainConfig> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read the training config {}: {e}", path.display()))?;
        TrainConfig::from_text(&text, &path.display().to_string())
    }

    /// Parses and checks a config's TOML text; `source` names it in errors.
    pub fn from_text(text: &str, source: &str) -> anyhow::Result<TrainConfig> {
        let config: TrainConfig =
            toml::from_str(text).map_err(|e| anyhow::anyhow!("{source}: {}", e.to_string().trim_end()))?;
        config.check().map_err(|e| anyhow::anyhow!("{source}: {e}"))?;
        Ok(config)
    }

    /// Range checks the TOML types cannot express.
    pub fn check(&self) -> Result<(), String> {
        let name_ok = !self.run.name.is_empty()
            && self.run.name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            && !self.run.name.starts_with('.');
        let checks: [(bool, &str); 13] = [
            (name_ok, "run.name must be a plain folder name (letters, digits, - _ .)"),
            (!self.run.specs.is_empty(), "run.specs must name at least one ruleset spec"),
            (self.run.minutes >= 0.0 && self.run.minutes.is_finite(), "run.minutes must be ≥ 0"),
            (self.run.keep >= 1, "run.keep must be ≥ 1"),
            (self.selfplay.games_per_generation >= 1, "selfplay.games_per_generation must be ≥ 1"),
            ((1..=64).contains(&self.selfplay.workers), "selfplay.workers must be 1 to 64"),
            (
                self.selfplay.concurrent_games >= 1 && self.selfplay.leaves_per_game >= 1,
                "selfplay.concurrent_games and leaves_per_game must be ≥ 1",
            ),
            (
                (1..=MAX_SIMULATIONS).contains(&self.selfplay.simulations)
                    && self.selfplay.fast_simulations <= MAX_SIMULATIONS
                    && self.evaluation.simulations <= MAX_SIMULATIONS,
                "selfplay.simulations must be in 1..=10000000 (and fast_simulations and \
                 evaluation.simulations at most that)",
            ),
            (
                (0.0..=1.0).contains(&self.selfplay.full_search_share),
                "selfplay.full_search_share must be in 0..=1",
            ),
            (self.replay.window_games >= 1, "replay.window_games must be ≥ 1"),
            (
                self.replay.exact_discount > 0.0 && self.replay.exact_discount <= 1.0,
                "replay.exact_discount must be in (0, 1]",
            ),
            (
                self.optimizer.batch_size >= 1 && self.optimizer.learning_rate > 0.0,
                "optimizer.batch_size and learning_rate must be > 0",
            ),
            (self.optimizer.reuse > 0.0, "optimizer.reuse must be > 0"),
        ];
        if let Some((_, problem)) = checks.iter().find(|(ok, _)| !ok) {
            return Err(problem.to_string());
        }
        self.bootstrap.teacher_spec()?;
        for baseline in &self.evaluation.baselines {
            AgentSpec::parse(baseline).map_err(|e| format!("evaluation.baselines: {e}"))?;
        }
        Ok(())
    }

    /// The run's folder.
    pub fn run_dir(&self) -> PathBuf {
        self.run.checkpoint_dir.join(&self.run.name)
    }
}

/// A run continues on the specs it was trained on, and may add more after them (a board whose table
/// is built later, say): its saved games name their specs by index, so none may be dropped or moved.
pub(super) fn check_specs_extend(saved: &crate::nn::Checkpoint, specs: &[String]) -> anyhow::Result<()> {
    if !specs.starts_with(&saved.meta.specs) {
        anyhow::bail!(
            "{} was trained on specs [{}]; the config must name them first, in that order (it may add \
             specs after them), but names [{}]",
            saved.dir.display(),
            saved.meta.specs.join(", "),
            specs.join(", ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TrainConfig, String> {
        let config: TrainConfig = toml::from_str(text).map_err(|e| e.to_string())?;
        config.check()?;
        Ok(config)
    }

    #[test]
    fn a_minimal_config_takes_every_default() {
        let config = parse("[run]\nname = \"x\"\nspecs = [\"sixteen-rebels\"]\n").unwrap();
        assert_eq!(config.selfplay, SelfPlayConfig::default());
        assert_eq!(config.network.size.to_string(), "b4c32");
        assert_eq!(config.run.seed, 1);
    }

    #[test]
    fn unknown_keys_and_bad_values_are_errors() {
        let base = "[run]\nname = \"x\"\nspecs = [\"sixteen-rebels\"]\n";
        let cases = [
            (format!("{base}[selfplay]\nsimulation = 5\n"), "simulation"),
            (format!("{base}[network]\nsize = \"big\"\n"), "b<blocks>c<channels>"),
            (format!("{base}[optimizer]\nbatch_size = 0\n"), "batch_size"),
            (format!("{base}[optimizer]\nvalue_target = \"mse\"\n"), "wdl"),
            (format!("{base}[evaluation]\nbaselines = [\"mcts:sim=5\"]\n"), "sim"),
            (
                format!("{base}[bootstrap]\nteacher = \"random\"\n"),
                "must be a rollout `mcts:` agent or `perfect`",
            ),
            (format!("{base}[bootstrap]\nteacher = \"perfect:table=t.rztb\"\n"), "name no table file"),
            (format!("{base}[bootstrap]\nteacher = \"mcts:sims=x\"\n"), "bootstrap.teacher"),
            (format!("{base}[bootstrap]\ngames = 3\n"), "games"),
            (format!("{base}[replay]\nexact_discount = 0\n"), "exact_discount must be in (0, 1]"),
            (format!("{base}[replay]\nexact_discount = 1.5\n"), "exact_discount must be in (0, 1]"),
            ("[run]\nname = \"../x\"\nspecs = [\"a\"]\n".to_string(), "plain folder name"),
            ("[run]\nspecs = [\"a\"]\n".to_string(), "name"),
        ];
        for (text, needle) in cases {
            let error = parse(&text).unwrap_err();
            assert!(error.contains(needle), "{text}: {error}");
        }
    }
}
