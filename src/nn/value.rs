//! The network's value head as an alpha-beta search's leaf evaluation ([`Evaluation`]): a leaf is
//! encoded alone and its `P(win) − P(loss)` for the player to move scaled by 1,000 (so a sure win is
//! worth ten queens, and scores stay clear of mates).

use super::{Encoder, Inference, InferenceNet, NetGame};
use crate::search::alphabeta::Evaluation;

/// A network evaluating single leaves of one game.
pub struct NetValue<G: NetGame> {
    net: InferenceNet,
    encoder: G::Encoder,
    input: Vec<f32>,
    output: Inference,
}

impl<G: NetGame> NetValue<G> {
    /// `net` must have been built for `game`'s shape ([`NetGame::net_shape`]).
    pub fn new(game: &G, net: InferenceNet) -> NetValue<G> {
        let encoder = G::Encoder::for_game(game);
        let input = vec![0.0; encoder.input_len()];
        NetValue { net, encoder, input, output: Inference::default() }
    }
}

impl<G: NetGame> Evaluation<G> for NetValue<G> {
    fn evaluate(&mut self, game: &G, state: &G::State, plies: u32) -> i32 {
        self.encoder.encode(game, state, plies, &mut self.input);
        self.net.infer(&self.input, 1, &mut self.output);
        let wdl = &self.output.wdl;
        (1000.0 * (wdl[0] - wdl[2])).round() as i32
    }
}
