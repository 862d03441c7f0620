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

pub fn relu(values: &mut [f32]) {
    values.iter_mut().for_each(|v| *v = v.max(0.0));
}

/// Grows `buffer` to at least `len` elements (never shrinks, so a warm buffer is reused).
pub fn grow(buffer: &mut Vec<f32>, len: usize) {
    if buffer.len() < len {
        buffer.resize(len, 0.0);
    }
}
