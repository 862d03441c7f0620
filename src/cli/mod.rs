//! The command line: clap definitions that only parse, call the library and print. Every error reaches
//! [`main`], which prints it and exits with code 2.

mod arena;
mod balance;
mod bench;
mod bench_net;
mod bench_search;
mod bench_train;
mod perft;
mod play;
mod replay;
mod rules;
mod show;
mod solve;
mod train;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::game::{AnyGame, Game};

#[derive(Parser, Debug)]
#[command(
    name = "rebel-zero",
    version,
    about = "Self-play lab for the balance of hunt games and chess variants"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every ruleset with its options, defaults and sources.
    Rules,
    /// Count move sequences from a position (RULES.md 0.5): one line `perft K N` per depth.
    Perft(perft::PerftArgs),
    /// Draw a position as text and list its legal moves.
    Show(show::ShowArgs),
    /// Measure perft nodes/s and random playouts/s per ruleset, single thread.
    Bench(bench::BenchArgs),
    /// Play a match between two agents with alternating seats; summary table, optional records.
    Match(arena::MatchArgs),
    /// Play a game against an agent at the terminal.
    Play(play::PlayArgs),
    /// Step through a recorded game of a games.jsonl file.
    Replay(replay::ReplayArgs),
    /// Measure MCTS simulations/s (value-0 and rollout evaluators), single thread.
    BenchSearch(bench_search::BenchSearchArgs),
    /// Measure network inference positions/s and GFLOP/s per batch size (burn, CPU).
    BenchNet(bench_net::BenchNetArgs),
    /// Measure the learner's training steps: samples/s per batch size.
    BenchTrain(bench_train::BenchTrainArgs),
    /// Train a policy/value network by self-play, as a config file says; resumable.
    Train(train::TrainArgs),
    /// Run or resume a balance study: report.md, results.json, games.jsonl and charts.
    Balance(balance::BalanceArgs),
    /// Solve sixteen-rebels exactly (retrograde analysis) and print a position's value and its moves'.
    Solve(solve::SolveArgs),
}

/// Runs the command line; errors become a message on stderr and exit code 2.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rules => rules::run(),
        Command::Perft(args) => perft::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Match(args) => arena::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::BenchSearch(args) => bench_search::run(&args),
        Command::Train(args) => train::run(&args),
        Command::BenchNet(args) => bench_net::run(&args),
        Command::BenchTrain(args) => bench_train::run(&args),
        Command::Balance(args) => balance::run(&args),
        Command::Solve(args) => solve::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// The ruleset a spec names.
fn load_game(spec: &str) -> anyhow::Result<AnyGame> {
    Ok(AnyGame::from_spec(spec)?)
}

/// The given position, or the start.
fn load_position<G: Game>(game: &G, position: Option<&str>) -> anyhow::Result<G::State> {
    match position {
        Some(text) => Ok(game.parse_position(text)?),
        None => Ok(game.start()),
    }
}
