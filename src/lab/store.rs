//! Resuming: each cell is saved as `cells/<id>.json` in the output directory as its games finish, a
//! round at a time, written to a temporary file and renamed, so a stopped study leaves whole rounds
//! behind. A rerun loads the cells whose settings still match and plays the rest, each cell from the
//! game after its last saved one.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::analysis::GameStats;
use super::schedule::Cell;
use crate::game::GameRecord;
use crate::search::Proof;

/// A finished cell: what was played (the cell itself, to check it still matches the study), the
/// records, their stats and the seconds it took.
///
/// The cell file holds only what the seed decides, so the same cell played anywhere (here, or by
/// another machine of a cluster) gives the same bytes; its seconds are saved beside it
/// (`<id>.seconds`). Files written before that held them inside, and still load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellResult {
    pub cell: Cell,
    #[serde(default, skip_serializing)]
    pub seconds: f64,
    pub records: Vec<GameRecord>,
    pub stats: Vec<GameStats>,
}

/// The value of one variant's start position: read from the tablebase where one covers the rules,
/// else the MCTS-solver's attempt to prove it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolverResult {
    pub variant: String,
    pub spec: String,
    /// `tablebase` (with the table's checksum) or `mcts-solver`.
    #[serde(default = "mcts_solver")]
    pub method: String,
    /// The simulation budget, and how many the search ran before it stopped.
    pub budget: u32,
    pub simulations: u32,
    /// What was proven (saved as the winner's side name or `draw`), or `None` when nothing was.
    pub proven: Option<Proven>,
    /// The proof's bound on the game's length in plies.
    pub plies: Option<u32>,
    pub seconds: f64,
    /// On a board a table solves: the best-play line from the start, a mark after each capture.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<LineMark>,
    /// On a board a table solves, where a claim asks: how the table's positions divide by side 1's
    /// pieces left (the Rebels') and the side to move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub levels: Vec<LevelShare>,
}

/// A claim's measure read from the tables over a set of positions ([`super::positions`]), kept so that
/// the record reads again without the tables.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableFigure {
    pub claim: String,
    /// Which positions: "every position", or those the games reach.
    pub over: String,
    /// One value per measure of the claim's test, in its order; none where the figure is not defined
    /// (a mean over a set that holds no position it is measured over).
    pub values: Vec<f64>,
    pub text: String,
    /// Why the rules fix the direction of the comparison whatever the positions, if they do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed: Option<String>,
}

/// A position on the best-play line (both sides play best; among equal moves the one taking the most
/// pieces, the loser's revenge as early as best play allows): after `ply` plies, the pieces each side
/// has lost, and its value for best play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LineMark {
    pub ply: u32,
    pub lost: [u32; 2],
    /// The side that wins with best play from here (`None`: a draw), and in how many more plies.
    pub winner: Option<usize>,
    pub plies: Option<u32>,
    pub position: String,
}

/// The table's positions with `pieces` of side 1's pieces and `to_move` to move: how many each side
/// wins with best play (by side index), and the draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelShare {
    pub pieces: u32,
    pub to_move: usize,
    pub wins: [u64; 2],
    pub draws: u64,
}

/// What a proof established about a start: a side's forced win (by side name), or a draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proven {
    Win(String),
    Draw,
}

impl Proven {
    /// Whether this is what a claim's `winner` (a side name or `draw`) says.
    pub fn is(&self, winner: &str) -> bool {
        match self {
            Proven::Draw => winner == "draw",
            Proven::Win(side) => side == winner,
        }
    }
}

impl Serialize for Proven {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Proven::Win(side) => serializer.serialize_str(side),
            Proven::Draw => serializer.serialize_str("draw"),
        }
    }
}

impl<'de> Deserialize<'de> for Proven {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Proven, D::Error> {
        let text = String::deserialize(deserializer)?;
        Ok(if text == "draw" { Proven::Draw } else { Proven::Win(text) })
    }
}

/// The method of a value searched by the MCTS-solver (a table's names its file).
pub const MCTS_SOLVER: &str = "mcts-solver";

fn mcts_solver() -> String {
    MCTS_SOLVER.to_string()
}

impl SolverResult {
    /// The value in words: `a forced rebels win in 40 plies (tablebase)`, or what was not proven.
    pub fn describe(&self) -> String {
        match (&self.proven, self.plies) {
            (Some(Proven::Draw), _) => format!("a draw with best play ({})", self.method),
            (Some(Proven::Win(w)), Some(p)) if self.method.starts_with("tablebase") => {
                format!("a forced {w} win in {p} plies ({})", self.method)
            }
            (Some(Proven::Win(w)), Some(p)) => format!(
                "proven: {w} in at most {p} plies ({}, {} simulations)",
                self.method, self.simulations
            ),
            _ => format!("not proven within {} simulations ({})", self.budget, self.method),
        }
    }

    pub fn proof_text(proof: Proof, names: [&str; 2]) -> (Option<Proven>, Option<u32>) {
        match proof {
            Proof::Unknown => (None, None),
            Proof::Proven { winner, plies } => (
                Some(winner.map_or(Proven::Draw, |s| Proven::Win(names[s.index()].to_string()))),
                Some(plies),
            ),
        }
    }
}

pub fn cells_dir(out: &Path) -> PathBuf {
    out.join("cells")
}

pub fn cell_path(out: &Path, id: &str) -> PathBuf {
    cells_dir(out).join(format!("{id}.json"))
}

pub fn solver_path(out: &Path, variant: &str, budget: u32) -> PathBuf {
    cells_dir(out).join(format!("solver-{variant}-{budget}.json"))
}

fn seconds_path(out: &Path, id: &str) -> PathBuf {
    cells_dir(out).join(format!("{id}.seconds"))
}

/// The saved games of `cell`, if there are some made with the same settings (as many as were played:
/// a cell may hold fewer than planned, where a run stopped between rounds, or more, where a sequential
/// claim grew it).
pub fn load_cell(out: &Path, cell: &Cell) -> Option<CellResult> {
    let mut result: CellResult = load(&cell_path(out, &cell.id))?;
    if let Some(seconds) =
        std::fs::read_to_string(seconds_path(out, &cell.id)).ok().and_then(|t| t.trim().parse().ok())
    {
        result.seconds = seconds;
    }
    let whole = result.records.len() == result.stats.len();
    (cell.same_as(&result.cell) && whole).then(|| CellResult { cell: cell.clone(), ..result })
}

/// Saves a cell's games: its seconds first, then the cell file (written whole, with the games it has).
pub fn save_cell(out: &Path, result: &CellResult) -> anyhow::Result<()> {
    let id = &result.cell.id;
    crate::files::write_atomic(&seconds_path(out, id), format!("{:.3}\n", result.seconds).as_bytes())?;
    save(&cell_path(out, id), result)
}

pub fn load<T: DeserializeOwned>(path: &Path) -> Option<T> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

/// Writes `value` as JSON to `path` through a temporary file and a rename.
pub fn save<T: Serialize>(path: &Path, value: &T) -> anyhow::Result<()> {
    Ok(crate::files::write_atomic(path, serde_json::to_string(value)?.as_bytes())?)
}

#[cfg(test)]
mod tests {
    /// A record read back holds the floats it was written with, to the last bit: a reread that keeps
    /// a number writes it as it was (the table figures a reread keeps had drifted by one unit in the
    /// last place, each reread, before serde_json's `float_roundtrip`).
    #[test]
    fn a_saved_float_reads_back_bit_for_bit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("floats.json");
        let values = vec![1.1794596075030241, 0.9898110900897459, 0.1 + 0.2, 1e-300, f64::MAX, 2.0f64.sqrt()];
        super::save(&path, &values).unwrap();
        let back: Vec<f64> = super::load(&path).unwrap();
        for (a, b) in values.iter().zip(&back) {
            assert_eq!(a.to_bits(), b.to_bits(), "{a} read back as {b}");
        }
    }
}
