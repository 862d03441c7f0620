//! A match between two agents played in game pairs until a sequential probability ratio test
//! ([`super::sprt`]) decides whether A is the stronger, and agent A's score in a match with its
//! interval, counted as the studies count their games (`rebel-zero match` prints them).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::analysis::cluster_of;
use super::sprt::{Decision, Pentanomial, Sprt, pair_index};
use super::stats::{Estimate, Interval, clustered, paired};
use crate::agents::arena::points_of_a;
use crate::agents::{AgentError, AgentSpec, MatchSettings, run_match};
use crate::family::Family;
use crate::game::{Game, GameRecord};

/// Games per opening of a `--book`: one with each seating, as a study's cells play them.
pub const GAMES_PER_OPENING: usize = 2;

/// Where a `--sprt` match stopped, and why.
#[derive(Serialize)]
pub struct SprtResult {
    #[serde(flatten)]
    pub test: Sprt,
    /// Wald's bounds on the log likelihood ratio.
    pub lower: f64,
    pub upper: f64,
    pub llr: f64,
    pub decision: Decision,
    pub pairs: u32,
    /// Pairs by A's points in their two games: 0, ½, 1, 1½, 2.
    pub pentanomial: Pentanomial,
    /// A's Elo over B with a 95% interval, corrected for where the test stopped (fishtest's).
    pub elo: Interval,
}

impl SprtResult {
    /// Where `test` stands on the pairs counted in `pentanomial`.
    pub fn of(test: Sprt, pentanomial: &Pentanomial, decision: Decision) -> SprtResult {
        let (lower, upper) = test.bounds();
        SprtResult {
            test,
            lower,
            upper,
            llr: test.llr(pentanomial),
            decision,
            pairs: pentanomial.iter().sum(),
            pentanomial: *pentanomial,
            elo: test.stopped_elo(pentanomial),
        }
    }
}

/// Game pairs (games 2k and 2k + 1: one opening, from the book or drawn at random, seats swapped), a
/// look of [`GAMES_PER_LOOK`] at a time, until `test` decides or `settings.games` are played. Game `i`
/// is the same game whenever the test stops (its seed and opening depend on `i` alone), so a test's
/// stopping point is reproducible from its seed, and a test resumed with the games of `kept` stops
/// where one run straight through does.
pub fn play_until_decided<G: Family>(
    game: &G,
    specs: [&AgentSpec; 2],
    settings: MatchSettings,
    test: Sprt,
    kept: &BTreeMap<usize, GameRecord>,
    on_game: &(dyn Fn(&GameRecord) + Sync),
    on_look: &dyn Fn(&SprtResult),
) -> Result<(Vec<GameRecord>, SprtResult), AgentError> {
    let names = game.side_names();
    // Every thread gets two games or more of each batch; the test looks at the batch's games 16 at a
    // time, in order, and games past the look that decides are dropped.
    let batch = GAMES_PER_LOOK * settings.threads.div_ceil(GAMES_PER_LOOK / 2);
    let mut records: Vec<GameRecord> = Vec::new();
    let mut pentanomial = [0; 5];
    let mut decision = Decision::Continue;
    while decision == Decision::Continue && records.len() < settings.games {
        let (first, games) = (records.len(), (records.len() + batch).min(settings.games));
        let here: BTreeSet<usize> = kept.range(first..games).map(|(&i, _)| i).collect();
        let new =
            run_match(game, specs, MatchSettings { first, games, played: Some(&here), ..settings }, on_game)?;
        let mut played: BTreeMap<usize, GameRecord> =
            kept.range(first..games).map(|(&i, r)| (i, r.clone())).collect();
        played.extend(new.into_iter().map(|r| (r.game, r)));
        let played: Vec<GameRecord> = played.into_values().collect();
        for look in played.chunks(GAMES_PER_LOOK) {
            // Every pair counts, a random opening drawn twice too: the pairs are independent draws
            // from the openings' distribution, which is what the test measures over. (A book is a
            // fixed sample instead, and is never replayed.)
            for pair in look.chunks_exact(GAMES_PER_OPENING) {
                let [first, second] = [&pair[0], &pair[1]].map(|record| points_of_a(&names, record));
                pentanomial[pair_index(first, second)] += 1;
            }
            records.extend_from_slice(look);
            decision = test.decide(&pentanomial);
            if decision != Decision::Continue {
                break;
            }
        }
        on_look(&SprtResult::of(test, &pentanomial, decision));
    }
    Ok((records, SprtResult::of(test, &pentanomial, decision)))
}

/// Games between two looks of a `--sprt` match: 8 pairs, few enough that the test stops soon after
/// its bound is crossed. Fixed, so that where the test stops does not depend on the threads.
pub const GAMES_PER_LOOK: usize = 16;

/// Agent A's score with its 95% interval, counted as the studies count their games. Games played in
/// pairs count as pairs ([`paired`]), clustered by their number: a book's `(i / 2) % book_lines`
/// (game `i`; a replayed opening is no new evidence), random openings' `i / 2` (a fresh draw each).
/// Otherwise games that share their opening (or, without one, repeat) are one cluster ([`cluster_of`],
/// [`clustered`]). By number, since agents that sample their first moves (`open=`) record longer
/// openings, which differ within a pair.
pub fn score_of_a<G: Game>(
    game: &G,
    records: &[GameRecord],
    book_lines: Option<usize>,
    paired_openings: bool,
) -> Estimate {
    let names = game.side_names();
    let points: Vec<(u64, f64)> = records
        .iter()
        .map(|record| {
            let points = points_of_a(&names, record);
            let pair = record.game / GAMES_PER_OPENING;
            let cluster = match (book_lines, paired_openings) {
                (Some(lines), _) => (pair % lines.max(1)) as u64,
                (None, true) => pair as u64,
                (None, false) => cluster_of(record),
            };
            (cluster, points)
        })
        .collect();
    if book_lines.is_some() || paired_openings { paired(&points) } else { clustered(&points) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyGame;

    /// Game `index` of a match: its moves, opening plies and winner.
    fn record(index: usize, moves: &[&str], opening: u32, winner: Option<&str>) -> GameRecord {
        GameRecord {
            cell: None,
            game: index,
            spec: "sixteen-rebels".into(),
            seed: index as u64,
            start: String::new(),
            agents: Default::default(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            opening,
            winner: winner.map(str::to_string),
            reason: "surrounded".into(),
            plies: moves.len() as u32,
            rules_file: None,
            adjudged: None,
        }
    }

    /// A's points follow its seat, and games that repeat or share an opening are one cluster.
    #[test]
    fn a_score_counts_games_that_share_an_opening_or_repeat_once() {
        let AnyGame::Hunt(game) = AnyGame::from_spec("sixteen-rebels").unwrap() else { unreachable!() };
        // A plays the General in even games; the Rebels win every one.
        let repeated: Vec<GameRecord> = (0..8).map(|i| record(i, &["a", "b"], 0, Some("rebels"))).collect();
        let score = score_of_a(&game, &repeated, None, false);
        assert_eq!((score.interval.estimate, score.clusters, score.effective_n), (0.5, 1, 1.0));

        let moves = ["a", "b", "c", "d", "e", "f", "g", "h"];
        let distinct: Vec<GameRecord> =
            (0..8).map(|i| record(i, &[moves[i], "x"], 0, (i != 3).then_some("general"))).collect();
        let score = score_of_a(&game, &distinct, None, false);
        // A wins its four Generals, loses three Rebels' games and draws game 3.
        assert_eq!((score.interval.estimate, score.clusters, score.n), (4.5 / 8.0, 8, 8));

        // Four book openings, two games each: the pairs are the clusters, up to one game each in size.
        let paired: Vec<GameRecord> =
            (0..8).map(|i| record(i, &[moves[i / 2], "y", moves[i % 2]], 2, Some("general"))).collect();
        let score = score_of_a(&game, &paired, Some(4), true);
        // Each pair scores one half: no spread between pairs, so every game counts.
        assert_eq!((score.interval.estimate, score.clusters, score.effective_n), (0.5, 4, 8.0));
        let unpaired = score_of_a(&game, &paired, None, false).effective_n;
        assert_eq!(unpaired, 4.0, "unpaired, a cluster is one game at most");
        // Pairs of random openings count as pairs too, each pair a cluster, however they open.
        let score = score_of_a(&game, &paired, None, true);
        assert_eq!((score.clusters, score.effective_n), (4, 8.0));

        // The book played over again (games 8–23 repeat its four pairs) is no more evidence.
        let again: Vec<GameRecord> = (0..24)
            .map(|i| record(i, &[moves[(i / 2) % 4], "y", moves[i % 2]], 2, Some("general")))
            .collect();
        let score = score_of_a(&game, &again, Some(4), true);
        assert_eq!((score.n, score.clusters, score.effective_n), (24, 4, 8.0));
        // Agents that sample their first moves record longer openings; the pair is still one.
        let sampled: Vec<GameRecord> =
            (0..8).map(|i| record(i, &[moves[i / 2], "y", moves[i % 2]], 3, Some("general"))).collect();
        assert_eq!(score_of_a(&game, &sampled, Some(4), true).clusters, 4);
    }
}
