//! The training step held to burn's autodiff: every gradient, the losses, the running statistics, and
//! Adam's steps and state.

use burn::module::Module;
use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, GradientsParams};
use burn::prelude::*;
use burn::tensor::activation::{log_softmax, softmax};
use rand::{RngExt, SeedableRng};

use super::*;
use crate::nn::inference::to_vec;
use crate::nn::model::TowerSize;

const LEARNING_RATE: f64 = 2e-3;
const WEIGHT_DECAY: f32 = 1e-4;

/// Sixteen channels take the convolution kernels' fast path where the machine has one; eight take the
/// im2col fallback everywhere.
fn dense(channels: usize) -> NetShape {
    NetShape {
        tower: TowerSize { blocks: 2, channels },
        planes: 3,
        grid: (5, 7),
        actions: 40,
        policy: PolicyHead::Dense,
    }
}

fn per_cell() -> NetShape {
    NetShape {
        tower: TowerSize { blocks: 1, channels: 16 },
        planes: 5,
        grid: (9, 9),
        actions: 81 * 6,
        policy: PolicyHead::PerCell { kinds: 6 },
    }
}

/// Random positions, policy targets spread over a few actions, and one-hot results.
struct Data {
    size: usize,
    input: Vec<f32>,
    policy: Vec<f32>,
    wdl: Vec<f32>,
}

impl Data {
    fn new(shape: &NetShape, size: usize, seed: u64) -> Data {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let per_position = shape.planes * shape.grid.0 * shape.grid.1;
        let input = (0..size * per_position)
            .map(|_| if rng.random_bool(0.3) { 1.0 } else { rng.random::<f32>() * 0.2 })
            .collect();
        let mut policy = vec![0.0; size * shape.actions];
        for row in policy.chunks_exact_mut(shape.actions) {
            for _ in 0..4 {
                row[rng.random_range(0..shape.actions)] += 0.25;
            }
        }
        let mut wdl = vec![0.0; size * 3];
        for row in wdl.chunks_exact_mut(3) {
            row[rng.random_range(0..3)] = 1.0;
        }
        Data { size, input, policy, wdl }
    }

    fn examples(&self) -> Examples<'_> {
        Examples { size: self.size, input: &self.input, policy: &self.policy, wdl: &self.wdl }
    }
}

fn network(shape: &NetShape, seed: u64) -> (PolicyValueNet, Device) {
    let device = Device::flex().autodiff();
    device.seed(seed);
    let net = PolicyValueNet::new(shape, &device).with_random_norm_statistics(&device);
    (net, device)
}

/// burn's losses and gradients, as `train::learner` computes them.
fn burn_gradients(
    net: &PolicyValueNet,
    data: &Data,
    loss: ValueLoss,
    device: &Device,
) -> (f64, f64, GradientsParams) {
    let shape = net.shape();
    let (width, height) = shape.grid;
    let tensor = |values: &[f32], dims: Vec<usize>| {
        Tensor::<2>::from_data(TensorData::new(values.to_vec(), dims), device)
    };
    let input = Tensor::<4>::from_data(
        TensorData::new(data.input.clone(), [data.size, shape.planes, height, width]),
        device,
    );
    let policy_target = tensor(&data.policy, vec![data.size, shape.actions]);
    let wdl_target = tensor(&data.wdl, vec![data.size, 3]);
    let (policy, value) = net.forward(input);
    let policy_loss = (log_softmax(policy, 1) * policy_target).sum_dim(1).mean().neg();
    let value_loss = match loss {
        ValueLoss::Wdl => (log_softmax(value, 1) * wdl_target).sum_dim(1).mean().neg(),
        ValueLoss::Scalar => {
            let score = |wdl: Tensor<2>| wdl.clone().narrow(1, 0, 1) - wdl.narrow(1, 2, 1);
            (score(softmax(value, 1)) - score(wdl_target)).square().mean()
        }
    };
    let gradients = GradientsParams::from_grads((policy_loss.clone() + value_loss.clone()).backward(), net);
    (policy_loss.into_scalar::<f32>() as f64, value_loss.into_scalar::<f32>() as f64, gradients)
}

fn burn_gradient(gradients: &GradientsParams, slot: &Slot) -> Vec<f32> {
    match slot.dims.len() {
        1 => to_vec(gradients.get::<1>(slot.id).expect("a gradient per parameter")),
        2 => to_vec(gradients.get::<2>(slot.id).expect("a gradient per parameter")),
        4 => to_vec(gradients.get::<4>(slot.id).expect("a gradient per parameter")),
        rank => panic!("no rank-{rank} parameters"),
    }
}

/// A copy of burn's gradients (they are consumed by each optimizer step).
fn copy(gradients: &GradientsParams, slots: &[Slot]) -> GradientsParams {
    let mut copy = GradientsParams::new();
    for slot in slots {
        match slot.dims.len() {
            1 => copy.register::<1>(slot.id, gradients.get::<1>(slot.id).expect("a gradient")),
            2 => copy.register::<2>(slot.id, gradients.get::<2>(slot.id).expect("a gradient")),
            _ => copy.register::<4>(slot.id, gradients.get::<4>(slot.id).expect("a gradient")),
        }
    }
    copy
}

/// `max |ours − theirs| ≤ tolerance · max |theirs|`.
fn assert_close(ours: &[f32], theirs: &[f32], tolerance: f32, what: &str) {
    assert_eq!(ours.len(), theirs.len(), "{what}: lengths");
    let scale = theirs.iter().fold(0.0f32, |m, v| m.max(v.abs())).max(1e-12);
    let (worst, index) =
        ours.iter().zip(theirs).enumerate().fold((0.0f32, 0), |(w, i), (j, (a, b))| {
            if (a - b).abs() > w { ((a - b).abs(), j) } else { (w, i) }
        });
    assert!(
        worst <= tolerance * scale,
        "{what}: element {index} ours {} burn {} (max |burn| {scale}, relative error {})",
        ours[index],
        theirs[index],
        worst / scale
    );
}

#[test]
fn every_gradient_matches_burns_autodiff() {
    for (shape, seed) in [(dense(16), 3), (per_cell(), 4), (dense(8), 10)] {
        for loss in [ValueLoss::Wdl, ValueLoss::Scalar] {
            let (net, device) = network(&shape, seed);
            let data = Data::new(&shape, 29, seed);
            let mut ours = TrainNet::new(&net);
            let losses = ours.gradients(data.examples(), loss);
            let (policy_loss, value_loss, gradients) = burn_gradients(&net, &data, loss, &device);
            let what = format!("{:?} head, {loss:?} loss", shape.policy);
            assert!(
                (losses.policy - policy_loss).abs() <= 1e-5 * policy_loss.abs(),
                "{what}: policy loss {} vs {policy_loss}",
                losses.policy
            );
            assert!(
                (losses.value - value_loss).abs() <= 1e-5 * value_loss.abs(),
                "{what}: value loss {} vs {value_loss}",
                losses.value
            );
            for slot in &ours.slots {
                let theirs = burn_gradient(&gradients, slot);
                let mine = slot.arrangement.to_burn(&ours.grads[slot.range()]);
                assert_close(&mine, &theirs, 1e-4, &format!("{what}: gradient of {}", slot.path));
            }
            // The forward pass in training mode moved the running statistics as burn's did.
            let after = params::collect(&net);
            for (i, (mine, theirs)) in ours.running.iter().zip(&after.running).enumerate() {
                assert_close(mine, theirs, 1e-5, &format!("{what}: running statistic {i}"));
            }
        }
    }
}

/// Adam steps from the same gradients give burn's weights, and the state written as burn's optimizer
/// record continues in burn exactly as it does here.
#[test]
fn adam_steps_and_state_match_burns_optimizer() {
    for (shape, seed) in [(dense(16), 5), (per_cell(), 6)] {
        let (net, device) = network(&shape, seed);
        let data = Data::new(&shape, 7, seed);
        let (_, _, gradients) = burn_gradients(&net, &data, ValueLoss::Wdl, &device);
        let mut ours = TrainNet::new(&net);
        let our_gradients: Vec<f32> = {
            let mut flat = vec![0.0; ours.params.len()];
            for slot in &ours.slots {
                flat[slot.range()]
                    .copy_from_slice(&slot.arrangement.to_ours(&burn_gradient(&gradients, slot)));
            }
            flat
        };
        let mut optimizer =
            AdamConfig::new().with_weight_decay(Some(WeightDecayConfig::new(WEIGHT_DECAY))).init();
        let mut theirs = net.clone();
        for step in 1..=2 {
            theirs = optimizer.step(LEARNING_RATE, theirs, copy(&gradients, &ours.slots));
            ours.adam.step(&mut ours.params, &our_gradients, LEARNING_RATE, WEIGHT_DECAY);
            let after = params::collect(&theirs);
            assert_close(
                &ours.params,
                &after.values,
                1e-6,
                &format!("{:?} head: weights after step {step}", shape.policy),
            );
        }
        // Our record loads into burn's optimizer (and back into ours), and the next step agrees.
        let record = ours.optimizer_bytes();
        let mut reloaded = AdamConfig::new()
            .with_weight_decay(Some(WeightDecayConfig::new(WEIGHT_DECAY)))
            .init()
            .from_bytes(burn::tensor::Bytes::from_bytes_vec(record.clone()))
            .expect("burn reads our optimizer record");
        let mut again = TrainNet::new(&ours.write_into(net.clone()));
        again.load_optimizer(&record).expect("we read our own record");
        assert_eq!(again.steps(), 2);
        let theirs =
            reloaded.step(LEARNING_RATE, ours.write_into(net.clone()), copy(&gradients, &ours.slots));
        again.adam.step(&mut again.params, &our_gradients, LEARNING_RATE, WEIGHT_DECAY);
        assert_close(
            &again.params,
            &params::collect(&theirs).values,
            1e-6,
            "the step after reloading the record",
        );
        // And burn's own record reads here.
        let burns = optimizer.into_bytes().expect("burn writes its record").to_vec();
        let mut from_burn = TrainNet::new(&net);
        from_burn.load_optimizer(&burns).expect("we read burn's record");
        assert_eq!(from_burn.steps(), 2);
        let (mine, theirs) = (ours.adam.moments(), from_burn.adam.moments());
        assert_close(mine.0, theirs.0, 1e-6, "first moments read from burn's record");
        assert_close(mine.1, theirs.1, 1e-6, "second moments read from burn's record");
    }
}

#[test]
fn weights_go_back_into_the_burn_network_unchanged() {
    let (net, _) = network(&dense(16), 8);
    let ours = TrainNet::new(&net);
    let written = ours.write_into(net.clone().valid());
    let read = params::collect(&written);
    assert_eq!(read.values, ours.params);
    assert_eq!(read.running, ours.running);
    for (a, b) in read.slots.iter().zip(&ours.slots) {
        assert_eq!((a.id, &a.path), (b.id, &b.path), "ids are kept");
    }
}

#[test]
fn a_step_does_not_depend_on_the_number_of_threads() {
    let shape = dense(16);
    let (net, _) = network(&shape, 9);
    let data = Data::new(&shape, 33, 9);
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
        pool.install(|| {
            let mut ours = TrainNet::new(&net);
            ours.step(data.examples(), ValueLoss::Wdl, LEARNING_RATE, WEIGHT_DECAY);
            ours.step(data.examples(), ValueLoss::Wdl, LEARNING_RATE, WEIGHT_DECAY);
            ours.params
        })
    };
    assert_eq!(run(1), run(3));
}

#[test]
fn chunks_cover_the_batch_in_order() {
    for positions in [1, 2, 7, 8, 9, 256, 1000] {
        let geometry = Geometry::new((5, 7), positions);
        assert!(ops::covers(&geometry), "{positions}");
    }
}
