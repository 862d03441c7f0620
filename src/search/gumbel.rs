//! Gumbel AlphaZero's root search (Danihelka et al., "Policy improvement by planning with Gumbel",
//! ICLR 2022), as mctx implements it: the root samples moves without replacement by Gumbel-top-k,
//! spends its simulations on them by sequential halving, plays the survivor with the best
//! `gumbel + logit + σ(q)`, and teaches the improved policy `softmax(logit + σ(completed q))`, which
//! improves on the prior even with very few simulations. Below the root the search stays PUCT.
//!
//! `σ` follows the paper's setting for Go and chess: unvisited moves get the mixed value estimate (mctx's
//! `qtransform_completed_by_mix_value`), values in [−1, 1] map to [0, 1] and are multiplied by
//! `(c_visit + max visits) · c_scale` with `c_visit = 50`, `c_scale = 1`. (mctx's default instead
//! rescales by the root's own min and max, meant for unbounded values; with our bounded values that
//! blows a rounding difference between equal moves up to the whole scale.)

use rand::{Rng, RngExt};

/// The paper's `c_visit`: σ's scale before any visit.
const VISIT_OFFSET: f32 = 50.0;
/// The paper's `c_scale`.
const VALUE_SCALE: f32 = 1.0;

/// What the root search needs of one root move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RootMove {
    pub prior: f32,
    /// Finished visits; `q` means something only when this is above zero.
    pub visits: u32,
    /// Visits in flight to the evaluator (virtual loss), counted by the halving schedule.
    pub in_flight: u32,
    /// The mean (or proven) value for the root's player to move.
    pub q: f32,
}

/// The state of one Gumbel root: its noise, its schedule and its scratch space.
#[derive(Clone, Debug, Default)]
pub struct GumbelRoot {
    /// `gumbel + ln prior` for each root move, fixed when the root is evaluated.
    perturbed_logits: Vec<f32>,
    /// `ln prior` for each root move.
    logits: Vec<f32>,
    /// The visit count a move must have to be chosen at each simulation (sequential halving).
    schedule: Vec<u32>,
    /// The network's value of the root for its player to move (the mixed value's anchor).
    raw_value: f32,
    sigma: Vec<f32>,
}

impl GumbelRoot {
    /// Draws the root's Gumbel noise and lays out the halving of `simulations` over at most
    /// `considered` moves.
    pub fn start<R: Rng>(
        &mut self,
        moves: &[RootMove],
        raw_value: f32,
        considered: u32,
        simulations: u32,
        rng: &mut R,
    ) {
        self.logits.clear();
        self.logits.extend(moves.iter().map(|m| m.prior.max(f32::MIN_POSITIVE).ln()));
        self.perturbed_logits.clear();
        self.perturbed_logits.extend(self.logits.iter().map(|&logit| logit + standard_gumbel(rng)));
        let considered = considered.min(moves.len() as u32);
        self.schedule = considered_visits(considered, simulations);
        self.raw_value = raw_value;
    }

    /// The root move for the next simulation: the best-scored among those whose visit count is the one
    /// the schedule asks for at this simulation.
    pub fn select(&mut self, moves: &[RootMove]) -> usize {
        let started: u32 = moves.iter().map(|m| m.visits + m.in_flight).sum();
        let wanted = self.schedule.get(started as usize).copied();
        self.best_with_visits(moves, |m| Some(m.visits + m.in_flight) == wanted)
            .unwrap_or_else(|| self.choose(moves))
    }

    /// The move to play: the best-scored among the moves with the most visits (the halving's survivors).
    pub fn choose(&mut self, moves: &[RootMove]) -> usize {
        let most = moves.iter().map(|m| m.visits).max().unwrap_or(0);
        self.best_with_visits(moves, |m| m.visits == most).unwrap_or(0)
    }

    /// The improved policy `softmax(ln prior + σ(completed q))` over the root moves, into `policy`.
    pub fn improved_policy(&mut self, moves: &[RootMove], policy: &mut Vec<f32>) {
        self.fill_sigma(moves);
        policy.clear();
        policy.extend(self.logits.iter().zip(&self.sigma).map(|(logit, sigma)| logit + sigma));
        let top = policy.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        policy.iter_mut().for_each(|p| *p = (*p - top).exp());
        let total: f32 = policy.iter().sum();
        policy.iter_mut().for_each(|p| *p /= total);
    }

    fn best_with_visits(
        &mut self,
        moves: &[RootMove],
        eligible: impl Fn(&RootMove) -> bool,
    ) -> Option<usize> {
        self.fill_sigma(moves);
        let mut best: Option<(usize, f32)> = None;
        for index in (0..moves.len()).filter(|&index| eligible(&moves[index])) {
            let score = self.perturbed_logits[index] + self.sigma[index];
            if best.is_none_or(|(_, top)| score > top) {
                best = Some((index, score));
            }
        }
        best.map(|(index, _)| index)
    }

    /// σ(completed q) for every root move, into `self.sigma`.
    fn fill_sigma(&mut self, moves: &[RootMove]) {
        let visited = |m: &&RootMove| m.visits > 0;
        let total_visits: u32 = moves.iter().map(|m| m.visits).sum();
        let visited_prior: f32 = moves.iter().filter(visited).map(|m| m.prior.max(f32::MIN_POSITIVE)).sum();
        let weighted_q: f32 =
            moves.iter().filter(visited).map(|m| m.prior.max(f32::MIN_POSITIVE) * m.q).sum();
        let mixed = if total_visits == 0 {
            self.raw_value
        } else {
            (self.raw_value + total_visits as f32 * weighted_q / visited_prior) / (total_visits + 1) as f32
        };
        self.sigma.clear();
        self.sigma.extend(moves.iter().map(|m| if m.visits > 0 { m.q } else { mixed }));
        let most = moves.iter().map(|m| m.visits).max().unwrap_or(0);
        let scale = (VISIT_OFFSET + most as f32) * VALUE_SCALE;
        self.sigma.iter_mut().for_each(|q| *q = scale * (q.clamp(-1.0, 1.0) + 1.0) / 2.0);
    }
}

/// A standard Gumbel variate, `−ln(−ln U)`.
fn standard_gumbel<R: Rng>(rng: &mut R) -> f32 {
    let u: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    -(-u.ln()).ln() as f32
}

/// Sequential halving as one list (mctx's `get_sequence_of_considered_visits`): entry `k` is the visit
/// count a move must have to receive simulation `k`. `considered` moves share the first phase; each of
/// the `⌈log₂ considered⌉` phases gives every remaining move `simulations / (phases · remaining)` visits
/// (at least one) and then keeps the better half (at least two).
pub fn considered_visits(considered: u32, simulations: u32) -> Vec<u32> {
    let n = simulations as usize;
    if considered <= 1 {
        return (0..simulations).collect();
    }
    let phases = (considered as f64).log2().ceil() as usize;
    let mut sequence = Vec::with_capacity(n);
    let mut visits = vec![0u32; considered as usize];
    let mut remaining = considered as usize;
    while sequence.len() < n {
        let extra = (n / (phases * remaining)).max(1);
        for _ in 0..extra {
            sequence.extend_from_slice(&visits[..remaining]);
            visits[..remaining].iter_mut().for_each(|v| *v += 1);
        }
        remaining = (remaining / 2).max(2);
    }
    sequence.truncate(n);
    sequence
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    use super::*;

    #[test]
    fn the_schedule_halves_the_considered_moves() {
        assert_eq!(considered_visits(4, 16), [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
        assert_eq!(considered_visits(1, 3), [0, 1, 2]);
        assert_eq!(considered_visits(2, 5), [0, 0, 1, 1, 2]);
        // Fewer simulations than moves: each gets at most one.
        assert_eq!(considered_visits(16, 4), [0, 0, 0, 0]);
    }

    fn moves(priors: &[f32]) -> Vec<RootMove> {
        priors.iter().map(|&prior| RootMove { prior, ..RootMove::default() }).collect()
    }

    #[test]
    fn equal_values_leave_the_prior_unchanged() {
        let mut root = GumbelRoot::default();
        let mut moves = moves(&[0.5, 0.3, 0.2]);
        root.start(&moves, 0.1, 16, 32, &mut Pcg64Mcg::seed_from_u64(1));
        for m in &mut moves[..2] {
            (m.visits, m.q) = (5, 0.1);
        }
        let mut policy = Vec::new();
        root.improved_policy(&moves, &mut policy);
        for (p, m) in policy.iter().zip(&moves) {
            assert!((p - m.prior).abs() < 1e-5, "{policy:?}");
        }
    }

    #[test]
    fn a_better_value_draws_the_policy_and_the_choice() {
        let mut root = GumbelRoot::default();
        let mut moves = moves(&[0.6, 0.3, 0.1]);
        root.start(&moves, 0.0, 16, 30, &mut Pcg64Mcg::seed_from_u64(2));
        // Simulate the schedule: the third move is worth +0.8, the others −0.2.
        let worth = [-0.2, -0.2, 0.8];
        for _ in 0..30 {
            let index = root.select(&moves);
            let m = &mut moves[index];
            m.q = (m.q * m.visits as f32 + worth[index]) / (m.visits + 1) as f32;
            m.visits += 1;
        }
        assert_eq!(moves.iter().map(|m| m.visits).sum::<u32>(), 30);
        assert_eq!(root.choose(&moves), 2, "{moves:?}");
        let mut policy = Vec::new();
        root.improved_policy(&moves, &mut policy);
        assert!(policy[2] > 0.9, "{policy:?}");
        assert!((policy.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn the_first_simulations_go_to_distinct_moves() {
        let mut root = GumbelRoot::default();
        let mut moves = moves(&[0.25; 4]);
        root.start(&moves, 0.0, 4, 8, &mut Pcg64Mcg::seed_from_u64(3));
        for _ in 0..4 {
            let index = root.select(&moves);
            moves[index].in_flight += 1;
        }
        assert!(moves.iter().all(|m| m.in_flight == 1), "{moves:?}");
    }
}
