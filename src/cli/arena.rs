//! `rebel-zero match SPEC --agent A --agent B --games N --seed S [--out DIR] [--threads T]`: a match
//! with alternating seats, a progress bar, a summary table, and optionally `DIR/games.jsonl` and
//! `DIR/summary.json`.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::common::{load_game, usage, usage_bail};
use crate::agents::{AgentSpec, MatchSettings, MatchSummary, run_match};
use crate::game::Game;
use crate::game::GameRecord;
use crate::with_game;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Ruleset spec, e.g. `sixteen-rebels`.
    spec: String,
    /// The two agents, A then B (`random`, `mcts:sims=800`); A plays side 0 in even games.
    #[arg(long = "agent", required = true)]
    agents: Vec<String>,
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Match seed; game i's seed is derived from it and i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Directory for games.jsonl and summary.json (nothing is written without it).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Worker threads, and the cores used (default: all cores). The games do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Plies of each game drawn uniformly at random (among moves that do not end the game) before
    /// the agents take over, so that agents deterministic given the position play distinct games.
    #[arg(long, default_value_t = 0)]
    opening: u32,
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
    if args.games == 0 {
        usage_bail!("--games must be at least 1");
    }
    let threads = super::common::worker_threads(args.threads)?;
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let game = load_game(&args.spec)?;
    with_game!(&game, |g| {
        let progress = ProgressBar::new(args.games as u64).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed} (eta {eta})")
                .expect("a valid template"),
        );
        let settings = MatchSettings::new(args.games, args.seed, threads, args.opening);
        let records = run_match(g, [&a, &b], settings, &|_| progress.inc(1))?;
        progress.finish_and_clear();
        let summary = MatchSummary::new(g, [&a, &b], args.seed, &records);
        if let Some(dir) = &args.out {
            write_results(dir, &records, &summary)?;
        }
        if args.json {
            return super::common::print_json(&summary);
        }
        print_summary(g, &summary);
        if let Some(dir) = &args.out {
            println!(
                "wrote {} and {}",
                dir.join("games.jsonl").display(),
                dir.join("summary.json").display()
            );
        }
    });
    Ok(())
}

fn print_summary<G: Game>(game: &G, summary: &MatchSummary) {
    let names = game.side_names();
    println!("match {}: {} games, seed {}", summary.spec, summary.games, summary.seed);
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

fn write_results(
    dir: &std::path::Path,
    records: &[GameRecord],
    summary: &MatchSummary,
) -> anyhow::Result<()> {
    let mut games = Vec::new();
    for record in records {
        serde_json::to_writer(&mut games, record)?;
        games.push(b'\n');
    }
    crate::files::write_atomic(&dir.join("games.jsonl"), &games)?;
    crate::files::write_atomic(
        &dir.join("summary.json"),
        (serde_json::to_string_pretty(summary)? + "\n").as_bytes(),
    )?;
    Ok(())
}
