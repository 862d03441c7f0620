//! `rebel-zero replay FILE [--game K]`: steps through a game of a `games.jsonl` file, printing each
//! position after its move; at a terminal it waits for Enter between moves.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::Args;

use super::load_game;
use crate::agents::GameRecord;
use crate::game::{Game, Playthrough, describe_outcome};
use crate::with_game;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A games.jsonl file written by `rebel-zero match --out`.
    file: PathBuf,
    /// Which game: its place in the file, counting from 0 (the `game` field of a match's records).
    #[arg(long, default_value_t = 0)]
    game: usize,
}

pub fn run(args: &ReplayArgs) -> anyhow::Result<()> {
    let record = read_record(args)?;
    let game =
        load_game(&record.spec).with_context(|| format!("game {} of {}", args.game, args.file.display()))?;
    let interactive = std::io::stdin().is_terminal();
    with_game!(&game, |g| {
        let start = g.parse_position(&record.start).context("the record's start position")?;
        let mut line = Playthrough::from_position(g.clone(), start);
        let agents: Vec<String> =
            record.agents.iter().map(|(side, agent)| format!("{side}: {agent}")).collect();
        println!("{} (seed {}), {}", record.spec, record.seed, agents.join(", "));
        println!("{}", g.render(line.state()));
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        for (ply, text) in record.moves.iter().enumerate() {
            if interactive && !wait_for_enter(&mut input)? {
                return Ok(());
            }
            line.play_text(text).with_context(|| format!("move {} (`{text}`) of the record", ply + 1))?;
            println!("{}. {text}", ply + 1);
            println!("{}", g.render(line.state()));
        }
        match line.outcome() {
            Some(outcome) => println!("result: {}", describe_outcome(g, &outcome)),
            None => println!("the record ends before the game does"),
        }
        let names = g.side_names();
        let replayed_winner = line.outcome().and_then(|o| o.winner).map(|s| names[s.index()].to_string());
        let replayed_reason = line.outcome().map(|o| o.reason.as_str());
        if replayed_winner != record.winner || replayed_reason != Some(record.reason.as_str()) {
            bail!(
                "the record says winner {:?} by {}, but the moves give {:?} by {}",
                record.winner,
                record.reason,
                replayed_winner,
                replayed_reason.unwrap_or("no result")
            );
        }
    });
    Ok(())
}

/// The record of game `args.game`, or an error that says what is wrong with the file.
fn read_record(args: &ReplayArgs) -> anyhow::Result<GameRecord> {
    let path = &args.file;
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let lines: Vec<(usize, &str)> =
        text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty()).collect();
    let Some(&(number, line)) = lines.get(args.game) else {
        bail!("{} holds {} games; --game must be below that", path.display(), lines.len());
    };
    serde_json::from_str(line)
        .with_context(|| format!("{} line {}: not a game record", path.display(), number + 1))
}

/// Waits for Enter; false when the person types `q` or the input ends.
fn wait_for_enter(input: &mut impl BufRead) -> anyhow::Result<bool> {
    print!("[Enter: next move, q: stop] ");
    std::io::stdout().flush()?;
    let mut text = String::new();
    Ok(input.read_line(&mut text)? > 0 && text.trim() != "q")
}
