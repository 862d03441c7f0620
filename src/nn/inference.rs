//! The network frozen for inference: the weights of a trained [`PolicyValueNet`], with each batch norm
//! folded into the convolution before it, run by a forward pass of our own over channels-last
//! activations: 3 × 3 convolutions by the register-blocked kernels of [`super::conv`], 1 × 1
//! convolutions and dense layers as one `gemm` product each.
//!
//! Why not burn's forward: self-play spends nearly all its time in the network, and burn flex runs these
//! small towers (32 channels on 35–81 cells) at 15 GFLOP/s where the same matrix products reach
//! 45–60 GFLOP/s on one core; its per-operation tensors, layout conversions and zero-fills cost more
//! than the arithmetic (docs/BENCHMARKS.md). burn still defines, trains and saves the network, and a
//! test holds this forward pass to burn's outputs.
//!
//! A batch is cut into tiles of a few positions, each run through the whole network while its
//! activations stay in the core's cache; tiles run in parallel on the current rayon pool (inline in
//! a self-play worker's one-thread pool), and each thread reuses its scratch buffers, so a warm
//! evaluator allocates nothing.

use std::cell::RefCell;

use burn::nn::conv::Conv2d;
use burn::nn::{BatchNorm, Linear};
use burn::prelude::*;
use rayon::prelude::*;

use super::export::ExportedLayer;
use super::int8;
use super::kernels::{View, grow, grow_aligned, matmul, planes_to_rows, relu, vectorised};
use super::model::{ConvNorm, NetShape, PolicyValueNet};
use super::winograd::{self, Board};

/// Rows (cells of a tile's positions) that a tile aims at: enough positions for the convolution
/// kernels' blocks of 12, few enough that a tile's activations stay in a core's L2 cache.
const TILE_ROWS: usize = 1024;

/// The raw network outputs of one batch, row-major.
#[derive(Clone, Debug, Default)]
pub struct Inference {
    /// `[positions, actions]` policy logits.
    pub policy: Vec<f32>,
    /// `[positions, 3]` win/draw/loss probabilities for the player to move.
    pub wdl: Vec<f32>,
}

/// A `k × k` convolution (or, with `k = 1`, a dense layer over each cell) and the batch norm after it,
/// as one matrix product: `weights` is `[k · k · inputs, outputs]`, row `(ky · k + kx) · inputs + c`.
#[derive(Clone, Debug)]
struct Affine {
    kernel: usize,
    inputs: usize,
    outputs: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
    /// A 3 × 3 convolution's weights for Winograd's products (`None` for 1 × 1 and dense layers).
    winograd: Option<winograd::Weights>,
}

impl Affine {
    /// `conv` then `norm` (in inference mode): `y = (conv(x) − mean) · γ / √(var + ε) + β`, so the
    /// norm scales each output's weights and sets its bias.
    fn conv(conv: &Conv2d, norm: Option<&BatchNorm>) -> Affine {
        let [outputs, inputs, kernel, kernel_width] = conv.weight.dims();
        assert_eq!(kernel, kernel_width, "square kernels only");
        let raw = to_vec(conv.weight.val());
        let mut bias = match &conv.bias {
            Some(bias) => to_vec(bias.val()),
            None => vec![0.0; outputs],
        };
        let mut scale = vec![1.0; outputs];
        if let Some(norm) = norm {
            let (gamma, beta) = (to_vec(norm.gamma.val()), to_vec(norm.beta.val()));
            let (mean, var) = (to_vec(norm.running_mean.value()), to_vec(norm.running_var.value()));
            for o in 0..outputs {
                scale[o] = gamma[o] / (var[o] + norm.epsilon as f32).sqrt();
                bias[o] = (bias[o] - mean[o]) * scale[o] + beta[o];
            }
        }
        let mut weights = vec![0.0; kernel * kernel * inputs * outputs];
        for o in 0..outputs {
            for c in 0..inputs {
                for ky in 0..kernel {
                    for kx in 0..kernel {
                        let row = (ky * kernel + kx) * inputs + c;
                        weights[row * outputs + o] =
                            raw[((o * inputs + c) * kernel + ky) * kernel + kx] * scale[o];
                    }
                }
            }
        }
        let winograd = (kernel == 3).then(|| winograd::Weights::new(&weights, inputs, outputs));
        Affine { kernel, inputs, outputs, weights, bias, winograd }
    }

    /// A convolution as ONNX has it: `[outputs, inputs, k, k]`.
    fn exported(&self, name: &str) -> ExportedLayer {
        let (k, inputs, outputs) = (self.kernel, self.inputs, self.outputs);
        let mut weight = vec![0.0; self.weights.len()];
        for o in 0..outputs {
            for c in 0..inputs {
                for tap in 0..k * k {
                    weight[(o * inputs + c) * k * k + tap] = self.weights[(tap * inputs + c) * outputs + o];
                }
            }
        }
        let shape = vec![outputs, inputs, k, k];
        ExportedLayer { name: name.to_string(), kind: "conv", shape, weight, bias: self.bias.clone() }
    }

    /// A dense layer, `[inputs, outputs]`.
    fn exported_dense(&self, name: &str) -> ExportedLayer {
        let shape = vec![self.inputs, self.outputs];
        let (weight, bias) = (self.weights.clone(), self.bias.clone());
        ExportedLayer { name: name.to_string(), kind: "dense", shape, weight, bias }
    }

    /// A fully connected layer; burn stores its weight `[inputs, outputs]` already.
    fn linear(linear: &Linear) -> Affine {
        let [inputs, outputs] = linear.weight.dims();
        let bias = linear.bias.as_ref().map_or_else(|| vec![0.0; outputs], |b| to_vec(b.val()));
        Affine { kernel: 1, inputs, outputs, weights: to_vec(linear.weight.val()), bias, winograd: None }
    }

    /// `out[rows × outputs] = lhs[rows × k²·inputs] · weights + bias (+ out, when `accumulate`)`.
    fn apply(&self, lhs: &[f32], rows: usize, out: &mut [f32], accumulate: bool) {
        let out = &mut out[..rows * self.outputs];
        for row in out.chunks_exact_mut(self.outputs) {
            if accumulate {
                row.iter_mut().zip(&self.bias).for_each(|(y, b)| *y += b);
            } else {
                row.copy_from_slice(&self.bias);
            }
        }
        let depth = self.kernel * self.kernel * self.inputs;
        let weights = View::rows(&self.weights, depth, self.outputs);
        matmul(out, View::rows(&lhs[..rows * depth], rows, depth), weights, true);
    }

    /// A 3 × 3 convolution of channels-last rows: `out = conv(x) + bias (+ out, when `accumulate`)`.
    fn convolve(
        &self,
        x: &[f32],
        positions: usize,
        board: &Board,
        out: &mut [f32],
        accumulate: bool,
        scratch: &mut winograd::Scratch,
    ) {
        let rows = positions * board.neighbours.cells;
        for row in out[..rows * self.outputs].chunks_exact_mut(self.outputs) {
            if accumulate {
                row.iter_mut().zip(&self.bias).for_each(|(y, b)| *y += b);
            } else {
                row.copy_from_slice(&self.bias);
            }
        }
        let weights = self.winograd.as_ref().expect("a 3 × 3 convolution");
        winograd::forward(out, x, positions, board, &self.weights, weights, true, scratch);
    }
}

/// How the dense policy layer's input rows are ordered: burn (and ONNX) flatten `[channels, cells]`,
/// row `c · cells + cell`; our channels-last activations `[cells, channels]`, row `cell · channels + c`.
#[derive(Clone, Copy)]
enum Flattening {
    ChannelMajor,
    CellMajor,
}

/// The dense policy layer's weight rows (each `rows.len() / (cells · channels)` wide), reordered from
/// the other flattening into `to`.
fn reorder_policy_rows(rows: &[f32], cells: usize, channels: usize, to: Flattening) -> Vec<f32> {
    let width = rows.len() / (cells * channels);
    let mut out = vec![0.0; rows.len()];
    for cell in 0..cells {
        for c in 0..channels {
            let (cell_major, channel_major) = (cell * channels + c, c * cells + cell);
            let (into, from) = match to {
                Flattening::CellMajor => (cell_major, channel_major),
                Flattening::ChannelMajor => (channel_major, cell_major),
            };
            out[into * width..(into + 1) * width].copy_from_slice(&rows[from * width..(from + 1) * width]);
        }
    }
    out
}

pub(super) fn to_vec<const D: usize>(tensor: Tensor<D>) -> Vec<f32> {
    tensor.into_data().convert::<f32>().try_into_vec::<f32>().expect("f32 data converts to f32")
}

/// The policy head's last layers.
#[derive(Clone, Debug)]
enum PolicyLayers {
    /// A 1 × 1 convolution to a few channels, then a fully connected layer over all of them; its
    /// weight rows are reordered from burn's channel-major flattening to our cell-major one.
    Dense { conv: Affine, out: Affine },
    /// A 3 × 3 convolution, then a 1 × 1 convolution giving each cell its `kinds` logits, which,
    /// channels-last, are already the action order `cell × kinds + kind`.
    PerCell { conv: Affine, cells: Affine },
}

/// A [`PolicyValueNet`] frozen for fast inference; see the module comment.
#[derive(Clone, Debug)]
pub struct InferenceNet {
    shape: NetShape,
    board: Board,
    stem: Affine,
    tower: Vec<[Affine; 2]>,
    policy: PolicyLayers,
    value_conv: Affine,
    value_hidden: Affine,
    value_out: Affine,
    /// The stem's and the tower's convolutions in 8 bits, where the network runs so
    /// ([`InferenceNet::quantized`]) and the CPU has VNNI.
    int8: Option<Int8Tower>,
}

/// How a network computes its tower. 8 bits are the default wherever a network plays: on the shipped
/// networks they win an SPRT against f32 at equal time and pass a non-regression SPRT at equal
/// simulations, on all six (docs/BENCHMARKS.md, the bar the 8-bit issue's agreement figures stood
/// for). On a CPU without VNNI an 8-bit network computes in f32 ([`InferenceNet::precision`] says which).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// 8-bit weights and activations in the residual tower ([`super::int8`]), on CPUs with VNNI.
    #[default]
    Int8,
    /// 32-bit floats throughout.
    F32,
}

impl Precision {
    pub fn as_str(self) -> &'static str {
        match self {
            Precision::Int8 => "int8",
            Precision::F32 => "f32",
        }
    }
}

/// The stem, the tower and a per-cell policy head's 3 × 3 convolution quantized ([`super::int8`]).
#[derive(Clone, Debug)]
struct Int8Tower {
    board: int8::Padded,
    stem: int8::Conv,
    tower: Vec<[int8::Conv; 2]>,
    policy: Option<int8::Conv>,
    /// Whether the 8-bit kernels run: the CPU has VNNI (a test turns it off to check the f32 path).
    vnni: bool,
}

/// One thread's working memory, grown to the largest tile it has run.
#[derive(Default)]
struct Scratch {
    /// The stem's input as channels-last rows.
    columns: Vec<f32>,
    /// The convolutions' transformed tiles (and im2col buffer where they fall back to `gemm`).
    winograd: winograd::Scratch,
    trunk: Vec<f32>,
    inner: Vec<f32>,
    value_cells: Vec<f32>,
    value_hidden: Vec<f32>,
    /// Layers' inputs in 8 bits, padded ([`super::int8`]).
    quantized: int8::Buffers,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl InferenceNet {
    pub fn new(net: &PolicyValueNet) -> InferenceNet {
        let shape = net.shape();
        let cells = shape.grid.0 * shape.grid.1;
        let conv_norm = |layer: &ConvNorm| Affine::conv(&layer.conv, Some(&layer.norm));
        let policy = match (&net.policy_out, &net.policy_cells) {
            (Some(dense), _) => {
                let conv = conv_norm(&net.policy_conv);
                let mut out = Affine::linear(dense);
                out.weights = reorder_policy_rows(&out.weights, cells, conv.outputs, Flattening::CellMajor);
                PolicyLayers::Dense { conv, out }
            }
            (None, Some(cell_logits)) => PolicyLayers::PerCell {
                conv: conv_norm(&net.policy_conv),
                cells: Affine::conv(cell_logits, None),
            },
            (None, None) => unreachable!("PolicyValueNet::new builds one policy head"),
        };
        InferenceNet {
            shape,
            board: Board::new(shape.grid),
            stem: conv_norm(&net.stem),
            tower: net
                .tower
                .iter()
                .map(|block| [conv_norm(&block.first), conv_norm(&block.second)])
                .collect(),
            policy,
            value_conv: conv_norm(&net.value_conv),
            value_hidden: Affine::linear(&net.value_hidden),
            value_out: Affine::linear(&net.value_out),
            int8: None,
        }
    }

    /// The same network with its stem and tower in 8 bits, each layer's input fitted to `scales`
    /// (from [`InferenceNet::calibrate`]). It runs so where the CPU has VNNI, in f32 elsewhere.
    pub fn quantized(&self, scales: &int8::Scales) -> InferenceNet {
        assert_eq!(scales.inputs.len(), self.convolutions(), "a scale per 3 × 3 convolution");
        let conv =
            |a: &Affine, largest: f32| int8::Conv::new(&a.weights, &a.bias, a.inputs, a.outputs, largest);
        let tower = self
            .tower
            .iter()
            .enumerate()
            .map(|(b, [first, second])| {
                [conv(first, scales.inputs[1 + 2 * b]), conv(second, scales.inputs[2 + 2 * b])]
            })
            .collect();
        let policy = match &self.policy {
            PolicyLayers::PerCell { conv: c, .. } => Some(conv(c, scales.inputs[1 + 2 * self.tower.len()])),
            PolicyLayers::Dense { .. } => None,
        };
        let int8 = Int8Tower {
            board: int8::Padded::new(self.shape.grid),
            stem: conv(&self.stem, scales.inputs[0]),
            tower,
            policy,
            vnni: int8::available(),
        };
        InferenceNet { int8: Some(int8), ..self.clone() }
    }

    /// The layers in ONNX's layout, for [`super::export`] (the f32 weights, also of an 8-bit network).
    pub fn export_layers(&self) -> Vec<ExportedLayer> {
        let mut layers = vec![self.stem.exported("stem")];
        for (b, [first, second]) in self.tower.iter().enumerate() {
            layers.push(first.exported(&format!("block{b}.first")));
            layers.push(second.exported(&format!("block{b}.second")));
        }
        match &self.policy {
            PolicyLayers::Dense { conv, out } => {
                layers.push(conv.exported("policy.conv"));
                let mut dense = out.exported_dense("policy.out");
                let cells = self.board.neighbours.cells;
                dense.weight =
                    reorder_policy_rows(&out.weights, cells, conv.outputs, Flattening::ChannelMajor);
                layers.push(dense);
            }
            PolicyLayers::PerCell { conv, cells } => {
                layers.push(conv.exported("policy.conv"));
                layers.push(cells.exported("policy.cells"));
            }
        }
        layers.push(self.value_conv.exported("value.conv"));
        layers.push(self.value_hidden.exported_dense("value.hidden"));
        layers.push(self.value_out.exported_dense("value.out"));
        layers
    }

    /// Whether `scales` are for this network: one per convolution that runs in 8 bits.
    pub fn fits(&self, scales: &int8::Scales) -> bool {
        scales.inputs.len() == self.convolutions()
    }

    /// The 3 × 3 convolutions that may run in 8 bits: the stem, the tower's, and a per-cell policy
    /// head's.
    fn convolutions(&self) -> usize {
        1 + 2 * self.tower.len() + usize::from(matches!(self.policy, PolicyLayers::PerCell { .. }))
    }

    /// The network's shape.
    pub fn shape(&self) -> NetShape {
        self.shape
    }

    /// The precision the network runs at here.
    pub fn precision(&self) -> Precision {
        if self.int8.as_ref().is_some_and(|q| q.vnni) { Precision::Int8 } else { Precision::F32 }
    }

    /// The scales of the stem's and the tower's inputs on `positions` encoded positions (the
    /// calibration of [`InferenceNet::quantized`]): each the largest value that layer's input took.
    pub fn calibrate(&self, input: &[f32], positions: usize, source: &str) -> int8::Scales {
        let mut inputs = vec![1e-6_f32; self.convolutions()];
        let per_position = input.len() / positions.max(1);
        let (width, height) = self.shape.grid;
        let tile = (TILE_ROWS / (width * height)).max(1);
        let mut out = Inference::default();
        for chunk in input.chunks(tile * per_position) {
            let n = chunk.len() / per_position;
            out.policy.resize(n * self.shape.actions, 0.0);
            out.wdl.resize(n * 3, 0.0);
            let mut scratch = Scratch::default();
            let mut observe =
                |layer: usize, values: &[f32]| inputs[layer] = inputs[layer].max(int8::largest(values));
            self.tile(chunk, n, &mut out.policy, &mut out.wdl, &mut scratch, &mut observe);
        }
        int8::Scales { inputs, source: source.to_string() }
    }

    /// Runs the network on `positions` encoded positions laid end to end in `input` (each
    /// `[planes, height, width]`), overwriting `out`.
    pub fn infer(&self, input: &[f32], positions: usize, out: &mut Inference) {
        let (width, height) = self.shape.grid;
        let per_position = self.shape.planes * width * height;
        assert_eq!(input.len(), positions * per_position, "input holds {positions} encoded positions");
        let actions = self.shape.actions;
        out.policy.resize(positions * actions, 0.0);
        out.wdl.resize(positions * 3, 0.0);
        // Whole tiles where the batch is large; otherwise split so that every thread has work.
        let threads = rayon::current_num_threads();
        let tile = (TILE_ROWS / (width * height)).max(1).min(positions.div_ceil(threads)).max(1);
        out.policy
            .par_chunks_mut(tile * actions)
            .zip(out.wdl.par_chunks_mut(tile * 3))
            .zip(input.par_chunks(tile * per_position))
            .for_each(|((policy, wdl), input)| {
                SCRATCH.with_borrow_mut(|scratch| {
                    vectorised(|| self.tile(input, wdl.len() / 3, policy, wdl, scratch, &mut |_, _| {}))
                })
            });
    }

    /// The whole network on one tile of positions; `observe(layer, values)` sees the input of each of
    /// the stem's and the tower's convolutions (for calibration).
    fn tile(
        &self,
        input: &[f32],
        positions: usize,
        policy: &mut [f32],
        wdl: &mut [f32],
        s: &mut Scratch,
        observe: &mut dyn FnMut(usize, &[f32]),
    ) {
        let cells = self.board.neighbours.cells;
        let rows = positions * cells;
        let channels = self.shape.tower.channels;
        let planes = self.shape.planes;
        let widest = self.widest_layer();
        let Scratch { columns, trunk, inner, winograd, value_cells, value_hidden, quantized } = s;
        let columns = grow_aligned(columns, rows * widest);
        let trunk = grow_aligned(trunk, rows * channels);
        let inner = grow_aligned(inner, rows * widest);
        let board = &self.board;
        let int8 = self.int8.as_ref().filter(|q| q.vnni);
        // A 3 × 3 convolution of the stem or the tower: in 8 bits where the network runs so.
        let mut convolve = |layer: usize, affine: &Affine, x: &[f32], out: &mut [f32], accumulate: bool| {
            observe(layer, &x[..rows * affine.inputs]);
            match int8.and_then(|q| Some((q, q.layer(layer)?))) {
                Some((q, conv)) => {
                    let buffer = quantized.of(conv.padded);
                    conv.quantize(x, positions, &q.board, buffer);
                    conv.forward(buffer, positions, &q.board, out, accumulate);
                }
                None => affine.convolve(x, positions, board, out, accumulate, winograd),
            }
        };

        // Stem, from the encoder's channels-first planes.
        planes_to_rows(input, cells, planes, &mut columns[..rows * planes]);
        convolve(0, &self.stem, columns, trunk, false);
        relu(&mut trunk[..rows * channels]);

        for (b, [first, second]) in self.tower.iter().enumerate() {
            convolve(1 + 2 * b, first, trunk, inner, false);
            relu(&mut inner[..rows * channels]);
            convolve(2 + 2 * b, second, inner, trunk, true); // adds the skip
            relu(&mut trunk[..rows * channels]);
        }

        match &self.policy {
            PolicyLayers::Dense { conv, out } => {
                conv.apply(trunk, rows, inner, false);
                relu(&mut inner[..rows * conv.outputs]);
                out.apply(inner, positions, policy, false);
            }
            PolicyLayers::PerCell { conv, cells } => {
                convolve(1 + 2 * self.tower.len(), conv, trunk, inner, false);
                relu(&mut inner[..rows * channels]);
                cells.apply(inner, rows, policy, false);
            }
        }

        grow(value_cells, rows);
        grow(value_hidden, positions * self.value_hidden.outputs);
        self.value_conv.apply(trunk, rows, value_cells, false);
        relu(&mut value_cells[..rows]);
        self.value_hidden.apply(value_cells, positions, value_hidden, false);
        relu(&mut value_hidden[..positions * self.value_hidden.outputs]);
        self.value_out.apply(value_hidden, positions, wdl, false);
        for row in wdl.chunks_exact_mut(3) {
            let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            row.iter_mut().for_each(|v| *v = (*v - max).exp());
            let sum: f32 = row.iter().sum();
            row.iter_mut().for_each(|v| *v /= sum);
        }
    }

    /// The most outputs any layer gives per cell, and the most channels any convolution reads.
    fn widest_layer(&self) -> usize {
        let mut widest = self.shape.planes.max(self.shape.tower.channels);
        if let PolicyLayers::Dense { conv, .. } = &self.policy {
            widest = widest.max(conv.outputs);
        }
        widest
    }
}

impl Int8Tower {
    /// The stem (0), a tower convolution (`1 + 2 · block + which`), or the policy head's (next).
    fn layer(&self, layer: usize) -> Option<&int8::Conv> {
        match layer {
            0 => Some(&self.stem),
            _ if layer <= 2 * self.tower.len() => Some(&self.tower[(layer - 1) / 2][(layer - 1) % 2]),
            _ => self.policy.as_ref(),
        }
    }
}

/// Runs `work` with the network kernels on the calling thread alone. For a thread that is one of
/// several evaluating at once (self-play workers, a match's game threads): on rayon's global pool each
/// would wake every core's kernel thread, N threads running N² on N cores. Without a pool of its own
/// (one could not be built) the work still runs, on the global pool.
pub fn on_one_kernel_thread<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::model::{PolicyHead, TowerSize};

    /// A network whose batch norms hold statistics far from the identity, as a trained one does, so
    /// the folding is exercised.
    fn net_with_statistics(shape: &NetShape, device: &Device) -> PolicyValueNet {
        let net = PolicyValueNet::new(shape, device);
        net.with_random_norm_statistics(device)
    }

    fn burn_forward(net: &PolicyValueNet, input: &[f32], positions: usize, device: &Device) -> Inference {
        let (width, height) = net.shape().grid;
        let dims = [positions, net.shape().planes, height, width];
        let (policy, value) =
            net.forward(Tensor::<4>::from_data(TensorData::new(input.to_vec(), dims), device));
        let wdl = burn::tensor::activation::softmax(value, 1);
        Inference { policy: to_vec(policy), wdl: to_vec(wdl) }
    }

    fn assert_close(ours: &[f32], burns: &[f32], what: &str) {
        assert_eq!(ours.len(), burns.len(), "{what}: lengths");
        for (i, (a, b)) in ours.iter().zip(burns).enumerate() {
            assert!((a - b).abs() <= 1e-4 * (1.0 + b.abs()), "{what}[{i}]: ours {a}, burn {b}");
        }
    }

    /// Both policy heads, odd grid sizes and batches that leave a partial tile give burn's outputs.
    #[test]
    fn matches_burns_forward() {
        let device = Device::flex();
        device.seed(7);
        let dense = NetShape {
            tower: TowerSize { blocks: 2, channels: 8 },
            planes: 3,
            grid: (5, 7),
            actions: 40,
            policy: PolicyHead::Dense,
        };
        let per_cell = NetShape {
            tower: TowerSize { blocks: 1, channels: 16 },
            planes: 5,
            grid: (9, 9),
            actions: 81 * 6,
            policy: PolicyHead::PerCell { kinds: 6 },
        };
        for shape in [dense, per_cell] {
            let net = net_with_statistics(&shape, &device);
            let fast = InferenceNet::new(&net);
            let per_position = shape.planes * shape.grid.0 * shape.grid.1;
            for positions in [1, 3, 17] {
                let input: Vec<f32> =
                    (0..positions * per_position).map(|i| ((i * 7919) % 13) as f32 * 0.25 - 1.0).collect();
                let mut ours = Inference::default();
                fast.infer(&input, positions, &mut ours);
                let burns = burn_forward(&net, &input, positions, &device);
                assert_close(&ours.policy, &burns.policy, "policy");
                assert_close(&ours.wdl, &burns.wdl, "wdl");
            }
        }
    }

    /// The exported layers, run by a plain forward pass written from their documented layout
    /// (`[outputs, inputs, k, k]` convolutions, dense layers over a channels-first flattening), give
    /// burn's outputs for both head kinds: what `scripts/onnx_quantized.py` rebuilds is the network.
    #[test]
    fn exported_layers_are_the_network() {
        let device = Device::flex();
        device.seed(11);
        let dense = NetShape {
            tower: TowerSize { blocks: 1, channels: 4 },
            planes: 3,
            grid: (3, 4),
            actions: 10,
            policy: PolicyHead::Dense,
        };
        let per_cell = NetShape { actions: 24, policy: PolicyHead::PerCell { kinds: 2 }, ..dense };
        for shape in [dense, per_cell] {
            let net = net_with_statistics(&shape, &device);
            let layers = InferenceNet::new(&net).export_layers();
            let layer = |name: &str| layers.iter().find(|l| l.name == name).unwrap();
            let (width, height) = shape.grid;
            let cells = width * height;
            let input: Vec<f32> =
                (0..shape.planes * cells).map(|i| ((i * 31) % 7) as f32 * 0.3 - 0.9).collect();
            let relu = |x: Vec<f32>| x.into_iter().map(|v| v.max(0.0)).collect::<Vec<f32>>();
            // `x` is `[channels, height, width]`; so is the result.
            let conv = |name: &str, x: &[f32]| {
                let l = layer(name);
                let [outputs, inputs, k, _] = l.shape[..] else { panic!("{name}: a convolution") };
                let mut y = vec![0.0; outputs * cells];
                for o in 0..outputs {
                    for cell in 0..cells {
                        let (row, column) = (cell / width, cell % width);
                        let mut sum = l.bias[o];
                        for c in 0..inputs {
                            for ky in 0..k {
                                for kx in 0..k {
                                    let (r, q) = (
                                        (row + ky) as isize - (k / 2) as isize,
                                        (column + kx) as isize - (k / 2) as isize,
                                    );
                                    if (0..height as isize).contains(&r) && (0..width as isize).contains(&q) {
                                        let at = (c * height + r as usize) * width + q as usize;
                                        sum += l.weight[((o * inputs + c) * k + ky) * k + kx] * x[at];
                                    }
                                }
                            }
                        }
                        y[o * cells + cell] = sum;
                    }
                }
                y
            };
            let dense_layer = |name: &str, x: &[f32]| {
                let l = layer(name);
                let [inputs, outputs] = l.shape[..] else { panic!("{name}: a dense layer") };
                (0..outputs)
                    .map(|o| l.bias[o] + (0..inputs).map(|i| x[i] * l.weight[i * outputs + o]).sum::<f32>())
                    .collect::<Vec<f32>>()
            };
            let mut x = relu(conv("stem", &input));
            let inner = relu(conv("block0.first", &x));
            x = relu(conv("block0.second", &inner).iter().zip(&x).map(|(a, b)| a + b).collect());
            let p = relu(conv("policy.conv", &x));
            let policy = match shape.policy {
                PolicyHead::Dense => dense_layer("policy.out", &p),
                PolicyHead::PerCell { kinds } => {
                    let logits = conv("policy.cells", &p); // `[kinds, cells]`; actions are cell-major
                    (0..cells * kinds).map(|a| logits[(a % kinds) * cells + a / kinds]).collect()
                }
            };
            let v = relu(conv("value.conv", &x));
            let logits = dense_layer("value.out", &relu(dense_layer("value.hidden", &v)));
            let sum: f32 = logits.iter().map(|l| l.exp()).sum();
            let wdl: Vec<f32> = logits.iter().map(|l| l.exp() / sum).collect();
            let burns = burn_forward(&net, &input, 1, &device);
            assert_close(&policy, &burns.policy, "policy");
            assert_close(&wdl, &burns.wdl, "wdl");
        }
    }

    /// The shipped networks (trained batch norms, both head kinds) on positions of random games.
    #[test]
    fn matches_burns_forward_on_the_shipped_networks() {
        use crate::game::AnyGame;
        use crate::nn::{Encoder, NetGame, checkpoint};
        use rand::SeedableRng;

        fn check<G: NetGame>(game: &G, path: &str) {
            let device = Device::flex();
            let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            let net =
                checkpoint::load_for_game(&manifest.join(path), game, &device).expect("a shipped network");
            let encoder = G::Encoder::for_game(game);
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
            let (mut state, mut moves) = (game.start(), G::Moves::default());
            let mut input = Vec::new();
            for ply in 0..24 {
                let start = input.len();
                input.resize(start + encoder.input_len(), 0.0);
                encoder.encode(game, &state, ply, &mut input[start..]);
                match game.sample_move(&state, &mut rng, &mut moves) {
                    Some(mv) if game.outcome(&state).is_none() => game.apply(&mut state, mv),
                    _ => state = game.start(),
                }
            }
            let mut ours = Inference::default();
            InferenceNet::new(&net).infer(&input, 24, &mut ours);
            let burns = burn_forward(&net, &input, 24, &device);
            assert_close(&ours.policy, &burns.policy, path);
            assert_close(&ours.wdl, &burns.wdl, path);
        }
        for (spec, path) in [
            ("sixteen-rebels", "checkpoints/sixteen-rebels"),
            ("imperial-contest", "checkpoints/imperial-contest"),
            ("juroku-musashi:triangle=closed", "checkpoints/juroku-musashi"),
            ("squirm-chess", "checkpoints/chess"),
        ] {
            let game = AnyGame::from_spec(spec).expect("a known ruleset");
            crate::with_game!(&game, |g| check(g, path));
        }
    }

    /// In 8 bits a network calibrated on positions gives nearly the f32 outputs on others: the same
    /// most likely move nearly always, values within a few hundredths; with VNNI off (or on a CPU
    /// without it) the quantized network runs in f32 and gives exactly the f32 outputs.
    #[test]
    fn the_8_bit_tower_stays_close_to_f32() {
        let device = Device::flex();
        device.seed(11);
        let shape = NetShape {
            tower: TowerSize { blocks: 2, channels: 32 },
            planes: 6,
            grid: (5, 7),
            actions: 40,
            policy: PolicyHead::Dense,
        };
        let net = InferenceNet::new(&net_with_statistics(&shape, &device));
        let per_position = shape.planes * 35;
        let positions = 64;
        let input: Vec<f32> =
            (0..positions * per_position).map(|i| if (i * 7919) % 5 < 2 { 1.0 } else { 0.0 }).collect();
        let (calibration, test) = input.split_at(32 * per_position);
        let scales = net.calibrate(calibration, 32, "test positions");
        assert!(net.fits(&scales));
        assert!(!net.fits(&int8::Scales { inputs: vec![1.0; 2], source: String::new() }), "3 convolutions");
        let quantized = net.quantized(&scales);
        let (mut exact, mut eight) = (Inference::default(), Inference::default());
        net.infer(test, 32, &mut exact);
        // Forced off VNNI, the quantized network takes the f32 path: the same outputs to the bit.
        let mut fallback = quantized.clone();
        fallback.int8.as_mut().expect("quantized").vnni = false;
        assert_eq!(fallback.precision(), Precision::F32);
        let mut plain = Inference::default();
        fallback.infer(test, 32, &mut plain);
        assert_eq!((&exact.policy, &exact.wdl), (&plain.policy, &plain.wdl), "the f32 fallback");
        if !int8::available() {
            assert_eq!(quantized.precision(), Precision::F32);
            return;
        }
        quantized.infer(test, 32, &mut eight);
        assert_eq!(quantized.precision(), Precision::Int8);
        let value = |w: &[f32]| w[0] - w[2];
        let mut agree = 0;
        for p in 0..32 {
            let top = |logits: &[f32]| (0..40).max_by(|&a, &b| logits[a].total_cmp(&logits[b])).unwrap();
            agree += usize::from(top(&exact.policy[p * 40..][..40]) == top(&eight.policy[p * 40..][..40]));
            let d = (value(&exact.wdl[p * 3..][..3]) - value(&eight.wdl[p * 3..][..3])).abs();
            assert!(d < 0.05, "position {p}: value differs by {d}");
        }
        assert!(agree >= 30, "the most likely move agrees in {agree} of 32");
    }
}
