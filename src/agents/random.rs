//! The uniformly random agent: the baseline every other agent must beat.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::Agent;
use crate::game::{Game, Playthrough};

pub struct RandomAgent {
    rng: Pcg64Mcg,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent { rng: Pcg64Mcg::seed_from_u64(seed) }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn choose(&mut self, line: &Playthrough<G>) -> G::Move {
        let moves = line.legal_moves();
        moves[self.rng.random_range(0..moves.len())]
    }
}
