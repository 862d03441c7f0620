//! Studies that run until they decide: a claim may be read at several looks, its cells growing in
//! rounds, without its type-I error growing with the looks.
//!
//! The design is group-sequential with Lan and DeMets' alpha spending (1983), O'Brien–Fleming type:
//! each direction of a verdict is a one-sided test at level 2.5%, of which `α(t) = 2 − 2Φ(z₁₋α/₂ / √t)`
//! is spent by information fraction `t` (the games at a look over the games at the last). A look's
//! boundary `c_k` is the quantile the rule's intervals are taken at there: the probability under the
//! null that the statistic first crosses at look `k` is exactly the alpha spent there, computed by
//! recursive numerical integration of the statistic's path (Armitage, McPherson and Rowe 1969;
//! Jennison and Turnbull 2000, ch. 19). Early looks spend almost nothing (a crossing at a quarter of
//! the games needs z ≈ 4.3), the last about what a single look would.
//!
//! A reading stops at its first crossing, and its p value is the stagewise-ordered one: the alpha
//! spent before that look plus the chance of reaching it and exceeding the observed statistic, so
//! that `p < 0.05` (doubled, as every p of the lab) exactly when it crossed.

use super::stats::{normal_quantile, normal_upper_tail};

/// One-sided level of each direction of a verdict.
pub const ONE_SIDED: f64 = 0.025;

/// Grid step of the integration, in units of the statistic's sum at full information.
const STEP: f64 = 0.005;
/// Where the integration's lower tail is cut off, in standard deviations.
const TAIL: f64 = 9.0;

/// The O'Brien–Fleming-type spending function: the one-sided alpha spent by information fraction `t`
/// of a design at one-sided level `alpha`.
pub fn spent(t: f64, alpha: f64) -> f64 {
    if t <= 0.0 {
        return 0.0;
    }
    let z = normal_quantile(1.0 - alpha / 2.0);
    (2.0 * normal_upper_tail(z / t.min(1.0).sqrt())).min(alpha)
}

/// A sequential design: looks at increasing multiples of a cell's planned games, with their
/// boundaries and what the integration carries from one look to the next.
#[derive(Clone, Debug)]
pub struct Design {
    /// The looks as multiples of the planned games (the first is usually 1).
    pub looks: Vec<f64>,
    /// Each look's boundary quantile.
    pub boundaries: Vec<f64>,
    /// The sub-density of the statistic's sum `S = Z √t` at each look on the paths that have not
    /// crossed yet, on a grid from `grid_low` in steps of [`STEP`].
    densities: Vec<Vec<f64>>,
    grid_low: f64,
    /// The one-sided level of each direction: [`ONE_SIDED`], or a replication's stricter one.
    pub alpha: f64,
}

impl Design {
    /// The design of `looks` (increasing, positive multiples of the planned games) at [`ONE_SIDED`].
    pub fn new(looks: &[f64]) -> Design {
        Design::at_level(looks, ONE_SIDED)
    }

    /// The design of `looks` at one-sided level `alpha` per direction.
    pub fn at_level(looks: &[f64], alpha: f64) -> Design {
        assert!(!looks.is_empty() && looks.windows(2).all(|w| w[0] < w[1]) && looks[0] > 0.0);
        assert!(alpha > 0.0 && alpha <= ONE_SIDED);
        let last = *looks.last().expect("a look");
        let fractions: Vec<f64> = looks.iter().map(|l| l / last).collect();
        let grid_low = -TAIL;
        let mut design =
            Design { looks: looks.to_vec(), boundaries: Vec::new(), densities: Vec::new(), grid_low, alpha };
        for k in 0..fractions.len() {
            let target =
                spent(fractions[k], alpha) - if k == 0 { 0.0 } else { spent(fractions[k - 1], alpha) };
            let boundary = design.boundary_for(k, &fractions, target);
            design.boundaries.push(boundary);
            let density = design.density_after(k, &fractions, boundary);
            design.densities.push(density);
        }
        design
    }

    /// The design of `looks` at one-sided level `alpha`, computed once per process (a study reads its
    /// claims every round).
    pub fn cached(looks: &[f64], alpha: f64) -> std::sync::Arc<Design> {
        use std::collections::HashMap;
        use std::sync::{Arc, LazyLock, Mutex};
        type Cache = Mutex<HashMap<Vec<u64>, Arc<Design>>>;
        static DESIGNS: LazyLock<Cache> = LazyLock::new(Default::default);
        let key: Vec<u64> = looks.iter().chain([&alpha]).map(|l| l.to_bits()).collect();
        let mut designs = DESIGNS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        designs.entry(key).or_insert_with(|| Arc::new(Design::at_level(looks, alpha))).clone()
    }

    /// A single look: the fixed design, boundary 1.96.
    pub fn single() -> Design {
        Design::new(&[1.0])
    }

    pub fn fractions(&self) -> Vec<f64> {
        let last = *self.looks.last().expect("a look");
        self.looks.iter().map(|l| l / last).collect()
    }

    /// The chance under the null of reaching look `k` without a crossing and there exceeding `z`.
    pub fn crossing(&self, k: usize, z: f64) -> f64 {
        self.crossing_with(k, &self.fractions(), z)
    }

    fn crossing_with(&self, k: usize, fractions: &[f64], z: f64) -> f64 {
        if k == 0 {
            return normal_upper_tail(z);
        }
        let (t, before) = (fractions[k], fractions[k - 1]);
        let spread = (t - before).sqrt();
        let bound = z * t.sqrt();
        let density = &self.densities[k - 1];
        let weights = density.iter().enumerate().map(|(i, f)| {
            let u = self.grid_low + i as f64 * STEP;
            f * normal_upper_tail((bound - u) / spread)
        });
        trapezoid(weights)
    }

    /// The boundary at look `k` that spends `target` there.
    fn boundary_for(&self, k: usize, fractions: &[f64], target: f64) -> f64 {
        let (mut low, mut high) = (0.0, 40.0);
        for _ in 0..80 {
            let mid = 0.5 * (low + high);
            if self.crossing_with(k, fractions, mid) > target { low = mid } else { high = mid }
        }
        0.5 * (low + high)
    }

    /// The sub-density of `S` at look `k` on the paths that crossed at none of looks `0..=k`.
    fn density_after(&self, k: usize, fractions: &[f64], boundary: f64) -> Vec<f64> {
        let t = fractions[k];
        let top = boundary * t.sqrt();
        let points = ((top - self.grid_low) / STEP).floor().max(0.0) as usize + 1;
        let at = |i: usize| self.grid_low + i as f64 * STEP;
        if k == 0 {
            let sd = t.sqrt();
            return (0..points).map(|i| normal_density(at(i) / sd) / sd).collect();
        }
        let spread = (t - fractions[k - 1]).sqrt();
        let previous = &self.densities[k - 1];
        (0..points)
            .map(|i| {
                let s = at(i);
                trapezoid(
                    previous
                        .iter()
                        .enumerate()
                        .map(|(j, f)| f * normal_density((s - at(j)) / spread) / spread),
                )
            })
            .collect()
    }

    /// The stagewise-ordered one-sided p value of a reading that stopped at look `k` with statistic
    /// `z` (at the last look, whatever `z`).
    pub fn p_at(&self, k: usize, z: f64) -> f64 {
        let fractions = self.fractions();
        let before = if k == 0 { 0.0 } else { spent(fractions[k - 1], self.alpha) };
        (before + self.crossing(k, z)).min(1.0)
    }
}

fn normal_density(x: f64) -> f64 {
    (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// The trapezoid rule over values on the grid.
fn trapezoid(values: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut first, mut last, mut count) = (0.0, 0.0, 0.0, 0usize);
    for (i, v) in values.enumerate() {
        if i == 0 {
            first = v;
        }
        last = v;
        sum += v;
        count += 1;
    }
    if count < 2 { 0.0 } else { STEP * (sum - 0.5 * (first + last)) }
}

/// Where a sequential reading stands: the look it crossed at (or the last it reached) and how.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stop {
    /// The look (index) the reading is taken at.
    pub look: usize,
    /// Whether it crossed there (a decisive verdict), or reached it undecided.
    pub crossed: bool,
    /// The statistic there, and the p value (one-sided, stagewise).
    pub z: f64,
    pub p_one_sided: f64,
}

/// Follows a reading through the looks: `strength(k)` is its statistic at look `k` (`None` where the
/// look's games are not there yet); it stops at the first look whose boundary it reaches.
pub fn follow(design: &Design, strength: impl Fn(usize) -> Option<f64>) -> Option<Stop> {
    let mut stop = None;
    for k in 0..design.looks.len() {
        let Some(z) = strength(k) else { break };
        let crossed = z >= design.boundaries[k];
        stop = Some(Stop { look: k, crossed, z, p_one_sided: design.p_at(k, z) });
        if crossed {
            break;
        }
    }
    stop
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn one_look_is_the_fixed_design() {
        let design = Design::single();
        assert!((design.boundaries[0] - 1.959_964).abs() < 1e-4, "{:?}", design.boundaries);
        assert!((design.p_at(0, 2.5) - 0.006_209_7).abs() < 1e-6);
    }

    /// Five equally spaced looks with O'Brien–Fleming-type spending at one-sided 0.025: the published
    /// boundaries (gsDesign, `sfu = sfLDOF`, Jennison and Turnbull Table 2.x): 4.877, 3.357, 2.680,
    /// 2.290, 2.031.
    #[test]
    fn boundaries_match_published_ones() {
        let design = Design::new(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        for (c, expected) in design.boundaries.iter().zip([4.877, 3.357, 2.680, 2.290, 2.031]) {
            assert!((c - expected).abs() < 0.01, "{:?}", design.boundaries);
        }
        // What a crossing at the last look costs: p just below the level at the boundary.
        let last = design.p_at(4, design.boundaries[4]);
        assert!((last - ONE_SIDED).abs() < 5e-4, "{last}");
    }

    /// Simulated studies of a score at exactly ½ tested for "at least ½", with looks at 100, 200, 400
    /// and 800 games: the sequential design keeps the one-sided type-I error at 2.5% (so ≤ 5% for both
    /// directions of a verdict), where reading the 95% interval at every look would not.
    #[test]
    fn repeated_looks_keep_the_type_i_error() {
        let design = Design::new(&[1.0, 2.0, 4.0, 8.0]);
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let (studies, mut sequential, mut naive) = (6000, 0, 0);
        for _ in 0..studies {
            let mut wins = 0u32;
            let mut played = 0u32;
            let mut z_at = Vec::new();
            for &look in &design.looks {
                let n = (100.0 * look) as u32;
                while played < n {
                    wins += u32::from(rng.random_bool(0.5));
                    played += 1;
                }
                z_at.push((wins as f64 / n as f64 - 0.5) / (0.25 / n as f64).sqrt());
            }
            sequential += u32::from(follow(&design, |k| Some(z_at[k])).unwrap().crossed);
            naive += u32::from(z_at.iter().any(|&z| z >= 1.959_964));
        }
        let (rate, naive_rate) = (sequential as f64 / studies as f64, naive as f64 / studies as f64);
        // Standard error of a rate near 0.025 over 6000 studies: 0.002.
        assert!(rate <= ONE_SIDED + 0.006, "sequential type-I error {rate}");
        assert!(naive_rate > 0.04, "naive repeated looks {naive_rate}");
    }

    /// And the design still finds a real effect: a score of 56% against "at least ½" is decided by
    /// the last look (800 games, 3.4 standard errors) in most studies, often earlier.
    #[test]
    fn sequential_looks_keep_their_power() {
        let design = Design::new(&[1.0, 2.0, 4.0, 8.0]);
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(8);
        let (studies, mut crossed, mut early) = (2000, 0, 0);
        for _ in 0..studies {
            let (mut wins, mut played) = (0u32, 0u32);
            let mut z_at = Vec::new();
            for &look in &design.looks {
                let n = (100.0 * look) as u32;
                while played < n {
                    wins += u32::from(rng.random_bool(0.56));
                    played += 1;
                }
                z_at.push((wins as f64 / n as f64 - 0.5) / (0.25 / n as f64).sqrt());
            }
            let stop = follow(&design, |k| Some(z_at[k])).unwrap();
            crossed += u32::from(stop.crossed);
            early += u32::from(stop.crossed && stop.look < 3);
        }
        assert!(crossed as f64 / studies as f64 > 0.85, "power {}", crossed as f64 / studies as f64);
        assert!(early > studies / 4, "early stops {early}");
    }
}
