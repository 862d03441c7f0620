//! The network as the search's [`Evaluator`]: a batch of leaves is encoded into one input tensor, run
//! through the network once, and turned into priors over each leaf's legal moves (a softmax over their
//! logits only, which masks the illegal ones) and a value `P(win) − P(loss)` for its player to move.

use burn::prelude::*;

use super::{Encoder, NetGame, PolicyValueNet};
use crate::search::{Evaluations, Evaluator, LeafBatch};

/// The raw network outputs of one batch, row-major.
pub struct Inference {
    /// `[positions, actions]` policy logits.
    pub policy: Vec<f32>,
    /// `[positions, 3]` win/draw/loss probabilities for the player to move.
    pub wdl: Vec<f32>,
}

/// Runs `net` on `positions` encoded positions laid end to end in `input`.
pub fn infer(
    net: &PolicyValueNet,
    device: &Device,
    input: Vec<f32>,
    positions: usize,
    shape: [usize; 3],
) -> Inference {
    let [planes, height, width] = shape;
    let input = Tensor::<4>::from_data(TensorData::new(input, [positions, planes, height, width]), device);
    let (policy, value) = net.forward(input);
    let wdl = burn::tensor::activation::softmax(value, 1); // [positions, 3]
    Inference {
        policy: policy.into_data().try_into_vec::<f32>().expect("the policy head gives f32"),
        wdl: wdl.into_data().try_into_vec::<f32>().expect("the value head gives f32"),
    }
}

/// A network evaluating leaves for one game.
#[derive(Clone, Debug)]
pub struct NetEvaluator<G: NetGame> {
    net: PolicyValueNet,
    device: Device,
    encoder: G::Encoder,
    actions: usize,
    input: Vec<f32>,
}

impl<G: NetGame> NetEvaluator<G> {
    /// `net` must have been built for `game`'s shape ([`NetGame::net_shape`]); inference runs on the
    /// net as given, so pass `net.valid()`-style inference weights.
    pub fn new(game: &G, net: PolicyValueNet, device: Device) -> NetEvaluator<G> {
        NetEvaluator {
            net,
            device,
            encoder: G::Encoder::for_game(game),
            actions: game.facts().action_count,
            input: Vec::new(),
        }
    }
}

impl<G: NetGame> Evaluator<G> for NetEvaluator<G> {
    fn evaluate(&mut self, game: &G, leaves: &LeafBatch<G>, out: &mut Evaluations) {
        let positions = leaves.len();
        let len = self.encoder.input_len();
        self.input.resize(positions * len, 0.0);
        for (leaf, slot) in self.input.chunks_exact_mut(len).enumerate() {
            self.encoder.encode(game, leaves.state(leaf), leaves.plies(leaf), slot);
        }
        let (width, height) = self.encoder.grid();
        let shape = [self.encoder.planes(), height, width];
        // burn takes the buffer; the next call allocates a fresh one.
        let inference = infer(&self.net, &self.device, std::mem::take(&mut self.input), positions, shape);
        write_evaluations(game, leaves, &inference.policy, &inference.wdl, self.actions, out);
    }
}

/// Turns raw outputs into priors (softmax over each leaf's legal moves) and values. `policy` and `wdl`
/// hold the rows of `leaves`, in order, from their first row on.
pub fn write_evaluations<G: NetGame>(
    game: &G,
    leaves: &LeafBatch<G>,
    policy: &[f32],
    wdl: &[f32],
    actions: usize,
    out: &mut Evaluations,
) {
    for leaf in 0..leaves.len() {
        let logits = &policy[leaf * actions..(leaf + 1) * actions];
        let state = leaves.state(leaf);
        let priors = &mut out.priors[leaves.range(leaf)];
        let mut max = f32::NEG_INFINITY;
        for (prior, &mv) in priors.iter_mut().zip(leaves.moves(leaf)) {
            *prior = logits[game.action_index(state, mv)];
            max = max.max(*prior);
        }
        for prior in priors.iter_mut() {
            *prior = (*prior - max).exp();
        }
        let wdl = &wdl[leaf * 3..leaf * 3 + 3];
        out.values[leaf] = wdl[0] - wdl[2];
        out.draws[leaf] = wdl[1];
    }
}
