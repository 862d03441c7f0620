//! The command line: clap definitions that only parse, call the library and print. Every error reaches
//! [`main`], which prints it and exits with code 2 for a mistake in what was typed ([`Usage`]: a bad
//! spec, position, move, agent or option value), 1 for a failure while running (a file that cannot
//! be read or written, a damaged checkpoint), and 3 for a check that found nothing wrong but could
//! not verify everything ([`common::Unverified`]: `balance --check` where a table is not built). A
//! closed pipe (`rebel-zero rules | head -1`) ends the program quietly with success.

mod arena;
mod balance;
mod bench;
mod bench_net;
mod bench_search;
mod bench_train;
mod common;
mod perft;
mod pgn;
mod play;
mod presets;
mod quantize;
mod replay;
mod rules;
mod selfplay;
mod serve;
mod show;
mod solve;
mod sweep;
mod table_bars;
mod train;
mod tune;
mod uci;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

pub use common::{Usage, usage};

/// The command line as clap defines it: for the man page and completions, and for the tests that
/// walk every option.
pub fn command() -> clap::Command {
    Cli::command()
}

#[derive(Parser, Debug)]
#[command(
    name = "rebel-zero",
    version,
    about = "Self-play lab for the balance of hunt games and chess variants"
)]
struct Cli {
    /// Where tablebases are cached (default: $REBEL_ZERO_CACHE, else the platform's cache folder,
    /// ~/.cache/rebel-zero on Linux).
    #[arg(long, global = true, value_name = "DIR")]
    cache_dir: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every ruleset with its options, defaults and sources.
    Rules(rules::RulesArgs),
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
    /// Step through a recorded game of a games file (plain or gzipped), chosen by index or study cell.
    Replay(replay::ReplayArgs),
    /// Export the chess-family games of a games file as PGN.
    Pgn(pgn::PgnArgs),
    /// Run as a UCI chess engine (chess, rebellion and squirm chess) for GUIs and python-chess.
    Uci(uci::UciArgs),
    /// Fit the chess evaluation's weights to self-play results (Texel's method).
    Tune(tune::TuneArgs),
    /// Measure MCTS simulations/s (value-0 and rollout evaluators), single thread.
    BenchSearch(bench_search::BenchSearchArgs),
    /// Measure network inference positions/s and GFLOP/s per batch size (burn, CPU).
    BenchNet(bench_net::BenchNetArgs),
    /// Calibrate a network's 8-bit inference (calibration.json) and measure it against f32 on recorded games.
    Quantize(quantize::QuantizeArgs),
    /// Measure the learner's training steps: samples/s per batch size.
    BenchTrain(bench_train::BenchTrainArgs),
    /// Train a policy/value network by self-play, as a config file says; resumable.
    Train(train::TrainArgs),
    /// Play a batch of self-play games from a saved generation into a game file (for `train --learner`).
    Selfplay(selfplay::SelfplayArgs),
    /// Run or resume a balance study: report.md, results.json, games.jsonl and charts.
    Balance(balance::BalanceArgs),
    /// Play, analyse and replay games in the browser: a local web server (http://127.0.0.1:8080).
    Serve(serve::ServeArgs),
    /// Solve sixteen-rebels, juroku-musashi or a rules file like them exactly (retrograde analysis) and print a position's value and its moves'.
    Solve(solve::SolveArgs),
    /// Solve a hunt ruleset for every value of one or two rules (general_wins_at, first, rebels, …) and report where the balance turns.
    Sweep(sweep::SweepArgs),
    /// Write a shell completion script to stdout (bash, zsh, fish, elvish, powershell).
    Completions { shell: clap_complete::Shell },
    /// Write the man page (roff) to stdout: `rebel-zero manpage > rebel-zero.1`; with `--dir`, every
    /// subcommand's page too (`rebel-zero-match.1`, …), which the main page's list refers to.
    Manpage {
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
}

/// Runs the command line; errors become a message on stderr and exit code 2 (usage), 3 (unverified)
/// or 1 (runtime).
pub fn main() -> ExitCode {
    end_quietly_on_closed_pipe();
    let cli = Cli::parse();
    if let Some(dir) = cli.cache_dir {
        crate::files::set_cache_dir(dir);
    }
    let result = match cli.command {
        Command::Rules(args) => rules::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Match(args) => arena::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Replay(args) => replay::run(&args),
        Command::Pgn(args) => pgn::run(&args),
        Command::Uci(args) => uci::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::BenchSearch(args) => bench_search::run(&args),
        Command::Train(args) => train::run(&args),
        Command::BenchNet(args) => bench_net::run(&args),
        Command::Quantize(args) => quantize::run(&args),
        Command::BenchTrain(args) => bench_train::run(&args),
        Command::Balance(args) => balance::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Sweep(args) => sweep::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Selfplay(args) => selfplay::run(&args),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "rebel-zero", &mut std::io::stdout());
            Ok(())
        }
        Command::Manpage { dir: None } => {
            // As `--dir` writes them: `help` is a flag on every page, not a page of its own.
            let command = Cli::command().disable_help_subcommand(true);
            main_page(command, &mut std::io::stdout()).map_err(anyhow::Error::from)
        }
        Command::Manpage { dir: Some(dir) } => write_man_pages(&dir),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if is_closed_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            let is = |marked: fn(&(dyn std::error::Error + 'static)) -> bool| error.chain().any(marked);
            ExitCode::from(if is(|e| e.is::<Usage>()) {
                2
            } else if is(|e| e.is::<common::Unverified>()) {
                3
            } else {
                1
            })
        }
    }
}

/// Every page into `dir` (created if missing), listed on stderr.
fn write_man_pages(dir: &std::path::Path) -> anyhow::Result<()> {
    let writing = |e: std::io::Error| anyhow::anyhow!("writing into {}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("creating {}: {e}", dir.display()))?;
    clap_mangen::generate_to(Cli::command(), dir).map_err(writing)?;
    // The main page again, with the sections clap does not write.
    let mut page = Vec::new();
    main_page(Cli::command().disable_help_subcommand(true), &mut page).map_err(writing)?;
    crate::files::write_atomic(&dir.join("rebel-zero.1"), &page).map_err(writing)?;
    eprintln!("wrote the man pages into {}", dir.display());
    Ok(())
}

/// The main man page: clap's sections, then the environment, the files and the exit status.
fn main_page(command: clap::Command, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    clap_mangen::Man::new(command).render(out)?;
    out.write_all(MAN_SECTIONS.as_bytes())
}

/// The main page's sections that clap does not write (roff).
const MAN_SECTIONS: &str = r#".SH ENVIRONMENT
.TP
\fBREBEL_ZERO_CACHE\fR
The folder for tablebases (\fB\-\-cache\-dir\fR overrides it); default \fI$XDG_CACHE_HOME/rebel\-zero\fR,
else \fI~/.cache/rebel\-zero\fR.
.TP
\fBREBEL_ZERO_DATA\fR
The folder where the games a person plays in \fBplay\fR and \fBserve\fR are kept; default
\fI~/.local/share/rebel\-zero\fR.
.SH FILES
.TP
\fIcheckpoints/\fR
The shipped networks, found from the current folder, beside the binary, or in the source tree it was
built from.
.TP
\fIconfigs/balance/*.toml\fR, \fIconfigs/rules/*.toml\fR
Study files (\fBbalance\fR) and rules files (\fBfile:PATH\fR rulesets).
.TP
\fI$REBEL_ZERO_CACHE/tablebases/\fR
Tablebases built by \fBsolve\fR, and the notes of their checks.
.TP
\fIstudies/NAME/\fR
A study's report, charts, cells and games, written by \fBbalance\fR; a stopped study resumes from it.
.SH "EXIT STATUS"
.TP
\fB0\fR
Success.
.TP
\fB1\fR
A failure while running: a file that cannot be read or written, a network that does not load; the
message names the file or the step.
.TP
\fB2\fR
A bad request: an unknown option, a value outside its range (the message names the range), a ruleset,
agent or move that does not parse.
.TP
\fB3\fR
\fBbalance \-\-check\fR only: nothing is stale, but a table the check needs is not built here.
"#;

/// Rust's `println!` panics when stdout is a closed pipe; a program in a pipeline should instead stop
/// quietly with success, as `head` expects. The hook turns that one panic into `exit(0)` and leaves
/// every other panic to the default hook.
fn end_quietly_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

fn is_closed_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
