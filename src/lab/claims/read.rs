//! What a claim reads from the games: one measure of one cell as a [`Spread`] (its estimate and
//! interval family) with a line of text, over the first games of the cell that the reading's design
//! allows.

use std::collections::HashSet;
use std::ops::Range;

use super::super::aggregate::{matches, metric_mean, rate, side_score};
use super::super::analysis::GameStats;
use super::super::decide::Spread;
use super::super::stats::{Estimate, Interval, student_t_quantile};
use super::super::study::{Filter, Measure, Metric, Quantity};
use super::evidence::Evidence;

/// A measured number.
pub struct Measured {
    pub spread: Spread,
    pub text: String,
    /// The games of the cell it was read on (a replication's as played, fresh or not), and the games
    /// its estimate is taken over (fewer with `given`, games stopped at the cap, a replication's
    /// repeats).
    pub games: f64,
    pub qualifying: u32,
    /// A replication's games left out as repeats of the games it replicates.
    pub repeats: u32,
    /// Set for statistics over a subset of games (`given`).
    pub conditional: bool,
    pub unit: Unit,
}

impl Measured {
    /// The share of the games read that count as independent (1 for a mean, whose clusters are its
    /// own matter, and for exact values): over the games that finished, since those stopped at the
    /// ply cap are left out for another reason than repeating others.
    /// A replication's repeats of the games it replicates count as games read that are not
    /// independent.
    pub fn independent(&self) -> f64 {
        let among_read = match self.spread {
            Spread::Proportion { n, .. } if !self.conditional && self.qualifying > 0 => {
                (n / self.qualifying as f64).min(1.0)
            }
            _ => 1.0,
        };
        let fresh = if self.games > 0.0 { 1.0 - self.repeats as f64 / self.games } else { 1.0 };
        among_read * fresh
    }
}

/// How a statistic's differences are printed: points of a percentage, or the metric's own units.
#[derive(Clone, Debug, PartialEq)]
pub enum Unit {
    Points,
    Of(String),
}

impl Unit {
    /// `x` in this unit: "4.3 points", "9.9 plies".
    pub fn show(&self, x: f64) -> String {
        match self {
            Unit::Points => format!("{:.1} points", 100.0 * x),
            Unit::Of(name) => format!("{x:.2} {name}"),
        }
    }

    /// The unit of a per-game metric.
    fn of(metric: &Metric) -> Unit {
        Unit::Of(
            match metric {
                Metric::Plies => "plies",
                Metric::Decisive => "decisive games per game",
                Metric::Lost(_) | Metric::Left(_) | Metric::EarlyLost(_) => "pieces",
                Metric::Feature(name) => name.as_str(),
                Metric::Margin(_) => return Unit::Points,
            }
            .to_string(),
        )
    }
}

impl Evidence<'_> {
    /// The share of the games `games` of rung `skill`'s cell on measure `m`'s variant that were
    /// stopped at the ply cap (unfinished, left out of every reading).
    pub fn unfinished_share(&self, m: &Measure, skill: usize, games: Range<usize>) -> f64 {
        let Some(cell) = self.games(m.resolved().variant, skill) else { return 0.0 };
        let (all, _) = fresh_games(cell, &games);
        all.iter().filter(|g| g.unfinished()).count() as f64 / all.len().max(1) as f64
    }

    /// Measure `m` on rung `skill`, over the games `games` of its cell (by index: `0..400` its first
    /// 400, a replication's the ones played after those read before); `None` when the cell is not
    /// there.
    pub fn measure(&self, m: &Measure, skill: usize, games: Range<usize>) -> Option<Measured> {
        let r = m.resolved();
        if r.quantity.only_from_tables() {
            return None;
        }
        let cell = self.games(r.variant, skill)?;
        let (all, played) = fresh_games(cell, &games);
        let repeats = played - all.len();
        // Games stopped at the ply cap are unfinished: read on the games that ended by the rules.
        let finished: Vec<&GameStats> = all.iter().copied().filter(|g| !g.unfinished()).collect();
        let subset: Vec<GameStats> = finished
            .iter()
            .filter(|g| r.given.as_ref().is_none_or(|f| matches(g, f)))
            .map(|&g| g.clone())
            .collect();
        let unfinished = all.len() - finished.len();
        let at = format!("{}@{}", m.variant, self.study.labels[skill]);
        // A replication's games are named, so that no reader takes them for the cell's first ones.
        let at =
            if games.start > 0 { format!("{at} (games {}–{})", games.start + 1, games.end) } else { at };
        let mut left_out = String::new();
        if repeats > 0 {
            left_out += &format!(
                "; {repeats} of {played} games open as a game they replicate did, not fresh, left out"
            );
        }
        let adjudicated = all.iter().filter(|g| g.adjudicated()).count();
        if adjudicated > 0 {
            let length = matches!(r.quantity, Quantity::Mean(Metric::Plies));
            let unknown = if length { ", their length unknown and left out" } else { "" };
            left_out += &format!(
                "; {adjudicated} of {} games stopped at the ply cap and adjudicated{unknown}",
                all.len()
            );
        }
        if unfinished > 0 {
            left_out += &format!("; {unfinished} of {} games unfinished at the ply cap, left out", all.len());
        }
        let given = if m.given.is_some() {
            format!(" given {}", filter_words(m.given.as_ref()))
        } else {
            String::new()
        };
        let words = |e: &Estimate| format!("(n={}{})", e.n, independent(e));
        let (spread, unit, text, n) = match &r.quantity {
            Quantity::Score(side) => {
                let e = side_score(&subset, *side);
                let name = m.side.as_deref().unwrap_or_default();
                (
                    proportion(&e),
                    Unit::Points,
                    format!("{name} score{given} {at} {} {}", show(e.interval), words(&e)),
                    e.n,
                )
            }
            Quantity::Mean(metric) => {
                let e = metric_mean(&subset, metric);
                let name = m.metric.as_deref().unwrap_or_default();
                let text = if e.n == 0 {
                    format!("mean {name}{given} {at}: no games (n=0)")
                } else {
                    format!("mean {name}{given} {at} {} {}", show_mean(e.interval), words(&e))
                };
                (mean(&e), Unit::of(metric), text, e.n)
            }
            Quantity::Rate(event) => {
                let e = rate(&subset, event, None);
                let hits = subset.iter().filter(|g| matches(g, event)).count();
                let event_words = filter_words(m.event.as_ref());
                let text = if e.n == 0 {
                    format!("rate {event_words}{given} {at}: no games (n=0)")
                } else {
                    format!(
                        "rate {event_words}{given} {at} {hits}/{} = {}{}",
                        e.n,
                        show(e.interval),
                        independent(&e)
                    )
                };
                (proportion(&e), Unit::Points, text, e.n)
            }
        };
        Some(Measured {
            spread,
            text: text + &left_out,
            games: played as f64,
            qualifying: n,
            repeats: repeats as u32,
            conditional: m.given.is_some(),
            unit,
        })
    }
}

/// The games `games` of a cell that a reading reads, and how many of them were played. A
/// replication (a range after the cell's first games) reads fresh games only: a game that opens as one
/// of the games it replicates did is no new evidence (agents that play a position alike repeat that
/// game), so it is left out.
fn fresh_games<'c>(cell: &'c [GameStats], games: &Range<usize>) -> (Vec<&'c GameStats>, usize) {
    let start = games.start.min(cell.len());
    let window = &cell[start..games.end.min(cell.len())];
    let replicated: HashSet<u64> = cell[..start].iter().map(|g| g.cluster).collect();
    (window.iter().filter(|g| !replicated.contains(&g.cluster)).collect(), window.len())
}

/// A proportion estimated over clustered games: Wilson's interval on the effective number.
fn proportion(e: &Estimate) -> Spread {
    Spread::Proportion { successes: e.interval.estimate * e.effective_n, n: e.effective_n }
}

/// A mean over clustered games: Student's t on the clusters, its standard error read back from the
/// interval.
fn mean(e: &Estimate) -> Spread {
    let df = (e.clusters as f64 - 1.0).max(0.0);
    let half = e.interval.high - e.interval.estimate;
    if df < 1.0 || !half.is_finite() {
        return Spread::Mean { mean: e.interval.estimate, se: f64::INFINITY, df: 1.0 };
    }
    Spread::Mean { mean: e.interval.estimate, se: half / student_t_quantile(0.975, df), df }
}

/// `, 372 independent` where games repeat or share openings, nothing otherwise.
fn independent(e: &Estimate) -> String {
    if e.effective_n < e.n as f64 - 1.5 {
        format!(", {:.0} independent", e.effective_n)
    } else {
        String::new()
    }
}

pub fn show(i: Interval) -> String {
    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * i.estimate, 100.0 * i.low, 100.0 * i.high)
}

/// A mean and its interval; a mean over one cluster has no interval, and says so.
pub fn show_mean(i: Interval) -> String {
    if i.low.is_finite() && i.high.is_finite() {
        format!("{:.2} [{:.2}, {:.2}]", i.estimate, i.low, i.high)
    } else {
        format!("{:.2} [no interval]", i.estimate)
    }
}

pub fn filter_words(f: Option<&Filter>) -> String {
    f.map_or(String::new(), |f| toml::to_string(f).unwrap_or_default().trim().replace('\n', ", "))
}

/// The measure in words, for the test's description.
pub fn measure_words(m: &Measure) -> String {
    let skill = m.skill.as_deref().unwrap_or("top");
    let given =
        m.given.as_ref().map_or(String::new(), |g| format!(" among games with {}", filter_words(Some(g))));
    if let Some(side) = &m.side {
        format!("score of {side}{given} in {} at {skill}", m.variant)
    } else if let Some(side) = m.metric.as_deref().and_then(|name| name.strip_prefix("margin:")) {
        format!(
            "margin for error of the {side} in {} (the tables, over the positions the games reach)",
            m.variant
        )
    } else if let Some(name) = &m.metric {
        format!("mean {name}{given} in {} at {skill}", m.variant)
    } else {
        format!("share of games with {}{given} in {} at {skill}", filter_words(m.event.as_ref()), m.variant)
    }
}
