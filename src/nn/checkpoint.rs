//! Checkpoints on disk.
//!
//! A run directory holds one folder per saved generation and a `latest` file naming the newest:
//!
//! ```text
//! checkpoints/<run>/latest            "gen-000042"
//! checkpoints/<run>/gen-000042/meta.json      format version, encoder, specs, shape, counters
//! checkpoints/<run>/gen-000042/model.bpk      network weights (burnpack)
//! checkpoints/<run>/gen-000042/optimizer.bpk  Adam state (burnpack)
//! checkpoints/<run>/gen-000042/config.toml    the resolved training config
//! checkpoints/<run>/gen-000042/replay.jsonl.gz  the replay window's games, gzipped (for resuming)
//! ```
//!
//! A generation is written into a temporary folder that is renamed into place when complete, and only
//! then is `latest` replaced (written to a temporary file and renamed). A process killed at any moment
//! leaves `latest` naming a complete generation.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use burn::prelude::*;
use burn::store::ModuleRecord;
use serde::{Deserialize, Serialize};

use super::{Encoder, NetGame, NetShape, PolicyValueNet};

/// Bumped whenever the files of a checkpoint change meaning.
pub const FORMAT_VERSION: u32 = 1;

const LATEST: &str = "latest";
const META: &str = "meta.json";
pub const MODEL_FILE: &str = "model.bpk";
pub const OPTIMIZER_FILE: &str = "optimizer.bpk";

#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error(
        "no checkpoint at {0}: expected a run folder with a `latest` file or a generation folder with meta.json"
    )]
    Missing(PathBuf),
    #[error("cannot read {path}: {problem}")]
    Unreadable { path: PathBuf, problem: String },
    #[error("cannot write {path}: {problem}")]
    Unwritable { path: PathBuf, problem: String },
    #[error("{path} has checkpoint format {found}; this build reads format {FORMAT_VERSION}")]
    Format { path: PathBuf, found: u32 },
    #[error("the checkpoint at {path} is for {found}, not {wanted}")]
    Mismatch { path: PathBuf, found: String, wanted: String },
}

/// Training progress, saved with each generation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counters {
    pub generation: u64,
    pub games: u64,
    pub positions: u64,
    pub steps: u64,
    /// Wall-clock seconds of training so far, over all sessions.
    pub seconds: f64,
}

/// What a checkpoint holds, beside the weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckpointMeta {
    pub format: u32,
    /// The crate version that wrote it.
    pub written_by: String,
    /// The input layout (`HuntEncoder { board: Chinese }`): two games share a network exactly when
    /// their encoders are equal.
    pub encoder: String,
    /// The ruleset specs the network was trained on.
    pub specs: Vec<String>,
    pub shape: NetShape,
    pub counters: Counters,
}

impl CheckpointMeta {
    pub fn new<G: NetGame>(
        game: &G,
        specs: Vec<String>,
        shape: NetShape,
        counters: Counters,
    ) -> CheckpointMeta {
        CheckpointMeta {
            format: FORMAT_VERSION,
            written_by: format!("rebel-zero {}", env!("CARGO_PKG_VERSION")),
            encoder: encoder_name(game),
            specs,
            shape,
            counters,
        }
    }
}

/// The identity of a game's input layout, as recorded in checkpoints.
pub fn encoder_name<G: NetGame>(game: &G) -> String {
    format!("{:?}", G::Encoder::for_game(game))
}

/// A complete saved generation.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The generation folder.
    pub dir: PathBuf,
    pub meta: CheckpointMeta,
}

fn unreadable(path: &Path, problem: impl ToString) -> CheckpointError {
    CheckpointError::Unreadable { path: path.to_path_buf(), problem: problem.to_string() }
}

fn unwritable(path: &Path, problem: impl ToString) -> CheckpointError {
    CheckpointError::Unwritable { path: path.to_path_buf(), problem: problem.to_string() }
}

impl Checkpoint {
    /// Finds the checkpoint at `path`: a run folder (its `latest` generation) or a generation folder.
    pub fn open(path: &Path) -> Result<Checkpoint, CheckpointError> {
        let dir = if path.join(META).is_file() {
            path.to_path_buf()
        } else if path.join(LATEST).is_file() {
            let latest = path.join(LATEST);
            let name = fs::read_to_string(&latest).map_err(|e| unreadable(&latest, e))?;
            let dir = path.join(name.trim());
            if !dir.join(META).is_file() {
                return Err(unreadable(
                    &latest,
                    format!("it names `{}`, which is not a saved generation", name.trim()),
                ));
            }
            dir
        } else {
            return Err(CheckpointError::Missing(path.to_path_buf()));
        };
        let meta_path = dir.join(META);
        let text = fs::read_to_string(&meta_path).map_err(|e| unreadable(&meta_path, e))?;
        let meta: CheckpointMeta = serde_json::from_str(&text).map_err(|e| unreadable(&meta_path, e))?;
        if meta.format != FORMAT_VERSION {
            return Err(CheckpointError::Format { path: meta_path, found: meta.format });
        }
        Ok(Checkpoint { dir, meta })
    }

    /// Checks that this checkpoint's network can play `game`.
    pub fn check_game<G: NetGame>(&self, game: &G) -> Result<(), CheckpointError> {
        let wanted = encoder_name(game);
        let shape = game.net_shape(self.meta.shape.tower);
        if self.meta.encoder != wanted || self.meta.shape != shape {
            return Err(CheckpointError::Mismatch {
                path: self.dir.clone(),
                found: format!("{} (trained on {})", self.meta.encoder, self.meta.specs.join(", ")),
                wanted: format!("{wanted} ({})", game.spec()),
            });
        }
        Ok(())
    }

    /// The network's weights, on `device`.
    pub fn load_net(&self, device: &Device) -> Result<PolicyValueNet, CheckpointError> {
        let path = self.dir.join(MODEL_FILE);
        let record = ModuleRecord::load(&path).map_err(|e| unreadable(&path, e))?;
        PolicyValueNet::new(&self.meta.shape, device)
            .try_load_record(record)
            .map_err(|e| unreadable(&path, e))
    }

    /// A file of this generation beside the weights.
    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

/// Loads the network at `path` for playing `game` (inference weights).
pub fn load_for_game<G: NetGame>(
    path: &Path,
    game: &G,
    device: &Device,
) -> Result<PolicyValueNet, CheckpointError> {
    let checkpoint = Checkpoint::open(path)?;
    checkpoint.check_game(game)?;
    checkpoint.load_net(device)
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CheckpointError> {
    let temporary = path.with_extension("tmp");
    let write = || -> std::io::Result<()> {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temporary, path)
    };
    write().map_err(|e| unwritable(path, e))
}

/// One generation's content, written by [`save_generation`].
pub struct Generation<'a> {
    pub meta: &'a CheckpointMeta,
    pub net: &'a PolicyValueNet,
    /// The optimizer state as burnpack bytes.
    pub optimizer: Option<Vec<u8>>,
    /// Further files: `(name, content)`.
    pub files: Vec<(&'static str, Vec<u8>)>,
}

/// Saves a generation under `run_dir`, points `latest` at it, and deletes all but the `keep` newest
/// generations. Returns the generation's folder.
pub fn save_generation(
    run_dir: &Path,
    generation: Generation<'_>,
    keep: usize,
) -> Result<PathBuf, CheckpointError> {
    let name = format!("gen-{:06}", generation.meta.counters.generation);
    let final_dir = run_dir.join(&name);
    let temporary = run_dir.join(format!(".{name}.partial"));
    if temporary.exists() {
        fs::remove_dir_all(&temporary).map_err(|e| unwritable(&temporary, e))?;
    }
    fs::create_dir_all(&temporary).map_err(|e| unwritable(&temporary, e))?;
    let meta = serde_json::to_vec_pretty(generation.meta).expect("the metadata serialises");
    fs::write(temporary.join(META), meta).map_err(|e| unwritable(&temporary.join(META), e))?;
    let model = temporary.join(MODEL_FILE);
    generation.net.clone().save_file(&model).map_err(|e| unwritable(&model, e))?;
    if let Some(optimizer) = generation.optimizer {
        let path = temporary.join(OPTIMIZER_FILE);
        fs::write(&path, optimizer).map_err(|e| unwritable(&path, e))?;
    }
    for (file, content) in generation.files {
        let path = temporary.join(file);
        fs::write(&path, content).map_err(|e| unwritable(&path, e))?;
    }
    if final_dir.exists() {
        fs::remove_dir_all(&final_dir).map_err(|e| unwritable(&final_dir, e))?;
    }
    fs::rename(&temporary, &final_dir).map_err(|e| unwritable(&final_dir, e))?;
    write_atomically(&run_dir.join(LATEST), format!("{name}\n").as_bytes())?;
    prune(run_dir, keep);
    Ok(final_dir)
}

/// Deletes all but the `keep` newest generation folders (and any partial ones). Best effort: a folder
/// that cannot be deleted costs only disk space.
fn prune(run_dir: &Path, keep: usize) {
    let Ok(entries) = fs::read_dir(run_dir) else { return };
    let mut generations = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("gen-") {
            generations.push(name);
        }
    }
    generations.sort();
    let excess = generations.len().saturating_sub(keep.max(1));
    for name in &generations[..excess] {
        let _ = fs::remove_dir_all(run_dir.join(name));
    }
}
