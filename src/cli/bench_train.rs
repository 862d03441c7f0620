//! `rebel-zero bench-train`: the learner's speed (samples/s) per batch size, for the shape of a
//! ruleset's network: a full training step (forward in training mode, policy and win/draw/loss losses,
//! backward, Adam with weight decay) on random positions and one-hot targets. Its first two columns are
//! the batch size and samples/s, the figures `scripts/torch_reference.py` compares with PyTorch.

use std::time::{Duration, Instant};

use clap::Args;
use rand::{RngExt, SeedableRng};

use crate::family::Family;
use crate::nn::TowerSize;
use crate::train::config::OptimizerConfig;
use crate::train::learner::Learner;
use crate::train::replay::Batch;

#[derive(Args, Debug)]
pub struct BenchTrainArgs {
    /// The ruleset whose input planes and action space fix the shape.
    #[arg(default_value = "sixteen-rebels")]
    pub spec: String,
    /// The tower size.
    #[arg(long, default_value = "b4c32")]
    pub size: TowerSize,
    /// Batch sizes to measure.
    #[arg(long, value_delimiter = ',', default_value = "256,1024", value_parser = super::common::bench_batch)]
    pub batches: Vec<usize>,
    /// Seconds per batch size.
    #[arg(long, default_value_t = 3.0, value_parser = super::common::measure_seconds)]
    pub seconds: f64,
    /// Print the measurements as one JSON object (`{"rows": [...]}`) instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &BenchTrainArgs) -> anyhow::Result<()> {
    let game = super::common::load_game(&args.spec)?;
    crate::with_game!(&game, |g| bench(g, args))
}

fn bench<G: Family>(game: &G, args: &BenchTrainArgs) -> anyhow::Result<()> {
    let shape = game.net_shape(args.size);
    let (width, height) = shape.grid;
    // Forward, then backward through activations and weights: about three forward passes.
    let flops = 3.0 * 2.0 * shape.multiply_adds() as f64;
    let learner = super::bench_net::describe(&shape, &args.spec, flops, "per sample (forward + backward)");
    if !args.json {
        println!("learner {learner}");
        println!("{:>6} {:>12} {:>10}", "batch", "samples/s", "GFLOP/s");
    }
    let mut rows = Vec::new();
    let budget = Duration::from_secs_f64(args.seconds);
    for &size in &args.batches {
        anyhow::ensure!(size >= 1, "batch sizes must be ≥ 1");
        let batch = random_batch(size, shape.planes * width * height, shape.actions, 1);
        let mut learner = Learner::new(shape, &OptimizerConfig::default(), 1);
        let rate = samples_per_second(size, budget, || learner.step(&batch));
        rows.push(
            serde_json::json!({"batch": size, "samples_per_second": rate, "gflops": rate * flops / 1e9}),
        );
        if !args.json {
            println!("{size:>6} {rate:>12.0} {:>10.2}", rate * flops / 1e9);
        }
    }
    if args.json {
        super::common::print_json(&serde_json::json!({ "learner": learner, "rows": rows }))?;
    }
    Ok(())
}

/// Positions of values in [0, 1) with one-hot policy and win/draw/loss targets.
fn random_batch(size: usize, per_position: usize, actions: usize, seed: u64) -> Batch {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let input = (0..size * per_position).map(|_| rng.random::<f32>()).collect();
    let mut one_hot = |width: usize| {
        let mut rows = vec![0.0; size * width];
        for row in rows.chunks_exact_mut(width) {
            row[rng.random_range(0..width)] = 1.0;
        }
        rows
    };
    let policy = one_hot(actions);
    let wdl = one_hot(3);
    Batch { size, input, policy, wdl }
}

/// Runs `step` once to warm up, then for `budget`.
fn samples_per_second<T>(batch: usize, budget: Duration, mut step: impl FnMut() -> T) -> f64 {
    step();
    let started = Instant::now();
    let mut samples = 0usize;
    while started.elapsed() < budget {
        std::hint::black_box(step());
        samples += batch;
    }
    samples as f64 / started.elapsed().as_secs_f64()
}
