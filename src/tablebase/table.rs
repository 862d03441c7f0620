//! [`Tablebase`]: the values of every position of one ruleset, built, read from disk and probed; the
//! Chinese board's levels in memory ([`super::chinese`]), the Japanese board's in files
//! ([`super::juroku`]).

use std::path::Path;
use std::time::Instant;

use super::chinese::{self, Levels};
use super::consistency;
use super::format::TableFileError;
use super::juroku;
use super::location::shares_table;
use super::rules::{Unsupported, check_supported, is_japanese, is_position, levels_of};
use super::verdict::{LevelReport, Tally, Verdict};
use crate::game::hunt::{HuntGame, HuntMove, HuntState};
use crate::game::{Game, Side};

/// The values of every position of one ruleset.
///
/// ```
/// use rebel_zero::game::{AnyGame, Game};
/// use rebel_zero::tablebase::Tablebase;
///
/// let AnyGame::Hunt(game) = AnyGame::from_spec("sixteen-rebels").unwrap() else { unreachable!() };
/// // The levels of up to 6 Rebels, in a moment (all of them, `rebel-zero solve`, take minutes and 1 GB).
/// let table = Tablebase::build_up_to(&game, 6, |_| {}).unwrap();
/// let position = game.parse_position("G:c3;R:a1,b1,c1,d1,e1,e2;g").unwrap();
/// let verdict = table.probe(&position).expect("a position with 6 Rebels");
/// println!("the general to move: {verdict}"); // "win in 7 plies", "draw", …
/// // What the table says agrees with what it says of the positions each move leads to.
/// assert_eq!(table.verdict_from_moves(&position), Some(verdict));
/// ```
pub struct Tablebase {
    pub(super) game: HuntGame,
    pub(super) store: Store,
}

/// Where the values are: the Chinese board's levels in memory, the Japanese board's in files.
pub(super) enum Store {
    Chinese(Levels),
    Japanese(juroku::JurokuTable),
}

impl Tablebase {
    /// Solves every level of `game`, fewest Rebels first, reporting each as it is done.
    pub fn build(game: &HuntGame, report: impl FnMut(LevelReport)) -> Result<Tablebase, Unsupported> {
        Tablebase::build_up_to(game, game.rules.rebel_count, report)
    }

    /// Solves the levels of `game` up to `most` Rebels (tests solve the small ones alone).
    pub fn build_up_to(
        game: &HuntGame,
        most: u32,
        report: impl FnMut(LevelReport),
    ) -> Result<Tablebase, Unsupported> {
        Tablebase::build_showing(game, most, report, &juroku::Quiet::default())
    }

    /// [`Tablebase::build_up_to`], with `progress` told of the work within each level.
    pub fn build_showing(
        game: &HuntGame,
        most: u32,
        mut report: impl FnMut(LevelReport),
        progress: &dyn juroku::LevelProgress,
    ) -> Result<Tablebase, Unsupported> {
        check_supported(game)?;
        let refuse = |reason: String| Unsupported { spec: game.spec().to_string(), reason };
        if is_japanese(game) {
            let reason = "the Japanese board's tables are built in a folder of level files (build_in_folder)";
            return Err(refuse(reason.into()));
        }
        super::size::TableSize::of(game).check_index().map_err(refuse)?;
        let mut levels = Levels::default();
        for rebels in levels_of(game).into_iter().filter(|&n| n <= most) {
            let clock = Instant::now();
            levels.insert(chinese::build::build_level(game, rebels, &levels, progress));
            let seconds = clock.elapsed().as_secs_f64();
            let level = levels.get(rebels).expect("just inserted");
            let tallies = Side::BOTH.map(|side| level.tally(game, side));
            report(LevelReport { rebels, tallies, seconds });
        }
        Ok(Tablebase { game: game.clone(), store: Store::Chinese(levels) })
    }

    /// The Japanese board's table in the folder `dir`, its missing levels built first (see
    /// [`juroku::JurokuTable::build`]); `most` bounds the Rebel count (tests build the small levels).
    pub fn build_in_folder(
        game: &HuntGame,
        dir: &std::path::Path,
        most: u32,
        observer: &mut dyn juroku::BuildObserver,
    ) -> Result<Tablebase, TableFileError> {
        check_supported(game)?;
        let table = juroku::JurokuTable::build(game, dir, most, observer)?;
        Ok(Tablebase { game: game.clone(), store: Store::Japanese(table) })
    }

    /// The Japanese board's levels of at most `most` Rebels that the folder `dir` holds, none built:
    /// the positions of a missing level are not in the table.
    pub fn open_levels(
        game: &HuntGame,
        dir: &std::path::Path,
        most: u32,
    ) -> Result<Tablebase, TableFileError> {
        check_supported(game)?;
        let table = juroku::JurokuTable::open(game, dir, most, false)?;
        Ok(Tablebase { game: game.clone(), store: Store::Japanese(table) })
    }

    pub fn game(&self) -> &HuntGame {
        &self.game
    }

    /// Each level's Rebel count and how its positions divide, General to move first.
    pub fn level_tallies(&self) -> Vec<(u32, [Tally; 2])> {
        match &self.store {
            Store::Chinese(levels) => {
                levels.iter().map(|l| (l.rebels, Side::BOTH.map(|side| l.tally(&self.game, side)))).collect()
            }
            Store::Japanese(table) => table.headers().map(|h| (h.rebels, h.tallies)).collect(),
        }
    }

    /// How the positions with `side` to move divide over every level.
    pub fn tally_for(&self, side: Side) -> Tally {
        self.level_tallies().iter().map(|(_, t)| t[side.index()]).fold(Tally::default(), Tally::merge)
    }

    /// The Japanese board's level files, with how long each took to build and its memory peak.
    pub fn level_headers(&self) -> Vec<juroku::LevelHeader> {
        match &self.store {
            Store::Chinese(_) => Vec::new(),
            Store::Japanese(table) => table.headers().cloned().collect(),
        }
    }

    /// The value of a position for its side to move; `None` for a finished game or a Rebel count the
    /// table does not hold (an odd count, which no game from the start reaches).
    pub fn probe(&self, s: &HuntState) -> Option<Verdict> {
        if s.result.is_some() {
            return None;
        }
        if !is_position(&self.game, s) {
            return None;
        }
        let stored = match &self.store {
            Store::Chinese(levels) => levels.get(s.rebels.count_ones())?.value(s),
            Store::Japanese(table) => table.value(s)?,
        };
        Some(Verdict::from_stored(stored))
    }

    /// Each legal move with its verdict for the side that plays it (a move that ends the game is a
    /// win or loss in 1); `None` where the table lacks the position a move leads to.
    pub fn move_verdicts(&self, s: &HuntState) -> Vec<(HuntMove, Option<Verdict>)> {
        consistency::move_verdicts(&self.game, s, &|next| self.probe(next))
    }

    /// The verdict of a position from its moves' verdicts: what the table must say of it.
    pub fn verdict_from_moves(&self, s: &HuntState) -> Option<Verdict> {
        consistency::verdict_from_moves(&self.game, s, &|next| self.probe(next))
    }
}

impl Tablebase {
    /// Whether this table holds the values of `game` (built for the same rules, whoever moves first).
    pub fn fits(&self, game: &HuntGame) -> bool {
        shares_table(&self.game, game)
    }

    /// Writes a Chinese-board table to one file (a Japanese-board table is written level by level as
    /// it is built).
    pub fn save(&self, path: &Path) -> Result<(), TableFileError> {
        match &self.store {
            Store::Chinese(levels) => chinese::store::write_levels(&self.game, levels, path),
            Store::Japanese(_) => Err(TableFileError::Write {
                path: path.to_path_buf(),
                source: std::io::Error::other(
                    "a Japanese-board table is written level by level as it is built",
                ),
            }),
        }
    }

    /// Reads the table of `game`'s rules (which must be ones the tables solve): a file, or for the
    /// Japanese board a folder holding every level.
    pub fn load(game: &HuntGame, path: &Path) -> Result<Tablebase, TableFileError> {
        if is_japanese(game) {
            check_supported(game)?;
            let table = juroku::JurokuTable::open(game, path, game.rules.rebel_count, true)?;
            return Ok(Tablebase { game: game.clone(), store: Store::Japanese(table) });
        }
        Tablebase::read(game, path, true)
    }

    /// Reads a Chinese-board table; `whole` refuses one that lacks levels of the rules (only tests write
    /// such tables).
    pub(super) fn read(game: &HuntGame, path: &Path, whole: bool) -> Result<Tablebase, TableFileError> {
        let levels = chinese::store::read_levels(game, path, whole)?;
        Ok(Tablebase { game: game.clone(), store: Store::Chinese(levels) })
    }
}
