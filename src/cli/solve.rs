//! `rebel-zero solve SPEC [--position POS] [--moves …] [--games FILE] [--verify]`: solves
//! sixteen-rebels and juroku-musashi (with their options, and rules files like them) by retrograde
//! analysis, keeps the table on
//! disk (one file; for juroku-musashi a folder of level files, resumed level by level), and prints the
//! value of a position and of each of its moves, or judges recorded games move by move.

use std::path::{Path, PathBuf};

use clap::Args;
use indicatif::ProgressBar;

use super::common::{load_game, load_position};
use super::table_bars::{LevelBars, TableBar};
use crate::game::hunt::HuntGame;
use crate::game::{AnyGame, Game, Playthrough, Side};
use crate::tablebase::juroku::{BuildEstimate, missing_levels};
use crate::tablebase::{
    GroupTally, Prospect, RecordedGame, TableFileError, TableSize, Tablebase, Verdict, default_table_path,
    is_japanese, recorded_games, will_build,
};

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Ruleset spec: sixteen-rebels with any of its options but Murray's and Neeley's, juroku-musashi
    /// with any of its options, or a rules file like them (`file:RULES.toml`: the General captures
    /// pairs by intervention, or plays juroku-musashi's rules on its board).
    spec: String,
    /// The table: read when it exists, else built and written there. sixteen-rebels: one file (1 GB;
    /// about 6 minutes on 2 cores and 2.2 GB of memory to build; a rules file's estimate is printed
    /// first, and one this machine's memory cannot hold is refused). juroku-musashi: a folder with a file per Rebel count, built from
    /// the fewest Rebels up and resumed from the last level written (hours on 2 cores, 16 GB of memory
    /// and 29 GB of disk with the triangle open; minutes closed). Default: <cache
    /// folder>/tablebases/<rules>[.rztb] (see --cache-dir).
    #[arg(long)]
    table: Option<PathBuf>,
    /// juroku-musashi: build (and read) only the levels of at most this many Rebels; positions with
    /// more are then not in the table.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=16))]
    up_to: Option<u32>,
    /// Judge this position instead of the start.
    #[arg(long)]
    position: Option<String>,
    /// Moves to play first, comma-separated, in RULES.md section 7 notation.
    #[arg(long, value_delimiter = ',')]
    moves: Vec<String>,
    /// Judge every game of this games.jsonl (from `match --out` or a study) against best play: per
    /// pairing of agents (or study cell), each side's forced wins, their conversion and its mistakes.
    #[arg(long)]
    games: Option<PathBuf>,
    /// With --games, also print each game's mistakes.
    #[arg(long, requires = "games")]
    each: bool,
    /// Check every position of the table against the rules' move generator (a few minutes; hours for
    /// juroku-musashi's open triangle), then random positions against a plain search of 4 plies.
    #[arg(long)]
    verify: bool,
    /// Print how each level's positions divide into wins, losses and draws.
    #[arg(long)]
    levels: bool,
    /// The position's value and its moves' as one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Build a missing table a question (--position, --moves, --games) needs instead of saying what
    /// the build would take (juroku-musashi: the missing levels, up to the position's Rebel count).
    /// `solve SPEC` alone builds the whole table (or, for juroku-musashi, the levels up to --up-to).
    #[arg(long)]
    build: bool,
}

pub fn run(args: &SolveArgs) -> anyhow::Result<()> {
    let game = solvable(&args.spec)?;
    if args.up_to.is_some() && !is_japanese(&game) {
        super::common::usage_bail!("--up-to is for juroku-musashi, whose table is built level by level");
    }
    let start = load_position(&game, args.position.as_deref())?;
    let mut line = Playthrough::from_position(game.clone(), start);
    super::common::play_typed_moves(&mut line, &args.moves)?;
    // Read the games first: a bad games file should not wait for minutes of solving.
    let games = args.games.as_deref().map(|file| recorded_games(&game, file)).transpose()?;
    let path = args.table.clone().unwrap_or_else(|| default_table_path(&game));
    let tb = if is_japanese(&game) {
        let most = args.up_to.unwrap_or(game.rules.rebel_count);
        // A question is answered from the levels present; only `solve SPEC` or --build builds, and
        // --build only the levels the question needs.
        let asked = args.position.is_some() || !args.moves.is_empty() || games.is_some();
        let needed = if games.is_some() { most } else { line.state().rebels.count_ones() };
        if asked && needed > most {
            super::common::usage_bail!(
                "the position has {needed} Rebels, more than --up-to {most}: a table of at most {most} does not hold it"
            );
        }
        // A question opens only the levels it reads (a position's Rebels never grow in number), so a
        // level above them is neither read through for its checksum nor, if damaged, in the way;
        // --verify and --levels are about the whole table.
        let read_up_to = if args.verify || args.levels { most } else { needed };
        match (asked, args.build) {
            (true, false) => open_or_build_levels(&game, &path, read_up_to, Some(needed))?,
            (true, true) => open_or_build_levels(&game, &path, needed, None)?,
            (false, _) => open_or_build_levels(&game, &path, most, None)?,
        }
    } else {
        let asked = args.position.is_some() || !args.moves.is_empty() || games.is_some();
        open_or_build(&game, &path, asked && !args.build)?
    };
    if args.verify {
        verify(&tb)?;
    }
    if args.levels {
        print_levels(&tb);
    }
    match games {
        Some((games, skipped)) => judge_games(&tb, &games, skipped, args.each),
        None if args.json => return super::common::print_json(&verdicts_json(&tb, &line)),
        None => print_verdicts(&tb, &line),
    }
    Ok(())
}

/// Builds the whole table of `game`'s rules at its default path, as `rebel-zero solve SPEC` does
/// (`balance --check --build-tables`).
pub fn build_whole_table(game: &HuntGame) -> anyhow::Result<()> {
    let path = default_table_path(game);
    if is_japanese(game) {
        open_or_build_levels(game, &path, game.rules.rebel_count, None)?;
    } else {
        open_or_build(game, &path, false)?;
    }
    Ok(())
}

/// The hunt game of `spec`, if a table can solve it.
fn solvable(spec: &str) -> anyhow::Result<HuntGame> {
    let AnyGame::Hunt(game) = load_game(spec)? else {
        super::common::usage_bail!(
            "`{spec}` is not a hunt game; only sixteen-rebels, juroku-musashi, their options and rules files like them are solved"
        );
    };
    crate::tablebase::check_supported(&game).map_err(super::common::usage)?;
    Ok(game)
}

/// The Japanese board's table in the folder `dir`, its levels up to `most` Rebels built where missing:
/// a progress bar per level, a line per level kept or built. For a question about positions of at
/// most `question` Rebels nothing is built: the levels present answer it, or the error names the
/// levels it needs and what building them would take.
pub fn open_or_build_levels(
    game: &HuntGame,
    dir: &Path,
    most: u32,
    question: Option<u32>,
) -> anyhow::Result<Tablebase> {
    let missing = missing_levels(game, dir, most);
    if let Some(rebels) = question {
        let needed: Vec<u32> = missing.iter().copied().filter(|&n| n <= rebels).collect();
        if !needed.is_empty() {
            super::common::usage_bail!(
                "the table in {} lacks the levels of {} Rebels, which positions of {rebels} Rebels need; \
                 `rebel-zero solve {} --table '{}' --up-to {rebels}` builds them ({})",
                dir.display(),
                list(&needed),
                game.spec(),
                dir.display(),
                BuildEstimate::of(game, &needed)
            );
        }
        eprintln!("reading {}", dir.display());
        return Tablebase::open_levels(game, dir, most).map_err(other_rules_hint);
    }
    if !missing.is_empty() {
        let estimate = BuildEstimate::of(game, &missing);
        let long = if estimate.is_long() {
            " (stop it at any time: it resumes from the last level written)"
        } else {
            ""
        };
        eprintln!("building the levels of {} Rebels in {}: {estimate}{long}", list(&missing), dir.display());
    }
    // A build takes the folder's lock before any work, which also shows the folder can be written.
    let mut observer = LevelBars::new();
    let tb = Tablebase::build_in_folder(game, dir, most, &mut observer).map_err(other_rules_hint)?;
    if observer.built > 0 {
        eprintln!("wrote {} levels in {}", observer.built, dir.display());
    } else {
        eprintln!("reading {}", dir.display());
    }
    Ok(tb)
}

/// A table file's error, saying how to name the table of these rules where it holds others'.
fn other_rules_hint(e: TableFileError) -> anyhow::Error {
    match e {
        TableFileError::OtherRules { .. } => {
            anyhow::anyhow!("{e}; name the table of these rules with --table")
        }
        _ => e.into(),
    }
}

/// Rebel counts as a range where they run on: `11–16`, `2, 4, 6`.
fn list(levels: &[u32]) -> String {
    match levels {
        [first, .., last] if levels.windows(2).all(|w| w[1] == w[0] + 1) => format!("{first}–{last}"),
        _ => levels.iter().map(u32::to_string).collect::<Vec<_>>().join(", "),
    }
}

/// The in-memory builder's table at `path` ([`crate::tablebase::open_or_build`]): read when it holds
/// every level the game reaches; else built with a bar and a line per level, after its estimate and a
/// check that this machine's memory holds it. For a `question` (a position, moves or games asked
/// without --build) nothing is built: the error says what building takes.
pub fn open_or_build(game: &HuntGame, path: &Path, question: bool) -> anyhow::Result<Tablebase> {
    let spec = game.spec();
    if will_build(game, path) {
        let size = TableSize::of(game);
        if question {
            super::common::usage_bail!(
                "the table of `{spec}` is not built at {}; `rebel-zero solve {spec}` builds it, or add --build ({})",
                path.display(),
                size.estimate
            );
        }
        size.check(crate::memory::available_bytes()).map_err(|why| {
            super::common::usage(anyhow::anyhow!("cannot build the table of `{spec}` here: {why}"))
        })?;
        eprintln!("building the table of `{spec}` at {}: {size}", path.display());
    } else {
        eprintln!("reading {}", path.display());
    }
    let levels = crate::tablebase::levels_of(game);
    let bar = TableBar::new(ProgressBar::new(0));
    bar.level(&levels, 0);
    let mut done = 0;
    let opened = crate::tablebase::open_or_build(
        game,
        path,
        |r| {
            let [g, _] = r.tallies;
            // Printed beside the bar, not through it: a hidden bar (no terminal) would swallow the line.
            bar.0.suspend(|| {
                eprintln!(
                    "{:2} Rebels: {:>11} positions in {:5.1} s; General to move: {} won, {} lost, {} drawn; longest {} plies",
                    r.rebels,
                    r.tallies[0].positions() + r.tallies[1].positions(),
                    r.seconds,
                    g.wins,
                    g.losses,
                    g.draws,
                    g.longest
                )
            });
            done += 1;
            bar.level(&levels, done);
        },
        &bar,
    );
    bar.0.finish_and_clear();
    let (tb, built) = opened.map_err(|e| match e {
        TableFileError::Write { .. } => {
            anyhow::Error::new(e).context(format!("cannot write the table at {}", path.display()))
        }
        _ if e.is_damaged() => anyhow::anyhow!("{e} (remove the file to build the table again)"),
        _ => other_rules_hint(e),
    })?;
    if built {
        eprintln!("wrote {}", path.display());
    }
    Ok(tb)
}

fn print_levels(tb: &Tablebase) {
    let headers = tb.level_headers();
    if !headers.is_empty() {
        println!("| Rebels | slots per side | file (MB) | build (s) | memory peak (MB) |");
        println!("| ---: | ---: | ---: | ---: | ---: |");
        for h in &headers {
            println!(
                "| {} | {} | {:.0} | {:.1} | {} |",
                h.rebels,
                h.slots,
                (2 * h.slots) as f64 / 1e6,
                h.seconds,
                h.peak_memory_mb
            );
        }
        println!();
    }
    println!("| Rebels | to move | positions | won | lost | drawn | longest (plies) |");
    println!("| ---: | --- | ---: | ---: | ---: | ---: | ---: |");
    let percent = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
    for (rebels, tallies) in tb.level_tallies() {
        for side in Side::BOTH {
            let t = tallies[side.index()];
            let n = t.positions();
            println!(
                "| {rebels} | {} | {n} | {:.1}% | {:.1}% | {:.1}% | {} |",
                tb.game().side_names()[side.index()],
                percent(t.wins, n),
                percent(t.losses, n),
                percent(t.draws, n),
                t.longest
            );
        }
    }
}

fn verify(tb: &Tablebase) -> anyhow::Result<()> {
    let clock = std::time::Instant::now();
    let checked = tb.verify(|rebels, n| eprintln!("verified {n} positions with {rebels} Rebels"))?;
    // The Japanese board stores one of each mirror pair: those are what it checks.
    let what =
        if is_japanese(tb.game()) { "stored positions (one of each mirror pair)" } else { "positions" };
    println!(
        "verified: all {checked} {what} agree with their moves ({:.0} s)",
        clock.elapsed().as_secs_f64()
    );
    let clock = std::time::Instant::now();
    let spot = tb.spot_check(SPOT_POSITIONS, SPOT_DEPTH, tb.game().rules.rebel_count, SPOT_SEED)?;
    println!(
        "spot check: {} random positions agree with a plain search of {} plies ({} of them decided within it; {:.0} s)",
        spot.positions,
        spot.depth,
        spot.decided_within_depth,
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The spot check of `--verify`: positions, plies searched, seed.
const SPOT_POSITIONS: usize = 2000;
const SPOT_DEPTH: u32 = 4;
const SPOT_SEED: u64 = 1;

fn print_verdicts(tb: &Tablebase, line: &Playthrough<HuntGame>) {
    let game = tb.game();
    let s = line.state();
    print!("{}", game.render(s));
    println!("position: {}", game.format_position(s));
    let mover = game.to_move(s);
    let name = game.side_names()[mover.index()];
    let plies_left = game.max_plies().saturating_sub(line.plies());
    match tb.probe(s) {
        None => println!(
            "the table does not hold this position (a finished game, or a Rebel count it has no level for)"
        ),
        Some(v) => {
            println!("value: {} ({plies_left} plies left before the cap)", describe(v, name, plies_left))
        }
    }
    for (m, verdict) in tb.move_verdicts(s) {
        let text = verdict.map_or("not in the table".to_string(), |v| describe(v, name, plies_left));
        println!("  {:14} {text}", game.format_move(s, m));
    }
}

/// The position's value and each move's, for the side to move: `{"result": "win"|"loss"|"draw",
/// "plies": N}` (null where the table holds no value).
fn verdicts_json(tb: &Tablebase, line: &Playthrough<HuntGame>) -> serde_json::Value {
    let game = tb.game();
    let s = line.state();
    let value = |v: Option<Verdict>| {
        v.map(|v| match v {
            Verdict::Win { plies } => serde_json::json!({"result": "win", "plies": plies}),
            Verdict::Loss { plies } => serde_json::json!({"result": "loss", "plies": plies}),
            Verdict::Draw => serde_json::json!({"result": "draw"}),
        })
    };
    let moves: Vec<serde_json::Value> = tb
        .move_verdicts(s)
        .into_iter()
        .map(|(m, v)| serde_json::json!({"move": game.format_move(s, m), "value": value(v)}))
        .collect();
    serde_json::json!({
        "spec": game.spec(),
        "position": game.format_position(s),
        "to_move": game.side_names()[game.to_move(s).index()],
        "plies_left": game.max_plies().saturating_sub(line.plies()),
        "value": value(tb.probe(s)),
        "moves": moves,
    })
}

/// "at least " where the table keeps only a bound on the distance.
fn at_least(v: Verdict) -> &'static str {
    if v.is_bound() { "at least " } else { "" }
}

/// "a win for the general in 7 plies", "a draw", from the side to move's verdict.
fn describe(v: Verdict, side: &str, plies_left: u32) -> String {
    let capped = if v.within(plies_left) != v { " (beyond the cap: a draw in play)" } else { "" };
    match v {
        Verdict::Win { plies } => format!("a win for the {side} in {}{plies} plies{capped}", at_least(v)),
        Verdict::Loss { plies } => format!("a loss for the {side} in {}{plies} plies{capped}", at_least(v)),
        Verdict::Draw => "a draw".to_string(),
    }
}

/// Judges recorded games: per group of games (a study cell, else a pairing of agents), how often each
/// side had a forced win, how often it won those games, and its mistakes against best play.
fn judge_games(tb: &Tablebase, recorded: &[RecordedGame], skipped: usize, each: bool) {
    let names = tb.game().side_names();
    let groups = tb.tally_games(recorded.iter().map(|g| (g.group.as_str(), &g.line)), |index, judged| {
        let record = &recorded[index].record;
        if !each {
            return;
        }
        let notes: Vec<String> = judged
            .iter()
            .filter(|j| j.is_mistake())
            .map(|j| {
                let text = &record.moves[j.ply as usize - 1];
                let (before, after) = (prospect(j.before), prospect(j.after));
                let cap = if j.against_the_cap { " (against the cap)" } else { "" };
                format!("{}. {} {text}: {before} → {after}{cap}", j.ply, names[j.mover.index()])
            })
            .collect();
        let result = record
            .winner
            .as_deref()
            .map_or(format!("draw by {}", record.reason), |w| format!("{w} win by {}", record.reason));
        let notes = if notes.is_empty() { "no mistakes".to_string() } else { notes.join("; ") };
        println!("game {:3} ({} plies, {result}): {notes}", record.game, record.plies);
    });
    println!(
        "\nGames judged against best play ({skipped} records of other rules skipped). For each side: the games in"
    );
    println!(
        "which it had a forced win at some point and how many of those it won; its moves made with a win in"
    );
    println!(
        "hand and how many let the win go; and how many drawn positions it lost. In brackets, the mistakes"
    );
    println!(
        "only against the draw cap: without the cap the move kept the result (a loss was one already, a"
    );
    println!("win is still one), and only the plies the cap leaves made it give something up.\n");
    println!(
        "| games | of | General had a win | won | wins let go / moves | draws lost | Rebels had a win | won | wins let go / moves | draws lost |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for GroupTally { group, games, sides } in &groups {
        let [g, r] = sides.map(|t| {
            let let_go =
                format!("{} ({}) / {}", t.wins_let_go, t.wins_let_go_against_the_cap, t.winning_moves);
            let lost = format!("{} ({})", t.draws_lost, t.draws_lost_against_the_cap);
            format!("{} | {} | {let_go} | {lost}", t.games_with_a_win, t.won_of_those)
        });
        println!("| {group} | {games} | {g} | {r} |");
    }
}

fn prospect(p: Prospect) -> &'static str {
    match p {
        Prospect::Win => "win",
        Prospect::Draw => "draw",
        Prospect::Loss => "loss",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `solve --json` on a position of the reduced (6-Rebel) table: one JSON object with the value and
    /// every move's, as a script reads it.
    #[test]
    fn the_json_verdicts_parse_and_agree_with_the_table() {
        let tb = crate::tablebase::testing::six_rebels();
        let s = crate::tablebase::testing::position_with_a_choice(&tb, Side::ZERO);
        let line = Playthrough::from_position(tb.game().clone(), s);
        let text = serde_json::to_string(&verdicts_json(&tb, &line)).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["value"]["result"], "win");
        assert_eq!(value["to_move"], "general");
        let moves = value["moves"].as_array().unwrap();
        assert_eq!(moves.len(), tb.move_verdicts(&s).len());
        assert!(moves.iter().any(|m| m["value"]["result"] != "loss"), "{text}");
    }
}
