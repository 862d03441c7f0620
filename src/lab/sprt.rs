//! The sequential probability ratio test fishtest uses to accept a change to Stockfish, for a match
//! played in game pairs (one opening, seats swapped): it stops as soon as the pairs say that agent A
//! gains at least `elo1` over agent B (H1) or at most `elo0` (H0), with error rates α and β.
//!
//! The test is the generalized SPRT on the pairs' pentanomial results (Michel Van den Bergh's, as in
//! fishtest's `LLRcalc.LLR_logistic`): a pair scores 0, ¼, ½, ¾ or 1 per game for A, and the log
//! likelihood ratio is that of the distribution closest to the pairs' empirical one with mean score
//! `s1` over the closest with mean `s0` (`s = 1 / (1 + 10^(−elo/400))`, logistic Elo), times the
//! pairs. Wald's bounds `ln(β / (1 − α))` and `ln((1 − β) / α)` stop it. Counting pairs rather than
//! games is what keeps it sound when openings decide games: a pair's two games share their opening,
//! and the pentanomial carries their correlation, which a trinomial count of games would ignore.
//!
//! The test is checked in its module's tests against fishtest's own numbers and by simulation: its
//! type-I error and its power on synthetic pairs.

use super::stats::{Interval, Z95};

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

/// A test of H0 "A gains at most `elo0`" against H1 "A gains at least `elo1`".
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// A gains at least `elo1`.
    AcceptH1,
    /// A gains at most `elo0`.
    AcceptH0,
    /// Not yet: the log likelihood ratio is between the bounds.
    Continue,
}

impl Sprt {
    /// The test of `[elo0, elo1]` at error rates `alpha` and `beta`, or what is wrong with them.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!(
                "the SPRT's bounds must be two numbers, elo0 below elo1 (got {elo0}, {elo1})"
            ));
        }
        if elo0.abs() >= 1000.0 || elo1.abs() >= 1000.0 {
            return Err(format!("the SPRT's bounds must lie within ±1000 Elo (got {elo0}, {elo1})"));
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
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score per game (logistic), ±∞ at 1 and 0.
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
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
    let lambda = 0.5 * (low + high);
    let unnormalised: [f64; 5] = std::array::from_fn(|i| observed[i] / (1.0 + lambda * offsets[i]));
    let total: f64 = unnormalised.iter().sum();
    unnormalised.map(|q| q / total)
}

/// A's score per game over the pairs `counts` in Elo, with a 95% interval from the pairs' variance
/// (the delta method). After a sequential stop it is biased away from the bound the test did not
/// reach, as every estimate read at an early stop is; the decision is the test's result.
pub fn elo_estimate(counts: &Pentanomial) -> Interval {
    let pairs: f64 = counts.iter().map(|&c| c as f64).sum();
    if pairs == 0.0 {
        return Interval { estimate: 0.0, low: f64::NEG_INFINITY, high: f64::INFINITY };
    }
    let mean = (0..5).map(|i| counts[i] as f64 * PAIR_SCORES[i]).sum::<f64>() / pairs;
    let variance = (0..5).map(|i| counts[i] as f64 * (PAIR_SCORES[i] - mean).powi(2)).sum::<f64>() / pairs;
    let clamped = mean.clamp(1e-6, 1.0 - 1e-6);
    let slope = 400.0 / std::f64::consts::LN_10 / (clamped * (1.0 - clamped));
    let half = Z95 * (variance / pairs).sqrt() * slope;
    let estimate = elo_of_score(clamped);
    Interval { estimate, low: estimate - half, high: estimate + half }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

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

    #[test]
    fn elo_estimate_reads_the_pairs_mean() {
        // Mean 0.75 per game is +190.8 Elo.
        let e = elo_estimate(&[0, 0, 0, 10, 0]);
        assert!((e.estimate - 190.848_501_887_865).abs() < 1e-6, "{e:?}");
        assert_eq!(e.low, e.high, "no spread between identical pairs");
        let e = elo_estimate(&[10, 20, 40, 20, 10]);
        assert!(e.estimate.abs() < 1e-9 && e.low < -20.0 && e.high > 20.0, "{e:?}");
        // Pairs whose games cancel out (one win, one loss) are surer than pairs of two wins or two losses.
        let split = elo_estimate(&[0, 0, 100, 0, 0]);
        let apart = elo_estimate(&[50, 0, 0, 0, 50]);
        assert!(split.high - split.low < apart.high - apart.low);
    }

    /// Pairs with A's per-game score `score_of_elo(elo)`: with probability `decided` the opening
    /// decides the pair (each seat wins once, ½ per game for A), else its two games are independent,
    /// each a draw with probability `draw` and a win or a loss as the mean requires.
    fn simulate(
        test: &Sprt,
        elo: f64,
        draw: f64,
        decided: f64,
        most_pairs: usize,
        seed: u64,
    ) -> (Decision, usize) {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let score = (score_of_elo(elo) - decided * 0.5) / (1.0 - decided);
        let win = score - draw / 2.0;
        assert!(win >= 0.0 && win + draw <= 1.0, "elo {elo}, draw {draw}, decided {decided}");
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
                    decided => return (decided, pair),
                }
            }
        }
        (Decision::Continue, most_pairs)
    }

    /// Type-I error and power on synthetic pairs: at elo0 the test accepts H1 at most about α of the
    /// time, at elo1 at least about 1 − β, with or without draws and openings that decide pairs.
    #[test]
    fn errors_and_power_hold_on_synthetic_pairs() {
        let test = Sprt::new(0.0, 40.0, 0.05, 0.05).unwrap();
        let runs = 400;
        for (draw, decided) in [(0.0, 0.0), (0.3, 0.0), (0.2, 0.5)] {
            let rate_at = |elo: f64, salt: u64| {
                let accepted = (0..runs)
                    .filter(|&run| {
                        let (decision, _) =
                            simulate(&test, elo, draw, decided, 20_000, salt * 1_000_003 + run);
                        assert_ne!(decision, Decision::Continue, "every run decides within 20,000 pairs");
                        decision == Decision::AcceptH1
                    })
                    .count();
                accepted as f64 / runs as f64
            };
            // Binomial sd of a rate near 0.05 over 400 runs is 0.011: the margins are 3 sd.
            let type_one = rate_at(0.0, 1);
            let power = rate_at(40.0, 2);
            assert!(
                type_one <= 0.05 + 0.033,
                "draw {draw}, decided {decided}: H1 accepted {type_one} at elo0"
            );
            assert!(power >= 0.95 - 0.033, "draw {draw}, decided {decided}: H1 accepted {power} at elo1");
            // And a clearly better A is accepted nearly always, a clearly worse one rejected.
            assert!(rate_at(100.0, 3) > 0.99 && rate_at(-60.0, 4) < 0.01, "draw {draw}, decided {decided}");
        }
    }
}
