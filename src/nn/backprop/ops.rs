//! The operations of a training step, each run over a batch cut into a fixed number of chunks of
//! consecutive positions that run in parallel. A chunk walks its positions a tile at a time, so that a
//! tile's activations and gradients stay in the core's cache between the operations on them; a chunk's
//! sums (batch-norm statistics, weight gradients) go to its own [`Partial`] and are added in chunk
//! order, so results depend only on the batch, not on how many threads ran it.

use std::cell::RefCell;
use std::ops::Range;

use rayon::prelude::*;

use crate::nn::conv::{self, Neighbours};
use crate::nn::kernels::{View, exp, grow, matmul, planes_to_rows, sum_by, vectorised};

/// Rows (cells of a tile's positions) a tile aims at: a tile's activations, gradients and their
/// products stay within a core's L2 cache.
const TILE_ROWS: usize = 2048;
/// Chunks a batch is cut into: enough to keep two to eight cores busy, few enough that adding their
/// weight gradients costs little.
const CHUNKS: usize = 8;

/// The batch's shape and how it is cut.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub cells: usize,
    pub neighbours: Neighbours,
    pub positions: usize,
    /// Positions per tile.
    pub tile: usize,
    /// The positions of each chunk.
    pub chunks: Vec<Range<usize>>,
}

impl Geometry {
    pub fn new(grid: (usize, usize), positions: usize) -> Geometry {
        let cells = grid.0 * grid.1;
        let count = CHUNKS.min(positions).max(1);
        let chunks = (0..count).map(|c| c * positions / count..(c + 1) * positions / count).collect();
        // A multiple of the convolution kernels' block of 12 positions.
        let tile = (TILE_ROWS / cells / 12).max(1) * 12;
        Geometry { cells, neighbours: Neighbours::new(grid), positions, tile, chunks }
    }

    pub fn rows(&self) -> usize {
        self.positions * self.cells
    }
}

/// One chunk's sums.
#[derive(Clone, Debug, Default)]
pub struct Partial {
    pub weights: Vec<f32>,
    pub bias: Vec<f32>,
    /// Two sums per channel (Σ z and Σ z², or Σ dy and Σ dy · x̂): the first for every channel, then
    /// the second.
    pub sums: Vec<f64>,
}

/// What a convolution reads.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// The encoder's planes, channels first.
    Planes(&'a [f32]),
    /// A layer's channels-last activations.
    Activations(&'a [f32]),
}

/// A `k × k` convolution without bias: `weights` is `[k · k · inputs, outputs]`.
#[derive(Clone, Copy, Debug)]
pub struct Conv<'a> {
    pub kernel: usize,
    pub inputs: usize,
    pub outputs: usize,
    pub weights: &'a [f32],
}

/// One thread's working memory.
#[derive(Default)]
struct Scratch {
    /// The source's rows (planes turned channels-last), or the fallback's im2col matrix.
    rows: Vec<f32>,
    columns: Vec<f32>,
    gradient: Vec<f32>,
    input_gradient: Vec<f32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Splits `buffer` (rows of `width` per position) into the chunks' parts.
pub fn split_mut<'a>(buffer: &'a mut [f32], geometry: &Geometry, per_position: usize) -> Vec<&'a mut [f32]> {
    let mut rest = buffer;
    let mut parts = Vec::with_capacity(geometry.chunks.len());
    for chunk in &geometry.chunks {
        let (part, tail) = rest.split_at_mut(chunk.len() * per_position);
        parts.push(part);
        rest = tail;
    }
    parts
}

/// Runs `work(positions, partial, part)` on every chunk in parallel, each with its own partial and
/// its own part of an output (`()` where there is none).
fn for_chunks<T: Send>(
    geometry: &Geometry,
    partials: &mut [Partial],
    parts: Vec<T>,
    work: impl Fn(Range<usize>, &mut Partial, T) + Sync,
) {
    assert_eq!(parts.len(), geometry.chunks.len(), "one part per chunk");
    partials[..geometry.chunks.len()]
        .par_iter_mut()
        .zip(parts)
        .zip(&geometry.chunks)
        .for_each(|((partial, part), range)| vectorised(|| work(range.clone(), partial, part)));
}

/// No output part for any chunk.
fn nothing(geometry: &Geometry) -> Vec<()> {
    vec![(); geometry.chunks.len()]
}

impl Source<'_> {
    /// The channels-last rows of positions `range`: an activation's own rows, or the planes turned
    /// channels-last in `scratch`.
    fn rows<'s>(
        &'s self,
        geometry: &Geometry,
        channels: usize,
        range: Range<usize>,
        scratch: &'s mut Vec<f32>,
    ) -> &'s [f32] {
        let cells = geometry.cells;
        match *self {
            Source::Activations(rows) => &rows[range.start * cells * channels..range.end * cells * channels],
            Source::Planes(planes) => {
                let len = range.len() * cells * channels;
                grow(scratch, len);
                let planes = &planes[range.start * cells * channels..range.end * cells * channels];
                planes_to_rows(planes, cells, channels, &mut scratch[..len]);
                &scratch[..len]
            }
        }
    }
}

/// The tiles of a chunk's positions.
fn tiles(range: Range<usize>, tile: usize) -> impl Iterator<Item = Range<usize>> {
    range.clone().step_by(tile).map(move |start| start..(start + tile).min(range.end))
}

/// `z = conv(source)` for the whole batch, with each chunk's Σ z and Σ z² per output channel in its
/// partial's `sums`.
pub fn conv_forward(
    geometry: &Geometry,
    conv: &Conv,
    source: Source,
    z: &mut [f32],
    partials: &mut [Partial],
) {
    let (cells, outputs) = (geometry.cells, conv.outputs);
    let parts = split_mut(z, geometry, cells * outputs);
    for_chunks(geometry, partials, parts, |range, partial, z| {
        partial.sums.clear();
        partial.sums.resize(2 * outputs, 0.0);
        SCRATCH.with_borrow_mut(|scratch| {
            let Scratch { rows: source_rows, columns, .. } = scratch;
            for tile in tiles(range.clone(), geometry.tile) {
                let rows = tile.len() * cells;
                let x = source.rows(geometry, conv.inputs, tile.clone(), source_rows);
                let offset = (tile.start - range.start) * cells * outputs;
                let out = &mut z[offset..offset + rows * outputs];
                conv.apply(geometry, x, tile.len(), out, columns);
                let (sums, squares) = partial.sums.split_at_mut(outputs);
                for row in out.chunks_exact(outputs) {
                    for o in 0..outputs {
                        let value = row[o] as f64;
                        sums[o] += value;
                        squares[o] += value * value;
                    }
                }
            }
        });
    });
}

impl Conv<'_> {
    /// `out = conv(x)` for `positions` positions of channels-last rows.
    fn apply(
        &self,
        geometry: &Geometry,
        x: &[f32],
        positions: usize,
        out: &mut [f32],
        scratch: &mut Vec<f32>,
    ) {
        let rows = positions * geometry.cells;
        if self.kernel == 3 {
            conv::forward(
                out,
                x,
                positions,
                &geometry.neighbours,
                self.inputs,
                self.weights,
                self.outputs,
                false,
                scratch,
            );
        } else {
            matmul(
                out,
                View::rows(x, rows, self.inputs),
                View::rows(self.weights, self.inputs, self.outputs),
                false,
            );
        }
    }
}

/// Adds the chunks' `sums` in chunk order: `(first sums, second sums)` per channel.
pub fn add_sums(geometry: &Geometry, partials: &[Partial], channels: usize) -> (Vec<f64>, Vec<f64>) {
    let (mut first, mut second) = (vec![0.0; channels], vec![0.0; channels]);
    for partial in &partials[..geometry.chunks.len()] {
        for o in 0..channels {
            first[o] += partial.sums[o];
            second[o] += partial.sums[channels + o];
        }
    }
    (first, second)
}

/// The batch norm in training mode, then the skip connection and the ReLU:
/// `act = max(0, γ (z − mean) / σ + β + skip)`, with `scale = γ / σ` and `shift = β − mean · scale`.
pub fn norm_forward(
    geometry: &Geometry,
    channels: usize,
    z: &[f32],
    scale: &[f32],
    shift: &[f32],
    skip: Option<&[f32]>,
    act: &mut [f32],
) {
    let rows = geometry.rows();
    act[..rows * channels].par_chunks_mut(TILE_ROWS * channels).enumerate().for_each(|(t, out)| {
        vectorised(|| {
            let start = t * TILE_ROWS * channels;
            let z = &z[start..start + out.len()];
            for (r, (out, z)) in out.chunks_exact_mut(channels).zip(z.chunks_exact(channels)).enumerate() {
                for o in 0..channels {
                    out[o] = z[o] * scale[o] + shift[o];
                }
                if let Some(skip) = skip {
                    let skip = &skip[start + r * channels..start + (r + 1) * channels];
                    out.iter_mut().zip(skip).for_each(|(y, s)| *y += s);
                }
                out.iter_mut().for_each(|y| *y = y.max(0.0));
            }
        })
    });
}

/// Each chunk's Σ dy and Σ dy · x̂ per channel (x̂ = (z − mean) · inv_std), for the norm's backward.
pub fn norm_backward_sums(
    geometry: &Geometry,
    channels: usize,
    dy: &[f32],
    z: &[f32],
    mean: &[f32],
    inv_std: &[f32],
    partials: &mut [Partial],
) {
    let cells = geometry.cells;
    for_chunks(geometry, partials, nothing(geometry), |range, partial, ()| {
        partial.sums.clear();
        partial.sums.resize(2 * channels, 0.0);
        let span = range.start * cells * channels..range.end * cells * channels;
        let (sums, products) = partial.sums.split_at_mut(channels);
        for (dy, z) in dy[span.clone()].chunks_exact(channels).zip(z[span].chunks_exact(channels)) {
            for o in 0..channels {
                let normalised = (z[o] - mean[o]) * inv_std[o];
                sums[o] += dy[o] as f64;
                products[o] += (dy[o] * normalised) as f64;
            }
        }
    });
}

/// Where a convolution's input gradient goes: `out = (out if accumulate) + dx (+ skip)`, then zero
/// where `mask` (the input's own activations, after their ReLU) is zero.
pub struct InputGradient<'a> {
    pub out: &'a mut [f32],
    pub accumulate: bool,
    pub skip: Option<&'a [f32]>,
    pub mask: Option<&'a [f32]>,
}

/// The backward of `norm(conv(source))` given `dy`, the gradient of the norm's output: the norm's input
/// gradient `dz = scale · (dy − Σdy / n − x̂ · Σ(dy x̂) / n)` tile by tile, each chunk's weight gradient
/// `Σ im2col(source)ᵀ · dz` in its partial's `weights`, and, when `input` is given, the source's
/// gradient: the convolution of `dz` with `transposed` (the weights of the transposed convolution,
/// [`conv::transposed_weights`]) for a 3 × 3 convolution, `dz · weightsᵀ` for a 1 × 1 one.
pub fn conv_backward(
    geometry: &Geometry,
    conv: &Conv,
    transposed: &[f32],
    source: Source,
    norm: &NormBackward,
    input: Option<InputGradient>,
    partials: &mut [Partial],
) {
    let (cells, outputs, inputs) = (geometry.cells, conv.outputs, conv.inputs);
    let (accumulate, skip, mask) =
        input.as_ref().map_or((false, None, None), |i| (i.accumulate, i.skip, i.mask));
    let parts: Vec<Option<&mut [f32]>> = match input {
        Some(input) => split_mut(input.out, geometry, cells * inputs).into_iter().map(Some).collect(),
        None => geometry.chunks.iter().map(|_| None).collect(),
    };
    for_chunks(geometry, partials, parts, |range, partial, mut out| {
        partial.weights.clear();
        partial.weights.resize(conv.kernel * conv.kernel * inputs * outputs, 0.0);
        SCRATCH.with_borrow_mut(|scratch| {
            let Scratch { rows: source_rows, columns, gradient, input_gradient } = scratch;
            for tile in tiles(range.clone(), geometry.tile) {
                let rows = tile.len() * cells;
                grow(gradient, rows * outputs);
                let dz = &mut gradient[..rows * outputs];
                norm.input_gradient(tile.start * cells..tile.end * cells, dz);
                let x = source.rows(geometry, inputs, tile.clone(), source_rows);
                if conv.kernel == 3 {
                    conv::weight_gradient(
                        &mut partial.weights,
                        x,
                        tile.len(),
                        &geometry.neighbours,
                        inputs,
                        dz,
                        outputs,
                        columns,
                    );
                } else {
                    matmul(
                        &mut partial.weights,
                        View::transposed(x, inputs, rows),
                        View::rows(dz, rows, outputs),
                        true,
                    );
                }
                let Some(out) = out.as_deref_mut() else { continue };
                grow(input_gradient, rows * inputs);
                let dx = &mut input_gradient[..rows * inputs];
                if conv.kernel == 3 {
                    conv::forward(
                        dx,
                        dz,
                        tile.len(),
                        &geometry.neighbours,
                        outputs,
                        transposed,
                        inputs,
                        false,
                        columns,
                    );
                } else {
                    matmul(
                        dx,
                        View::rows(dz, rows, outputs),
                        View::transposed(conv.weights, outputs, inputs),
                        false,
                    );
                }
                let offset = (tile.start - range.start) * cells * inputs;
                let out = &mut out[offset..offset + rows * inputs];
                let global = tile.start * cells * inputs..tile.end * cells * inputs;
                combine(out, dx, accumulate, skip.map(|s| &s[global.clone()]), mask.map(|m| &m[global]));
            }
        });
    });
}

/// `out = (out if accumulate) + dx (+ skip)`, zeroed where `mask` is not positive.
fn combine(out: &mut [f32], dx: &[f32], accumulate: bool, skip: Option<&[f32]>, mask: Option<&[f32]>) {
    for i in 0..out.len() {
        let mut value = dx[i];
        if accumulate {
            value += out[i];
        }
        if let Some(skip) = skip {
            value += skip[i];
        }
        if let Some(mask) = mask
            && mask[i] <= 0.0
        {
            value = 0.0;
        }
        out[i] = value;
    }
}

/// What the norm's backward needs: its statistics and sums.
pub struct NormBackward<'a> {
    pub channels: usize,
    pub dy: &'a [f32],
    pub z: &'a [f32],
    pub mean: &'a [f32],
    pub inv_std: &'a [f32],
    /// `γ · inv_std` per channel.
    pub scale: &'a [f32],
    /// `Σ dy / n` and `Σ dy · x̂ / n` per channel.
    pub mean_dy: &'a [f32],
    pub mean_dy_normalised: &'a [f32],
}

impl NormBackward<'_> {
    /// `dz` for the batch's rows `rows`.
    fn input_gradient(&self, rows: Range<usize>, dz: &mut [f32]) {
        let c = self.channels;
        let span = rows.start * c..rows.end * c;
        for ((dz, dy), z) in dz
            .chunks_exact_mut(c)
            .zip(self.dy[span.clone()].chunks_exact(c))
            .zip(self.z[span].chunks_exact(c))
        {
            for o in 0..c {
                let normalised = (z[o] - self.mean[o]) * self.inv_std[o];
                dz[o] = self.scale[o] * (dy[o] - self.mean_dy[o] - normalised * self.mean_dy_normalised[o]);
            }
        }
    }
}

/// A fully connected layer applied to every row: `[rows, inputs] · [inputs, outputs] + bias`, where a
/// position has `rows_per_position` rows (its cells for the per-cell policy layer, one for a dense one).
#[derive(Clone, Copy, Debug)]
pub struct Linear<'a> {
    pub rows_per_position: usize,
    pub inputs: usize,
    pub outputs: usize,
    pub weights: &'a [f32],
    pub bias: &'a [f32],
}

/// `out = x · W + b` (then ReLU when `relu`).
pub fn linear_forward(geometry: &Geometry, layer: &Linear, x: &[f32], out: &mut [f32], relu: bool) {
    let r = layer.rows_per_position;
    let parts = split_mut(out, geometry, r * layer.outputs);
    parts.into_par_iter().zip(geometry.chunks.par_iter()).for_each(|(out, range)| {
        let rows = range.len() * r;
        let x = &x[range.start * r * layer.inputs..range.end * r * layer.inputs];
        for row in out.chunks_exact_mut(layer.outputs) {
            row.copy_from_slice(layer.bias);
        }
        matmul(
            out,
            View::rows(x, rows, layer.inputs),
            View::rows(layer.weights, layer.inputs, layer.outputs),
            true,
        );
        if relu {
            out.iter_mut().for_each(|v| *v = v.max(0.0));
        }
    });
}

/// Given `dy`, each chunk's `xᵀ · dy` and `Σ dy` in its partial, and the input gradient `dy · Wᵀ`,
/// zeroed where `mask` is not positive.
pub fn linear_backward(
    geometry: &Geometry,
    layer: &Linear,
    x: &[f32],
    dy: &[f32],
    dx: Option<(&mut [f32], Option<&[f32]>)>,
    partials: &mut [Partial],
) {
    let r = layer.rows_per_position;
    let (inputs, outputs) = (layer.inputs, layer.outputs);
    let mask = dx.as_ref().and_then(|(_, mask)| *mask);
    let parts: Vec<Option<&mut [f32]>> = match dx {
        Some((out, _)) => split_mut(out, geometry, r * inputs).into_iter().map(Some).collect(),
        None => geometry.chunks.iter().map(|_| None).collect(),
    };
    for_chunks(geometry, partials, parts, |range, partial, out| {
        let rows = range.len() * r;
        let x = &x[range.start * r * inputs..range.end * r * inputs];
        let dy = &dy[range.start * r * outputs..range.end * r * outputs];
        partial.weights.clear();
        partial.weights.resize(inputs * outputs, 0.0);
        matmul(&mut partial.weights, View::transposed(x, inputs, rows), View::rows(dy, rows, outputs), false);
        partial.bias.clear();
        partial.bias.resize(outputs, 0.0);
        for row in dy.chunks_exact(outputs) {
            partial.bias.iter_mut().zip(row).for_each(|(b, d)| *b += d);
        }
        if let Some(out) = out {
            matmul(
                out,
                View::rows(dy, rows, outputs),
                View::transposed(layer.weights, outputs, inputs),
                false,
            );
            if let Some(mask) = mask {
                let mask = &mask[range.start * r * inputs..range.end * r * inputs];
                out.iter_mut().zip(mask).for_each(|(g, &m)| {
                    if m <= 0.0 {
                        *g = 0.0
                    }
                });
            }
        }
    });
}

/// Adds the chunks' `weights` (and `bias`) into `weights_out` (and `bias_out`), in chunk order.
pub fn add_gradients(
    geometry: &Geometry,
    partials: &[Partial],
    weights_out: &mut [f32],
    bias_out: Option<&mut [f32]>,
) {
    weights_out.fill(0.0);
    for partial in &partials[..geometry.chunks.len()] {
        weights_out.iter_mut().zip(&partial.weights).for_each(|(g, p)| *g += p);
    }
    if let Some(bias_out) = bias_out {
        bias_out.fill(0.0);
        for partial in &partials[..geometry.chunks.len()] {
            bias_out.iter_mut().zip(&partial.bias).for_each(|(g, p)| *g += p);
        }
    }
}

/// The policy loss `−Σ t · log softmax(z)` averaged over the batch, with its gradient
/// `(softmax(z) · Σ t − t) / n` written over the logits.
pub fn policy_loss(geometry: &Geometry, actions: usize, logits: &mut [f32], target: &[f32]) -> f64 {
    let n = geometry.positions as f32;
    let losses: Vec<f64> = logits[..geometry.positions * actions]
        .par_chunks_mut(actions)
        .zip(target.par_chunks(actions))
        .map(|(z, t)| {
            vectorised(|| {
                let max = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                // −Σ t log p = −Σ t (z − max) + Σ t · log Σ e^(z − max).
                let target_logits = sum_by(actions, |a| t[a] * (z[a] - max));
                let mass = sum_by(actions, |a| t[a]);
                let sum = sum_by(actions, |a| {
                    z[a] = exp(z[a] - max);
                    z[a]
                });
                let inverse = 1.0 / sum;
                for (z, &t) in z.iter_mut().zip(t) {
                    *z = (*z * inverse * mass - t) / n;
                }
                (mass * sum.ln() - target_logits) as f64
            })
        })
        .collect();
    losses.iter().sum::<f64>() / geometry.positions as f64
}

/// Whether `chunks` covers `0..positions` in order (a check for the tests).
#[cfg(test)]
pub fn covers(geometry: &Geometry) -> bool {
    geometry.chunks.first().is_some_and(|c| c.start == 0)
        && geometry.chunks.last().is_some_and(|c| c.end == geometry.positions)
        && geometry.chunks.windows(2).all(|w| w[0].end == w[1].start)
}
