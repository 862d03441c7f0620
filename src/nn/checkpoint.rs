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

use std::collections::BTreeMap;
use std::fs;
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
    #[error("{path} is damaged: its SHA-256 is {found}, but the checkpoint's meta.json records {recorded}")]
    Damaged { path: PathBuf, found: String, recorded: String },
    #[error("{path} holds a weight that is not a finite number (in `{tensor}`): the file is damaged")]
    NonFinite { path: PathBuf, tensor: String },
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
    /// File name → SHA-256 (hex) of each weight file (model.bpk, optimizer.bpk), checked on load so a
    /// damaged or altered file is refused rather than played. Empty in checkpoints written before.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sha256: BTreeMap<String, String>,
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
            sha256: BTreeMap::new(),
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

    /// The checkpoint at `path`, checked to be a network for `game`.
    pub fn open_for_game<G: NetGame>(path: &Path, game: &G) -> Result<Checkpoint, CheckpointError> {
        let checkpoint = Checkpoint::open(path)?;
        checkpoint.check_game(game)?;
        Ok(checkpoint)
    }

    /// Checks that this checkpoint's network can play `game`.
    pub fn check_game<G: NetGame>(&self, game: &G) -> Result<(), CheckpointError> {
        let wanted = encoder_name(game);
        let shape = game.net_shape(self.meta.shape.tower);
        if self.meta.encoder != wanted || self.meta.shape != shape {
            return Err(CheckpointError::Mismatch {
                path: self.dir.clone(),
                found: format!("a network trained on {}", self.meta.specs.join(", ")),
                wanted: format!("{}, whose board or input planes differ", game.spec()),
            });
        }
        Ok(())
    }

    /// The network's weights, on `device`.
    /// Refuses weights whose file does not match its recorded SHA-256 or that are not finite.
    pub fn load_net(&self, device: &Device) -> Result<PolicyValueNet, CheckpointError> {
        let path = self.dir.join(MODEL_FILE);
        self.read_verified(MODEL_FILE)?;
        let record = ModuleRecord::load(&path).map_err(|e| unreadable(&path, e))?;
        let net = PolicyValueNet::new(&self.meta.shape, device)
            .try_load_record(record)
            .map_err(|e| unreadable(&path, e))?;
        match super::backprop::first_non_finite(&net) {
            Some(tensor) => Err(CheckpointError::NonFinite { path, tensor }),
            None => Ok(net),
        }
    }

    /// The bytes of a file of this generation, checked against the SHA-256 the metadata records.
    pub fn read_verified(&self, name: &str) -> Result<Vec<u8>, CheckpointError> {
        let path = self.dir.join(name);
        let bytes = fs::read(&path).map_err(|e| unreadable(&path, e))?;
        if let Some(recorded) = self.meta.sha256.get(name) {
            let found = crate::files::sha256_hex(&bytes);
            if &found != recorded {
                return Err(CheckpointError::Damaged { path, found, recorded: recorded.clone() });
            }
        }
        Ok(bytes)
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
    Checkpoint::open_for_game(path, game)?.load_net(device)
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
    let mut meta = generation.meta.clone();
    let model = temporary.join(MODEL_FILE);
    generation.net.clone().save_file(&model).map_err(|e| unwritable(&model, e))?;
    let model_bytes = fs::read(&model).map_err(|e| unreadable(&model, e))?;
    meta.sha256.insert(MODEL_FILE.to_string(), crate::files::sha256_hex(&model_bytes));
    let mut files = generation.files;
    if let Some(optimizer) = generation.optimizer {
        meta.sha256.insert(OPTIMIZER_FILE.to_string(), crate::files::sha256_hex(&optimizer));
        files.push((OPTIMIZER_FILE, optimizer));
    }
    let meta_bytes = serde_json::to_vec_pretty(&meta).expect("the metadata serialises");
    files.push((META, meta_bytes));
    for (file, content) in files {
        let path = temporary.join(file);
        fs::write(&path, content).map_err(|e| unwritable(&path, e))?;
    }
    if final_dir.exists() {
        fs::remove_dir_all(&final_dir).map_err(|e| unwritable(&final_dir, e))?;
    }
    fs::rename(&temporary, &final_dir).map_err(|e| unwritable(&final_dir, e))?;
    let latest = run_dir.join(LATEST);
    crate::files::write_atomic(&latest, format!("{name}\n").as_bytes())
        .map_err(|e| unwritable(&latest, e))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::testkit::hunt_game;
    use crate::nn::NetGame;

    /// A b1c8 generation of sixteen-rebels saved under a fresh folder, with `spoil` applied to the net.
    fn saved(spoil: impl FnOnce(PolicyValueNet) -> PolicyValueNet) -> (tempfile::TempDir, Checkpoint) {
        let game = hunt_game("sixteen-rebels");
        let shape = game.net_shape("b1c8".parse().unwrap());
        let net = spoil(PolicyValueNet::new(&shape, &Device::flex()));
        let meta = CheckpointMeta::new(&game, vec!["sixteen-rebels".into()], shape, Counters::default());
        let dir = tempfile::tempdir().unwrap();
        let generation = Generation { meta: &meta, net: &net, optimizer: Some(vec![1, 2, 3]), files: vec![] };
        save_generation(dir.path(), generation, 2).unwrap();
        let checkpoint = Checkpoint::open(dir.path()).unwrap();
        (dir, checkpoint)
    }

    #[test]
    fn weights_load_only_when_their_hash_matches() {
        let (_dir, checkpoint) = saved(|net| net);
        assert_eq!(checkpoint.meta.sha256.len(), 2, "model and optimizer hashed");
        checkpoint.load_net(&Device::flex()).unwrap();
        assert_eq!(checkpoint.read_verified(OPTIMIZER_FILE).unwrap(), [1, 2, 3]);
        let model = checkpoint.file(MODEL_FILE);
        let mut bytes = fs::read(&model).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        fs::write(&model, bytes).unwrap();
        let error = checkpoint.load_net(&Device::flex()).unwrap_err();
        assert!(matches!(error, CheckpointError::Damaged { .. }), "{error}");
        fs::write(checkpoint.file(OPTIMIZER_FILE), [9]).unwrap();
        assert!(
            checkpoint
                .read_verified(OPTIMIZER_FILE)
                .unwrap_err()
                .to_string()
                .contains("optimizer.bpk is damaged")
        );
    }

    #[test]
    fn non_finite_weights_are_refused_by_name() {
        let (_dir, checkpoint) = saved(|mut net| {
            net.stem.norm.gamma = net.stem.norm.gamma.map(|t| t.mul_scalar(f32::NAN));
            net
        });
        let error = checkpoint.load_net(&Device::flex()).unwrap_err().to_string();
        assert!(error.contains("not a finite number") && error.contains("stem.norm.gamma"), "{error}");
    }
}
