//! Totals of one cell: wins per side, draws by reason (repetition and cap apart), scores of each side
//! and of the first mover with 95% Wilson intervals, game length, pieces lost per game; and the
//! per-game means and event rates that claims read.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::analysis::GameStats;
use super::stats::{Estimate, Interval, clustered, clustered_mean, mean};
use super::study::{GameFilter, Metric, Winner};

/// One cell's totals, as in the report's main table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellSummary {
    pub id: String,
    pub variant: String,
    pub spec: String,
    pub skill: String,
    pub agent: String,
    pub seed: u64,
    /// Fingerprints of the behaviour of the rules and the agent that played it
    /// ([`super::fingerprint`]), for `balance --check`.
    #[serde(default)]
    pub rules_print: String,
    #[serde(default)]
    pub agent_print: String,
    /// The book its openings came from ([`super::schedule::Cell::book`]).
    #[serde(default)]
    pub book: String,
    pub seconds: f64,
    pub sides: [String; 2],
    pub games: u32,
    pub wins: [u32; 2],
    /// Each side's wins by the reason the game ended (hunt games: apex, blockade, captures, …).
    pub win_reasons: [BTreeMap<String, u32>; 2],
    pub draws_repetition: u32,
    /// Games stopped at the ply cap that no judge decided: unfinished, though the scores count them
    /// half (no claim reads them).
    pub draws_cap: u32,
    /// Other draws (chess: stalemate, fifty moves, insufficient material; a capped game the study's
    /// judge called a draw).
    pub draws_other: u32,
    /// Games stopped at the ply cap that the study's judge decided ([`super::adjudicate`]), counted
    /// as its result among the wins and draws above.
    #[serde(default)]
    pub adjudicated: u32,
    /// Distinct games (move sequences), and the effective number of independent games the score
    /// intervals use (see [`super::stats::clustered`]).
    #[serde(default)]
    pub distinct: u32,
    #[serde(default)]
    pub effective_n: f64,
    /// Distinct openings among the games (clusters: a game without an opening is its own), and each
    /// side's score over them, every opening counted once (the mean of its games' scores).
    #[serde(default)]
    pub openings: u32,
    #[serde(default)]
    pub by_opening: [f64; 2],
    /// Each side's score (win 1, draw ½).
    pub score: [Interval; 2],
    /// The side that moves first from the start, and its score.
    pub first: usize,
    pub first_score: Interval,
    pub plies_mean: f64,
    pub plies_sd: f64,
    /// Pieces each side lost per game.
    pub lost_mean: [f64; 2],
}

pub fn summarize(
    id: &str,
    variant: &str,
    skill: &str,
    sides: [&str; 2],
    seconds: f64,
    cell: &super::schedule::Cell,
    stats: &[GameStats],
) -> CellSummary {
    let games = stats.len() as u32;
    let mut wins = [0u32; 2];
    let mut win_reasons: [BTreeMap<String, u32>; 2] = Default::default();
    let (mut rep, mut cap, mut other) = (0, 0, 0);
    let adjudicated = stats.iter().filter(|s| s.adjudicated()).count() as u32;
    for s in stats {
        match s.winner {
            Some(w) => {
                wins[w] += 1;
                *win_reasons[w].entry(s.reason.clone()).or_default() += 1;
            }
            None if s.reason == "repetition" => rep += 1,
            None if s.unfinished() => cap += 1,
            None => other += 1,
        }
    }
    let first = stats.first().map_or(0, |s| s.first);
    let plies: Vec<f64> = stats.iter().map(|s| s.plies as f64).collect();
    let (plies_mean, plies_sd) = mean(&plies);
    let lost_mean = [0, 1].map(|i| stats.iter().map(|s| s.lost[i] as f64).sum::<f64>() / games.max(1) as f64);
    CellSummary {
        id: id.to_string(),
        variant: variant.to_string(),
        spec: cell.spec.clone(),
        skill: skill.to_string(),
        agent: cell.agent.clone(),
        seed: cell.seed,
        rules_print: cell.rules_print.clone(),
        agent_print: cell.agent_print.clone(),
        book: cell.book.clone(),
        seconds,
        sides: sides.map(str::to_string),
        games,
        wins,
        win_reasons,
        draws_repetition: rep,
        draws_cap: cap,
        draws_other: other,
        adjudicated,
        distinct: stats.iter().map(|s| s.game_key).collect::<std::collections::BTreeSet<_>>().len() as u32,
        effective_n: side_score(stats, 0).effective_n,
        openings: stats.iter().map(|s| s.cluster).collect::<std::collections::BTreeSet<_>>().len() as u32,
        by_opening: [0, 1].map(|i| score_by_opening(stats, i)),
        score: [0, 1].map(|i| side_score(stats, i).interval),
        first,
        first_score: side_score(stats, first).interval,
        plies_mean: plies_mean.estimate,
        plies_sd,
        lost_mean,
    }
}

/// A side's score (win 1, draw ½, loss 0) over games counted by their clusters.
pub fn side_score(stats: &[GameStats], side: usize) -> Estimate {
    let points = |s: &GameStats| match s.winner {
        None => 0.5,
        Some(w) if w == side => 1.0,
        Some(_) => 0.0,
    };
    clustered(&stats.iter().map(|s| (s.cluster, points(s))).collect::<Vec<_>>())
}

/// A side's score with every opening counted once: the mean over openings of its games' mean score.
pub fn score_by_opening(stats: &[GameStats], side: usize) -> f64 {
    let mut by: BTreeMap<u64, (f64, f64)> = BTreeMap::new();
    for s in stats {
        let points = match s.winner {
            None => 0.5,
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
        };
        let entry = by.entry(s.cluster).or_default();
        entry.0 += points;
        entry.1 += 1.0;
    }
    if by.is_empty() {
        return 0.5;
    }
    by.values().map(|(sum, n)| sum / n).sum::<f64>() / by.len() as f64
}

/// The mean of a per-game metric over the games that have it, counted by their clusters.
pub fn metric_mean(stats: &[GameStats], name: &Metric) -> Estimate {
    let values: Vec<(u64, f64)> =
        stats.iter().filter_map(|s| metric(s, name).map(|v| (s.cluster, v))).collect();
    clustered_mean(&values)
}

/// A per-game number; `None` when the game does not have it (a feature of another ruleset).
pub fn metric(stats: &GameStats, metric: &Metric) -> Option<f64> {
    match metric {
        Metric::Lost(side) => Some(stats.lost[*side] as f64),
        Metric::Left(side) => Some(stats.left[*side] as f64),
        Metric::EarlyLost(side) => Some(stats.early_lost[*side] as f64),
        // An adjudicated game stopped at the cap: how long it would have lasted is not known.
        Metric::Plies => (!stats.adjudicated()).then_some(stats.plies as f64),
        Metric::Decisive => Some(if stats.winner.is_some() { 1.0 } else { 0.0 }),
        Metric::Feature(name) => stats.features.get(name).copied(),
        Metric::Margin(_) => None,
    }
}

/// Whether a game meets every condition of `filter`.
pub fn matches(stats: &GameStats, filter: &GameFilter) -> bool {
    let winner_ok = match filter.winner {
        None => true,
        Some(Winner::Draw) => stats.winner.is_none(),
        Some(Winner::Side(side)) => stats.winner == Some(side),
    };
    let side_ok = filter.side.is_none_or(|s| {
        filter.lost_at_least.is_none_or(|n| stats.lost[s] >= n)
            && filter.lost_in_play_at_least.is_none_or(|n| stats.lost_in_play[s] >= n)
            && filter.left_at_most.is_none_or(|n| stats.left[s] <= n)
    });
    winner_ok
        && filter.reason.is_none_or(|r| r.as_str() == stats.reason)
        && filter.plies_at_most.is_none_or(|p| stats.plies <= p)
        && side_ok
}

/// The share of games meeting `event` among those meeting `given`, counted by clusters (its `n` is
/// the number of games it is taken over).
pub fn rate(stats: &[GameStats], event: &GameFilter, given: Option<&GameFilter>) -> Estimate {
    let values: Vec<(u64, f64)> = stats
        .iter()
        .filter(|s| given.is_none_or(|g| matches(s, g)))
        .map(|s| (s.cluster, if matches(s, event) { 1.0 } else { 0.0 }))
        .collect();
    clustered(&values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::schedule::Cell;

    /// Every synthetic game is its own: distinct keys and clusters.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

    pub(crate) fn game(winner: Option<usize>, reason: &str, plies: u32, lost: [u32; 2]) -> GameStats {
        GameStats {
            winner,
            reason: reason.to_string(),
            plies,
            first: 0,
            lost,
            early_lost: [0, lost[1].min(1)],
            lost_in_play: lost,
            left: [1 - lost[0], 16 - lost[1]],
            features: Default::default(),
            game_key: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            cluster: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    const SIDES: [&str; 2] = ["general", "rebels"];

    /// A game the judge decided at the cap counts for its result but has no length: the mean of plies
    /// reads only games that ended by the rules.
    #[test]
    fn an_adjudicated_game_has_no_length() {
        let ended = game(Some(0), "captures", 30, [0, 12]);
        let judged = game(Some(0), crate::lab::analysis::ADJUDICATED_REASON, 300, [0, 12]);
        assert_eq!(metric(&ended, &Metric::Plies), Some(30.0));
        assert_eq!(metric(&judged, &Metric::Plies), None);
        assert_eq!(metric(&judged, &Metric::Decisive), Some(1.0));
        let mean = metric_mean(&[ended, judged], &Metric::Plies);
        assert_eq!((mean.n, mean.interval.estimate), (1, 30.0));
    }

    /// 10 games: general wins 5, rebels 3, one repetition draw, one cap draw.
    pub(crate) fn ten_games() -> Vec<GameStats> {
        let mut games = Vec::new();
        for i in 0..5 {
            games.push(game(Some(0), "captures", 20 + 2 * i, [0, 12]));
        }
        for _ in 0..3 {
            games.push(game(Some(1), "no-moves", 40, [0, 2]));
        }
        games.push(game(None, "repetition", 30, [0, 0]));
        games.push(game(None, "cap", 100, [0, 1]));
        games
    }

    #[test]
    fn a_cell_adds_up_by_hand() {
        let cell = Cell {
            id: "v@s".into(),
            variant: 0,
            skill: 0,
            spec: "x".into(),
            agent: "a".into(),
            games: 10,
            seed: 3,
            opening: 0,
            book: String::new(),
            per_opening: 1,
            opponent: None,
            rules_print: String::new(),
            agent_print: String::new(),
        };
        let s = summarize("v@s", "v", "s", SIDES, 1.0, &cell, &ten_games());
        assert_eq!((s.wins, s.draws_repetition, s.draws_cap, s.draws_other), ([5, 3], 1, 1, 0));
        // General: (5 + 2/2) / 10 = 0.6; Rebels: (3 + 1) / 10 = 0.4.
        assert!((s.score[0].estimate - 0.6).abs() < 1e-12 && (s.score[1].estimate - 0.4).abs() < 1e-12);
        // Wilson for 6 of 10: [0.3127, 0.8318].
        assert!((s.score[0].low - 0.3127).abs() < 1e-4 && (s.score[0].high - 0.8318).abs() < 1e-4);
        assert_eq!(s.first_score, s.score[0]);
        // Plies 20 22 24 26 28 40 40 40 30 100: mean 37.
        assert!((s.plies_mean - 37.0).abs() < 1e-12);
        // Rebels lost 60 + 6 + 0 + 1 = 67 pieces in 10 games.
        assert!((s.lost_mean[1] - 6.7).abs() < 1e-12);
    }

    #[test]
    fn rates_and_metrics_follow_their_filters() {
        let games = ten_games();
        let rebel_win = GameFilter { winner: Some(Winner::Side(1)), ..GameFilter::default() };
        let lost_two = GameFilter { side: Some(1), lost_at_least: Some(2), ..GameFilter::default() };
        // Among the 3 Rebel wins, all lost at least 2 Rebels.
        let r = rate(&games, &lost_two, Some(&rebel_win));
        assert_eq!((r.interval.estimate, r.n), (1.0, 3));
        // Over all 10 games, 8 lost at least 2.
        assert_eq!(rate(&games, &lost_two, None).interval.estimate, 0.8);
        let draw = GameFilter { winner: Some(Winner::Draw), ..GameFilter::default() };
        assert_eq!(rate(&games, &draw, None).interval.estimate, 0.2);
        assert_eq!(metric(&games[0], &Metric::Lost(1)), Some(12.0));
        assert_eq!(metric(&games[8], &Metric::Decisive), Some(0.0));
        assert_eq!(metric(&games[0], &Metric::Feature("doubled_pawns".into())), None);
    }

    /// `lost_in_play_at_least` counts only what the players' own moves lost: a Rebel win whose Rebels
    /// lost 12 pieces, 10 of them in the opening, is not one after heavy losses in play.
    #[test]
    fn losses_in_play_leave_out_the_openings_losses() {
        let mut games = ten_games();
        games[0].lost_in_play = [0, 2];
        let heavy = |in_play: bool| GameFilter {
            side: Some(1),
            lost_at_least: (!in_play).then_some(9),
            lost_in_play_at_least: in_play.then_some(9),
            ..GameFilter::default()
        };
        assert!(matches(&games[0], &heavy(false)));
        assert!(!matches(&games[0], &heavy(true)));
        // The five General wins lost 12 Rebels each: five games in all, four in play.
        assert_eq!(rate(&games, &heavy(false), None).interval.estimate, 0.5);
        assert_eq!(rate(&games, &heavy(true), None).interval.estimate, 0.4);
    }
}
