//! Texel's tuning of a linear evaluation: each position's features are counted once ([`Sample`]), and
//! the weights are fitted to the games' results by minimising the mean squared difference between the
//! result (1, ½, 0 for White) and a logistic of the evaluation, `σ(K · eval / 400)` with `σ(x) = 1 /
//! (1 + 10^−x)`. `K` is fitted first on the starting weights; then Adam steps on every weight, with a
//! small pull toward the starting values so that terms the data hardly see stay put.

use super::chess::{WEIGHTS, features, phase};
use crate::game::chess::ChessGame;
use crate::game::chess::position::Position;

/// One position's features (term, White's count less Black's), phase and game result for White.
#[derive(Clone, Debug)]
pub struct Sample {
    pub terms: Vec<(u16, i8)>,
    pub phase: u8,
    pub result: f32,
}

impl Sample {
    pub fn of(game: &ChessGame, pos: &Position, result: f32) -> Sample {
        let mut terms = Vec::with_capacity(64);
        features(game, pos, &mut |term, count| terms.push((term as u16, count.clamp(-127, 127) as i8)));
        Sample { terms, phase: phase(pos) as u8, result }
    }

    /// The evaluation for White with `weights` (flat layout), before rounding.
    fn eval(&self, weights: &[f64]) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(term, count) in &self.terms {
            let term = term as usize;
            mg += weights[2 * term] * count as f64;
            eg += weights[2 * term + 1] * count as f64;
        }
        let phase = self.phase as f64;
        (mg * phase + eg * (24.0 - phase)) / 24.0
    }
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval / 400.0))
}

/// The mean squared error of the predictions with scale `k`.
pub fn error(samples: &[Sample], weights: &[f64], k: f64) -> f64 {
    samples.iter().map(|s| (s.result as f64 - sigmoid(k, s.eval(weights))).powi(2)).sum::<f64>()
        / samples.len().max(1) as f64
}

/// The scale `K` that fits the starting weights best (golden-section search on [0.1, 4]).
pub fn fit_scale(samples: &[Sample], weights: &[f64]) -> f64 {
    let (mut low, mut high) = (0.1, 4.0);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(samples, weights, a) < error(samples, weights, b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// What a tuning run did.
#[derive(Clone, Debug)]
pub struct Tuned {
    pub weights: Vec<i32>,
    pub scale: f64,
    pub error_before: f64,
    pub error_after: f64,
    pub epochs: usize,
}

/// Fits the weights to the samples: `epochs` passes of full-batch Adam (learning rate `rate`
/// centipawns), with an L2 pull of strength `pull` toward the starting weights.
pub fn tune(samples: &[Sample], start: &[i32], epochs: usize, rate: f64, pull: f64) -> Tuned {
    assert_eq!(start.len(), WEIGHTS);
    let start: Vec<f64> = start.iter().map(|&w| w as f64).collect();
    let scale = fit_scale(samples, &start);
    let error_before = error(samples, &start, scale);
    let mut weights = start.clone();
    let (mut m, mut v) = (vec![0.0; WEIGHTS], vec![0.0; WEIGHTS]);
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    let n = samples.len().max(1) as f64;
    let ln10 = std::f64::consts::LN_10;
    for epoch in 1..=epochs {
        let mut gradient = vec![0.0; WEIGHTS];
        for s in samples {
            let p = sigmoid(scale, s.eval(&weights));
            // d/dw of (r − p)² = −2 (r − p) · p (1 − p) · K ln 10 / 400 · d eval / d w.
            let common = -2.0 * (s.result as f64 - p) * p * (1.0 - p) * scale * ln10 / 400.0 / n;
            let phase = s.phase as f64 / 24.0;
            for &(term, count) in &s.terms {
                let term = term as usize;
                gradient[2 * term] += common * count as f64 * phase;
                gradient[2 * term + 1] += common * count as f64 * (1.0 - phase);
            }
        }
        for i in 0..WEIGHTS {
            let g = gradient[i] + pull * (weights[i] - start[i]);
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(epoch as i32));
            weights[i] -= rate * m_hat / (v_hat.sqrt() + eps);
        }
    }
    let error_after = error(samples, &weights, scale);
    Tuned {
        weights: weights.iter().map(|w| w.round() as i32).collect(),
        scale,
        error_before,
        error_after,
        epochs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::chess::shipped;
    use crate::game::Game;

    /// Positions where White is a knight up and wins, and the mirror image where Black is and wins:
    /// tuning raises the knight's value and lowers the error.
    #[test]
    fn tuning_fits_results() {
        let crate::game::AnyGame::Chess(game) = crate::game::AnyGame::from_spec("chess").unwrap() else {
            unreachable!()
        };
        let up = game.parse_position("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1").unwrap();
        let down = game.parse_position("1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1").unwrap();
        let even = game.parse_position("1n2k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1").unwrap();
        let samples: Vec<Sample> = (0..50)
            .flat_map(|_| {
                [Sample::of(&game, &up, 1.0), Sample::of(&game, &down, 0.0), Sample::of(&game, &even, 0.5)]
            })
            .collect();
        let start = shipped().flat();
        let mut low_knight = start.clone();
        low_knight[2] = 50;
        low_knight[3] = 50;
        let tuned = tune(&samples, &low_knight, 200, 5.0, 0.0);
        assert!(tuned.error_after < tuned.error_before, "{tuned:?}");
        assert!(
            tuned.weights[2] > 50 && tuned.weights[3] > 50,
            "the knight gains: {:?}",
            &tuned.weights[..4]
        );
    }
}
