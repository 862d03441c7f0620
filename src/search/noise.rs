//! Dirichlet noise for the root priors (AlphaZero's exploration in self-play): normalised Gamma(α, 1)
//! variates from `rand_distr`.

use rand::Rng;
use rand_distr::{Distribution, Gamma};

/// Root noise: `prior ← (1 − epsilon) · prior + epsilon · Dir(alpha)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DirichletNoise {
    pub alpha: f64,
    pub epsilon: f32,
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
    let Ok(gamma) = Gamma::new(noise.alpha, 1.0) else {
        return; // α ≤ 0 or not finite: the config check refuses it, so this is no noise at all
    };
    samples.clear();
    samples.extend(priors.iter().map(|_| gamma.sample(rng)));
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

    /// Dir(α) has mean 1/n per component, so over many draws the noisy priors average
    /// (1 − ε)·p + ε/n.
    #[test]
    fn noise_averages_to_the_mixture_with_the_uniform() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let (draws, epsilon) = (20_000, 0.25f32);
        let mut sums = [0.0f64; 4];
        let mut samples = Vec::new();
        for _ in 0..draws {
            let mut priors = vec![0.7f32, 0.1, 0.1, 0.1];
            add_dirichlet_noise(&mut priors, DirichletNoise { alpha: 0.3, epsilon }, &mut samples, &mut rng);
            for (sum, p) in sums.iter_mut().zip(&priors) {
                *sum += f64::from(*p);
            }
        }
        for (sum, prior) in sums.iter().zip([0.7f32, 0.1, 0.1, 0.1]) {
            let expected = f64::from((1.0 - epsilon) * prior + epsilon / 4.0);
            assert!((sum / draws as f64 - expected).abs() < 0.005, "{sum} vs {expected}");
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
