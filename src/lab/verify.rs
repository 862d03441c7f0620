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
//! - a table built here: the book is made again from it, drawing as many candidates as the record
//!   says, and must be the record's (its openings, the values that admitted them, the candidates
//!   rejected), and every game must open with the line its index gives;
//! - a table not built here: the cells that opened from it are **unverified**, not stale, and the
//!   check names the table, the command that builds it and what building it costs;
//! - the judge: its behaviour is in the key (its fingerprint), so the key's match verifies it; its
//!   searches over every candidate are not replayed.
//!
//! Whatever the evidence, a record that keeps its books' openings (reports from the commit that added
//! them) must be whole, and every game must open with the line its index gives.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::openings::{Book, Evidence, possible_keys, remake};
use super::runner::{BookInfo, StudyResults, prints};
use super::schedule::{Cell, book_print, schedule};
use super::study::LoadedStudy;
use crate::family::hunt_of;
use crate::game::GameRecord;
use crate::game::hunt::HuntGame;

/// A cell of a committed study whose rules, agents or openings no longer behave as when it was played.
#[derive(Clone, Debug, PartialEq)]
pub struct Stale {
    pub cell: String,
    pub why: String,
}

/// A table that admitted the openings of some committed cells and is not built on this machine.
#[derive(Clone, Debug)]
pub struct MissingTable {
    /// Where it would be, the ruleset whose `rebel-zero solve` builds it (and its game), and what
    /// building it takes ([`crate::tablebase::build_cost`]).
    pub path: PathBuf,
    pub spec: String,
    pub game: HuntGame,
    pub cost: String,
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
    /// Books made again from their table and found to be the record's, in words.
    pub books_verified: Vec<String>,
    /// What a book or its games disagree on with the record or the evidence.
    pub books: Vec<String>,
    /// Claims that read differently with no amendment ([`super::amendments::check`]).
    pub claims: Vec<String>,
    /// The games file against the report's counts.
    pub games: Vec<String>,
    /// Capped games the study's adjudication rule has not judged, or verdicts it does not give
    /// ([`super::adjudicate::unjudged`]).
    pub unjudged: Vec<String>,
}

impl Verification {
    /// Whether anything was found that the code or the record contradicts.
    pub fn is_stale(&self) -> bool {
        !(self.stale.is_empty()
            && self.books.is_empty()
            && self.claims.is_empty()
            && self.games.is_empty()
            && self.unjudged.is_empty())
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
            found.unjudged = super::adjudicate::unjudged(study, &records)?;
            for (variant, evidence) in &evidence {
                verify_book(study, results, &scheduled, *variant, evidence, &records, &mut found)?;
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
            if evidence.get(&cell.variant).is_some_and(|seen| seen != by) {
                Some("its openings come from another book than the other cells of its variant".to_string())
            } else {
                evidence.insert(cell.variant, by.clone());
                if let (Evidence::Table { path, spec, built: false }, Some(game)) =
                    (by, hunt_of(&study.games[cell.variant]))
                {
                    let entry = missing.entry(path.clone()).or_insert_with(|| MissingTable {
                        path: path.clone(),
                        spec: spec.clone(),
                        game: game.clone(),
                        cost: crate::tablebase::build_cost(game),
                        cells: Vec::new(),
                    });
                    entry.cells.push(cell.id.clone());
                }
                None
            }
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

/// Checks `variant`'s book: the record's own openings where it keeps them (whole, and each game
/// opening with the line its index gives); with its table built here, the book made again from it,
/// which must be the record's.
fn verify_book(
    study: &LoadedStudy,
    results: &StudyResults,
    scheduled: &[Cell],
    variant: usize,
    evidence: &Evidence,
    records: &[GameRecord],
    found: &mut Verification,
) -> anyhow::Result<()> {
    let name = &study.study.variants[variant].name;
    let Some(info) = results.books.iter().find(|b| &b.variant == name) else {
        found.books.push(format!("{name}: the report's cells open from a book the report does not describe"));
        return Ok(());
    };
    let cells: Vec<&Cell> = scheduled.iter().filter(|c| c.variant == variant).collect();
    let mut problems = Vec::new();
    if !info.lines.is_empty() {
        if info.lines.len() != info.openings || info.values.len() != info.lines.len() {
            problems.push(format!(
                "the report counts {} openings but keeps {} lines and {} values",
                info.openings,
                info.lines.len(),
                info.values.len()
            ));
        }
        problems.extend(games_open_from(&info.lines, info.plies, &cells, records, "the report's book"));
    }
    if let Evidence::Table { built: true, .. } = evidence {
        let book = remake(study, variant, info.tried)?;
        let differences = compare(info, &book);
        if differences.is_empty() && info.lines.is_empty() {
            problems.extend(games_open_from(&book.lines, book.plies, &cells, records, "the table's book"));
        }
        if differences.is_empty() && problems.is_empty() {
            found.books_verified.push(format!(
                "{name}: the {} openings, made again from {}",
                book.lines.len(),
                book.method.split(':').next().unwrap_or("its table")
            ));
        }
        problems.extend(differences);
    }
    found.books.extend(problems.into_iter().map(|p| format!("{name}: {p}")));
    Ok(())
}

/// How a book made again from its evidence differs from the record's description of it.
fn compare(info: &BookInfo, book: &Book) -> Vec<String> {
    let mut differences = Vec::new();
    if (book.lines.len(), book.tried, book.rejected) != (info.openings, info.tried, info.rejected) {
        differences.push(format!(
            "the evidence admits {} openings of {} candidates ({} rejected), the report {} of {} ({} rejected)",
            book.lines.len(),
            book.tried,
            book.rejected,
            info.openings,
            info.tried,
            info.rejected
        ));
    }
    // A value kept empty is one the record did not know (a book recovered from its games).
    let values_differ =
        info.values.iter().zip(&book.values).any(|(kept, made)| !kept.is_empty() && kept != made);
    if !info.lines.is_empty() && (info.lines != book.lines || values_differ) {
        differences
            .push("the report's openings or their values are not the ones the evidence admits".to_string());
    }
    differences
}

/// Games of `cells` that did not open with the line of `lines` their index gives (game `i` of a cell
/// that plays each opening `per_opening` times opens with line `i / per_opening`, as
/// [`crate::agents::BookOpenings`] deals them), as a problem.
fn games_open_from(
    lines: &[Vec<String>],
    plies: u32,
    cells: &[&Cell],
    records: &[GameRecord],
    book: &str,
) -> Option<String> {
    if lines.is_empty() {
        return None;
    }
    let per_opening: BTreeMap<&str, usize> = cells
        .iter()
        .filter(|c| c.opening > 0)
        .map(|c| (c.id.as_str(), c.per_opening.max(1) as usize))
        .collect();
    let astray = records
        .iter()
        .filter_map(|r| Some((r, *per_opening.get(r.cell.as_deref()?)?)))
        .filter(|(r, per)| {
            let line = &lines[(r.game / per) % lines.len()];
            r.moves.get(..plies as usize) != Some(line.as_slice())
        })
        .count();
    (astray > 0)
        .then(|| format!("{astray} of its games do not open with the line of {book} their index gives"))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn book(lines: &[&str], tried: u64) -> Book {
        let lines: Vec<Vec<String>> =
            lines.iter().map(|l| l.split(' ').map(str::to_string).collect()).collect();
        Book {
            variant: "v".into(),
            key: "k".into(),
            method: "the tablebase t.rztb: …".into(),
            start: "rebels win in 40".into(),
            plies: 2,
            values: lines.iter().map(|_| "rebels win in 38".to_string()).collect(),
            rejected: tried - lines.len() as u64,
            lines,
            tried,
        }
    }

    fn info(book: &Book) -> BookInfo {
        BookInfo {
            variant: book.variant.clone(),
            method: book.method.clone(),
            start: book.start.clone(),
            plies: book.plies,
            openings: book.lines.len(),
            tried: book.tried,
            rejected: book.rejected,
            lines: book.lines.clone(),
            values: book.values.clone(),
        }
    }

    #[test]
    fn a_book_made_again_is_compared_whole_with_the_record() {
        let made = book(&["c3-d4 a1-b2", "c3-c4 e1-d2"], 5);
        assert!(compare(&info(&made), &made).is_empty());
        // A book that ran out of candidates: fewer openings than asked, every try recorded.
        let short = book(&["c3-d4 a1-b2"], 80);
        assert!(compare(&info(&short), &short).is_empty());

        let mut changed = info(&made);
        changed.values[1] = "general win in 3".into();
        assert_eq!(compare(&changed, &made).len(), 1, "a changed value");
        let mut more = info(&made);
        more.tried += 1;
        assert_eq!(compare(&more, &made).len(), 1, "another count of candidates");
        // An older record without its lines is compared by its counts alone.
        let mut old = info(&made);
        (old.lines, old.values) = (Vec::new(), Vec::new());
        assert!(compare(&old, &made).is_empty());
        old.openings = 3;
        assert_eq!(compare(&old, &made).len(), 1);
    }

    #[test]
    fn each_game_must_open_with_the_line_its_index_gives() {
        let lines: Vec<Vec<String>> = vec![vec!["a".into(), "b".into()], vec!["c".into(), "d".into()]];
        let cell = |id: &str, per_opening| Cell {
            id: id.into(),
            variant: 0,
            skill: 0,
            spec: "s".into(),
            agent: "a".into(),
            games: 4,
            seed: 1,
            opening: 2,
            book: "p".into(),
            per_opening,
            opponent: None,
            rules_print: String::new(),
            agent_print: String::new(),
        };
        let (own, pairs) = (cell("v@x", 1), cell("ratings@x-vs-y", 2));
        let game = |cell: &str, game: usize, moves: &[&str]| GameRecord {
            cell: Some(cell.into()),
            game,
            spec: "s".into(),
            seed: 0,
            start: String::new(),
            agents: Default::default(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            opening: 2,
            winner: None,
            reason: "cap".into(),
            plies: moves.len() as u32,
            rules_file: None,
            adjudged: None,
        };
        let good = vec![
            game("v@x", 0, &["a", "b", "e"]),
            game("v@x", 1, &["c", "d"]),
            game("ratings@x-vs-y", 0, &["a", "b"]),
            game("ratings@x-vs-y", 1, &["a", "b", "f"]),
            game("ratings@x-vs-y", 2, &["c", "d"]),
            game("other@x", 0, &["z", "z"]),
        ];
        assert_eq!(games_open_from(&lines, 2, &[&own, &pairs], &good, "b"), None);
        // The same openings dealt to other games (swapped) are caught, not only unknown lines.
        let swapped = vec![game("v@x", 0, &["c", "d"]), game("v@x", 1, &["a", "b"])];
        let said = games_open_from(&lines, 2, &[&own, &pairs], &swapped, "the book").unwrap();
        assert!(said.starts_with("2 of its games"), "{said}");
    }
}
