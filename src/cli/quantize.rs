//! `rebel-zero quantize`: writes a generation's 8-bit scales (`calibration.json`, calibrated on games
//! the network plays itself) and, with `--check`, measures the 8-bit network against f32 on positions
//! of recorded games (a study's `games.jsonl.gz`): how often the policy's top move agrees, and how far
//! the value moves. `--export` also writes the network and those positions as NumPy arrays, for the
//! ONNX Runtime reference (`scripts/onnx_quantized.py`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;
use rand::SeedableRng;

use crate::game::{AnyGame, Playthrough, record::GameRecord};
use crate::nn::evaluator::{encode_leaves, write_evaluations};
use crate::nn::export::{Elements, write_network, write_npy};
use crate::nn::load::{
    CALIBRATION_GAMES, CALIBRATION_SIMULATIONS, CalibrationPositions, calibration_positions, write_scales,
};
use crate::nn::{Encoder, Inference, InferenceNet, NetGame, checkpoint::Checkpoint};
use crate::search::{Evaluations, LeafBatch};

#[derive(Args, Debug)]
pub struct QuantizeArgs {
    /// A run folder (its latest generation) or a generation folder.
    pub checkpoint: PathBuf,
    /// Games the network plays itself (in f32) for the calibration positions.
    #[arg(long, default_value_t = CALIBRATION_GAMES)]
    pub games: usize,
    /// Simulations per move of those games.
    #[arg(long, default_value_t = CALIBRATION_SIMULATIONS)]
    pub sims: u32,
    /// Seed of those games and of the positions `--check` draws.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games files whose positions measure 8 bits against f32 (games of other boards are skipped).
    #[arg(long, num_args = 1..)]
    pub check: Vec<PathBuf>,
    /// Positions `--check` draws (uniformly, without repeats) from those games.
    #[arg(long, default_value_t = 10_000)]
    pub positions: usize,
    /// Print the check as one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also write the network (f32, batch norms folded), its calibration positions and the checked
    /// positions with both networks' answers into this folder as NumPy arrays, for the ONNX Runtime
    /// reference `scripts/onnx_quantized.py`.
    #[arg(long, requires = "check")]
    pub export: Option<PathBuf>,
}

pub fn run(args: &QuantizeArgs) -> anyhow::Result<()> {
    if args.games == 0 || args.sims == 0 || args.positions == 0 {
        super::common::usage_bail!("--games, --sims and --positions must be at least 1");
    }
    let dir = crate::files::find_shipped(&args.checkpoint);
    let checkpoint = Checkpoint::open(&dir).map_err(super::common::usage)?;
    let Some(spec) = checkpoint.meta.specs.first() else {
        anyhow::bail!("{}: the checkpoint names no ruleset it was trained on", checkpoint.dir.display());
    };
    let game = super::common::load_game(spec)?;
    let records = read_check_games(&args.check)?;
    crate::with_game!(&game, |g| quantize(g, &checkpoint, &records, args))
}

fn read_check_games(paths: &[PathBuf]) -> anyhow::Result<Vec<GameRecord>> {
    let mut records = Vec::new();
    for path in paths {
        let numbered = crate::game::record::read_records(path).map_err(super::common::usage)?;
        records.extend(numbered.into_iter().map(|n| n.record));
    }
    Ok(records)
}

fn quantize<G: NetGame>(
    game: &G,
    checkpoint: &Checkpoint,
    records: &[GameRecord],
    args: &QuantizeArgs,
) -> anyhow::Result<()> {
    checkpoint.check_game(game)?;
    let full = InferenceNet::new(&checkpoint.load_net(&burn::prelude::Device::flex())?);
    if !crate::nn::int8::available() {
        eprintln!("note: this CPU lacks AVX-512 VNNI, so an 8-bit network runs in f32 here");
    }
    let calibration = calibration_positions(game, &full, args.games, args.sims, args.seed);
    let scales = full.calibrate(&calibration.input, calibration.positions, &calibration.source);
    write_scales(checkpoint, &scales)?;
    eprintln!("{}: {}", checkpoint.file(crate::nn::load::CALIBRATION_FILE).display(), scales.source);
    if records.is_empty() {
        if !args.check.is_empty() {
            super::common::usage_bail!("the games files given to --check hold no games");
        }
        return Ok(());
    }
    let eight = full.quantized(&scales);
    let mut arrays = args.export.as_ref().map(|_| CheckArrays::default());
    let agreement = check(checkpoint, records, &full, &eight, args, &mut arrays)?;
    // The measurement first: an export that fails loses nothing else.
    if args.json {
        super::common::print_json(&agreement.to_json())?;
    } else {
        agreement.print();
    }
    if let (Some(dir), Some(arrays)) = (&args.export, &arrays) {
        export(dir, &full, &calibration, arrays, game.facts().action_count)
            .map_err(|e| anyhow::anyhow!("--export {}: {e}", dir.display()))?;
        eprintln!("{}: the network and {} positions, as NumPy arrays", dir.display(), agreement.positions);
    }
    Ok(())
}

/// How the 8-bit network's answers compare with f32's.
#[derive(Default)]
struct Agreement {
    positions: usize,
    same_top_move: usize,
    value_difference_sum: f64,
    largest_value_difference: f64,
    skipped_games: usize,
}

impl Agreement {
    fn top_move_share(&self) -> f64 {
        self.same_top_move as f64 / self.positions.max(1) as f64
    }

    fn mean_value_difference(&self) -> f64 {
        self.value_difference_sum / self.positions.max(1) as f64
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "positions": self.positions,
            "top_move_agreement": self.top_move_share(),
            "mean_value_difference": self.mean_value_difference(),
            "largest_value_difference": self.largest_value_difference,
            "games_of_other_boards": self.skipped_games,
        })
    }

    fn print(&self) {
        println!("positions                   {}", self.positions);
        println!("same top move as f32        {:.2}%", 100.0 * self.top_move_share());
        println!("mean |value int8 − f32|     {:.4}", self.mean_value_difference());
        println!("largest |value int8 − f32|  {:.4}", self.largest_value_difference);
        if self.skipped_games > 0 {
            println!("games of other boards       {} (skipped)", self.skipped_games);
        }
    }
}

/// Draws `args.positions` positions (non-terminal, uniformly over all plies of the games that fit
/// the network) and compares the two networks on them.
fn check(
    checkpoint: &Checkpoint,
    records: &[GameRecord],
    full: &InferenceNet,
    eight: &InferenceNet,
    args: &QuantizeArgs,
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
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(args.seed);
    let mut drawn = rand::seq::index::sample(&mut rng, total, args.positions.min(total)).into_vec();
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
struct CheckArrays {
    input: Vec<f32>,
    legal: Vec<u8>,
    answers: [Inference; 2],
}

/// Writes `--export`'s folder: `network.json` and the layers ([`write_network`]), `calibration.npy`
/// and `positions.npy` (`[n, planes, height, width]`), `legal.npy` (`[n, actions]`, bytes), and
/// `f32.policy.npy`, `f32.wdl.npy`, `int8.policy.npy`, `int8.wdl.npy` (logits; win/draw/loss).
fn export(
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
