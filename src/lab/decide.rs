//! How a claim's verdict is decided from intervals, in one place for every test.
//!
//! A test reads one or two statistics, each a [`Spread`]: an estimate whose interval widens with the
//! normal quantile `z` it is taken at (Wilson for a proportion, Newcombe for a difference of two,
//! Student's t for a mean, a normal interval for a slope, a point for an exact value). Its rule says,
//! for each decisive verdict, what the intervals must satisfy ([`Condition`]): "the whole interval at
//! or above 0.8", "every value of a's interval closer to ½ than every value of b's". A verdict holds
//! at a look when its condition holds with the intervals taken at that look's boundary quantile
//! (1.96 for a single look: the 95% intervals).
//!
//! The p value of a verdict comes from the same rule, by test inversion: `z*`, the largest quantile at
//! which the condition still holds, gives the one-sided level `1 − Φ(z*)` at which the rule's test
//! would just decide; for a proportion against a bound this is the score test Wilson's interval
//! inverts, for a mean Student's t test, for a slope the z test. Every p value the lab prints is
//! `2 (1 − Φ(z*))`, doubled once: a rule that asks for the whole 95% interval is two one-sided tests
//! at 2.5%, so `p < 0.05` exactly when the verdict holds, and Holm's correction works on that scale.
//!
//! The games a verdict needs follow from `z*` too: at a fixed effect `z*` grows as the root of the
//! games, so reaching the leaning verdict with power 0.8 takes `n · ((z₀.₉₇₅ + z₀.₈) / z*)²` games.

use super::stats::{
    Interval, POWER, Z95, difference, normal_quantile, normal_upper_tail, student_t_upper_quantile, wilson,
};

/// An estimate and the family of intervals around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spread {
    /// `successes` of `n` (effective) games: Wilson's score interval.
    Proportion { successes: f64, n: f64 },
    /// `a − b` of two proportions, each as `(successes, n)`: Newcombe's hybrid score interval.
    Difference { a: (f64, f64), b: (f64, f64) },
    /// A mean with its standard error and Student's t degrees of freedom.
    Mean { mean: f64, se: f64, df: f64 },
    /// A normal estimate with its standard error (slopes).
    Normal { estimate: f64, se: f64 },
    /// A value known exactly (best play): its interval is the point at every level.
    Exact(f64),
}

impl Spread {
    pub fn estimate(&self) -> f64 {
        match *self {
            Spread::Proportion { successes, n } => {
                if n > 0.0 {
                    successes / n
                } else {
                    0.5
                }
            }
            Spread::Difference { a, b } => ratio(a) - ratio(b),
            Spread::Mean { mean, .. } => mean,
            Spread::Normal { estimate, .. } => estimate,
            Spread::Exact(value) => value,
        }
    }

    /// The interval at normal quantile `z` (a two-sided level of `1 − 2(1 − Φ(z))`).
    pub fn at(&self, z: f64) -> Interval {
        match *self {
            Spread::Proportion { successes, n } => wilson(successes.clamp(0.0, n), n, z),
            Spread::Difference { a, b } => {
                difference(wilson(a.0.clamp(0.0, a.1), a.1, z), wilson(b.0.clamp(0.0, b.1), b.1, z))
            }
            Spread::Mean { mean, se, df } => {
                // The t quantile of the same level as z, found from the upper tail (z runs past 8
                // when the games to decide a large effect are counted).
                let q = if z <= 0.0 || !df.is_finite() || df <= 0.0 {
                    z
                } else {
                    student_t_upper_quantile(normal_upper_tail(z), df)
                };
                Interval { estimate: mean, low: mean - q * se, high: mean + q * se }
            }
            Spread::Normal { estimate, se } => {
                Interval { estimate, low: estimate - z * se, high: estimate + z * se }
            }
            Spread::Exact(value) => Interval { estimate: value, low: value, high: value },
        }
    }

    /// The 95% interval.
    pub fn interval(&self) -> Interval {
        self.at(Z95)
    }

    pub fn is_exact(&self) -> bool {
        matches!(self, Spread::Exact(_))
    }

    /// The standard error of the estimate (for proportions and their differences, read off the 95%
    /// interval: half its width over 1.96).
    pub fn se(&self) -> f64 {
        match *self {
            Spread::Mean { se, .. } | Spread::Normal { se, .. } => se,
            Spread::Exact(_) => 0.0,
            Spread::Proportion { .. } | Spread::Difference { .. } => {
                let i = self.interval();
                (i.high - i.low) / (2.0 * Z95)
            }
        }
    }
}

fn ratio((successes, n): (f64, f64)) -> f64 {
    if n > 0.0 { successes / n } else { 0.5 }
}

/// The two verdicts a rule can reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Support,
    Contradict,
}

/// A test's rule: whether a verdict's condition holds when every interval is taken at quantile `z`.
/// Conditions must weaken as `z` grows (wider intervals never satisfy more).
pub trait Condition {
    fn holds(&self, side: Side, z: f64) -> bool;
}

impl<F: Fn(Side, f64) -> bool> Condition for F {
    fn holds(&self, side: Side, z: f64) -> bool {
        self(side, z)
    }
}

/// The largest quantile a bisection looks at: beyond it a condition counts as holding for certain
/// (two-sided p about 7 × 10⁻⁹⁸, as for an exact value).
pub const Z_CERTAIN: f64 = 21.0;

/// `z*` of one verdict: the largest quantile at which its condition holds (0 when it fails even for
/// the point estimates, [`Z_CERTAIN`] when it holds at every level).
pub fn z_star(rule: &dyn Condition, side: Side) -> f64 {
    if !rule.holds(side, 0.0) {
        return 0.0;
    }
    if rule.holds(side, Z_CERTAIN) {
        return Z_CERTAIN;
    }
    let (mut low, mut high) = (0.0, Z_CERTAIN);
    for _ in 0..60 {
        let mid = 0.5 * (low + high);
        if rule.holds(side, mid) { low = mid } else { high = mid }
    }
    low
}

/// The p value of a verdict whose condition holds up to `z*`: twice the one-sided level.
pub fn p_value(z_star: f64) -> f64 {
    (2.0 * normal_upper_tail(z_star)).min(1.0)
}

/// What the data say under a rule: each verdict's `z*`, and which way the point estimates lean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    pub support: f64,
    pub contradict: f64,
}

impl Strength {
    pub fn of(rule: &dyn Condition) -> Strength {
        Strength { support: z_star(rule, Side::Support), contradict: z_star(rule, Side::Contradict) }
    }

    /// The verdict the point estimates satisfy (the stronger one if both), with its `z*`.
    pub fn leaning(&self) -> (Side, f64) {
        if self.support >= self.contradict {
            (Side::Support, self.support)
        } else {
            (Side::Contradict, self.contradict)
        }
    }

    /// The verdict reached at boundary quantile `c` (1.96 for one look), if any.
    pub fn decided_at(&self, c: f64) -> Option<Side> {
        let (side, z) = self.leaning();
        (z >= c).then_some(side)
    }

    /// The p value of the reading: of the verdict reached, or of the leaning one.
    pub fn p_value(&self) -> f64 {
        p_value(self.leaning().1)
    }
}

/// The quantile sum a one-sided test at 2.5% needs for power [`POWER`]: z₀.₉₇₅ + z₀.₈ ≈ 2.80.
pub fn power_quantile() -> f64 {
    Z95 + normal_quantile(POWER)
}

/// The games a fixed design would need for the leaning verdict to be reached with power 0.8 at the
/// measured effect, from the `games` that gave strength `z*` (`None` when the estimates sit on the
/// rule's bound, where no number of games decides).
pub fn games_to_decide(games: f64, z_star: f64) -> Option<f64> {
    (z_star > 1e-9 && games > 0.0).then(|| (games * (power_quantile() / z_star).powi(2)).ceil())
}

/// Supported when the interval at `z` lies at or above `value` (`at_least`) or at or below it.
pub fn beyond(spread: &Spread, z: f64, at_least: bool, value: f64) -> bool {
    let i = spread.at(z);
    if at_least { i.low >= value } else { i.high <= value }
}

/// The interval at `z` lies wholly inside `[low, high]`.
pub fn inside(spread: &Spread, z: f64, low: f64, high: f64) -> bool {
    let i = spread.at(z);
    i.low >= low && i.high <= high
}

/// The interval at `z` lies wholly below `low` or wholly above `high`.
pub fn outside(spread: &Spread, z: f64, low: f64, high: f64) -> bool {
    let i = spread.at(z);
    i.high < low || i.low > high
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::stats::normal_cdf;

    /// The score test for one proportion: z = (p̂ − p₀) / √(p₀(1 − p₀)/n). 340 of 400 against 0.8:
    /// z = 0.05 / 0.02 = 2.5, one-sided p = 0.00621 (scipy.stats.norm.sf(2.5) = 0.006209665).
    #[test]
    fn a_proportion_against_a_bound_is_the_score_test() {
        let spread = Spread::Proportion { successes: 340.0, n: 400.0 };
        let rule = |side: Side, z: f64| match side {
            Side::Support => beyond(&spread, z, true, 0.8),
            Side::Contradict => beyond(&spread, z, false, 0.8),
        };
        let strength = Strength::of(&rule);
        assert!((strength.support - 2.5).abs() < 1e-6, "{strength:?}");
        assert!((strength.p_value() - 2.0 * 0.006_209_665).abs() < 1e-8);
        assert_eq!(strength.decided_at(Z95), Some(Side::Support));
        assert_eq!(strength.decided_at(2.6), None);
    }

    /// Student's t for a mean: 10 ± se 2 with 9 df against 5: t = 2.5, one-sided p =
    /// scipy.stats.t.sf(2.5, 9) = 0.016 931, doubled 0.033 862.
    #[test]
    fn a_mean_against_a_bound_is_the_t_test() {
        let spread = Spread::Mean { mean: 10.0, se: 2.0, df: 9.0 };
        let rule = |side: Side, z: f64| side == Side::Support && beyond(&spread, z, true, 5.0);
        let z = z_star(&rule, Side::Support);
        assert!((p_value(z) - 0.033_862).abs() < 2e-6, "{}", p_value(z));
        assert!((1.0 - normal_cdf(z) - 0.016_931).abs() < 1e-6);
    }

    /// An equivalence (the whole interval within ± m) is two one-sided tests: the larger p of the two,
    /// doubled once. A slope 0.3 ± se 0.2 within ± 1: z = (1 − 0.3)/0.2 = 3.5 on the near side and
    /// 6.5 on the far side; p = 2 · norm.sf(3.5) = 4.6525e-4.
    #[test]
    fn an_equivalence_takes_the_nearer_bound() {
        let spread = Spread::Normal { estimate: 0.3, se: 0.2 };
        let rule = |side: Side, z: f64| match side {
            Side::Support => inside(&spread, z, -1.0, 1.0),
            Side::Contradict => outside(&spread, z, -1.0, 1.0),
        };
        let strength = Strength::of(&rule);
        assert!((strength.support - 3.5).abs() < 1e-6);
        assert!((strength.p_value() - 4.6525e-4).abs() < 1e-7, "{}", strength.p_value());
        assert_eq!(strength.contradict, 0.0);
    }

    #[test]
    fn exact_values_decide_at_every_level_and_games_to_decide_scale_with_the_square() {
        let rule = |side: Side, z: f64| side == Side::Support && beyond(&Spread::Exact(1.0), z, true, 0.5);
        assert_eq!(z_star(&rule, Side::Support), Z_CERTAIN);
        // z* = 1.4 from 400 games: (2.80 / 1.4)² · 400 = 4 · 400 (at 2.8016: 1601).
        let needed = games_to_decide(400.0, power_quantile() / 2.0).unwrap();
        assert_eq!(needed, 1600.0);
        assert_eq!(games_to_decide(400.0, 0.0), None);
    }

    /// Newcombe (1998b), Table II, method 10: 56/70 − 48/80 is +0.2 [0.0524, 0.3339].
    #[test]
    fn differences_use_newcombes_interval() {
        let d = Spread::Difference { a: (56.0, 70.0), b: (48.0, 80.0) }.interval();
        assert!((d.low - 0.0524).abs() < 5e-5 && (d.high - 0.3339).abs() < 5e-5, "{d:?}");
    }
}
