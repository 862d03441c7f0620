//! Interval estimates for the balance lab: scores with 95% Wilson intervals, and the difference of two
//! scores with Newcombe's hybrid score interval, which says whether two variants differ.
//!
//! A game scores 1 for a win, ½ for a draw and 0 for a loss, so a score is a proportion of `n` games
//! with `wins + draws / 2` "successes". Treating it as binomial overstates its variance a little when
//! there are draws (a draw is never as far from the mean as a win or a loss), so these intervals are
//! slightly conservative with draws and exact in coverage terms (Wilson's) without them.

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

#[cfg(test)]
mod tests {
    use super::*;

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
