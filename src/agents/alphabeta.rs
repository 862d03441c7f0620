//! The alpha-beta agent (`ab:`): the classical search of [`crate::search::alphabeta`] with the game's
//! own evaluation (chess), a network's value head (`net=CHECKPOINT`, the hunt boards and imperial), or
//! material. Its budget is a depth, a node count, or milliseconds per move; depth and nodes give the
//! same move every time, milliseconds do not. The transposition table lives as long as the agent
//! (a game), as a chess engine's does.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{Agent, AgentError, Watch};
use crate::family::Family;
use crate::game::Playthrough;
use crate::search::alphabeta::{AlphaBeta, Evaluation, Found, Limits, MATE_BOUND, Material, Score};

/// Nodes per move when a spec names no budget.
pub const DEFAULT_NODES: u64 = 1_000_000;
/// Transposition table megabytes unless `hash=` says otherwise.
pub const DEFAULT_HASH: usize = 32;

/// The `ab:` agent's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct AbSettings {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub ms: Option<u64>,
    pub hash: usize,
    /// A checkpoint whose value head evaluates the leaves (in place of the game's own evaluation).
    pub net: Option<String>,
}

impl Default for AbSettings {
    fn default() -> AbSettings {
        AbSettings { depth: None, nodes: None, ms: None, hash: DEFAULT_HASH, net: None }
    }
}

impl AbSettings {
    /// The search limits of one move: the budgets given (nodes by default).
    pub fn limits(&self) -> Limits {
        let budgetless = self.depth.is_none() && self.nodes.is_none() && self.ms.is_none();
        let ms = self.ms.map(Duration::from_millis);
        Limits {
            depth: self.depth,
            nodes: if budgetless { Some(DEFAULT_NODES) } else { self.nodes },
            soft: ms,
            hard: ms,
        }
    }
}

/// `depth=…,nodes=…,ms=…` as given, then `hash=…` and `net=…`.
impl fmt::Display for AbSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(ms) = self.ms {
            parts.push(format!("ms={ms}"));
        }
        parts.push(format!("hash={}", self.hash));
        if let Some(net) = &self.net {
            parts.push(format!("net={net}"));
        }
        write!(f, "{}", parts.join(","))
    }
}

/// The alpha-beta agent for one game.
pub struct AbAgent<G: Family> {
    search: AlphaBeta<G, Box<dyn Evaluation<G> + Send>>,
    limits: Limits,
    last: Option<Found<G::Move>>,
}

impl<G: Family> AbAgent<G> {
    /// The agent for `game`: a network's value head where `net=` names one, else the game's own
    /// evaluation, else material.
    pub fn build(game: &G, settings: &AbSettings, spec: &str) -> Result<AbAgent<G>, AgentError> {
        let eval: Box<dyn Evaluation<G> + Send> = match &settings.net {
            Some(path) => {
                let dir = crate::files::find_shipped(std::path::Path::new(path));
                let net =
                    crate::nn::load_for_inference(&dir, game, crate::nn::Precision::F32).map_err(|e| {
                        AgentError::Checkpoint { agent: spec.to_string(), problem: e.to_string() }
                    })?;
                Box::new(crate::nn::value::NetValue::new(game, net))
            }
            None => game.hand_evaluation().unwrap_or_else(|| Box::new(Material)),
        };
        Ok(AbAgent {
            search: AlphaBeta::new(game.clone(), eval, settings.hash)
                .map_err(|problem| AgentError::Memory { agent: spec.to_string(), problem })?,
            limits: settings.limits(),
            last: None,
        })
    }

    /// The search itself (the UCI engine drives it directly).
    pub fn searcher(&mut self) -> &mut AlphaBeta<G, Box<dyn Evaluation<G> + Send>> {
        &mut self.search
    }
}

impl<G: Family> Agent<G> for AbAgent<G> {
    fn choose(&mut self, line: &Playthrough<G>) -> G::Move {
        self.choose_watched(line, &Watch::default())
    }

    /// Searches within the agent's limits and the watch's: a watcher thread hands a stop or a deadline
    /// of the watch to the search.
    fn choose_watched(&mut self, line: &Playthrough<G>, watch: &Watch) -> G::Move {
        let stop = self.search.stop_flag();
        stop.store(false, Ordering::Relaxed);
        let done = AtomicBool::new(false);
        let limits = self.limits.clone();
        let found = std::thread::scope(|scope| {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    if watch.should_stop() {
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            });
            let found = self.search.search(line, limits, &mut |iteration| {
                watch.done.store(iteration.depth, Ordering::Relaxed);
            });
            done.store(true, Ordering::Relaxed);
            found
        });
        let found = found.expect("a game not over has a move");
        let best = found.best;
        self.last = Some(found);
        best
    }

    fn search_only(&mut self, moves: &[G::Move]) -> bool {
        self.search.restrict_root(moves);
        true
    }

    /// The move chosen with its score as a value, its depth standing for visits (an alpha-beta search
    /// proves one move best, it does not weigh the others).
    fn last_root(&self) -> Vec<(G::Move, u32, Option<f32>)> {
        self.last.as_ref().map_or(Vec::new(), |f| vec![(f.best, f.depth, Some(value_of(f.score)))])
    }

    fn last_value(&self) -> Option<f32> {
        let score = self.last.as_ref()?.score;
        Some(value_of(score))
    }

    fn last_note(&self) -> Option<String> {
        let found = self.last.as_ref()?;
        let score = match Score::of(found.score) {
            Score::Centipawns(cp) => format!("{:+.2} pawns", cp as f64 / 100.0),
            Score::Mate(n) => format!("mate in {n}"),
        };
        Some(format!(
            "{score} for the mover at depth {} ({} nodes, {:.0} ms)",
            found.depth,
            found.nodes,
            found.elapsed.as_secs_f64() * 1000.0
        ))
    }
}

/// A search score as a value −1…+1 (a win's probability less a loss's, as the lab reads values):
/// mates ±1, else the logistic of the score at 400 per factor of ten.
pub fn value_of(score: i32) -> f32 {
    if score.abs() > MATE_BOUND {
        return score.signum() as f32;
    }
    (2.0 / (1.0 + 10f64.powf(-(score as f64) / 400.0)) - 1.0) as f32
}

/// A value −1…+1 as centipawns: the inverse of [`value_of`] (so a network's value reads on the scale
/// the alpha-beta agent's scores are read), values within 10⁻⁴ of a certain result at ±1,720.
pub fn centipawns_of(value: f32) -> i32 {
    let value = f64::from(value).clamp(-0.9999, 0.9999);
    (400.0 * ((1.0 + value) / (1.0 - value)).log10()).round() as i32
}

/// The largest transposition table a search may ask for, in megabytes: half the machine's memory,
/// rounded down to a power of two; 4,096 where the memory cannot be read (no `/proc/meminfo`). A size
/// in range that the memory free at the time cannot hold is refused when the table is made.
pub fn max_hash_mb() -> usize {
    match crate::memory::total_bytes() {
        Some(bytes) if bytes >= 2 << 20 => 1 << ((bytes >> 21) as usize).ilog2(),
        _ => 4096,
    }
}

/// Reads `depth`, `nodes`, `ms`, `hash`, `net`.
pub fn parse(pairs: &[(&str, &str)]) -> Result<AbSettings, AgentError> {
    let mut settings = AbSettings::default();
    for &(key, value) in pairs {
        let bad = |expected: &str| AgentError::BadValue {
            agent: "ab".to_string(),
            key: key.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        };
        match key {
            "depth" => {
                settings.depth = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|d| (1..=100).contains(d))
                        .ok_or_else(|| bad("an integer 1..100"))?,
                )
            }
            "nodes" => {
                settings.nodes =
                    Some(value.parse().ok().filter(|&n| n >= 1).ok_or_else(|| bad("a positive integer"))?)
            }
            "ms" => {
                settings.ms = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|ms| (1..=86_400_000).contains(ms))
                        .ok_or_else(|| bad("milliseconds 1..86400000"))?,
                )
            }
            "hash" => {
                let most = max_hash_mb();
                settings.hash = value
                    .parse()
                    .ok()
                    .filter(|mb| (1..=most).contains(mb))
                    .ok_or_else(|| bad(&format!("megabytes 1..{most} (half this machine's memory)")))?
            }
            "net" => settings.net = Some(value.to_string()),
            _ => {
                return Err(AgentError::UnknownKey {
                    agent: "ab".to_string(),
                    key: key.to_string(),
                    allowed: "depth, nodes, ms, hash, net".to_string(),
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
    fn centipawns_read_a_value_back_as_the_score_it_came_from() {
        for cp in [-1500, -400, -35, 0, 1, 90, 400, 1500] {
            assert!((centipawns_of(value_of(cp)) - cp).abs() <= 1, "{cp}");
        }
        assert_eq!(centipawns_of(1.0), 1720);
        assert_eq!(centipawns_of(-1.0), -1720);
    }
}
