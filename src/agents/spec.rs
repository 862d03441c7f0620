//! Agent specs: `random`, `mcts:sims=800,c=1.5,temp=0,batch=1`, `net:path=checkpoints/x,sims=200`,
//! `ab:depth=8`, `perfect`, `human`. Command-line text is turned here, once, into a checked [`AgentSpec`]; building an agent
//! from it fails only when a network's checkpoint cannot be read or does not fit the game.
//!
//! A new kind of agent is one entry in [`KNOWN_AGENTS`], one variant of [`AgentSpec`], and one arm in
//! [`AgentSpec::parse`], [`AgentSpec::build`] and `Display`.

use std::fmt;
use std::path::Path;

use super::Agent;
use super::mcts::{MctsAgent, SearchSettings};
use super::perfect::PerfectAgent;
use super::random::RandomAgent;
use crate::family::Family;
use crate::family::{has_hand_evaluation, hunt_of};
use crate::game::AnyGame;
use crate::game::playout::RolloutPolicy;
use crate::nn::{NetEvaluator, Precision, load_for_inference};
use crate::search::{RolloutEvaluator, SearchConfig};
use crate::seed::derive_seed;
use crate::tablebase::{CachedTable, cached_table};
use crate::with_game;

/// Every agent name with its keys, for help texts and error messages.
pub const KNOWN_AGENTS: &[(&str, &str)] = &[
    ("random", "uniformly random legal moves"),
    (
        "mcts",
        "rollout MCTS; keys sims=N (default 800), c=PUCT constant (1.5), temp=T (0), open=P (0: the \
         first P plies of a game are drawn in proportion to visits), contempt=D (0: a draw is worth \
         −D to this agent, so it plays for a win against a weaker opponent), batch=B (1), \
         rollout=decisive|uniform (decisive: take a win in one when there is one)",
    ),
    (
        "net",
        "network-guided MCTS; keys path=CHECKPOINT (required: a run folder such as \
         checkpoints/sixteen-rebels, or one generation folder; path=shipped plays each board with its \
         shipped network), sims=N (200), c (1.5), temp (0), open (0), \
         contempt (0), batch (8), precision=int8|f32 (int8: the tower in 8 bits on CPUs with VNNI, f32 \
         elsewhere; f32 throughout when asked)",
    ),
    (
        "ab",
        "alpha-beta search (iterative deepening, PVS, transposition table, quiescence); keys \
         depth=N, nodes=N (1000000 when no budget is given), ms=M per move, hash=MB (32), net=CHECKPOINT \
         (leaves evaluated by that network's value head; by default the game's own evaluation, chess, or \
         material)",
    ),
    (
        "perfect",
        "best play from the tablebase (sixteen-rebels only): the shortest win, else a draw, else the \
         longest loss; key table=FILE (default: the file `rebel-zero solve` writes for the rules)",
    ),
    ("human", "moves typed at the terminal (rebel-zero play only)"),
];

/// Leaves a network agent evaluates per batch unless its spec says `batch=`.
const NET_BATCH: usize = 8;

/// The networks the project ships, one per board (checkpoints/README.md).
pub const SHIPPED_NETWORKS: &[&str] = &[
    "checkpoints/sixteen-rebels",
    "checkpoints/juroku-musashi",
    "checkpoints/twenty-six-rebels",
    "checkpoints/imperial-contest",
    "checkpoints/chess",
];

/// The most simulations a search may be asked for: each costs a tree node (about 100 bytes with its
/// edges), so ten million stay within a few GB, and more would run for hours per move anyway.
pub const MAX_SIMULATIONS: u32 = 10_000_000;

const MCTS_KEYS: &str = "sims, c, temp, open, contempt, batch, rollout";
const NET_KEYS: &str = "path, sims, c, temp, open, contempt, batch, precision";

/// A checked agent spec.
///
/// ```
/// use rebel_zero::agents::{AgentSpec, play_game};
/// use rebel_zero::game::{AnyGame, Playthrough};
///
/// let spec = AgentSpec::parse("mcts:sims=50").unwrap();
/// // Its canonical text (every default written out) is what records and study cells keep.
/// assert_eq!(AgentSpec::parse(&spec.to_string()).unwrap(), spec);
/// assert!(AgentSpec::parse("mcts:sims=fifty").is_err());
///
/// let AnyGame::Hunt(game) = AnyGame::from_spec("neeley-rebels").unwrap() else { unreachable!() };
/// let mut general = spec.build(&game, 1).unwrap();
/// let mut rebels = AgentSpec::parse("random").unwrap().build(&game, 2).unwrap();
/// let line = play_game(Playthrough::new(game.clone()), [general.as_mut(), rebels.as_mut()]);
/// assert!(line.is_over());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    Random,
    Mcts(MctsSettings),
    Net(NetSettings),
    /// Alpha-beta search ([`super::alphabeta`]).
    Ab(super::alphabeta::AbSettings),
    /// Best play by the tablebase in this file, or in the default one for the game's rules.
    Perfect {
        table: Option<String>,
    },
    Human,
}

impl AgentSpec {
    /// The first plies of each game sampled in proportion to the agent's visit counts (`open=`), for
    /// the agents that search; the others unchanged.
    pub fn with_visit_opening(&self, plies: u32) -> AgentSpec {
        let mut spec = self.clone();
        match &mut spec {
            AgentSpec::Mcts(MctsSettings { search, .. }) | AgentSpec::Net(NetSettings { search, .. }) => {
                search.opening = plies
            }
            _ => {}
        }
        spec
    }

    /// The same agent searching `simulations` per move (agents that do not search are unchanged).
    pub fn with_simulations(&self, simulations: u32) -> AgentSpec {
        let mut spec = self.clone();
        if let AgentSpec::Mcts(MctsSettings { search, .. }) | AgentSpec::Net(NetSettings { search, .. }) =
            &mut spec
        {
            search.simulations = simulations;
        }
        spec
    }

    /// The plies of each game this agent samples from its visit counts (`open=`).
    pub fn visit_opening(&self) -> u32 {
        match self {
            AgentSpec::Mcts(MctsSettings { search, .. }) | AgentSpec::Net(NetSettings { search, .. }) => {
                search.opening
            }
            _ => 0,
        }
    }
}

/// The network agent's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct NetSettings {
    /// A checkpoint: a run folder (its latest generation) or a generation folder.
    pub path: String,
    pub search: SearchSettings,
    /// The tower in 8 bits (the default) or f32 ([`crate::nn::int8`]). The canonical spec always
    /// names it; see [`AgentSpec::print_form`] for the form that names f32 by its absence.
    pub precision: Precision,
}

/// The `path` of a network agent that plays each board with the network the project ships for it
/// (`net:path=shipped`): one rung of a study whose variants span boards (Juroku Musashi beside Chinese
/// Rebels) then plays each variant with its own board's network, at the same search.
pub const SHIPPED_PATH: &str = "shipped";

impl NetSettings {
    /// The checkpoint's folder: `path` from the current folder, else (a shipped network such as
    /// `checkpoints/sixteen-rebels`, asked for from elsewhere) beside the binary or in its source tree.
    /// For `path=shipped`, which names no one folder, see [`NetSettings::checkpoint_for`].
    pub fn checkpoint_dir(&self) -> std::path::PathBuf {
        crate::files::find_shipped(Path::new(&self.path))
    }

    /// The checkpoint this agent plays `game` with: [`NetSettings::checkpoint_dir`], or for
    /// `path=shipped` the shipped network of `game`'s board (an error naming the game where the
    /// project ships none).
    pub fn checkpoint_for<G: Family>(&self, game: &G) -> Result<std::path::PathBuf, String> {
        if self.path != SHIPPED_PATH {
            return Ok(self.checkpoint_dir());
        }
        shipped_network(game).map(|path| crate::files::find_shipped(Path::new(path))).ok_or_else(|| {
            format!(
                "path=shipped: the project ships no network for `{}` (its networks: {})",
                game.spec(),
                SHIPPED_NETWORKS.join(", ")
            )
        })
    }
}

/// A canonical agent spec in its print form ([`AgentSpec::print_form`]): f32 named by leaving the
/// precision out.
pub fn print_form_of(canonical: &str) -> &str {
    canonical.strip_suffix(",precision=f32").unwrap_or(canonical)
}

/// The shipped network that plays `game`'s board, as [`SHIPPED_NETWORKS`] names it, if any.
pub fn shipped_network<G: Family>(game: &G) -> Option<&'static str> {
    SHIPPED_NETWORKS.iter().copied().find(|path| {
        crate::nn::Checkpoint::open(&crate::files::find_shipped(Path::new(path)))
            .is_ok_and(|checkpoint| checkpoint.check_game(game).is_ok())
    })
}

/// The rollout MCTS agent's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsSettings {
    pub search: SearchSettings,
    pub rollout: RolloutPolicy,
}

impl Default for MctsSettings {
    fn default() -> MctsSettings {
        let search = SearchConfig::default();
        MctsSettings {
            search: SearchSettings::with_simulations_and_batch(search.simulations, search.batch),
            rollout: RolloutPolicy::Decisive,
        }
    }
}

/// What is wrong with an agent spec.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum AgentError {
    #[error("unknown agent `{name}`; known agents: {known}")]
    Unknown { name: String, known: String },
    #[error("agent `{agent}` has no option `{key}`; its options are: {allowed}")]
    UnknownKey { agent: String, key: String, allowed: String },
    #[error("agent `{agent}` takes no options (got `{options}`)")]
    NoOptions { agent: String, options: String },
    #[error("agent `{agent}`: `{part}` is not of the form key=value")]
    Malformed { agent: String, part: String },
    #[error("agent `{agent}`: bad value `{key}={value}`: {key} must be {expected}")]
    BadValue { agent: String, key: String, value: String, expected: String },
    #[error("agent `{agent}`: option `{key}` is given twice")]
    Repeated { agent: String, key: String },
    #[error("the human agent can only play in `rebel-zero play`")]
    HumanNotHere,
    #[error(
        "agent `net` needs `path=` naming a checkpoint, e.g. net:path=checkpoints/sixteen-rebels,sims=200"
    )]
    NetWithoutPath,
    #[error("agent `{agent}`: {problem}")]
    Checkpoint { agent: String, problem: String },
    #[error("agent `{agent}`: {problem}")]
    Memory { agent: String, problem: crate::search::alphabeta::table::TableTooBig },
    #[error("agent `perfect`: {problem}")]
    Table { problem: String },
    #[error("an opening of the book does not play: {problem}")]
    Opening { problem: String },
    #[error("game {game} of the match failed inside an agent: {problem}")]
    Crashed { game: usize, problem: String },
}

fn known_agents() -> String {
    KNOWN_AGENTS.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", ")
}

impl AgentSpec {
    /// Reads `NAME` or `NAME:key=value,…`.
    pub fn parse(text: &str) -> Result<AgentSpec, AgentError> {
        let text = text.trim();
        let (name, options) = match text.split_once(':') {
            Some((name, options)) => (name.trim(), Some(options)),
            None => (text, None),
        };
        let pairs = split_options(name, options.unwrap_or(""))?;
        let no_options = |spec: AgentSpec| match options {
            Some(options) if !options.trim().is_empty() => {
                Err(AgentError::NoOptions { agent: name.to_string(), options: options.trim().to_string() })
            }
            _ => Ok(spec),
        };
        match name {
            "random" => no_options(AgentSpec::Random),
            "human" => no_options(AgentSpec::Human),
            "mcts" => parse_mcts(&pairs).map(AgentSpec::Mcts),
            "net" => parse_net(&pairs).map(AgentSpec::Net),
            "ab" => super::alphabeta::parse(&pairs).map(AgentSpec::Ab),
            "perfect" => parse_perfect(&pairs),
            _ => Err(AgentError::Unknown { name: name.to_string(), known: known_agents() }),
        }
    }

    /// The spec as behaviour fingerprints and book keys name it: the canonical spec, less
    /// `,precision=f32`. Until 8 bits became the default (2026-11-28) a network spec named f32 by
    /// leaving the precision out, and every fingerprint and key recorded then hashed that text; an f32
    /// network keeps them, and an 8-bit one (always named) can never take them.
    pub fn print_form(&self) -> String {
        print_form_of(&self.to_string()).to_string()
    }

    pub fn is_human(&self) -> bool {
        matches!(self, AgentSpec::Human)
    }

    /// A network agent on the checkpoint at `path` searching `simulations` per move, its first
    /// `opening` plies sampled from its visit counts; the other settings those of a `net:` spec.
    pub fn net(path: &Path, simulations: u32, opening: u32, precision: Precision) -> AgentSpec {
        let search =
            SearchSettings { opening, ..SearchSettings::with_simulations_and_batch(simulations, NET_BATCH) };
        AgentSpec::Net(NetSettings { path: path.display().to_string(), search, precision })
    }

    /// The strongest agent the project ships for `game`: best play where its tablebase has been built
    /// (`rebel-zero solve`); for a family with a hand evaluation (chess) the alpha-beta search at a
    /// second a move (docs/BENCHMARKS.md measures it on Stockfish's scale); else the shipped network of its board at
    /// 400 simulations, else rollout MCTS at 2000 simulations.
    pub fn strongest_shipped(game: &AnyGame) -> AgentSpec {
        if hunt_of(game).is_some_and(|hunt| matches!(cached_table(hunt), CachedTable::Built(_))) {
            AgentSpec::Perfect { table: None }
        } else if has_hand_evaluation(game) {
            AgentSpec::Ab(super::alphabeta::AbSettings { ms: Some(1000), ..Default::default() })
        } else {
            AgentSpec::strongest_searcher(game)
        }
    }

    /// The strongest shipped agent that searches (and so can show what it thought of each move): the
    /// shipped network of `game`'s board at 400 simulations, else rollout MCTS at 2000.
    pub fn strongest_searcher(game: &AnyGame) -> AgentSpec {
        match with_game!(game, |g| shipped_network(g)) {
            Some(path) => AgentSpec::net(Path::new(path), 400, 0, Precision::default()),
            None => AgentSpec::parse("mcts:sims=2000").expect("a valid built-in spec"),
        }
    }

    /// The agent for `game`, its randomness drawn from `seed`. The human is not an [`Agent`]: the
    /// `play` command reads its moves itself.
    pub fn build<G: Family>(&self, game: &G, seed: u64) -> Result<Box<dyn Agent<G>>, AgentError> {
        match self {
            AgentSpec::Random => Ok(Box::new(RandomAgent::new(seed))),
            AgentSpec::Mcts(settings) => {
                let evaluator = RolloutEvaluator::new(settings.rollout, derive_seed(seed, 1));
                Ok(Box::new(MctsAgent::new(game.clone(), &settings.search, evaluator, seed)))
            }
            AgentSpec::Net(settings) => {
                let problem = |problem: String| AgentError::Checkpoint { agent: self.to_string(), problem };
                let dir = settings.checkpoint_for(game).map_err(problem)?;
                let net =
                    load_for_inference(&dir, game, settings.precision).map_err(|e| problem(e.to_string()))?;
                let evaluator = NetEvaluator::new(game, net);
                Ok(Box::new(MctsAgent::new(game.clone(), &settings.search, evaluator, seed)))
            }
            AgentSpec::Ab(settings) => {
                Ok(Box::new(super::alphabeta::AbAgent::build(game, settings, &self.to_string())?))
            }
            AgentSpec::Perfect { table } => PerfectAgent::build(game, table.as_deref(), seed),
            AgentSpec::Human => Err(AgentError::HumanNotHere),
        }
    }
}

/// The canonical spec, every option written out (`mcts:sims=800,c=1.5,temp=0,batch=1,rollout=decisive`).
impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => write!(f, "random"),
            AgentSpec::Human => write!(f, "human"),
            AgentSpec::Mcts(s) => {
                let rollout = match s.rollout {
                    RolloutPolicy::Decisive => "decisive",
                    RolloutPolicy::Uniform => "uniform",
                };
                write!(f, "mcts:{},rollout={rollout}", s.search)
            }
            AgentSpec::Net(s) => {
                write!(f, "net:path={},{},precision={}", s.path, s.search, s.precision.as_str())
            }
            AgentSpec::Ab(s) => write!(f, "ab:{s}"),
            AgentSpec::Perfect { table: None } => write!(f, "perfect"),
            AgentSpec::Perfect { table: Some(path) } => write!(f, "perfect:table={path}"),
        }
    }
}

fn split_options<'a>(agent: &str, options: &'a str) -> Result<Vec<(&'a str, &'a str)>, AgentError> {
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for part in options.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .filter(|(k, v)| !k.is_empty() && !v.is_empty())
            .ok_or_else(|| AgentError::Malformed { agent: agent.to_string(), part: part.to_string() })?;
        if pairs.iter().any(|&(k, _)| k == key) {
            return Err(AgentError::Repeated { agent: agent.to_string(), key: key.to_string() });
        }
        pairs.push((key, value));
    }
    Ok(pairs)
}

/// Reads the search options `mcts` and `net` share into `settings`.
struct SearchOptions<'a> {
    agent: &'static str,
    allowed: &'static str,
    settings: &'a mut SearchSettings,
}

impl SearchOptions<'_> {
    /// Reads every pair: a search option, else a key `extra` takes (returning `Ok(true)`), else an
    /// unknown key.
    fn read_all(
        mut self,
        pairs: &[(&str, &str)],
        mut extra: impl FnMut(&str, &str) -> Result<bool, AgentError>,
    ) -> Result<(), AgentError> {
        for &(key, value) in pairs {
            if !self.read(key, value)? && !extra(key, value)? {
                return Err(AgentError::UnknownKey {
                    agent: self.agent.to_string(),
                    key: key.to_string(),
                    allowed: self.allowed.to_string(),
                });
            }
        }
        Ok(())
    }

    /// Reads one `key=value`; `Ok(false)` when the key is not a search option.
    fn read(&mut self, key: &str, value: &str) -> Result<bool, AgentError> {
        let bad = |expected: &str| AgentError::BadValue {
            agent: self.agent.to_string(),
            key: key.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        };
        let non_negative = || value.parse().ok().filter(|x: &f32| x.is_finite() && *x >= 0.0);
        let s = &mut *self.settings;
        match key {
            "sims" => {
                s.simulations = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_SIMULATIONS).contains(n))
                    .ok_or_else(|| bad(&format!("an integer 1..{MAX_SIMULATIONS}")))?
            }
            "batch" => {
                s.batch = value
                    .parse()
                    .ok()
                    .filter(|&n| (1..=4096).contains(&n))
                    .ok_or_else(|| bad("an integer 1..4096"))?
            }
            "c" => s.c_puct = non_negative().ok_or_else(|| bad("a number ≥ 0"))?,
            "temp" => s.temperature = non_negative().ok_or_else(|| bad("a number ≥ 0"))?,
            "open" => s.opening = value.parse().map_err(|_| bad("a number of plies ≥ 0"))?,
            "contempt" => {
                s.contempt =
                    non_negative().filter(|&d| d <= 1.0).ok_or_else(|| bad("a number from 0 to 1"))?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

fn parse_mcts(pairs: &[(&str, &str)]) -> Result<MctsSettings, AgentError> {
    let mut settings = MctsSettings::default();
    let mut rollout = settings.rollout;
    let options = SearchOptions { agent: "mcts", allowed: MCTS_KEYS, settings: &mut settings.search };
    options.read_all(pairs, |key, value| match key {
        "rollout" => {
            rollout = match value {
                "decisive" => RolloutPolicy::Decisive,
                "uniform" => RolloutPolicy::Uniform,
                _ => {
                    return Err(AgentError::BadValue {
                        agent: "mcts".to_string(),
                        key: key.to_string(),
                        value: value.to_string(),
                        expected: "decisive or uniform".to_string(),
                    });
                }
            };
            Ok(true)
        }
        _ => Ok(false),
    })?;
    settings.rollout = rollout;
    Ok(settings)
}

fn parse_perfect(pairs: &[(&str, &str)]) -> Result<AgentSpec, AgentError> {
    let mut table = None;
    for &(key, value) in pairs {
        if key != "table" {
            let (agent, allowed) = ("perfect".to_string(), "table".to_string());
            return Err(AgentError::UnknownKey { agent, key: key.to_string(), allowed });
        }
        table = Some(value.to_string());
    }
    Ok(AgentSpec::Perfect { table })
}

fn parse_net(pairs: &[(&str, &str)]) -> Result<NetSettings, AgentError> {
    let mut settings = NetSettings {
        path: String::new(),
        search: SearchSettings::with_simulations_and_batch(200, NET_BATCH),
        precision: Precision::default(),
    };
    let (mut path, mut precision) = (None, Precision::default());
    let options = SearchOptions { agent: "net", allowed: NET_KEYS, settings: &mut settings.search };
    options.read_all(pairs, |key, value| match key {
        "path" => {
            path = Some(value.to_string());
            Ok(true)
        }
        "precision" => {
            precision = match value {
                "int8" => Precision::Int8,
                "f32" => Precision::F32,
                _ => {
                    return Err(AgentError::BadValue {
                        agent: "net".to_string(),
                        key: key.to_string(),
                        value: value.to_string(),
                        expected: "int8 or f32".to_string(),
                    });
                }
            };
            Ok(true)
        }
        _ => Ok(false),
    })?;
    settings.path = path.ok_or(AgentError::NetWithoutPath)?;
    settings.precision = precision;
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print_canonically() {
        assert_eq!(AgentSpec::parse("random").unwrap(), AgentSpec::Random);
        assert_eq!(AgentSpec::parse(" human ").unwrap(), AgentSpec::Human);
        let spec = AgentSpec::parse("mcts:sims=50, temp=1,c=2.5,batch=4,rollout=uniform").unwrap();
        let search = SearchSettings {
            simulations: 50,
            c_puct: 2.5,
            temperature: 1.0,
            opening: 0,
            contempt: 0.0,
            batch: 4,
        };
        let expected = MctsSettings { search, rollout: RolloutPolicy::Uniform };
        assert_eq!(spec, AgentSpec::Mcts(expected));
        assert_eq!(spec.to_string(), "mcts:sims=50,c=2.5,temp=1,batch=4,rollout=uniform");
        assert_eq!(AgentSpec::parse(&spec.to_string()).unwrap(), spec);
        assert_eq!(AgentSpec::parse("mcts").unwrap(), AgentSpec::Mcts(MctsSettings::default()));
        // `open` and `contempt` are written only when set, so specs recorded before they existed keep
        // their text.
        let net = AgentSpec::parse("net:sims=50,open=8,path=runs/x").unwrap();
        assert_eq!(net.to_string(), "net:path=runs/x,sims=50,c=1.5,temp=0,open=8,batch=8,precision=int8");
        assert_eq!(AgentSpec::parse(&net.to_string()).unwrap(), net);
        // 8 bits are the default; the canonical spec always names the precision.
        let net = AgentSpec::parse("net:path=runs/x").unwrap();
        assert_eq!(net, AgentSpec::parse("net:path=runs/x,precision=int8").unwrap());
        assert_eq!(net.to_string(), "net:path=runs/x,sims=200,c=1.5,temp=0,batch=8,precision=int8");
        assert_eq!(net.print_form(), net.to_string());
        let f32 = AgentSpec::parse("net:path=runs/x,precision=f32").unwrap();
        assert_eq!(f32.to_string(), "net:path=runs/x,sims=200,c=1.5,temp=0,batch=8,precision=f32");
        assert_eq!(AgentSpec::parse(&f32.to_string()).unwrap(), f32);
        // The print form names f32 by its absence, as every spec recorded before 8 bits were the default.
        assert_eq!(f32.print_form(), "net:path=runs/x,sims=200,c=1.5,temp=0,batch=8");
        assert_ne!(f32.print_form(), net.print_form());
        let net = AgentSpec::parse("net:contempt=0.25,path=runs/x").unwrap();
        assert_eq!(
            net.to_string(),
            "net:path=runs/x,sims=200,c=1.5,temp=0,contempt=0.25,batch=8,precision=int8"
        );
        assert_eq!(AgentSpec::parse(&net.to_string()).unwrap(), net);
    }

    #[test]
    fn bad_specs_name_the_problem_and_what_is_allowed() {
        let cases = [
            ("alphazero", &["alphazero", "random, mcts, net, ab, perfect, human"][..]),
            ("perfect:depth=3", &["depth", "table"]),
            ("perfect:table=x,depth=3", &["depth", "table"]),
            ("", &["known agents"]),
            ("mcts:simulations=5", &["simulations", "sims, c, temp, open, contempt, batch, rollout"]),
            ("net:path=x,open=-2", &["open=-2", "plies"]),
            ("net:path=x,contempt=1.5", &["contempt=1.5", "from 0 to 1"]),
            ("net:path=x,precision=int4", &["precision=int4", "int8 or f32"]),
            ("mcts:contempt=-0.1", &["contempt=-0.1"]),
            ("mcts:rollout=smart", &["rollout=smart", "decisive or uniform"]),
            ("mcts:sims=0", &["sims=0", "1..10000000"]),
            ("mcts:sims=4294967295", &["sims=4294967295", "1..10000000"]),
            ("mcts:sims=many", &["sims=many"]),
            ("mcts:c=-1", &["c=-1"]),
            ("mcts:temp=nan", &["temp=nan"]),
            ("mcts:sims", &["`sims`", "key=value"]),
            ("mcts:sims=5,sims=6", &["twice"]),
            ("random:sims=5", &["takes no options"]),
        ];
        for (text, needles) in cases {
            let message = AgentSpec::parse(text).unwrap_err().to_string();
            for needle in needles {
                assert!(message.contains(needle), "`{text}`: {message}");
            }
        }
    }

    #[test]
    fn the_human_is_not_built_as_an_agent() {
        let game = crate::game::AnyGame::from_spec("sixteen-rebels").unwrap();
        crate::with_game!(&game, |g| {
            assert!(AgentSpec::Human.build(g, 1).is_err());
            assert!(AgentSpec::Random.build(g, 1).is_ok());
        });
    }

    /// `path=shipped` plays each board with its own shipped network, and names the game it has none
    /// for.
    #[test]
    fn the_shipped_path_finds_each_boards_network() {
        let AgentSpec::Net(shipped) = AgentSpec::parse("net:path=shipped,sims=8").unwrap() else {
            panic!("a network spec")
        };
        for (spec, folder) in [
            ("sixteen-rebels:first=rebels", "checkpoints/sixteen-rebels"),
            ("juroku-musashi:triangle=closed", "checkpoints/juroku-musashi"),
            ("twenty-six-rebels-alt", "checkpoints/twenty-six-rebels"),
        ] {
            let game = AnyGame::from_spec(spec).unwrap();
            let dir = crate::with_game!(&game, |g| shipped.checkpoint_for(g)).unwrap();
            assert!(dir.ends_with(folder), "{spec}: {}", dir.display());
        }
        let rules = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/rules/four-by-four.toml");
        let game = AnyGame::from_spec(&format!("file:{rules}")).unwrap();
        let problem = crate::with_game!(&game, |g| shipped.checkpoint_for(g)).unwrap_err();
        assert!(problem.contains("ships no network") && problem.contains("four-by-four"), "{problem}");
        // A named folder is that folder, whatever the game.
        let AgentSpec::Net(named) = AgentSpec::parse("net:path=checkpoints/chess").unwrap() else {
            panic!("a network spec")
        };
        let dir = crate::with_game!(&game, |g| named.checkpoint_for(g)).unwrap();
        assert!(dir.ends_with("checkpoints/chess"));
    }
}
