//! Dirichlet noise for the root priors (AlphaZero's exploration in self-play), sampled from gamma
//! variates by Marsaglia and Tsang's method, so that no distribution crate is needed.

use rand::{Rng, RngExt};

/// Root noise: `prior ← (1 − epsilon) · prior + epsilon · Dir(alpha)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirichletNoise {
    pub alpha: f64,
    pub epsilon: f32,
}

/// A standard normal variate (Marsaglia's polar method).
fn standard_normal<R: Rng>(rng: &mut R) -> f64 {
    loop {
        let u = 2.0 * rng.random::<f64>() - 1.0;
        let v = 2.0 * rng.random::<f64>() - 1.0;
        let s = u * u + v * v;
        if s > 0.0 && s < 1.0 {
            return u * (-2.0 * s.ln() / s).sqrt();
        }
    }
}

/// A Gamma(shape, 1) variate for `shape > 0` (Marsaglia & Tsang 2000; shapes below one use the boost
/// `Gamma(a) = Gamma(a + 1) · U^(1/a)`).
pub fn gamma<R: Rng>(shape: f64, rng: &mut R) -> f64 {
    debug_assert!(shape > 0.0);
    if shape < 1.0 {
        let u: f64 = 1.0 - rng.random::<f64>(); // in (0, 1]
        return gamma(shape + 1.0, rng) * u.powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = standard_normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u: f64 = rng.random::<f64>();
        if u < 1.0 - 0.0331 * x.powi(4) || u.ln() < 0.5 * x * x + d * (1.0 - v + v.ln()) {
            return d * v;
        }
    }
}

/// Mixes Dirichlet noise into `priors` (which sum to one) in place; `samples` is a reusable buffer.
pub fn add_dirichlet_noise<R: Rng>(
    priors: &mut [f32],
    noise: DirichletNoise,
    samples: &mut Vec<f64>,
    rng: &mut R,
) {
    if priors.len() < 2 {
        return;
    }
    samples.clear();
    samples.extend(priors.iter().map(|_| gamma(noise.alpha, rng)));
    let total: f64 = samples.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        return; // every sample underflowed (tiny alpha): no usable noise this time
    }
    for (prior, sample) in priors.iter_mut().zip(samples.iter()) {
        *prior = (1.0 - noise.epsilon) * *prior + noise.epsilon * (sample / total) as f32;
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    use super::*;

    /// Sample mean and variance of Gamma(k, 1) are both k.
    #[test]
    fn gamma_samples_have_the_right_mean_and_variance() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        for shape in [0.03, 0.3, 1.0, 2.5, 10.0] {
            let n = 200_000;
            let xs: Vec<f64> = (0..n).map(|_| gamma(shape, &mut rng)).collect();
            let mean = xs.iter().sum::<f64>() / n as f64;
            let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
            assert!((mean - shape).abs() < 0.03 * shape.max(0.3), "shape {shape}: mean {mean}");
            assert!((var - shape).abs() < 0.08 * shape.max(0.3), "shape {shape}: variance {var}");
            assert!(xs.iter().all(|&x| x >= 0.0 && x.is_finite()));
        }
    }

    #[test]
    fn noisy_priors_stay_a_distribution_and_change() {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut priors = vec![0.25f32; 4];
        let mut samples = Vec::new();
        add_dirichlet_noise(
            &mut priors,
            DirichletNoise { alpha: 0.3, epsilon: 0.25 },
            &mut samples,
            &mut rng,
        );
        assert!((priors.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(priors.iter().all(|&p| p >= 0.25 * 0.75 - 1e-6));
        assert!(priors.iter().any(|&p| (p - 0.25).abs() > 1e-3));
    }
}
