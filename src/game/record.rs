//! Game records: the one line of JSON per finished game that matches, studies and `play` write to a
//! `games.jsonl` (plain or gzipped), the one reader of such files, and the one replay of a record onto
//! its game.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::hunt::described;
use super::{AnyGame, Game, Playthrough, SpecError, describe_outcome};

/// One finished game as written to `games.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The study cell the game belongs to (study files only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell: Option<String>,
    /// The game's index in its match.
    pub game: usize,
    pub spec: String,
    /// The game's own seed, derived from the match seed and the index.
    pub seed: u64,
    /// The start position (RULES.md section 7).
    pub start: String,
    /// Side name → agent spec.
    pub agents: BTreeMap<String, String>,
    /// The moves in RULES.md section 7 notation, the opening's included.
    pub moves: Vec<String>,
    /// How many of the first moves were the game's opening rather than the agents' chosen moves:
    /// drawn uniformly by the match (`--opening`) or sampled from the agents' visit counts (`open=`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub opening: u32,
    /// The winning side's name; `None` for a draw.
    pub winner: Option<String>,
    pub reason: String,
    pub plies: u32,
    /// For a ruleset described in a file (a `file:` spec): where the file was read and what it held,
    /// so that the game replays from any folder, and a file changed since is noticed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_file: Option<RulesFile>,
    /// For a game stopped at a ply cap: what a study's judge made of its last positions (the game
    /// itself stays as played: `winner` and `reason` are the cap's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudged: Option<Adjudication>,
}

/// A judge's verdict on a game stopped at a ply cap, in the manner of fishtest's adjudication: a win
/// where the judge's value stayed beyond a margin over the last plies, a draw where it stayed near 0;
/// or, where the judge is the tablebase, the exact value of the last position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Adjudication {
    /// The rule it was judged by (the judge, its fingerprint and the margins): a record judged by
    /// another rule is judged again.
    pub rule: String,
    /// The winning side's name, `draw`, or `unfinished` where neither margin held.
    pub result: String,
    /// The judge's values for the first side (−1…+1) of the positions it searched, in ply order: the
    /// last is the position the cap stopped (the tablebase gives one, ±1 or 0, or none outside it).
    pub values: Vec<f32>,
}

impl Adjudication {
    /// The result given where neither margin held.
    pub const UNDECIDED: &'static str = "unfinished";
    /// The result given where the draw margin held.
    pub const DRAW: &'static str = "draw";

    /// Whether the judge decided the game (a win or a draw).
    pub fn decided(&self) -> bool {
        self.result != Self::UNDECIDED
    }
}

/// The rules file of a `file:` game: its absolute path and the SHA-256 of its content.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesFile {
    pub path: String,
    pub sha256: String,
}

impl RulesFile {
    /// The rules file a `file:` spec names, read now; `None` for other specs (or a file gone).
    pub fn of_spec(spec: &str) -> Option<RulesFile> {
        let path = std::path::absolute(described::spec_path(spec)?).ok()?;
        let bytes = std::fs::read(&path).ok()?;
        Some(RulesFile { path: path.display().to_string(), sha256: crate::files::sha256_hex(&bytes) })
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A games file that cannot be read, or one of its lines that is not a game record.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error(transparent)]
    Unreadable(#[from] std::io::Error),
    #[error("{path} line {line}: not a game record: {problem}")]
    Malformed { path: PathBuf, line: usize, problem: String },
}

/// A record and the line of its file (from 1), for error messages.
#[derive(Clone, Debug)]
pub struct NumberedRecord {
    pub line: usize,
    pub record: GameRecord,
}

/// Every record of a games.jsonl file, plain or gzipped (told by its first bytes); blank lines are
/// skipped, and a line that is not a record is an error naming the file and the line.
pub fn read_records(path: &Path) -> Result<Vec<NumberedRecord>, RecordError> {
    let text = crate::files::read_text(path)?;
    let mut records = Vec::new();
    for (index, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let record = serde_json::from_str(line).map_err(|e| RecordError::Malformed {
            path: path.to_path_buf(),
            line: index + 1,
            problem: e.to_string(),
        })?;
        records.push(NumberedRecord { line: index + 1, record });
    }
    Ok(records)
}

impl GameRecord {
    /// The record of a game as played so far, `unfinished` as its reason while it goes on.
    pub fn of_line<G: Game>(
        line: &Playthrough<G>,
        agents: BTreeMap<String, String>,
        seed: u64,
    ) -> GameRecord {
        let game = line.game();
        let names = game.side_names();
        let outcome = line.outcome();
        GameRecord {
            cell: None,
            game: 0,
            spec: game.spec().to_string(),
            seed,
            start: game.format_position(line.start()),
            agents,
            moves: line.move_texts(),
            opening: 0,
            winner: outcome.and_then(|o| o.winner).map(|s| names[s.index()].to_string()),
            reason: outcome.map_or("unfinished", |o| o.reason.as_str()).to_string(),
            plies: line.plies(),
            rules_file: RulesFile::of_spec(game.spec()),
            adjudged: None,
        }
    }

    /// The ruleset the game was played under. A `file:` spec's file is read where the spec says (from
    /// the current folder), else where the record says it was; either way its content must be what
    /// the game was played under.
    pub fn ruleset(&self) -> Result<AnyGame, SpecError> {
        let (Some(recorded), Some(written)) = (&self.rules_file, described::spec_path(&self.spec)) else {
            return AnyGame::from_spec(&self.spec);
        };
        let needed = |problem: String| SpecError::Description {
            path: recorded.path.clone(),
            problem: format!("{problem}; this game needs the file whose SHA-256 is {}", recorded.sha256),
        };
        let (path, spec) = if written.is_file() {
            (written.display().to_string(), self.spec.clone())
        } else {
            let written = written.display().to_string();
            let options = &self.spec["file:".len() + written.len()..];
            (recorded.path.clone(), format!("file:{}{options}", recorded.path))
        };
        let now = std::fs::read(&path).map_err(|e| needed(format!("cannot read {path}: {e}")))?;
        let sha256 = crate::files::sha256_hex(&now);
        if sha256 != recorded.sha256 {
            return Err(needed(format!(
                "{path} has changed since the game was played (its SHA-256 is now {sha256})"
            )));
        }
        AnyGame::from_spec(&spec)
    }

    /// The record's moves played on `game` from its start. An error says which move fails and why,
    /// or how the replayed result differs from the recorded one.
    pub fn replay<G: Game>(&self, game: &G) -> Result<Playthrough<G>, String> {
        let start = game.parse_position(&self.start).map_err(|e| format!("its start position: {e}"))?;
        let mut line = Playthrough::from_position(game.clone(), start);
        for (ply, text) in self.moves.iter().enumerate() {
            line.play_text(text).map_err(|e| format!("move {} (`{text}`): {e}", ply + 1))?;
        }
        let names = game.side_names();
        let winner = line.outcome().and_then(|o| o.winner).map(|s| names[s.index()].to_string());
        let reason = line.outcome().map(|o| o.reason.as_str());
        if reason.is_some() && (winner != self.winner || reason != Some(self.reason.as_str())) {
            let result = |winner: &Option<String>| {
                winner.as_deref().map_or("a draw".to_string(), |w| format!("a {w} win"))
            };
            return Err(format!(
                "the record says {} by {}, but its moves give {}",
                result(&self.winner),
                self.reason,
                describe_outcome(game, &line.outcome().expect("checked above")),
            ));
        }
        Ok(line)
    }

    /// What the game is a part of: its study cell, else the pairing of its agents by side.
    pub fn group(&self) -> String {
        self.cell.clone().unwrap_or_else(|| {
            let seats: Vec<String> =
                self.agents.iter().map(|(side, agent)| format!("{agent} ({side})")).collect();
            if seats.is_empty() { "(no agents recorded)".to_string() } else { seats.join(" v ") }
        })
    }
}

/// The openings recorded in a games file, as a study's book holds them.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedOpenings {
    /// The group they come from: a study cell, or a match's two agents.
    pub group: String,
    /// Each opening's moves, in the order the games first played it.
    pub lines: Vec<Vec<String>>,
}

/// The openings of the games of `spec` played from `start` (its text, RULES.md section 7): those of
/// the group with the most distinct ones, in game order, each once. A study's cells each play a prefix
/// of their variant's book in order, so the longest gives the book as far as any cell played it.
/// Games of a `file:` spec count when their rules file had the same content, wherever it was read.
/// `None` when no such game opened with moves of its own.
pub fn recorded_openings(records: &[GameRecord], spec: &str, start: &str) -> Option<RecordedOpenings> {
    let rules = RulesFile::of_spec(spec);
    let options = |spec: &str| super::Spec::parse(spec).ok().map(|s| s.options);
    let same_rules = |r: &GameRecord| {
        r.spec == spec
            || rules.as_ref().is_some_and(|file| {
                r.rules_file.as_ref().is_some_and(|f| f.sha256 == file.sha256)
                    && options(&r.spec) == options(spec)
            })
    };
    let mut groups: BTreeMap<String, Vec<&GameRecord>> = BTreeMap::new();
    let opened = |r: &&GameRecord| r.opening > 0 && r.opening as usize <= r.moves.len();
    for record in records.iter().filter(|r| r.start == start && same_rules(r)).filter(opened) {
        groups.entry(opening_group(record)).or_default().push(record);
    }
    let distinct = |games: &mut Vec<&GameRecord>| {
        games.sort_by_key(|r| r.game);
        let mut seen = std::collections::HashSet::new();
        let lines = games.iter().map(|r| r.moves[..r.opening as usize].to_vec());
        lines.filter(|line| seen.insert(line.clone())).collect::<Vec<_>>()
    };
    let mut best: Option<RecordedOpenings> = None;
    for (group, mut games) in groups {
        let lines = distinct(&mut games);
        if best.as_ref().is_none_or(|b| lines.len() > b.lines.len()) {
            best = Some(RecordedOpenings { group, lines });
        }
    }
    best
}

/// The games whose openings are read together: a study cell's, else a match's (its two agents,
/// whichever seat each had).
fn opening_group(record: &GameRecord) -> String {
    record.cell.clone().unwrap_or_else(|| {
        let mut agents: Vec<&str> = record.agents.values().map(String::as_str).collect();
        agents.sort_unstable();
        agents.join(" v ")
    })
}

/// Appends `record` to the games file at `path` (created with its folder when missing), numbered as
/// the file's next game, and returns that number. The line is written whole and synced.
pub fn append_record(path: &Path, record: &GameRecord) -> anyhow::Result<usize> {
    use anyhow::Context;
    use std::io::Write;
    let earlier = if path.exists() { read_records(path)?.len() } else { 0 };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    let mut text = serde_json::to_string(&GameRecord { game: earlier, ..record.clone() })?;
    text.push('\n');
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(earlier)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyGame;

    fn record(moves: &[&str], winner: Option<&str>, reason: &str) -> GameRecord {
        let game = match AnyGame::from_spec("neeley-rebels").unwrap() {
            AnyGame::Hunt(g) => g,
            _ => unreachable!(),
        };
        GameRecord {
            cell: Some("neeley@random".into()),
            game: 0,
            spec: "neeley-rebels".into(),
            seed: 1,
            start: game.format_position(&game.start()),
            agents: [("general".to_string(), "random".to_string())].into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            opening: 0,
            winner: winner.map(str::to_string),
            reason: reason.into(),
            plies: moves.len() as u32,
            rules_file: None,
            adjudged: None,
        }
    }

    #[test]
    fn a_record_replays_and_a_wrong_result_or_move_is_named() {
        let game = AnyGame::from_spec("neeley-rebels").unwrap();
        let AnyGame::Hunt(game) = game else { unreachable!() };
        let line = Playthrough::new(game.clone());
        let first = game.format_move(line.state(), line.legal_moves()[0]);
        let unfinished = record(&[&first], None, "cap");
        assert_eq!(unfinished.replay(&game).unwrap().plies(), 1);
        let bad = record(&["z9-z8"], None, "cap");
        assert!(bad.replay(&game).unwrap_err().starts_with("move 1 (`z9-z8`)"));
        assert_eq!(unfinished.group(), "neeley@random");
    }

    /// The openings come from the group that played the most, in game order, each once; games of
    /// other rules or starts, and games without an opening, are not read.
    #[test]
    fn recorded_openings_read_the_longest_book_in_its_order() {
        let played = |cell: &str, game: usize, moves: &[&str], opening: u32| GameRecord {
            cell: Some(cell.to_string()),
            game,
            opening,
            ..record(moves, None, "cap")
        };
        let (first, second) = (["a1", "b1", "x"], ["a2", "b2", "y"]);
        let mut records = vec![
            played("v@a", 3, &second, 2),
            played("v@a", 0, &first, 2),
            played("v@a", 2, &second, 2),
            played("v@a", 1, &first, 2),
            played("v@b", 0, &first, 2),
            played("v@c", 0, &["c1", "c2"], 0),
            played("v@c", 1, &["d1", "d2"], 0),
            played("v@c", 2, &["e1", "e2"], 0),
        ];
        let start = records[0].start.clone();
        let found = recorded_openings(&records, "neeley-rebels", &start).unwrap();
        assert_eq!(found.group, "v@a");
        assert_eq!(found.lines, [["a1", "b1"], ["a2", "b2"]]);
        records.iter_mut().for_each(|r| r.spec = "murray-rebels".into());
        assert_eq!(recorded_openings(&records, "neeley-rebels", &start), None);
        assert_eq!(recorded_openings(&records, "murray-rebels", "elsewhere"), None);
    }

    /// A match's games are one group whichever seat each agent had; a recorded opening longer than
    /// its game is not read; a rules file is recognised by its content, wherever it was read from.
    #[test]
    fn recorded_openings_read_matches_and_rules_files_as_played() {
        let played = |game: usize, seats: [&str; 2], moves: &[&str], opening: u32| GameRecord {
            cell: None,
            game,
            opening,
            agents: [
                ("general".to_string(), seats[0].to_string()),
                ("rebels".to_string(), seats[1].to_string()),
            ]
            .into(),
            ..record(moves, None, "cap")
        };
        let records = vec![
            played(0, ["a", "b"], &["a1", "x"], 1),
            played(1, ["b", "a"], &["a2", "x"], 1),
            played(2, ["a", "b"], &["a3"], 4),
        ];
        let start = records[0].start.clone();
        let found = recorded_openings(&records, "neeley-rebels", &start).unwrap();
        assert_eq!(found.group, "a v b");
        assert_eq!(found.lines, [["a1"], ["a2"]]);

        let file = "configs/rules/sixteen-rebels.toml";
        let rules_file = RulesFile::of_spec(&format!("file:{file}"));
        assert!(rules_file.is_some(), "the shipped rules file is read");
        let mut described = records.clone();
        for r in &mut described {
            r.spec = format!("file:{file}:first=rebels");
            r.rules_file = rules_file.clone();
        }
        for spec in [format!("file:./{file}:first=rebels"), format!("file:{file}:first=rebels")] {
            assert_eq!(
                recorded_openings(&described, &spec, &start).map(|f| f.lines.len()),
                Some(2),
                "{spec}"
            );
        }
        assert_eq!(recorded_openings(&described, &format!("file:./{file}"), &start), None, "other options");
    }

    #[test]
    fn records_read_back_with_their_cell_and_a_bad_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.jsonl");
        let line = serde_json::to_string(&record(&[], None, "cap")).unwrap();
        assert!(line.starts_with(r#"{"cell":"neeley@random","game":0"#), "{line}");
        std::fs::write(&path, format!("{line}\n\n{line}\n")).unwrap();
        let records = read_records(&path).unwrap();
        assert_eq!(records.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 3]);
        std::fs::write(&path, format!("{line}\nnot json\n")).unwrap();
        let err = read_records(&path).unwrap_err().to_string();
        assert!(err.contains("games.jsonl line 2: not a game record"), "{err}");
    }
}
