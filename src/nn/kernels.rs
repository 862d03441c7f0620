//! The numeric kernels the inference forward pass ([`super::inference`]) and the training step
//! ([`super::backprop`]) share: matrix products over `gemm`, im2col for 3 × 3 and 1 × 1 convolutions
//! on channels-last activations, and small helpers. Every matrix is a plain `f32` slice with its
//! shape given alongside; nothing here allocates.

/// A matrix as `gemm` reads it: element `(i, j)` of an `rows × columns` matrix lies at
/// `data[i · row_stride + j · column_stride]`.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    data: &'a [f32],
    rows: usize,
    columns: usize,
    row_stride: usize,
    column_stride: usize,
}

impl<'a> View<'a> {
    /// A row-major `rows × columns` matrix.
    pub fn rows(data: &'a [f32], rows: usize, columns: usize) -> View<'a> {
        View { data, rows, columns, row_stride: columns, column_stride: 1 }
    }

    /// The transpose of a row-major `columns × rows` matrix, read in place.
    pub fn transposed(data: &'a [f32], rows: usize, columns: usize) -> View<'a> {
        View { data, rows, columns, row_stride: 1, column_stride: rows }
    }

    /// The last element's index plus one: how long `data` must be.
    fn extent(&self) -> usize {
        if self.rows == 0 || self.columns == 0 {
            0
        } else {
            (self.rows - 1) * self.row_stride + (self.columns - 1) * self.column_stride + 1
        }
    }
}

/// `out[m × n] (+)= lhs[m × k] · rhs[k × n]`, `out` row-major; adds to `out` when `accumulate`.
pub fn matmul(out: &mut [f32], lhs: View, rhs: View, accumulate: bool) {
    let (m, k, n) = (lhs.rows, lhs.columns, rhs.columns);
    assert_eq!(rhs.rows, k, "inner dimensions agree");
    assert!(out.len() >= m * n, "the output holds {m} × {n}");
    assert!(
        lhs.data.len() >= lhs.extent() && rhs.data.len() >= rhs.extent(),
        "the views lie in their slices"
    );
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        if !accumulate {
            out[..m * n].fill(0.0);
        }
        return;
    }
    // SAFETY: `out` holds the `m × n` row-major output (checked above) and is borrowed mutably, so it
    // overlaps neither input; every element the strides of `lhs` and `rhs` reach lies inside their slices
    // (their extents are checked above).
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            out.as_mut_ptr(),
            1,
            n as isize,
            accumulate,
            lhs.data.as_ptr(),
            lhs.column_stride as isize,
            lhs.row_stride as isize,
            rhs.data.as_ptr(),
            rhs.column_stride as isize,
            rhs.row_stride as isize,
            1.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
}

/// Where element `(position, y, x, channel)` of a stack of feature maps lies.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub position: usize,
    pub y: usize,
    pub x: usize,
    pub channel: usize,
}

impl Layout {
    /// Channels-last activations: row `(position · height + y) · width + x`, one channel per column.
    pub fn channels_last((width, height): (usize, usize), channels: usize) -> Layout {
        Layout { position: height * width * channels, y: width * channels, x: channels, channel: 1 }
    }
}

/// Writes each cell's `k × k` neighbourhood (zero beyond the board's edge, as `Same` padding) as one
/// row of `columns`: row `(position · height + y) · width + x`, column `(ky · k + kx) · channels + c`.
pub fn im2col(
    input: &[f32],
    layout: Layout,
    positions: usize,
    (width, height): (usize, usize),
    channels: usize,
    kernel: usize,
    columns: &mut [f32],
) {
    let reach = kernel / 2;
    let depth = kernel * kernel * channels;
    let mut rows = columns[..positions * height * width * depth].chunks_exact_mut(depth);
    for p in 0..positions {
        for y in 0..height {
            for x in 0..width {
                let row = rows.next().expect("one row per cell");
                for (k, patch) in row.chunks_exact_mut(channels).enumerate() {
                    let (sy, sx) =
                        ((y + k / kernel).wrapping_sub(reach), (x + k % kernel).wrapping_sub(reach));
                    if sy >= height || sx >= width {
                        patch.fill(0.0);
                        continue;
                    }
                    let start = p * layout.position + sy * layout.y + sx * layout.x;
                    if layout.channel == 1 {
                        patch.copy_from_slice(&input[start..start + channels]);
                    } else {
                        for (c, value) in patch.iter_mut().enumerate() {
                            *value = input[start + c * layout.channel];
                        }
                    }
                }
            }
        }
    }
}

/// The encoder's planes (`[position][channel][cell]`) as channels-last rows (`[position][cell][channel]`).
pub fn planes_to_rows(planes: &[f32], cells: usize, channels: usize, rows: &mut [f32]) {
    let per_position = cells * channels;
    for (position, out) in planes.chunks_exact(per_position).zip(rows.chunks_exact_mut(per_position)) {
        for c in 0..channels {
            for cell in 0..cells {
                out[cell * channels + c] = position[c * cells + cell];
            }
        }
    }
}

/// `e^x` to within 2 units in the last place over the range a softmax meets (`x ≤ 0`; below −87 it
/// is 0), in plain arithmetic that the compiler vectorises, unlike a call to the C library's `expf`:
/// `x = n ln 2 + r` with |r| ≤ ln 2 / 2, `e^r` by its Taylor polynomial to degree 7, and `2^n` put
/// in the exponent bits.
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    // Adding 1.5 · 2²³ rounds to an integer, which then sits in the low bits of the sum.
    const SHIFTER: f32 = 12_582_912.0;
    let x = x.clamp(-87.0, 88.0);
    let shifted = x * std::f32::consts::LOG2_E + SHIFTER;
    let n = shifted - SHIFTER;
    // ln 2 in two parts (Cody and Waite), so that `x − n ln 2` loses nothing.
    let r = (x - n * 0.693_145_75) - n * 1.428_606_8e-6;
    let mut p = 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    let exponent = shifted.to_bits().wrapping_sub(SHIFTER.to_bits()).wrapping_add(127);
    p * f32::from_bits(exponent << 23)
}

/// Lanes of the sums below: independent accumulators let the compiler vectorise a floating-point sum
/// (it may not reorder one running total).
const LANES: usize = 16;

/// `Σ f(i)` for `i < len`, in [`LANES`] interleaved partial sums.
#[inline(always)]
pub fn sum_by(len: usize, mut f: impl FnMut(usize) -> f32) -> f32 {
    let mut lanes = [0.0f32; LANES];
    let whole = len / LANES * LANES;
    for start in (0..whole).step_by(LANES) {
        for (lane, total) in lanes.iter_mut().enumerate() {
            *total += f(start + lane);
        }
    }
    let tail: f32 = (whole..len).map(&mut f).sum();
    lanes.iter().sum::<f32>() + tail
}

/// Runs `work` compiled for AVX-512 where the CPU has it, so that the plain loops inlined into it
/// (elementwise passes, sums, the softmax) vectorise sixteen lanes wide with fused multiply-adds; the
/// crate itself is built for any x86-64. Elsewhere `work` runs as it is.
#[inline]
pub fn vectorised<R>(work: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx512f,avx512vl,avx2,fma")]
        fn wide<R>(work: impl FnOnce() -> R) -> R {
            work()
        }
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: the CPU has the features `wide` is compiled for (checked just above).
            return unsafe { wide(work) };
        }
    }
    work()
}

pub fn relu(values: &mut [f32]) {
    values.iter_mut().for_each(|v| *v = v.max(0.0));
}

/// Grows `buffer` to at least `len` elements (never shrinks, so a warm buffer is reused).
pub fn grow(buffer: &mut Vec<f32>, len: usize) {
    if buffer.len() < len {
        buffer.resize(len, 0.0);
    }
}

/// Grows `buffer` to hold `len` elements from a cache-line (64-byte) boundary, and returns them: a
/// 16-lane load or store that straddles two lines costs two.
pub fn grow_aligned(buffer: &mut Vec<f32>, len: usize) -> &mut [f32] {
    grow(buffer, len + 15);
    let skip = buffer.as_ptr().align_offset(64).min(15);
    &mut buffer[skip..skip + len]
}

#[cfg(test)]
mod tests {
    #[test]
    fn aligned_buffers_start_on_a_cache_line() {
        let mut buffer = Vec::new();
        for len in [1, 100, 5000] {
            let slice = super::grow_aligned(&mut buffer, len);
            assert_eq!((slice.len(), slice.as_ptr() as usize % 64), (len, 0));
        }
    }

    #[test]
    fn exp_is_within_two_ulps_of_the_c_library() {
        let mut worst = 0.0f64;
        for i in 0..=2_000_000 {
            let x = -87.0 + 95.0 * i as f32 / 2_000_000.0;
            let (ours, libm) = (super::exp(x) as f64, x.exp() as f64);
            worst = worst.max((ours - libm).abs() / libm);
        }
        assert!(worst < 2.5e-7, "relative error {worst}");
        assert_eq!(super::exp(0.0), 1.0);
        assert!(super::exp(-100.0) < 1e-37);
    }
}
