//! `rebel-zero pgn FILE [--cell ID] [--out PGN]`: the chess-family games of a games file (a match's,
//! a study's, or the games `play` saves; plain or gzipped) as PGN, for chess GUIs, databases and
//! python-chess.

use std::path::PathBuf;

use anyhow::{Context, anyhow};
use clap::Args;

use crate::game::chess::pgn::to_pgn;
use crate::game::{AnyGame, read_records};

#[derive(Args, Debug)]
pub struct PgnArgs {
    /// A games file (games.jsonl, plain or gzipped).
    file: PathBuf,
    /// Only the games of this study cell.
    #[arg(long)]
    cell: Option<String>,
    /// Write the PGN here (atomically) instead of to standard output.
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: &PgnArgs) -> anyhow::Result<()> {
    let mut pgn = String::new();
    let (mut written, mut skipped) = (0, 0);
    for numbered in read_records(&args.file)? {
        let record = &numbered.record;
        if args.cell.as_ref().is_some_and(|cell| record.cell.as_ref() != Some(cell)) {
            continue;
        }
        let at = || format!("{} line {}", args.file.display(), numbered.line);
        let AnyGame::Chess(game) = AnyGame::from_spec(&record.spec).with_context(at)? else {
            skipped += 1;
            continue;
        };
        pgn += &to_pgn(&game, record).map_err(|e| anyhow!("{}: {e}", at()))?;
        written += 1;
    }
    if written == 0 {
        return Err(super::common::usage(anyhow!(
            "{} holds no chess-family game{} ({skipped} of other rules)",
            args.file.display(),
            args.cell.as_ref().map_or(String::new(), |c| format!(" in cell `{c}`"))
        )));
    }
    match &args.out {
        Some(path) => {
            crate::files::write_atomic(path, pgn.as_bytes())?;
            eprintln!("wrote {written} games to {}", path.display());
        }
        None => print!("{pgn}"),
    }
    Ok(())
}
