//! `rebel-zero bench-net`: network inference speed (positions/s and GFLOP/s) per batch size, for the
//! shape of a ruleset's network: burn's forward pass (flex CPU backend) and the inference forward pass
//! the search uses ([`InferenceNet`]) in f32 and in 8 bits (the tower on VNNI, calibrated on the
//! measured batch; f32 where the CPU lacks VNNI), on the same weights and inputs. All use the global
//! rayon pool (`RAYON_NUM_THREADS=1` measures one core, as a self-play worker runs).

use std::time::{Duration, Instant};

use burn::prelude::*;
use clap::Args;

use crate::family::Family;
use crate::nn::{
    Inference, InferenceNet, NetShape, PolicyHead, PolicyValueNet, TowerSize, checkpoint::Checkpoint,
};

#[derive(Args, Debug)]
pub struct BenchNetArgs {
    /// The ruleset whose input planes and action space fix the shape.
    #[arg(default_value = "sixteen-rebels")]
    pub spec: String,
    /// The tower size, or `--checkpoint` to take it from a saved network.
    #[arg(long, default_value = "b4c32")]
    pub size: TowerSize,
    /// A checkpoint whose shape (and weights) to measure instead.
    #[arg(long)]
    pub checkpoint: Option<std::path::PathBuf>,
    /// Batch sizes to measure.
    #[arg(long, value_delimiter = ',', default_value = "1,8,64", value_parser = super::common::bench_batch)]
    pub batches: Vec<usize>,
    /// Seconds per batch size.
    #[arg(long, default_value_t = 3.0, value_parser = super::common::measure_seconds)]
    pub seconds: f64,
    /// Print the measurements as one JSON object (`{"rows": [...]}`) instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &BenchNetArgs) -> anyhow::Result<()> {
    let game = super::common::load_game(&args.spec)?;
    crate::with_game!(&game, |g| bench(g, args))
}

fn bench<G: Family>(game: &G, args: &BenchNetArgs) -> anyhow::Result<()> {
    let device = Device::flex();
    let (shape, net): (NetShape, PolicyValueNet) = match &args.checkpoint {
        Some(path) => {
            let checkpoint = Checkpoint::open(path)?;
            checkpoint.check_game(game)?;
            (checkpoint.meta.shape, checkpoint.load_net(&device)?)
        }
        None => {
            let shape = game.net_shape(args.size);
            (shape, PolicyValueNet::new(&shape, &device))
        }
    };
    let (width, height) = shape.grid;
    let per_position = shape.planes * width * height;
    let flops = 2.0 * shape.multiply_adds() as f64;
    let fast = InferenceNet::new(&net);
    let network = describe(&shape, &args.spec, flops, "per position");
    let eight = crate::nn::int8::available();
    if !args.json {
        println!("network {network}; 8-bit kernels: {}", if eight { "VNNI" } else { "absent (f32)" });
        println!(
            "{:>6} {:>25} {:>25} {:>25} {:>8}",
            "batch", "burn flex forward", "inference f32", "inference int8", "int8/f32"
        );
        println!(
            "{:>6} {:>14} {:>10} {:>14} {:>10} {:>14} {:>10}",
            "", "positions/s", "GFLOP/s", "positions/s", "GFLOP/s", "positions/s", "GFLOP/s"
        );
    }
    let mut rows = Vec::new();
    let budget = Duration::from_secs_f64(args.seconds);
    for &batch in &args.batches {
        anyhow::ensure!(batch >= 1, "batch sizes must be ≥ 1");
        let input: Vec<f32> = (0..batch * per_position).map(|i| (i % 3) as f32 * 0.5).collect();
        let dims = [batch, shape.planes, height, width];
        let burn_rate = positions_per_second(batch, budget, || {
            let tensor = Tensor::<4>::from_data(TensorData::new(input.clone(), dims), &device);
            let (policy, value) = net.forward(tensor);
            let wdl = burn::tensor::activation::softmax(value, 1);
            (policy.into_data(), wdl.into_data())
        });
        let mut output = Inference::default();
        let fast_rate = positions_per_second(batch, budget, || fast.infer(&input, batch, &mut output));
        let quantized = fast.quantized(&fast.calibrate(&input, batch, "the measured batch"));
        let int8_rate = positions_per_second(batch, budget, || quantized.infer(&input, batch, &mut output));
        rows.push(serde_json::json!({
            "batch": batch,
            "burn_positions_per_second": burn_rate,
            "burn_gflops": burn_rate * flops / 1e9,
            "inference_positions_per_second": fast_rate,
            "inference_gflops": fast_rate * flops / 1e9,
            "int8_positions_per_second": int8_rate,
            "int8_vnni": eight,
        }));
        if args.json {
            continue;
        }
        println!(
            "{batch:>6} {burn_rate:>14.0} {:>10.2} {fast_rate:>14.0} {:>10.2} {int8_rate:>14.0} {:>10.2} {:>8.2}",
            burn_rate * flops / 1e9,
            fast_rate * flops / 1e9,
            int8_rate * flops / 1e9,
            int8_rate / fast_rate
        );
    }
    if args.json {
        super::common::print_json(&serde_json::json!({ "network": network, "rows": rows }))?;
    }
    Ok(())
}

/// The line that names a network's shape for the reference scripts to read: planes, grid, actions,
/// MFLOP per position (or per sample) and the policy head.
pub(super) fn describe(shape: &NetShape, spec: &str, flops: f64, per: &str) -> String {
    let head = match shape.policy {
        PolicyHead::Dense => "dense policy head".to_string(),
        PolicyHead::PerCell { kinds } => format!("per-cell policy head of {kinds} kinds"),
    };
    let (width, height) = shape.grid;
    format!(
        "{} for {spec}: {} planes on {width}×{height}, {} actions, {:.2} MFLOP {per}, {head}",
        shape.tower,
        shape.planes,
        shape.actions,
        flops / 1e6
    )
}

/// Runs `run` (one batch of `batch` positions) once to warm up, then for `budget`.
fn positions_per_second<T>(batch: usize, budget: Duration, mut run: impl FnMut() -> T) -> f64 {
    run();
    let started = Instant::now();
    let mut positions = 0usize;
    while started.elapsed() < budget {
        std::hint::black_box(run());
        positions += batch;
    }
    positions as f64 / started.elapsed().as_secs_f64()
}
