//! The network as the search's [`Evaluator`]: a batch of leaves is encoded into one input batch, run
//! through the network once, and turned into priors over each leaf's legal moves (a softmax over their
//! logits only, which masks the illegal ones; the search does its normalising division) and a value `P(win) − P(loss)` for its player to move.

use super::{Encoder, Inference, InferenceNet, NetGame};
use crate::search::{Evaluations, Evaluator, LeafBatch};

/// A network evaluating leaves for one game.
#[derive(Clone, Debug)]
pub struct NetEvaluator<G: NetGame> {
    net: InferenceNet,
    encoder: G::Encoder,
    actions: usize,
    input: Vec<f32>,
    output: Inference,
}

impl<G: NetGame> NetEvaluator<G> {
    /// `net` must have been built for `game`'s shape ([`NetGame::net_shape`]).
    pub fn new(game: &G, net: InferenceNet) -> NetEvaluator<G> {
        NetEvaluator {
            net,
            encoder: G::Encoder::for_game(game),
            actions: game.facts().action_count,
            input: Vec::new(),
            output: Inference::default(),
        }
    }
}

impl<G: NetGame> Evaluator<G> for NetEvaluator<G> {
    fn evaluate(&mut self, game: &G, leaves: &LeafBatch<G>, out: &mut Evaluations) {
        self.input.clear();
        encode_leaves(&self.encoder, game, leaves, &mut self.input);
        self.net.infer(&self.input, leaves.len(), &mut self.output);
        write_evaluations(game, leaves, &self.output.policy, &self.output.wdl, self.actions, out);
    }
}

/// Appends the input planes of every leaf of `leaves` to `input` (one row per leaf, in order).
pub fn encode_leaves<G: NetGame>(
    encoder: &G::Encoder,
    game: &G,
    leaves: &LeafBatch<G>,
    input: &mut Vec<f32>,
) {
    let len = encoder.input_len();
    for leaf in 0..leaves.len() {
        let start = input.len();
        input.resize(start + len, 0.0);
        encoder.encode(game, leaves.state(leaf), leaves.plies(leaf), &mut input[start..]);
    }
}

/// Turns raw outputs into prior weights and values: each legal move's weight is `exp(logit − max)`
/// over that leaf's legal moves, left unnormalised because the search divides by their sum when it
/// sets the priors (together the softmax over the legal moves). `policy` and `wdl` hold the rows of
/// `leaves`, in order, from their first row on.
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
            *prior = logits[game.action_index(state, mv).get()];
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
