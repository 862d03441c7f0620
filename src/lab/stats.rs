//! Interval estimates and tests for the balance lab: scores and rates with 95% Wilson intervals, the
//! difference of two of them with Newcombe's hybrid score interval, means with Student's t, games that
//! repeat counted once (clustered intervals), the power of a test, and Holm's correction for testing
//! many claims at once.
//!
//! A game scores 1 for a win, ½ for a draw and 0 for a loss, so a score is a proportion of `n` games
//! with `wins + draws / 2` "successes". Treating it as binomial overstates its variance a little when
//! there are draws (a draw is never as far from the mean as a win or a loss), so these intervals are
//! slightly conservative with draws. Wilson's interval is approximate: its coverage is close to the
//! nominal 95%, and for small samples usually above it, never exact.
//!
//! Games are not always independent: two deterministic agents that meet the same opening play the same
//! game. [`clustered`] groups games by their opening (or, with no random opening, by their moves) and
//! counts the sample as large as its variance between groups says it is (Kish's effective size: `n`
//! divided by the design effect), never larger than `n`.

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A closed interval `[low, high]` around an estimate.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Interval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// Whether the interval leaves out `value` (for a difference: whether it is significant).
    pub fn excludes(&self, value: f64) -> bool {
        value < self.low || value > self.high
    }
}

/// The Wilson score interval for `successes` out of `n` at normal quantile `z`. With `n = 0` nothing
/// is known: the interval is [0, 1] around ½.
pub fn wilson(successes: f64, n: f64, z: f64) -> Interval {
    assert!(n >= 0.0 && (0.0..=n).contains(&successes), "{successes} successes out of {n}");
    if n == 0.0 {
        return Interval { estimate: 0.5, low: 0.0, high: 1.0 };
    }
    let p = successes / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half_width = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Interval { estimate: p, low: (centre - half_width).max(0.0), high: (centre + half_width).min(1.0) }
}

/// A side's score over `games` with `wins` and `draws`, with its 95% Wilson interval.
pub fn score(wins: u32, draws: u32, games: u32) -> Interval {
    wilson(wins as f64 + draws as f64 / 2.0, games as f64, Z95)
}

/// The difference `a − b` of two independent proportions with Newcombe's hybrid score interval
/// (method 10 of Newcombe 1998), built from the two Wilson intervals.
pub fn difference(a: Interval, b: Interval) -> Interval {
    let estimate = a.estimate - b.estimate;
    let low = estimate - ((a.estimate - a.low).powi(2) + (b.high - b.estimate).powi(2)).sqrt();
    let high = estimate + ((a.high - a.estimate).powi(2) + (b.estimate - b.low).powi(2)).sqrt();
    Interval { estimate, low, high }
}

/// The mean of `values` with a normal 95% interval (mean ± z·sd/√n), and the sample sd.
pub fn mean(values: &[f64]) -> (Interval, f64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (Interval { estimate: 0.0, low: f64::NEG_INFINITY, high: f64::INFINITY }, 0.0);
    }
    let m = values.iter().sum::<f64>() / n;
    let sd = if values.len() > 1 {
        (values.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    } else {
        0.0
    };
    let half = Z95 * sd / n.sqrt();
    (Interval { estimate: m, low: m - half, high: m + half }, sd)
}

/// The difference `a − b` of two independent means with a normal (Welch) 95% interval, from each
/// mean's own interval.
pub fn mean_difference(a: Interval, b: Interval) -> Interval {
    let estimate = a.estimate - b.estimate;
    let half = ((a.high - a.estimate).powi(2) + (b.high - b.estimate).powi(2)).sqrt();
    Interval { estimate, low: estimate - half, high: estimate + half }
}

/// A proportion or mean over games grouped in clusters: the estimate with its interval, the number of
/// games, of clusters, and the effective sample size the interval uses.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Estimate {
    pub interval: Interval,
    pub n: u32,
    pub clusters: u32,
    pub effective_n: f64,
}

/// `(cluster, value)` per game, value in [0, 1] (a score or an event's 0/1): the Wilson interval on
/// the effective sample size `n / deff`, where the design effect `deff` is the cluster-robust variance
/// of the mean over the binomial one, never more than the clusters (games that share an opening, or
/// repeat, are at most one independent sample between them).
pub fn clustered(values: &[(u64, f64)]) -> Estimate {
    clustered_at_most(values, |clusters, _| clusters)
}

/// As [`clustered`] for games played in pairs from one opening, one with each agent in each seat
/// (the cross-play's unit, as fishtest's pentanomial statistics count game pairs): the effective size
/// may reach the number of games, since a pair's two games are two different games whose results
/// the opening ties together (mostly against each other, which the cluster variance rewards). An
/// opening played more than twice (repeated pairs) still counts as two games at most.
pub fn paired(values: &[(u64, f64)]) -> Estimate {
    clustered_at_most(values, |clusters, n| n.min(2.0 * clusters))
}

fn clustered_at_most(values: &[(u64, f64)], cap: impl Fn(f64, f64) -> f64) -> Estimate {
    let n = values.len() as u32;
    let (mean, variance, clusters) = cluster_moments(values);
    let binomial = mean * (1.0 - mean) / n.max(1) as f64;
    let most = cap(clusters as f64, n as f64);
    let effective_n = if clusters <= 1 {
        n.min(1) as f64
    } else if variance <= 0.0 || binomial <= 0.0 {
        most
    } else {
        (n as f64 * binomial / variance).min(most)
    };
    let interval = wilson(mean * effective_n, effective_n, Z95);
    Estimate { interval: Interval { estimate: mean, ..interval }, n, clusters: clusters as u32, effective_n }
}

/// A mean over games grouped in clusters, with a Student's t interval on the cluster-robust standard
/// error (the clusters' count less one degrees of freedom).
pub fn clustered_mean(values: &[(u64, f64)]) -> Estimate {
    let n = values.len() as u32;
    let (mean, variance, clusters) = cluster_moments(values);
    if clusters < 2 {
        let unknown = Interval { estimate: mean, low: f64::NEG_INFINITY, high: f64::INFINITY };
        return Estimate { interval: unknown, n, clusters: clusters as u32, effective_n: clusters as f64 };
    }
    let half = student_t_quantile(0.975, clusters as f64 - 1.0) * variance.sqrt();
    let naive =
        values.iter().map(|v| (v.1 - mean).powi(2)).sum::<f64>() / (n as f64 - 1.0).max(1.0) / n as f64;
    let effective_n =
        if variance > 0.0 { (n as f64 * naive / variance).min(clusters as f64) } else { clusters as f64 };
    let interval = Interval { estimate: mean, low: mean - half, high: mean + half };
    Estimate { interval, n, clusters: clusters as u32, effective_n }
}

/// The mean, the cluster-robust (sandwich) variance of the mean, and the number of clusters.
fn cluster_moments(values: &[(u64, f64)]) -> (f64, f64, usize) {
    if values.is_empty() {
        return (0.5, 0.0, 0);
    }
    let n = values.len() as f64;
    let mean = values.iter().map(|v| v.1).sum::<f64>() / n;
    let mut residuals: std::collections::BTreeMap<u64, f64> = std::collections::BTreeMap::new();
    for &(cluster, value) in values {
        *residuals.entry(cluster).or_default() += value - mean;
    }
    let c = residuals.len() as f64;
    let variance =
        if c > 1.0 { c / (c - 1.0) * residuals.values().map(|r| r * r).sum::<f64>() / (n * n) } else { 0.0 };
    (mean, variance, residuals.len())
}

/// Φ(x), the standard normal distribution function (W. J. Cody's rational approximations through
/// `erfc`, to about 1e-15).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function (Numerical Recipes' Chebyshev fit, relative error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The upper tail of the chi-square distribution with `df` degrees of freedom, `P(χ² > x)` (the
/// regularised upper incomplete gamma function Q(df/2, x/2)).
pub fn chi_square_tail(x: f64, df: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let (a, x) = (df / 2.0, x / 2.0);
    let front = (-x + a * x.ln() - ln_gamma(a)).exp();
    if x < a + 1.0 {
        // The series for the lower function P.
        let (mut term, mut sum, mut k) = (1.0 / a, 1.0 / a, a);
        while term.abs() > sum.abs() * 1e-15 {
            k += 1.0;
            term *= x / k;
            sum += term;
        }
        1.0 - front * sum
    } else {
        // Lentz's continued fraction for Q.
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let (mut c, mut d) = (1.0 / tiny, 1.0 / b);
        let mut h = d;
        for i in 1..300 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            d = 1.0 / if d.abs() < tiny { tiny } else { d };
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            h *= d * c;
            if (d * c - 1.0).abs() < 1e-15 {
                break;
            }
        }
        front * h
    }
}

/// The standard normal quantile Φ⁻¹(p), by bisection on [`normal_cdf`] (to 1e-10).
pub fn normal_quantile(p: f64) -> f64 {
    bisect(|x| normal_cdf(x) - p, -40.0, 40.0)
}

/// The distribution function of Student's t with `df` degrees of freedom, through the regularised
/// incomplete beta function.
pub fn student_t_cdf(t: f64, df: f64) -> f64 {
    let tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
    if t >= 0.0 { 1.0 - tail } else { tail }
}

/// Student's t quantile, by bisection on [`student_t_cdf`].
pub fn student_t_quantile(p: f64, df: f64) -> f64 {
    bisect(|t| student_t_cdf(t, df) - p, -1e4, 1e4)
}

/// `1 − Φ(x)`, computed from the tail itself so that it keeps its relative precision where Φ(x)
/// rounds to 1 (x beyond about 8.3).
pub fn normal_upper_tail(x: f64) -> f64 {
    0.5 * erfc(x / std::f64::consts::SQRT_2)
}

/// The t with `P(T > t) = tail` for Student's t with `df` degrees of freedom, for `0 < tail ≤ ½`.
/// Found on the upper tail, not as [`student_t_quantile`]`(1 − tail)`: for a tail below 1e-16 that
/// difference rounds to 1 and the quantile is lost.
pub fn student_t_upper_quantile(tail: f64, df: f64) -> f64 {
    let upper = |t: f64| 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
    let mut high = 1.0;
    while upper(high) > tail && high < 1e300 {
        high *= 2.0;
    }
    bisect(|t| tail - upper(t), 0.0, high)
}

fn bisect(f: impl Fn(f64) -> f64, mut low: f64, mut high: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if f(mid) < 0.0 { low = mid } else { high = mid }
    }
    0.5 * (low + high)
}

/// The regularised incomplete beta function I_x(a, b) (Numerical Recipes' continued fraction).
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    let tiny = 1e-300;
    let (mut c, mut d) = (1.0, 1.0 - (a + b) * x / (a + 1.0));
    d = 1.0 / if d.abs() < tiny { tiny } else { d };
    let mut h = d;
    for m in 1..300 {
        let m = m as f64;
        for numerator in [
            m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0)),
        ] {
            d = 1.0 + numerator * d;
            d = 1.0 / if d.abs() < tiny { tiny } else { d };
            c = 1.0 + numerator / c;
            if c.abs() < tiny {
                c = tiny;
            }
            h *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// ln Γ(x) (Lanczos, g = 7, nine terms).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return std::f64::consts::PI.ln() - (std::f64::consts::PI * x).sin().ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let series = G[1..].iter().enumerate().fold(G[0], |sum, (i, g)| sum + g / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + series.ln()
}

/// The power the lab designs its tests for, and their level.
pub const POWER: f64 = 0.8;
pub const ALPHA: f64 = 0.05;

/// The smallest difference between a proportion and a fixed value that a two-sided test at level
/// [`ALPHA`] detects with power [`POWER`] on `n` independent games, where the proportion is about `p`.
pub fn detectable_effect(p: f64, n: f64) -> f64 {
    (normal_quantile(1.0 - ALPHA / 2.0) + normal_quantile(POWER)) * (p * (1.0 - p) / n.max(1.0)).sqrt()
}

/// Holm's step-down adjustment of `p` values (each claim's test one of a family): the adjusted value of
/// the i-th smallest is the largest of `(m − j) · p_(j)` over j ≤ i, capped at 1.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// The factor Holm's step-down would give one more reading added to the family of `p`, at the p it
/// needs to pass at [`ALPHA`]: it passes when `factor · p ≤ ALPHA`, the factor being one more than the
/// readings whose p lies above `ALPHA / factor` (the fixed point, found from the Bonferroni factor
/// down). A replication of a family's reading is sized for it (the readings below are taken to pass).
pub fn holm_factor_for_new(p: &[f64]) -> f64 {
    let mut factor = p.len() + 1;
    loop {
        let level = ALPHA / factor as f64;
        let next = 1 + p.iter().filter(|&&q| q > level).count();
        if next >= factor {
            return factor as f64;
        }
        factor = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new reading at just under `ALPHA` over the factor passes Holm's correction in the grown
    /// family, and one just over it does not.
    #[test]
    fn the_factor_for_a_new_reading_is_where_holm_passes_it() {
        let family = [0.001, 0.02, 0.5, 1e-9, 0.3];
        let factor = holm_factor_for_new(&family);
        assert_eq!(factor, 4.0, "0.02, 0.5, 0.3 and itself lie above 0.05 / 4");
        let passes = |p: f64| {
            let mut grown = family.to_vec();
            grown.push(p);
            holm(&grown)[family.len()] <= ALPHA
        };
        assert!(passes(ALPHA / factor * 0.999) && !passes(ALPHA / factor * 1.001));
        assert_eq!(holm_factor_for_new(&[]), 1.0);
    }

    fn close(interval: Interval, low: f64, high: f64) {
        assert!(
            (interval.low - low).abs() < 5e-5 && (interval.high - high).abs() < 5e-5,
            "got [{:.4}, {:.4}], expected [{low}, {high}]",
            interval.low,
            interval.high
        );
    }

    /// Newcombe (1998a), "Two-sided confidence intervals for the single proportion", Table II,
    /// method 3 (Wilson score without continuity correction).
    #[test]
    fn wilson_matches_published_values() {
        close(wilson(81.0, 263.0, Z95), 0.2553, 0.3662);
        close(wilson(15.0, 148.0, Z95), 0.0624, 0.1605);
        close(wilson(0.0, 20.0, Z95), 0.0, 0.1611);
        close(wilson(1.0, 29.0, Z95), 0.0061, 0.1718);
    }

    /// Newcombe (1998b), "Interval estimation for the difference between independent proportions",
    /// Table II, method 10.
    #[test]
    fn difference_matches_published_values() {
        close(difference(wilson(56.0, 70.0, Z95), wilson(48.0, 80.0, Z95)), 0.0524, 0.3339);
        close(difference(wilson(9.0, 10.0, Z95), wilson(3.0, 10.0, Z95)), 0.1705, 0.8090);
    }

    #[test]
    fn scores_count_draws_as_half_and_significance_is_exclusion_of_zero() {
        let even = score(40, 20, 100);
        assert_eq!(even.estimate, 0.5);
        assert!(even.low < 0.5 && even.high > 0.5);
        let strong = score(90, 0, 100);
        let weak = score(50, 0, 100);
        assert!(difference(strong, weak).excludes(0.0));
        assert!(!difference(score(52, 0, 100), weak).excludes(0.0));
        assert_eq!(score(0, 0, 0), Interval { estimate: 0.5, low: 0.0, high: 1.0 });
    }

    #[test]
    fn means_have_normal_intervals() {
        // 2, 4, 6: mean 4, sd 2, half-width 1.96 · 2 / √3 = 2.2632.
        let (m, sd) = mean(&[2.0, 4.0, 6.0]);
        assert_eq!((m.estimate, sd), (4.0, 2.0));
        assert!((m.high - 6.2632).abs() < 1e-4 && (m.low - 1.7368).abs() < 1e-4);
        let d = mean_difference(m, m);
        assert!((d.high - 2.2632 * 2f64.sqrt()).abs() < 1e-4 && d.estimate == 0.0);
    }
}

#[cfg(test)]
mod more_tests {
    use super::*;

    /// Far tails keep their precision: the t quantile of the level of z = 9 or 12 (scipy's
    /// `t.isf(norm.sf(z), df)`), where `student_t_quantile(normal_cdf(z), df)` would see p = 1.
    #[test]
    fn far_tails_keep_their_precision() {
        for (z, tail) in [
            (2.0, 0.022_750_131_948_179_195),
            (9.0, 1.128_588_405_953_832_4e-19),
            (12.0, 1.776_482_112_077_653e-33),
        ] {
            assert!((normal_upper_tail(z) / tail - 1.0).abs() < 1e-6, "z {z}");
        }
        for (z, df, t) in [
            (2.0, 5.0, 2.648_649_430_702_703_5),
            (2.0, 200.0, 2.012_576_921_077_152),
            (9.0, 5.0, 9_659.344_298_130_805),
            (9.0, 30.0, 20.796_573_516_352_158),
            (9.0, 200.0, 10.007_713_248_991_912),
            (12.0, 30.0, 61.737_691_144_556_806),
            (12.0, 200.0, 14.545_901_687_447_145),
        ] {
            let got = student_t_upper_quantile(normal_upper_tail(z), df);
            assert!((got / t - 1.0).abs() < 1e-5, "z {z} df {df}: {got} against {t}");
        }
    }

    #[test]
    fn quantiles_match_tables() {
        assert!((normal_quantile(0.975) - 1.959_964).abs() < 1e-5);
        assert!((normal_quantile(0.8) - 0.841_621).abs() < 1e-5);
        // Student's t, two-sided 95%: df 1, 10, 30 (any statistics table).
        for (df, t) in [(1.0, 12.706_2), (10.0, 2.228_139), (30.0, 2.042_272)] {
            assert!((student_t_quantile(0.975, df) - t).abs() < 1e-3, "df {df}");
        }
    }

    /// Holm (1979): p = 0.01, 0.04, 0.03, 0.005 adjust to 0.03, 0.06, 0.06, 0.02.
    #[test]
    fn holm_adjusts_step_down() {
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.005]);
        for (a, e) in adjusted.iter().zip([0.03, 0.06, 0.06, 0.02]) {
            assert!((a - e).abs() < 1e-12, "{adjusted:?}");
        }
    }

    /// Every game repeated four times is no more evidence than each game once: the effective size is
    /// the number of distinct games (less one, the small-sample correction `C / (C − 1)` of the cluster
    /// variance) and the interval that of the distinct games alone.
    #[test]
    fn repeated_games_count_once() {
        let distinct: Vec<(u64, f64)> = (0..50).map(|i| (i, if i % 3 == 0 { 1.0 } else { 0.0 })).collect();
        let repeated: Vec<(u64, f64)> = distinct.iter().flat_map(|&g| [g; 4]).collect();
        let (once, four) = (clustered(&distinct), clustered(&repeated));
        assert_eq!((once.n, four.n, four.clusters), (50, 200, 50));
        assert!((four.effective_n - 49.0).abs() < 1e-9, "{}", four.effective_n);
        assert!((once.effective_n - 49.0).abs() < 1e-9, "{}", once.effective_n);
        assert!((four.interval.low - once.interval.low).abs() < 1e-12);
        // A single cluster is one game's worth of evidence.
        assert_eq!(clustered(&[(7, 1.0); 30]).effective_n, 1.0);
        // Outcomes alike across clusters (a design effect below 1) still count each cluster once.
        let alike: Vec<(u64, f64)> = (0..120).map(|i| (i % 30, if i < 117 { 1.0 } else { 0.0 })).collect();
        assert_eq!(clustered(&alike).effective_n, 30.0);
        assert_eq!(clustered_mean(&alike).effective_n.min(30.0), clustered_mean(&alike).effective_n);
    }

    #[test]
    fn clustered_means_use_t_on_the_clusters() {
        let values: Vec<(u64, f64)> =
            [2.0, 4.0, 6.0].iter().enumerate().map(|(i, &v)| (i as u64, v)).collect();
        let m = clustered_mean(&values);
        // Sandwich variance (3/2)·Σr²/n² = 1.5 · 8 / 9; t(0.975, 2) = 4.3027.
        let half = 4.302_653 * (1.5f64 * 8.0 / 9.0).sqrt();
        assert!((m.interval.high - 4.0 - half).abs() < 1e-3, "{:?}", m.interval);
    }

    /// scipy.stats.chi2.sf: (24, 4) → 7.9875e-05; (3.0, 2) → 0.22313; (10.0, 5) → 0.075235.
    #[test]
    fn chi_square_tails_match_scipy() {
        for (x, df, expected) in [(24.0, 4.0, 7.987_476e-5), (3.0, 2.0, 0.223_130), (10.0, 5.0, 0.075_235)] {
            let got = chi_square_tail(x, df);
            assert!((got - expected).abs() < 1e-6 * expected.max(1e-3) * 10.0, "{x} {df}: {got}");
        }
    }

    /// Games in pairs from one opening count as games, not as openings, where the pair's results pull
    /// apart (each agent wins with one seat); a repeated opening of one agent's self-play does not.
    #[test]
    fn pairs_count_as_two_games_each() {
        let split: Vec<(u64, f64)> = (0..100).flat_map(|k| [(k, 1.0), (k, 0.0)]).collect();
        assert_eq!(paired(&split).effective_n, 200.0);
        assert_eq!(clustered(&split).effective_n, 100.0);
        // The same pairs played five times over are no more evidence than once.
        let repeated: Vec<(u64, f64)> = (0..5).flat_map(|_| split.iter().copied()).collect();
        assert_eq!(paired(&repeated).effective_n, 200.0);
    }

    #[test]
    fn detectable_effects_shrink_with_the_root_of_n() {
        // (1.96 + 0.8416) · √(0.25 / 400) = 0.070.
        assert!((detectable_effect(0.5, 400.0) - 0.070_04).abs() < 1e-4);
        assert!((detectable_effect(0.5, 1600.0) * 2.0 - detectable_effect(0.5, 400.0)).abs() < 1e-12);
    }
}
