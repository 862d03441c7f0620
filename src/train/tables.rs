//! The tablebases of a run's specs, for the keys that read them: exact value targets
//! (`replay.exact_values`) and the perfect teacher (`bootstrap.teacher = "perfect"`).

use std::sync::Arc;

use anyhow::bail;

use crate::family::Family;
use crate::game::Game;
use crate::tablebase::shared_table;
use crate::tablebase::{CachedTable, SOLVED_BOARDS, Tablebase, Unsupported, cached_table};

/// One table per spec the tables solve, and for the others why not (for the errors of keys that need
/// a table); each file is read once per process.
pub struct SpecTables {
    tables: Vec<Result<Arc<Tablebase>, String>>,
}

impl SpecTables {
    /// Opens the table of every spec the tables solve. A spec they solve whose table is not built is an
    /// error naming `key` (the config key that wants it) and the command that builds it.
    pub fn open<G: Family>(games: &[G], key: &str) -> anyhow::Result<SpecTables> {
        let mut tables = Vec::with_capacity(games.len());
        for game in games {
            let Some(hunt) = game.as_hunt() else {
                let why = Unsupported { spec: game.spec().to_string(), reason: SOLVED_BOARDS.into() };
                tables.push(Err(why.to_string()));
                continue;
            };
            match cached_table(hunt) {
                CachedTable::Unsolvable(why) => tables.push(Err(why.to_string())),
                CachedTable::Missing(path) => bail!(
                    "{key}: `{}` has no tablebase at {}; build it with `rebel-zero solve {}`",
                    hunt.spec(),
                    path.display(),
                    hunt.spec()
                ),
                CachedTable::Built(path) => tables.push(Ok(shared_table(hunt, &path)?)),
            }
        }
        Ok(SpecTables { tables })
    }

    /// The table of the spec at `spec_index`, if one solves it.
    pub fn get(&self, spec_index: usize) -> Option<&Arc<Tablebase>> {
        self.tables.get(spec_index).and_then(|table| table.as_ref().ok())
    }

    /// Why no table solves the first spec that none solves (`None`: a table solves every spec).
    pub fn first_unsolved(&self) -> Option<&str> {
        self.tables.iter().find_map(|table| table.as_ref().err()).map(String::as_str)
    }

    /// Why no table solves any spec, one reason per spec (`None`: a table solves at least one).
    pub fn none_solved(&self) -> Option<String> {
        let reasons: Option<Vec<&str>> =
            self.tables.iter().map(|t| t.as_ref().err().map(String::as_str)).collect();
        reasons.map(|reasons| reasons.join("; "))
    }

    #[cfg(test)]
    pub fn of(tables: Vec<Option<Arc<Tablebase>>>) -> SpecTables {
        let tables =
            tables.into_iter().map(|t| t.ok_or_else(|| "no table in this test".to_string())).collect();
        SpecTables { tables }
    }
}
