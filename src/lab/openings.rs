//! Openings that vary the games without deciding them. Agents that are deterministic given the position
//! play one game per position, so a study starts its games from different openings; but a random
//! opening can also throw away what the start is about (open the apex to the General in Chinese
//! Rebels), and then the games compare opening blunders, not rules. So each variant gets a book of
//! openings, each admitted only if it keeps the start's value:
//!
//! - on a board a table solves, the exact value after the opening is the start's (the same side wins,
//!   or it is a draw, counting the draw cap) and its distance stays within `distance_band` plies of the
//!   start's less the opening's plies;
//! - elsewhere, the judge's evaluation after the opening (a search by the study's strongest agent,
//!   `[opening] judge`) lies within `value_band` of its evaluation of the start (values −1…+1 for side
//!   0).
//!
//! Candidates are drawn uniformly among the moves that do not end the game, each from its own seed, and
//! admitted in order, so a book of N openings is the first N of a longer one: a cell that grows keeps
//! its games. Openings that reach a position an earlier one reached are left out (deterministic agents
//! would play them alike). The book is saved in the study's folder with the settings that made it.

use std::path::{Path, PathBuf};

use rand::{RngExt, SeedableRng};
use serde::{Deserialize, Serialize};

use super::study::LoadedStudy;
use crate::agents::AgentSpec;
use crate::family::Family;
use crate::family::hunt_of;
use crate::game::hunt::HuntGame;
use crate::game::{AnyGame, Game, Playthrough};
use crate::seed::{derive_seed, fnv1a};
use crate::tablebase::shared_table;
use crate::tablebase::{CachedTable, Tablebase, Verdict, cached_table};
use crate::with_game;

/// Candidates drawn per opening wanted before a book settles for fewer.
const TRIES_PER_OPENING: usize = 40;

/// A variant's openings and how they were admitted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Book {
    pub variant: String,
    /// Everything that decides the book: a later book is reused only with the same key.
    pub key: String,
    /// How openings were admitted, in words ("tablebase …: …", "judge …", "not checked: …").
    pub method: String,
    /// The start's value as the admission reads it.
    pub start: String,
    pub plies: u32,
    /// The admitted openings (moves in the ruleset's notation) and each one's value.
    pub lines: Vec<Vec<String>>,
    pub values: Vec<String>,
    /// Candidates drawn so far (the next one continues from here).
    pub tried: u64,
    /// Candidates left out: ending the game early, repeating a position, or changing the value.
    pub rejected: u64,
}

impl Book {
    fn empty(variant: &str, key: String, plies: u32) -> Book {
        Book {
            variant: variant.to_string(),
            key,
            method: String::new(),
            start: String::new(),
            plies,
            lines: Vec::new(),
            values: Vec::new(),
            tried: 0,
            rejected: 0,
        }
    }

    /// A digest of the book's first `count` openings, for the cells that play them.
    pub fn print(&self, count: usize) -> String {
        let lines: Vec<String> = self.lines.iter().take(count).map(|l| l.join(" ")).collect();
        format!("{:016x}", fnv1a(&format!("{}|{}", self.key, lines.join("|"))))
    }
}

/// How the openings of a variant are judged.
enum Admission {
    /// By the exact values of a table.
    Table { path: PathBuf, band: u32 },
    /// By an agent's evaluation.
    Judge { agent: AgentSpec, band: f64 },
    /// Not at all: no table and no judge.
    Unchecked,
}

impl Admission {
    /// How a run here admits the openings of `variant`: by its table where one is built in the cache,
    /// else by the judge.
    fn of(study: &LoadedStudy, variant: usize) -> Admission {
        match Admission::by_table(study, variant) {
            Some((admission, CachedTable::Built(_))) => admission,
            _ => Admission::without_table(study),
        }
    }

    /// The admission `key` names for `variant` (a saved book's, which a resumed run extends as it was
    /// begun), else the one a run here would use.
    fn named_by(study: &LoadedStudy, variant: usize, key: &str) -> anyhow::Result<Admission> {
        let candidates = Admission::by_table(study, variant).map(|(admission, _)| admission).into_iter();
        for admission in candidates.chain([Admission::without_table(study)]) {
            if key_with(study, variant, &admission).is_ok_and(|k| k == key) {
                return Ok(admission);
            }
        }
        Ok(Admission::of(study, variant))
    }

    /// Admission by the table that solves `variant`'s rules, built here or not (`None` where no table
    /// can solve them), with where that table stands in the cache.
    fn by_table(study: &LoadedStudy, variant: usize) -> Option<(Admission, CachedTable)> {
        let hunt = hunt_of(&study.games[variant])?;
        let cached = cached_table(hunt);
        let path = match &cached {
            CachedTable::Built(path) | CachedTable::Missing(path) => path.clone(),
            CachedTable::Unsolvable(_) => return None,
        };
        Some((Admission::Table { path, band: study.study.opening.distance_band }, cached))
    }

    /// Admission by the study's judge, or none where it names no judge.
    fn without_table(study: &LoadedStudy) -> Admission {
        let settings = &study.study.opening;
        match &settings.judge {
            Some(spec) => Admission::Judge {
                agent: AgentSpec::parse(spec).expect("a checked study's judge parses"),
                band: settings.value_band,
            },
            None => Admission::Unchecked,
        }
    }

    /// The admission in a key: the table file, or the judge with its behaviour's fingerprint.
    fn key(&self, game: &AnyGame) -> anyhow::Result<String> {
        Ok(match self {
            Admission::Table { path, band } => format!("table {} ±{band}", file_name(path)),
            Admission::Judge { agent, band } => {
                let (agent, print) = (agent.print_form(), super::fingerprint::agent(agent, game)?);
                format!("judge {agent} {print} ±{band}")
            }
            Admission::Unchecked => "unchecked".to_string(),
        })
    }
}

/// Everything that decides a variant's book: its rules, plies, seed and admission. Books of one key
/// agree on every opening they both hold.
pub fn key(study: &LoadedStudy, variant: usize) -> anyhow::Result<String> {
    key_with(study, variant, &Admission::of(study, variant))
}

fn key_with(study: &LoadedStudy, variant: usize, admission: &Admission) -> anyhow::Result<String> {
    let name = &study.study.variants[variant].name;
    let plies = study.opening_plies(variant);
    let game = &study.games[variant];
    let spec = with_game!(game, |g| g.spec().to_string());
    Ok(format!("{spec}|{plies}|{}|{}", seed_of(study, name), admission.key(game)?))
}

/// The evidence a book was admitted by, as a committed record names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// The table of these rules, at its path in this machine's cache; `built` says whether it is there.
    Table { path: PathBuf, spec: String, built: bool },
    /// The study's judge agent (its behaviour is in the key's fingerprint), or no admission at all.
    Judge,
}

/// The key a run in `out` deals `variant`'s games from: the saved book's where this code could have
/// made it (one of [`possible_keys`]), else the key a run here would make. A book's key names the
/// evidence that admitted it, and which evidence a run here uses depends on the cache (the table
/// where it is built, else the judge); so a study resumed after a table was built or removed keeps
/// the book its games opened from instead of taking its cells for another book's and playing them
/// again.
pub fn resumed_key(study: &LoadedStudy, variant: usize, out: &Path) -> anyhow::Result<String> {
    let name = &study.study.variants[variant].name;
    if let Some(saved) = super::store::load::<Book>(&book_path(out, name))
        && possible_keys(study, variant)?.iter().any(|(key, _)| *key == saved.key)
    {
        return Ok(saved.key);
    }
    key(study, variant)
}

/// Every key a book of `variant` may have been made under by this code, whatever this machine's
/// cache holds, each with its evidence: by the table of its rules (where a table can solve them, built
/// here or not), and by the study's judge. A committed record is checked against these, so that
/// what the check says depends on the commit and the record, not on which tables happen to be cached.
pub fn possible_keys(study: &LoadedStudy, variant: usize) -> anyhow::Result<Vec<(String, Evidence)>> {
    let mut keys = Vec::new();
    if let Some((admission, cached)) = Admission::by_table(study, variant)
        && let Admission::Table { path, .. } = &admission
    {
        let spec = with_game!(&study.games[variant], |g| g.spec().to_string());
        let evidence =
            Evidence::Table { path: path.clone(), spec, built: matches!(cached, CachedTable::Built(_)) };
        keys.push((key_with(study, variant, &admission)?, evidence));
    }
    // A judge that cannot play this variant (a network of another board) admitted none of its books
    // where a table could; elsewhere its failure is the study's.
    match key_with(study, variant, &Admission::without_table(study)) {
        Ok(key) => keys.push((key, Evidence::Judge)),
        Err(_) if !keys.is_empty() => {}
        Err(e) => return Err(e),
    }
    Ok(keys)
}

/// The book of `variant` made again in memory by the admission a run here would use, drawing exactly
/// `tries` candidates (as many as the record says its book drew, whether it stopped at its openings or
/// ran out of tries); nothing is read from or written to a study folder. For checking a committed
/// record against its evidence.
pub fn remake(study: &LoadedStudy, variant: usize, tries: u64) -> anyhow::Result<Book> {
    let name = &study.study.variants[variant].name;
    let mut book = Book::empty(name, key(study, variant)?, study.opening_plies(variant));
    if book.plies > 0 {
        let until = Until { lines: usize::MAX, tries };
        extend(
            &mut book,
            &study.games[variant],
            &Admission::of(study, variant),
            seed_of(study, name),
            until,
        )?;
    }
    Ok(book)
}

/// Where drawing candidates stops: at so many openings, or so many candidates drawn.
#[derive(Clone, Copy)]
struct Until {
    lines: usize,
    tries: u64,
}

impl Until {
    /// `count` openings, or [`TRIES_PER_OPENING`] candidates each.
    fn openings(count: usize) -> Until {
        Until { lines: count, tries: (count * TRIES_PER_OPENING) as u64 }
    }
}

fn seed_of(study: &LoadedStudy, variant: &str) -> u64 {
    derive_seed(study.study.seed, fnv1a(&format!("openings-{variant}")))
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

pub fn book_path(out: &Path, variant: &str) -> PathBuf {
    super::store::cells_dir(out).join(format!("openings-{variant}.json"))
}

/// The book of `variant` with at least `count` openings where they can be found: loaded from `out`
/// when its key (from [`key`]) matches and it is long enough, else extended (or made) and saved.
pub fn book(
    study: &LoadedStudy,
    variant: usize,
    key: &str,
    count: usize,
    out: &Path,
) -> anyhow::Result<Book> {
    let name = &study.study.variants[variant].name;
    let plies = study.opening_plies(variant);
    let admission = Admission::named_by(study, variant, key)?;
    let seed = seed_of(study, name);
    let key = key.to_string();
    let path = book_path(out, name);
    let saved = super::store::load::<Book>(&path).filter(|b| b.key == key);
    if let Some(book) = &saved
        && (book.lines.len() >= count || exhausted(book, count))
    {
        return Ok(book.clone());
    }
    let mut book = saved.unwrap_or_else(|| Book::empty(name, key, plies));
    if plies > 0 {
        extend(&mut book, &study.games[variant], &admission, seed, Until::openings(count))?;
    }
    super::store::save(&path, &book)?;
    Ok(book)
}

/// Whether a book has drawn all the candidates it may for `count` openings.
fn exhausted(book: &Book, count: usize) -> bool {
    book.plies == 0 || book.tried >= Until::openings(count).tries
}

/// Draws candidates until the book holds `until.lines` openings or has drawn `until.tries`.
fn extend(
    book: &mut Book,
    game: &AnyGame,
    admission: &Admission,
    seed: u64,
    until: Until,
) -> anyhow::Result<()> {
    match (hunt_of(game), admission) {
        (Some(hunt), Admission::Table { path, band }) => {
            let table = shared_table(hunt, path)?;
            let judge = TableJudge { table: &table, game: hunt, band: *band };
            let start = judge.value(&Playthrough::new(hunt.clone())).ok_or_else(|| {
                anyhow::anyhow!("the start of {} is not in its table {}", hunt.spec(), path.display())
            })?;
            book.method = format!(
                "the tablebase {}: the exact value after the opening equals the start's, its distance within ±{band} plies of the start's less the opening's plies",
                file_name(path)
            );
            book.start = describe(start, hunt.side_names());
            fill(book, hunt, seed, until, &mut |line| judge.admit(line, start))
        }
        (_, Admission::Judge { agent, band }) => with_game!(game, |g| {
            let mut judge = AgentJudge::new(g, agent, *band)?;
            book.method =
                format!("the judge `{agent}`: its value after the opening within ±{band} of the start's");
            book.start = format!("{:+.3} for {}", judge.start, g.side_names()[0]);
            fill(book, g, seed, until, &mut |line| judge.admit(line))
        }),
        _ => with_game!(game, |g| {
            book.method =
                "not checked: no table of these rules is present and the study names no judge".to_string();
            fill(book, g, seed, until, &mut |_| Some("unchecked".to_string()))
        }),
    }
}

/// Draws candidates from `book.tried` on, admitting those `admit` values (`Some(text)`), until the
/// book holds `until.lines` or has drawn `until.tries`.
fn fill<G: Game>(
    book: &mut Book,
    game: &G,
    seed: u64,
    until: Until,
    admit: &mut dyn FnMut(&Playthrough<G>) -> Option<String>,
) -> anyhow::Result<()> {
    let mut seen: std::collections::HashSet<String> = book
        .lines
        .iter()
        .filter_map(|moves| replay(game, moves).map(|line| game.format_position(line.state())))
        .collect();
    while book.lines.len() < until.lines && book.tried < until.tries {
        let candidate = candidate(game, book.plies, derive_seed(seed, book.tried));
        book.tried += 1;
        let verdict = candidate.as_ref().and_then(|line| {
            let position = game.format_position(line.state());
            (!seen.contains(&position)).then(|| admit(line).map(|value| (position, value))).flatten()
        });
        match (candidate, verdict) {
            (Some(line), Some((position, value))) => {
                seen.insert(position);
                book.lines.push(line.move_texts());
                book.values.push(value);
            }
            _ => book.rejected += 1,
        }
    }
    Ok(())
}

/// `plies` uniformly random moves that do not end the game; `None` when some position offers none.
fn candidate<G: Game>(game: &G, plies: u32, seed: u64) -> Option<Playthrough<G>> {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let mut line = Playthrough::new(game.clone());
    for _ in 0..plies {
        let quiet: Vec<G::Move> = line
            .legal_moves()
            .iter()
            .copied()
            .filter(|&mv| {
                let mut next = line.state().clone();
                game.apply(&mut next, mv);
                game.outcome(&next).is_none()
            })
            .collect();
        if quiet.is_empty() {
            return None;
        }
        line.play(quiet[rng.random_range(0..quiet.len())]);
        if line.is_over() {
            return None;
        }
    }
    Some(line)
}

/// The line of an opening's moves, if they still play.
pub fn replay<G: Game>(game: &G, moves: &[String]) -> Option<Playthrough<G>> {
    let mut line = Playthrough::new(game.clone());
    for text in moves {
        line.play_text(text).ok()?;
    }
    Some(line)
}

/// Admission by a table: the same result as the start's, its distance within the band.
struct TableJudge<'a> {
    table: &'a Tablebase,
    game: &'a HuntGame,
    band: u32,
}

impl TableJudge<'_> {
    /// The result for side 0 of the position `plies` into the game, counting the cap.
    fn value(&self, line: &Playthrough<HuntGame>) -> Option<Verdict> {
        let state = line.state();
        let verdict = self.table.probe(state)?.within(self.game.max_plies().saturating_sub(line.plies()));
        Some(verdict.for_side(self.game.to_move(state), crate::game::Side::ZERO))
    }

    fn admit(&self, line: &Playthrough<HuntGame>, start: Verdict) -> Option<String> {
        let after = self.value(line)?;
        let expected = |plies: u32| plies.saturating_sub(line.plies());
        let kept = match (start, after) {
            (Verdict::Draw, Verdict::Draw) => true,
            (Verdict::Win { plies: a }, Verdict::Win { plies: b })
            | (Verdict::Loss { plies: a }, Verdict::Loss { plies: b }) => {
                expected(a).abs_diff(b) <= self.band
            }
            _ => false,
        };
        kept.then(|| describe(after, self.game.side_names()))
    }
}

/// A verdict for side 0 in words: "rebels win in 36", "draw".
pub fn describe(verdict: Verdict, names: [&str; 2]) -> String {
    match verdict {
        Verdict::Win { plies } => format!("{} win in {plies}", names[0]),
        Verdict::Loss { plies } => format!("{} win in {plies}", names[1]),
        Verdict::Draw => "draw".to_string(),
    }
}

/// Admission by an agent's evaluation.
struct AgentJudge<G: Game> {
    agent: Box<dyn crate::agents::Agent<G>>,
    band: f64,
    /// The start's value for side 0.
    start: f64,
}

impl<G: Family> AgentJudge<G> {
    fn new(game: &G, spec: &AgentSpec, band: f64) -> anyhow::Result<AgentJudge<G>> {
        let agent = spec.build(game, derive_seed(0x10d9e, fnv1a(&spec.to_string())))?;
        let mut judge = AgentJudge { agent, band, start: 0.0 };
        judge.start = judge.value(&Playthrough::new(game.clone())).ok_or_else(|| {
            anyhow::anyhow!("the opening judge `{spec}` gives no value (it must be a searching agent)")
        })?;
        Ok(judge)
    }

    /// The judge's value of the position for side 0.
    fn value(&mut self, line: &Playthrough<G>) -> Option<f64> {
        self.agent.choose(line);
        let mover = line.game().to_move(line.state());
        let value = f64::from(self.agent.last_value()?);
        Some(if mover == crate::game::Side::ZERO { value } else { -value })
    }

    fn admit(&mut self, line: &Playthrough<G>) -> Option<String> {
        let value = self.value(line)?;
        ((value - self.start).abs() <= self.band).then(|| format!("{value:+.3}"))
    }
}
