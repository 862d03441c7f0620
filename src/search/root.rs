//! The root's policy: how a search explores its root moves, which move it plays and what it teaches
//! (mctx keeps `muzero_policy` and `gumbel_muzero_policy` apart the same way). [`super::mcts`] descends,
//! backs up and proves; at the root it asks [`RootSearch`], which holds the policy's state for one
//! root. A new root policy is a variant of [`RootPolicy`] and its arms here, its mathematics in a file
//! of its own (as [`super::gumbel`] is Gumbel AlphaZero's).
//!
//! - PUCT: the root is searched as any node, with Dirichlet noise mixed into its priors for the
//!   searches that explore; it plays by visit counts ([`choose_by_visits`]) and teaches the visit
//!   shares.
//! - Gumbel: sequential halving over Gumbel-sampled moves; it plays the survivor and teaches the
//!   improved policy.

use rand::{Rng, RngExt};

use super::gumbel::{GumbelRoot, RootMove};
use super::noise::{DirichletNoise, add_dirichlet_noise};
use super::solver::Proof;
use super::tree::{Edge, NO_NODE, ROOT, Tree};
use crate::game::Game;

/// The root's policy: how a search explores its root moves and which it plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RootPolicy {
    /// PUCT at the root as below it, with Dirichlet noise mixed into the root priors when given (for
    /// the searches [`super::Mcts::set_budget`] marks as exploring); plays by visit counts.
    Puct { noise: Option<DirichletNoise> },
    /// Gumbel AlphaZero's root over `considered` moves ([`super::gumbel`]): plays the survivor of
    /// sequential halving and ignores the move temperature; its tree is never reused, as its schedule
    /// counts the visits of one search.
    Gumbel { considered: u32 },
}

impl RootPolicy {
    /// Whether a later search may keep this root's subtree.
    pub fn reuses_tree(&self) -> bool {
        matches!(self, RootPolicy::Puct { .. })
    }
}

/// Improved-policy shares below this are left out of a policy target (they would only fill the
/// replay window; the largest share is always above it).
const MIN_POLICY_SHARE: f32 = 1e-3;

/// A root's state under its policy, set up once per root, once the root is evaluated.
#[derive(Clone, Debug)]
pub(super) struct RootSearch {
    policy: RootPolicy,
    /// Whether the root's noise or Gumbel schedule is in place.
    prepared: bool,
    gumbel: GumbelRoot,
    /// The root's evaluation for its player to move (the Gumbel root's mixed-value anchor).
    raw_value: f32,
    noise_samples: Vec<f64>,
}

impl RootSearch {
    pub(super) fn new(policy: RootPolicy) -> RootSearch {
        RootSearch {
            policy,
            prepared: false,
            gumbel: GumbelRoot::default(),
            raw_value: 0.0,
            noise_samples: Vec::new(),
        }
    }

    /// A new root: it is prepared again once evaluated.
    pub(super) fn renew(&mut self) {
        self.prepared = false;
    }

    pub(super) fn is_prepared(&self) -> bool {
        self.prepared
    }

    /// The evaluator's value of the root for its player to move.
    pub(super) fn set_raw_value(&mut self, value: f32) {
        self.raw_value = value;
    }

    /// Whether the policy itself picks the root's moves (to search and to play), rather than PUCT and
    /// the visit counts: a Gumbel root once started.
    pub(super) fn picks_moves(&self) -> bool {
        matches!(self.policy, RootPolicy::Gumbel { .. }) && self.prepared
    }

    /// Prepares the evaluated root (`moves` as the policy sees them, `edges` the root's edges): mixes
    /// the Dirichlet noise of an exploring PUCT search into the priors, or draws a Gumbel root's noise
    /// and lays out its schedule of `simulations`.
    pub(super) fn prepare<M, R: Rng>(
        &mut self,
        moves: &[RootMove],
        edges: &mut [Edge<M>],
        explore: bool,
        simulations: u32,
        rng: &mut R,
    ) {
        match self.policy {
            RootPolicy::Gumbel { considered } => {
                self.gumbel.start(moves, self.raw_value, considered, simulations, rng);
                self.prepared = true;
            }
            RootPolicy::Puct { noise: Some(noise) } if explore => {
                let mut priors: Vec<f32> = edges.iter().map(|e| e.prior).collect();
                add_dirichlet_noise(&mut priors, noise, &mut self.noise_samples, rng);
                for (edge, prior) in edges.iter_mut().zip(priors) {
                    edge.prior = prior;
                }
                self.prepared = true;
            }
            RootPolicy::Puct { .. } => {}
        }
    }

    /// The root move (an index into `moves`) for the next descent, where the policy picks it.
    pub(super) fn select(&mut self, moves: &[RootMove]) -> Option<usize> {
        self.picks_moves().then(|| self.gumbel.select(moves))
    }

    /// The root move (an index into `moves`) to play, where the policy picks it.
    pub(super) fn choose(&mut self, moves: &[RootMove]) -> Option<usize> {
        self.picks_moves().then(|| self.gumbel.choose(moves))
    }

    /// The policy target over the root moves `mvs` (in `moves`' order), where the policy teaches its
    /// own: the improved policy, shares below [`MIN_POLICY_SHARE`] dropped.
    pub(super) fn target<M: Copy>(
        &mut self,
        moves: &[RootMove],
        mvs: impl Iterator<Item = M>,
    ) -> Option<Vec<(M, f32)>> {
        if !self.picks_moves() {
            return None;
        }
        let mut improved = Vec::new();
        self.gumbel.improved_policy(moves, &mut improved);
        let kept: f32 = improved.iter().filter(|&&p| p >= MIN_POLICY_SHARE).sum();
        Some(
            mvs.zip(improved).filter(|&(_, p)| p >= MIN_POLICY_SHARE).map(|(mv, p)| (mv, p / kept)).collect(),
        )
    }
}

/// The move to play by the root's visit counts and proofs, `None` when the root has no move.
///
/// A proven win plays its nearest winning move; proven losing moves are avoided while anything else
/// remains, and a proven loss plays the move that resists longest. Otherwise: the most visited move
/// at `temperature` 0, or a move drawn with probability ∝ visits^(1/temperature).
pub(super) fn choose_by_visits<G: Game, R: Rng>(
    tree: &Tree<G>,
    temperature: f32,
    rng: &mut R,
) -> Option<G::Move> {
    let root = tree.node(ROOT);
    let mover = root.to_move;
    let edges = tree.edges_of(ROOT);
    let proof_of = |e: &Edge<G::Move>| match e.child {
        NO_NODE => Proof::Unknown,
        child => tree.node(child).proof,
    };
    let visits_of = |e: &Edge<G::Move>| match e.child {
        NO_NODE => 0,
        child => tree.node(child).visits,
    };
    let plies_of = |e| match proof_of(e) {
        Proof::Proven { plies, .. } => plies,
        Proof::Unknown => 0,
    };
    if let Proof::Proven { winner: Some(w), .. } = root.proof {
        return if w == mover {
            let wins = edges.iter().filter(|e| proof_of(e).value_for(mover) == Some(1.0));
            wins.min_by_key(|e| plies_of(e)).map(|e| e.mv)
        } else {
            edges.iter().max_by_key(|e| (plies_of(e), visits_of(e))).map(|e| e.mv)
        };
    }
    let loses = |e| proof_of(e).value_for(mover) == Some(-1.0);
    let all_lose = edges.iter().all(loses);
    let candidates = || edges.iter().filter(move |e| all_lose || !loses(e));
    if temperature > 0.0 {
        let weight = |e| (visits_of(e) as f64).powf(1.0 / temperature as f64);
        let total: f64 = candidates().map(weight).sum();
        if total > 0.0 && total.is_finite() {
            let mut target = rng.random::<f64>() * total;
            for edge in candidates() {
                target -= weight(edge);
                if target < 0.0 {
                    return Some(edge.mv);
                }
            }
        }
    }
    // Most visits; ties go to the higher prior, then to the first move.
    candidates()
        .fold(None, |best: Option<&Edge<G::Move>>, e| match best {
            Some(b) if (visits_of(b), b.prior) >= (visits_of(e), e.prior) => Some(b),
            _ => Some(e),
        })
        .map(|e| e.mv)
}
