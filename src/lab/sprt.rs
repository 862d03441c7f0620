//! The sequential probability ratio test fishtest uses to accept a change to Stockfish, for a match
//! played in game pairs (one opening, seats swapped). It weighs "agent A is `elo1` Elo stronger than
//! agent B" (H1) against "`elo0` stronger" (H0) and stops as soon as the pairs favour one enough:
//! accepting H1 says A is stronger than `elo0` (wrongly at most α of the time when it is not),
//! accepting H0 that it is not `elo1` stronger (wrongly at most β of the time when it is). Between
//! the two the test is a coin toss: a true gain halfway passes about half the time.
//!
//! The test is the generalized SPRT on the pairs' pentanomial results (Michel Van den Bergh's, as in
//! fishtest's `LLRcalc.LLR_logistic`): a pair scores 0, ¼, ½, ¾ or 1 per game for A, and the log
//! likelihood ratio is that of the distribution closest to the pairs' empirical one with mean score
//! `s1` over the closest with mean `s0` (`s = 1 / (1 + 10^(−elo/400))`, logistic Elo), times the
//! pairs. Wald's bounds `ln(β / (1 − α))` and `ln((1 − β) / α)` stop it. Counting pairs rather than
//! games is what keeps it sound when openings decide games: a pair's two games share their opening,
//! and the pentanomial carries their correlation, which a trinomial count of games would ignore.
//!
//! A's Elo over B is estimated as fishtest estimates it, corrected for where the test stopped
//! ([`Sprt::stopped_elo`]). Both are checked in this module's tests against fishtest's own numbers,
//! and by simulation on synthetic pairs: the test's type-I error and power, the estimate's bias and
//! its interval's coverage.

use super::stats::{Interval, normal_cdf};

/// What a pair of games scores for agent A, per game: 0, ¼, ½, ¾, 1 (LL, LD, LW or DD, DW, WW).
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// What stands in for a pair result never seen (fishtest's regularisation), so that every
/// distribution the test compares has the whole support.
const UNSEEN: f64 = 1e-3;

/// Counts of game pairs by A's points in the two games: 0, ½, 1, 1½, 2.
pub type Pentanomial = [u32; 5];

/// The index in a [`Pentanomial`] of a pair in which A scored `first` and `second` (each 0, ½ or 1).
pub fn pair_index(first: f64, second: f64) -> usize {
    ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize
}

/// A test of H0 "A is `elo0` Elo stronger than B" against H1 "`elo1` stronger".
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// The most chance of accepting H1 when A is at most `elo0` stronger.
    pub alpha: f64,
    /// The most chance of accepting H0 when A is at least `elo1` stronger.
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// A is stronger than `elo0`: the test passed.
    AcceptH1,
    /// A is not `elo1` stronger: the test failed.
    AcceptH0,
    /// Not yet: the log likelihood ratio is between the bounds.
    Continue,
}

impl Sprt {
    /// The test of `[elo0, elo1]` at error rates `alpha` and `beta`, or what is wrong with them.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        // A huge bound is echoed in scientific notation, not as hundreds of digits.
        let shown = |x: f64| if x.abs() < 1e6 { format!("{x}") } else { format!("{x:e}") };
        let got = format!("got {}, {}", shown(elo0), shown(elo1));
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("the SPRT's bounds must be two numbers, elo0 below elo1 ({got})"));
        }
        if elo0.abs() >= 1000.0 || elo1.abs() >= 1000.0 {
            return Err(format!("the SPRT's bounds must lie within ±1000 Elo ({got})"));
        }
        for (name, rate) in [("alpha", alpha), ("beta", beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(format!("the SPRT's {name} must be between 0 and 0.5 (got {rate})"));
            }
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// Wald's bounds on the log likelihood ratio: below the first H0 is accepted, above the second H1.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The generalized log likelihood ratio of H1 over H0 for the pairs `counts`.
    pub fn llr(&self, counts: &Pentanomial) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let regularised = counts.map(|c| if c == 0 { UNSEEN } else { c as f64 });
        let pairs: f64 = regularised.iter().sum();
        let observed = regularised.map(|c| c / pairs);
        let [q0, q1] = [self.elo0, self.elo1].map(|elo| closest_with_mean(&observed, score_of_elo(elo)));
        pairs * (0..5).map(|i| observed[i] * (q1[i].ln() - q0[i].ln())).sum::<f64>()
    }

    /// Whether the pairs `counts` decide the test.
    pub fn decide(&self, counts: &Pentanomial) -> Decision {
        let llr = self.llr(counts);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::AcceptH1
        } else if llr <= lower {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }
}

/// A's expected score per game at `elo` (logistic).
fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The distribution of the five pair scores with mean `mean` that maximises the likelihood of the
/// `observed` one (every entry positive): `q_i = p_i / (1 + λ (a_i − mean))`, with λ the root of the
/// secular equation `Σ p_i (a_i − mean) / (1 + λ (a_i − mean)) = 0` (Van den Bergh, "Maximum
/// likelihood estimation of a multinomial with given expectation", Proposition 1.1).
fn closest_with_mean(observed: &[f64; 5], mean: f64) -> [f64; 5] {
    let offsets = PAIR_SCORES.map(|a| a - mean);
    let secular =
        |lambda: f64| (0..5).map(|i| observed[i] * offsets[i] / (1.0 + lambda * offsets[i])).sum::<f64>();
    // The root lies where every 1 + λ x_i stays positive: −1/max x < λ < −1/min x (min x < 0 < max x,
    // since 0 < mean < 1); the sum falls from +∞ to −∞ across that span, so bisection finds it.
    let (mut low, mut high) = (-1.0 / offsets[4], -1.0 / offsets[0]);
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if secular(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    // At the root these sum to 1 already; dividing by their sum would spread a tiny entry's error over
    // every entry.
    let lambda = 0.5 * (low + high);
    std::array::from_fn(|i| observed[i] / (1.0 + lambda * offsets[i]))
}

impl Sprt {
    /// A's Elo over B with a 95% interval, corrected for where the test stopped (fishtest's
    /// `sprt.analytics`): the log likelihood ratio is taken as a Brownian motion with the drift and
    /// variance the pairs give it (Van den Bergh, "A practical introduction to the GSPRT"), and the
    /// estimate is the Elo at which a test would end worse than this one (fail sooner, pass later)
    /// half the time, the interval's ends where it would 2.5% and 97.5% of the time. Read at a stop,
    /// the pairs' plain mean is pushed towards the bound the test crossed; this is not. Like
    /// fishtest's, it is meant for differences of tens of Elo, not hundreds.
    pub fn stopped_elo(&self, counts: &Pentanomial) -> Interval {
        let Some(stop) = StoppedPath::of(self, counts) else {
            return Interval { estimate: 0.0, low: f64::NEG_INFINITY, high: f64::INFINITY };
        };
        let at = |p: f64| stop.elo_with_worse_outcome(self, p);
        Interval { estimate: at(0.5), low: at(0.025), high: at(0.975) }
    }
}

/// The test's path as a Brownian motion: where it stopped (`llr` at time `pairs`, a bound and the
/// time the drift reaches it when it crossed) and the variance of the pairs' scores, which sets the
/// motion's drift and variance.
struct StoppedPath {
    variance: f64,
    llr: f64,
    pairs: f64,
}

impl StoppedPath {
    fn of(test: &Sprt, counts: &Pentanomial) -> Option<StoppedPath> {
        if counts.iter().all(|&c| c == 0) {
            return None;
        }
        let regularised = counts.map(|c| if c == 0 { UNSEEN } else { c as f64 });
        let mut pairs: f64 = regularised.iter().sum();
        let observed = regularised.map(|c| c / pairs);
        let mean: f64 = (0..5).map(|i| observed[i] * PAIR_SCORES[i]).sum();
        let variance: f64 = (0..5).map(|i| observed[i] * (PAIR_SCORES[i] - mean).powi(2)).sum();
        let mut path = StoppedPath { variance, llr: 0.0, pairs };
        let (drift, _) = path.drift_and_variance(test, mean);
        // The motion stops at the bound it crossed: an overshoot is read as the bound reached sooner.
        let (lower, upper) = test.bounds();
        path.llr = pairs * drift;
        if path.llr < lower || path.llr > upper {
            let bound = if path.llr < lower { lower } else { upper };
            pairs = bound / drift;
            path.llr = bound;
        }
        path.pairs = pairs;
        Some(path)
    }

    /// The drift and variance per pair of the log likelihood ratio when A's true score per game is
    /// `score` (fishtest's `LLR_drift_variance_alt2`: the GSPRT's normal approximation).
    fn drift_and_variance(&self, test: &Sprt, score: f64) -> (f64, f64) {
        let (s0, s1) = (score_of_elo(test.elo0), score_of_elo(test.elo1));
        ((score - (s0 + s1) / 2.0) * (s1 - s0) / self.variance, (s1 - s0).powi(2) / self.variance)
    }

    /// The chance, at `elo`, of a test ending worse than this one: failing sooner, passing later, or
    /// failing where this one passed.
    fn worse_outcome(&self, test: &Sprt, elo: f64) -> f64 {
        let (drift, variance) = self.drift_and_variance(test, score_of_elo(elo));
        let (lower, upper) = test.bounds();
        brownian_outcome_cdf(lower, upper, drift, variance, self.pairs, self.llr)
    }

    /// The largest Elo at which a worse outcome has chance below `p` (the root of a decreasing
    /// function, bracketed from the test's bounds outwards to ±1000).
    fn elo_with_worse_outcome(&self, test: &Sprt, p: f64) -> f64 {
        let centre = (test.elo0 + test.elo1) / 2.0;
        let width = test.elo1 - test.elo0;
        let excess = |elo: f64| self.worse_outcome(test, elo) - (1.0 - p);
        let mut reach = 30.0;
        let (mut low, mut high) = loop {
            let (low, high) = ((centre - reach * width).max(-1000.0), (centre + reach * width).min(1000.0));
            if excess(low) * excess(high) <= 0.0 {
                break (low, high);
            }
            if low <= -1000.0 && high >= 1000.0 {
                return if excess(low) > 0.0 { high } else { low };
            }
            reach *= 2.0;
        };
        for _ in 0..100 {
            let middle = 0.5 * (low + high);
            if (excess(middle) > 0.0) == (excess(low) > 0.0) {
                low = middle;
            } else {
                high = middle;
            }
        }
        0.5 * (low + high)
    }
}

/// The chance that a Brownian motion from 0 with `drift` and `variance` per unit of time, absorbed at
/// `lower` and `upper`, ends "to the right of" `(time, value)`: it leaves by `lower` before `time`,
/// or is still inside at `time` below `value`, … — the cumulative distribution of the test's outcome
/// ordered from the worst (an early fail) to the best (an early pass). fishtest's `Brownian.outcome_cdf`:
/// the eigenfunction series of the absorbed motion, or Siegmund's approximation where that converges
/// slowly (short times or strong drift).
fn brownian_outcome_cdf(lower: f64, upper: f64, drift: f64, variance: f64, time: f64, value: f64) -> f64 {
    let width = upper - lower;
    let gamma = drift / variance;
    if variance * time / (width * width) < 1e-2 || (gamma * width).abs() > 15.0 {
        siegmund(lower, upper, drift, variance, time, value)
    } else {
        series(lower, upper, drift, variance, time, value)
    }
}

fn series(lower: f64, upper: f64, drift: f64, variance: f64, time: f64, value: f64) -> f64 {
    use std::f64::consts::PI;
    let width = upper - lower;
    let (start, value) = (-lower, value - lower);
    let gamma = drift / variance;
    // A primitive of e^(γy) sin(nπy/A), times 2/A e^(−γy).
    let primitive = |n: f64| {
        (2.0 * width * gamma * (PI * n * value / width).sin() - 2.0 * PI * n * (PI * n * value / width).cos())
            / (width * width * gamma * gamma + PI * PI * n * n)
    };
    let eigenvalue = |n: f64| (n * PI / width).powi(2) * variance / 2.0 + drift * drift / variance / 2.0;
    let first = (-eigenvalue(1.0) * time - start * gamma + value * gamma).exp();
    let mut sum = 0.0;
    for n in 1..100_000 {
        let n = n as f64;
        let decay = (-(eigenvalue(n) - eigenvalue(1.0)) * time).exp();
        let term = primitive(n);
        sum += decay * term * (n * PI * start / width).sin();
        if (first * decay * term).abs() <= 1e-9 {
            break;
        }
    }
    let absorbed_below = if gamma * width > 30.0 {
        (-2.0 * gamma * start).exp()
    } else if (gamma * width).abs() < 1e-8 {
        (width - start) / width
    } else {
        (1.0 - (2.0 * gamma * (width - start)).exp()) / (1.0 - (2.0 * gamma * width).exp())
    };
    absorbed_below + first * sum
}

fn siegmund(lower: f64, upper: f64, drift: f64, variance: f64, time: f64, value: f64) -> f64 {
    let spread = (time * variance).sqrt();
    let offset = drift * time;
    let gamma = drift / variance;
    let z = (value - offset) / spread;
    let z_lower = (-value + offset + 2.0 * lower) / spread;
    let z_upper = (value - offset - 2.0 * upper) / spread;
    // Φ's asymptotic expansion where e^(2γb) Φ(z) would overflow times underflow.
    let tail = |z: f64, exponent: f64| {
        if exponent >= 5.0 {
            -(-z * z / 2.0 + exponent).exp() / (2.0 * std::f64::consts::PI).sqrt()
                * (1.0 / z - 1.0 / z.powi(3))
        } else {
            exponent.exp() * normal_cdf(z)
        }
    };
    normal_cdf(z) + tail(z_lower, 2.0 * gamma * lower) - tail(z_upper, 2.0 * gamma * upper)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::stats::Z95;
    use rand::{RngExt, SeedableRng};

    /// The plain estimate [`Sprt::stopped_elo`] improves on: A's score per game over the pairs in
    /// Elo, with a 95% interval from the pairs' variance (the delta method).
    fn elo_estimate(counts: &Pentanomial) -> Interval {
        let elo_of_score = |score: f64| -400.0 * (1.0 / score - 1.0).log10();
        let pairs: f64 = counts.iter().map(|&c| c as f64).sum();
        if pairs == 0.0 {
            return Interval { estimate: 0.0, low: f64::NEG_INFINITY, high: f64::INFINITY };
        }
        let mean = (0..5).map(|i| counts[i] as f64 * PAIR_SCORES[i]).sum::<f64>() / pairs;
        let variance =
            (0..5).map(|i| counts[i] as f64 * (PAIR_SCORES[i] - mean).powi(2)).sum::<f64>() / pairs;
        let clamped = mean.clamp(1e-6, 1.0 - 1e-6);
        let slope = 400.0 / std::f64::consts::LN_10 / (clamped * (1.0 - clamped));
        let half = Z95 * (variance / pairs).sqrt() * slope;
        let estimate = elo_of_score(clamped);
        Interval { estimate, low: estimate - half, high: estimate + half }
    }

    /// The log likelihood ratios fishtest computes (`LLRcalc.LLR_logistic(elo0, elo1, results)`,
    /// server/fishtest/stats/LLRcalc.py, run with SciPy) for the same pairs.
    #[test]
    fn log_likelihood_ratios_are_fishtests() {
        let cases: [(Pentanomial, f64, f64, f64); 6] = [
            ([10, 20, 40, 25, 5], 0.0, 5.0, -0.17856436041578722),
            ([3, 17, 61, 29, 4], 0.0, 10.0, 0.9394235758358891),
            ([0, 5, 10, 30, 20], 0.0, 50.0, 8.68282302264821),
            ([40, 30, 20, 5, 1], -10.0, 10.0, -5.3110504024142395),
            ([1, 0, 0, 0, 0], 0.0, 5.0, -0.014523779645967582),
            ([0, 0, 100, 0, 0], -1.75, 0.25, 0.43104255990857643),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let llr = Sprt::new(elo0, elo1, 0.05, 0.05).unwrap().llr(&counts);
            assert!((llr - expected).abs() < 1e-9, "{counts:?} [{elo0}, {elo1}]: {llr} against {expected}");
        }
    }

    /// fishtest's estimates for the same pairs (`sprt(elo0=…, elo1=…).set_state(results)`, then
    /// `analytics(0.05)`: elo and ci; server/fishtest/stats/sprt.py, run with SciPy), stopped and not.
    #[test]
    fn estimates_after_the_stop_are_fishtests() {
        let cases: [(Pentanomial, f64, f64, [f64; 3]); 5] = [
            ([0, 0, 57, 4, 3], 0.0, 20.0, [23.869892784905097, 1.295844417167092, 45.92483374020145]),
            ([1, 4, 11, 25, 8], 0.0, 25.0, [125.00487790365345, 59.49248611701009, 200.19064023701068]),
            ([10, 20, 40, 25, 5], 0.0, 5.0, [-8.687699877294499, -43.763202345215646, 26.21104546434408]),
            (
                [40, 30, 20, 5, 1],
                -10.0,
                10.0,
                [-203.45518370740092, -321.34725677147406, -117.16499070043321],
            ),
            ([3, 17, 61, 29, 4], 0.0, 10.0, [21.360637046756274, -4.058526597521207, 47.01067730520446]),
        ];
        for (counts, elo0, elo1, [estimate, low, high]) in cases {
            let e = Sprt::new(elo0, elo1, 0.05, 0.05).unwrap().stopped_elo(&counts);
            // Φ here is good to about 1e-7 (fishtest's is SciPy's): the Elo to 1e-4.
            for (ours, theirs) in [(e.estimate, estimate), (e.low, low), (e.high, high)] {
                assert!((ours - theirs).abs() < 1e-4, "{counts:?} [{elo0}, {elo1}]: {e:?}");
            }
        }
    }

    #[test]
    fn wald_bounds_and_decisions() {
        let test = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        let (lower, upper) = test.bounds();
        assert!((lower + 2.944_438_979_166_44).abs() < 1e-12 && (upper - 2.944_438_979_166_44).abs() < 1e-12);
        assert_eq!(test.decide(&[0; 5]), Decision::Continue);
        assert_eq!(test.decide(&[0, 5, 10, 30, 20]), Decision::AcceptH1);
        assert_eq!(test.decide(&[40, 30, 20, 5, 1]), Decision::AcceptH0);
        assert!(Sprt::new(5.0, 5.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, f64::NAN, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.5, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.0).is_err());
        // A huge bound is named in a short message.
        let huge = Sprt::new(0.0, 1e308, 0.05, 0.05).unwrap_err();
        assert!(huge.contains("1e308") && huge.len() < 100, "{huge}");
    }

    #[test]
    fn pairs_count_by_as_points() {
        assert_eq!(pair_index(0.0, 0.0), 0);
        assert_eq!(pair_index(0.5, 0.0), 1);
        assert_eq!(pair_index(1.0, 0.0), 2);
        assert_eq!(pair_index(0.5, 0.5), 2);
        assert_eq!(pair_index(0.5, 1.0), 3);
        assert_eq!(pair_index(1.0, 1.0), 4);
    }

    /// A's expected score per game at +0, +10, +40, +100 and −60 Elo, written out rather than
    /// computed by the code under test.
    const SCORE_AT_0: f64 = 0.5;
    const SCORE_AT_10: f64 = 0.514_387_184_165_998_7;
    const SCORE_AT_40: f64 = 0.557_311_633_762_292_8;
    const SCORE_AT_100: f64 = 0.640_064_999_802_885_1;
    const SCORE_AT_MINUS_60: f64 = 0.414_501_321_328_190_5;

    /// Pairs with A's per-game score `mean`: with probability `decided` the opening decides the pair
    /// (each seat wins once, ½ per game for A), else its two games are independent, each a draw with
    /// probability `draw` and a win or a loss as the mean requires.
    fn simulate(
        test: &Sprt,
        mean: f64,
        draw: f64,
        decided: f64,
        most_pairs: usize,
        seed: u64,
    ) -> (Decision, Pentanomial) {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let score = (mean - decided * 0.5) / (1.0 - decided);
        let win = score - draw / 2.0;
        assert!(win >= 0.0 && win + draw <= 1.0, "mean {mean}, draw {draw}, decided {decided}");
        let game = |rng: &mut rand_pcg::Pcg64Mcg| {
            let u: f64 = rng.random();
            if u < win {
                1.0
            } else if u < win + draw {
                0.5
            } else {
                0.0
            }
        };
        let mut counts = [0u32; 5];
        for pair in 1..=most_pairs {
            let (first, second) =
                if rng.random::<f64>() < decided { (1.0, 0.0) } else { (game(&mut rng), game(&mut rng)) };
            counts[pair_index(first, second)] += 1;
            // A look every 8 pairs, as `match --sprt` looks every 16 games.
            if pair % 8 == 0 {
                match test.decide(&counts) {
                    Decision::Continue => {}
                    end => return (end, counts),
                }
            }
        }
        (Decision::Continue, counts)
    }

    /// Type-I error and power on synthetic pairs: at elo0 the test accepts H1 about α of the time, at
    /// elo1 about 1 − β (a little less and more: looks between pairs overshoot the bounds), with or
    /// without draws and openings that decide pairs. Both ways, so that a test too timid fails too.
    #[test]
    fn errors_and_power_hold_on_synthetic_pairs() {
        let test = Sprt::new(0.0, 40.0, 0.05, 0.05).unwrap();
        let runs = 400;
        for (draw, decided) in [(0.0, 0.0), (0.3, 0.0), (0.2, 0.5)] {
            let rate_at = |mean: f64, salt: u64| {
                let accepted = (0..runs)
                    .filter(|&run| {
                        let (decision, _) =
                            simulate(&test, mean, draw, decided, 20_000, salt * 1_000_003 + run);
                        assert_ne!(decision, Decision::Continue, "every run decides within 20,000 pairs");
                        decision == Decision::AcceptH1
                    })
                    .count();
                accepted as f64 / runs as f64
            };
            // Binomial sd of a rate near 0.05 over 400 runs is 0.011: the margins are 3 sd.
            let type_one = rate_at(SCORE_AT_0, 1);
            let power = rate_at(SCORE_AT_40, 2);
            let case = format!("draw {draw}, decided {decided}");
            assert!(
                (0.05 - 0.033..=0.05 + 0.033).contains(&type_one),
                "{case}: H1 accepted {type_one} at elo0"
            );
            assert!((0.95 - 0.033..=0.95 + 0.033).contains(&power), "{case}: H1 accepted {power} at elo1");
            // And a clearly better A is accepted nearly always, a clearly worse one rejected.
            assert!(rate_at(SCORE_AT_100, 3) > 0.99 && rate_at(SCORE_AT_MINUS_60, 4) < 0.01, "{case}");
        }
    }

    /// Read at the stop, the corrected estimate is median-unbiased and its interval covers the truth
    /// about 95% of the time; the plain mean's interval, pushed towards the bound crossed, less often
    /// (0.96 against 0.90 here).
    #[test]
    fn estimates_after_the_stop_cover_the_truth() {
        let test = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
        let (truth, runs) = (10.0, 400);
        let (mut covered, mut above, mut plain_covered) = (0, 0, 0);
        for run in 0..runs {
            let (decision, counts) = simulate(&test, SCORE_AT_10, 0.3, 0.2, 50_000, 7_000_003 + run);
            assert_ne!(decision, Decision::Continue);
            let corrected = test.stopped_elo(&counts);
            covered += usize::from(corrected.low <= truth && truth <= corrected.high);
            above += usize::from(corrected.estimate > truth);
            let plain = elo_estimate(&counts);
            plain_covered += usize::from(plain.low <= truth && truth <= plain.high);
        }
        let (covered, above, plain_covered) =
            (covered as f64 / runs as f64, above as f64 / runs as f64, plain_covered as f64 / runs as f64);
        // Binomial sd over 400 runs: 0.011 at 95%, 0.025 at 50%; margins of about 3 sd.
        assert!(covered >= 0.95 - 0.035, "covered {covered}");
        assert!((above - 0.5).abs() <= 0.075, "above the truth {above}");
        assert!(
            plain_covered < covered,
            "the plain interval covered {plain_covered}, the corrected {covered}"
        );
    }
}
