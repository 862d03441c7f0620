//! `rebel-zero match SPEC --agent A --agent B --games N --seed S [--opening PLIES | --book GAMES]
//! [--sprt ELO0,ELO1] [--out DIR] [--threads T]`: a match with alternating seats, a progress bar, a
//! summary table, and optionally `DIR/games.jsonl` (each game kept as it ends) and `DIR/summary.json`;
//! with `--sprt`, played in game pairs until a sequential test decides whether A is the stronger. The
//! same command run again on a stopped match's `DIR` resumes it ([`MatchFolder`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::common::{load_game, usage, usage_bail};
use crate::agents::{
    AgentSpec, BookOpenings, MatchFolder, MatchIdentity, MatchSettings, MatchSummary, run_match,
};
use crate::game::{Game, GameRecord, Playthrough, read_records, recorded_openings};
use crate::lab::sprt::{Decision, Sprt};
use crate::lab::sprt_match::{GAMES_PER_OPENING, SprtResult, play_until_decided, score_of_a};
use crate::lab::stats::{Estimate, Interval};
use crate::with_game;

/// The most games one match plays: it keeps every game's record in memory (and writes them all).
const MAX_GAMES: usize = 1_000_000;

/// A number of games one match may play: 1..[`MAX_GAMES`].
pub(super) fn game_count(text: &str) -> Result<usize, String> {
    super::common::integer_in(text, 1..=MAX_GAMES, "a match keeps every game in memory")
}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Ruleset spec, e.g. `sixteen-rebels`.
    spec: String,
    /// The two agents, A then B (`random`, `mcts:sims=800`); A plays side 0 in even games.
    #[arg(long = "agent", required = true)]
    agents: Vec<String>,
    /// Games to play (default 10); with --sprt the most it plays (default: each opening of the book
    /// once).
    #[arg(long)]
    games: Option<usize>,
    /// Match seed; game i's seed is derived from it and i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Directory for games.jsonl (each game as it ends) and summary.json; nothing is written without
    /// it. The same command run again on the folder of a stopped match resumes it.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads, and the cores used (default: all cores). The games do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Plies of each game drawn uniformly at random (among moves that do not end the game) before
    /// the agents take over, so that agents deterministic given the position play distinct games.
    #[arg(long, default_value_t = 0, conflicts_with = "book")]
    opening: u32,
    /// Open from the openings a study drew for this ruleset, read from its games (`games.jsonl` or
    /// `.jsonl.gz`, e.g. docs/studies/sixteen/games.jsonl.gz): each opening, in the order the study
    /// drew them, opens two games in turn, seats swapped, as in the study's cells.
    #[arg(long, value_name = "GAMES")]
    book: Option<PathBuf>,
    /// Play until a sequential probability ratio test of A being ELO1 Elo stronger than B (H1)
    /// against ELO0 (H0) decides, α = β = 0.05, as fishtest tests a change to Stockfish: passing
    /// (H1) says A is stronger than ELO0, failing (H0) that it is not ELO1 stronger. The book's game
    /// pairs, each opening once (or, with --opening, pairs that share a random opening), a look every
    /// 16 games, --games the most it plays (e.g. `--sprt 0,20`).
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true, value_parser = parse_sprt)]
    sprt: Option<Sprt>,
    /// Print the summary (summary.json's content) as one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let [a, b] = match args.agents.as_slice() {
        [a, b] => [AgentSpec::parse(a).map_err(usage)?, AgentSpec::parse(b).map_err(usage)?],
        other => usage_bail!("a match needs exactly two --agent options (got {})", other.len()),
    };
    if a.is_human() || b.is_human() {
        usage_bail!("the human agent can only play in `rebel-zero play`");
    }
    if let Some(games) = args.games.filter(|g| !(1..=MAX_GAMES).contains(g)) {
        usage_bail!("--games must be 1..{MAX_GAMES} (a match keeps every game in memory), not {games}");
    }
    if args.sprt.is_some() {
        match (args.games, &args.book, args.opening) {
            (_, None, 0) => usage_bail!(
                "--sprt plays pairs of games that open apart: it needs --book GAMES, or --opening PLIES (a random opening for each pair)"
            ),
            (None, None, _) => usage_bail!("--sprt with --opening needs --games, the most games it may play"),
            (Some(games), _, _) if !games.is_multiple_of(GAMES_PER_OPENING) => {
                usage_bail!("--sprt plays game pairs: --games must be even (got {games})")
            }
            _ => {}
        }
    }
    let threads = super::common::worker_threads(args.threads)?;
    let game = load_game(&args.spec)?;
    with_game!(&game, |g| {
        let book = match &args.book {
            Some(path) => Some(read_book(g, path)?),
            None => None,
        };
        // Each of the book's openings played once, a game with each seating.
        let book_games = book.as_ref().map(|(lines, _)| GAMES_PER_OPENING * lines.len());
        let games = match (args.games, book_games, &args.sprt) {
            (Some(games), _, _) => games,
            (None, Some(book_games), Some(_)) => book_games,
            (None, _, _) => DEFAULT_GAMES,
        };
        let folder = match &args.out {
            Some(dir) => {
                let identity = MatchIdentity {
                    spec: g.spec().to_string(),
                    agents: [a.to_string(), b.to_string()],
                    seed: args.seed,
                    opening: args.opening,
                    book: book.as_ref().map(|(lines, _)| MatchIdentity::book_hash(lines)),
                    sprt: args.sprt.map(|test| [test.elo0, test.elo1]),
                };
                let folder = MatchFolder::open(dir, &identity)
                    .map_err(|e| if e.is_usage() { usage(e) } else { anyhow::Error::new(e) })?;
                Some(folder)
            }
            None => None,
        };
        // A resumed match keeps the games it played (those past a smaller --games aside).
        let kept: BTreeMap<usize, GameRecord> = folder
            .as_ref()
            .map(|f| f.kept.iter().filter(|&(&i, _)| i < games).map(|(&i, r)| (i, r.clone())).collect())
            .unwrap_or_default();
        if let (Some(dir), false) = (&args.out, kept.is_empty()) {
            eprintln!(
                "resuming the match in {}: {} of its games were played already",
                dir.display(),
                kept.len()
            );
        }
        let progress = ProgressBar::new(games as u64).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed} (eta {eta})  {msg}")
                .expect("a valid template"),
        );
        progress.set_position(kept.len() as u64);
        let on_game = |record: &GameRecord| {
            progress.inc(1);
            if let Some(folder) = &folder {
                folder.append(record);
            }
        };
        if let (Some(book_games), Some((lines, source))) = (book_games, &book)
            && games > book_games
        {
            // Deterministic agents would repeat a replayed pair, and the test would count it again.
            if args.sprt.is_some() {
                usage_bail!(
                    "--sprt counts each opening's pair once, and {source} holds {} openings: --games may be at most {book_games}",
                    lines.len()
                );
            }
            eprintln!(
                "note: {source} holds {} openings, so games {} on play them again (agents deterministic given the position repeat their games)",
                lines.len(),
                book_games + 1
            );
        }
        let mut settings = MatchSettings::new(games, args.seed, threads, args.opening);
        settings.paired_openings = args.sprt.is_some();
        settings.book =
            book.as_ref().map(|(lines, source)| BookOpenings { lines, per_line: GAMES_PER_OPENING, source });
        let (records, sprt) = match args.sprt {
            Some(test) => {
                let (records, result) =
                    play_until_decided(g, [&a, &b], settings, test, &kept, &on_game, &|look| {
                        progress.set_message(format!(
                            "LLR {:.2} of [{:.2}, {:.2}]",
                            look.llr, look.lower, look.upper
                        ))
                    })?;
                (records, Some(result))
            }
            None => {
                let played: BTreeSet<usize> = kept.keys().copied().collect();
                let new =
                    run_match(g, [&a, &b], MatchSettings { played: Some(&played), ..settings }, &on_game)?;
                let mut all = kept.clone();
                all.extend(new.into_iter().map(|r| (r.game, r)));
                (all.into_values().collect(), None)
            }
        };
        progress.finish_and_clear();
        settings.games = records.len();
        let summary = MatchSummary::new(g, [&a, &b], &settings, &records);
        let book_lines = book.as_ref().map(|(lines, _)| lines.len());
        let score_a = score_of_a(g, &records, book_lines, settings.paired_openings);
        let summary = Summary { score_a, sprt, summary };
        if let Some(folder) = &folder {
            if let Some(failure) = folder.append_failure() {
                eprintln!("warning: a game could not be kept as it ended ({failure}); writing them all now");
            }
            folder.finish(&records, &summary)?;
        }
        if args.json {
            return super::common::print_json(&summary);
        }
        print_summary(g, &summary.summary);
        print_score(&summary.score_a);
        if let Some(sprt) = &summary.sprt {
            print_sprt(sprt);
        }
        if let Some(folder) = &folder {
            println!("wrote {} and {}", folder.games_path().display(), folder.summary_path().display());
        }
    });
    Ok(())
}

/// What `summary.json` holds: the match's totals and agent A's score with its interval.
#[derive(Serialize)]
struct Summary {
    #[serde(flatten)]
    summary: MatchSummary,
    score_a: Estimate,
    #[serde(skip_serializing_if = "Option::is_none")]
    sprt: Option<SprtResult>,
}

fn parse_sprt(text: &str) -> Result<Sprt, String> {
    let bounds: Vec<&str> = text.split(',').collect();
    let [elo0, elo1] = bounds.as_slice() else {
        return Err(format!("`{text}`: expected ELO0,ELO1, two Elo differences such as 0,20"));
    };
    let parse = |s: &str| s.trim().parse::<f64>().map_err(|_| format!("`{s}` is not a number of Elo"));
    Sprt::new(parse(elo0)?, parse(elo1)?, SPRT_ALPHA, SPRT_BETA)
}

/// fishtest's error rates.
const SPRT_ALPHA: f64 = 0.05;
const SPRT_BETA: f64 = 0.05;

fn print_sprt(sprt: &SprtResult) {
    let Sprt { elo0, elo1, alpha, beta } = sprt.test;
    let verdict = match sprt.decision {
        Decision::AcceptH1 => format!(
            "H1 accepted after {} pairs (LLR {:.2} ≥ {:.2}): A is stronger than {elo0} Elo (a false pass at most {alpha} of the time)",
            sprt.pairs, sprt.llr, sprt.upper
        ),
        Decision::AcceptH0 => format!(
            "H0 accepted after {} pairs (LLR {:.2} ≤ {:.2}): A is not {elo1} Elo stronger (a false fail at most {beta} of the time)",
            sprt.pairs, sprt.llr, sprt.lower
        ),
        Decision::Continue => format!(
            "no decision after {} pairs, the most --games allows (LLR {:.2}, between {:.2} and {:.2})",
            sprt.pairs, sprt.llr, sprt.lower, sprt.upper
        ),
    };
    println!("SPRT of A − B = {elo1} Elo (H1) against {elo0} (H0), α = {alpha}, β = {beta}: {verdict}");
    let [ll, ld, even, dw, ww] = sprt.pentanomial;
    println!("pairs by A's points in their two games: 0: {ll}, ½: {ld}, 1: {even}, 1½: {dw}, 2: {ww}");
    let Interval { estimate, low, high } = sprt.elo;
    println!(
        "A's Elo over B: {estimate:+.1}, 95% interval [{low:+.1}, {high:+.1}] (from the pairs, corrected for where the test stopped, as fishtest's)"
    );
}

fn print_score(score: &Estimate) {
    let Interval { estimate, low, high } = score.interval;
    println!(
        "A's score: {:.1}%, 95% interval [{:.1}, {:.1}] (Wilson on {:.0} effective games of {} in {} clusters: games that share an opening, or repeat, are counted together)",
        100.0 * estimate,
        100.0 * low,
        100.0 * high,
        score.effective_n,
        score.n,
        score.clusters
    );
}

/// Games of a match without `--games` or `--sprt`.
const DEFAULT_GAMES: usize = 10;

/// The openings of `game` in the games file at `path` (see [`recorded_openings`]), each checked to
/// play from the start, and where they come from in words. Anything wrong is a usage error.
fn read_book<G: Game>(game: &G, path: &Path) -> anyhow::Result<(Vec<Vec<String>>, String)> {
    let records: Vec<GameRecord> = read_records(path)
        .map_err(|e| usage(anyhow::anyhow!("--book {}: {e}", path.display())))?
        .into_iter()
        .map(|numbered| numbered.record)
        .collect();
    let start = game.format_position(&game.start());
    let Some(found) = recorded_openings(&records, game.spec(), &start) else {
        let rulesets: std::collections::BTreeSet<&str> = records.iter().map(|r| r.spec.as_str()).collect();
        let rulesets: Vec<&str> = rulesets.into_iter().collect();
        usage_bail!(
            "--book {}: no game of {} there opened from the start with an opening of its own (its rulesets: {})",
            path.display(),
            game.spec(),
            if rulesets.is_empty() { "none".to_string() } else { rulesets.join(", ") }
        );
    };
    let mut lines = Vec::with_capacity(found.lines.len());
    for (index, moves) in found.lines.into_iter().enumerate() {
        let mut line = Playthrough::new(game.clone());
        for text in &moves {
            if let Err(e) = line.play_text(text) {
                usage_bail!(
                    "--book {}: opening {} of {} ({}) does not play under {}: `{text}`: {e}",
                    path.display(),
                    index + 1,
                    found.group,
                    moves.join(" "),
                    game.spec()
                );
            }
        }
        // A game's first moves that ended it (an agent's sampled opening can) open nothing.
        if !line.is_over() {
            lines.push(moves);
        }
    }
    if lines.is_empty() {
        usage_bail!("--book {}: every opening of {} there ends the game", path.display(), found.group);
    }
    let source = format!("{} (those of {})", path.display(), found.group);
    Ok((lines, source))
}

fn print_summary<G: Game>(game: &G, summary: &MatchSummary) {
    let names = game.side_names();
    println!("match {}: {} games, seed {}", summary.spec, summary.games, summary.seed);
    println!("openings: {}", summary.openings);
    println!();
    println!(
        "| agent | spec | score | wins | draws | losses | wins as {} | wins as {} |",
        names[0], names[1]
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for agent in &summary.agents {
        let seat = |name: &str| {
            let s = agent.by_side[name];
            format!("{}/{}", s.wins, s.games)
        };
        println!(
            "| {} | {} | {:.1}% | {} | {} | {} | {} | {} |",
            agent.label,
            agent.spec,
            100.0 * agent.score,
            agent.wins,
            agent.draws,
            agent.losses,
            seat(names[0]),
            seat(names[1])
        );
    }
    println!();
    let sides: Vec<String> = summary.wins_by_side.iter().map(|(side, n)| format!("{side} {n}")).collect();
    println!("wins by side: {}", sides.join(", "));
    let draws: Vec<String> =
        summary.draws_by_reason.iter().map(|(reason, n)| format!("{reason} {n}")).collect();
    println!("draws: {}", if draws.is_empty() { "none".to_string() } else { draws.join(", ") });
    println!("mean length: {:.1} plies", summary.mean_plies);
}
