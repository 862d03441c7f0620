//! 8-bit inference of the residual tower's 3 × 3 convolutions, on the CPU's VNNI instructions
//! (`vpdpbusd`: 64 multiply-adds of unsigned 8-bit activations by signed 8-bit weights into 32-bit sums
//! per instruction, against 16 for an f32 fused multiply-add).
//!
//! Post-training quantization: each convolution's weights (batch norm folded in) are rounded per
//! output channel to `[−127, 127]` with that channel's scale; its input (a ReLU's output, never
//! negative) to `[0, 255]` with one scale per layer, calibrated on positions of the network's own
//! games ([`Scales`]). A product is summed exactly in 32 bits and turned back into f32 with the two
//! scales and the bias, so the skip connections, the ReLUs and the heads stay in f32.
//!
//! Layout: a layer's quantized input is each position's board with a border of zero cells
//! (`(height + 2) × (width + 2)` cells of `padded` channels, a multiple of 4), so every output cell reads its
//! nine taps at the same offsets and no tap needs a test for the edge (the border's products are
//! zeros, which VNNI multiplies faster than the f32 kernels skip them).

use serde::{Deserialize, Serialize};

/// Whether this CPU runs the 8-bit kernels (AVX-512 with VNNI and byte/word instructions).
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vnni")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The calibrated scales of a network's layers: for each 3 × 3 convolution, in forward order (stem,
/// then each block's two), the largest input value it is fitted to (the largest it met on the
/// calibration positions).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scales {
    pub inputs: Vec<f32>,
    /// How they were measured, for the record.
    #[serde(default)]
    pub source: String,
}

/// The largest of a layer's input values (at least a tiny positive number): its scale. Not a
/// percentile: clipping the rare large activations cost more than the resolution it bought (clipped at
/// the 99.99th percentile, sixteen-rebels' value moved by 0.010 on average and up to 1.45 on study
/// positions; unclipped, 0.0056 and 0.40; docs/BENCHMARKS.md).
pub fn largest(values: &[f32]) -> f32 {
    values.iter().fold(1e-6_f32, |a, &b| a.max(b))
}

/// Values to 8 bits: rounded half up (they are never negative, or a ReLU makes them 0), clamped to 255.
#[inline(always)]
fn convert(from: &[f32], to: &mut [u8], inverse: f32) {
    let whole = from.len() / 16 * 16;
    #[cfg(target_arch = "x86_64")]
    if available() {
        // SAFETY: the CPU has AVX-512 (checked), and each chunk of 16 lies in both slices.
        unsafe { vnni::convert(&from[..whole], &mut to[..whole], inverse) };
    } else {
        convert_plain(&from[..whole], &mut to[..whole], inverse);
    }
    #[cfg(not(target_arch = "x86_64"))]
    convert_plain(&from[..whole], &mut to[..whole], inverse);
    convert_plain(&from[whole..], &mut to[whole..], inverse);
}

fn convert_plain(from: &[f32], to: &mut [u8], inverse: f32) {
    for (q, &x) in to.iter_mut().zip(from) {
        *q = (x * inverse + 0.5) as u8;
    }
}

/// A thread's 8-bit inputs, one buffer per padded channel count, so that each buffer's border and
/// padding channels, zero when it grew, are never written.
#[derive(Default)]
pub struct Buffers(Vec<(usize, Vec<u8>)>);

impl Buffers {
    /// The buffer of inputs padded to `padded` channels.
    pub fn of(&mut self, padded: usize) -> &mut Vec<u8> {
        let at = match self.0.iter().position(|(p, _)| *p == padded) {
            Some(at) => at,
            None => {
                self.0.push((padded, Vec::new()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }
}

/// A board's cells in the padded layout.
#[derive(Clone, Debug)]
pub struct Padded {
    pub width: usize,
    pub height: usize,
    /// Cells per position with the border: `(height + 2) × (width + 2)`.
    pub cells: usize,
    /// For each board cell, its padded cell.
    inner: Vec<usize>,
    /// For each tap (row-major 3 × 3), the offset of its cell from the centre's, in padded cells.
    taps: [isize; 9],
}

impl Padded {
    pub fn new((width, height): (usize, usize)) -> Padded {
        let stride = width + 2;
        let inner = (0..width * height).map(|cell| (cell / width + 1) * stride + cell % width + 1).collect();
        let taps = std::array::from_fn(|t| {
            (t / 3) as isize * stride as isize + (t % 3) as isize - stride as isize - 1
        });
        Padded { width, height, cells: (width + 2) * (height + 2), inner, taps }
    }
}

/// One 3 × 3 convolution quantized.
#[derive(Clone, Debug)]
pub struct Conv {
    pub inputs: usize,
    /// Inputs rounded up to a multiple of 4 (the zero channels add nothing).
    pub padded: usize,
    pub outputs: usize,
    /// `[tap][inputs / 4][outputs][4]`: four consecutive inputs of one output next to each other, as
    /// `vpdpbusd` takes them.
    weights: Vec<i8>,
    /// The input's scale (a unit of 8 bits in the input's values) and its inverse.
    pub input_scale: f32,
    inverse: f32,
    /// Per output: the input's scale times the weights' (a unit of the 32-bit sum).
    unit: Vec<f32>,
    bias: Vec<f32>,
}

impl Conv {
    /// `weights` as the f32 path keeps them (`[9 · inputs, outputs]`, row `tap · inputs + c`), for an
    /// input whose values the scale `largest` covers.
    pub fn new(weights: &[f32], bias: &[f32], inputs: usize, outputs: usize, largest: f32) -> Conv {
        assert_eq!(weights.len(), 9 * inputs * outputs);
        let padded = inputs.div_ceil(4) * 4;
        let input_scale = largest / 255.0;
        let mut quantized = vec![0i8; 9 * padded * outputs];
        let mut unit = vec![0.0; outputs];
        for o in 0..outputs {
            let most = (0..9 * inputs).map(|row| weights[row * outputs + o].abs()).fold(0.0f32, f32::max);
            let scale = if most > 0.0 { most / 127.0 } else { 1.0 };
            unit[o] = scale * input_scale;
            for tap in 0..9 {
                for c in 0..inputs {
                    let w = weights[(tap * inputs + c) * outputs + o];
                    let at = ((tap * padded / 4 + c / 4) * outputs + o) * 4 + c % 4;
                    quantized[at] = (w / scale).round().clamp(-127.0, 127.0) as i8;
                }
            }
        }
        Conv {
            inputs,
            padded,
            outputs,
            weights: quantized,
            input_scale,
            inverse: 1.0 / input_scale,
            unit,
            bias: bias.to_vec(),
        }
    }

    /// The input rows (`positions × cells` channels-last rows of `inputs` values, never negative) in
    /// 8 bits, into the padded layout (`positions × padded cells × padded channels`). Only the board's
    /// cells and the input channels are written: the border and the padding channels stay as they were,
    /// zero in a buffer that only ever holds this layout (see [`Buffers`]).
    #[inline]
    pub fn quantize(&self, input: &[f32], positions: usize, board: &Padded, out: &mut Vec<u8>) {
        let per_position = board.cells * self.padded;
        if out.len() < positions * per_position {
            out.resize(positions * per_position, 0);
        }
        let (width, stride) = (board.width, board.width + 2);
        for p in 0..positions {
            for y in 0..board.height {
                let from = &input[(p * board.height + y) * width * self.inputs..][..width * self.inputs];
                let to = &mut out[p * per_position + ((y + 1) * stride + 1) * self.padded..]
                    [..width * self.padded];
                if self.padded == self.inputs {
                    convert(from, to, self.inverse);
                } else {
                    for (from, to) in from.chunks_exact(self.inputs).zip(to.chunks_exact_mut(self.padded)) {
                        convert(from, &mut to[..self.inputs], self.inverse);
                    }
                }
            }
        }
    }

    /// `out = conv(input) + bias (+ out when `accumulate`)` from the padded 8-bit input.
    pub fn forward(
        &self,
        quantized: &[u8],
        positions: usize,
        board: &Padded,
        out: &mut [f32],
        accumulate: bool,
    ) {
        let rows = positions * board.inner.len();
        assert!(out.len() >= rows * self.outputs);
        assert!(quantized.len() >= positions * board.cells * self.padded);
        #[cfg(target_arch = "x86_64")]
        if available() && self.outputs.is_multiple_of(16) {
            // SAFETY: the CPU has the features (checked), and the lengths are checked above.
            unsafe { vnni::forward(self, quantized, positions, board, out, accumulate) };
            return;
        }
        self.forward_plain(quantized, positions, board, out, accumulate);
    }

    /// The same sums in plain integer arithmetic (CPUs without VNNI, and the kernels' reference).
    pub fn forward_plain(
        &self,
        quantized: &[u8],
        positions: usize,
        board: &Padded,
        out: &mut [f32],
        accumulate: bool,
    ) {
        let cells = board.inner.len();
        let mut sums = vec![0i32; self.outputs];
        for p in 0..positions {
            for (cell, &centre) in board.inner.iter().enumerate() {
                sums.iter_mut().for_each(|s| *s = 0);
                for (tap, &offset) in board.taps.iter().enumerate() {
                    let at = (p * board.cells) as isize + centre as isize + offset;
                    let x = &quantized[at as usize * self.padded..][..self.padded];
                    for (c, &xc) in x.iter().enumerate() {
                        let base = (tap * self.padded / 4 + c / 4) * self.outputs * 4 + c % 4;
                        for (o, sum) in sums.iter_mut().enumerate() {
                            *sum += i32::from(xc) * i32::from(self.weights[base + o * 4]);
                        }
                    }
                }
                let row = &mut out[(p * cells + cell) * self.outputs..][..self.outputs];
                for (o, y) in row.iter_mut().enumerate() {
                    let value = sums[o] as f32 * self.unit[o] + self.bias[o];
                    *y = if accumulate { *y + value } else { value };
                }
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(clippy::needless_range_loop)]
mod vnni {
    use std::arch::x86_64::*;

    use super::{Conv, Padded};

    /// Output rows per block: 12 rows × 2 vectors of sums, 2 of weights and one broadcast.
    const BLOCK: usize = 12;

    /// [`super::convert`] sixteen values at a time; `from.len()` is a multiple of 16.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub unsafe fn convert(from: &[f32], to: &mut [u8], inverse: f32) {
        let (scale, half, most) = (_mm512_set1_ps(inverse), _mm512_set1_ps(0.5), _mm512_set1_ps(255.0));
        for (from, to) in from.chunks_exact(16).zip(to.chunks_exact_mut(16)) {
            // SAFETY: each chunk holds 16 values and 16 bytes.
            unsafe {
                let x = _mm512_fmadd_ps(_mm512_loadu_ps(from.as_ptr()), scale, half);
                let x = _mm512_min_ps(_mm512_max_ps(x, _mm512_setzero_ps()), most);
                let q = _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(x));
                _mm_storeu_si128(to.as_mut_ptr() as *mut __m128i, q);
            }
        }
    }

    /// See [`Conv::forward`].
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub unsafe fn forward(
        conv: &Conv,
        quantized: &[u8],
        positions: usize,
        board: &Padded,
        out: &mut [f32],
        accumulate: bool,
    ) {
        let cells = board.inner.len();
        let rows = positions * cells;
        let mut start = 0;
        while start < rows {
            let n = BLOCK.min(rows - start);
            // The registers' spare rows repeat the last row, unstored.
            let centres: [usize; BLOCK] = std::array::from_fn(|r| {
                let row = start + r.min(n - 1);
                (row / cells) * board.cells + board.inner[row % cells]
            });
            let mut o = 0;
            while o < conv.outputs {
                // SAFETY: every centre and tap lies inside `quantized`, every row inside `out`.
                unsafe {
                    if conv.outputs - o >= 32 {
                        block::<2>(conv, quantized, board, &centres, out, start, n, o, accumulate);
                        o += 32;
                    } else {
                        block::<1>(conv, quantized, board, &centres, out, start, n, o, accumulate);
                        o += 16;
                    }
                }
            }
            start += n;
        }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    #[inline]
    #[allow(clippy::too_many_arguments)]
    unsafe fn block<const V: usize>(
        conv: &Conv,
        quantized: &[u8],
        board: &Padded,
        centres: &[usize; BLOCK],
        out: &mut [f32],
        start: usize,
        n: usize,
        o: usize,
        accumulate: bool,
    ) {
        let groups = conv.padded / 4;
        let mut acc = [[_mm512_setzero_si512(); V]; BLOCK];
        for tap in 0..9 {
            let offset = board.taps[tap];
            // SAFETY: a centre plus any tap's offset is a cell of the padded board (the border).
            unsafe {
                let pointers: [*const u8; BLOCK] = std::array::from_fn(|r| {
                    quantized.as_ptr().offset((centres[r] as isize + offset) * conv.padded as isize)
                });
                let weights = conv.weights.as_ptr().add((tap * groups * conv.outputs + o) * 4);
                for g in 0..groups {
                    let mut w = [_mm512_setzero_si512(); V];
                    for v in 0..V {
                        w[v] = _mm512_loadu_si512(weights.add((g * conv.outputs + 16 * v) * 4) as *const _);
                    }
                    for r in 0..BLOCK {
                        let x = _mm512_set1_epi32((pointers[r].add(4 * g) as *const i32).read_unaligned());
                        for v in 0..V {
                            acc[r][v] = _mm512_dpbusd_epi32(acc[r][v], x, w[v]);
                        }
                    }
                }
            }
        }
        // SAFETY: the rows stored lie in `out`; `unit` and `bias` hold every output.
        unsafe {
            for v in 0..V {
                let unit = _mm512_loadu_ps(conv.unit.as_ptr().add(o + 16 * v));
                let bias = _mm512_loadu_ps(conv.bias.as_ptr().add(o + 16 * v));
                for r in 0..n {
                    let at = out.as_mut_ptr().add((start + r) * conv.outputs + o + 16 * v);
                    let mut y = _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[r][v]), unit, bias);
                    if accumulate {
                        y = _mm512_add_ps(y, _mm512_loadu_ps(at));
                    }
                    _mm512_storeu_ps(at, y);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(n: usize, seed: usize) -> Vec<f32> {
        (0..n).map(|i| (((i * 7919 + seed * 104_729) % 997) as f32 / 997.0 - 0.5) * 0.6).collect()
    }

    /// The VNNI kernel and the plain sums agree exactly; both are within quantization error of f32.
    #[test]
    fn the_kernel_matches_the_plain_sums_and_f32() {
        for ((width, height), inputs, outputs, positions) in
            [((5, 7), 32, 32, 3), ((9, 9), 13, 16, 2), ((8, 8), 32, 48, 1)]
        {
            let board = Padded::new((width, height));
            let cells = width * height;
            let weights = values(9 * inputs * outputs, 1);
            let bias = values(outputs, 2);
            let input: Vec<f32> =
                values(positions * cells * inputs, 3).iter().map(|v| v.max(0.0) * 3.0).collect();
            let largest = input.iter().copied().fold(0.0, f32::max);
            let conv = Conv::new(&weights, &bias, inputs, outputs, largest);
            let mut quantized = vec![7u8; 3]; // a buffer grown from a non-empty one keeps its old bytes
            quantized.clear();
            conv.quantize(&input, positions, &board, &mut quantized);
            let mut fast = vec![0.5f32; positions * cells * outputs];
            let mut plain = fast.clone();
            conv.forward(&quantized, positions, &board, &mut fast, true);
            conv.forward_plain(&quantized, positions, &board, &mut plain, true);
            for (a, b) in fast.iter().zip(&plain) {
                assert!((a - b).abs() <= 1e-4 * (1.0 + b.abs()), "{a} vs {b}");
            }
            // Against f32 arithmetic: the error is a few units of the scales.
            for p in 0..positions {
                for cell in 0..cells {
                    let (y, x) = (cell / width, cell % width);
                    for o in 0..outputs {
                        let mut sum = bias[o] + 0.5;
                        for tap in 0..9 {
                            let (sy, sx) = ((y + tap / 3).wrapping_sub(1), (x + tap % 3).wrapping_sub(1));
                            if sy < height && sx < width {
                                for c in 0..inputs {
                                    sum += input[(p * cells + sy * width + sx) * inputs + c]
                                        * weights[(tap * inputs + c) * outputs + o];
                                }
                            }
                        }
                        let got = plain[(p * cells + cell) * outputs + o];
                        assert!((got - sum).abs() < 0.05 * (1.0 + sum.abs()), "{got} vs f32 {sum}");
                    }
                }
            }
        }
    }
}
