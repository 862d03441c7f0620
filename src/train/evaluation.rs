//! Evaluation during training: every few generations the saved network plays the configured baselines
//! and its predecessor, and its score in each match goes to the metrics.

use std::path::Path;

use super::config::TrainConfig;
use super::progress::progress;
use crate::agents::{AgentSpec, MatchSettings, MatchSummary, run_match};
use crate::family::Family;
use crate::seed::derive_seed;

/// Plies drawn in proportion to visits at the start of each game against the previous generation.
const PREVIOUS_MATCH_OPENING: u32 = 4;

/// Plays the saved network against each baseline and (when configured) its predecessor on `game`'s
/// spec; returns each match's name (`spec/opponent`) with the network's score in it.
pub(super) fn evaluate<G: Family>(
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
        let summary = MatchSummary::new(game, [&net, &opponent], &settings, &records);
        scores.push((name, summary.agents[0].score));
    }
    Ok(scores)
}
