//! 3 × 3 convolutions ("same" padding, stride 1) over channels-last activations, read in place: no
//! im2col copy, and taps that fall off the board are skipped rather than multiplied by zero (a fifth of
//! all taps on a 5 × 7 board). On x86-64 with AVX-512 the products run in register-blocked kernels of
//! our own; elsewhere, and for channel counts that are not a multiple of 16, they fall back to im2col
//! and `gemm`, with the same results up to rounding.
//!
//! A block of rows is one cell in a dozen positions, whose taps are the same, so that taps beyond the
//! edge are skipped. The positions left over (all of a batch smaller than a dozen) go by groups of
//! cells that lie alike against the edge, so that most missing taps are still skipped: the top row, the
//! bottom row, the rest of the left and right columns, and the interior (a corner reads zeros for the
//! taps its row does not skip: blocking each corner alone was measured slower, its block too small to
//! fill the registers); where the groups are too small to fill a block, by consecutive rows, reading
//! zeros for every missing tap.
//!
//! A convolution's weights are `[9 · inputs, outputs]`, row `tap · inputs + c` with `tap = ky · 3 + kx`;
//! activations are rows `position · cells + cell` of `channels` values.

use super::kernels::{Layout, View, grow, im2col, matmul};

/// The board's cells and, for each cell and tap, the neighbouring cell the tap reads.
#[derive(Clone, Debug)]
pub struct Neighbours {
    pub grid: (usize, usize),
    pub cells: usize,
    /// `taps[cell][tap]`: the cell at offset `(tap / 3 − 1, tap % 3 − 1)` (rows, columns), or `None`
    /// beyond the edge.
    taps: Vec<[Option<u32>; 9]>,
    /// The cells in groups that lie alike against the edge (see the module comment).
    groups: Vec<Vec<u32>>,
}

impl Neighbours {
    pub fn new((width, height): (usize, usize)) -> Neighbours {
        let taps: Vec<[Option<u32>; 9]> = (0..width * height)
            .map(|cell| {
                let (y, x) = (cell / width, cell % width);
                std::array::from_fn(|tap| {
                    let (sy, sx) = ((y + tap / 3).wrapping_sub(1), (x + tap % 3).wrapping_sub(1));
                    (sy < height && sx < width).then(|| (sy * width + sx) as u32)
                })
            })
            .collect();
        let group = |cell: usize| {
            let (y, x) = (cell / width, cell % width);
            if y == 0 {
                0
            } else if y + 1 == height {
                1
            } else if x == 0 {
                2
            } else if x + 1 == width {
                3
            } else {
                4
            }
        };
        let groups = (0..5)
            .map(|g| (0..width * height).filter(|&c| group(c) == g).map(|c| c as u32).collect::<Vec<u32>>())
            .filter(|cells| !cells.is_empty())
            .collect();
        Neighbours { grid: (width, height), cells: width * height, taps, groups }
    }
}

/// Whether the register-blocked kernels serve `outputs` output channels here.
pub(super) fn fast(outputs: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        outputs.is_multiple_of(16) && std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = outputs;
        false
    }
}

/// `out[rows × outputs] (+)= conv(input)` for `positions` positions; adds to `out` when `accumulate`.
/// `scratch` is the fallback's im2col buffer.
#[allow(clippy::too_many_arguments)]
pub fn forward(
    out: &mut [f32],
    input: &[f32],
    positions: usize,
    neighbours: &Neighbours,
    inputs: usize,
    weights: &[f32],
    outputs: usize,
    accumulate: bool,
    scratch: &mut Vec<f32>,
) {
    let rows = positions * neighbours.cells;
    assert!(out.len() >= rows * outputs && input.len() >= rows * inputs, "whole rows");
    assert_eq!(weights.len(), 9 * inputs * outputs, "3 × 3 weights");
    if fast(outputs) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX-512F is present (checked by `fast`), and the lengths are checked above.
        unsafe {
            avx512::forward(out, input, positions, neighbours, inputs, weights, outputs, accumulate)
        };
        return;
    }
    let depth = 9 * inputs;
    grow(scratch, rows * depth);
    let layout = Layout::channels_last(neighbours.grid, inputs);
    im2col(input, layout, positions, neighbours.grid, inputs, 3, scratch);
    let lhs = View::rows(&scratch[..rows * depth], rows, depth);
    matmul(&mut out[..rows * outputs], lhs, View::rows(weights, depth, outputs), accumulate);
}

/// `weight_gradient[9 · inputs × outputs] += Σ_rows im2col(input)ᵀ · dz`.
#[allow(clippy::too_many_arguments)]
pub fn weight_gradient(
    weight_gradient: &mut [f32],
    input: &[f32],
    positions: usize,
    neighbours: &Neighbours,
    inputs: usize,
    dz: &[f32],
    outputs: usize,
    scratch: &mut Vec<f32>,
) {
    let rows = positions * neighbours.cells;
    assert!(dz.len() >= rows * outputs && input.len() >= rows * inputs, "whole rows");
    assert_eq!(weight_gradient.len(), 9 * inputs * outputs, "3 × 3 weights");
    if fast(outputs) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX-512F is present (checked by `fast`), and the lengths are checked above.
        unsafe {
            avx512::weight_gradient(weight_gradient, input, positions, neighbours, inputs, dz, outputs)
        };
        return;
    }
    let depth = 9 * inputs;
    grow(scratch, rows * depth);
    let layout = Layout::channels_last(neighbours.grid, inputs);
    im2col(input, layout, positions, neighbours.grid, inputs, 3, scratch);
    let lhs = View::transposed(&scratch[..rows * depth], depth, rows);
    matmul(weight_gradient, lhs, View::rows(&dz[..rows * outputs], rows, outputs), true);
}

/// The weights of a convolution's transpose, `[9 · outputs, inputs]`: row `tap · outputs + o` holds
/// the weights of tap `8 − tap`, so that `forward` with them turns the gradient of the output into the
/// gradient of the input.
pub fn transposed_weights(weights: &[f32], inputs: usize, outputs: usize) -> Vec<f32> {
    let mut flipped = vec![0.0; 9 * outputs * inputs];
    for tap in 0..9 {
        for c in 0..inputs {
            for o in 0..outputs {
                flipped[((8 - tap) * outputs + o) * inputs + c] = weights[(tap * inputs + c) * outputs + o];
            }
        }
    }
    flipped
}

// The kernels index their accumulator and weight arrays in lockstep by constant bounds, which keeps
// them in registers; iterator forms say the same less plainly.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::needless_range_loop)]
pub(super) mod avx512 {
    use std::arch::x86_64::*;

    use super::Neighbours;

    /// Output rows per block of the row-blocked kernel, and positions per block of the
    /// position-blocked one: 12 rows × 2 vectors of accumulators leave room for the weights.
    const BLOCK: usize = 12;

    /// See [`super::forward`] and the module comment.
    #[target_feature(enable = "avx512f")]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn forward(
        out: &mut [f32],
        input: &[f32],
        positions: usize,
        neighbours: &Neighbours,
        inputs: usize,
        weights: &[f32],
        outputs: usize,
        accumulate: bool,
    ) {
        let cells = neighbours.cells;
        let zeros = vec![0.0f32; inputs];
        let row_of = |position: usize, cell: usize| (position * cells + cell) * inputs;
        let full = positions / BLOCK * BLOCK;
        let left = positions - full;
        // Group by edge only where every group fills a block; else consecutive rows, whose bigger
        // blocks reuse each weight more (measured faster for a single position).
        let smallest = neighbours.groups.iter().map(Vec::len).min().unwrap_or(0);
        let all_cells: Vec<u32> = (0..cells as u32).collect();
        let groups = if left * smallest >= BLOCK {
            neighbours.groups.as_slice()
        } else {
            std::slice::from_ref(&all_cells)
        };
        let mut o = 0;
        while o < outputs {
            let wide = outputs - o >= 32;
            for block in (0..full).step_by(BLOCK) {
                for (cell, taps) in neighbours.taps.iter().enumerate() {
                    let rows: [usize; BLOCK] = std::array::from_fn(|r| (block + r) * cells + cell);
                    let source = |tap: usize, r: usize| taps[tap].map(|n| row_of(block + r, n as usize));
                    let run = Run { rows: &rows, stored: BLOCK, shared_taps: true, zeros: &zeros };
                    // SAFETY: the caller's contract (AVX-512F, whole rows) covers every row read and written.
                    unsafe { run.go(wide, out, input, &source, inputs, weights, outputs, o, accumulate) };
                }
            }
            for group in groups {
                let count = left * group.len();
                let blocks = count.div_ceil(BLOCK);
                // Blocks of near-equal size, each up to a dozen rows, position by position.
                for b in 0..blocks {
                    let (start, end) = (b * count / blocks, (b + 1) * count / blocks);
                    let n = end - start;
                    let place = |i: usize| (full + i / group.len(), group[i % group.len()] as usize);
                    // The registers' spare rows repeat the last row, unstored.
                    let places: [(usize, usize); BLOCK] =
                        std::array::from_fn(|r| place(start + r.min(n - 1)));
                    let rows: [usize; BLOCK] = std::array::from_fn(|r| places[r].0 * cells + places[r].1);
                    let source = |tap: usize, r: usize| {
                        let (position, cell) = places[r];
                        neighbours.taps[cell][tap].map(|n| row_of(position, n as usize))
                    };
                    let run = Run { rows: &rows, stored: n, shared_taps: false, zeros: &zeros };
                    // SAFETY: as above.
                    unsafe { run.go(wide, out, input, &source, inputs, weights, outputs, o, accumulate) };
                }
            }
            o += if wide { 32 } else { 16 };
        }
    }

    /// Output rows per block of [`products`]: 13 rows × 2 vectors of accumulators, 2 of weights and
    /// one broadcast fill 29 of the 32 registers (5 × 5 Winograd tiles are two blocks, not three).
    pub const PRODUCT_BLOCK: usize = 13;

    /// `product[·, e] = lhs[·, e] · weights[e]` for each of `E` matrices interleaved row by row:
    /// row `r` of matrix `e` is row `r · E + e` of `lhs` (`K` values) and of `product` (`outputs`
    /// values), and `weights[e]` is `[K × outputs]`, each `e`'s after the last. With `K` and `E` known,
    /// each row of a block is a constant offset from the first (thirteen row pointers would not fit
    /// the general registers); a short last block reads up to [`PRODUCT_BLOCK`] rows of each matrix
    /// past its end, which `lhs` must hold, and stores only its own.
    ///
    /// # Safety
    /// AVX-512F must be present and `outputs` a multiple of 16.
    #[target_feature(enable = "avx512f")]
    pub unsafe fn products<const K: usize, const E: usize>(
        lhs: &[f32],
        weights: &[f32],
        product: &mut [f32],
        rows: usize,
        outputs: usize,
    ) {
        const B: usize = PRODUCT_BLOCK;
        assert!(lhs.len() >= (rows + B) * E * K && weights.len() >= E * K * outputs);
        assert!(product.len() >= rows * E * outputs && outputs.is_multiple_of(16) && rows > 0);
        let blocks = rows.div_ceil(B);
        for e in 0..E {
            let weights = &weights[e * K * outputs..];
            let mut o = 0;
            while o < outputs {
                let wide = outputs - o >= 32;
                // Blocks of near-equal size.
                for b in 0..blocks {
                    let (start, end) = (b * rows / blocks, (b + 1) * rows / blocks);
                    // SAFETY: every row read lies in `lhs`, every row stored in `product` (asserted
                    // above); AVX-512F is the caller's.
                    unsafe {
                        let x = lhs.as_ptr().add((start * E + e) * K);
                        let w = weights.as_ptr().add(o);
                        let rows: [usize; B] = std::array::from_fn(|r| (start + r) * E + e);
                        if wide {
                            let mut acc = [[_mm512_setzero_ps(); 2]; B];
                            multiply_strided::<B, 2, K, E>(&mut acc, x, w, outputs);
                            store::<B, 2>(&acc, product, &rows, outputs, o, end - start);
                        } else {
                            let mut acc = [[_mm512_setzero_ps(); 1]; B];
                            multiply_strided::<B, 1, K, E>(&mut acc, x, w, outputs);
                            store::<B, 1>(&acc, product, &rows, outputs, o, end - start);
                        }
                    }
                }
                o += if wide { 32 } else { 16 };
            }
        }
    }

    /// `acc[r] += Σ_c x[r · E · K + c] · weights[c · outputs ..][0..16 V]`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn multiply_strided<const B: usize, const V: usize, const K: usize, const E: usize>(
        acc: &mut [[__m512; V]; B],
        x: *const f32,
        weights: *const f32,
        outputs: usize,
    ) {
        for c in 0..K {
            // SAFETY: `x` reads B rows of K values and `weights` K rows (the caller's contract).
            unsafe {
                let mut w = [_mm512_setzero_ps(); V];
                for (v, w) in w.iter_mut().enumerate() {
                    *w = _mm512_loadu_ps(weights.add(c * outputs + 16 * v));
                }
                for r in 0..B {
                    let x = _mm512_set1_ps(*x.add(r * E * K + c));
                    for v in 0..V {
                        acc[r][v] = _mm512_fmadd_ps(x, w[v], acc[r][v]);
                    }
                }
            }
        }
    }

    /// A block of output rows: `rows[..stored]` are written (the rest repeat the last row to fill the
    /// registers). Tap `t` of row `r` reads the input row at offset `source(t, r)`, or zeros where that is
    /// `None`; a tap that no row of the block has is skipped (with `shared_taps`, the rows have the same
    /// taps and the first row tells).
    struct Run<'a> {
        rows: &'a [usize; BLOCK],
        stored: usize,
        shared_taps: bool,
        zeros: &'a [f32],
    }

    impl Run<'_> {
        #[target_feature(enable = "avx512f")]
        #[inline]
        #[allow(clippy::too_many_arguments)]
        unsafe fn go(
            &self,
            wide: bool,
            out: &mut [f32],
            input: &[f32],
            source: &impl Fn(usize, usize) -> Option<usize>,
            inputs: usize,
            weights: &[f32],
            outputs: usize,
            o: usize,
            accumulate: bool,
        ) {
            // SAFETY: forwarded from the caller.
            unsafe {
                if wide {
                    self.run::<2>(out, input, source, inputs, weights, outputs, o, accumulate)
                } else {
                    self.run::<1>(out, input, source, inputs, weights, outputs, o, accumulate)
                }
            }
        }

        #[target_feature(enable = "avx512f")]
        #[inline]
        #[allow(clippy::too_many_arguments)]
        unsafe fn run<const V: usize>(
            &self,
            out: &mut [f32],
            input: &[f32],
            source: &impl Fn(usize, usize) -> Option<usize>,
            inputs: usize,
            weights: &[f32],
            outputs: usize,
            o: usize,
            accumulate: bool,
        ) {
            // SAFETY: every row index and offset lies inside `out` and `input` (the caller's contract).
            unsafe {
                let mut acc = load::<BLOCK, V>(out, self.rows, outputs, o, accumulate);
                for tap in 0..9 {
                    let missing = if self.shared_taps {
                        source(tap, 0).is_none()
                    } else {
                        (0..BLOCK).all(|r| source(tap, r).is_none())
                    };
                    if missing {
                        continue;
                    }
                    let mut pointers = [self.zeros.as_ptr(); BLOCK];
                    for (r, pointer) in pointers.iter_mut().enumerate() {
                        if let Some(offset) = source(tap, r) {
                            *pointer = input.as_ptr().add(offset);
                        }
                    }
                    let w = weights.as_ptr().add(tap * inputs * outputs + o);
                    multiply::<BLOCK, V>(&mut acc, &pointers, w, inputs, outputs);
                }
                store::<BLOCK, V>(&acc, out, self.rows, outputs, o, self.stored);
            }
        }
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn load<const B: usize, const V: usize>(
        out: &[f32],
        rows: &[usize; B],
        outputs: usize,
        o: usize,
        accumulate: bool,
    ) -> [[__m512; V]; B] {
        let mut acc = [[_mm512_setzero_ps(); V]; B];
        if accumulate {
            for r in 0..B {
                for v in 0..V {
                    // SAFETY: the row lies in `out` (the caller's contract).
                    acc[r][v] = unsafe { _mm512_loadu_ps(out.as_ptr().add(rows[r] * outputs + o + 16 * v)) };
                }
            }
        }
        acc
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn store<const B: usize, const V: usize>(
        acc: &[[__m512; V]; B],
        out: &mut [f32],
        rows: &[usize; B],
        outputs: usize,
        o: usize,
        n: usize,
    ) {
        for r in 0..n.min(B) {
            for v in 0..V {
                // SAFETY: the row lies in `out` (the caller's contract).
                unsafe { _mm512_storeu_ps(out.as_mut_ptr().add(rows[r] * outputs + o + 16 * v), acc[r][v]) };
            }
        }
    }

    /// `acc[r] += Σ_c pointers[r][c] · weights[c · outputs ..][0..16 V]`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn multiply<const B: usize, const V: usize>(
        acc: &mut [[__m512; V]; B],
        pointers: &[*const f32; B],
        weights: *const f32,
        inputs: usize,
        outputs: usize,
    ) {
        for c in 0..inputs {
            // SAFETY: each pointer reads `inputs` values and `weights` `inputs` rows (the caller's
            // contract).
            unsafe {
                let mut w = [_mm512_setzero_ps(); V];
                for (v, w) in w.iter_mut().enumerate() {
                    *w = _mm512_loadu_ps(weights.add(c * outputs + 16 * v));
                }
                for r in 0..B {
                    let x = _mm512_set1_ps(*pointers[r].add(c));
                    for v in 0..V {
                        acc[r][v] = _mm512_fmadd_ps(x, w[v], acc[r][v]);
                    }
                }
            }
        }
    }

    /// Input channels per block of the weight-gradient kernel.
    const CHANNELS: usize = 8;

    /// See [`super::weight_gradient`]: for each tap and block of input channels, the accumulators of
    /// `CHANNELS × outputs` weights run over every row whose tap lies on the board.
    #[target_feature(enable = "avx512f")]
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn weight_gradient(
        gradient: &mut [f32],
        input: &[f32],
        positions: usize,
        neighbours: &Neighbours,
        inputs: usize,
        dz: &[f32],
        outputs: usize,
    ) {
        for tap in 0..9 {
            let mut c = 0;
            while c < inputs {
                let channels = CHANNELS.min(inputs - c);
                let mut o = 0;
                while o < outputs {
                    let width = if outputs - o >= 32 { 2 } else { 1 };
                    let base = (tap * inputs + c) * outputs + o;
                    unsafe {
                        match (channels, width) {
                            (CHANNELS, 2) => gradient_block::<CHANNELS, 2>(
                                gradient, base, input, positions, neighbours, tap, c, inputs, dz, outputs, o,
                            ),
                            (CHANNELS, _) => gradient_block::<CHANNELS, 1>(
                                gradient, base, input, positions, neighbours, tap, c, inputs, dz, outputs, o,
                            ),
                            (_, 2) => gradient_block::<1, 2>(
                                gradient, base, input, positions, neighbours, tap, c, inputs, dz, outputs, o,
                            ),
                            _ => gradient_block::<1, 1>(
                                gradient, base, input, positions, neighbours, tap, c, inputs, dz, outputs, o,
                            ),
                        }
                    }
                    o += 16 * width;
                }
                c += if channels == CHANNELS { CHANNELS } else { 1 };
            }
        }
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    #[allow(clippy::too_many_arguments)]
    unsafe fn gradient_block<const C: usize, const V: usize>(
        gradient: &mut [f32],
        base: usize,
        input: &[f32],
        positions: usize,
        neighbours: &Neighbours,
        tap: usize,
        c: usize,
        inputs: usize,
        dz: &[f32],
        outputs: usize,
        o: usize,
    ) {
        let cells = neighbours.cells;
        unsafe {
            let mut acc = [[_mm512_setzero_ps(); V]; C];
            for (i, acc) in acc.iter_mut().enumerate() {
                for (v, acc) in acc.iter_mut().enumerate() {
                    *acc = _mm512_loadu_ps(gradient.as_ptr().add(base + i * outputs + 16 * v));
                }
            }
            for cell in 0..cells {
                let Some(neighbour) = neighbours.taps[cell][tap] else { continue };
                for p in 0..positions {
                    let x = input.as_ptr().add((p * cells + neighbour as usize) * inputs + c);
                    let d = dz.as_ptr().add((p * cells + cell) * outputs + o);
                    let mut g = [_mm512_setzero_ps(); V];
                    for (v, g) in g.iter_mut().enumerate() {
                        *g = _mm512_loadu_ps(d.add(16 * v));
                    }
                    for (i, acc) in acc.iter_mut().enumerate() {
                        let x = _mm512_set1_ps(*x.add(i));
                        for v in 0..V {
                            acc[v] = _mm512_fmadd_ps(x, g[v], acc[v]);
                        }
                    }
                }
            }
            for (i, acc) in acc.iter().enumerate() {
                for v in 0..V {
                    _mm512_storeu_ps(gradient.as_mut_ptr().add(base + i * outputs + 16 * v), acc[v]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(n: usize, seed: usize) -> Vec<f32> {
        (0..n).map(|i| (((i * 7919 + seed * 104_729) % 201) as f32 - 100.0) / 97.0).collect()
    }

    /// The kernels give the im2col + `gemm` results on boards of both sizes, for batches that fill
    /// position blocks, leave a short run, or are smaller than a block; with 16, 32 and 48 outputs.
    #[test]
    fn kernels_match_im2col_and_gemm() {
        for (grid, inputs, outputs) in
            [((5, 7), 32, 32), ((9, 9), 12, 48), ((5, 7), 7, 16), ((5, 11), 32, 32)]
        {
            let neighbours = Neighbours::new(grid);
            let cells = neighbours.cells;
            let weights = values(9 * inputs * outputs, 1);
            for positions in [1, 3, 12, 13, 29] {
                let input = values(positions * cells * inputs, 2);
                let dz = values(positions * cells * outputs, 3);
                let depth = 9 * inputs;
                let mut columns = vec![0.0; positions * cells * depth];
                im2col(&input, Layout::channels_last(grid, inputs), positions, grid, inputs, 3, &mut columns);
                let rows = positions * cells;
                let mut expected = values(rows * outputs, 4);
                matmul(
                    &mut expected,
                    View::rows(&columns, rows, depth),
                    View::rows(&weights, depth, outputs),
                    true,
                );
                let mut got = values(rows * outputs, 4);
                forward(
                    &mut got,
                    &input,
                    positions,
                    &neighbours,
                    inputs,
                    &weights,
                    outputs,
                    true,
                    &mut Vec::new(),
                );
                close(&got, &expected, "forward");

                let mut expected = values(depth * outputs, 5);
                matmul(
                    &mut expected,
                    View::transposed(&columns, depth, rows),
                    View::rows(&dz, rows, outputs),
                    true,
                );
                let mut got = values(depth * outputs, 5);
                weight_gradient(
                    &mut got,
                    &input,
                    positions,
                    &neighbours,
                    inputs,
                    &dz,
                    outputs,
                    &mut Vec::new(),
                );
                close(&got, &expected, "weight gradient");
            }
        }
    }

    /// `forward` with the transposed weights is the gradient of the input: ⟨dz, conv(x)⟩ = ⟨convᵀ(dz), x⟩.
    #[test]
    fn transposed_weights_give_the_adjoint() {
        let grid = (5, 7);
        let neighbours = Neighbours::new(grid);
        let (inputs, outputs, positions) = (16, 32, 14);
        let rows = positions * neighbours.cells;
        let (x, dz, weights) =
            (values(rows * inputs, 6), values(rows * outputs, 7), values(9 * inputs * outputs, 8));
        let mut y = vec![0.0; rows * outputs];
        forward(&mut y, &x, positions, &neighbours, inputs, &weights, outputs, false, &mut Vec::new());
        let mut dx = vec![0.0; rows * inputs];
        let flipped = transposed_weights(&weights, inputs, outputs);
        forward(&mut dx, &dz, positions, &neighbours, outputs, &flipped, inputs, false, &mut Vec::new());
        let dot = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(a, b)| (a * b) as f64).sum::<f64>();
        let (left, right) = (dot(&dz, &y), dot(&dx, &x));
        assert!((left - right).abs() <= 1e-4 * left.abs(), "{left} vs {right}");
    }

    fn close(got: &[f32], expected: &[f32], what: &str) {
        for (i, (a, b)) in got.iter().zip(expected).enumerate() {
            assert!((a - b).abs() <= 1e-4 * (1.0 + b.abs()), "{what}[{i}]: {a} vs {b}");
        }
    }
}
