//! Trends over one rating scale. Every rung of a study, whatever its ladder, is rated by the same
//! cross-play, so a trend claim reads every rated rung (less those the ratings show no stronger than
//! the rung below them on their own ladder) against those ratings: the measure's slope by weighted
//! least squares (points per 100 Elo), with the lack of fit of a straight line (χ² on k − 2 degrees of
//! freedom). The ratings are measured too, so the slope's standard error comes from a bootstrap over
//! games: each replicate resamples every cross-play cell's opening pairs and refits the ratings, and
//! every rung's games by opening, and fits the slope again.

use rand::{RngExt, SeedableRng};

use super::super::aggregate::matches;
use super::super::analysis::GameStats;
use super::super::decide::Spread;
use super::super::ratings::{PairResult, Rating, fit};
use super::super::stats::chi_square_tail;
use super::super::study::{Measure, Quantity};
use super::evidence::Evidence;

/// Bootstrap replicates of a slope.
const REPLICATES: usize = 1000;

/// A fitted slope and what it was fitted on.
pub struct Slope {
    pub spread: Spread,
    pub text: String,
    /// The games per cell behind it (the smallest rung's).
    pub games: f64,
}

/// One rung's games as clusters: `(sum of values, games)` per opening.
type Clusters = Vec<(f64, f64)>;

impl Evidence<'_> {
    /// The rungs a trend reads: rated, and stronger than the rung below on their ladder.
    pub fn trend_rungs(&self) -> Vec<usize> {
        let Some(ratings) = self.ratings else { return Vec::new() };
        let mut rungs = Vec::new();
        for ladder in &self.study.ladders {
            let mut below: Option<f64> = None;
            for &r in &ladder.rungs {
                if below.is_none_or(|b| ratings[r].elo > b) {
                    rungs.push(r);
                }
                below = Some(below.map_or(ratings[r].elo, |b| b.max(ratings[r].elo)));
            }
        }
        rungs.sort_by(|&a, &b| ratings[a].elo.total_cmp(&ratings[b].elo));
        rungs
    }

    /// The slope of `measure` over the trend's rungs, the first `games(rung)` games of each cell
    /// read; `None` with fewer than two rated rungs.
    pub fn slope(
        &self,
        measure: &Measure,
        toward_half: bool,
        games: &dyn Fn(usize) -> usize,
        seed: u64,
    ) -> Option<Slope> {
        let ratings = self.ratings?;
        let rungs = self.trend_rungs();
        let clusters: Vec<Clusters> =
            rungs.iter().map(|&r| self.clusters(measure, r, games(r))).collect::<Option<_>>()?;
        let value = |c: &Clusters| {
            let (sum, n) = c.iter().fold((0.0, 0.0), |(s, n), x| (s + x.0, n + x.1));
            let mean = if n > 0.0 { sum / n } else { 0.5 };
            100.0 * if toward_half { (mean - 0.5).abs() } else { mean }
        };
        let ses: Vec<f64> = clusters.iter().map(|c| 100.0 * cluster_se(c)).collect();
        let points: Vec<(f64, f64, f64)> = rungs
            .iter()
            .zip(&clusters)
            .zip(&ses)
            .map(|((&r, c), &se)| (ratings[r].elo / 100.0, value(c), se))
            .collect();
        let line = weighted_line(&points)?;
        let slopes = self.bootstrap_slopes(ratings, &rungs, &clusters, &ses, &value, seed);
        let se = if slopes.len() > 10 { standard_deviation(&slopes) } else { line.se };
        let spread = Spread::Normal { estimate: line.slope, se };
        let interval = spread.interval();
        let what = if toward_half { "distance from 50%" } else { "value" };
        let labels: Vec<String> = rungs
            .iter()
            .zip(&points)
            .map(|(&r, p)| format!("{} {:.1} ({:.0} Elo)", self.study.labels[r], p.1, ratings[r].elo))
            .collect();
        let text = format!(
            "{what} over the rated rungs: {}; slope {:+.2} points per 100 Elo [{:+.2}, {:+.2}] (bootstrap over games and ratings, {} replicates; the fit alone: ±{:.2}); lack of fit χ²({}) = {:.1}, p = {:.3}",
            labels.join(" → "),
            line.slope,
            interval.low,
            interval.high,
            slopes.len(),
            1.96 * line.se,
            points.len().saturating_sub(2),
            line.chi_square,
            if points.len() > 2 { chi_square_tail(line.chi_square, (points.len() - 2) as f64) } else { 1.0 },
        );
        let games = rungs.iter().map(|&r| games(r) as f64).fold(f64::INFINITY, f64::min);
        Some(Slope { spread, text, games })
    }

    /// The slopes refitted on [`REPLICATES`] resamples of each rung's games (by opening) and of the
    /// ratings.
    fn bootstrap_slopes(
        &self,
        ratings: &[Rating],
        rungs: &[usize],
        clusters: &[Clusters],
        ses: &[f64],
        value: &dyn Fn(&Clusters) -> f64,
        seed: u64,
    ) -> Vec<f64> {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut slopes = Vec::with_capacity(REPLICATES);
        for _ in 0..REPLICATES {
            let elos = self.resampled_ratings(ratings, &mut rng);
            let replicate: Vec<(f64, f64, f64)> = rungs
                .iter()
                .zip(clusters)
                .zip(ses)
                .map(|((&r, c), &se)| (elos[r] / 100.0, value(&resample(c, &mut rng)), se))
                .collect();
            if let Some(fitted) = weighted_line(&replicate) {
                slopes.push(fitted.slope);
            }
        }
        slopes
    }

    /// A rung's games, the measure's value per game (its score, or the event's 0/1 among the games
    /// that qualify), grouped by opening.
    fn clusters(&self, measure: &Measure, skill: usize, games: usize) -> Option<Clusters> {
        let r = measure.resolved();
        let all = self.games(r.variant, skill)?;
        let value = |g: &GameStats| match &r.quantity {
            Quantity::Score(side) => match g.winner {
                None => Some(0.5),
                Some(w) => Some(if w == *side { 1.0 } else { 0.0 }),
            },
            Quantity::Rate(event) => Some(if matches(g, event) { 1.0 } else { 0.0 }),
            Quantity::Mean(_) => None,
        };
        let mut by_opening: std::collections::BTreeMap<u64, (f64, f64)> = Default::default();
        for g in all[..games.min(all.len())].iter().filter(|g| r.given.as_ref().is_none_or(|f| matches(g, f)))
        {
            let entry = by_opening.entry(g.cluster).or_default();
            entry.0 += value(g)?;
            entry.1 += 1.0;
        }
        Some(by_opening.into_values().collect())
    }

    /// The ratings refitted on resampled cross-play, or, without its games, drawn about each rating's
    /// own interval.
    fn resampled_ratings(&self, ratings: &[Rating], rng: &mut rand_pcg::Pcg64Mcg) -> Vec<f64> {
        if !self.pairs.is_empty() {
            let pairs: Vec<PairResult> = self
                .pairs
                .iter()
                .map(|p| {
                    let units = pair_units(p.stats);
                    let drawn: Vec<(u64, f64)> = (0..units.len())
                        .flat_map(|k| {
                            let unit = &units[rng.random_range(0..units.len())];
                            unit.iter().map(move |&points| (k as u64, points))
                        })
                        .collect();
                    PairResult::of_games(p.a, p.b, &drawn)
                })
                .collect();
            if let Some(fitted) = fit(ratings.len(), &pairs) {
                return fitted.iter().map(|r| r.elo).collect();
            }
        }
        ratings.iter().map(|r| r.elo + (r.high - r.elo) / 1.96 * standard_normal(rng)).collect()
    }
}

/// A cross-play cell's games as opening units: agent A's points in each game of the unit.
pub fn pair_units(stats: &[GameStats]) -> Vec<Vec<f64>> {
    let mut units: std::collections::BTreeMap<u64, Vec<f64>> = Default::default();
    for (i, g) in stats.iter().enumerate() {
        let points = match g.winner {
            None => 0.5,
            Some(w) if w == i % 2 => 1.0,
            Some(_) => 0.0,
        };
        units.entry(g.cluster).or_default().push(points);
    }
    units.into_values().collect()
}

/// The clusters resampled with replacement.
fn resample(clusters: &Clusters, rng: &mut rand_pcg::Pcg64Mcg) -> Clusters {
    (0..clusters.len()).map(|_| clusters[rng.random_range(0..clusters.len())]).collect()
}

/// The cluster-robust standard error of a mean over clusters `(sum, count)`.
fn cluster_se(clusters: &Clusters) -> f64 {
    let (sum, n) = clusters.iter().fold((0.0, 0.0), |(s, n), x| (s + x.0, n + x.1));
    let c = clusters.len() as f64;
    if n <= 0.0 || c < 2.0 {
        return 0.5;
    }
    let mean = sum / n;
    let variance = c / (c - 1.0) * clusters.iter().map(|x| (x.0 - mean * x.1).powi(2)).sum::<f64>() / (n * n);
    // A rung whose games all agree still carries a little uncertainty (half a game's worth).
    variance.sqrt().max(0.5 / n)
}

fn standard_normal(rng: &mut rand_pcg::Pcg64Mcg) -> f64 {
    let (u, v): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random::<f64>());
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

/// A weighted least-squares line through `(x, y, se)`.
struct Line {
    slope: f64,
    se: f64,
    chi_square: f64,
}

/// The sample standard deviation of `xs`.
fn standard_deviation(xs: &[f64]) -> f64 {
    let mean = xs.iter().sum::<f64>() / xs.len().max(1) as f64;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (xs.len().max(2) - 1) as f64).sqrt()
}

fn weighted_line(points: &[(f64, f64, f64)]) -> Option<Line> {
    if points.len() < 2 {
        return None;
    }
    let w: Vec<f64> = points.iter().map(|p| 1.0 / p.2.max(1e-6).powi(2)).collect();
    let total: f64 = w.iter().sum();
    let mx = points.iter().zip(&w).map(|(p, w)| w * p.0).sum::<f64>() / total;
    let my = points.iter().zip(&w).map(|(p, w)| w * p.1).sum::<f64>() / total;
    let sxx: f64 = points.iter().zip(&w).map(|(p, w)| w * (p.0 - mx).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = points.iter().zip(&w).map(|(p, w)| w * (p.0 - mx) * (p.1 - my)).sum::<f64>() / sxx;
    let chi_square = points.iter().zip(&w).map(|(p, w)| w * (p.1 - my - slope * (p.0 - mx)).powi(2)).sum();
    Some(Line { slope, se: 1.0 / sxx.sqrt(), chi_square })
}
