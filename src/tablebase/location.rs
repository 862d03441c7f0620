//! Where tables live: the default path of a ruleset's table in the cache folder, whether it is built
//! there, and which rulesets share one table.

use std::path::{Path, PathBuf};

use super::format::{TableFileError, check_writable};
use super::juroku;
use super::rules::{Unsupported, check_supported, is_japanese, levels_of, rules_key};
use super::size::TableSize;
use crate::game::hunt::HuntGame;

/// Where `rebel-zero solve` keeps the table of `game`'s rules, in the cache folder
/// ([`crate::files::cache_dir`]):
/// `tablebases/sixteen-rebels-capture-optional-general_wins_at-4-apex-on.rztb`, and for the Japanese
/// board a folder of level files, `tablebases/juroku-musashi-triangle-open-capture-optional-general_wins_at-0`.
pub fn default_table_path(game: &HuntGame) -> PathBuf {
    let name: String = rules_key(game)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' })
        .collect();
    let file = if is_japanese(game) { name } else { format!("{name}.rztb") };
    crate::files::cache_dir().join("tablebases").join(file)
}

/// Whether the table of `game`'s rules is at `path` whole: the file, or for the Japanese board every
/// level's file in the folder (a build still under way leaves some out).
pub fn table_present(game: &HuntGame, path: &Path) -> bool {
    if is_japanese(game) {
        levels_of(game).into_iter().all(|n| juroku::level_path(path, n).is_file())
    } else {
        super::chinese::store::holds_every_level(game, path)
    }
}

/// Where the table of a ruleset's rules stands in the cache ([`cached_table`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CachedTable {
    /// No table solves these rules, for this reason.
    Unsolvable(Unsupported),
    /// A table could solve them, but it is not built whole at this path (`rebel-zero solve` builds it).
    Missing(PathBuf),
    /// Built whole at this path.
    Built(PathBuf),
}

/// Whether a table solves `game`'s rules, and if so whether it is built at its default path.
pub fn cached_table(game: &HuntGame) -> CachedTable {
    if let Err(why) = check_supported(game) {
        return CachedTable::Unsolvable(why);
    }
    let path = default_table_path(game);
    match table_present(game, &path) {
        true => CachedTable::Built(path),
        false => CachedTable::Missing(path),
    }
}

/// What building the whole table of `game`'s rules takes, in words, for a message that offers to
/// build it: [`juroku::BuildEstimate`] on the Japanese board, [`TableSize`] elsewhere (scaled from
/// sixteen-rebels' measured build: 5½ minutes on two free cores of an AMD EPYC, 2.15 GB at its peak,
/// a 0.94 GB file).
pub fn build_cost(game: &HuntGame) -> String {
    if is_japanese(game) {
        juroku::BuildEstimate::of(game, &levels_of(game)).to_string()
    } else {
        TableSize::of(game).estimate.to_string()
    }
}

/// Whether [`open_or_build`] would build: no file at `path`, or a table of these rules with fewer
/// levels (built for a start with fewer Rebels), which it replaces. Any other file is read, so that
/// another ruleset's table or a damaged one is named, never overwritten.
pub fn will_build(game: &HuntGame, path: &Path) -> bool {
    !path.exists()
        || super::chinese::store::stored_levels(game, path)
            .is_some_and(|_| !super::chinese::store::holds_every_level(game, path))
}

/// The in-memory builder's table of `game` ([`super::chinese`]): read from `path` when the file there
/// holds every level the game reaches, else built (`report` hears each level as it is done) and
/// written there, replacing a file of these rules that holds fewer; `progress` hears the work within
/// each level. Before any work it checks that the file can be
/// written. Returns the table and whether it was built. The caller checks memory first
/// ([`TableSize::check_memory`]).
pub fn open_or_build(
    game: &HuntGame,
    path: &Path,
    report: impl FnMut(super::LevelReport),
    progress: &dyn juroku::LevelProgress,
) -> Result<(super::Tablebase, bool), TableFileError> {
    if !will_build(game, path) {
        return Ok((super::Tablebase::load(game, path)?, false));
    }
    check_writable(path).map_err(|source| TableFileError::Write { path: path.to_path_buf(), source })?;
    let table = super::Tablebase::build_showing(game, game.rules.rebel_count, report, progress)?;
    table.save(path)?;
    Ok((table, true))
}

/// Whether `other`'s positions have the values of `game`'s: both solvable, with the same rules key.
pub fn shares_table(game: &HuntGame, other: &HuntGame) -> bool {
    check_supported(other).is_ok() && rules_key(game) == rules_key(other)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::testing::hunt;

    #[test]
    fn a_ruleset_no_table_solves_has_none_and_a_solvable_one_its_default_path() {
        match cached_table(&hunt("murray-rebels")) {
            CachedTable::Unsolvable(why) => assert!(why.reason.contains("custodial"), "{why}"),
            other => panic!("murray-rebels has no table: {other:?}"),
        }
        let game = hunt("sixteen-rebels");
        match cached_table(&game) {
            CachedTable::Built(path) | CachedTable::Missing(path) => {
                assert_eq!(path, default_table_path(&game))
            }
            CachedTable::Unsolvable(why) => panic!("sixteen-rebels is solvable: {why}"),
        }
    }
}
