//! Exact values of hunt positions by retrograde analysis: for every position with a reachable number of
//! Rebels, whether the side to move wins, loses or draws with best play, and in how many plies.
//!
//! Two boards are solved. The Chinese board (sixteen-rebels and its options): the General captures
//! Rebels in pairs, so from 16 only even counts occur; the table holds every even count above
//! `general_wins_at` (6, 8, …, 16 on the default rules: 941 million slots, of which 497.6 million are
//! positions), in memory and in one file. The Japanese board (juroku-musashi, [`juroku`]): leaps take
//! one Rebel at a time, so every count from 16 down occurs, about 29 × 10⁹ slots with the mirror
//! folded in, in one file per level read from disk.
//!
//! A forced win never needs to repeat a position, so the repetition rule changes no value; the draw cap
//! turns a win into a draw exactly when its distance exceeds the plies left, which [`Verdict`] lets
//! the caller check.
//!
//! Layer: uses `game` only.

mod build;
pub mod index;
mod judge;
pub mod juroku;
mod store;
mod verify;

pub use judge::{GroupTally, JudgedMove, Prospect, SideTally};
pub use store::{
    CachedTable, TableFileError, cached_table, check_writable, default_table_path, rules_key, shares_table,
    table_present,
};
pub use verify::{Inconsistency, SpotCheck, VerifyError};

use std::time::Instant;

use crate::game::hunt::board::BoardKind;
use crate::game::hunt::{HuntGame, HuntMove, HuntState, Leap, REBELS, StaticCapture};
use crate::game::{Game, Side};

/// The longest forced result a table can hold (a byte per position, 0 for a draw). The longest in
/// sixteen-rebels is 57 plies.
pub const MAX_PLIES: u32 = 254;

/// Distances below this are exact. Juroku-musashi with its triangle open has forced results of
/// hundreds of plies, more than a byte holds: its tables keep a loss of 252 plies or more as
/// `Loss { plies: 252 }` and a win of 253 or more as `Win { plies: 253 }`, meaning "at least". Both
/// lie beyond any draw cap a game uses by default (200), so no value in play changes; and since
/// saturating commutes with the `min`, `max` and `+ 1` that make distances, every shorter distance
/// stays exact.
pub const EXACT_BELOW: u32 = 252;

/// What best play gives the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move forces a win in `plies` moves of both sides (its own last).
    Win { plies: u32 },
    /// The opponent forces a win in `plies`; the side to move can delay it no longer.
    Loss { plies: u32 },
    /// Neither side can force a win.
    Draw,
}

impl std::fmt::Display for Verdict {
    /// "win in 12 plies" (for the side to move), "loss in 3 plies", "draw"; "win in at least 253
    /// plies" where the table keeps only a bound.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bound = if self.is_bound() { "at least " } else { "" };
        match self {
            Verdict::Win { plies } => write!(f, "win in {bound}{plies} plies"),
            Verdict::Loss { plies } => write!(f, "loss in {bound}{plies} plies"),
            Verdict::Draw => write!(f, "draw"),
        }
    }
}

impl Verdict {
    /// From the stored form: 0 a draw, else the distance + 1, odd distances won for the mover.
    fn from_stored(v: u8) -> Verdict {
        match u32::from(v).checked_sub(1) {
            None => Verdict::Draw,
            Some(plies) if plies % 2 == 1 => Verdict::Win { plies },
            Some(plies) => Verdict::Loss { plies },
        }
    }

    /// The verdict for `side` when `mover` is to move.
    pub fn for_side(self, mover: Side, side: Side) -> Verdict {
        match self {
            _ if mover == side => self,
            Verdict::Win { plies } => Verdict::Loss { plies },
            Verdict::Loss { plies } => Verdict::Win { plies },
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// The same result seen one ply earlier, from before the move that led here.
    fn one_ply_earlier(self) -> Verdict {
        match self {
            Verdict::Win { plies } => Verdict::Win { plies: plies + 1 }.saturated(),
            Verdict::Loss { plies } => Verdict::Loss { plies: plies + 1 }.saturated(),
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// The verdict as a table stores it: a distance of [`EXACT_BELOW`] or more kept as "at least".
    fn saturated(self) -> Verdict {
        match self {
            Verdict::Win { plies } => Verdict::Win { plies: plies.min(EXACT_BELOW + 1) },
            Verdict::Loss { plies } => Verdict::Loss { plies: plies.min(EXACT_BELOW) },
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// Whether the distance is a bound ("at least") rather than exact.
    pub fn is_bound(self) -> bool {
        matches!(self, Verdict::Win { plies } | Verdict::Loss { plies } if plies >= EXACT_BELOW)
    }

    /// The stored byte: 0 a draw, else the (saturated) distance + 1.
    fn to_stored(self) -> u8 {
        match self.saturated() {
            Verdict::Draw => 0,
            Verdict::Win { plies } | Verdict::Loss { plies } => plies as u8 + 1,
        }
    }

    /// The result once the draw cap is counted: a win or loss further away than `plies_left` is a draw.
    pub fn within(self, plies_left: u32) -> Verdict {
        match self {
            Verdict::Win { plies } | Verdict::Loss { plies } if plies > plies_left => Verdict::Draw,
            v => v,
        }
    }
}

/// The boards the tables solve: the reason for any other board, or game, having none.
pub const SOLVED_BOARDS: &str =
    "only the Chinese board (sixteen-rebels) and the Japanese board (juroku-musashi) are solved";

/// Why a ruleset has no tablebase.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no tablebase for `{spec}`: {reason}")]
pub struct Unsupported {
    pub spec: String,
    pub reason: &'static str,
}

/// One Rebel count's values, one array per side to move, indexed by [`index::rank`] × points.
pub struct Level {
    rebels: u32,
    general_to_move: Vec<u8>,
    rebels_to_move: Vec<u8>,
}

impl Level {
    /// The stored value of a position with this level's Rebel count.
    fn value(&self, s: &HuntState) -> u8 {
        let slots = self.general_to_move.len() / index::sets_of(self.rebels);
        let at = index::rank(s.rebels as u32) as usize * slots + s.general as usize;
        if s.to_move == REBELS { self.rebels_to_move[at] } else { self.general_to_move[at] }
    }

    /// How this level's positions with `side` to move divide.
    fn tally(&self, game: &HuntGame, side: Side) -> Tally {
        use rayon::prelude::*;
        let sets = index::sets_of(self.rebels);
        (0..sets)
            .into_par_iter()
            .map(|r| {
                let rebels = u64::from(index::unrank(r as u32, self.rebels));
                (0..game.board().len() as u8)
                    .map(|general| HuntState { general, rebels, to_move: side, result: None })
                    .filter(|s| is_position(game, s))
                    .fold(Tally::default(), |t, s| t.add(Verdict::from_stored(self.value(&s))))
            })
            .reduce(Tally::default, Tally::merge)
    }
}

/// The solved levels, indexed by Rebel count.
#[derive(Default)]
pub struct Levels(Vec<Option<Level>>);

impl Levels {
    fn get(&self, rebels: u32) -> Option<&Level> {
        self.0.get(rebels as usize).and_then(Option::as_ref)
    }

    fn insert(&mut self, level: Level) {
        let at = level.rebels as usize;
        if self.0.len() <= at {
            self.0.resize_with(at + 1, || None);
        }
        self.0[at] = Some(level);
    }
}

/// A solved level, as the build reports it.
#[derive(Clone, Copy, Debug)]
pub struct LevelReport {
    pub rebels: u32,
    /// The positions with each side to move, indexed by side.
    pub tallies: [Tally; 2],
    pub seconds: f64,
}

/// How the positions of one side to move divide, and the longest forced result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub longest: u32,
}

impl Tally {
    pub fn positions(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    fn add(mut self, v: Verdict) -> Tally {
        match v {
            Verdict::Win { plies } | Verdict::Loss { plies } => {
                *(if matches!(v, Verdict::Win { .. }) { &mut self.wins } else { &mut self.losses }) += 1;
                self.longest = self.longest.max(plies);
            }
            Verdict::Draw => self.draws += 1,
        }
        self
    }

    fn merge(self, other: Tally) -> Tally {
        Tally {
            wins: self.wins + other.wins,
            losses: self.losses + other.losses,
            draws: self.draws + other.draws,
            longest: self.longest.max(other.longest),
        }
    }
}

/// The values of every position of one ruleset.
pub struct Tablebase {
    game: HuntGame,
    store: Store,
}

/// Where the values are: the Chinese board's levels in memory, the Japanese board's in files.
enum Store {
    Chinese(Levels),
    Japanese(juroku::JurokuTable),
}

impl Tablebase {
    /// Whether `game` is a ruleset this module solves: the Chinese board with intervention capture,
    /// optional or mandatory, the apex on or off, any winning threshold; not Murray's custodial capture
    /// or Neeley's leaps (their starts are short forced wins the MCTS-solver proves).
    pub fn check_supported(game: &HuntGame) -> Result<(), Unsupported> {
        let r = &game.rules;
        let reason = if matches!(r.board, BoardKind::Japanese | BoardKind::JapaneseClosed) {
            let juroku = r.leap == Leap::AnyLine
                && !r.intervention
                && !r.deferred
                && r.static_capture == StaticCapture::Never
                && !r.custodial
                && !r.rebels_forward_only
                && !r.bottom_row_wins
                && !r.apex_wins
                && !r.apex_loses
                && !r.blockade
                && r.general_wins_at.is_some();
            (!juroku).then_some("only juroku-musashi's own rules are solved on the Japanese board")
        } else if r.board != BoardKind::Chinese {
            Some(SOLVED_BOARDS)
        } else if r.custodial {
            Some("Murray's custodial capture is not solved (rebels_capture=custodial)")
        } else if r.leap != Leap::None {
            Some("the General's leaps are not solved (general_leap=diagonal)")
        } else if !r.intervention
            || r.deferred
            || r.static_capture != StaticCapture::Never
            || r.rebels_forward_only
            || r.bottom_row_wins
            || r.apex_loses
            || r.general_wins_at.is_none()
        {
            Some("only intervention capture with a winning threshold is solved")
        } else {
            None
        };
        match reason {
            Some(reason) => Err(Unsupported { spec: game.spec().to_string(), reason }),
            None => Ok(()),
        }
    }

    /// The Rebel counts a game from the start can reach that the General has not yet won at: every
    /// other count where he captures in pairs, every count where he leaps.
    pub fn levels_of(game: &HuntGame) -> Vec<u32> {
        let start = game.rules.rebel_count;
        let wins_at = game.rules.general_wins_at.unwrap_or(0);
        let step = if is_japanese(game) { 1 } else { 2 };
        (0..=start).filter(|n| n % step == start % step && *n > wins_at).collect()
    }

    /// Solves every level of `game`, fewest Rebels first, reporting each as it is done.
    pub fn build(game: &HuntGame, report: impl FnMut(LevelReport)) -> Result<Tablebase, Unsupported> {
        Tablebase::build_up_to(game, game.rules.rebel_count, report)
    }

    /// Solves the levels of `game` up to `most` Rebels (tests solve the small ones alone).
    pub fn build_up_to(
        game: &HuntGame,
        most: u32,
        mut report: impl FnMut(LevelReport),
    ) -> Result<Tablebase, Unsupported> {
        Tablebase::check_supported(game)?;
        assert!(!is_japanese(game), "the Japanese board's tables are built in files: JurokuTable::build");
        let mut levels = Levels::default();
        for rebels in Tablebase::levels_of(game).into_iter().filter(|&n| n <= most) {
            let clock = Instant::now();
            levels.insert(build::build_level(game, rebels, &levels));
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
        Tablebase::check_supported(game)?;
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
        Tablebase::check_supported(game)?;
        let table = juroku::JurokuTable::open(game, dir, most, false)?;
        Ok(Tablebase { game: game.clone(), store: Store::Japanese(table) })
    }

    pub fn game(&self) -> &HuntGame {
        &self.game
    }

    /// Each level's Rebel count and how its positions divide, General to move first.
    pub fn level_tallies(&self) -> Vec<(u32, [Tally; 2])> {
        match &self.store {
            Store::Chinese(levels) => levels
                .0
                .iter()
                .flatten()
                .map(|l| (l.rebels, Side::BOTH.map(|side| l.tally(&self.game, side))))
                .collect(),
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
        verify::move_verdicts(&self.game, s, &|next| self.probe(next))
    }

    /// The verdict of a position from its moves' verdicts: what the table must say of it.
    pub fn verdict_from_moves(&self, s: &HuntState) -> Option<Verdict> {
        verify::verdict_from_moves(&self.game, s, &|next| self.probe(next))
    }
}

/// Whether the game is played on the Japanese board (its tables are kept in a folder of level files).
pub fn is_japanese(game: &HuntGame) -> bool {
    matches!(game.rules.board, BoardKind::Japanese | BoardKind::JapaneseClosed)
}

/// Whether a General point and Rebel set are a position of the game, with either side to move: the
/// General on an empty point, not on the apex when it wins, not blockaded in the privy (both would
/// be games already over), and the Rebels on points they may stand on (not the privy, nor the
/// Japanese triangle when it is closed).
fn is_position(game: &HuntGame, s: &HuntState) -> bool {
    let board = game.board();
    if s.general as usize >= board.len() {
        return false;
    }
    let rules = &game.rules;
    let on_rebel = s.rebels >> s.general & 1 == 1;
    let on_winning_apex = rules.apex_wins && Some(s.general) == board.apex;
    let blockaded =
        rules.blockade && board.privy >> s.general & 1 == 1 && s.rebels & board.exits == board.exits;
    let rebel_points = ((1u64 << board.len()) - 1) & !board.privy;
    let rebels_on_their_points = s.rebels & !rebel_points == 0;
    rebels_on_their_points && !on_rebel && !on_winning_apex && !blockaded
}

/// Small tables and positions for the tests of this layer and the ones above it.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::game::AnyGame;

    pub fn hunt(spec: &str) -> HuntGame {
        match AnyGame::from_spec(spec).unwrap() {
            AnyGame::Hunt(g) => g,
            _ => unreachable!(),
        }
    }

    /// The table of the 6-Rebel level alone (the default threshold's first), built once.
    pub fn six_rebels() -> std::sync::Arc<Tablebase> {
        static TABLE: std::sync::LazyLock<std::sync::Arc<Tablebase>> = std::sync::LazyLock::new(|| {
            std::sync::Arc::new(Tablebase::build_up_to(&hunt("sixteen-rebels"), 6, |_| {}).unwrap())
        });
        TABLE.clone()
    }

    /// Every slot of the 6-Rebel level with `side` to move, positions or not.
    pub fn slots_of_six(side: Side) -> impl Iterator<Item = HuntState> {
        (0..index::sets_of(6) as u32).flat_map(move |r| {
            let rebels = u64::from(index::unrank(r, 6));
            (0..29u8).map(move |general| HuntState { general, rebels, to_move: side, result: None })
        })
    }

    /// The verdict of move `m` in `s` for the side that plays it.
    pub fn verdict_of(tb: &Tablebase, s: &HuntState, m: HuntMove) -> Option<Verdict> {
        tb.move_verdicts(s).into_iter().find(|(x, _)| *x == m).expect("a legal move").1
    }

    /// The longest loss among the moves of `s`, if any move loses.
    pub fn longest_loss(tb: &Tablebase, s: &HuntState) -> Option<u32> {
        let losses = tb.move_verdicts(s).into_iter().filter_map(|(_, v)| match v {
            Some(Verdict::Loss { plies }) => Some(plies),
            _ => None,
        });
        losses.max()
    }

    /// A position of the table where the side to move has both winning and non-winning moves.
    pub fn position_with_a_choice(tb: &Tablebase, side: Side) -> HuntState {
        slots_of_six(side)
            .filter(|s| tb.probe(s).is_some_and(|v| matches!(v, Verdict::Win { plies } if plies > 3)))
            .find(|s| tb.move_verdicts(s).iter().any(|(_, v)| !matches!(v, Some(Verdict::Win { .. }))))
            .expect("such a position exists")
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{hunt, position_with_a_choice, six_rebels};
    use super::*;
    use crate::game::AnyGame;
    use crate::game::hunt::{GENERAL, REBELS};

    #[test]
    fn small_levels_agree_with_the_move_generator_everywhere() {
        // The default threshold's first level (6 Rebels), and levels 2 and 4 of two other variants.
        for (spec, most) in [
            ("sixteen-rebels", 6),
            ("sixteen-rebels:general_wins_at=1,capture=mandatory", 4),
            ("sixteen-rebels:general_wins_at=0,apex=off", 4),
        ] {
            let game = hunt(spec);
            let tb = Tablebase::build_up_to(&game, most, |_| {}).unwrap();
            let checked = tb.verify(|_, _| {}).unwrap();
            let [general, rebels] = [GENERAL, REBELS].map(|side| tb.tally_for(side));
            assert_eq!(checked, general.positions() + rebels.positions());
            // Every kind of result occurs, so the check is not vacuous.
            assert!(general.wins > 0 && general.losses > 0 && general.draws > 0, "{spec}: {general:?}");
            assert!(rebels.wins > 0 && rebels.draws > 0, "{spec}: {rebels:?}");
        }
    }

    #[test]
    fn a_saved_table_reads_back_and_bad_files_are_named() {
        let tb = six_rebels();
        let dir = std::env::temp_dir().join(format!("rebel-zero-tb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("six.rztb");
        tb.save(&path).unwrap();
        // The table holds one level of six, so only the tests' partial read takes it.
        let partial = Tablebase::load(tb.game(), &path).err().unwrap();
        assert!(partial.to_string().contains("holds the levels [6] of [6, 8"), "{partial}");
        let read = |spec: &str, path: &std::path::Path| store::read(&hunt(spec), path, false);
        let back = read("sixteen-rebels", &path).unwrap();
        let s = position_with_a_choice(&tb, GENERAL);
        assert_eq!(back.probe(&s), tb.probe(&s));
        assert_eq!(back.tally_for(REBELS), tb.tally_for(REBELS));
        // The same rules with the other side first share the table; other rules do not.
        assert!(read("sixteen-rebels:first=rebels", &path).is_ok());
        let other = read("sixteen-rebels:capture=mandatory", &path).err().unwrap();
        assert!(matches!(other, TableFileError::OtherRules { .. }), "{other}");
        assert!(other.to_string().contains("capture=mandatory"), "{other}");
        // Murray's rules share every option the key names, but not the table.
        assert!(!tb.fits(&hunt("murray-rebels")) && tb.fits(&hunt("sixteen-rebels:first=rebels")));
        assert!(read("murray-rebels", &path).is_err());

        let bytes = std::fs::read(&path).unwrap();
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        let cases: [(&str, Vec<u8>, &str); 5] = [
            ("cut.rztb", bytes[..bytes.len() - 10].to_vec(), "ends inside the level of 6 Rebels"),
            ("long.rztb", [&bytes[..], b"x"].concat(), "bytes after its last level"),
            ("flipped.rztb", flipped, "does not match its checksum"),
            ("text.rztb", b"hello\n".to_vec(), "first line"),
            // A table of the first format, whose header had no checksums.
            (
                "old.rztb",
                b"rebel-zero tablebase\n{\"format\":1,\"rules\":\"x\",\"levels\":[6],\"points\":29}\n"
                    .to_vec(),
                "it is of format 1",
            ),
        ];
        for (name, content, needle) in cases {
            let bad = dir.join(name);
            std::fs::write(&bad, content).unwrap();
            let err = read("sixteen-rebels", &bad).err().unwrap();
            assert!(err.is_damaged(), "{err}");
            assert!(err.to_string().contains(needle) && err.to_string().contains(name), "{err}");
        }
        let missing = Tablebase::load(tb.game(), &dir.join("none.rztb")).err().unwrap();
        assert!(!missing.is_damaged() && missing.to_string().contains("none.rztb"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn judging_a_game_finds_the_move_that_let_a_win_go() {
        let tb = six_rebels();
        let start = position_with_a_choice(&tb, GENERAL);
        let verdicts = tb.move_verdicts(&start);
        let (blunder, _) = verdicts.iter().find(|(_, v)| !matches!(v, Some(Verdict::Win { .. }))).unwrap();
        let (good, _) = verdicts.iter().find(|(_, v)| matches!(v, Some(Verdict::Win { .. }))).unwrap();
        for (m, mistake) in [(*good, false), (*blunder, true)] {
            let mut line = crate::game::Playthrough::from_position(tb.game().clone(), start);
            line.play(m);
            let judged = tb.judge_game(&line);
            assert_eq!(judged.len(), 1);
            assert_eq!((judged[0].mover, judged[0].before), (GENERAL, Prospect::Win));
            assert_eq!(judged[0].is_mistake(), mistake, "{:?}", judged[0]);
            // A win given up for a draw or a loss is a mistake whatever the cap.
            assert!(!judged[0].against_the_cap || !mistake, "{:?}", judged[0]);
        }
    }

    /// A lost side whose slower loss would outlast the cap holds a draw in play; a faster loss gives
    /// it up, a mistake only against the cap, which the judge tells apart from a draw lost outright.
    #[test]
    fn judging_tells_a_draw_lost_to_the_cap_from_one_lost_outright() {
        let tb = six_rebels();
        let loss_in = |v: &Option<Verdict>| match v {
            Some(Verdict::Loss { plies }) => Some(*plies),
            _ => None,
        };
        // The Rebels to move, lost, with moves that lose at different distances.
        let (start, fast, slow) = testing::slots_of_six(REBELS)
            .filter(|s| matches!(tb.probe(s), Some(Verdict::Loss { .. })))
            .find_map(|s| {
                let verdicts = tb.move_verdicts(&s);
                let losses = || verdicts.iter().filter_map(|(m, v)| Some((loss_in(v)?, *m)));
                let fast = losses().min_by_key(|&(plies, _)| plies)?;
                let slow = losses().max_by_key(|&(plies, _)| plies)?;
                (slow.0 > fast.0 && verdicts.iter().all(|(_, v)| loss_in(v).is_some()))
                    .then_some((s, fast, slow))
            })
            .expect("a lost position with losses of two lengths");
        // A cap that leaves the fast loss in play but not the slow one.
        let capped = hunt(&format!("sixteen-rebels:max_plies={}", fast.0 + 1));
        for ((_, m), mistake) in [(fast, true), (slow, false)] {
            let mut line = crate::game::Playthrough::from_position(capped.clone(), start);
            line.play(m);
            let judged = tb.judge_game(&line);
            assert_eq!((judged[0].mover, judged[0].before), (REBELS, Prospect::Draw), "{judged:?}");
            assert_eq!(judged[0].is_mistake(), mistake, "{judged:?}");
            // The position is lost without the cap: the fast loss gives up only what the cap made.
            assert_eq!(judged[0].against_the_cap, mistake, "{judged:?}");
            let tally = tb.tally_games([("g", &line)], |_, _| {});
            assert_eq!(tally[0].sides[REBELS.index()].draws_lost_against_the_cap, u32::from(mistake));
        }
        // Without the cap in the way, the same fast move keeps the loss it had: no mistake at all.
        let mut line = crate::game::Playthrough::from_position(tb.game().clone(), start);
        line.play(fast.1);
        assert_eq!(tb.judge_game(&line)[0].before, Prospect::Loss);
        assert!(!tb.judge_game(&line)[0].is_mistake());

        // A win in one let go on the cap's last ply for a slower win: the game ends drawn by the cap,
        // a win given up only against it.
        let win_in = |v: &Option<Verdict>| match v {
            Some(Verdict::Win { plies }) => Some(*plies),
            _ => None,
        };
        let (start, slow_win) = testing::slots_of_six(GENERAL)
            .filter(|s| tb.probe(s) == Some(Verdict::Win { plies: 1 }))
            .find_map(|s| {
                Some((s, tb.move_verdicts(&s).into_iter().find(|(_, v)| win_in(v).is_some_and(|p| p > 1))?.0))
            })
            .expect("a win in one with a slower win beside it");
        let mut line = crate::game::Playthrough::from_position(hunt("sixteen-rebels:max_plies=1"), start);
        line.play(slow_win);
        assert_eq!(line.outcome().map(|o| o.reason), Some(crate::game::Reason::Cap));
        let judged = tb.judge_game(&line);
        assert_eq!((judged[0].before, judged[0].after), (Prospect::Win, Prospect::Draw), "{judged:?}");
        assert!(judged[0].against_the_cap, "{judged:?}");

        // A draw without the cap, given up for a loss: a mistake outright.
        let (drawn, losing) = testing::slots_of_six(REBELS)
            .chain(testing::slots_of_six(GENERAL))
            .filter(|s| tb.probe(s) == Some(Verdict::Draw))
            .find_map(|s| Some((s, tb.move_verdicts(&s).into_iter().find(|(_, v)| loss_in(v).is_some())?.0)))
            .expect("a drawn position with a losing move");
        let mut line = crate::game::Playthrough::from_position(tb.game().clone(), drawn);
        line.play(losing);
        let judged = tb.judge_game(&line);
        assert_eq!((judged[0].before, judged[0].after), (Prospect::Draw, Prospect::Loss), "{judged:?}");
        assert!(!judged[0].against_the_cap, "{judged:?}");
    }

    #[test]
    fn the_table_holds_exactly_the_positions_the_rules_accept_as_unfinished() {
        for spec in ["sixteen-rebels", "sixteen-rebels:apex=off"] {
            let game = hunt(spec);
            let mut agreed = [0, 0];
            for r in (0..index::sets_of(6) as u32).step_by(97) {
                let rebels = u64::from(index::unrank(r, 6));
                for general in [game.board().len() as u8, 64, u8::MAX] {
                    assert!(!is_position(
                        &game,
                        &HuntState { general, rebels, to_move: GENERAL, result: None }
                    ));
                }
                for general in 0..game.board().len() as u8 {
                    for to_move in [GENERAL, REBELS] {
                        let s = HuntState { general, rebels, to_move, result: None };
                        let parsed = game.parse_position(&game.format_position(&s));
                        let unfinished = parsed.is_ok_and(|p| p.result.is_none());
                        assert_eq!(is_position(&game, &s), unfinished, "{spec}: {s:?}");
                        agreed[usize::from(unfinished)] += 1;
                    }
                }
            }
            assert!(agreed[0] > 0 && agreed[1] > 0, "{spec}: {agreed:?}");
        }
    }

    #[test]
    fn unsupported_rulesets_are_named() {
        for spec in ["murray-rebels", "neeley-rebels", "twenty-six-rebels", "imperial-contest"] {
            let AnyGame::Hunt(game) = AnyGame::from_spec(spec).unwrap() else {
                continue; // imperial-contest is no hunt game: the callers refuse it before the tables
            };
            let err = Tablebase::check_supported(&game).expect_err(spec);
            assert!(err.to_string().contains(spec.split(':').next().unwrap()), "{err}");
        }
        assert!(
            Tablebase::check_supported(&hunt("juroku-musashi:triangle=closed,capture=mandatory")).is_ok()
        );
        for spec in ["murray-rebels", "neeley-rebels", "twenty-six-rebels"] {
            let err = Tablebase::build_up_to(&hunt(spec), 0, |_| {}).err().expect(spec);
            assert!(err.to_string().contains(spec.split(':').next().unwrap()), "{err}");
        }
    }
}
