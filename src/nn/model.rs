//! The policy/value network: a residual tower over the encoder's planes with a policy head over the
//! family's action space and a win/draw/loss value head (as Leela Chess Zero, so draw rates are
//! learned rather than averaged into a scalar).

use std::fmt;
use std::str::FromStr;

use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{BatchNorm, BatchNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::prelude::*;
use burn::tensor::activation::relu;
use serde::{Deserialize, Serialize};

/// Hidden units of the value head's fully connected layer.
const VALUE_HIDDEN: usize = 64;
/// Channels of the policy head's 1×1 convolution (AlphaZero uses 2).
const POLICY_CHANNELS: usize = 2;

/// The tower's size, written `b<blocks>c<channels>` (as KataGo names its nets): `b4c32` is four
/// residual blocks of 32 channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TowerSize {
    pub blocks: usize,
    pub channels: usize,
}

impl FromStr for TowerSize {
    type Err = String;

    fn from_str(text: &str) -> Result<TowerSize, String> {
        let bad =
            || format!("`{text}` is not a network size of the form b<blocks>c<channels>, such as b4c32");
        let rest = text.strip_prefix('b').ok_or_else(bad)?;
        let (blocks, channels) = rest.split_once('c').ok_or_else(bad)?;
        let blocks: usize = blocks.parse().map_err(|_| bad())?;
        let channels: usize = channels.parse().map_err(|_| bad())?;
        if !(1..=40).contains(&blocks) || !(4..=512).contains(&channels) {
            return Err(format!("network size `{text}`: blocks must be 1 to 40 and channels 4 to 512"));
        }
        Ok(TowerSize { blocks, channels })
    }
}

impl TryFrom<String> for TowerSize {
    type Error = String;
    fn try_from(text: String) -> Result<TowerSize, String> {
        text.parse()
    }
}

impl From<TowerSize> for String {
    fn from(size: TowerSize) -> String {
        size.to_string()
    }
}

impl fmt::Display for TowerSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b{}c{}", self.blocks, self.channels)
    }
}

/// How the policy head reaches the action space; each ruleset family picks one
/// ([`crate::nn::NetGame::policy_head`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PolicyHead {
    /// AlphaZero's Go head: a 2-channel 1×1 convolution, then a fully connected layer to every action.
    /// Right for action spaces that are not laid out on the grid (the hunt boards' points and extras).
    #[default]
    Dense,
    /// AlphaZero's chess head: a 3×3 convolution, then a 1×1 convolution giving `kinds` logits on
    /// every cell, action `cell × kinds + kind` with `cell = row × width + column` (the move's origin).
    /// Its weights do not grow with cells × actions (a dense head over imperial's 15,552 actions holds
    /// 2.5 M), and each move is scored where its piece stands.
    PerCell { kinds: usize },
}

/// Everything that fixes the network's parameter shapes; saved beside the weights so a checkpoint can
/// be rebuilt alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetShape {
    pub tower: TowerSize,
    pub planes: usize,
    /// `(width, height)` of the input grid.
    pub grid: (usize, usize),
    pub actions: usize,
    /// Checkpoints written before per-cell heads existed are dense.
    #[serde(default)]
    pub policy: PolicyHead,
}

impl NetShape {
    /// Multiply-adds of one position's forward pass (convolutions and linear layers).
    pub fn multiply_adds(&self) -> u64 {
        let cells = (self.grid.0 * self.grid.1) as u64;
        let c = self.tower.channels as u64;
        let stem = cells * 9 * self.planes as u64 * c;
        let tower = self.tower.blocks as u64 * 2 * cells * 9 * c * c;
        let policy = match self.policy {
            PolicyHead::Dense => {
                cells * c * POLICY_CHANNELS as u64 + cells * POLICY_CHANNELS as u64 * self.actions as u64
            }
            PolicyHead::PerCell { kinds } => cells * 9 * c * c + cells * c * kinds as u64,
        };
        let value = cells * c + cells * VALUE_HIDDEN as u64 + VALUE_HIDDEN as u64 * 3;
        stem + tower + policy + value
    }
}

#[derive(Module, Debug)]
pub(super) struct ConvNorm {
    pub(super) conv: Conv2d,
    pub(super) norm: BatchNorm,
}

impl ConvNorm {
    fn new(inputs: usize, outputs: usize, kernel: usize, device: &Device) -> ConvNorm {
        let padding = if kernel == 1 { PaddingConfig2d::Valid } else { PaddingConfig2d::Same };
        ConvNorm {
            conv: Conv2dConfig::new([inputs, outputs], [kernel, kernel])
                .with_padding(padding)
                .with_bias(false)
                .init(device),
            norm: BatchNormConfig::new(outputs).init(device),
        }
    }

    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        self.norm.forward(self.conv.forward(x))
    }
}

#[derive(Module, Debug)]
pub(super) struct ResidualBlock {
    pub(super) first: ConvNorm,
    pub(super) second: ConvNorm,
}

impl ResidualBlock {
    fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let y = relu(self.first.forward(x.clone())); // [batch, c, h, w]
        relu(self.second.forward(y) + x) // [batch, c, h, w]
    }
}

/// The network. `forward` gives policy logits over the whole action space (the caller masks illegal
/// moves) and win/draw/loss logits for the player to move.
#[derive(Module, Debug)]
pub struct PolicyValueNet {
    /// Not a parameter: fixed by the constructor, and not saved with the weights (a checkpoint keeps
    /// it in its metadata).
    #[module(skip)]
    shape: NetShape,
    pub(super) stem: ConvNorm,
    pub(super) tower: Vec<ResidualBlock>,
    pub(super) policy_conv: ConvNorm,
    /// The dense head's last layer ([`PolicyHead::Dense`]).
    pub(super) policy_out: Option<Linear>,
    /// The per-cell head's last layer ([`PolicyHead::PerCell`]).
    pub(super) policy_cells: Option<Conv2d>,
    pub(super) value_conv: ConvNorm,
    pub(super) value_hidden: Linear,
    pub(super) value_out: Linear,
}

impl PolicyValueNet {
    pub fn new(shape: &NetShape, device: &Device) -> PolicyValueNet {
        let c = shape.tower.channels;
        let cells = shape.grid.0 * shape.grid.1;
        let (policy_conv, policy_out, policy_cells) = match shape.policy {
            PolicyHead::Dense => (
                ConvNorm::new(c, POLICY_CHANNELS, 1, device),
                Some(LinearConfig::new(POLICY_CHANNELS * cells, shape.actions).init(device)),
                None,
            ),
            PolicyHead::PerCell { kinds } => {
                assert_eq!(cells * kinds, shape.actions, "a per-cell head covers every action once");
                (
                    ConvNorm::new(c, c, 3, device),
                    None,
                    Some(Conv2dConfig::new([c, kinds], [1, 1]).init(device)),
                )
            }
        };
        PolicyValueNet {
            shape: *shape,
            stem: ConvNorm::new(shape.planes, c, 3, device),
            tower: (0..shape.tower.blocks)
                .map(|_| ResidualBlock {
                    first: ConvNorm::new(c, c, 3, device),
                    second: ConvNorm::new(c, c, 3, device),
                })
                .collect(),
            policy_conv,
            policy_out,
            policy_cells,
            value_conv: ConvNorm::new(c, 1, 1, device),
            value_hidden: LinearConfig::new(cells, VALUE_HIDDEN).init(device),
            value_out: LinearConfig::new(VALUE_HIDDEN, 3).init(device),
        }
    }

    pub fn shape(&self) -> NetShape {
        self.shape
    }

    /// `input` is `[batch, planes, height, width]`; returns `(policy logits [batch, actions],
    /// win/draw/loss logits [batch, 3])`.
    pub fn forward(&self, input: Tensor<4>) -> (Tensor<2>, Tensor<2>) {
        let mut x = relu(self.stem.forward(input)); // [batch, c, h, w]
        for block in &self.tower {
            x = block.forward(x); // [batch, c, h, w]
        }
        let policy = relu(self.policy_conv.forward(x.clone())); // [batch, 2 or c, h, w]
        let policy = match (&self.policy_out, &self.policy_cells) {
            (Some(dense), _) => dense.forward(policy.flatten(1, 3)), // [batch, actions]
            (None, Some(cells)) => {
                let logits = cells.forward(policy); // [batch, kinds, h, w]
                let [batch, kinds, height, width] = logits.dims();
                // Cell-major, as the action index is.
                logits
                    .reshape([batch, kinds, height * width])
                    .swap_dims(1, 2)
                    .reshape([batch, kinds * height * width])
            }
            (None, None) => unreachable!("PolicyValueNet::new builds one policy head"),
        };
        let value = relu(self.value_conv.forward(x)); // [batch, 1, h, w]
        let value = relu(self.value_hidden.forward(value.flatten(1, 3))); // [batch, 64]
        let value = self.value_out.forward(value); // [batch, 3]
        (policy, value)
    }
}

/// Batch-norm statistics far from a fresh network's identity (mean 0, variance 1, γ 1, β 0), as a
/// trained network has them, for tests of code that reads the norms.
#[cfg(test)]
impl PolicyValueNet {
    pub(crate) fn with_random_norm_statistics(mut self, device: &Device) -> PolicyValueNet {
        use burn::module::{Param, RunningState};
        use burn::tensor::Distribution;
        let randomise = |layer: &mut ConvNorm| {
            let [features] = layer.norm.gamma.dims();
            let uniform =
                |low, high| Tensor::<1>::random([features], Distribution::Uniform(low, high), device);
            layer.norm.gamma = Param::from_tensor(uniform(0.5, 1.5));
            layer.norm.beta = Param::from_tensor(uniform(-0.5, 0.5));
            layer.norm.running_mean = RunningState::new(uniform(-0.5, 0.5));
            layer.norm.running_var = RunningState::new(uniform(0.3, 2.0));
        };
        randomise(&mut self.stem);
        for block in &mut self.tower {
            randomise(&mut block.first);
            randomise(&mut block.second);
        }
        randomise(&mut self.policy_conv);
        randomise(&mut self.value_conv);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tower_sizes_parse_and_print() {
        let size: TowerSize = "b6c64".parse().unwrap();
        assert_eq!(size, TowerSize { blocks: 6, channels: 64 });
        assert_eq!(size.to_string(), "b6c64");
        for bad in ["", "b6", "c64", "b0c64", "bxc64", "b6c", "6c64", "b6c2", "b6c64x"] {
            assert!(bad.parse::<TowerSize>().is_err(), "{bad} should not parse");
        }
    }

    #[test]
    fn forward_gives_one_row_per_position() {
        let device = Device::flex();
        let shape = NetShape {
            tower: TowerSize { blocks: 1, channels: 8 },
            planes: 3,
            grid: (5, 7),
            actions: 40,
            policy: PolicyHead::Dense,
        };
        for shape in
            [shape, NetShape { actions: 5 * 7 * 4, policy: PolicyHead::PerCell { kinds: 4 }, ..shape }]
        {
            let net = PolicyValueNet::new(&shape, &device);
            let input = Tensor::<4>::zeros([2, 3, 7, 5], &device);
            let (policy, value) = net.forward(input);
            assert_eq!(policy.dims(), [2, shape.actions]);
            assert_eq!(value.dims(), [2, 3]);
        }
    }

    /// The per-cell head's logit for action `cell × kinds + kind` must come from that cell: lighting the
    /// corner cell moves some logits, and only logits of cells within the receptive field of that
    /// corner (a kind-major layout would move logits of far cells).
    #[test]
    fn per_cell_logits_are_laid_out_cell_major() {
        let device = Device::flex();
        device.seed(3);
        let kinds = 3;
        let shape = NetShape {
            tower: TowerSize { blocks: 1, channels: 16 },
            planes: 1,
            grid: (9, 9),
            actions: 81 * kinds,
            policy: PolicyHead::PerCell { kinds },
        };
        let net = PolicyValueNet::new(&shape, &device);
        let logits = |lit: Option<usize>| -> Vec<f32> {
            let mut input = vec![0.0f32; 81];
            if let Some(cell) = lit {
                input[cell] = 1.0;
            }
            let input = Tensor::<4>::from_data(TensorData::new(input, [1, 1, 9, 9]), &device);
            net.forward(input).0.into_data().try_into_vec::<f32>().unwrap()
        };
        let (empty, corner) = (logits(None), logits(Some(0)));
        let changed: Vec<usize> = (0..81)
            .filter(|&cell| (0..kinds).any(|k| empty[cell * kinds + k] != corner[cell * kinds + k]))
            .collect();
        assert!(!changed.is_empty(), "lighting a cell moves some logits");
        // The receptive field (stem, two tower convolutions, the policy convolution) is 4 cells wide.
        let near_corner = |cell: usize| cell % 9 <= 4 && cell / 9 <= 4;
        assert!(changed.iter().all(|&cell| near_corner(cell)), "changed cells: {changed:?}");
    }
}
