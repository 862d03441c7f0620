//! Training across processes and machines: batches of self-play games played from a saved generation
//! (`rebel-zero selfplay`) and written as game files, which a learner elsewhere ingests in place of its
//! own self-play (`rebel-zero train --learner DIR`). scripts/ray/train.py runs both on Ray.
//!
//! A game file holds the replay window's lines (one [`super::replay::SavedGame`] as JSON per line) and is written
//! atomically, so the learner never reads half a file. The learner takes whole files in name order
//! and deletes them only after the generation they trained is saved: a learner killed at any moment
//! takes the same files again when it resumes, and loses no games.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;

use super::config::TrainConfig;
use super::config::check_specs_extend;
use super::family::with_family;
use super::replay::read_saved_games;
use super::selfplay::{FinishedGame, GameJob};
use super::teacher::Teacher;
use super::workers::self_play;
use crate::family::Family;
use crate::nn::Checkpoint;
use crate::seed::derive_seed;

/// A batch of self-play games to play from a saved generation.
pub struct SelfPlayBatch<'a> {
    /// The generation's folder.
    pub checkpoint: &'a Path,
    pub count: usize,
    /// Game `i` is seeded from `seed` and `i`.
    pub seed: u64,
    /// The game file written.
    pub out: &'a Path,
}

/// Plays `batch` with the saved generation (its rollout teacher instead, while the run is in its
/// bootstrap generations) into its game file (see [`distributed`](self)); returns how many games
/// were written.
pub fn play_batch(config: &TrainConfig, batch: &SelfPlayBatch, show_progress: bool) -> anyhow::Result<usize> {
    with_family!(config, |games| play_family_batch(config, &games, batch, show_progress))
}

/// [`play_batch`] for one family.
fn play_family_batch<G: Family>(
    config: &TrainConfig,
    games: &[G],
    batch: &SelfPlayBatch,
    show_progress: bool,
) -> anyhow::Result<usize> {
    let SelfPlayBatch { checkpoint, count, seed, out } = *batch;
    let saved = Checkpoint::open(checkpoint)?;
    saved.check_game(&games[0])?;
    check_specs_extend(&saved, &config.run.specs)?;
    let generation = saved.meta.counters.generation;
    let teacher = Teacher::open(&config.bootstrap, generation, games)?;
    let net = crate::nn::load_for_inference(checkpoint, &games[0], config.selfplay.precision)?;
    let jobs = (0..count)
        .map(|i| GameJob { index: i, spec_index: i % games.len(), seed: derive_seed(seed, i as u64) })
        .collect();
    let played = self_play(config, games, &net, teacher.as_ref(), jobs, show_progress);
    let mut text = String::new();
    for game in &played {
        text += &serde_json::to_string(&game.saved)?;
        text.push('\n');
    }
    crate::files::write_atomic(out, text.as_bytes()).with_context(|| format!("writing {}", out.display()))?;
    Ok(played.len())
}

/// The game files waiting in `dir`: `*.jsonl` not starting with a dot (a file being written), in
/// name order.
fn waiting_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or(".");
            !name.starts_with('.') && name.ends_with(".jsonl")
        })
        .collect();
    files.sort();
    Ok(files)
}

/// Waits until the files waiting in `dir` hold at least `wanted` games, then takes whole files in name
/// order until it has them (perhaps a few more). The files taken are appended to `taken`, for the
/// caller to delete once what they trained is saved.
pub fn take_games<G: Family>(
    dir: &Path,
    wanted: usize,
    games: &[G],
    taken: &mut Vec<PathBuf>,
) -> anyhow::Result<Vec<FinishedGame>> {
    loop {
        let mut finished = Vec::new();
        let mut files = Vec::new();
        for path in waiting_files(dir)? {
            if finished.len() >= wanted {
                break;
            }
            for (saved, positions) in read_saved_games(&path, games).map_err(anyhow::Error::msg)? {
                let plies = saved.moves.len() as u32;
                finished.push(FinishedGame { index: finished.len(), saved, positions, plies });
            }
            files.push(path);
        }
        if finished.len() >= wanted {
            taken.extend(files);
            return Ok(finished);
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}
