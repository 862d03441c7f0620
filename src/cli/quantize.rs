//! `rebel-zero quantize`: writes a generation's 8-bit scales (`calibration.json`, calibrated on games
//! the network plays itself) and, with `--check`, measures the 8-bit network against f32 on positions
//! of recorded games (a study's `games.jsonl.gz`): how often the policy's top move agrees, and how far
//! the value moves. `--export` also writes the network and those positions as NumPy arrays, for the
//! ONNX Runtime reference (`scripts/onnx_quantized.py`).

use std::path::PathBuf;

use clap::Args;

use crate::family::Family;
use crate::game::record::GameRecord;
use crate::nn::agreement::{Agreement, CheckArrays, check, export};
use crate::nn::load::{CALIBRATION_GAMES, CALIBRATION_SIMULATIONS, calibration_positions, write_scales};
use crate::nn::{InferenceNet, checkpoint::Checkpoint};

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

fn quantize<G: Family>(
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
    let agreement = check(checkpoint, records, [&full, &eight], args.positions, args.seed, &mut arrays)?;
    // The measurement first: an export that fails loses nothing else.
    if args.json {
        super::common::print_json(&agreement.to_json())?;
    } else {
        print_agreement(&agreement);
    }
    if let (Some(dir), Some(arrays)) = (&args.export, &arrays) {
        export(dir, &full, &calibration, arrays, game.facts().action_count)
            .map_err(|e| anyhow::anyhow!("--export {}: {e}", dir.display()))?;
        eprintln!("{}: the network and {} positions, as NumPy arrays", dir.display(), agreement.positions);
    }
    Ok(())
}

fn print_agreement(agreement: &Agreement) {
    println!("positions                   {}", agreement.positions);
    println!("same top move as f32        {:.2}%", 100.0 * agreement.top_move_share());
    println!("mean |value int8 − f32|     {:.4}", agreement.mean_value_difference());
    println!("largest |value int8 − f32|  {:.4}", agreement.largest_value_difference);
    if agreement.skipped_games > 0 {
        println!("games of other boards       {} (skipped)", agreement.skipped_games);
    }
}
