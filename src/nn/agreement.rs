//! The 8-bit network measured against f32 on positions of recorded games: how often the policy's top
//! move agrees, and how far the value moves (`rebel-zero quantize --check`); and those positions with
//! both networks' answers written as NumPy arrays, for the ONNX Runtime reference
//! (`scripts/onnx_quantized.py`).

use std::collections::BTreeMap;

use rand::SeedableRng;

use super::evaluator::{encode_leaves, write_evaluations};
use super::export::{Elements, write_network, write_npy};
use super::load::CalibrationPositions;
use super::{Encoder, Inference, InferenceNet, NetGame, checkpoint::Checkpoint};
use crate::game::{AnyGame, Playthrough, record::GameRecord};
use crate::search::{Evaluations, LeafBatch};

/// How the 8-bit network's answers compare with f32's.
#[derive(Default)]
pub struct Agreement {
    pub positions: usize,
    pub same_top_move: usize,
    pub value_difference_sum: f64,
    pub largest_value_difference: f64,
    /// Games of boards other than the network's, left out.
    pub skipped_games: usize,
}

impl Agreement {
    pub fn top_move_share(&self) -> f64 {
        self.same_top_move as f64 / self.positions.max(1) as f64
    }

    pub fn mean_value_difference(&self) -> f64 {
        self.value_difference_sum / self.positions.max(1) as f64
    }

    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "positions": self.positions,
            "top_move_agreement": self.top_move_share(),
            "mean_value_difference": self.mean_value_difference(),
            "largest_value_difference": self.largest_value_difference,
            "games_of_other_boards": self.skipped_games,
        })
    }
}

/// Draws `positions` positions (non-terminal, uniformly over all plies of the games that fit the
/// network, by `seed`) and compares the two networks on them; keeps them in `arrays` where given.
pub fn check(
    checkpoint: &Checkpoint,
    records: &[GameRecord],
    [full, eight]: [&InferenceNet; 2],
    positions: usize,
    seed: u64,
    arrays: &mut Option<CheckArrays>,
) -> anyhow::Result<Agreement> {
    let mut agreement = Agreement::default();
    let mut games: BTreeMap<&str, AnyGame> = BTreeMap::new();
    let mut fitting = Vec::new();
    for (index, record) in records.iter().enumerate() {
        if !games.contains_key(record.spec.as_str()) {
            let game = record
                .ruleset()
                .map_err(|e| anyhow::anyhow!("game {}: its ruleset `{}`: {e}", record.game, record.spec))?;
            games.insert(&record.spec, game);
        }
        let fits = crate::with_game!(&games[record.spec.as_str()], |g| checkpoint.check_game(g).is_ok());
        if fits { fitting.push(index) } else { agreement.skipped_games += 1 }
    }
    // Every ply of every fitting game is a candidate; the draw picks `positions` of them.
    let mut firsts = Vec::with_capacity(fitting.len() + 1);
    let mut total = 0;
    for &index in &fitting {
        firsts.push(total);
        total += records[index].moves.len();
    }
    anyhow::ensure!(total > 0, "the games given to --check hold no position of this network's board");
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let mut drawn = rand::seq::index::sample(&mut rng, total, positions.min(total)).into_vec();
    drawn.sort_unstable();
    let mut plies_by_game: Vec<Vec<usize>> = vec![Vec::new(); fitting.len()];
    for position in drawn {
        let game = firsts.partition_point(|&first| first <= position) - 1;
        plies_by_game[game].push(position - firsts[game]);
    }
    for (slot, plies) in plies_by_game.iter().enumerate() {
        if plies.is_empty() {
            continue;
        }
        let record = &records[fitting[slot]];
        crate::with_game!(&games[record.spec.as_str()], |g| compare(
            g,
            record,
            plies,
            full,
            eight,
            &mut agreement,
            arrays
        ))?;
    }
    Ok(agreement)
}

/// Replays `record` and compares the networks at the positions before the moves numbered `plies`.
fn compare<G: NetGame>(
    game: &G,
    record: &GameRecord,
    plies: &[usize],
    full: &InferenceNet,
    eight: &InferenceNet,
    agreement: &mut Agreement,
    arrays: &mut Option<CheckArrays>,
) -> anyhow::Result<()> {
    let start = game
        .parse_position(&record.start)
        .map_err(|e| anyhow::anyhow!("game {}: its start position: {e}", record.game))?;
    let mut line = Playthrough::from_position(game.clone(), start);
    let mut leaves = LeafBatch::<G>::default();
    for (ply, text) in record.moves.iter().enumerate() {
        if plies.binary_search(&ply).is_ok() && !line.is_over() {
            leaves.push(line.state(), line.plies(), line.legal_moves().iter().copied());
        }
        line.play_text(text)
            .map_err(|e| anyhow::anyhow!("game {}: move {} (`{text}`): {e}", record.game, ply + 1))?;
    }
    if leaves.is_empty() {
        return Ok(());
    }
    let mut input = Vec::new();
    encode_leaves(&G::Encoder::for_game(game), game, &leaves, &mut input);
    let actions = game.facts().action_count;
    let answers = |net: &InferenceNet| {
        let mut raw = Inference::default();
        net.infer(&input, leaves.len(), &mut raw);
        let mut out = Evaluations::default();
        out.prepare(&leaves);
        write_evaluations(game, &leaves, &raw.policy, &raw.wdl, actions, &mut out);
        (out, raw)
    };
    let ((a, raw_full), (b, raw_eight)) = (answers(full), answers(eight));
    if let Some(arrays) = arrays {
        arrays.input.extend_from_slice(&input);
        for leaf in 0..leaves.len() {
            let legal = arrays.legal.len();
            arrays.legal.resize(legal + actions, 0);
            for &mv in leaves.moves(leaf) {
                arrays.legal[legal + game.action_index(leaves.state(leaf), mv).get()] = 1;
            }
        }
        for (kept, raw) in arrays.answers.iter_mut().zip([raw_full, raw_eight]) {
            kept.policy.extend(raw.policy);
            kept.wdl.extend(raw.wdl);
        }
    }
    for leaf in 0..leaves.len() {
        let range = leaves.range(leaf);
        let top = |priors: &[f32]| {
            (0..priors.len()).fold(0, |best, i| if priors[i] > priors[best] { i } else { best })
        };
        agreement.positions += 1;
        agreement.same_top_move += usize::from(top(&a.priors[range.clone()]) == top(&b.priors[range]));
        let difference = f64::from((a.values[leaf] - b.values[leaf]).abs());
        agreement.value_difference_sum += difference;
        agreement.largest_value_difference = agreement.largest_value_difference.max(difference);
    }
    Ok(())
}

/// The checked positions, for `--export`: encoded end to end, their legal actions (1 where legal, per
/// action index), and the raw answers of the f32 network (`answers[0]`) and the 8-bit one.
#[derive(Default)]
pub struct CheckArrays {
    input: Vec<f32>,
    legal: Vec<u8>,
    answers: [Inference; 2],
}

/// Writes `--export`'s folder: `network.json` and the layers ([`write_network`]), `calibration.npy`
/// and `positions.npy` (`[n, planes, height, width]`), `legal.npy` (`[n, actions]`, bytes), and
/// `f32.policy.npy`, `f32.wdl.npy`, `int8.policy.npy`, `int8.wdl.npy` (logits; win/draw/loss).
pub fn export(
    dir: &std::path::Path,
    full: &InferenceNet,
    calibration: &CalibrationPositions,
    arrays: &CheckArrays,
    actions: usize,
) -> std::io::Result<()> {
    let shape = full.shape();
    write_network(dir, &shape, &full.export_layers())?;
    let (width, height) = shape.grid;
    let planes = |n: usize| [n, shape.planes, height, width];
    let n = arrays.legal.len() / actions;
    write_npy(
        &dir.join("calibration.npy"),
        &planes(calibration.positions),
        Elements::F32(&calibration.input),
    )?;
    write_npy(&dir.join("positions.npy"), &planes(n), Elements::F32(&arrays.input))?;
    write_npy(&dir.join("legal.npy"), &[n, actions], Elements::U8(&arrays.legal))?;
    for (precision, answers) in ["f32", "int8"].iter().zip(&arrays.answers) {
        write_npy(
            &dir.join(format!("{precision}.policy.npy")),
            &[n, actions],
            Elements::F32(&answers.policy),
        )?;
        write_npy(&dir.join(format!("{precision}.wdl.npy")), &[n, 3], Elements::F32(&answers.wdl))?;
    }
    Ok(())
}
