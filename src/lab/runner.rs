//! Runs a study: plays the cells not yet saved (resuming a stopped study) and the rungs' cross-play,
//! every game from an opening of its variant's book ([`super::openings`]); reads each solved variant's
//! exact values (the tablebase, where its file is present, else the MCTS-solver); judges the rungs'
//! games against the tablebase; rates the rungs; reads the claims; and, while a claim with a
//! sequential design is undecided short of its last look, grows the cells it reads and reads again.
//! Everything the report shows is gathered into [`StudyResults`].

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::aggregate::{CellSummary, summarize};
use super::analysis::game_stats;
use super::claims::{ClaimResult, Evidence, PairGames, judge_all, pair_units};
use super::compare::{Comparison, compare_variants};
use super::fingerprint;
use super::openings::{Book, book};
use super::ratings::{PairResult, Rating, Ratings, fit};
use super::schedule::{Cell, Prints, schedule};
use super::solve::{judge_rungs, solve_start, table_value};
use super::stats::{Z95, wilson};
use super::store::{CellResult, SolverResult, TableFigure, load, load_cell, save, save_cell, solver_path};
use super::study::{EvidenceKind, LoadedStudy, Quantity};
use crate::agents::{BookOpenings, MatchSettings, run_match};
use crate::seed::{derive_seed, fnv1a};
use crate::with_game;

/// A rung whose games give up a forced result this often (lower end of the 95% interval) is shown
/// wrong by the tablebase: its results say more about its mistakes than about the rules.
const TABLE_MISTAKE_RATE: f64 = 0.05;

/// How a run is told about its progress (a progress bar in the CLI, nothing in tests).
pub trait Progress: Sync {
    /// Games still to play in this run.
    fn begin(&self, _games: u64) {}
    fn game_done(&self) {}
    /// A line about what is happening ("solver: murray …").
    fn note(&self, _text: &str) {}
}

/// A progress report that says nothing.
pub struct Silent;
impl Progress for Silent {}

/// Settings of one invocation that do not change the results.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub threads: usize,
    /// The command line, for the report.
    pub command: String,
    /// The study file, for the report.
    pub file: PathBuf,
}

/// Everything the report shows (written as results.json).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StudyResults {
    pub name: String,
    pub description: String,
    pub file: String,
    pub command: String,
    pub seed: u64,
    pub min_games: u32,
    /// Plies opening each game (a variant may set its own), and each variant's book of openings.
    #[serde(default)]
    pub opening: u32,
    #[serde(default)]
    pub books: Vec<BookInfo>,
    /// How games stopped at the ply cap are decided, in words ([`super::adjudicate::describe`]);
    /// none where they stay unfinished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudication: Option<String>,
    pub version: String,
    /// The commit the binary was built from (`+dirty` when its tree had changes), and the compiler.
    pub commit: String,
    #[serde(default)]
    pub rustc: String,
    pub rules_sha256: String,
    pub study_sha256: String,
    /// The machine of the invocation that played the games (cells resumed from an earlier run may have
    /// played elsewhere), and whether it ran 8-bit networks in 8 bits ([`machine`]).
    #[serde(default)]
    pub machine: String,
    pub threads: usize,
    /// Seconds of this invocation, and the sum of every cell's and solver run's own time.
    pub run_seconds: f64,
    pub compute_seconds: f64,
    /// The budget the study file states, in CPU hours ([`super::settle`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<super::study::Budget>,
    /// The multiples of each cell's planned games at which the claims' sequential designs look, all
    /// designs together (empty where none has one), and the cross-play's planned games a pair: what
    /// the report's time per look divides the games by.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub looks: Vec<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair_games_planned: Option<u32>,
    pub skills: Vec<SkillInfo>,
    pub variants: Vec<VariantInfo>,
    pub cells: Vec<CellSummary>,
    pub comparisons: Vec<Comparison>,
    pub solver: Vec<SolverResult>,
    /// Claims' measures read from the tables over positions ([`super::positions`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<TableFigure>,
    /// Each rung: its measured rating, its games judged by the tablebase, and why stronger evidence
    /// shows it wrong, if it does.
    #[serde(default)]
    pub rungs: Vec<RungInfo>,
    /// The rungs' cross-play.
    #[serde(default)]
    pub pairs: Vec<PairInfo>,
    /// What places the ratings on an outside scale (Stockfish's), where rungs were anchored there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<super::ratings::Offset>,
    pub claims: Vec<ClaimResult>,
    /// Cells played by this invocation (the others were loaded from an earlier one).
    pub played: Vec<String>,
    /// Set where the claims were read again from this record by a later binary ([`super::reread`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_again: Option<ReadAgain>,
}

/// What read a study's claims again from its record ([`super::reread`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReadAgain {
    /// The command that read it again, and the commit and compiler of the binary.
    pub command: String,
    pub commit: String,
    pub rustc: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SkillInfo {
    pub label: String,
    pub agent: String,
    pub games: u32,
    /// A network rung's weights: each checkpoint `model.bpk` it plays the study's variants with
    /// (one, or one per board for `path=shipped`) and its SHA-256.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "one_or_many")]
    pub weights: Vec<(String, String)>,
}

/// A rung's weights as recorded: one pair (reports before `path=shipped`), or a list.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Recorded {
        One((String, String)),
        Many(Vec<(String, String)>),
    }
    Ok(match Recorded::deserialize(d)? {
        Recorded::One(pair) => vec![pair],
        Recorded::Many(pairs) => pairs,
    })
}

/// The weights files a network agent plays the study's variants with, each with its SHA-256, in the
/// order the variants first use them.
fn weights_of(agent: &crate::agents::AgentSpec, study: &LoadedStudy) -> Vec<(String, String)> {
    let crate::agents::AgentSpec::Net(settings) = agent else { return Vec::new() };
    let mut files = Vec::new();
    for game in &study.games {
        let Ok((file, digest)) = with_game!(game, |g| fingerprint::weights(settings, g)) else { continue };
        let pair = (file.display().to_string(), digest.iter().map(|b| format!("{b:02x}")).collect());
        if !files.contains(&pair) {
            files.push(pair);
        }
    }
    files
}

/// One cross-play cell: rung `a` against rung `b`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PairInfo {
    pub id: String,
    pub spec: String,
    pub a: String,
    pub b: String,
    pub agents: [String; 2],
    pub games: u32,
    pub points_a: f64,
    /// The games' worth of evidence the pairs give ([`super::stats::paired`]).
    #[serde(default)]
    pub effective: f64,
    /// The book its openings came from ([`Cell::book`]).
    #[serde(default)]
    pub book: String,
    pub seed: u64,
    pub rules_print: String,
    pub agent_print: String,
    /// Its wall-clock seconds (0 where a record kept none).
    #[serde(default)]
    pub seconds: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RungInfo {
    pub label: String,
    pub kind: EvidenceKind,
    pub rating: Option<Rating>,
    /// Games judged against the tablebase, and those with a move that gave up a forced result (after
    /// the opening), over the variants a table covers.
    pub judged: u32,
    pub erred: u32,
    /// Why stronger evidence shows the rung wrong: in the cross-play (for every variant), or by the
    /// tablebase (for the variants a table covers: its readings on other boards stand).
    pub weak: Option<String>,
    #[serde(default)]
    pub table_weak: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VariantInfo {
    pub name: String,
    pub spec: String,
    pub sides: [String; 2],
    /// Plies opening its games.
    #[serde(default)]
    pub opening: u32,
    /// For a ruleset described in a file (`file:PATH`), the file's SHA-256 when the study ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_file_sha256: Option<String>,
}

/// A variant's book of openings, as the report shows it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BookInfo {
    pub variant: String,
    /// How openings were admitted, and the start's value as the admission reads it.
    pub method: String,
    pub start: String,
    pub plies: u32,
    /// Openings in the book, candidates drawn, and those left out.
    pub openings: usize,
    pub tried: u64,
    pub rejected: u64,
    /// The admitted openings and the evidence that admitted each (the table's value, the judge's
    /// evaluation), so that the record alone says what `balance --check` verifies. Empty in reports
    /// from before they were kept: their games' openings stand for them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

impl BookInfo {
    fn of(book: &Book) -> BookInfo {
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
}

/// The study's finished cells, in schedule order, with the results: borrowed from a run while it
/// saves part-way (a save does not copy every game), owned once it returns.
pub struct Finished<'a> {
    pub results: StudyResults,
    pub cells: Cow<'a, [CellResult]>,
}

/// Plays what is missing of `study` into `out` and gathers the results (the caller writes the report
/// with [`super::report::write_all`]). A claim with a sequential design that is undecided short of its
/// last look grows the cells it reads, a round at a time, until it is decided or reaches that look.
/// `at_each_save` is given the results of every look that grows before the next look's games, and
/// again after each cell that a look grows but its last (the CLI writes its report): a study stopped
/// during hours of growth keeps every cell grown since in its games file, so that a clone of the
/// record resumes it without playing them again. The ladders' readings read only the games their look
/// plans, so they stay the last whole look's until the next is whole; the tables' figures over the
/// positions the games reach, and the judging of the rungs' games, read every game saved.
pub fn run_study(
    study: &LoadedStudy,
    out: &Path,
    options: &RunOptions,
    progress: &dyn Progress,
    at_each_save: &dyn Fn(&Finished) -> anyhow::Result<()>,
) -> anyhow::Result<Finished<'static>> {
    let clock = Instant::now();
    std::fs::create_dir_all(out).map_err(|e| anyhow::anyhow!("creating {}: {e}", out.display()))?;
    progress.note("fingerprinting the rules and agents");
    let prints = prints_in(study, out)?;
    let cells = schedule(study, &prints);
    // The report a run replaces: its amendments' verdicts before carry over. One that is there but
    // cannot be read is refused, not dropped (those verdicts would be lost from the record).
    let previous: Option<StudyResults> = previous_results(&out.join("results.json"))?;
    let report = out.display().to_string();
    super::amendments::refuse_unamended(study, previous.as_ref().map(|p| p.claims.as_slice()), &report)?;
    let mut done: Vec<CellResult> = cells
        .iter()
        .map(|c| Ok(load_measured(study, out, c)?.unwrap_or_else(|| empty(c))))
        .collect::<anyhow::Result<_>>()?;
    adjudicate_and_save(study, out, &mut done, options.threads, progress)?;
    let mut wanted: BTreeMap<String, u32> = cells.iter().map(|c| (c.id.clone(), c.games)).collect();
    let mut played = Vec::new();
    let solver = run_solver(study, out, progress)?;
    let read = |done: &[CellResult], books: &[Book], played: &[String]| -> anyhow::Result<StudyResults> {
        progress.note("judging the rungs' games against the tablebase");
        let judged = judge_rungs(study, done);
        let figures = super::positions::table_figures(study, done)?;
        let seconds = clock.elapsed().as_secs_f64();
        let mut results = gather(
            study,
            done,
            book_infos(books),
            solver.clone(),
            (judged, figures),
            options,
            played.to_vec(),
            seconds,
        );
        super::amendments::record(study, previous.as_ref().map(|p| p.claims.as_slice()), &mut results.claims);
        Ok(results)
    };
    let mut growing = false;
    loop {
        // A cell's games for this look: those wanted of it, or more where it already holds more.
        let games_of = |r: &CellResult| wanted[&r.cell.id].max(r.records.len() as u32);
        let books = books_for(study, out, &prints, &done, &games_of, progress)?;
        progress.begin(done.iter().map(|r| games_of(r).saturating_sub(r.records.len() as u32) as u64).sum());
        // A first look keeps the schedule; a look's growth plays its cheapest cells first.
        let order = if growing { cheapest_first(&done, &games_of) } else { (0..done.len()).collect() };
        let short: Vec<usize> =
            order.into_iter().filter(|&at| (done[at].records.len() as u32) < games_of(&done[at])).collect();
        // Refused before a look plays anything, not after its games, where their judge's tables are missing.
        if !short.is_empty() {
            super::adjudicate::require_tables(study)?;
        }
        for (n, &at) in short.iter().enumerate() {
            let games = games_of(&done[at]);
            let book = &books[done[at].cell.variant];
            grow_cell(study, out, &mut done[at], book, games, options.threads, progress)?;
            adjudicate_and_save(study, out, std::slice::from_mut(&mut done[at]), options.threads, progress)?;
            if !played.contains(&done[at].cell.id) {
                played.push(done[at].cell.id.clone());
            }
            // The look's last cell is saved with the look itself, below.
            if growing && n + 1 < short.len() {
                at_each_save(&Finished {
                    results: read(&done, &books, &played)?,
                    cells: Cow::Borrowed(&done),
                })?;
            }
        }
        let results = read(&done, &books, &played)?;
        let mut grew = false;
        for (id, games) in results.claims.iter().flat_map(ClaimResult::growth) {
            let entry = wanted.entry(id).or_default();
            if games > *entry {
                *entry = games;
                grew = true;
            }
        }
        if !grew {
            return Ok(Finished { results, cells: Cow::Owned(done) });
        }
        at_each_save(&Finished { results, cells: Cow::Borrowed(&done) })?;
        progress.note("a sequential claim is undecided: growing its cells for the next look");
        growing = true;
    }
}

/// The results.json at `path`: none where there is no file, an error where it does not read.
fn previous_results(path: &Path) -> anyhow::Result<Option<StudyResults>> {
    let Ok(text) = std::fs::read_to_string(path) else { return Ok(None) };
    serde_json::from_str(&text).map(Some).map_err(|e| {
        anyhow::anyhow!(
            "{} is there but does not read as a study's results ({e}): it keeps the verdicts before each \
             amendment, so the run stops rather than lose them; restore it (`git checkout` it) or move it away",
            path.display()
        )
    })
}

/// Judges the capped games of `cells` the study's rule has not judged ([`super::adjudicate`]) and
/// saves the cells it judged in.
/// A saved cell with its games measured again from their records: the numbers a claim reads are a
/// function of the moves, so a reading added since the cell was saved applies to it as a reread's does.
fn load_measured(study: &LoadedStudy, out: &Path, cell: &Cell) -> anyhow::Result<Option<CellResult>> {
    let Some(mut result) = load_cell(out, cell) else { return Ok(None) };
    let game = &study.games[cell.variant];
    result.stats = result.records.iter().map(|r| game_stats(game, r)).collect::<anyhow::Result<_>>()?;
    Ok(Some(result))
}

fn adjudicate_and_save(
    study: &LoadedStudy,
    out: &Path,
    cells: &mut [CellResult],
    threads: usize,
    progress: &dyn Progress,
) -> anyhow::Result<()> {
    // Called whether or not the study names a judge, so that a run and a reread read capped games alike
    // (without a judge, verdicts a record carries from an earlier rule are dropped).
    for at in super::adjudicate::adjudicate(study, cells, threads)? {
        progress.note(&format!(
            "{}: its games stopped at the ply cap read by the study's rule",
            cells[at].cell.id
        ));
        save_cell(out, &cells[at])?;
    }
    Ok(())
}

/// The cells in the order a look's growth plays them: the cheapest first, priced at each cell's
/// measured seconds a game times the games it still lacks of `games_of` (a cell with no time recorded,
/// or none to play, costs nothing and goes first, in schedule order), so that the cheap cells reach
/// the record before hours of the dearest ones.
fn cheapest_first(cells: &[CellResult], games_of: &dyn Fn(&CellResult) -> u32) -> Vec<usize> {
    let cost = |r: &CellResult| {
        let have = r.records.len() as u32;
        let per_game = if have > 0 { r.seconds / f64::from(have) } else { 0.0 };
        per_game * f64::from(games_of(r).saturating_sub(have))
    };
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.sort_by(|&a, &b| cost(&cells[a]).total_cmp(&cost(&cells[b])));
    order
}

/// A cell with no games yet.
fn empty(cell: &Cell) -> CellResult {
    CellResult { cell: cell.clone(), seconds: 0.0, records: Vec::new(), stats: Vec::new() }
}

/// Each variant's book, extended first to the openings its cells need to reach `games_of` them.
fn books_for(
    study: &LoadedStudy,
    out: &Path,
    prints: &Prints,
    done: &[CellResult],
    games_of: &dyn Fn(&CellResult) -> u32,
    progress: &dyn Progress,
) -> anyhow::Result<Vec<Book>> {
    let mut books = Vec::new();
    for v in 0..study.games.len() {
        let openings =
            done.iter().filter(|r| r.cell.variant == v).map(|r| r.cell.openings_for(games_of(r))).max();
        progress.note(&format!("openings of {}", study.study.variants[v].name));
        books.push(book(study, v, &prints.books[v], openings.unwrap_or(0), out)?);
    }
    Ok(books)
}

/// The cells of `study` not yet finished in `out`, in schedule order: what a scheduler of one task
/// per cell hands out (`balance --list-cells`). Their books are made first (the openings every cell
/// shares), so that the cells can be played anywhere.
pub fn missing_cells(study: &LoadedStudy, out: &Path) -> anyhow::Result<Vec<Cell>> {
    let prints = prints_in(study, out)?;
    let cells = schedule(study, &prints);
    for v in 0..study.games.len() {
        let openings = cells.iter().filter(|c| c.variant == v).map(|c| c.openings_for(c.games)).max();
        book(study, v, &prints.books[v], openings.unwrap_or(0), out)?;
    }
    Ok(cells
        .into_iter()
        .filter(|c| load_cell(out, c).is_none_or(|r| (r.records.len() as u32) < c.games))
        .collect())
}

/// Plays the one cell `id` of `study` into `out` to its planned games and saves it as the full run
/// would (`balance --cell`); `false` when it was finished already. An unknown id is an error listing
/// the cells.
pub fn run_cell(
    study: &LoadedStudy,
    out: &Path,
    id: &str,
    threads: usize,
    progress: &dyn Progress,
) -> anyhow::Result<bool> {
    let prints = prints_in(study, out)?;
    let cells = schedule(study, &prints);
    let Some(cell) = cells.iter().find(|c| c.id == id) else {
        let ids: Vec<&str> = cells.iter().map(|c| c.id.as_str()).collect();
        return Err(anyhow::Error::new(UnknownCell(format!(
            "study {} has no cell `{id}`; its cells: {}",
            study.study.name,
            ids.join(", ")
        ))));
    };
    let mut result = load_measured(study, out, cell)?.unwrap_or_else(|| empty(cell));
    if result.records.len() as u32 >= cell.games {
        return Ok(false);
    }
    super::adjudicate::require_tables(study)?;
    std::fs::create_dir_all(out).map_err(|e| anyhow::anyhow!("creating {}: {e}", out.display()))?;
    let book = book(study, cell.variant, &prints.books[cell.variant], cell.openings_for(cell.games), out)?;
    progress.begin((cell.games as usize - result.records.len()) as u64);
    grow_cell(study, out, &mut result, &book, cell.games, threads, progress)?;
    adjudicate_and_save(study, out, std::slice::from_mut(&mut result), threads, progress)?;
    Ok(true)
}

/// A cell id the study does not have (a mistake in what was asked, not a failure while running).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UnknownCell(pub String);

/// Games a cell plays between saves: a stopped study loses at most one such round of a cell, and the
/// workers idle only at the end of each round, waiting for its last game.
fn games_between_saves(threads: usize) -> usize {
    (8 * threads).max(32)
}

/// Plays a cell's games from the ones it has up to `games`, each opening from the book, and saves the
/// cell in `out` after every round of [`games_between_saves`] (each game is decided by its index
/// alone, so a cell resumed from a round plays the games it would have played in one go).
fn grow_cell(
    study: &LoadedStudy,
    out: &Path,
    result: &mut CellResult,
    book: &Book,
    games: u32,
    threads: usize,
    progress: &dyn Progress,
) -> anyhow::Result<()> {
    let cell = result.cell.clone();
    if let Some(astray) = astray_openings(result, book) {
        anyhow::bail!(
            "{}: {astray} of its {} saved games did not open with the lines this run's book deals them, so its \
             new games would open from another book than its old ones (a book made again here need not be the \
             record's: a judge's values depend on what it searched before). `rebel-zero balance --reread` on the \
             study's folder restores the record's book beside its cells; removing {} plays the study again",
            cell.id,
            result.records.len(),
            super::store::cells_dir(out).display()
        );
    }
    progress.note(&format!("playing {} (games {}–{})", cell.id, result.records.len() + 1, games));
    // A book settles for fewer openings than asked when its candidates run out; past its end the
    // games deal its openings again, and agents that play a position alike repeat earlier games,
    // which no reading counts as new evidence. Said before the CPU is spent, not only after.
    let dealt = cell.openings_for(games);
    if cell.opening > 0 && !book.lines.is_empty() && dealt > book.lines.len() {
        progress.note(&format!(
            "{}: its {games} games ask for {dealt} openings and the book of {} holds {}: the games past them \
             repeat its openings (a longer opening gives a larger book)",
            cell.id,
            study.study.variants[cell.variant].name,
            book.lines.len()
        ));
    }
    let game = &study.games[cell.variant];
    let agent = &study.agents[cell.skill];
    let opponent = cell.opponent.as_ref().map_or(agent, |(b, _)| &study.agents[*b]);
    while (result.records.len() as u32) < games {
        let clock = Instant::now();
        let first = result.records.len();
        let last = (first + games_between_saves(threads)).min(games as usize);
        let openings = BookOpenings {
            lines: &book.lines,
            per_line: cell.per_opening as usize,
            source: "the study's book",
        };
        let settings = MatchSettings {
            games: last,
            seed: cell.seed,
            threads,
            opening: 0,
            paired_openings: false,
            book: (cell.opening > 0).then_some(openings),
            first,
            played: None,
        };
        let records =
            with_game!(game, |g| run_match(g, [agent, opponent], settings, &|_| progress.game_done()))?;
        let stats = records.iter().map(|r| game_stats(game, r)).collect::<anyhow::Result<Vec<_>>>()?;
        result.records.extend(records);
        result.stats.extend(stats);
        result.seconds += clock.elapsed().as_secs_f64();
        save_cell(out, result)?;
    }
    Ok(())
}

/// How many of a cell's saved games did not open with the line of `book` their index gives (game `i`
/// opens with line `i / per_opening`, as [`BookOpenings`] deals them); `None` where all did.
fn astray_openings(result: &CellResult, book: &Book) -> Option<usize> {
    if result.cell.opening == 0 || book.lines.is_empty() {
        return None;
    }
    let per = result.cell.per_opening.max(1) as usize;
    let dealt = |game: usize| book.lines[(game / per) % book.lines.len()].as_slice();
    let astray =
        result.records.iter().filter(|r| r.moves.get(..book.plies as usize) != Some(dealt(r.game))).count();
    (astray > 0).then_some(astray)
}

/// Each listed variant's exact values: read from its tablebase when the table file is present (with
/// how its positions divide where a claim reads that), else searched by the MCTS-solver.
fn run_solver(study: &LoadedStudy, out: &Path, progress: &dyn Progress) -> anyhow::Result<Vec<SolverResult>> {
    let Some(solver) = &study.study.solver else { return Ok(Vec::new()) };
    let mut results = Vec::new();
    for (v, variant) in study.study.variants.iter().enumerate() {
        if solver.variants.as_ref().is_some_and(|l| !l.contains(&variant.name)) {
            continue;
        }
        let spec = with_game!(&study.games[v], |g| crate::game::Game::spec(g).to_string());
        if let Some(exact) = table_value(&variant.name, &study.games[v], reads_levels(study, v)) {
            progress.note(&format!("tablebase: {}", variant.name));
            results.push(exact?);
            continue;
        }
        let path = solver_path(out, &variant.name, solver.simulations);
        let result = match load::<SolverResult>(&path).filter(|r| r.spec == spec) {
            Some(r) => r,
            None => {
                progress.note(&format!("solver: {} ({} simulations)", variant.name, solver.simulations));
                let seed = derive_seed(study.study.seed, fnv1a(&format!("solver-{}", variant.name)));
                let r = solve_start(&variant.name, &study.games[v], solver.simulations, seed);
                save(&path, &r)?;
                r
            }
        };
        results.push(result);
    }
    Ok(results)
}

/// [`prints`] for a run in `out`: each variant's book key is the saved book's where it has one
/// ([`super::openings::resumed_key`]).
fn prints_in(study: &LoadedStudy, out: &Path) -> anyhow::Result<Prints> {
    let mut prints = prints(study)?;
    for (v, key) in prints.books.iter_mut().enumerate() {
        *key = super::openings::resumed_key(study, v, out)?;
    }
    Ok(prints)
}

/// The behaviour fingerprints of `study`: every variant's rules and book key ([`super::openings::key`])
/// and every rung's agent on every variant.
pub fn prints(study: &LoadedStudy) -> anyhow::Result<Prints> {
    let rules = study.games.iter().map(fingerprint::rules).collect();
    let books =
        (0..study.games.len()).map(|v| super::openings::key(study, v)).collect::<anyhow::Result<Vec<_>>>()?;
    let agents = study
        .games
        .iter()
        .map(|game| {
            study.agents.iter().map(|a| fingerprint::agent(a, game)).collect::<anyhow::Result<Vec<_>>>()
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(Prints { rules, books, agents })
}

/// Whether a claim reads how the table of variant `v` divides by piece count (a rate among games
/// where a side is down to at most some pieces).
fn reads_levels(study: &LoadedStudy, v: usize) -> bool {
    study.study.claims.iter().any(|c| {
        super::claims::level_measures(&c.test).iter().any(|m| {
            let r = m.resolved();
            r.variant == v
                && matches!(r.quantity, Quantity::Rate(_))
                && r.given.as_ref().is_some_and(|g| g.left_at_most.is_some())
        })
    })
}

/// The books as the report shows them (variants that open from the start have none).
fn book_infos(books: &[Book]) -> Vec<BookInfo> {
    books.iter().filter(|b| b.plies > 0).map(BookInfo::of).collect()
}

#[allow(clippy::too_many_arguments)]
pub(super) fn gather(
    study: &LoadedStudy,
    cells: &[CellResult],
    books: Vec<BookInfo>,
    solver: Vec<SolverResult>,
    (judged, figures): (Vec<(u32, u32)>, Vec<TableFigure>),
    options: &RunOptions,
    played: Vec<String>,
    run_seconds: f64,
) -> StudyResults {
    let s = &study.study;
    let (games, pairs): (Vec<&CellResult>, Vec<&CellResult>) =
        cells.iter().partition(|c| c.cell.opponent.is_none());
    let summaries = cell_summaries(study, &games);
    let pair_results: Vec<PairResult> = pairs.iter().map(|c| pair_result(c)).collect();
    let ratings = fit(study.labels.len(), &pair_results);
    let rungs = rung_infos(study, ratings.as_ref(), &judged);
    let claims = judge_claims(study, (&games, &pairs), (&solver, &figures), ratings.as_ref(), &rungs);
    let compute_seconds =
        cells.iter().map(|c| c.seconds).sum::<f64>() + solver.iter().map(|r| r.seconds).sum::<f64>();
    StudyResults {
        name: s.name.clone(),
        description: s.description.clone(),
        file: options.file.display().to_string(),
        command: options.command.clone(),
        seed: s.seed,
        min_games: s.min_games,
        opening: s.opening.plies,
        books,
        adjudication: s.adjudication.as_ref().map(super::adjudicate::describe),
        version: env!("CARGO_PKG_VERSION").to_string(),
        commit: env!("REBEL_ZERO_COMMIT").to_string(),
        rustc: env!("REBEL_ZERO_RUSTC").to_string(),
        rules_sha256: rules_hash(),
        study_sha256: crate::files::sha256_hex(study.text.as_bytes()),
        machine: machine(),
        threads: options.threads,
        run_seconds,
        compute_seconds,
        budget: s.budget,
        looks: design_looks(&s.claims),
        pair_games_planned: s.ratings.as_ref().map(|r| r.games),
        skills: skill_infos(study),
        variants: variant_infos(study),
        comparisons: compare_variants(&summaries),
        cells: summaries,
        solver,
        figures,
        rungs,
        pairs: pairs.iter().zip(&pair_results).map(|(c, p)| pair_info(study, c, p)).collect(),
        offset: s.ratings.as_ref().zip(ratings.as_deref()).and_then(|(settings, ratings)| {
            super::ratings::offset(&settings.anchors, &study.labels, ratings)
        }),
        claims,
        played,
        read_again: None,
    }
}

/// Every look of the claims' sequential designs, as multiples of the planned games, in order.
fn design_looks(claims: &[super::study::Claim]) -> Vec<f64> {
    let mut looks: Vec<f64> = claims.iter().flat_map(|c| c.sequential.iter().flatten().copied()).collect();
    looks.sort_by(f64::total_cmp);
    looks.dedup();
    looks
}

/// This machine in a report: its CPU (Linux's `model name`), and how a network asked for 8 bits
/// computes here (in f32 where the CPU lacks AVX-512 VNNI, so such games are f32's).
pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines().find_map(|line| {
                line.strip_prefix("model name")
                    .map(|rest| rest.trim_start_matches([' ', '\t', ':']).to_string())
            })
        })
        .unwrap_or_else(|| "an unnamed CPU".to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let eight = if crate::nn::int8::available() {
        "a network asked for 8 bits computes in 8 bits here (AVX-512 VNNI); each rung's precision is its agent's"
    } else {
        "no AVX-512 VNNI: a network asked for 8 bits computes in f32 here; each rung's precision is its agent's"
    };
    format!("{cpu}, {cores} cores; {eight}")
}

/// Every claim read from the evidence: the cells (`games`: each rung playing itself; `pairs`: the
/// cross-play), the exact values, the ratings, and which rungs stronger evidence shows wrong.
fn judge_claims(
    study: &LoadedStudy,
    (games, pairs): (&[&CellResult], &[&CellResult]),
    (solver, figures): (&[SolverResult], &[TableFigure]),
    ratings: Option<&Ratings>,
    rungs: &[RungInfo],
) -> Vec<ClaimResult> {
    let weak: Vec<Option<String>> = rungs.iter().map(|r| r.weak.clone()).collect();
    let table_weak: Vec<Option<String>> = rungs.iter().map(|r| r.table_weak.clone()).collect();
    let covered: Vec<bool> = study.games.iter().map(super::solve::covered).collect();
    let evidence = Evidence {
        study,
        cells: games.iter().map(|c| (c.cell.id.clone(), c.stats.as_slice())).collect(),
        pairs: pairs
            .iter()
            .map(|c| PairGames {
                a: c.cell.skill,
                b: c.cell.opponent.as_ref().expect("a ratings cell").0,
                stats: &c.stats,
            })
            .collect(),
        solver,
        figures,
        ratings,
        weak: &weak,
        table_weak: &table_weak,
        covered: &covered,
    };
    judge_all(&evidence)
}

/// The summaries of the cells in which each rung plays itself.
fn cell_summaries(study: &LoadedStudy, games: &[&CellResult]) -> Vec<CellSummary> {
    games
        .iter()
        .map(|c| {
            let v = c.cell.variant;
            summarize(
                &c.cell.id,
                &study.study.variants[v].name,
                &study.labels[c.cell.skill],
                study.side_names(v),
                c.seconds,
                &c.cell,
                &c.stats,
            )
        })
        .collect()
}

/// A cross-play cell's games as the ratings read them: rung `a`'s points, by pair of games.
fn pair_result(cell: &CellResult) -> PairResult {
    let b = cell.cell.opponent.as_ref().expect("a ratings cell").0;
    let points: Vec<(u64, f64)> = pair_units(&cell.stats)
        .into_iter()
        .enumerate()
        .flat_map(|(k, unit)| unit.into_iter().map(move |p| (k as u64, p)))
        .collect();
    PairResult::of_games(cell.cell.skill, b, &points)
}

fn skill_infos(study: &LoadedStudy) -> Vec<SkillInfo> {
    study
        .study
        .skills
        .iter()
        .zip(&study.labels)
        .zip(&study.agents)
        .map(|((k, label), agent)| SkillInfo {
            label: label.clone(),
            agent: agent.to_string(),
            games: k.games,
            weights: weights_of(agent, study),
        })
        .collect()
}

fn variant_infos(study: &LoadedStudy) -> Vec<VariantInfo> {
    let s = &study.study;
    s.variants
        .iter()
        .enumerate()
        .map(|(v, x)| VariantInfo {
            name: x.name.clone(),
            spec: with_game!(&study.games[v], |g| crate::game::Game::spec(g).to_string()),
            sides: study.side_names(v).map(str::to_string),
            opening: x.opening(&s.opening),
            rules_file_sha256: crate::game::hunt::described::spec_path(&x.spec)
                .and_then(|path| crate::game::hunt::described::load(&path.to_string_lossy()).ok())
                .map(|described| described.sha256.clone()),
        })
        .collect()
}

fn pair_info(study: &LoadedStudy, c: &CellResult, p: &PairResult) -> PairInfo {
    PairInfo {
        id: c.cell.id.clone(),
        spec: c.cell.spec.clone(),
        a: study.labels[p.a].clone(),
        b: study.labels[p.b].clone(),
        agents: [c.cell.agent.clone(), c.cell.opponent.as_ref().map_or(String::new(), |o| o.1.clone())],
        games: c.stats.len() as u32,
        points_a: pair_units(&c.stats).iter().flatten().sum(),
        book: c.cell.book.clone(),
        effective: p.games,
        seed: c.cell.seed,
        rules_print: c.cell.rules_print.clone(),
        agent_print: c.cell.agent_print.clone(),
        seconds: c.seconds,
    }
}

/// Each rung's rating, its judged games, and whether stronger evidence shows it wrong: the tablebase
/// (a forced result given up in more than [`TABLE_MISTAKE_RATE`] of its games), or a rung of another
/// kind of evidence rated above it beyond doubt (a ladder that another outplays speaks for weaker play).
fn rung_infos(study: &LoadedStudy, ratings: Option<&Ratings>, judged: &[(u32, u32)]) -> Vec<RungInfo> {
    (0..study.labels.len())
        .map(|s| {
            let kind = EvidenceKind::of(&study.agents[s]);
            let (judged_games, erred) = judged[s];
            let table = (judged_games > 0)
                .then(|| wilson(erred as f64, judged_games as f64, Z95))
                .filter(|i| i.low > TABLE_MISTAKE_RATE)
                .map(|i| {
                    format!(
                        "the tablebase finds a forced result given up in {:.0}% [{:.0}, {:.0}] of its games",
                        100.0 * i.estimate,
                        100.0 * i.low,
                        100.0 * i.high
                    )
                });
            let beaten = ratings.and_then(|r| {
                (0..study.labels.len())
                    .filter(|&t| EvidenceKind::of(&study.agents[t]) != kind)
                    .map(|t| (t, r.difference(s, t)))
                    .find(|(_, (_, low, _))| *low > 0.0)
                    .map(|(t, (d, low, high))| {
                        format!("{} is stronger by {d:.0} Elo [{low:.0}, {high:.0}]", study.labels[t])
                    })
            });
            RungInfo {
                label: study.labels[s].clone(),
                kind,
                rating: ratings.map(|r| r[s]),
                judged: judged_games,
                erred,
                weak: beaten,
                table_weak: table,
            }
        })
        .collect()
}

/// The rules reference the lab implements, relative to the repository root.
pub const RULES_REFERENCE: &str = "docs/RULES.md";

/// SHA-256 of the rules reference (in the crate's folder, else in the current one), or a note that it
/// was not found.
fn rules_hash() -> String {
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join(RULES_REFERENCE);
    [beside, PathBuf::from(RULES_REFERENCE)]
        .iter()
        .find_map(|p| std::fs::read(p).ok())
        .map_or_else(|| format!("{RULES_REFERENCE} not found"), |bytes| crate::files::sha256_hex(&bytes))
}

#[cfg(test)]
mod tests {
    use super::{CellResult, SkillInfo, cheapest_first};

    /// A cell of `have` games that took `seconds`.
    fn cell(id: &str, seconds: f64, have: usize) -> CellResult {
        let cell = serde_json::json!({"id": id, "variant": 0, "skill": 0, "spec": "s", "agent": "a", "games": 10, "seed": 1});
        let record = serde_json::json!({"game": 0, "spec": "s", "seed": 1, "start": "", "agents": {}, "moves": [], "winner": null, "reason": "r", "plies": 0});
        CellResult {
            cell: serde_json::from_value(cell).unwrap(),
            seconds,
            records: vec![serde_json::from_value(record).unwrap(); have],
            stats: Vec::new(),
        }
    }

    /// A look grows its cheapest cells first: priced at each cell's seconds a game times the games it
    /// lacks; a cell with no time, or nothing to play, costs nothing and goes first, in schedule order.
    #[test]
    fn growth_plays_the_cheapest_cells_first() {
        let cells = [
            cell("dear", 100.0, 10),
            cell("cheap", 30.0, 10),
            cell("untimed", 0.0, 10),
            cell("whole", 500.0, 20),
        ];
        let wanted = |_: &CellResult| 20;
        assert_eq!(cheapest_first(&cells, &wanted), [2, 3, 1, 0]);
        // One game missing makes the dear cell (10 s) cheaper than the cheap one's ten (30 s).
        let nearly = |r: &CellResult| if r.cell.id == "dear" { 11 } else { 20 };
        assert_eq!(cheapest_first(&cells, &nearly), [2, 3, 0, 1]);
    }

    /// A rung's weights read from a report made before `path=shipped` (one pair) and after (a list).
    #[test]
    fn a_rungs_weights_read_from_either_form() {
        let one = r#"{"label":"net-16","agent":"net:path=x","games":4,"weights":["x/model.bpk","ab12"]}"#;
        let info: SkillInfo = serde_json::from_str(one).unwrap();
        assert_eq!(info.weights, vec![("x/model.bpk".to_string(), "ab12".to_string())]);
        let many =
            r#"{"label":"net-16","agent":"net:path=shipped","games":4,"weights":[["a","1"],["b","2"]]}"#;
        let info: SkillInfo = serde_json::from_str(many).unwrap();
        assert_eq!(info.weights.len(), 2);
        let text = serde_json::to_string(&info).unwrap();
        assert_eq!(serde_json::from_str::<SkillInfo>(&text).unwrap().weights, info.weights);
        let none = r#"{"label":"m","agent":"mcts","games":4}"#;
        assert!(serde_json::from_str::<SkillInfo>(none).unwrap().weights.is_empty());
        assert!(
            !serde_json::to_string(&serde_json::from_str::<SkillInfo>(none).unwrap())
                .unwrap()
                .contains("weights")
        );
    }
}
