//! Checking a finished study against the code that would play it now (`balance --check`), from its
//! committed record alone: `results.json`, `games.jsonl.gz` and the study file.
//!
//! A cell is **stale** when the code no longer plays it as recorded: its rules or agents behave
//! differently (their fingerprints), or its book of openings was made under a key this code would not
//! make. A book's key names the evidence that admitted its openings (a table, or the study's judge),
//! and which of the two a run uses depends on the tables the machine has cached. So the check accepts
//! every key this code could have made, whatever is cached here, and then verifies the openings with
//! the evidence their key names:
//!
//! - a table built here: the book is made again from it and must be the record's (its openings, the
//!   values that admitted them, the candidates drawn), and every game must open with one of its lines;
//! - a table not built here: the cells that opened from it are **unverified**, not stale, and the
//!   check names the table and the command that builds it;
//! - the judge: its behaviour is in the key (its fingerprint), so the key's match verifies it; its
//!   searches over every candidate are not replayed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::openings::{Evidence, possible_keys, remake};
use super::runner::{StudyResults, prints};
use super::schedule::{Cell, book_print, schedule};
use super::study::LoadedStudy;
use crate::game::GameRecord;

/// A cell of a committed study whose rules, agents or openings no longer behave as when it was played.
#[derive(Clone, Debug, PartialEq)]
pub struct Stale {
    pub cell: String,
    pub why: String,
}

/// A table that admitted the openings of some committed cells and is not built on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingTable {
    /// Where it would be, and the ruleset whose `rebel-zero solve` builds it.
    pub path: PathBuf,
    pub spec: String,
    pub cells: Vec<String>,
}

/// Everything `balance --check` finds.
#[derive(Clone, Debug, Default)]
pub struct Verification {
    /// Cells in the report (own cells and cross-play).
    pub cells: usize,
    pub stale: Vec<Stale>,
    /// Cells whose openings could not be verified here, by the table they need.
    pub missing: Vec<MissingTable>,
    /// Books made again from their table and compared with the record: the variants, and what
    /// disagreed.
    pub books_verified: Vec<String>,
    pub books: Vec<String>,
    /// Claims that read differently with no amendment ([`super::amendments::check`]).
    pub claims: Vec<String>,
    /// The games file against the report's counts.
    pub games: Vec<String>,
}

impl Verification {
    /// Whether anything was found that the code or the record contradicts.
    pub fn is_stale(&self) -> bool {
        !(self.stale.is_empty() && self.books.is_empty() && self.claims.is_empty() && self.games.is_empty())
    }

    /// Cells that could not be verified for want of a table.
    pub fn unverified(&self) -> usize {
        self.missing.iter().map(|m| m.cells.len()).sum()
    }
}

/// Checks a study's record: `results` against `study` and the code, and `records` (its games file,
/// or why it could not be read) against `results`.
pub fn verify(
    study: &LoadedStudy,
    results: &StudyResults,
    records: Result<Vec<GameRecord>, String>,
) -> anyhow::Result<Verification> {
    let prints = prints(study)?;
    let scheduled = schedule(study, &prints);
    let mut found = Verification {
        cells: results.cells.len() + results.pairs.len(),
        claims: super::amendments::check(study, &results.claims),
        ..Verification::default()
    };
    let evidence = book_evidence(study, results, &scheduled, &mut found)?;
    match records {
        Ok(records) => {
            found.games = check_games(results, &records);
            for (variant, evidence) in &evidence {
                if let Evidence::Table { built: true, .. } = evidence {
                    verify_book(study, results, &scheduled, *variant, &records, &mut found)?;
                }
            }
        }
        Err(why) => found.games.push(why),
    }
    Ok(found)
}

/// Compares every scheduled cell with the record (rules, agents, book key), filling `found.stale`
/// and `found.missing`; returns the evidence each variant's recorded book was admitted by.
fn book_evidence(
    study: &LoadedStudy,
    results: &StudyResults,
    scheduled: &[Cell],
    found: &mut Verification,
) -> anyhow::Result<BTreeMap<usize, Evidence>> {
    let played: BTreeMap<&str, (&str, &str, &str)> = results
        .cells
        .iter()
        .map(|c| (c.id.as_str(), (c.rules_print.as_str(), c.agent_print.as_str(), c.book.as_str())))
        .chain(
            results
                .pairs
                .iter()
                .map(|p| (p.id.as_str(), (p.rules_print.as_str(), p.agent_print.as_str(), p.book.as_str()))),
        )
        .collect();
    // Each variant's possible book keys by the digest a cell records of them.
    let keys: Vec<Vec<(String, Evidence)>> = (0..study.games.len())
        .map(|v| {
            let keys = possible_keys(study, v)?;
            Ok(keys.into_iter().map(|(key, evidence)| (book_print(study, v, &key), evidence)).collect())
        })
        .collect::<anyhow::Result<_>>()?;
    let recorded =
        |print: &str| if print.is_empty() { "none recorded".to_string() } else { print.to_string() };
    let mut evidence = BTreeMap::new();
    let mut missing: BTreeMap<PathBuf, MissingTable> = BTreeMap::new();
    for cell in scheduled {
        let Some(&(rules, agents, book)) = played.get(cell.id.as_str()) else {
            found.stale.push(Stale {
                cell: cell.id.clone(),
                why: "the study schedules it but the report has no such cell".to_string(),
            });
            continue;
        };
        let admitted_by = keys[cell.variant].iter().find(|(print, _)| print == book).map(|(_, e)| e);
        let why = if rules != cell.rules_print {
            Some(format!(
                "the rules of `{}` behave differently now (fingerprint {}, played under {})",
                cell.spec,
                cell.rules_print,
                recorded(rules)
            ))
        } else if agents != cell.agent_print {
            Some(format!(
                "its agents behave differently now (fingerprint {}, played under {})",
                cell.agent_print,
                recorded(agents)
            ))
        } else if book.is_empty() && cell.book.is_empty() {
            None
        } else if let Some(by) = admitted_by {
            evidence.insert(cell.variant, by.clone());
            if let Evidence::Table { path, spec, built: false } = by {
                let entry = missing.entry(path.clone()).or_insert_with(|| MissingTable {
                    path: path.clone(),
                    spec: spec.clone(),
                    cells: Vec::new(),
                });
                entry.cells.push(cell.id.clone());
            }
            None
        } else {
            Some(format!(
                "its openings come from a book this code does not make (played from {}; here it makes {})",
                recorded(book),
                recorded(&cell.book)
            ))
        };
        if let Some(why) = why {
            found.stale.push(Stale { cell: cell.id.clone(), why });
        }
    }
    for id in played.keys().filter(|id| !scheduled.iter().any(|c| c.id == **id)) {
        found.stale.push(Stale { cell: id.to_string(), why: "the study no longer schedules it".to_string() });
    }
    found.missing = missing.into_values().collect();
    Ok(evidence)
}

/// Makes `variant`'s book again from its table (built here) and compares it with the record: the
/// openings, the values that admitted them, the candidates drawn; and every game of the variant's
/// cells must open with one of its lines.
fn verify_book(
    study: &LoadedStudy,
    results: &StudyResults,
    scheduled: &[Cell],
    variant: usize,
    records: &[GameRecord],
    found: &mut Verification,
) -> anyhow::Result<()> {
    let name = &study.study.variants[variant].name;
    let Some(info) = results.books.iter().find(|b| &b.variant == name) else {
        found.books.push(format!("{name}: the report's cells open from a book the report does not describe"));
        return Ok(());
    };
    let book = remake(study, variant, info.openings)?;
    let mut problems = Vec::new();
    let drawn_beyond = info.tried.checked_sub(book.tried);
    // A book that ran out of candidates drew more after its last opening, every one rejected.
    if book.lines.len() != info.openings
        || drawn_beyond.is_none_or(|extra| info.rejected.checked_sub(book.rejected) != Some(extra))
    {
        problems.push(format!(
            "the table admits {} openings in {} candidates ({} rejected), the report {} in {} ({} rejected)",
            book.lines.len(),
            book.tried,
            book.rejected,
            info.openings,
            info.tried,
            info.rejected
        ));
    }
    if !info.lines.is_empty() && (info.lines != book.lines || info.values != book.values) {
        problems.push("the report's openings or their values are not the ones the table admits".to_string());
    }
    let lines: BTreeSet<&[String]> = book.lines.iter().map(Vec::as_slice).collect();
    let cells: BTreeSet<&str> =
        scheduled.iter().filter(|c| c.variant == variant).map(|c| c.id.as_str()).collect();
    let strays = records
        .iter()
        .filter(|r| r.opening > 0 && r.cell.as_deref().is_some_and(|c| cells.contains(c)))
        .filter(|r| !r.moves.get(..r.opening as usize).is_some_and(|opening| lines.contains(opening)))
        .count();
    if strays > 0 {
        problems.push(format!("{strays} of its games open with a line that is not in the table's book"));
    }
    if problems.is_empty() {
        found.books_verified.push(format!(
            "{name}: the {} openings, made again from {}",
            book.lines.len(),
            book.method.split(':').next().unwrap_or("its table")
        ));
    }
    found.books.extend(problems.into_iter().map(|p| format!("{name}: {p}")));
    Ok(())
}

/// Whether a study's games file holds the games its report counts, cell by cell: each problem (a cell
/// with another number of games, games of a cell the report lacks) as a sentence.
pub fn check_games(results: &StudyResults, records: &[GameRecord]) -> Vec<String> {
    let mut found: BTreeMap<&str, u32> = BTreeMap::new();
    for record in records {
        *found.entry(record.cell.as_deref().unwrap_or("(no cell)")).or_default() += 1;
    }
    let counted = results
        .cells
        .iter()
        .map(|c| (c.id.as_str(), c.games))
        .chain(results.pairs.iter().map(|p| (p.id.as_str(), p.games)));
    let mut problems = Vec::new();
    for (id, games) in counted {
        let held = found.remove(id).unwrap_or(0);
        if held != games {
            problems
                .push(format!("the games file holds {held} games of {id} where the report counts {games}"));
        }
    }
    for (id, held) in found {
        problems.push(format!("the games file holds {held} games of {id}, a cell the report does not have"));
    }
    problems
}
