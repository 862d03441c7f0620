//! A match's output folder, kept so that a stopped match loses nothing. `match.json` names the match
//! (ruleset, agents, seed, openings, sequential test); `games.jsonl` gets each game as it ends, in the
//! order they end. The same command run again on the folder resumes: the games kept there are not
//! played again, and since game `i` is the same game whenever and on however many threads it is
//! played, a resumed match (its sequential test included) ends exactly as one run straight through.
//! When the match ends, `games.jsonl` is written again in game order beside `summary.json`.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::game::GameRecord;

/// What makes two runs the same match. The number of games and threads are not part of it: game `i`
/// does not depend on them, so a match may be resumed with more games, or on another machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchIdentity {
    pub spec: String,
    /// Agent A's and agent B's specs, as they print.
    pub agents: [String; 2],
    pub seed: u64,
    /// Random opening plies.
    pub opening: u32,
    /// The SHA-256 of the book's opening lines, one line of moves per text line.
    pub book: Option<String>,
    /// The sequential test's Elo bounds.
    pub sprt: Option<[f64; 2]>,
}

impl MatchIdentity {
    /// The fingerprint of a book's lines, for [`MatchIdentity::book`].
    pub fn book_hash(lines: &[Vec<String>]) -> String {
        let text: String = lines.iter().map(|line| line.join(" ") + "\n").collect();
        crate::files::sha256_hex(text.as_bytes())
    }

    fn differences(&self, other: &MatchIdentity) -> Vec<String> {
        let mut found = Vec::new();
        let mut compare = |what: &str, here: String, there: String| {
            if here != there {
                found.push(format!("{what} {there} there, {here} now"));
            }
        };
        compare("ruleset", self.spec.clone(), other.spec.clone());
        compare("agents", self.agents.join(" vs "), other.agents.join(" vs "));
        compare("seed", self.seed.to_string(), other.seed.to_string());
        compare("random opening plies", self.opening.to_string(), other.opening.to_string());
        let book =
            |b: &Option<String>| b.as_ref().map_or("no book".to_string(), |h| format!("book {:.12}", h));
        compare("openings", book(&self.book), book(&other.book));
        let sprt = |s: &Option<[f64; 2]>| s.map_or("none".to_string(), |[a, b]| format!("{a},{b}"));
        compare("--sprt", sprt(&self.sprt), sprt(&other.sprt));
        found
    }
}

/// Why a folder cannot take the match.
#[derive(Debug, thiserror::Error)]
pub enum MatchFolderError {
    /// The folder holds another match: a mistake on the command line.
    #[error(
        "{dir} holds another match ({differences}); resume it with its own command, or give another --out"
    )]
    Different { dir: PathBuf, differences: String },
    /// The folder holds games but no `match.json` (written by an older version, or by hand).
    #[error(
        "{dir} holds games.jsonl but no match.json naming its match, so it cannot be resumed; give another --out"
    )]
    Unnamed { dir: PathBuf },
    #[error("{path} line {line}: {problem}; move the file away to start the match again")]
    Damaged { path: PathBuf, line: usize, problem: String },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
}

impl MatchFolderError {
    /// Whether the mistake is in what was asked (exit 2) rather than in the folder's files.
    pub fn is_usage(&self) -> bool {
        matches!(self, MatchFolderError::Different { .. } | MatchFolderError::Unnamed { .. })
    }
}

const IDENTITY: &str = "match.json";
const GAMES: &str = "games.jsonl";
const SUMMARY: &str = "summary.json";

/// An open match folder: the games it held when opened, and `games.jsonl` open for appending.
pub struct MatchFolder {
    dir: PathBuf,
    /// Game number → record, for the games played before this run.
    pub kept: BTreeMap<usize, GameRecord>,
    appending: Mutex<Option<File>>,
    /// The first game that could not be appended, and why (the game is still in memory).
    append_failure: Mutex<Option<String>>,
}

impl MatchFolder {
    /// Opens `dir` for the match `identity`. A new or empty folder starts the match; a folder of the
    /// same match resumes it with the games it holds (a last line cut short by a kill is dropped);
    /// a folder of another match is refused.
    pub fn open(dir: &Path, identity: &MatchIdentity) -> Result<MatchFolder, MatchFolderError> {
        let io = |path: PathBuf| move |source| MatchFolderError::Io { path, source };
        std::fs::create_dir_all(dir).map_err(io(dir.to_path_buf()))?;
        let (identity_path, games_path) = (dir.join(IDENTITY), dir.join(GAMES));
        let kept = match std::fs::read_to_string(&identity_path) {
            Ok(text) => {
                let recorded: MatchIdentity = serde_json::from_str(&text).map_err(|e| {
                    MatchFolderError::Damaged { path: identity_path.clone(), line: 1, problem: e.to_string() }
                })?;
                let differences = identity.differences(&recorded);
                if !differences.is_empty() {
                    return Err(MatchFolderError::Different {
                        dir: dir.to_path_buf(),
                        differences: differences.join("; "),
                    });
                }
                read_kept(&games_path)?
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if games_path.exists() {
                    return Err(MatchFolderError::Unnamed { dir: dir.to_path_buf() });
                }
                let text = serde_json::to_string_pretty(identity).expect("an identity serialises") + "\n";
                crate::files::write_atomic(&identity_path, text.as_bytes()).map_err(io(identity_path))?;
                BTreeMap::new()
            }
            Err(e) => return Err(MatchFolderError::Io { path: identity_path, source: e }),
        };
        // Written again whole, so that a line cut short is gone before the next game is appended.
        let folder = MatchFolder {
            dir: dir.to_path_buf(),
            kept,
            appending: Mutex::new(None),
            append_failure: Mutex::new(None),
        };
        let ordered: Vec<&GameRecord> = folder.kept.values().collect();
        crate::files::write_atomic(&games_path, &lines_of(ordered)).map_err(io(games_path.clone()))?;
        let file = OpenOptions::new().append(true).open(&games_path).map_err(io(games_path))?;
        *folder.appending.lock().unwrap_or_else(|p| p.into_inner()) = Some(file);
        Ok(folder)
    }

    /// Appends a game as it ends. A failure (a full disk) is remembered, not fatal: the game is still
    /// in memory and [`MatchFolder::finish`] writes every game again.
    pub fn append(&self, record: &GameRecord) {
        let mut line = serde_json::to_vec(record).expect("a record serialises");
        line.push(b'\n');
        let mut file = self.appending.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(f) = file.as_mut()
            && let Err(e) = f.write_all(&line).and_then(|()| f.flush())
        {
            let mut failure = self.append_failure.lock().unwrap_or_else(|p| p.into_inner());
            failure.get_or_insert(format!("game {}: {e}", record.game));
        }
    }

    /// The first game that could not be appended as it ended.
    pub fn append_failure(&self) -> Option<String> {
        self.append_failure.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Writes the match's games in order (those of a sequential test past its deciding look left
    /// out) and its summary.
    pub fn finish(&self, records: &[GameRecord], summary: &impl Serialize) -> Result<(), MatchFolderError> {
        let io = |path: PathBuf| move |source| MatchFolderError::Io { path, source };
        *self.appending.lock().unwrap_or_else(|p| p.into_inner()) = None;
        let games_path = self.dir.join(GAMES);
        crate::files::write_atomic(&games_path, &lines_of(records.iter())).map_err(io(games_path))?;
        let summary_path = self.dir.join(SUMMARY);
        let text = serde_json::to_string_pretty(summary).expect("a summary serialises") + "\n";
        crate::files::write_atomic(&summary_path, text.as_bytes()).map_err(io(summary_path))
    }

    pub fn games_path(&self) -> PathBuf {
        self.dir.join(GAMES)
    }

    pub fn summary_path(&self) -> PathBuf {
        self.dir.join(SUMMARY)
    }
}

fn lines_of<'a>(records: impl IntoIterator<Item = &'a GameRecord>) -> Vec<u8> {
    let mut bytes = Vec::new();
    for record in records {
        serde_json::to_writer(&mut bytes, record).expect("a record serialises");
        bytes.push(b'\n');
    }
    bytes
}

/// The games of `path` by number. Only the last line may be cut short (a kill while it was written);
/// any other line that is not a record is damage, named.
fn read_kept(path: &Path) -> Result<BTreeMap<usize, GameRecord>, MatchFolderError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(source) => return Err(MatchFolderError::Io { path: path.to_path_buf(), source }),
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let mut kept = BTreeMap::new();
    for (index, line) in lines.iter().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        match serde_json::from_str::<GameRecord>(line) {
            Ok(record) => {
                kept.insert(record.game, record);
            }
            // The last line, with no newline after it: a write cut short.
            Err(_) if index + 1 == lines.len() => {}
            Err(e) => {
                return Err(MatchFolderError::Damaged {
                    path: path.to_path_buf(),
                    line: index + 1,
                    problem: format!("not a game record: {e}"),
                });
            }
        }
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(seed: u64) -> MatchIdentity {
        MatchIdentity {
            spec: "sixteen-rebels".into(),
            agents: ["random".into(), "mcts:sims=50".into()],
            seed,
            opening: 0,
            book: None,
            sprt: Some([0.0, 20.0]),
        }
    }

    fn record(game: usize) -> GameRecord {
        GameRecord {
            cell: None,
            game,
            spec: "sixteen-rebels".into(),
            seed: game as u64,
            start: String::new(),
            agents: Default::default(),
            moves: vec!["c3c4".into()],
            opening: 0,
            winner: None,
            reason: "cap".into(),
            plies: 1,
            rules_file: None,
            adjudged: None,
        }
    }

    #[test]
    fn a_folder_resumes_its_own_match_drops_a_torn_line_and_refuses_another() {
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("match-folder");
        let folder = MatchFolder::open(&dir, &identity(1)).unwrap();
        assert!(folder.kept.is_empty());
        for game in [2, 0, 1] {
            folder.append(&record(game));
        }
        drop(folder);
        // A kill while game 3 was being written.
        let mut file = OpenOptions::new().append(true).open(dir.join(GAMES)).unwrap();
        file.write_all(br#"{"cell":null,"game":3,"sp"#).unwrap();
        drop(file);
        let folder = MatchFolder::open(&dir, &identity(1)).unwrap();
        assert_eq!(folder.kept.keys().copied().collect::<Vec<_>>(), [0, 1, 2]);
        folder.append(&record(3));
        drop(folder);
        let folder = MatchFolder::open(&dir, &identity(1)).unwrap();
        assert_eq!(folder.kept.len(), 4, "the torn line was dropped before game 3 was appended again");
        drop(folder);

        let other = MatchFolder::open(&dir, &identity(2)).err().unwrap();
        assert!(other.is_usage() && other.to_string().contains("seed 1 there, 2 now"), "{other}");
        // Damage inside the file is named, not skipped.
        let text = std::fs::read_to_string(dir.join(GAMES)).unwrap().replacen("\"game\"", "\"gam", 1);
        std::fs::write(dir.join(GAMES), text).unwrap();
        let damaged = MatchFolder::open(&dir, &identity(1)).err().unwrap();
        assert!(!damaged.is_usage() && damaged.to_string().contains("line 1"), "{damaged}");
    }
}
