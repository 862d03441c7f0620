//! The network's training step, of our own: the forward pass in training mode (batch norms on the
//! batch's statistics, updating their running ones), the policy and value losses, the backward pass
//! and Adam, over the channels-last im2col + `gemm` layout of the inference forward pass
//! ([`super::inference`]).
//!
//! Why not burn's autodiff: the learner sets the pace of the training loop, and burn flex trains these
//! small towers at a quarter of PyTorch's speed on the same CPU (docs/BENCHMARKS.md). burn still defines
//! the network, initialises it and saves it: [`TrainNet::new`] copies a [`PolicyValueNet`]'s weights,
//! [`TrainNet::write_into`] puts them back, and the Adam state is written as burn's optimizer record.
//! Tests hold every gradient and one Adam step to burn's.
//!
//! Layers are numbered as the activations they make: `0` the stem; block `b` makes `1 + 2b` (after its
//! first convolution) and `2 + 2b` (its output); then the policy convolution and the value convolution,
//! both reading the tower's output.

mod adam;
mod ops;
mod params;

pub use params::{Collected, collect as collect_parameters, first_non_finite};

use std::ops::Range;

use self::adam::Adam;
use self::ops::{Conv, Geometry, InputGradient, Linear, NormBackward, Partial, Source};
use self::params::Slot;
use super::conv;
use super::model::{NetShape, PolicyHead, PolicyValueNet};

/// What the value head learns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ValueLoss {
    /// The cross-entropy of the win/draw/loss probabilities.
    #[default]
    Wdl,
    /// The squared error of win minus loss against the result (AlphaZero).
    Scalar,
}

/// The losses of one step, averaged over its batch.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepLosses {
    pub policy: f64,
    pub value: f64,
    /// The share of positions whose most likely predicted result is the game's result.
    pub value_accuracy: f64,
}

/// One batch: encoded positions (each `[planes, height, width]`), policy targets and win/draw/loss
/// targets for the player to move.
#[derive(Clone, Copy, Debug)]
pub struct Examples<'a> {
    pub size: usize,
    pub input: &'a [f32],
    pub policy: &'a [f32],
    pub wdl: &'a [f32],
}

/// A convolution and the batch norm after it.
#[derive(Clone, Debug)]
struct ConvLayer {
    kernel: usize,
    inputs: usize,
    outputs: usize,
    weights: Range<usize>,
    gamma: Range<usize>,
    beta: Range<usize>,
    /// Its running mean's index in [`TrainNet::running`]; the variance follows.
    running: usize,
}

/// A fully connected layer (per row; see [`ops::Linear`]).
#[derive(Clone, Debug)]
struct LinearLayer {
    rows_per_position: usize,
    inputs: usize,
    outputs: usize,
    weights: Range<usize>,
    bias: Range<usize>,
}

/// A network ready to train: its parameters in our layout, their gradients and Adam state, the
/// running statistics, and the buffers of one step (kept between steps).
pub struct TrainNet {
    shape: NetShape,
    slots: Vec<Slot>,
    params: Vec<f32>,
    grads: Vec<f32>,
    adam: Adam,
    running: Vec<Vec<f32>>,
    epsilon: f32,
    momentum: f32,
    convs: Vec<ConvLayer>,
    policy: LinearLayer,
    value_hidden: LinearLayer,
    value_out: LinearLayer,
    work: Workspace,
}

/// The activations and gradients of one step.
#[derive(Default)]
struct Workspace {
    /// Per convolution: its output before the norm, and after norm, skip and ReLU.
    z: Vec<Vec<f32>>,
    act: Vec<Vec<f32>>,
    /// Per convolution: the gradient of its norm's output (after the ReLU's mask).
    dy: Vec<Vec<f32>>,
    mean: Vec<Vec<f32>>,
    inv_std: Vec<Vec<f32>>,
    /// Policy logits, then their gradient.
    logits: Vec<f32>,
    /// The value head's hidden layer after its ReLU, and its gradient.
    hidden: Vec<f32>,
    hidden_gradient: Vec<f32>,
    /// Win/draw/loss logits, then their gradient.
    value: Vec<f32>,
    partials: Vec<Partial>,
}

impl TrainNet {
    /// Copies `net`'s weights and running statistics, with a fresh Adam state.
    pub fn new(net: &PolicyValueNet) -> TrainNet {
        let shape = net.shape();
        let collected = params::collect(net);
        let slot = |path: &str| {
            collected
                .slots
                .iter()
                .find(|s| s.path == path)
                .unwrap_or_else(|| panic!("the network has {path}"))
                .range()
        };
        let mut running = 0;
        let mut conv = |prefix: &str, kernel: usize, inputs: usize, outputs: usize| {
            running += 2;
            ConvLayer {
                kernel,
                inputs,
                outputs,
                weights: slot(&format!("{prefix}.conv.weight")),
                gamma: slot(&format!("{prefix}.norm.gamma")),
                beta: slot(&format!("{prefix}.norm.beta")),
                running: running - 2,
            }
        };
        let (c, cells) = (shape.tower.channels, shape.grid.0 * shape.grid.1);
        let mut convs = vec![conv("stem", 3, shape.planes, c)];
        for b in 0..shape.tower.blocks {
            convs.push(conv(&format!("tower.{b}.first"), 3, c, c));
            convs.push(conv(&format!("tower.{b}.second"), 3, c, c));
        }
        let linear = |prefix: &str, rows_per_position: usize, inputs: usize, outputs: usize| LinearLayer {
            rows_per_position,
            inputs,
            outputs,
            weights: slot(&format!("{prefix}.weight")),
            bias: slot(&format!("{prefix}.bias")),
        };
        let policy = match shape.policy {
            PolicyHead::Dense => {
                let channels = net.policy_conv.norm.gamma.dims()[0];
                convs.push(conv("policy_conv", 1, c, channels));
                linear("policy_out", 1, channels * cells, shape.actions)
            }
            PolicyHead::PerCell { kinds } => {
                convs.push(conv("policy_conv", 3, c, c));
                linear("policy_cells", cells, c, kinds)
            }
        };
        convs.push(conv("value_conv", 1, c, 1));
        let hidden = net.value_hidden.weight.dims()[1];
        let value_hidden = linear("value_hidden", 1, cells, hidden);
        let value_out = linear("value_out", 1, hidden, 3);
        let parameters = collected.values.len();
        TrainNet {
            shape,
            slots: collected.slots,
            grads: vec![0.0; parameters],
            params: collected.values,
            adam: Adam::new(parameters),
            running: collected.running,
            epsilon: net.stem.norm.epsilon as f32,
            momentum: net.stem.norm.momentum as f32,
            convs,
            policy,
            value_hidden,
            value_out,
            work: Workspace::default(),
        }
    }

    pub fn shape(&self) -> NetShape {
        self.shape
    }

    /// Steps taken by the optimizer.
    pub fn steps(&self) -> u64 {
        self.adam.time()
    }

    /// `net` (the network this was made from, or one of its shape) with this one's weights and running
    /// statistics.
    pub fn write_into(&self, net: PolicyValueNet) -> PolicyValueNet {
        params::write_back(net, &self.slots, &self.params, &self.running)
    }

    /// The Adam state as burn's optimizer record.
    pub fn optimizer_bytes(&self) -> Vec<u8> {
        self.adam.to_record(&self.slots)
    }

    /// Takes the Adam state from burn's optimizer record.
    pub fn load_optimizer(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.adam = Adam::from_record(bytes, &self.slots)?;
        Ok(())
    }

    /// One training step: forward, losses, backward, Adam.
    pub fn step(
        &mut self,
        examples: Examples,
        loss: ValueLoss,
        learning_rate: f64,
        weight_decay: f32,
    ) -> StepLosses {
        let losses = self.gradients(examples, loss);
        self.adam.step(&mut self.params, &self.grads, learning_rate, weight_decay);
        losses
    }

    /// Forward, losses and backward: fills the gradients, updates the running statistics, and returns
    /// the losses.
    fn gradients(&mut self, examples: Examples, loss: ValueLoss) -> StepLosses {
        let (planes, (width, height)) = (self.shape.planes, self.shape.grid);
        assert_eq!(
            examples.input.len(),
            examples.size * planes * width * height,
            "the input holds the batch"
        );
        assert_eq!(examples.policy.len(), examples.size * self.shape.actions, "a policy target per position");
        assert_eq!(examples.wdl.len(), examples.size * 3, "a result per position");
        let geometry = Geometry::new(self.shape.grid, examples.size);
        self.prepare(&geometry);
        self.forward(&geometry, examples.input);
        let policy = ops::policy_loss(&geometry, self.shape.actions, &mut self.work.logits, examples.policy);
        let (value, value_accuracy) = value_loss(&mut self.work.value, examples.wdl, loss);
        self.backward(&geometry, examples.input);
        StepLosses { policy, value, value_accuracy }
    }

    fn prepare(&mut self, geometry: &Geometry) {
        let rows = geometry.rows();
        let work = &mut self.work;
        let layers = self.convs.len();
        for buffers in [&mut work.z, &mut work.act, &mut work.dy, &mut work.mean, &mut work.inv_std] {
            buffers.resize_with(layers, Vec::new);
        }
        for (l, conv) in self.convs.iter().enumerate() {
            for buffer in [&mut work.z[l], &mut work.act[l], &mut work.dy[l]] {
                buffer.resize(rows * conv.outputs, 0.0);
            }
        }
        let positions = geometry.positions;
        work.logits.resize(positions * self.shape.actions, 0.0);
        work.hidden.resize(positions * self.value_hidden.outputs, 0.0);
        work.hidden_gradient.resize(positions * self.value_hidden.outputs, 0.0);
        work.value.resize(positions * 3, 0.0);
        work.partials.resize_with(geometry.chunks.len(), Partial::default);
    }

    /// The activation layer `l` reads (`None`: the input planes) and the one its skip connection adds.
    fn sources(&self, l: usize) -> (Option<usize>, Option<usize>) {
        let tower = self.convs.len() - 3; // the last block's output
        match l {
            0 => (None, None),
            l if l <= tower && l % 2 == 1 => (Some(l - 1), None),
            l if l <= tower => (Some(l - 1), Some(l - 2)),
            _ => (Some(tower), None),
        }
    }

    fn conv(&self, l: usize) -> Conv<'_> {
        let layer = &self.convs[l];
        Conv {
            kernel: layer.kernel,
            inputs: layer.inputs,
            outputs: layer.outputs,
            weights: &self.params[layer.weights.clone()],
        }
    }

    fn linear(&self, layer: &LinearLayer) -> Linear<'_> {
        Linear {
            rows_per_position: layer.rows_per_position,
            inputs: layer.inputs,
            outputs: layer.outputs,
            weights: &self.params[layer.weights.clone()],
            bias: &self.params[layer.bias.clone()],
        }
    }

    fn forward(&mut self, geometry: &Geometry, input: &[f32]) {
        let rows = geometry.rows() as f64;
        for l in 0..self.convs.len() {
            let (read, skip) = self.sources(l);
            let mut z = std::mem::take(&mut self.work.z[l]);
            let mut act = std::mem::take(&mut self.work.act[l]);
            let mut partials = std::mem::take(&mut self.work.partials);
            let source = match read {
                None => Source::Planes(input),
                Some(j) => Source::Activations(&self.work.act[j]),
            };
            ops::conv_forward(geometry, &self.conv(l), source, &mut z, &mut partials);
            let layer = &self.convs[l];
            let (sum, squares) = ops::add_sums(geometry, &partials, layer.outputs);
            let mean: Vec<f32> = sum.iter().map(|s| (s / rows) as f32).collect();
            let variance: Vec<f32> = sum
                .iter()
                .zip(&squares)
                .map(|(s, q)| (q / rows - (s / rows).powi(2)).max(0.0) as f32)
                .collect();
            let inv_std: Vec<f32> = variance.iter().map(|v| 1.0 / (v + self.epsilon).sqrt()).collect();
            let (gamma, beta) = (&self.params[layer.gamma.clone()], &self.params[layer.beta.clone()]);
            let scale: Vec<f32> = gamma.iter().zip(&inv_std).map(|(g, s)| g * s).collect();
            let shift: Vec<f32> = beta.iter().zip(&mean).zip(&scale).map(|((b, m), s)| b - m * s).collect();
            let skip = skip.map(|j| self.work.act[j].as_slice());
            ops::norm_forward(geometry, layer.outputs, &z, &scale, &shift, skip, &mut act);
            for (running, batch) in [(layer.running, &mean), (layer.running + 1, &variance)] {
                for (r, b) in self.running[running].iter_mut().zip(batch) {
                    *r = *r * (1.0 - self.momentum) + b * self.momentum;
                }
            }
            let work = &mut self.work;
            (work.z[l], work.act[l], work.partials, work.mean[l], work.inv_std[l]) =
                (z, act, partials, mean, inv_std);
        }
        let (policy, value) = (self.convs.len() - 2, self.convs.len() - 1);
        let mut logits = std::mem::take(&mut self.work.logits);
        ops::linear_forward(geometry, &self.linear(&self.policy), &self.work.act[policy], &mut logits, false);
        let mut hidden = std::mem::take(&mut self.work.hidden);
        ops::linear_forward(
            geometry,
            &self.linear(&self.value_hidden),
            &self.work.act[value],
            &mut hidden,
            true,
        );
        let mut wdl = std::mem::take(&mut self.work.value);
        ops::linear_forward(geometry, &self.linear(&self.value_out), &hidden, &mut wdl, false);
        (self.work.logits, self.work.hidden, self.work.value) = (logits, hidden, wdl);
    }

    fn backward(&mut self, geometry: &Geometry, input: &[f32]) {
        let (policy, value) = (self.convs.len() - 2, self.convs.len() - 1);
        let tower = self.convs.len() - 3;
        let mut partials = std::mem::take(&mut self.work.partials);
        let mut grads = std::mem::take(&mut self.grads);

        // The heads' last layers, down to the gradients of their convolutions' norms.
        let mut dy_policy = std::mem::take(&mut self.work.dy[policy]);
        let act = &self.work.act[policy];
        let dx = Some((dy_policy.as_mut_slice(), Some(act.as_slice())));
        ops::linear_backward(geometry, &self.linear(&self.policy), act, &self.work.logits, dx, &mut partials);
        self.add_linear_gradients(geometry, &self.policy, &partials, &mut grads);
        let mut hidden_gradient = std::mem::take(&mut self.work.hidden_gradient);
        let dx = Some((hidden_gradient.as_mut_slice(), Some(self.work.hidden.as_slice())));
        let out = self.linear(&self.value_out);
        ops::linear_backward(geometry, &out, &self.work.hidden, &self.work.value, dx, &mut partials);
        self.add_linear_gradients(geometry, &self.value_out, &partials, &mut grads);
        let mut dy_value = std::mem::take(&mut self.work.dy[value]);
        let act = &self.work.act[value];
        let dx = Some((dy_value.as_mut_slice(), Some(act.as_slice())));
        ops::linear_backward(
            geometry,
            &self.linear(&self.value_hidden),
            act,
            &hidden_gradient,
            dx,
            &mut partials,
        );
        self.add_linear_gradients(geometry, &self.value_hidden, &partials, &mut grads);
        (self.work.dy[policy], self.work.dy[value], self.work.hidden_gradient) =
            (dy_policy, dy_value, hidden_gradient);

        // The convolutions, last first. Each writes its input's gradient (after that input's ReLU mask)
        // as the dy of the layer that made the input; the two heads add into the tower's output, and a
        // block's first convolution adds the block's skip gradient.
        for l in (0..self.convs.len()).rev() {
            let (read, _) = self.sources(l);
            let mut target = read.map(|j| std::mem::take(&mut self.work.dy[j]));
            let input_gradient = target.as_mut().map(|out| {
                let j = read.expect("a target only for a layer that reads an activation");
                let skip = (l <= tower && l % 2 == 1).then(|| self.work.dy[l + 1].as_slice());
                // The tower's output is read by both heads: the value convolution (first back) writes, the
                // policy one adds and masks.
                let (accumulate, masked) = match l {
                    l if l == value => (false, false),
                    l if l == policy => (true, true),
                    _ => (false, true),
                };
                InputGradient {
                    out: out.as_mut_slice(),
                    accumulate,
                    skip,
                    mask: masked.then(|| self.work.act[j].as_slice()),
                }
            });
            self.conv_backward(geometry, l, input, input_gradient, &mut partials, &mut grads);
            if let (Some(j), Some(target)) = (read, target) {
                self.work.dy[j] = target;
            }
        }
        self.work.partials = partials;
        self.grads = grads;
    }

    fn add_linear_gradients(
        &self,
        geometry: &Geometry,
        layer: &LinearLayer,
        partials: &[Partial],
        grads: &mut [f32],
    ) {
        let (weights, bias) = disjoint(grads, layer.weights.clone(), layer.bias.clone());
        ops::add_gradients(geometry, partials, weights, Some(bias));
    }

    fn conv_backward(
        &self,
        geometry: &Geometry,
        l: usize,
        input: &[f32],
        input_gradient: Option<InputGradient>,
        partials: &mut [Partial],
        grads: &mut [f32],
    ) {
        let layer = &self.convs[l];
        let work = &self.work;
        let channels = layer.outputs;
        ops::norm_backward_sums(
            geometry,
            channels,
            &work.dy[l],
            &work.z[l],
            &work.mean[l],
            &work.inv_std[l],
            partials,
        );
        let (dy_sum, dy_normalised_sum) = ops::add_sums(geometry, partials, channels);
        let rows = geometry.rows() as f64;
        for (o, (g, b)) in layer.gamma.clone().zip(layer.beta.clone()).enumerate() {
            grads[g] = dy_normalised_sum[o] as f32;
            grads[b] = dy_sum[o] as f32;
        }
        let gamma = &self.params[layer.gamma.clone()];
        let scale: Vec<f32> = gamma.iter().zip(&work.inv_std[l]).map(|(g, s)| g * s).collect();
        let mean_dy: Vec<f32> = dy_sum.iter().map(|s| (s / rows) as f32).collect();
        let mean_dy_normalised: Vec<f32> = dy_normalised_sum.iter().map(|s| (s / rows) as f32).collect();
        let norm = NormBackward {
            channels,
            dy: &work.dy[l],
            z: &work.z[l],
            mean: &work.mean[l],
            inv_std: &work.inv_std[l],
            scale: &scale,
            mean_dy: &mean_dy,
            mean_dy_normalised: &mean_dy_normalised,
        };
        let conv = self.conv(l);
        let transposed = if input_gradient.is_some() && layer.kernel == 3 {
            conv::transposed_weights(conv.weights, conv.inputs, conv.outputs)
        } else {
            Vec::new()
        };
        let source = match self.sources(l).0 {
            None => Source::Planes(input),
            Some(j) => Source::Activations(&work.act[j]),
        };
        ops::conv_backward(geometry, &conv, &transposed, source, &norm, input_gradient, partials);
        ops::add_gradients(geometry, partials, &mut grads[layer.weights.clone()], None);
    }
}

/// Two disjoint ranges of one slice, mutably.
fn disjoint(values: &mut [f32], first: Range<usize>, second: Range<usize>) -> (&mut [f32], &mut [f32]) {
    assert!(first.end <= second.start, "{first:?} lies before {second:?}");
    let (head, tail) = values.split_at_mut(second.start);
    (&mut head[first], &mut tail[..second.len()])
}

/// The value loss over win/draw/loss logits, their gradient written over them, and the share of
/// positions whose most likely result is the target's.
fn value_loss(logits: &mut [f32], target: &[f32], loss: ValueLoss) -> (f64, f64) {
    let n = (logits.len() / 3) as f32;
    let (mut total, mut correct) = (0.0f64, 0usize);
    for (z, t) in logits.chunks_exact_mut(3).zip(target.chunks_exact(3)) {
        let argmax = |v: &[f32]| (0..3).fold(0, |best, i| if v[i] > v[best] { i } else { best });
        correct += usize::from(argmax(z) == argmax(t));
        let max = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let log_sum = z.iter().map(|v| (v - max).exp()).sum::<f32>().ln();
        let log_p: [f32; 3] = std::array::from_fn(|i| z[i] - max - log_sum);
        let p = log_p.map(f32::exp);
        match loss {
            ValueLoss::Wdl => {
                let mass: f32 = t.iter().sum();
                for i in 0..3 {
                    total -= (t[i] * log_p[i]) as f64;
                    z[i] = (p[i] * mass - t[i]) / n;
                }
            }
            ValueLoss::Scalar => {
                let error = (p[0] - p[2]) - (t[0] - t[2]);
                total += (error * error) as f64;
                // d/dz_i of (p_0 − p_2) is p_i (e_i − (p_0 − p_2)), e = (1, 0, −1).
                let gradient = 2.0 * error / n;
                let score = p[0] - p[2];
                for (i, e) in [1.0, 0.0, -1.0].into_iter().enumerate() {
                    z[i] = gradient * p[i] * (e - score);
                }
            }
        }
    }
    (total / n as f64, correct as f64 / n as f64)
}

#[cfg(test)]
mod tests;
