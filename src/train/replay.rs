//! The replay buffer: the positions of the most recent self-play games, a window counted in games, and
//! the batches the learner draws from it.
//!
//! Each game is kept twice: encoded (for sampling) and as text (moves in RULES.md notation plus the
//! search targets), which is what a checkpoint saves. Resuming re-plays the saved games to encode them
//! again, so a checkpoint stays small: the text, gzipped, is a few hundred bytes per game, small enough
//! that a shipped network keeps its window and resumes as it left off.

use std::collections::VecDeque;
use std::io::Write;
use std::path::Path;

use flate2::Compression;
use flate2::write::GzEncoder;

use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::family::Family;
use crate::game::{ActionIndex, Playthrough, Side};
use crate::nn::{Encoder, mirror_planes};

/// One training sample: the encoded position, the search's move distribution (sparse, over the
/// action space) and the game's result for the player to move (win, draw, loss).
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    pub planes: Box<[f32]>,
    pub policy: Vec<(ActionIndex, f32)>,
    pub wdl: [f32; 3],
}

impl Position {
    /// The training sample of `line`'s current position: its planes and the two targets.
    pub fn encode<G: Family>(
        encoder: &G::Encoder,
        game: &G,
        line: &Playthrough<G>,
        policy: Vec<(ActionIndex, f32)>,
        wdl: [f32; 3],
    ) -> Position {
        let mut planes = vec![0.0; encoder.input_len()].into_boxed_slice();
        encoder.encode(game, line.state(), line.plies(), &mut planes);
        Position { planes, policy, wdl }
    }
}

/// The policy target of one recorded ply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Target {
    pub ply: u32,
    pub policy: Vec<(ActionIndex, f32)>,
}

/// A finished self-play game as saved: enough to re-encode its samples.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Index into the run's specs (saved as `spec`).
    #[serde(rename = "spec")]
    pub spec_index: usize,
    pub moves: Vec<String>,
    pub targets: Vec<Target>,
    /// The winning side's index; `None` for a draw.
    pub winner: Option<u8>,
    pub reason: String,
}

/// The `[win, draw, loss]` target of a position whose player to move is `mover`.
pub fn wdl_target(winner: Option<Side>, mover: Side) -> [f32; 3] {
    match winner {
        None => [0.0, 1.0, 0.0],
        Some(winner) if winner == mover => [1.0, 0.0, 0.0],
        Some(_) => [0.0, 0.0, 1.0],
    }
}

/// The saved games of a file of them (one JSON object per line, plain or gzipped: a replay window, or
/// a batch from `rebel-zero selfplay`), each re-played on its spec among `games` and encoded.
pub fn read_saved_games<G: Family>(
    path: &Path,
    games: &[G],
) -> Result<Vec<(SavedGame, Vec<Position>)>, String> {
    let text = crate::files::read_text(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut read = Vec::new();
    for (number, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let bad = |e: String| format!("{} line {}: {e}", path.display(), number + 1);
        let saved: SavedGame = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
        let game =
            games.get(saved.spec_index).ok_or_else(|| bad(format!("no spec number {}", saved.spec_index)))?;
        let positions = encode_saved(game, &saved).map_err(bad)?;
        read.push((saved, positions));
    }
    Ok(read)
}

/// Re-plays a saved game on `game` and encodes its recorded positions.
pub fn encode_saved<G: Family>(game: &G, saved: &SavedGame) -> Result<Vec<Position>, String> {
    let encoder = G::Encoder::for_game(game);
    let mut line = Playthrough::new(game.clone());
    let mut positions = Vec::with_capacity(saved.targets.len());
    let mut targets = saved.targets.iter().peekable();
    let winner = match saved.winner {
        None => None,
        Some(index @ 0..=1) => Some(Side::from_index(index as usize)),
        Some(index) => return Err(format!("winner {index} is not a side (0 or 1)")),
    };
    let actions = game.facts().action_count;
    if saved
        .targets
        .iter()
        .flat_map(|t| &t.policy)
        .any(|&(a, p)| a.get() >= actions || !(0.0..=1.0).contains(&p))
    {
        return Err("a policy target lies outside the action space or 0..=1".to_string());
    }
    let mut record = |line: &Playthrough<G>, target: &Target| {
        let wdl = wdl_target(winner, game.to_move(line.state()));
        positions.push(Position::encode(&encoder, game, line, target.policy.clone(), wdl));
    };
    for (ply, text) in saved.moves.iter().enumerate() {
        while let Some(target) = targets.next_if(|t| t.ply as usize == ply) {
            record(&line, target);
        }
        line.play_text(text).map_err(|e| format!("move {} ({text}): {e}", ply + 1))?;
    }
    if targets.peek().is_some() {
        return Err("a target lies past the last move".to_string());
    }
    Ok(positions)
}

/// Where a batch goes: `[batch, planes…]` inputs, `[batch, actions]` policy targets and
/// `[batch, 3]` value targets, row-major.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    pub size: usize,
    pub input: Vec<f32>,
    pub policy: Vec<f32>,
    pub wdl: Vec<f32>,
}

/// The left-right mirror of the encoding, when the family has one.
#[derive(Clone, Debug)]
pub struct MirrorMap {
    pub grid: (usize, usize),
    /// The mirror image of each action index.
    pub actions: Vec<ActionIndex>,
}

impl MirrorMap {
    pub fn for_game<G: Family>(game: &G) -> Option<MirrorMap> {
        let count = game.facts().action_count;
        let actions =
            (0..count).map(|a| game.mirror_action_index(ActionIndex::new(a))).collect::<Option<Vec<_>>>()?;
        Some(MirrorMap { grid: G::Encoder::for_game(game).grid(), actions })
    }
}

#[derive(Debug, Default)]
pub struct ReplayBuffer {
    window: usize,
    games: VecDeque<(SavedGame, Vec<Position>)>,
    positions: usize,
}

impl ReplayBuffer {
    pub fn new(window_games: usize) -> ReplayBuffer {
        ReplayBuffer { window: window_games, games: VecDeque::new(), positions: 0 }
    }

    pub fn push(&mut self, saved: SavedGame, positions: Vec<Position>) {
        self.positions += positions.len();
        self.games.push_back((saved, positions));
        while self.games.len() > self.window {
            let (_, old) = self.games.pop_front().expect("over the window");
            self.positions -= old.len();
        }
    }

    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// Each game in the window with its samples, to relabel them (`train::exact`).
    pub fn games_mut(&mut self) -> impl Iterator<Item = (&SavedGame, &mut [Position])> {
        self.games.iter_mut().map(|(saved, positions)| (&*saved, positions.as_mut_slice()))
    }

    pub fn positions(&self) -> usize {
        self.positions
    }

    /// The positions of the newest `games` games.
    pub fn recent_positions(&self, games: usize) -> usize {
        self.games.iter().rev().take(games).map(|(_, p)| p.len()).sum()
    }

    /// The saved games, oldest first, one JSON object per line, gzipped: what a checkpoint saves.
    /// Each game is serialised straight into the compressor, so the plain text is never held whole.
    pub fn to_jsonl_gz(&self) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        for (saved, _) in &self.games {
            serde_json::to_writer(&mut encoder, saved).expect("a saved game serialises to memory");
            encoder.write_all(b"\n").expect("writing to memory does not fail");
        }
        encoder.finish().expect("writing to memory does not fail")
    }

    /// Reads games written by [`ReplayBuffer::to_jsonl_gz`] (or, from older checkpoints, the same
    /// lines uncompressed), re-encoding them on `games` (the run's specs).
    pub fn load_jsonl<G: Family>(&mut self, path: &Path, games: &[G]) -> Result<(), String> {
        for (saved, positions) in read_saved_games(path, games)? {
            self.push(saved, positions);
        }
        Ok(())
    }

    /// Fills `batch` with `size` positions drawn uniformly (with replacement), each mirrored with
    /// probability ½ when `mirror` is given.
    pub fn sample<R: Rng>(
        &self,
        size: usize,
        actions: usize,
        mirror: Option<&MirrorMap>,
        rng: &mut R,
        batch: &mut Batch,
    ) {
        assert!(self.positions > 0, "sampling from an empty buffer");
        let input_len =
            self.games.iter().flat_map(|(_, p)| p.first()).next().expect("a position").planes.len();
        batch.size = size;
        batch.input.clear();
        batch.policy.clear();
        batch.policy.resize(size * actions, 0.0);
        batch.wdl.clear();
        for row in 0..size {
            let position = self.position(rng.random_range(0..self.positions));
            let start = batch.input.len();
            batch.input.extend_from_slice(&position.planes);
            let flip = mirror.filter(|_| rng.random::<bool>());
            let policy = &mut batch.policy[row * actions..(row + 1) * actions];
            for &(action, p) in &position.policy {
                let action = match flip {
                    Some(map) => map.actions[action.get()],
                    None => action,
                };
                policy[action.get()] += p;
            }
            if let Some(map) = flip {
                mirror_planes(map.grid, &mut batch.input[start..start + input_len]);
            }
            batch.wdl.extend_from_slice(&position.wdl);
        }
    }

    /// The `index`-th position over all games, oldest first.
    fn position(&self, mut index: usize) -> &Position {
        for (_, positions) in &self.games {
            if index < positions.len() {
                return &positions[index];
            }
            index -= positions.len();
        }
        panic!("position index past the buffer")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyGame;
    use crate::game::hunt::HuntGame;

    fn sixteen() -> HuntGame {
        match AnyGame::from_spec("sixteen-rebels").unwrap() {
            AnyGame::Hunt(g) => g,
            _ => unreachable!(),
        }
    }

    fn saved(moves: &[&str], winner: Option<u8>) -> SavedGame {
        let targets = (0..moves.len() as u32)
            .map(|ply| Target { ply, policy: vec![(ActionIndex(ply), 1.0)] })
            .collect();
        SavedGame {
            spec_index: 0,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            targets,
            winner,
            reason: "cap".into(),
        }
    }

    /// Checkpoints from before the window was gzipped keep a plain `replay.jsonl`; it must read back
    /// as the gzipped form does.
    #[test]
    fn plain_and_gzipped_windows_read_back_the_same() {
        let game = sixteen();
        let mut buffer = ReplayBuffer::new(10);
        for (moves, winner) in
            [(&["c3-d4xc5xe3", "b5-c5"][..], Some(1)), (&["c3-c4", "a1-b2", "c4-c3"][..], None)]
        {
            let s = saved(moves, winner);
            let positions = encode_saved(&game, &s).unwrap();
            buffer.push(s, positions);
        }
        let temp = tempfile::tempdir().unwrap();
        let dir = temp.path().join("replay");
        std::fs::create_dir_all(&dir).unwrap();
        let gz = dir.join("replay.jsonl.gz");
        std::fs::write(&gz, buffer.to_jsonl_gz()).unwrap();
        let text = crate::files::read_text(&gz).unwrap();
        let plain = dir.join("replay.jsonl");
        std::fs::write(&plain, &text).unwrap();
        for path in [&gz, &plain] {
            let mut back = ReplayBuffer::new(10);
            back.load_jsonl(path, std::slice::from_ref(&game)).unwrap();
            assert_eq!((back.games(), back.positions()), (2, 5), "{}", path.display());
            assert_eq!(back.games, buffer.games, "{}", path.display());
        }
        // A damaged plain window names its file and line.
        std::fs::write(&plain, format!("{text}{{\"spec\": 0, \"moves\": [\"c3-c5\"]}}\n")).unwrap();
        let err = ReplayBuffer::new(10).load_jsonl(&plain, std::slice::from_ref(&game)).unwrap_err();
        assert!(err.contains("replay.jsonl line 3"), "{err}");
    }
}
