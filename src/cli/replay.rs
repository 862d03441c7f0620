//! `rebel-zero replay FILE [--cell ID] [--game K] [--list]`: steps through a game of a games file
//! (plain or gzipped), printing each position after its move; at a terminal it waits for Enter between
//! moves. The record is checked first: a move that does not replay or a result that differs is an
//! error naming the line.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{Context, anyhow};
use clap::Args;

use super::common::{usage, usage_bail};
use crate::game::record::NumberedRecord;
use crate::game::{Game, describe_outcome, read_records};
use crate::with_game;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A games file: `match --out`'s games.jsonl, a study's games.jsonl(.gz), or the games `play` saves.
    file: PathBuf,
    /// Which game, counting from 0: its place in the file, or within the cell `--cell` names.
    #[arg(long, default_value_t = 0)]
    game: usize,
    /// Only the games of this study cell (see `--list`).
    #[arg(long)]
    cell: Option<String>,
    /// List the file's cells (or agent pairings) with their number of games, and stop.
    #[arg(long)]
    list: bool,
}

pub fn run(args: &ReplayArgs) -> anyhow::Result<()> {
    let records = read_records(&args.file)?;
    if args.list {
        return list_groups(&records);
    }
    let NumberedRecord { line: file_line, record } = pick(args, records)?;
    let game = record.ruleset().with_context(|| format!("{} line {file_line}", args.file.display()))?;
    let interactive = std::io::stdin().is_terminal();
    with_game!(&game, |g| {
        // Replayed (and checked) whole first; then shown a position at a time.
        let line = record.replay(g).map_err(|e| anyhow!("{} line {file_line}: {e}", args.file.display()))?;
        let agents: Vec<String> =
            record.agents.iter().map(|(side, agent)| format!("{side}: {agent}")).collect();
        println!("{} (seed {}), {}", record.spec, record.seed, agents.join(", "));
        println!("{}", g.render(line.start()));
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        for (ply, (text, state)) in record.moves.iter().zip(&line.states()[1..]).enumerate() {
            if interactive && !wait_for_enter(&mut input)? {
                return Ok(());
            }
            println!("{}. {text}", ply + 1);
            println!("{}", g.render(state));
        }
        match line.outcome() {
            Some(outcome) => println!("result: {}", describe_outcome(g, &outcome)),
            None => println!("the record ends before the game does"),
        }
    });
    Ok(())
}

/// The record the arguments select: game `--game` of the file, or of the cell `--cell`.
fn pick(args: &ReplayArgs, records: Vec<NumberedRecord>) -> anyhow::Result<NumberedRecord> {
    let file = args.file.display();
    let candidates: Vec<NumberedRecord> = match &args.cell {
        None => records,
        Some(cell) => {
            let groups = groups(&records);
            let chosen: Vec<NumberedRecord> =
                records.into_iter().filter(|r| r.record.cell.as_deref() == Some(cell.as_str())).collect();
            if chosen.is_empty() {
                let known: Vec<&str> = groups.iter().map(|(name, _)| name.as_str()).take(20).collect();
                usage_bail!("{file} has no cell `{cell}`; its cells are: {}", known.join(", "));
            }
            chosen
        }
    };
    let total = candidates.len();
    let scope = args.cell.as_ref().map_or(String::new(), |cell| format!(" of cell `{cell}`"));
    candidates.into_iter().nth(args.game).ok_or_else(|| {
        usage(anyhow!("{file} holds {total} games{scope}; --game must be below that (counting from 0)"))
    })
}

/// The file's groups (study cells, else agent pairings) in order of first appearance, with counts.
fn groups(records: &[NumberedRecord]) -> Vec<(String, usize)> {
    let mut groups: Vec<(String, usize)> = Vec::new();
    for numbered in records {
        let name = numbered.record.group();
        match groups.iter_mut().find(|(g, _)| *g == name) {
            Some((_, count)) => *count += 1,
            None => groups.push((name, 1)),
        }
    }
    groups
}

fn list_groups(records: &[NumberedRecord]) -> anyhow::Result<()> {
    let has_cells = records.iter().any(|r| r.record.cell.is_some());
    println!("{:>6}  {}", "games", if has_cells { "cell (--cell)" } else { "agents" });
    for (name, count) in groups(records) {
        println!("{count:>6}  {name}");
    }
    Ok(())
}
/// Waits for Enter; false when the person types `q` or the input ends.
fn wait_for_enter(input: &mut impl BufRead) -> anyhow::Result<bool> {
    print!("[Enter: next move, q: stop] ");
    std::io::stdout().flush()?;
    let mut text = String::new();
    Ok(input.read_line(&mut text)? > 0 && text.trim() != "q")
}
