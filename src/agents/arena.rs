//! Matches between two agents: games with alternating seats, played in parallel, each from its own
//! seed, so that one seed gives the same games whatever the number of threads.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Serialize;

use super::{Agent, AgentError, AgentSpec};
use crate::seed::derive_seed;

/// The stream of a game's seed its random opening draws from (the agents use streams 0 and 1).
const OPENING_STREAM: u64 = 0x6f70_656e;
use crate::family::Family;
use crate::game::{Game, GameRecord, Playthrough, Reason, Side};
use crate::nn::inference::on_one_kernel_thread;

/// Plays `line` to its end; `agents[i]` plays side `i`.
pub fn play_game<G: Game>(mut line: Playthrough<G>, agents: [&mut dyn Agent<G>; 2]) -> Playthrough<G> {
    let game = line.game().clone();
    let [zero, one] = agents;
    while !line.is_over() {
        let mv = match game.to_move(line.state()) {
            Side::ZERO => zero.choose(&line),
            _ => one.choose(&line),
        };
        line.play(mv);
    }
    line
}

/// How many games, from which seed, on how many threads, and how each opens.
#[derive(Clone, Copy, Debug)]
pub struct MatchSettings<'a> {
    pub games: usize,
    pub seed: u64,
    pub threads: usize,
    /// Plies drawn uniformly at random among the legal moves that do not end the game, before the
    /// agents take over: agents that are deterministic given the position would otherwise play every
    /// game of a match from the start alike (two games in all, one per seating).
    pub opening: u32,
    /// Whether games 2k and 2k + 1 share game 2k's random opening (seats swapped: a game pair), as
    /// a sequential test of strength plays them. Game 2k opens as it would unpaired.
    pub paired_openings: bool,
    /// Openings from a book instead (the balance lab's, [`crate::lab::openings`]).
    pub book: Option<BookOpenings<'a>>,
    /// The index of the first game to play: a match grown from `first` games plays only the new ones,
    /// each as it would have been played in one run.
    pub first: usize,
    /// Games played already (a resumed match's): neither played again nor returned.
    pub played: Option<&'a BTreeSet<usize>>,
}

impl MatchSettings<'_> {
    /// `games` games from `seed` on `threads` threads, opening with `opening` random plies.
    pub fn new(games: usize, seed: u64, threads: usize, opening: u32) -> MatchSettings<'static> {
        MatchSettings {
            games,
            seed,
            threads,
            opening,
            paired_openings: false,
            book: None,
            first: 0,
            played: None,
        }
    }
}

/// Game `i` opens with the moves of line `(i / per_line) % lines.len()` (in the ruleset's notation).
#[derive(Clone, Copy, Debug)]
pub struct BookOpenings<'a> {
    pub lines: &'a [Vec<String>],
    pub per_line: usize,
    /// Where the lines come from, in words, for the match's summary.
    pub source: &'a str,
}

impl BookOpenings<'_> {
    /// Plays game `index`'s opening onto `line`; the plies played.
    fn open<G: Game>(&self, line: &mut Playthrough<G>, index: usize) -> Result<u32, AgentError> {
        if self.lines.is_empty() {
            return Ok(0);
        }
        let moves = &self.lines[(index / self.per_line.max(1)) % self.lines.len()];
        for text in moves {
            line.play_text(text).map_err(|e| AgentError::Opening { problem: format!("{text}: {e}") })?;
        }
        Ok(moves.len() as u32)
    }
}

/// Plays up to `plies` uniformly random moves that do not end the game (fewer when every move would),
/// from the randomness of `seed`; returns how many were played.
pub fn random_opening<G: Game>(line: &mut Playthrough<G>, plies: u32, seed: u64) -> u32 {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let game = line.game().clone();
    for played in 0..plies {
        let quiet: Vec<G::Move> = line
            .legal_moves()
            .iter()
            .copied()
            .filter(|&mv| {
                let mut next = line.state().clone();
                game.apply(&mut next, mv);
                game.outcome(&next).is_none()
            })
            .collect();
        if quiet.is_empty() || line.is_over() {
            return played;
        }
        line.play(quiet[rng.random_range(0..quiet.len())]);
    }
    plies
}

/// The side agent `agent` (0 for A, 1 for B) plays in game `game` of a match: A plays side `game % 2`,
/// so seats alternate, and B the other.
pub fn seat_of(game: usize, agent: usize) -> usize {
    (game + agent) % 2
}

/// What agent A scored in `record`, a game of a match: 1, ½ or 0.
pub fn points_of_a(side_names: &[&str], record: &GameRecord) -> f64 {
    match record.winner.as_deref() {
        None => 0.5,
        Some(winner) if winner == side_names[seat_of(record.game, 0)] => 1.0,
        Some(_) => 0.0,
    }
}

/// Plays `settings.games` games between agent A (`specs[0]`) and agent B (`specs[1]`), seated by
/// [`seat_of`]. Records come back in game order (`settings.played` left
/// out); `on_game_done` is called as each game ends (in any order), e.g. to keep it or advance a
/// progress bar.
pub fn run_match<G: Family>(
    game: &G,
    specs: [&AgentSpec; 2],
    settings: MatchSettings,
    on_game_done: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Vec<GameRecord>, AgentError> {
    for spec in specs {
        spec.build(game, 0)?; // check once, before any thread starts
    }
    let next = AtomicUsize::new(settings.first);
    let records: Mutex<Vec<Option<GameRecord>>> =
        Mutex::new(vec![None; settings.games.saturating_sub(settings.first)]);
    // An agent that builds at the check may still fail later (a checkpoint pruned by a training run
    // meanwhile): the first such error ends the match.
    let failure: Mutex<Option<AgentError>> = Mutex::new(None);
    let workers = settings.threads.clamp(1, settings.games.saturating_sub(settings.first).max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let play = || loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= settings.games {
                        return;
                    }
                    if settings.played.is_some_and(|played| played.contains(&index)) {
                        continue;
                    }
                    // A panic in an agent ends the match with an error, not a hung or lost run.
                    let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        play_match_game(game, specs, &settings, index)
                    }));
                    let played = played.unwrap_or_else(|panic| {
                        let problem = panic
                            .downcast_ref::<String>()
                            .map(String::as_str)
                            .or_else(|| panic.downcast_ref::<&str>().copied())
                            .unwrap_or("a panic")
                            .to_string();
                        Err(AgentError::Crashed { game: index, problem })
                    });
                    let record = match played {
                        Ok(record) => record,
                        Err(e) => {
                            next.store(settings.games, Ordering::Relaxed);
                            failure.lock().expect("no worker panics while holding the lock").get_or_insert(e);
                            return;
                        }
                    };
                    on_game_done(&record);
                    records.lock().expect("no worker panics while holding the lock")
                        [index - settings.first] = Some(record);
                };
                // With several games at once, each worker's network kernels stay on its own thread;
                // a lone worker keeps the global pool, so one game's inference spans the cores.
                if workers > 1 { on_one_kernel_thread(play) } else { play() }
            });
        }
    });
    if let Some(e) = failure.into_inner().expect("no worker panicked") {
        return Err(e);
    }
    let records = records.into_inner().expect("no worker panicked");
    let wanted =
        |offset: usize| settings.played.is_none_or(|played| !played.contains(&(settings.first + offset)));
    let records = records.into_iter().enumerate().filter(|&(offset, _)| wanted(offset));
    Ok(records.map(|(_, r)| r.expect("every game was played")).collect())
}

/// Game `index` of a match: its seed, its seating, its record.
fn play_match_game<G: Family>(
    game: &G,
    specs: [&AgentSpec; 2],
    settings: &MatchSettings,
    index: usize,
) -> Result<GameRecord, AgentError> {
    let seed = derive_seed(settings.seed, index as u64);
    let seat_specs = if seat_of(index, 0) == 0 { specs } else { [specs[1], specs[0]] };
    let [zero, one] = [0, 1].map(|side| seat_specs[side].build(game, derive_seed(seed, side as u64)));
    let (mut zero, mut one) = (zero?, one?);
    let mut line = Playthrough::new(game.clone());
    let opening = match &settings.book {
        Some(book) => book.open(&mut line, index)?,
        None => {
            let opener = if settings.paired_openings { index - index % 2 } else { index };
            // Its own stream of the game's seed, so the agents' randomness is the same with or without it.
            let opening_seed = derive_seed(derive_seed(settings.seed, opener as u64), OPENING_STREAM);
            random_opening(&mut line, settings.opening, opening_seed)
        }
    };
    let line = play_game(line, [zero.as_mut(), one.as_mut()]);
    let sampled = specs.iter().map(|s| s.visit_opening()).max().unwrap_or(0);
    let opening = opening.max(sampled.min(line.plies()));
    let names = game.side_names();
    let outcome = line.outcome().expect("a finished game");
    Ok(GameRecord {
        cell: None,
        game: index,
        spec: game.spec().to_string(),
        seed,
        start: game.format_position(line.start()),
        agents: Side::BOTH.map(|s| (names[s.index()].to_string(), seat_specs[s.index()].to_string())).into(),
        moves: line.move_texts(),
        opening,
        winner: outcome.winner.map(|s| names[s.index()].to_string()),
        reason: outcome.reason.as_str().to_string(),
        plies: line.plies(),
        rules_file: crate::game::record::RulesFile::of_spec(game.spec()),
        adjudged: None,
    })
}

/// Totals of a match, as printed and written to `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchSummary {
    pub spec: String,
    pub seed: u64,
    pub games: usize,
    /// How the games opened, in words.
    pub openings: String,
    /// Agent A's and agent B's results.
    pub agents: [AgentResult; 2],
    /// Side name → wins.
    pub wins_by_side: BTreeMap<String, usize>,
    /// Reason → draws (repetition and cap apart, RULES.md 0.4).
    pub draws_by_reason: BTreeMap<String, usize>,
    pub mean_plies: f64,
}

/// One agent's results in a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentResult {
    pub label: String,
    pub spec: String,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Side name → (games, wins) with that side.
    pub by_side: BTreeMap<String, SideResult>,
    /// (wins + draws / 2) / games.
    pub score: f64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SideResult {
    pub games: usize,
    pub wins: usize,
}

impl MatchSummary {
    pub fn new<G: Game>(
        game: &G,
        specs: [&AgentSpec; 2],
        settings: &MatchSettings,
        records: &[GameRecord],
    ) -> MatchSummary {
        let names = game.side_names();
        let mut agents = [0, 1].map(|a| AgentResult {
            label: ["A", "B"][a].to_string(),
            spec: specs[a].to_string(),
            wins: 0,
            draws: 0,
            losses: 0,
            by_side: names.iter().map(|n| (n.to_string(), SideResult::default())).collect(),
            score: 0.0,
        });
        let mut wins_by_side: BTreeMap<String, usize> = names.iter().map(|n| (n.to_string(), 0)).collect();
        let mut draws_by_reason = BTreeMap::new();
        for record in records {
            for (agent, result) in agents.iter_mut().enumerate() {
                let side = names[seat_of(record.game, agent)];
                let seat = result.by_side.get_mut(side).expect("every side is listed");
                seat.games += 1;
                match record.winner.as_deref() {
                    None => result.draws += 1,
                    Some(winner) if winner == side => {
                        result.wins += 1;
                        seat.wins += 1;
                    }
                    Some(_) => result.losses += 1,
                }
            }
            match &record.winner {
                Some(winner) => *wins_by_side.entry(winner.clone()).or_default() += 1,
                None => *draws_by_reason.entry(record.reason.clone()).or_default() += 1,
            }
        }
        for result in &mut agents {
            let games = (result.wins + result.draws + result.losses).max(1);
            result.score = (result.wins as f64 + result.draws as f64 / 2.0) / games as f64;
        }
        let plies: u64 = records.iter().map(|r| r.plies as u64).sum();
        MatchSummary {
            spec: game.spec().to_string(),
            seed: settings.seed,
            games: records.len(),
            openings: MatchSummary::openings(settings),
            agents,
            wins_by_side,
            draws_by_reason,
            mean_plies: plies as f64 / records.len().max(1) as f64,
        }
    }

    /// How the games of `settings` open, in words.
    fn openings(settings: &MatchSettings) -> String {
        match (&settings.book, settings.opening) {
            (Some(book), _) => {
                let per_line = book.per_line.max(1);
                let used = settings.games.div_ceil(per_line).min(book.lines.len());
                format!(
                    "{used} of the {} openings of {}, each for {per_line} games in turn",
                    book.lines.len(),
                    book.source
                )
            }
            (None, 0) => "the start".to_string(),
            (None, plies) if settings.paired_openings => {
                format!("{plies} plies drawn uniformly from the seed of each pair's first game, for both")
            }
            (None, plies) => format!("{plies} plies drawn uniformly from the game's seed"),
        }
    }

    /// Draws whose reason is `reason`.
    pub fn draws(&self, reason: Reason) -> usize {
        self.draws_by_reason.get(reason.as_str()).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyGame;
    use crate::with_game;

    fn specs(a: &str, b: &str) -> [AgentSpec; 2] {
        [AgentSpec::parse(a).unwrap(), AgentSpec::parse(b).unwrap()]
    }

    #[test]
    fn seats_alternate_and_the_summary_adds_up() {
        let game = AnyGame::from_spec("sixteen-rebels:max_plies=40").unwrap();
        let [a, b] = specs("random", "mcts:sims=8");
        with_game!(&game, |g| {
            let settings = MatchSettings::new(6, 9, 2, 0);
            let records = run_match(g, [&a, &b], settings, &|_| {}).unwrap();
            for (i, record) in records.iter().enumerate() {
                assert_eq!(record.game, i);
                let general =
                    if i % 2 == 0 { "random" } else { "mcts:sims=8,c=1.5,temp=0,batch=1,rollout=decisive" };
                assert_eq!(record.agents["general"], general);
                assert_eq!(record.moves.len() as u32, record.plies);
            }
            let summary = MatchSummary::new(g, [&a, &b], &settings, &records);
            for agent in &summary.agents {
                assert_eq!(agent.wins + agent.draws + agent.losses, 6);
                assert!(agent.by_side.values().all(|s| s.games == 3));
            }
            let side_wins: usize = summary.wins_by_side.values().sum();
            let draws: usize = summary.draws_by_reason.values().sum();
            assert_eq!(side_wins + draws, 6);
            assert_eq!(summary.agents[0].wins + summary.agents[1].wins, side_wins);
        });
    }

    /// A random opening of a few plies starts the games of a match from different positions; the
    /// records say how many plies it took, and the openings follow the seed, not the thread count.
    #[test]
    fn random_openings_make_games_start_apart() {
        let game = AnyGame::from_spec("sixteen-rebels").unwrap();
        let [a, b] = specs("mcts:sims=16", "mcts:sims=16");
        with_game!(&game, |g| {
            let play = |opening: u32, threads: usize| {
                let settings = MatchSettings::new(8, 3, threads, opening);
                let records = run_match(g, [&a, &b], settings, &|_| {}).unwrap();
                assert!(
                    records.iter().all(|r| r.opening == opening),
                    "every game opens with {opening} plies"
                );
                records
            };
            let openings = |records: &[GameRecord]| {
                let starts: std::collections::BTreeSet<&[String]> =
                    records.iter().map(|r| &r.moves[..4]).collect();
                starts.len()
            };
            let opened = play(4, 2);
            assert!(openings(&opened) >= 6, "8 random openings of 4 plies are nearly all distinct");
            assert_eq!(opened, play(4, 1), "the openings follow the seed, not the threads");
            assert_ne!(play(0, 2)[0].moves[..4], opened[0].moves[..4]);

            // Paired, games 2k and 2k + 1 share game 2k's opening, which is the one it had unpaired.
            let settings = MatchSettings { paired_openings: true, ..MatchSettings::new(8, 3, 2, 4) };
            let paired = run_match(g, [&a, &b], settings, &|_| {}).unwrap();
            for pair in paired.chunks(2) {
                assert_eq!(pair[0].moves[..4], pair[1].moves[..4]);
                assert_eq!(pair[0], opened[pair[0].game], "the pair's first game is the unpaired one");
            }
            assert_eq!(openings(&paired), 4, "four pairs, four openings");
        });
    }

    #[test]
    fn a_human_cannot_sit_at_the_arena() {
        let game = AnyGame::from_spec("sixteen-rebels").unwrap();
        let [a, b] = specs("human", "random");
        with_game!(&game, |g| {
            let settings = MatchSettings::new(2, 1, 1, 0);
            assert!(run_match(g, [&a, &b], settings, &|_| {}).is_err());
        });
    }
}
