//! Where each weight of a [`PolicyValueNet`] lives in the training step's flat parameter vector, and
//! how burn's tensor layout maps onto ours: convolutions become im2col weight matrices
//! `[k · k · inputs, outputs]` (row `(ky · k + kx) · inputs + c`), the dense policy layer's rows are
//! reordered from burn's channel-major flattening to our cell-major one, everything else is copied.
//! burn's paths (`tower.0.first.conv.weight`) name the tensors, as in its checkpoints and optimizer
//! records.

use burn::module::{Param, ParamId, RunningState};
use burn::nn::conv::Conv2d;
use burn::nn::{BatchNorm, Linear};
use burn::prelude::*;

use crate::nn::inference::to_vec;
use crate::nn::model::{ConvNorm, PolicyValueNet};

/// How a burn tensor's elements are laid out in ours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrangement {
    /// The same order.
    Same,
    /// A convolution's `[outputs, inputs, k, k]` as `[(ky · k + kx) · inputs + c][outputs]`.
    Conv { outputs: usize, inputs: usize, kernel: usize },
    /// A fully connected layer's `[channels · cells, outputs]` rows (channel-major) as
    /// `[cells · channels, outputs]` (cell-major, as channels-last activations flatten).
    CellMajor { channels: usize, cells: usize, outputs: usize },
}

impl Arrangement {
    /// Our index of each of burn's elements, in burn's order.
    fn our_index(self, burn_index: usize) -> usize {
        match self {
            Arrangement::Same => burn_index,
            Arrangement::Conv { outputs, inputs, kernel } => {
                let (kx, rest) = (burn_index % kernel, burn_index / kernel);
                let (ky, rest) = (rest % kernel, rest / kernel);
                let (c, o) = (rest % inputs, rest / inputs);
                ((ky * kernel + kx) * inputs + c) * outputs + o
            }
            Arrangement::CellMajor { channels, cells, outputs } => {
                let (column, row) = (burn_index % outputs, burn_index / outputs);
                let (cell, channel) = (row % cells, row / cells);
                (cell * channels + channel) * outputs + column
            }
        }
    }

    /// burn's elements in our order.
    pub fn to_ours(self, burn: &[f32]) -> Vec<f32> {
        let mut ours = vec![0.0; burn.len()];
        for (i, &value) in burn.iter().enumerate() {
            ours[self.our_index(i)] = value;
        }
        ours
    }

    /// Our elements in burn's order.
    pub fn to_burn(self, ours: &[f32]) -> Vec<f32> {
        (0..ours.len()).map(|i| ours[self.our_index(i)]).collect()
    }
}

/// One trainable tensor: its burn path and id, its burn shape, its arrangement and its place in the
/// flat parameter vector.
#[derive(Clone, Debug)]
pub struct Slot {
    pub path: String,
    pub id: ParamId,
    pub dims: Vec<usize>,
    pub arrangement: Arrangement,
    pub offset: usize,
    pub len: usize,
}

impl Slot {
    pub fn range(&self) -> std::ops::Range<usize> {
        self.offset..self.offset + self.len
    }
}

/// Every trainable tensor of a network (in a fixed order) with its values in our layout, and every
/// batch norm's running statistics.
pub struct Collected {
    pub slots: Vec<Slot>,
    pub values: Vec<f32>,
    /// Running mean then running variance of each batch norm, in the order the layers are visited.
    pub running: Vec<Vec<f32>>,
}

/// Reads the network's parameters in a fixed order: stem, tower blocks, policy head, value head; a
/// convolution's weight, then its norm's γ and β.
pub fn collect(net: &PolicyValueNet) -> Collected {
    let mut out = Collected { slots: Vec::new(), values: Vec::new(), running: Vec::new() };
    let cells = net.shape().grid.0 * net.shape().grid.1;
    visit(net, &mut |path, tensor| match tensor {
        Tensor4(param) => {
            let [outputs, inputs, kernel, _] = param.dims();
            out.push(
                path,
                param.id,
                param.dims().to_vec(),
                Arrangement::Conv { outputs, inputs, kernel },
                to_vec(param.val()),
            );
        }
        Tensor2(param) => {
            let [inputs, outputs] = param.dims();
            let arrangement = if path == "policy_out.weight" {
                Arrangement::CellMajor { channels: inputs / cells, cells, outputs }
            } else {
                Arrangement::Same
            };
            out.push(path, param.id, param.dims().to_vec(), arrangement, to_vec(param.val()));
        }
        Tensor1(param) => {
            out.push(path, param.id, param.dims().to_vec(), Arrangement::Same, to_vec(param.val()))
        }
        Running(state) => out.running.push(to_vec(state.value_sync())),
    });
    out
}

/// The name of the first tensor (weights or running statistics) holding a NaN or an infinity: a
/// damaged checkpoint loads without complaint from burn, so the loader asks.
pub fn first_non_finite(net: &PolicyValueNet) -> Option<String> {
    let mut found = None;
    visit(net, &mut |path, tensor| {
        if found.is_some() {
            return;
        }
        let values = match tensor {
            Tensor4(param) => to_vec(param.val()),
            Tensor2(param) => to_vec(param.val()),
            Tensor1(param) => to_vec(param.val()),
            Running(state) => to_vec(state.value_sync()),
        };
        if values.iter().any(|v| !v.is_finite()) {
            found = Some(path.to_string());
        }
    });
    found
}

impl Collected {
    fn push(&mut self, path: &str, id: ParamId, dims: Vec<usize>, arrangement: Arrangement, burn: Vec<f32>) {
        let offset = self.values.len();
        self.values.extend(arrangement.to_ours(&burn));
        self.slots.push(Slot { path: path.to_string(), id, dims, arrangement, offset, len: burn.len() });
    }
}

/// The network with its parameters replaced by `values` (our layout, `slots` as [`collect`] gave
/// them) and its running statistics by `running`; parameter ids are kept.
pub fn write_back(
    net: PolicyValueNet,
    slots: &[Slot],
    values: &[f32],
    running: &[Vec<f32>],
) -> PolicyValueNet {
    let mut slots = slots.iter();
    let mut running = running.iter();
    let mut take = |dims: &[usize]| -> TensorData {
        let slot = slots.next().expect("one slot per parameter");
        assert_eq!(slot.dims, dims, "{}: the network's shape changed", slot.path);
        TensorData::new(slot.arrangement.to_burn(&values[slot.range()]), dims.to_vec())
    };
    let mut next_running = || running.next().expect("one running statistic per norm").clone();
    map_net(net, &mut take, &mut next_running)
}

/// A tensor the visitor is shown.
pub enum Visited<'a> {
    Tensor4(&'a Param<Tensor<4>>),
    Tensor2(&'a Param<Tensor<2>>),
    Tensor1(&'a Param<Tensor<1>>),
    Running(&'a RunningState<Tensor<1>>),
}
use Visited::{Running, Tensor1, Tensor2, Tensor4};

fn visit(net: &PolicyValueNet, f: &mut impl FnMut(&str, Visited)) {
    let conv_norm = |prefix: &str, layer: &ConvNorm, f: &mut dyn FnMut(&str, Visited)| {
        visit_conv(&format!("{prefix}.conv"), &layer.conv, f);
        visit_norm(&format!("{prefix}.norm"), &layer.norm, f);
    };
    conv_norm("stem", &net.stem, f);
    for (b, block) in net.tower.iter().enumerate() {
        conv_norm(&format!("tower.{b}.first"), &block.first, f);
        conv_norm(&format!("tower.{b}.second"), &block.second, f);
    }
    conv_norm("policy_conv", &net.policy_conv, f);
    if let Some(dense) = &net.policy_out {
        visit_linear("policy_out", dense, f);
    }
    if let Some(cells) = &net.policy_cells {
        visit_conv("policy_cells", cells, f);
    }
    conv_norm("value_conv", &net.value_conv, f);
    visit_linear("value_hidden", &net.value_hidden, f);
    visit_linear("value_out", &net.value_out, f);
}

fn visit_conv(prefix: &str, conv: &Conv2d, f: &mut dyn FnMut(&str, Visited)) {
    f(&format!("{prefix}.weight"), Tensor4(&conv.weight));
    if let Some(bias) = &conv.bias {
        f(&format!("{prefix}.bias"), Tensor1(bias));
    }
}

fn visit_norm(prefix: &str, norm: &BatchNorm, f: &mut dyn FnMut(&str, Visited)) {
    f(&format!("{prefix}.gamma"), Tensor1(&norm.gamma));
    f(&format!("{prefix}.beta"), Tensor1(&norm.beta));
    f(&format!("{prefix}.running_mean"), Running(&norm.running_mean));
    f(&format!("{prefix}.running_var"), Running(&norm.running_var));
}

fn visit_linear(prefix: &str, linear: &Linear, f: &mut dyn FnMut(&str, Visited)) {
    f(&format!("{prefix}.weight"), Tensor2(&linear.weight));
    if let Some(bias) = &linear.bias {
        f(&format!("{prefix}.bias"), Tensor1(bias));
    }
}

/// Rebuilds the network in [`visit`]'s order, each parameter from `take(dims)` and each running
/// statistic from `running()`.
fn map_net(
    mut net: PolicyValueNet,
    take: &mut impl FnMut(&[usize]) -> TensorData,
    running: &mut impl FnMut() -> Vec<f32>,
) -> PolicyValueNet {
    fn param<const D: usize>(
        param: Param<Tensor<D>>,
        take: &mut dyn FnMut(&[usize]) -> TensorData,
    ) -> Param<Tensor<D>> {
        param.map(|tensor| {
            let device = tensor.device();
            Tensor::from_data(take(&tensor.dims()), &device)
        })
    }
    fn conv(mut conv: Conv2d, take: &mut dyn FnMut(&[usize]) -> TensorData) -> Conv2d {
        conv.weight = param(conv.weight, take);
        conv.bias = conv.bias.map(|bias| param(bias, take));
        conv
    }
    fn norm(
        mut norm: BatchNorm,
        take: &mut dyn FnMut(&[usize]) -> TensorData,
        running: &mut dyn FnMut() -> Vec<f32>,
    ) -> BatchNorm {
        norm.gamma = param(norm.gamma, take);
        norm.beta = param(norm.beta, take);
        let device = norm.gamma.val().device();
        let mut state = || {
            let values = running();
            let len = values.len();
            RunningState::new(Tensor::from_data(TensorData::new(values, [len]), &device))
        };
        norm.running_mean = state();
        norm.running_var = state();
        norm
    }
    fn linear(mut linear: Linear, take: &mut dyn FnMut(&[usize]) -> TensorData) -> Linear {
        linear.weight = param(linear.weight, take);
        linear.bias = linear.bias.map(|bias| param(bias, take));
        linear
    }
    fn conv_norm(
        mut layer: ConvNorm,
        take: &mut dyn FnMut(&[usize]) -> TensorData,
        running: &mut dyn FnMut() -> Vec<f32>,
    ) -> ConvNorm {
        layer.conv = conv(layer.conv, take);
        layer.norm = norm(layer.norm, take, running);
        layer
    }
    net.stem = conv_norm(net.stem, take, running);
    net.tower = std::mem::take(&mut net.tower)
        .into_iter()
        .map(|mut block| {
            block.first = conv_norm(block.first, take, running);
            block.second = conv_norm(block.second, take, running);
            block
        })
        .collect();
    net.policy_conv = conv_norm(net.policy_conv, take, running);
    net.policy_out = net.policy_out.take().map(|dense| linear(dense, take));
    net.policy_cells = net.policy_cells.take().map(|cells| conv(cells, take));
    net.value_conv = conv_norm(net.value_conv, take, running);
    net.value_hidden = linear(net.value_hidden, take);
    net.value_out = linear(net.value_out, take);
    net
}
