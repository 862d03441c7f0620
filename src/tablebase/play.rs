//! Tables in play: each table file read once per process and shared by every game that asks for it
//! (tables are ~1 GB), and best play by a table, counting the game's own draws: a move beyond the
//! plies the cap leaves, or one that makes a position's third occurrence, is a draw whatever the table
//! says. The perfect agent, the studies' judges, training's teacher and exact values, and the server
//! all play through here.
//!
//! The table knows nothing of repetition, and needs not: a side that wins by the table never repeats a
//! position (each of its moves shortens the distance), so only the losing side can reach for one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use super::format::TableFileError;
use super::table::Tablebase;
use super::verdict::Verdict;
use crate::game::hunt::{HuntGame, HuntMove};
use crate::game::{Game, Playthrough};

/// The table in `path`, read once per process.
pub fn shared_table(game: &HuntGame, path: &Path) -> Result<Arc<Tablebase>, TableFileError> {
    static TABLES: LazyLock<Mutex<HashMap<PathBuf, Arc<Tablebase>>>> = LazyLock::new(Default::default);
    let mut tables = TABLES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // One file named two ways (`./t.rztb`, `t.rztb`) is still read once.
    let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if let Some(table) = tables.get(&key).filter(|t| t.fits(game)) {
        return Ok(table.clone());
    }
    if !path.exists() {
        let (path, spec, cost) = (path.to_path_buf(), game.spec().to_string(), super::build_cost(game));
        return Err(TableFileError::Absent { path, spec, cost });
    }
    let table = Arc::new(Tablebase::load(game, path)?);
    tables.insert(key, table.clone());
    Ok(table)
}

/// How much a verdict is worth to the side that plays into it: wins first, the sooner the better;
/// then draws; then losses, the later the better.
fn preference(verdict: Option<Verdict>, plies_left: u32) -> i64 {
    match verdict.map(|v| v.within(plies_left)) {
        Some(Verdict::Win { plies }) => 2_000 - i64::from(plies),
        Some(Verdict::Draw) | None => 1_000,
        Some(Verdict::Loss { plies }) => i64::from(plies),
    }
}

/// The result a preference stands for: 1 a win, 0 a draw, −1 a loss.
pub fn outcome_of(preference: i64) -> i64 {
    (preference - 1_000).signum()
}

/// Each legal move of `line`'s position with its [`preference`] for the side to move, the game's own
/// draws counted: a move beyond the plies the cap leaves, or one that makes a position's third
/// occurrence, is a draw whatever the table says.
pub fn ranked_moves(table: &Tablebase, line: &Playthrough<HuntGame>) -> Vec<(i64, HuntMove)> {
    let s = line.state();
    let game = line.game();
    let plies_left = game.max_plies().saturating_sub(line.plies());
    // Positions before a capture never recur (the Rebels are fewer after it), so counting the
    // whole game equals counting since the last irreversible move, as the rule does.
    let history: Vec<u64> = line.states().iter().map(|p| game.position_hash(p)).collect();
    let occurrences = |m: HuntMove| {
        let mut next = *s;
        game.apply(&mut next, m);
        let hash = game.position_hash(&next);
        history.iter().filter(|&&h| h == hash).count()
    };
    table
        .move_verdicts(s)
        .into_iter()
        // A game-ending position never occurred before (the game would have ended there), so a
        // move that ends the game is never taken for a repetition.
        .map(|(m, v)| (preference(if occurrences(m) >= 2 { Some(Verdict::Draw) } else { v }, plies_left), m))
        .collect()
}

/// The moves of `ranked` that best play chooses among.
pub fn best_moves<M: Copy>(ranked: &[(i64, M)]) -> Vec<M> {
    let best = ranked.iter().map(|&(p, _)| p).max().expect("a legal move");
    ranked.iter().filter(|&&(p, _)| p == best).map(|&(_, m)| m).collect()
}
