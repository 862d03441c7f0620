//! Selection rules as small pure functions with named parameters (the mctx habit): PUCT, first-play
//! urgency and virtual loss. Values here are always from the point of view of the player choosing.

/// How an edge that has never been visited is valued.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fpu {
    /// A fixed value in [-1, 1] (AlphaZero used 0).
    Absolute(f32),
    /// The parent's mean value minus this reduction (Leela Zero's choice).
    Reduction(f32),
}

/// The value of an unvisited child for a parent whose mean value (for its mover) is `parent_q`.
#[inline]
pub fn first_play_value(fpu: Fpu, parent_q: f32) -> f32 {
    match fpu {
        Fpu::Absolute(value) => value,
        Fpu::Reduction(reduction) => (parent_q - reduction).max(-1.0),
    }
}

/// The mean value of a child for the player choosing it, counting each of its `virtual_visits` (visits
/// in flight to the evaluator) as a loss, so a batch of descents spreads over the tree.
#[inline]
pub fn mean_with_virtual_loss(value_sum: f64, visits: u32, virtual_visits: u32) -> f32 {
    let n = visits + virtual_visits;
    if n == 0 { 0.0 } else { ((value_sum - virtual_visits as f64) / n as f64) as f32 }
}

/// AlphaZero's PUCT score: `q + c · prior · √N / (1 + n)`, with `√N` precomputed once per parent.
#[inline]
pub fn puct_score(q: f32, prior: f32, sqrt_parent_visits: f32, child_visits: u32, c: f32) -> f32 {
    q + c * prior * sqrt_parent_visits / (1 + child_visits) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unvisited_children_get_the_first_play_value() {
        assert_eq!(first_play_value(Fpu::Absolute(0.0), 0.7), 0.0);
        assert!((first_play_value(Fpu::Reduction(0.25), 0.5) - 0.25).abs() < 1e-6);
        assert_eq!(first_play_value(Fpu::Reduction(0.5), -0.9), -1.0);
    }

    #[test]
    fn virtual_visits_count_as_losses() {
        assert_eq!(mean_with_virtual_loss(0.0, 0, 0), 0.0);
        assert_eq!(mean_with_virtual_loss(3.0, 3, 0), 1.0);
        assert_eq!(mean_with_virtual_loss(3.0, 3, 1), 0.5);
        assert_eq!(mean_with_virtual_loss(0.0, 0, 2), -1.0);
    }

    #[test]
    fn exploration_shrinks_with_visits_and_grows_with_prior() {
        let fresh = puct_score(0.0, 0.5, 10.0, 0, 1.5);
        let visited = puct_score(0.0, 0.5, 10.0, 9, 1.5);
        assert!((fresh - 7.5).abs() < 1e-6 && (visited - 0.75).abs() < 1e-6);
        assert!(puct_score(0.0, 0.6, 10.0, 0, 1.5) > fresh);
    }
}
