//! Exact values of hunt positions by retrograde analysis: for every position with a reachable number of
//! Rebels, whether the side to move wins, loses or draws with best play, and in how many plies.
//!
//! Two builders. The Chinese board's (sixteen-rebels and its options, and any board of a rules file
//! where the General captures pairs by intervention, under the bounds of [`check_supported`] and
//! [`TableSize`]): from 16 only even counts occur; the table holds every count of the start's parity
//! above `general_wins_at` (6, 8, …, 16 on the default rules: 941 million slots, of which 497.6
//! million are positions), in memory and in one file. The Japanese board (juroku-musashi, [`juroku`]): leaps take
//! one Rebel at a time, so every count from 16 down occurs, about 29 × 10⁹ slots with the mirror
//! folded in, in one file per level read from disk.
//!
//! A forced win never needs to repeat a position, so the repetition rule changes no value; the draw cap
//! turns a win into a draw exactly when its distance exceeds the plies left, which [`Verdict`] lets
//! the caller check.
//!
//! The layout, the same for both boards: [`chinese`] and [`juroku`] build, store and read their levels;
//! [`table`] is the [`Tablebase`] over either; [`play`] shares tables between games and ranks moves by
//! them, for every user above (the perfect agent, studies, training, the server); [`paired`] reads two
//! tables of one board position by position; [`margin`] measures the room for error a result leaves. Below them:
//! [`verdict`], [`rules`] (what is solved), [`format`] and [`index`]; [`consistency`] is what a
//! table must say given its moves, which [`verify`] checks everywhere.
//!
//! Layer: uses `game` only.

mod chinese;
mod consistency;
mod format;
pub mod index;
mod judge;
pub mod juroku;
mod location;
mod margin;
mod paired;
mod play;
mod rules;
mod size;
mod table;
#[cfg(test)]
pub(crate) mod testing;
#[cfg(test)]
mod tests;
mod verdict;
mod verify;

pub use consistency::{Inconsistency, VerifyError};
pub use format::{TableFileError, check_writable};
pub use judge::{GroupTally, JudgedMove, Prospect, RecordedGame, SideTally, recorded_games};
pub use location::{
    CachedTable, build_cost, cached_table, default_table_path, open_or_build, shares_table, table_present,
    will_build,
};
pub use margin::{Keeping, Margin};
pub use paired::PairedWins;
pub use play::{best_moves, outcome_of, ranked_moves, shared_table};
pub use rules::{SOLVED_BOARDS, Unsupported, board_of, check_supported, is_japanese, levels_of, rules_key};
pub use size::TableSize;
pub use table::Tablebase;
pub use verdict::{EXACT_BELOW, LevelReport, MAX_PLIES, Tally, Verdict};
pub use verify::SpotCheck;
