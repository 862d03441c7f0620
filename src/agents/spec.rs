//! Agent specs: `random`, `mcts:sims=800,c=1.5,temp=0,batch=1`, `human`. Command-line text is turned
//! here, once, into a checked [`AgentSpec`]; building an agent from it cannot fail for a game.
//!
//! A new kind of agent (the `nn` layer's `net:path=…,sims=N`) is one entry in [`KNOWN_AGENTS`], one
//! variant of [`AgentSpec`], and one arm in [`AgentSpec::parse`], [`AgentSpec::build`] and `Display`.

use std::fmt;

use super::Agent;
use super::mcts::MctsAgent;
use super::random::RandomAgent;
use crate::game::Game;
use crate::game::playout::RolloutPolicy;
use crate::search::SearchConfig;

/// Every agent name with its keys, for help texts and error messages.
pub const KNOWN_AGENTS: &[(&str, &str)] = &[
    ("random", "uniformly random legal moves"),
    (
        "mcts",
        "rollout MCTS; keys sims=N (default 800), c=PUCT constant (1.5), temp=T (0), batch=B (1), \
         rollout=decisive|uniform (decisive: take a win in one when there is one)",
    ),
    ("human", "moves typed at the terminal (rebel-zero play only)"),
];

const MCTS_KEYS: &str = "sims, c, temp, batch, rollout";

/// A checked agent spec.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    Random,
    Mcts(MctsSettings),
    Human,
}

/// The rollout MCTS agent's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsSettings {
    pub simulations: u32,
    pub c_puct: f32,
    /// Temperature of the final move choice (0: the most visited move).
    pub temperature: f32,
    pub batch: usize,
    pub rollout: RolloutPolicy,
}

impl Default for MctsSettings {
    fn default() -> MctsSettings {
        let search = SearchConfig::default();
        MctsSettings {
            simulations: search.simulations,
            c_puct: search.c_puct,
            temperature: 0.0,
            batch: search.batch,
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
            _ => Err(AgentError::Unknown { name: name.to_string(), known: known_agents() }),
        }
    }

    pub fn is_human(&self) -> bool {
        matches!(self, AgentSpec::Human)
    }

    /// The agent for `game`, its randomness drawn from `seed`. The human is not an [`Agent`]: the
    /// `play` command reads its moves itself.
    pub fn build<G: Game>(&self, game: &G, seed: u64) -> Result<Box<dyn Agent<G>>, AgentError> {
        match self {
            AgentSpec::Random => Ok(Box::new(RandomAgent::new(seed))),
            AgentSpec::Mcts(settings) => {
                let config = SearchConfig {
                    simulations: settings.simulations,
                    c_puct: settings.c_puct,
                    batch: settings.batch,
                    ..SearchConfig::default()
                };
                Ok(Box::new(MctsAgent::new(
                    game.clone(),
                    config,
                    settings.rollout,
                    settings.temperature,
                    seed,
                )))
            }
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
                write!(
                    f,
                    "mcts:sims={},c={},temp={},batch={},rollout={}",
                    s.simulations,
                    s.c_puct,
                    s.temperature,
                    s.batch,
                    match s.rollout {
                        RolloutPolicy::Decisive => "decisive",
                        RolloutPolicy::Uniform => "uniform",
                    }
                )
            }
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

fn parse_mcts(pairs: &[(&str, &str)]) -> Result<MctsSettings, AgentError> {
    let mut settings = MctsSettings::default();
    for &(key, value) in pairs {
        let bad = |expected: &str| AgentError::BadValue {
            agent: "mcts".to_string(),
            key: key.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        };
        match key {
            "sims" => {
                settings.simulations =
                    value.parse().ok().filter(|&n| n >= 1).ok_or_else(|| bad("an integer ≥ 1"))?
            }
            "batch" => {
                settings.batch = value
                    .parse()
                    .ok()
                    .filter(|&n| (1..=4096).contains(&n))
                    .ok_or_else(|| bad("an integer 1..4096"))?
            }
            "c" => {
                settings.c_puct = value
                    .parse()
                    .ok()
                    .filter(|c: &f32| c.is_finite() && *c >= 0.0)
                    .ok_or_else(|| bad("a number ≥ 0"))?
            }
            "rollout" => {
                settings.rollout = match value {
                    "decisive" => RolloutPolicy::Decisive,
                    "uniform" => RolloutPolicy::Uniform,
                    _ => return Err(bad("decisive or uniform")),
                }
            }
            "temp" => {
                settings.temperature = value
                    .parse()
                    .ok()
                    .filter(|t: &f32| t.is_finite() && *t >= 0.0)
                    .ok_or_else(|| bad("a number ≥ 0"))?
            }
            _ => {
                return Err(AgentError::UnknownKey {
                    agent: "mcts".to_string(),
                    key: key.to_string(),
                    allowed: MCTS_KEYS.to_string(),
                });
            }
        }
    }
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
        let expected = MctsSettings {
            simulations: 50,
            c_puct: 2.5,
            temperature: 1.0,
            batch: 4,
            rollout: RolloutPolicy::Uniform,
        };
        assert_eq!(spec, AgentSpec::Mcts(expected));
        assert_eq!(spec.to_string(), "mcts:sims=50,c=2.5,temp=1,batch=4,rollout=uniform");
        assert_eq!(AgentSpec::parse(&spec.to_string()).unwrap(), spec);
        assert_eq!(AgentSpec::parse("mcts").unwrap(), AgentSpec::Mcts(MctsSettings::default()));
    }

    #[test]
    fn bad_specs_name_the_problem_and_what_is_allowed() {
        let cases = [
            ("alphazero", &["alphazero", "random, mcts, human"][..]),
            ("", &["known agents"]),
            ("mcts:simulations=5", &["simulations", "sims, c, temp, batch, rollout"]),
            ("mcts:rollout=smart", &["rollout=smart", "decisive or uniform"]),
            ("mcts:sims=0", &["sims=0", "≥ 1"]),
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
}
