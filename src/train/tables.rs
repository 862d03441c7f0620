//! The tablebases of a run's specs, for the keys that read them: exact value targets
//! (`replay.exact_values`) and the perfect teacher (`bootstrap.teacher = "perfect"`).

use std::any::Any;
use std::sync::Arc;

use anyhow::bail;

use crate::agents::perfect::shared_table;
use crate::game::Game;
use crate::game::hunt::HuntGame;
use crate::tablebase::{CachedTable, Tablebase, cached_table};

/// What `rebel-zero solve` covers, for the errors of keys that need a table.
pub const SOLVED_RULESETS: &str =
    "`rebel-zero solve` solves sixteen-rebels and juroku-musashi, not Murray's or Neeley's captures";

/// One table per spec the tables solve, `None` for the others; each file is read once per process.
pub struct SpecTables {
    tables: Vec<Option<Arc<Tablebase>>>,
}

impl SpecTables {
    /// Opens the table of every spec the tables solve. A spec they solve whose table is not built is an
    /// error naming `key` (the config key that wants it) and the command that builds it.
    pub fn open<G: Game>(games: &[G], key: &str) -> anyhow::Result<SpecTables> {
        let mut tables = Vec::with_capacity(games.len());
        for game in games {
            let Some(hunt) = (game as &dyn Any).downcast_ref::<HuntGame>() else {
                tables.push(None);
                continue;
            };
            match cached_table(hunt) {
                CachedTable::Unsolvable => tables.push(None),
                CachedTable::Missing(path) => bail!(
                    "{key}: `{}` has no tablebase at {}; build it with `rebel-zero solve {}`",
                    hunt.spec(),
                    path.display(),
                    hunt.spec()
                ),
                CachedTable::Built(path) => tables.push(Some(shared_table(hunt, &path)?)),
            }
        }
        Ok(SpecTables { tables })
    }

    /// The table of the spec at `spec_index`, if one solves it.
    pub fn get(&self, spec_index: usize) -> Option<&Arc<Tablebase>> {
        self.tables.get(spec_index).and_then(Option::as_ref)
    }

    /// Whether no spec has a table.
    pub fn is_empty(&self) -> bool {
        self.tables.iter().all(Option::is_none)
    }

    /// The index of the first spec no table solves.
    pub fn first_unsolved(&self) -> Option<usize> {
        self.tables.iter().position(Option::is_none)
    }

    #[cfg(test)]
    pub fn of(tables: Vec<Option<Arc<Tablebase>>>) -> SpecTables {
        SpecTables { tables }
    }
}
