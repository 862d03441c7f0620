//! The one way a network is loaded for play: a checkpoint's weights for a game, frozen for inference
//! at the precision asked for. In 8 bits the tower's scales come from the generation's
//! `calibration.json` (written by `rebel-zero quantize`, or by a training run from its replay window);
//! a generation without one is calibrated when loaded, on positions of a few games the network plays
//! itself (in f32, seeded, so the scales are the same every time).

use std::path::Path;

use super::checkpoint::{Checkpoint, CheckpointError};
use super::evaluator::NetEvaluator;
use super::inference::{InferenceNet, Precision};
use super::int8::Scales;
use super::{Encoder, NetGame};
use crate::game::Playthrough;
use crate::search::{Mcts, SearchConfig};

/// The file of a generation that holds its 8-bit scales.
pub const CALIBRATION_FILE: &str = "calibration.json";

/// Games and simulations a network plays to calibrate itself when loaded without a calibration file.
pub const CALIBRATION_GAMES: usize = 8;
pub const CALIBRATION_SIMULATIONS: u32 = 32;

/// The network at `path` (a run folder or a generation) for `game`, at `precision`.
pub fn load_for_inference<G: NetGame>(
    path: &Path,
    game: &G,
    precision: Precision,
) -> Result<InferenceNet, CheckpointError> {
    let checkpoint = Checkpoint::open_for_game(path, game)?;
    let net = InferenceNet::new(&checkpoint.load_net(&burn::prelude::Device::flex())?);
    Ok(match precision {
        Precision::F32 => net,
        Precision::Int8 => {
            let scales = read_scales(&checkpoint).filter(|scales| net.fits(scales)).unwrap_or_else(|| {
                calibrate_by_play(game, &net, CALIBRATION_GAMES, CALIBRATION_SIMULATIONS, 1)
            });
            net.quantized(&scales)
        }
    })
}

/// The scales saved beside a generation's weights, if any (and well formed; whether they fit the
/// network is [`InferenceNet::fits`]).
pub fn read_scales(checkpoint: &Checkpoint) -> Option<Scales> {
    let text = std::fs::read_to_string(checkpoint.file(CALIBRATION_FILE)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Writes a generation's scales.
pub fn write_scales(checkpoint: &Checkpoint, scales: &Scales) -> Result<(), CheckpointError> {
    let path = checkpoint.file(CALIBRATION_FILE);
    let text = serde_json::to_string_pretty(scales).expect("scales serialise") + "\n";
    crate::files::write_atomic(&path, text.as_bytes())
        .map_err(|e| CheckpointError::Unwritable { path: path.clone(), problem: e.to_string() })
}

/// Scales from `games` games the network plays itself in f32 (MCTS at `simulations`, the first
/// moves sampled from the visit counts so that the games differ), every position of them encoded.
pub fn calibrate_by_play<G: NetGame>(
    game: &G,
    net: &InferenceNet,
    games: usize,
    simulations: u32,
    seed: u64,
) -> Scales {
    let calibration = calibration_positions(game, net, games, simulations, seed);
    net.calibrate(&calibration.input, calibration.positions, &calibration.source)
}

/// The positions [`calibrate_by_play`] calibrates on, encoded end to end.
pub struct CalibrationPositions {
    pub input: Vec<f32>,
    pub positions: usize,
    /// Where they come from, in words.
    pub source: String,
}

/// Every position of `games` games the network plays itself; see [`calibrate_by_play`].
pub fn calibration_positions<G: NetGame>(
    game: &G,
    net: &InferenceNet,
    games: usize,
    simulations: u32,
    seed: u64,
) -> CalibrationPositions {
    use rand::SeedableRng;
    let encoder = G::Encoder::for_game(game);
    let mut input = Vec::new();
    let mut positions = 0;
    for g in 0..games {
        let config = SearchConfig { simulations, ..SearchConfig::default() };
        let mut search = Mcts::new(game.clone(), config);
        let mut evaluator = NetEvaluator::new(game, net.clone());
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(crate::seed::derive_seed(seed, g as u64));
        let mut line = Playthrough::new(game.clone());
        while !line.is_over() && line.plies() < 400 {
            let start = input.len();
            input.resize(start + encoder.input_len(), 0.0);
            encoder.encode(game, line.state(), line.plies(), &mut input[start..]);
            positions += 1;
            search.set_position(line.start(), line.moves());
            search.run(&mut evaluator, &mut rng);
            // Temperature 1 for the first 8 plies, then the most visited move.
            let temperature = if line.plies() < 8 { 1.0 } else { 0.0 };
            let Some(choice) = search.output(temperature, &mut rng) else { break };
            line.play(choice.mv);
        }
    }
    let source = format!(
        "{positions} positions of {games} games the network played itself in f32 at {simulations} simulations (seed {seed}), {}",
        game.spec()
    );
    CalibrationPositions { input, positions, source }
}
