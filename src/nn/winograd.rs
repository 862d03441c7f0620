//! 3 × 3 convolutions by Winograd's minimal filtering F(2 × 2, 3 × 3) (Lavin and Gray 2016), for the
//! inference forward pass: each 2 × 2 block of output cells (a tile) comes from its 4 × 4 input patch
//! as `Aᵀ [(G g Gᵀ) ⊙ (Bᵀ d B)] A`, which turns the 36 multiplies per input–output channel pair of a
//! tile into 16. Channels-last, the 16 elementwise products of a layer are 16 matrix products
//! `[tiles × inputs] · [inputs × outputs]`, run by the register-blocked kernel of [`super::conv`];
//! the transforms are additions only, vectorised across channels.
//!
//! On the 9 × 9 imperial board a position is 5 × 5 tiles (100 output cells computed for 81), so a
//! layer does 0.55× the direct convolution's multiplies; on 5 × 7, 3 × 4 tiles (48 for 35), 0.61×.
//! The results equal the direct convolution's up to rounding (the transforms' coefficients are 0, ±½
//! and ±1). The products need AVX-512 and are compiled for 32 and 64 inputs; other layers, and more
//! than [`MOST_POSITIONS`] positions, where the direct kernels are faster, go by [`conv::forward`].

use super::conv::{self, Neighbours};
use super::kernels::grow_aligned;

/// The elements of a tile in the transformed domain (4 × 4).
const ELEMENTS: usize = 16;

/// A convolution's weights transformed once (`U = G g Gᵀ` per input–output pair): `transformed` is
/// `[16][inputs][outputs]`. The direct weights stay with the caller, for the direct path.
#[derive(Clone, Debug)]
pub struct Weights {
    inputs: usize,
    outputs: usize,
    transformed: Vec<f32>,
}

impl Weights {
    /// From direct weights `[9 · inputs, outputs]`, row `tap · inputs + c`, `tap = ky · 3 + kx`.
    pub fn new(direct: &[f32], inputs: usize, outputs: usize) -> Weights {
        assert_eq!(direct.len(), 9 * inputs * outputs, "3 × 3 weights");
        // G = [[1, 0, 0], [½, ½, ½], [½, −½, ½], [0, 0, 1]].
        let g_rows = |g: [f32; 3]| [g[0], (g[0] + g[1] + g[2]) / 2.0, (g[0] - g[1] + g[2]) / 2.0, g[2]];
        let mut transformed = vec![0.0; ELEMENTS * inputs * outputs];
        for c in 0..inputs {
            for o in 0..outputs {
                let g = |ky: usize, kx: usize| direct[((ky * 3 + kx) * inputs + c) * outputs + o];
                // G g: 4 × 3, column by column; then (G g) Gᵀ: 4 × 4, row by row.
                let columns: [[f32; 4]; 3] = std::array::from_fn(|kx| g_rows([g(0, kx), g(1, kx), g(2, kx)]));
                for i in 0..4 {
                    let row = g_rows([columns[0][i], columns[1][i], columns[2][i]]);
                    for (j, value) in row.into_iter().enumerate() {
                        transformed[((i * 4 + j) * inputs + c) * outputs + o] = value;
                    }
                }
            }
        }
        Weights { inputs, outputs, transformed }
    }
}

/// A thread's transformed activations, grown to the largest layer it has run.
#[derive(Default)]
pub struct Scratch {
    /// `[tiles][16][inputs]`, and a block of tiles more for the products' last block to read.
    input: Vec<f32>,
    /// `[tiles][16][outputs]`.
    product: Vec<f32>,
    /// The fallback's im2col buffer.
    fallback: Vec<f32>,
}

/// A board cut into tiles: `across × down` per position, numbered row by row, with each tile's 4 × 4
/// input patch (from `(2 ty − 1, 2 tx − 1)`) and 2 × 2 output cells as board cells, [`OFF`] beyond the
/// edge. Built once per network, so the transforms only look cells up.
#[derive(Clone, Debug)]
pub struct Board {
    pub neighbours: Neighbours,
    patches: Vec<[u32; 16]>,
    outputs: Vec<[u32; 4]>,
}

/// A patch or output cell beyond the board's edge.
const OFF: u32 = u32::MAX;

impl Board {
    pub fn new(grid: (usize, usize)) -> Board {
        let (width, height) = grid;
        let cell = |y: usize, x: usize| match y < height && x < width {
            true => (y * width + x) as u32,
            false => OFF,
        };
        let (mut patches, mut outputs) = (Vec::new(), Vec::new());
        for ty in 0..height.div_ceil(2) {
            for tx in 0..width.div_ceil(2) {
                // `wrapping_sub` puts the row and column before the edge far beyond it.
                let at =
                    |i: usize, j: usize| cell((2 * ty + i).wrapping_sub(1), (2 * tx + j).wrapping_sub(1));
                patches.push(std::array::from_fn(|k| at(k / 4, k % 4)));
                outputs.push(std::array::from_fn(|k| at(k / 2 + 1, k % 2 + 1)));
            }
        }
        Board { neighbours: Neighbours::new(grid), patches, outputs }
    }

    /// Tiles per position.
    fn tiles(&self) -> usize {
        self.patches.len()
    }
}

/// At most this many positions are convolved by Winograd's products, more directly. Measured
/// (docs/BENCHMARKS.md, inference): for one or two positions Winograd is 9–33% faster on both boards;
/// from four on 5 × 7 it is slower, the direct kernels skipping the edge's taps and filling their
/// register blocks while a third of the 12 tiles' products fall on cells beyond the edge.
const MOST_POSITIONS: usize = 2;

/// `out[rows × outputs] (+)= conv(input)` for `positions` positions, as [`conv::forward`] computes it:
/// by Winograd's products for a few positions (see [`MOST_POSITIONS`]), else directly with `direct`,
/// the weights `weights` were made from.
#[allow(clippy::too_many_arguments)]
pub fn forward(
    out: &mut [f32],
    input: &[f32],
    positions: usize,
    board: &Board,
    direct: &[f32],
    weights: &Weights,
    accumulate: bool,
    scratch: &mut Scratch,
) {
    if positions <= MOST_POSITIONS && by_tiles_serves(weights) {
        by_tiles(out, input, positions, board, weights, accumulate, scratch);
    } else {
        let (inputs, outputs, fallback) = (weights.inputs, weights.outputs, &mut scratch.fallback);
        conv::forward(
            out,
            input,
            positions,
            &board.neighbours,
            inputs,
            direct,
            outputs,
            accumulate,
            fallback,
        );
    }
}

/// Whether [`by_tiles`] runs these weights here: its products need AVX-512 and whole vectors of
/// outputs, and are compiled for 32 and 64 inputs.
fn by_tiles_serves(weights: &Weights) -> bool {
    conv::fast(weights.outputs) && matches!(weights.inputs, 32 | 64)
}

/// [`forward`] by Winograd's products; only where [`by_tiles_serves`] the weights.
fn by_tiles(
    out: &mut [f32],
    input: &[f32],
    positions: usize,
    board: &Board,
    weights: &Weights,
    accumulate: bool,
    scratch: &mut Scratch,
) {
    let (inputs, outputs) = (weights.inputs, weights.outputs);
    let rows = positions * board.neighbours.cells;
    assert!(out.len() >= rows * outputs && input.len() >= rows * inputs, "whole rows");
    assert!(by_tiles_serves(weights), "Winograd's products serve {inputs} → {outputs} channels here");
    #[cfg(target_arch = "x86_64")]
    {
        let tiles = positions * board.tiles();
        let transformed =
            grow_aligned(&mut scratch.input, (tiles + conv::avx512::PRODUCT_BLOCK) * ELEMENTS * inputs);
        let product = grow_aligned(&mut scratch.product, ELEMENTS * tiles * outputs);
        // SAFETY: AVX-512F is present and `outputs` a multiple of 16 (`by_tiles_serves`); every board
        // row read or written lies in `input` or `out` (asserted above; a patch cell is a board cell),
        // and the buffers were grown to 16 · tiles rows (and a block more, read by the products' last
        // block).
        unsafe {
            avx512::transform_input(input, positions, board, inputs, transformed);
            let u = &weights.transformed;
            match inputs {
                32 => conv::avx512::products::<32, ELEMENTS>(transformed, u, product, tiles, outputs),
                _ => conv::avx512::products::<64, ELEMENTS>(transformed, u, product, tiles, outputs),
            }
            avx512::transform_output(product, positions, board, outputs, out, accumulate);
        }
    }
}

// The transforms index their rows and columns of registers by constant bounds, as the formulas do.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::needless_range_loop)]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{Board, ELEMENTS, OFF};

    /// `V = Bᵀ d B` for every tile's 4 × 4 input patch `d` (zeros beyond the edge), each channel
    /// alike: `transformed[tile][ξ][c]`, with Bᵀ = [[1, 0, −1, 0], [0, 1, 1, 0], [0, −1, 1, 0],
    /// [0, 1, 0, −1]].
    #[target_feature(enable = "avx512f")]
    pub unsafe fn transform_input(
        input: &[f32],
        positions: usize,
        board: &Board,
        inputs: usize,
        transformed: &mut [f32],
    ) {
        let cells = board.neighbours.cells;
        let zeros = [0.0f32; 64];
        let mut tile = 0;
        for position in 0..positions {
            for patch in &board.patches {
                // SAFETY: each row read lies in `input` (or is `zeros`, as wide as the widest input),
                // each element written in `transformed` (the caller's contract; `inputs` is 32 or 64).
                unsafe {
                    let rows: [*const f32; 16] = std::array::from_fn(|k| match patch[k] {
                        OFF => zeros.as_ptr(),
                        cell => input.as_ptr().add((position * cells + cell as usize) * inputs),
                    });
                    let at = transformed.as_mut_ptr().add(tile * ELEMENTS * inputs);
                    for c in (0..inputs).step_by(16) {
                        let d = |i: usize, j: usize| _mm512_loadu_ps(rows[i * 4 + j].add(c));
                        // Bᵀ d, column by column.
                        let mut t = [[_mm512_setzero_ps(); 4]; 4];
                        for j in 0..4 {
                            let (d0, d1, d2, d3) = (d(0, j), d(1, j), d(2, j), d(3, j));
                            t[0][j] = _mm512_sub_ps(d0, d2);
                            t[1][j] = _mm512_add_ps(d1, d2);
                            t[2][j] = _mm512_sub_ps(d2, d1);
                            t[3][j] = _mm512_sub_ps(d1, d3);
                        }
                        // (Bᵀ d) B, row by row.
                        for (i, t) in t.iter().enumerate() {
                            let v = [
                                _mm512_sub_ps(t[0], t[2]),
                                _mm512_add_ps(t[1], t[2]),
                                _mm512_sub_ps(t[2], t[1]),
                                _mm512_sub_ps(t[1], t[3]),
                            ];
                            for (j, v) in v.into_iter().enumerate() {
                                _mm512_storeu_ps(at.add((i * 4 + j) * inputs + c), v);
                            }
                        }
                    }
                }
                tile += 1;
            }
        }
    }

    /// `Y = Aᵀ M A` for every tile's transformed product `M` (`product[tile][ξ][o]`), each output
    /// channel alike, added to (or, unless `accumulate`, written over) the tile's output cells on the
    /// board; Aᵀ = [[1, 1, 1, 0], [0, 1, −1, −1]].
    #[target_feature(enable = "avx512f")]
    pub unsafe fn transform_output(
        product: &[f32],
        positions: usize,
        board: &Board,
        outputs: usize,
        out: &mut [f32],
        accumulate: bool,
    ) {
        let cells = board.neighbours.cells;
        let mut tile = 0;
        for position in 0..positions {
            for targets in &board.outputs {
                // SAFETY: each element read lies in `product`, each row written in `out` (the
                // caller's contract); `outputs` is a multiple of 16.
                unsafe {
                    let at = product.as_ptr().add(tile * ELEMENTS * outputs);
                    for o in (0..outputs).step_by(16) {
                        let m = |i: usize, j: usize| _mm512_loadu_ps(at.add((i * 4 + j) * outputs + o));
                        // Aᵀ M, column by column.
                        let mut s = [[_mm512_setzero_ps(); 4]; 2];
                        for j in 0..4 {
                            let (m0, m1, m2, m3) = (m(0, j), m(1, j), m(2, j), m(3, j));
                            s[0][j] = _mm512_add_ps(_mm512_add_ps(m0, m1), m2);
                            s[1][j] = _mm512_sub_ps(_mm512_sub_ps(m1, m2), m3);
                        }
                        // (Aᵀ M) A, row by row.
                        for (i, s) in s.iter().enumerate() {
                            let y = [
                                _mm512_add_ps(_mm512_add_ps(s[0], s[1]), s[2]),
                                _mm512_sub_ps(_mm512_sub_ps(s[1], s[2]), s[3]),
                            ];
                            for (j, y) in y.into_iter().enumerate() {
                                let cell = targets[i * 2 + j];
                                if cell == OFF {
                                    continue;
                                }
                                let row = position * cells + cell as usize;
                                let target = out.as_mut_ptr().add(row * outputs + o);
                                let y =
                                    if accumulate { _mm512_add_ps(_mm512_loadu_ps(target), y) } else { y };
                                _mm512_storeu_ps(target, y);
                            }
                        }
                    }
                }
                tile += 1;
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

    /// Winograd's products give the direct convolution's results on boards of odd and even sizes,
    /// for one position and many, with 32 or 64 inputs and 16 to 48 outputs, adding to the output or
    /// not; and `forward` gives them too where it convolves directly (20 inputs).
    #[test]
    fn matches_the_direct_convolution() {
        let mut tiled = 0;
        for (grid, inputs, outputs) in
            [((9, 9), 32, 32), ((5, 7), 32, 48), ((9, 9), 64, 16), ((4, 6), 20, 32), ((6, 3), 32, 16)]
        {
            let board = Board::new(grid);
            let neighbours = &board.neighbours;
            let direct = values(9 * inputs * outputs, 1);
            let weights = Weights::new(&direct, inputs, outputs);
            let mut scratch = Scratch::default();
            for positions in [1, 2, 7] {
                let rows = positions * neighbours.cells;
                let input = values(rows * inputs, 2);
                for accumulate in [false, true] {
                    let mut expected = values(rows * outputs, 3);
                    let mut fallback = Vec::new();
                    conv::forward(
                        &mut expected,
                        &input,
                        positions,
                        neighbours,
                        inputs,
                        &direct,
                        outputs,
                        accumulate,
                        &mut fallback,
                    );
                    let mut got = values(rows * outputs, 3);
                    forward(&mut got, &input, positions, &board, &direct, &weights, accumulate, &mut scratch);
                    close(&got, &expected, &format!("{grid:?} {inputs}→{outputs} × {positions}"));
                    if by_tiles_serves(&weights) {
                        // Past MOST_POSITIONS too, where several tiles' rows fill each block.
                        let mut got = values(rows * outputs, 3);
                        by_tiles(&mut got, &input, positions, &board, &weights, accumulate, &mut scratch);
                        close(
                            &got,
                            &expected,
                            &format!("tiles of {grid:?} {inputs}→{outputs} × {positions}"),
                        );
                        tiled += 1;
                    }
                }
            }
        }
        assert!(tiled > 0 || !conv::fast(16), "on AVX-512 the products ran");
    }

    fn close(got: &[f32], expected: &[f32], what: &str) {
        for (i, (a, b)) in got.iter().zip(expected).enumerate() {
            assert!((a - b).abs() <= 1e-4 * (1.0 + b.abs()), "{what}, [{i}]: {a} vs {b}");
        }
    }
}
