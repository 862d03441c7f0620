//! Measured skill: the rungs of a study play each other (cross-play, seats alternating) and get
//! Bradley–Terry ratings on the Elo scale, with 95% intervals from the likelihood's curvature (as
//! BayesElo and Ordo compute them). A draw counts half a win to each side. Each pair that met also
//! gets one virtual draw (BayesElo's prior), so that a rung that won every game still has a finite
//! rating. The first rung listed is the anchor, at 0 (usually the weakest, not always: a rung listed
//! later may turn out weaker).

use serde::{Deserialize, Serialize};

use super::stats::Z95;

/// Elo points per natural-log unit of strength: a difference of 400 is odds of 10 to 1.
const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// The games of one pair of rungs: `points_a` is rung `a`'s score (win 1, draw ½), over `games`
/// games' worth of evidence (their effective number where games come in pairs of one opening).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    pub games: f64,
    pub points_a: f64,
}

impl PairResult {
    /// Rung `a` against rung `b` from per-game `(opening, a's points)`: the score over the games, the
    /// evidence counted by the pairs' variance ([`super::stats::paired`]).
    pub fn of_games(a: usize, b: usize, points: &[(u64, f64)]) -> PairResult {
        let e = super::stats::paired(points);
        PairResult { a, b, games: e.effective_n, points_a: e.interval.estimate * e.effective_n }
    }
}

/// One rung's rating: Elo against the anchor, with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// The rungs' ratings with the covariance of their errors, which the difference between two rungs
/// needs: rungs rated through the same games share error, so the interval of a difference is not the
/// two intervals added. Reads as the slice of ratings, the anchor first.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    rungs: Vec<Rating>,
    /// Covariance of the ratings' errors in Elo², rung by rung (the anchor's row and column are 0).
    covariance: Vec<Vec<f64>>,
}

impl std::ops::Deref for Ratings {
    type Target = [Rating];

    fn deref(&self) -> &[Rating] {
        &self.rungs
    }
}

impl Ratings {
    /// Ratings whose errors are independent of each other, each its interval's (ratings taken from
    /// separate measurements, or made up in a test).
    pub fn independent(rungs: Vec<Rating>) -> Ratings {
        let n = rungs.len();
        let covariance = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| if i == j { ((rungs[i].high - rungs[i].elo) / Z95).powi(2) } else { 0.0 })
                    .collect()
            })
            .collect();
        Ratings { rungs, covariance }
    }

    /// Rung `b`'s rating minus rung `a`'s, with its 95% interval: the variance of the difference is
    /// Var a + Var b − 2 Cov(a, b).
    pub fn difference(&self, a: usize, b: usize) -> (f64, f64, f64) {
        let c = &self.covariance;
        let d = self.rungs[b].elo - self.rungs[a].elo;
        let half = Z95 * (c[a][a] + c[b][b] - 2.0 * c[a][b]).max(0.0).sqrt();
        (d, d - half, d + half)
    }

    /// Whether rungs `a` and `b` are told apart: their difference's 95% interval excludes 0.
    pub fn separated(&self, a: usize, b: usize) -> bool {
        let (_, low, high) = self.difference(a, b);
        low > 0.0 || high < 0.0
    }
}

/// The ratings of `rungs` rungs (rung 0 the anchor) from the games between them; `None` when some
/// rung met no other (the ratings are not all tied together).
pub fn fit(rungs: usize, pairs: &[PairResult]) -> Option<Ratings> {
    if rungs == 0 || !connected(rungs, pairs) {
        return None;
    }
    // Games and points of each ordered pair, the virtual draw included.
    let mut games = vec![vec![0.0; rungs]; rungs];
    let mut points = vec![vec![0.0; rungs]; rungs];
    for p in pairs.iter().filter(|p| p.games > 0.0 && p.a != p.b) {
        let n = p.games + 1.0;
        games[p.a][p.b] += n;
        games[p.b][p.a] += n;
        points[p.a][p.b] += p.points_a + 0.5;
        points[p.b][p.a] += p.games - p.points_a + 0.5;
    }
    // Newton's method on the log-strengths θ, θ₀ = 0.
    let mut theta: Vec<f64> = vec![0.0; rungs];
    let mut covariance = vec![vec![0.0; rungs - 1]; rungs - 1];
    for _ in 0..100 {
        let mut gradient = vec![0.0; rungs - 1];
        let mut information = vec![vec![0.0; rungs - 1]; rungs - 1];
        for i in 0..rungs {
            for j in 0..rungs {
                if i == j || games[i][j] == 0.0 {
                    continue;
                }
                let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp()) as f64;
                let weight = games[i][j] * p * (1.0 - p);
                if i > 0 {
                    gradient[i - 1] += points[i][j] - games[i][j] * p;
                    information[i - 1][i - 1] += weight;
                    if j > 0 {
                        information[i - 1][j - 1] -= weight;
                    }
                }
            }
        }
        covariance = invert(&information)?;
        let step: Vec<f64> =
            (0..rungs - 1).map(|i| (0..rungs - 1).map(|j| covariance[i][j] * gradient[j]).sum()).collect();
        for (t, s) in theta[1..].iter_mut().zip(&step) {
            *t += s;
        }
        if step.iter().all(|s| s.abs() < 1e-10) {
            break;
        }
    }
    // The anchor's row and column are 0; the others are the inverse information's, in Elo².
    let elo_covariance: Vec<Vec<f64>> = (0..rungs)
        .map(|i| {
            (0..rungs)
                .map(|j| if i == 0 || j == 0 { 0.0 } else { ELO * ELO * covariance[i - 1][j - 1] })
                .collect()
        })
        .collect();
    let ratings = (0..rungs)
        .map(|i| {
            let se = elo_covariance[i][i].max(0.0).sqrt();
            let elo = ELO * theta[i];
            Rating { elo, low: elo - Z95 * se, high: elo + Z95 * se }
        })
        .collect();
    Some(Ratings { rungs: ratings, covariance: elo_covariance })
}

fn connected(rungs: usize, pairs: &[PairResult]) -> bool {
    let mut reached = vec![false; rungs];
    reached[0] = true;
    loop {
        let mut grew = false;
        for p in pairs.iter().filter(|p| p.games > 0.0) {
            if reached[p.a] != reached[p.b] {
                reached[p.a] = true;
                reached[p.b] = true;
                grew = true;
            }
        }
        if !grew {
            return reached.iter().all(|&r| r);
        }
    }
}

/// The inverse of a small symmetric positive definite matrix (Gauss–Jordan); `None` if singular.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut a: Vec<Vec<f64>> = m.to_vec();
    let mut inv: Vec<Vec<f64>> =
        (0..n).map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let scale = a[col][col];
        for j in 0..n {
            a[col][j] /= scale;
            inv[col][j] /= scale;
        }
        for row in 0..n {
            if row != col {
                let factor = a[row][col];
                for j in 0..n {
                    a[row][j] -= factor * a[col][j];
                    inv[row][j] -= factor * inv[col][j];
                }
            }
        }
    }
    Some(inv)
}

/// The slope of `values` (estimate and standard error each) against `x`, by weighted least squares
/// (weights 1/se²), with its 95% interval; `None` with fewer than two points or no spread in `x`.
pub fn slope(points: &[(f64, f64, f64)]) -> Option<(f64, f64, f64)> {
    let weighted: Vec<(f64, f64, f64)> =
        points.iter().map(|&(x, y, se)| (x, y, 1.0 / se.max(1e-6).powi(2))).collect();
    if weighted.len() < 2 {
        return None;
    }
    let total: f64 = weighted.iter().map(|p| p.2).sum();
    let mx = weighted.iter().map(|p| p.2 * p.0).sum::<f64>() / total;
    let my = weighted.iter().map(|p| p.2 * p.1).sum::<f64>() / total;
    let sxx: f64 = weighted.iter().map(|p| p.2 * (p.0 - mx).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let b = weighted.iter().map(|p| p.2 * (p.0 - mx) * (p.1 - my)).sum::<f64>() / sxx;
    let half = Z95 / sxx.sqrt();
    Some((b, b - half, b + half))
}

/// A rung placed on an outside scale by a match against a reference engine (Stockfish's UCI_Elo levels:
/// `scripts/stockfish_elo.py`), as the study file records it: its rating there with the 95% interval,
/// the games, what the scale is, and the command that measured it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Anchor {
    pub rung: String,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    pub games: u32,
    pub scale: String,
    pub command: String,
}

/// What to add to the study's ratings to put them on the anchors' scale: the anchors' offsets (their
/// rating there less the study's), weighted by their precision, with the 95% interval, and Cochran's
/// test that the anchors agree (a p value far below 0.05 says the scale does not map onto the study's
/// by one offset: the rungs' strength ratios differ between the two).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Offset {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    pub scale: String,
    pub anchors: Vec<Anchor>,
    /// Each anchor's own offset, in the anchors' order.
    pub each: Vec<f64>,
    /// Cochran's Q over the anchors' offsets and its p value (none with one anchor).
    pub agreement: Option<(f64, f64)>,
}

/// The offset from the study's ratings (`labels` name the rungs) to the anchors' scale; `None` without
/// anchors on rated rungs. Each offset's variance adds the anchor's and the rung's (the rung's rating
/// is against the first rung, so offsets share its error, which this ignores: a slight overstatement of
/// the precision with several anchors).
pub fn offset(anchors: &[Anchor], labels: &[String], ratings: &[Rating]) -> Option<Offset> {
    let variance = |low: f64, high: f64| ((high - low) / (2.0 * Z95)).powi(2);
    let placed: Vec<(&Anchor, f64, f64)> = anchors
        .iter()
        .filter_map(|a| {
            let r = ratings.get(labels.iter().position(|l| *l == a.rung)?)?;
            let var = (variance(a.low, a.high) + variance(r.low, r.high)).max(1e-9);
            Some((a, a.elo - r.elo, var))
        })
        .collect();
    if placed.is_empty() {
        return None;
    }
    let weights: f64 = placed.iter().map(|p| 1.0 / p.2).sum();
    let elo = placed.iter().map(|p| p.1 / p.2).sum::<f64>() / weights;
    let half = Z95 / weights.sqrt();
    let q: f64 = placed.iter().map(|p| (p.1 - elo).powi(2) / p.2).sum();
    let df = placed.len() as f64 - 1.0;
    let agreement = (df > 0.0).then(|| (q, super::stats::chi_square_tail(q, df)));
    let scales: Vec<&str> = placed.iter().map(|p| p.0.scale.as_str()).collect();
    Some(Offset {
        elo,
        low: elo - half,
        high: elo + half,
        scale: scales[0].to_string(),
        anchors: placed.iter().map(|p| p.0.clone()).collect(),
        each: placed.iter().map(|p| p.1).collect(),
        agreement,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anchor(rung: &str, elo: f64, half: f64) -> Anchor {
        let (low, high) = (elo - half, elo + half);
        Anchor { rung: rung.into(), elo, low, high, games: 64, scale: "s".into(), command: String::new() }
    }

    /// Two anchors of equal precision average; one far off the other's offset fails Cochran's test;
    /// an anchor on an unrated rung is left out.
    #[test]
    fn anchors_give_one_offset_and_say_whether_they_agree() {
        let labels = ["a".to_string(), "b".to_string()];
        let ratings =
            [Rating { elo: 0.0, low: 0.0, high: 0.0 }, Rating { elo: 200.0, low: 100.0, high: 300.0 }];
        let agree =
            offset(&[anchor("a", 1500.0, 100.0), anchor("b", 1700.0, 0.0)], &labels, &ratings).unwrap();
        assert!((agree.elo - 1500.0).abs() < 1e-9, "{agree:?}");
        let half = Z95 / (2.0 / (100.0 / Z95).powi(2)).sqrt();
        assert!((agree.high - agree.elo - half).abs() < 1e-9, "{agree:?}");
        let (q, p) = agree.agreement.unwrap();
        assert!(q.abs() < 1e-9 && p > 0.99);
        let apart =
            offset(&[anchor("a", 1500.0, 100.0), anchor("b", 2300.0, 0.0)], &labels, &ratings).unwrap();
        assert!(apart.agreement.unwrap().1 < 0.001, "{apart:?}");
        let one = offset(&[anchor("a", 1500.0, 100.0), anchor("zz", 0.0, 1.0)], &labels, &ratings).unwrap();
        assert_eq!((one.anchors.len(), one.agreement), (1, None));
        assert!(offset(&[anchor("zz", 0.0, 1.0)], &labels, &ratings).is_none());
    }

    #[test]
    fn two_rungs_three_to_one_is_about_190_elo() {
        // 300 of 400 points: odds 3, 400·log10(3) = 190.8 Elo; the virtual draw pulls it in a little.
        let ratings = fit(2, &[PairResult { a: 1, b: 0, games: 400.0, points_a: 300.0 }]).unwrap();
        assert_eq!(ratings[0].elo, 0.0);
        assert!((ratings[1].elo - 190.0).abs() < 2.0, "{:?}", ratings[1]);
        // 1.96 standard errors: se of the log-odds √(1/(n p (1−p))) = 0.1155, × 400/ln 10 = 20.1 Elo,
        // so 39.3 Elo each way.
        assert!((ratings[1].high - ratings[1].elo - 39.3).abs() < 0.5, "{:?}", ratings[1]);
    }

    #[test]
    fn transitive_results_are_recovered_and_a_clean_sweep_stays_finite() {
        let odds = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let truth = [0.0, 150.0, 400.0];
        let mut pairs = Vec::new();
        for a in 0..3 {
            for b in a + 1..3 {
                pairs.push(PairResult {
                    a: b,
                    b: a,
                    games: 10_000.0,
                    points_a: 10_000.0 * odds(truth[b] - truth[a]),
                });
            }
        }
        let ratings = fit(3, &pairs).unwrap();
        for (r, t) in ratings.iter().zip(truth) {
            assert!((r.elo - t).abs() < 3.0, "{ratings:?}");
        }
        let sweep = fit(2, &[PairResult { a: 1, b: 0, games: 40.0, points_a: 40.0 }]).unwrap();
        assert!(sweep[1].elo.is_finite() && sweep[1].elo > 400.0, "{sweep:?}");
        assert!(
            fit(3, &[PairResult { a: 1, b: 0, games: 10.0, points_a: 5.0 }]).is_none(),
            "rung 2 met nobody"
        );
    }

    /// Three rungs in a chain, only neighbours playing: the outer rungs' difference is the sum of the
    /// two steps, and its interval is the two steps' errors added in quadrature (each step is measured
    /// by its own games), not the two ratings' intervals added, which count the first step twice.
    #[test]
    fn a_difference_allows_for_the_errors_rungs_share() {
        let ratings = fit(
            3,
            &[
                PairResult { a: 1, b: 0, games: 400.0, points_a: 300.0 },
                PairResult { a: 2, b: 1, games: 400.0, points_a: 300.0 },
            ],
        )
        .unwrap();
        let step = |a: usize, b: usize| ratings.difference(a, b);
        let (d01, low01, _) = step(0, 1);
        let (d12, low12, _) = step(1, 2);
        let (d02, low02, high02) = step(0, 2);
        assert!((d02 - d01 - d12).abs() < 1e-6 && (d01 - d12).abs() < 1e-6, "{ratings:?}");
        // Each step: 400 games at 3 to 1 (plus the virtual draw), 39.3 Elo each way as above.
        assert!((d01 - low01 - 39.3).abs() < 0.5 && (d12 - low12 - 39.3).abs() < 0.5);
        let quadrature = ((d01 - low01).powi(2) + (d12 - low12).powi(2)).sqrt();
        assert!((d02 - low02 - quadrature).abs() < 0.1 && (high02 - d02 - quadrature).abs() < 0.1);
        // Rung 1's rating carries the first step's error; rung 2's both; between 1 and 2 only the second.
        let naive =
            ((ratings[1].high - ratings[1].elo).powi(2) + (ratings[2].high - ratings[2].elo).powi(2)).sqrt();
        assert!(d12 - low12 < 0.7 * naive, "{} against {naive}", d12 - low12);
        // Ratings of separate measurements add their intervals in quadrature.
        let independent = Ratings::independent(vec![ratings[0], ratings[1], ratings[2]]);
        assert!((independent.difference(1, 2).0 - d12).abs() < 1e-9);
        assert!((independent.difference(1, 2).1 - (d12 - naive)).abs() < 1e-6);
        assert!(
            ratings.separated(0, 1)
                && !Ratings::independent(vec![ratings[0], Rating { elo: 10.0, low: -30.0, high: 50.0 }])
                    .separated(0, 1)
        );
    }

    #[test]
    fn weighted_slopes() {
        let (b, low, high) = slope(&[(0.0, 0.5, 0.01), (1.0, 0.6, 0.01), (2.0, 0.7, 0.01)]).unwrap();
        assert!((b - 0.1).abs() < 1e-9 && low < b && high > b);
        assert!(slope(&[(1.0, 0.5, 0.1)]).is_none());
    }
}
