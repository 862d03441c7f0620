//! A finished study read again from its record, playing nothing: its games (`games.jsonl.gz`), and
//! the evidence `results.json` keeps that no game holds (the exact values, the games judged against
//! the tables, the books, the time spent). What changes is only how the claims read that evidence: a
//! new reading or rule filed as an amendment is applied to the games already played.
//!
//! The record must still be what the code plays: [`super::verify`] checks every cell, book and game
//! first, and a stale record is refused (play it again instead). A claim that needs more games than
//! the record holds (the next look of a sequential design) says so in its reading; only a run plays.

use std::collections::BTreeMap;
use std::path::Path;

use super::openings::Book;
use super::runner::{BookInfo, Finished, ReadAgain, RunOptions, StudyResults, gather};
use super::schedule::schedule;
use super::store::{CellResult, MCTS_SOLVER, load_cell, save_cell, solver_path};
use super::study::LoadedStudy;
use crate::game::GameRecord;

/// A record that does not match the code, or that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StaleRecord(pub String);

/// Reads `study`'s record in `out` again with the current claims; `previous` is its results.json and
/// `records` its games. The results keep the record's command, commit, seeds and times, and name
/// this reading in [`StudyResults::read_again`].
pub fn reread(
    study: &LoadedStudy,
    previous: &StudyResults,
    records: Vec<GameRecord>,
    options: &RunOptions,
) -> anyhow::Result<Finished<'static>> {
    let found = super::verify::verify(study, previous, Ok(records.clone()))?;
    let mut problems: Vec<String> = found.stale.iter().map(|s| format!("{}: {}", s.cell, s.why)).collect();
    problems.extend(found.books.iter().cloned());
    problems.extend(found.games.iter().cloned());
    if !problems.is_empty() {
        return Err(StaleRecord(format!(
            "the record no longer matches the code, so reading it again would misreport it; play the study again:\n  {}",
            problems.join("\n  ")
        ))
        .into());
    }
    let prints = super::runner::prints(study)?;
    let mut by_cell: BTreeMap<String, Vec<GameRecord>> = BTreeMap::new();
    for record in records {
        let id = record.cell.clone().unwrap_or_default();
        by_cell.entry(id).or_default().push(record);
    }
    let seconds: BTreeMap<&str, f64> = previous
        .cells
        .iter()
        .map(|c| (c.id.as_str(), c.seconds))
        .chain(previous.pairs.iter().map(|p| (p.id.as_str(), p.seconds)))
        .collect();
    // The books the record's cells opened from, as recorded: a machine without the table that admitted
    // a book would otherwise name another (the one it could make), and the record would change.
    let books: BTreeMap<&str, &str> = previous
        .cells
        .iter()
        .map(|c| (c.id.as_str(), c.book.as_str()))
        .chain(previous.pairs.iter().map(|p| (p.id.as_str(), p.book.as_str())))
        .collect();
    let mut cells = Vec::new();
    for mut cell in schedule(study, &prints) {
        if let Some(book) = books.get(cell.id.as_str()) {
            cell.book = book.to_string();
        }
        let mut games = by_cell.remove(&cell.id).unwrap_or_default();
        games.sort_by_key(|r| r.game);
        let game = &study.games[cell.variant];
        let stats =
            games.iter().map(|r| super::analysis::game_stats(game, r)).collect::<anyhow::Result<Vec<_>>>()?;
        let seconds = seconds.get(cell.id.as_str()).copied().unwrap_or(0.0);
        cells.push(CellResult { cell, seconds, records: games, stats });
    }
    if let Some(id) = by_cell.keys().next() {
        return Err(StaleRecord(format!(
            "the games file holds games of `{id}`, a cell the study no longer has"
        ))
        .into());
    }
    // Capped games the study's rule has not judged yet are judged now (the record keeps each verdict).
    super::adjudicate::adjudicate(study, &mut cells, options.threads)?;
    let judged: Vec<(u32, u32)> = study
        .labels
        .iter()
        .map(|label| {
            previous.rungs.iter().find(|r| &r.label == label).map_or((0, 0), |r| (r.judged, r.erred))
        })
        .collect();
    // A claim's figures come from the tables where they are present (a reading added since the run),
    // else from the record: claim by claim, so a machine with some of the tables keeps the others', and
    // only for a claim whose reading is the one the record read (its print), never a changed one's.
    let mut figures = super::positions::table_figures(study, &cells)?;
    let found: std::collections::BTreeSet<String> = figures.iter().map(|f| f.claim.clone()).collect();
    let unchanged = |id: &str| {
        let now = study.study.claims.iter().find(|c| c.id == id).map(|c| c.print());
        previous.claims.iter().any(|c| c.id == id && Some(&c.print) == now.as_ref())
    };
    figures.extend(
        previous.figures.iter().filter(|f| !found.contains(&f.claim) && unchanged(&f.claim)).cloned(),
    );
    let order = |id: &str| study.study.claims.iter().position(|c| c.id == id);
    figures.sort_by_key(|f| order(&f.claim));
    let mut results = gather(
        study,
        &cells,
        previous.books.clone(),
        previous.solver.clone(),
        (judged, figures),
        options,
        Vec::new(),
        previous.run_seconds,
    );
    // The record's own provenance stands: these are its games, played by its command and commit.
    results.command = previous.command.clone();
    results.commit = previous.commit.clone();
    results.rustc = previous.rustc.clone();
    results.version = previous.version.clone();
    results.threads = previous.threads;
    results.machine = previous.machine.clone();
    results.compute_seconds = previous.compute_seconds;
    results.file = previous.file.clone();
    results.read_again = Some(ReadAgain {
        command: options.command.clone(),
        commit: env!("REBEL_ZERO_COMMIT").to_string(),
        rustc: env!("REBEL_ZERO_RUSTC").to_string(),
    });
    super::amendments::record(study, Some(&previous.claims), &mut results.claims);
    Ok(Finished { results, cells: cells.into() })
}

/// Leaves the record's cells and MCTS-solver results in `out` as a run saves them (where they are not
/// there yet), so that a later run resumes the study, growing a sequential design's cells, instead of
/// playing every game again (a committed study keeps only its games file).
pub fn restore_cells(study: &LoadedStudy, out: &Path, finished: &Finished) -> anyhow::Result<usize> {
    let mut restored = 0;
    for cell in finished.cells.iter() {
        if !cell.records.is_empty() && load_cell(out, &cell.cell).is_none() {
            save_cell(out, cell)?;
            restored += 1;
        }
    }
    restore_books(study, out, finished)?;
    if let Some(solver) = &study.study.solver {
        for result in finished.results.solver.iter().filter(|r| r.method == MCTS_SOLVER) {
            let path = solver_path(out, &result.variant, solver.simulations);
            if !path.exists() {
                super::store::save(&path, result)?;
            }
        }
    }
    Ok(restored)
}

/// Leaves each variant's book as the record keeps it in `out`, under the key its cells name the digest
/// of (one this code could have made the book under), where none as long is saved there under it: a book made
/// again need not be the record's (a judge's values depend on the positions it searched before, and a
/// book grown over several runs had a fresh judge at each), and a resumed cell must deal its new games
/// the lines that follow its old games' lines, not another book's.
fn restore_books(study: &LoadedStudy, out: &Path, finished: &Finished) -> anyhow::Result<()> {
    for info in finished.results.books.iter().filter(|b| b.openings > 0) {
        let Some(v) = study.study.variants.iter().position(|x| x.name == info.variant) else { continue };
        let mut played = finished.cells.iter().filter(|c| c.cell.variant == v && !c.records.is_empty());
        let Some(print) = played.next().map(|c| c.cell.book.as_str()) else { continue };
        if !played.all(|c| c.cell.book == print) {
            continue;
        }
        // The key the cells were dealt from, whichever evidence this machine's cache would use now.
        let mut keys = super::openings::possible_keys(study, v)?.into_iter().map(|(key, _)| key);
        let Some(key) = keys.find(|key| super::schedule::book_print(study, v, key) == print) else {
            continue;
        };
        let path = super::openings::book_path(out, &info.variant);
        let saved = super::store::load::<Book>(&path).filter(|b| b.key == key);
        if saved.is_some_and(|b| b.lines.len() >= info.openings) {
            continue;
        }
        let mut book = recorded_book(info, key);
        if book.lines.is_empty() {
            // A record written before books kept their lines: the games say which line each opened
            // with, and a run may deal only those.
            let Some(lines) = lines_from_games(finished, v, info) else { continue };
            book.values = vec![String::new(); lines.len()];
            book.lines = lines;
        }
        super::store::save(&path, &book)?;
    }
    Ok(())
}

/// The `info.openings` lines of a book read off the games of `variant`'s cells (game `i` of a cell
/// opens with line `i / per_opening`, round the book), or `None` where some line no game opened with,
/// or two games that should share a line did not.
fn lines_from_games(finished: &Finished, variant: usize, info: &BookInfo) -> Option<Vec<Vec<String>>> {
    let mut lines: Vec<Option<&[String]>> = vec![None; info.openings];
    for cell in finished.cells.iter().filter(|c| c.cell.variant == variant) {
        let per = cell.cell.per_opening.max(1) as usize;
        for record in &cell.records {
            let line = record.moves.get(..info.plies as usize)?;
            let slot = &mut lines[(record.game / per) % info.openings];
            match slot {
                Some(seen) if *seen != line => return None,
                _ => *slot = Some(line),
            }
        }
    }
    lines.into_iter().map(|line| line.map(<[String]>::to_vec)).collect()
}

/// The book a record describes, under `key` (the record keeps its digest, in its cells).
fn recorded_book(info: &BookInfo, key: String) -> Book {
    Book {
        variant: info.variant.clone(),
        key,
        method: info.method.clone(),
        start: info.start.clone(),
        plies: info.plies,
        lines: info.lines.clone(),
        values: info.values.clone(),
        tried: info.tried,
        rejected: info.rejected,
    }
}

/// The results.json and games of the study folder `dir`.
pub fn load_record(dir: &Path) -> anyhow::Result<(StudyResults, Vec<GameRecord>)> {
    let path = dir.join("results.json");
    let text =
        std::fs::read_to_string(&path).map_err(|e| anyhow::anyhow!("reading {}: {e}", path.display()))?;
    let results: StudyResults = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{} is not a study's results.json: {e}", path.display()))?;
    let records =
        crate::game::read_records(&dir.join("games.jsonl.gz"))?.into_iter().map(|n| n.record).collect();
    Ok((results, records))
}
