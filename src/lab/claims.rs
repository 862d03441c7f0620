//! The claims table. Each claim's test is read off every kind of evidence the study has — the rollout
//! ladder, the network ladder, best play, proofs — and the claim's verdict comes from the strongest of
//! them (exact > network > rollout), with the weaker kept beside it and a line where they disagree.
//!
//! Every reading states its decision rule, fixed before the data: the verdict is *supported* or
//! *contradicted* when the whole 95% interval lies on one side of the rule's bound, *inconclusive*
//! otherwise; *underpowered* where the planned games could not reach every verdict the test names (at
//! the test's own bound, or at ½ for comparisons), and *insufficient data* where a conditional
//! statistic rests on fewer than [`MIN_CONDITIONAL`] games. Beside each raw verdict stands the verdict
//! after Holm's correction across the study's claims on the same evidence (each test's two-sided p
//! value, from the same normal approximation). A reading from agents that stronger evidence shows
//! wrong (the tablebase, or a stronger rung that beats them) is marked weak and never gives the
//! verdict.

use serde::{Deserialize, Serialize};

use super::aggregate::{matches, metric_mean, rate, side_score};
use super::analysis::GameStats;
use super::ratings::{Rating, slope};
use super::stats::{
    ALPHA, Estimate, Interval, Z95, detectable_effect, difference, holm, mean_difference, normal_cdf,
};
use super::store::SolverResult;
use super::study::{
    Claim, ClaimTest, Direction, EvidenceKind, ExactTest, Ladder, LoadedStudy, Measure, Op, Quantity,
    TrendDirection,
};

/// Qualifying games a conditional statistic needs.
pub const MIN_CONDITIONAL: u32 = 30;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Supported,
    Contradicted,
    Inconclusive,
    Underpowered,
    InsufficientData,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Supported => "supported",
            Verdict::Contradicted => "contradicted",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Underpowered => "underpowered",
            Verdict::InsufficientData => "insufficient data",
        }
    }

    fn decisive(self) -> bool {
        matches!(self, Verdict::Supported | Verdict::Contradicted)
    }
}

/// One kind of evidence's answer to a claim.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    pub kind: EvidenceKind,
    /// The numbers it read.
    pub measurement: String,
    pub raw: Verdict,
    /// The two-sided p value of the test's leaning (none for a proof).
    pub p_value: Option<f64>,
    /// The verdict after Holm's correction across the claims read on this kind of evidence.
    pub adjusted: Verdict,
    /// How the measure moves over the ladder's measured ratings.
    pub trend: Option<String>,
    /// Why this evidence is weak, where stronger evidence shows its agents wrong.
    pub weak: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimResult {
    pub id: String,
    pub who: String,
    pub quote: String,
    pub definition: String,
    /// The test in words.
    pub test: String,
    /// The decision rule and the smallest effect the planned games detect.
    pub rule: String,
    pub detectable: String,
    /// Every reading, strongest evidence first.
    pub readings: Vec<Reading>,
    /// The claim's verdict: the strongest reading's (after Holm), or inconclusive when only weak
    /// evidence answered.
    pub verdict: Verdict,
    pub evidence: Option<EvidenceKind>,
    /// Where the evidence disagrees, or why the verdict stands as it does.
    pub note: Option<String>,
}

/// What the claims read.
pub struct Evidence<'a> {
    pub study: &'a LoadedStudy,
    /// `stats[variant][skill]`.
    pub stats: Vec<Vec<&'a [GameStats]>>,
    /// Start values: the tablebase's or the MCTS-solver's, one per variant at most.
    pub solver: &'a [SolverResult],
    /// Each rung's measured rating, where the rungs played each other.
    pub ratings: Option<&'a [Rating]>,
    /// For each rung, why stronger evidence shows it wrong, if it does: everywhere (`weak`: a rung of a
    /// stronger kind beats it), or on the variants a tablebase covers (`table_weak`, `covered`).
    pub weak: &'a [Option<String>],
    pub table_weak: &'a [Option<String>],
    pub covered: &'a [bool],
}

impl Evidence<'_> {
    /// Why the readings of rung `skill` on `test` are weak, if they are.
    fn weakness(&self, skill: usize, test: &ClaimTest) -> Option<String> {
        let on_covered = test_variants(test)
            .iter()
            .any(|v| self.study.variant_index(v).is_some_and(|i| self.covered.get(i) == Some(&true)));
        let table = self.table_weak.get(skill).cloned().flatten().filter(|_| on_covered);
        self.weak.get(skill).cloned().flatten().or(table)
    }
}

/// The variants a claim's test reads.
fn test_variants(test: &ClaimTest) -> Vec<&str> {
    match test {
        ClaimTest::Threshold { measure, .. }
        | ClaimTest::Near { measure, .. }
        | ClaimTest::Trend { measure, .. } => {
            vec![measure.variant.as_str()]
        }
        ClaimTest::Compare { a, b, .. } | ClaimTest::CloserToHalf { a, b } => {
            vec![a.variant.as_str(), b.variant.as_str()]
        }
        ClaimTest::Solver { variant, .. } => vec![variant.as_str()],
    }
}

/// A measured number.
struct Measured {
    estimate: Estimate,
    proportion: bool,
    /// Set for statistics over a subset of games (`given`).
    conditional: bool,
    text: String,
}

impl Measured {
    fn interval(&self) -> Interval {
        self.estimate.interval
    }

    /// The standard error the p values use.
    fn se(&self) -> f64 {
        if self.proportion {
            let n = self.estimate.effective_n.max(1.0);
            let p = self.estimate.interval.estimate.clamp(0.5 / n, 1.0 - 0.5 / n);
            (p * (1.0 - p) / n).sqrt()
        } else {
            ((self.estimate.interval.high - self.estimate.interval.estimate) / Z95).max(1e-12)
        }
    }
}

/// The outcome of one test on one kind of evidence.
struct Outcome {
    text: String,
    raw: Verdict,
    p_support: f64,
    p_contra: f64,
    trend: Option<String>,
}

impl Evidence<'_> {
    fn measure(&self, m: &Measure, skill: usize) -> Measured {
        let study = self.study;
        let r = m.resolved();
        let all = self.stats[r.variant][skill];
        let games: Vec<GameStats> =
            all.iter().filter(|g| r.given.as_ref().is_none_or(|f| matches(g, f))).cloned().collect();
        let at = format!("{}@{}", m.variant, study.labels[skill]);
        let given = if m.given.is_some() {
            format!(" given {}", filter_words(m.given.as_ref()))
        } else {
            String::new()
        };
        let words = |e: &Estimate| format!("(n={}{})", e.n, independent(e));
        let (estimate, proportion, text) = match &r.quantity {
            Quantity::Score(side) => {
                let e = side_score(&games, *side);
                let name = m.side.as_deref().unwrap_or_default();
                (e, true, format!("{name} score{given} {at} {} {}", show(e.interval), words(&e)))
            }
            Quantity::Mean(metric) => {
                let e = metric_mean(&games, metric);
                let name = m.metric.as_deref().unwrap_or_default();
                (e, false, format!("mean {name}{given} {at} {} {}", show_mean(e.interval), words(&e)))
            }
            Quantity::Rate(event) => {
                let e = rate(&games, event, None);
                let hits = games.iter().filter(|g| matches(g, event)).count();
                let text = format!(
                    "rate {}{given} {at} {hits}/{} = {}{}",
                    filter_words(m.event.as_ref()),
                    e.n,
                    show(e.interval),
                    independent(&e)
                );
                (e, true, text)
            }
        };
        Measured { estimate, proportion, conditional: m.given.is_some(), text }
    }

    /// The rung a measure reads on `ladder`; `None` when its skill names another ladder's rung.
    fn rung(&self, ladder: &Ladder, m: &Measure) -> Option<usize> {
        ladder.rung(m.skill.as_deref(), &self.study.labels)
    }
}

/// `(n_eff ≈ 372 independent)` where games repeat or share openings, nothing otherwise.
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

pub fn show_mean(i: Interval) -> String {
    format!("{:.2} [{:.2}, {:.2}]", i.estimate, i.low, i.high)
}

/// Supported when the interval satisfies `at_least`/`at_most` entirely, contradicted when it
/// entirely fails it.
pub fn threshold_verdict(i: Interval, op: Op, value: f64) -> Verdict {
    let (holds, fails) = match op {
        Op::AtLeast => (i.low >= value, i.high < value),
        Op::AtMost => (i.high <= value, i.low > value),
    };
    decide(holds, fails)
}

pub fn near_verdict(i: Interval, target: f64, margin: f64) -> Verdict {
    decide(
        i.low >= target - margin && i.high <= target + margin,
        i.high < target - margin || i.low > target + margin,
    )
}

/// The verdict on a difference interval `d = a − b`.
pub fn compare_verdict(d: Interval, direction: Direction, margin: f64) -> Verdict {
    let within = margin > 0.0 && d.low >= -margin && d.high <= margin;
    match direction {
        Direction::Greater => decide(d.low > 0.0, d.high < 0.0 || within),
        Direction::Less => decide(d.high < 0.0, d.low > 0.0 || within),
        Direction::Different => decide(d.excludes(0.0), within),
        Direction::Equal => decide(within, d.low > margin || d.high < -margin),
    }
}

/// Supported when every value of `a` is closer to ½ than every value of `b`; contradicted the other
/// way round.
pub fn closer_verdict(a: Interval, b: Interval) -> Verdict {
    let far = |i: Interval| (i.low - 0.5).abs().max((i.high - 0.5).abs());
    let near = |i: Interval| {
        if i.low <= 0.5 && i.high >= 0.5 { 0.0 } else { (i.low - 0.5).abs().min((i.high - 0.5).abs()) }
    };
    decide(far(a) < near(b), far(b) < near(a))
}

/// The verdict on a slope interval (points per 100 Elo): it goes in `direction`, or the other way or
/// stays within ± `margin`.
pub fn trend_verdict(slope: Interval, direction: TrendDirection, margin: f64) -> Verdict {
    let flat = margin > 0.0 && slope.low >= -margin && slope.high <= margin;
    match direction {
        TrendDirection::Falls => decide(slope.high < 0.0, slope.low > 0.0 || flat),
        TrendDirection::Rises => decide(slope.low > 0.0, slope.high < 0.0 || flat),
    }
}

fn decide(holds: bool, fails: bool) -> Verdict {
    if holds {
        Verdict::Supported
    } else if fails {
        Verdict::Contradicted
    } else {
        Verdict::Inconclusive
    }
}

/// One-sided p value that a statistic `z` standard errors above a bound lies above it.
fn above(z: f64) -> f64 {
    1.0 - normal_cdf(z)
}

/// P values of an equivalence (both one-sided tests of TOST): the larger of the two.
fn within(estimate: f64, se: f64, low: f64, high: f64) -> f64 {
    above((estimate - low) / se).max(normal_cdf((estimate - high) / se))
}

fn direction_word(d: Direction) -> &'static str {
    match d {
        Direction::Greater => "greater than",
        Direction::Less => "less than",
        Direction::Different => "different from",
        Direction::Equal => "equal to",
    }
}

/// The planned games of a measure's rung (conditional statistics: not plannable, their `n` is what
/// the data gave).
fn planned(study: &LoadedStudy, skill: usize, measured: &Measured) -> f64 {
    if measured.conditional { measured.estimate.n as f64 } else { study.study.skills[skill].games as f64 }
}

/// Half the width of a 95% interval around a proportion `p` of `n` games.
fn half_width(p: f64, n: f64) -> f64 {
    Z95 * (p * (1.0 - p) / n.max(1.0)).sqrt()
}

impl Evidence<'_> {
    /// Reads `test` on one ladder; `None` when its measures name rungs of other ladders only.
    fn outcome(&self, test: &ClaimTest, ladder: &Ladder) -> Option<Outcome> {
        Some(match test {
            ClaimTest::Threshold { measure, op, value, every_skill } => {
                let rungs: Vec<usize> =
                    if *every_skill { ladder.rungs.clone() } else { vec![self.rung(ladder, measure)?] };
                let (mut texts, mut verdicts, mut p_support, mut p_contra) =
                    (Vec::new(), Vec::new(), 0.0f64, 1.0f64);
                let mut underpowered = false;
                let mut insufficient = false;
                for &s in &rungs {
                    let m = self.measure(measure, s);
                    let z = (m.interval().estimate - value) / m.se();
                    let (support, contra) = if *op == Op::AtLeast {
                        (above(z), normal_cdf(z))
                    } else {
                        (normal_cdf(z), above(z))
                    };
                    p_support = p_support.max(support);
                    p_contra = p_contra.min(contra * rungs.len() as f64);
                    let n = planned(self.study, s, &m);
                    let h = half_width(*value, n);
                    underpowered |= *value + h > 1.0 || *value - h < 0.0;
                    insufficient |= m.conditional && m.estimate.n < MIN_CONDITIONAL;
                    texts.push(m.text.clone());
                    verdicts.push(threshold_verdict(m.interval(), *op, *value));
                }
                let raw = if verdicts.iter().all(|v| *v == Verdict::Supported) {
                    Verdict::Supported
                } else if verdicts.contains(&Verdict::Contradicted) {
                    Verdict::Contradicted
                } else {
                    Verdict::Inconclusive
                };
                let raw = gate(raw, underpowered, insufficient);
                Outcome {
                    text: texts.join("; "),
                    raw,
                    p_support,
                    p_contra: p_contra.min(1.0),
                    trend: self.trend(measure, ladder),
                }
            }
            ClaimTest::Near { measure, target, margin } => {
                let s = self.rung(ladder, measure)?;
                let m = self.measure(measure, s);
                let (e, se) = (m.interval().estimate, m.se());
                let n = planned(self.study, s, &m);
                let h = half_width(*target, n);
                let underpowered = h >= *margin || (target - margin - h <= 0.0 && target + margin + h >= 1.0);
                let raw = gate(
                    near_verdict(m.interval(), *target, *margin),
                    underpowered,
                    m.conditional && m.estimate.n < MIN_CONDITIONAL,
                );
                let p_support = within(e, se, target - margin, target + margin);
                let p_contra = (2.0
                    * normal_cdf((e - (target - margin)) / se).min(above((e - (target + margin)) / se)))
                .min(1.0);
                Outcome { text: m.text, raw, p_support, p_contra, trend: self.trend(measure, ladder) }
            }
            ClaimTest::Compare { a, b, direction, margin } => {
                let (sa, sb) = (self.rung(ladder, a)?, self.rung(ladder, b)?);
                let (ma, mb) = (self.measure(a, sa), self.measure(b, sb));
                let d = if ma.proportion {
                    difference(ma.interval(), mb.interval())
                } else {
                    mean_difference(ma.interval(), mb.interval())
                };
                let se = (ma.se().powi(2) + mb.se().powi(2)).sqrt();
                let scale = if ma.proportion { 100.0 } else { 1.0 };
                let text = format!(
                    "{}; {}; difference {:+.2} [{:+.2}, {:+.2}]",
                    ma.text,
                    mb.text,
                    scale * d.estimate,
                    scale * d.low,
                    scale * d.high
                );
                let z = d.estimate / se;
                let equivalent = if *margin > 0.0 { within(d.estimate, se, -margin, *margin) } else { 1.0 };
                let (p_support, p_contra) = match direction {
                    Direction::Greater => (above(z), normal_cdf(z).min(equivalent)),
                    Direction::Less => (normal_cdf(z), above(z).min(equivalent)),
                    Direction::Different => (2.0 * above(z.abs()), equivalent),
                    Direction::Equal => (equivalent, 2.0 * above((d.estimate.abs() - margin) / se)),
                };
                // Reachability at ½ (proportions) with the planned games of both.
                let (na, nb) = (planned(self.study, sa, &ma), planned(self.study, sb, &mb));
                let hd = if ma.proportion {
                    (half_width(0.5, na).powi(2) + half_width(0.5, nb).powi(2)).sqrt()
                } else {
                    0.0
                };
                // `different` is contradicted only by an equivalence, and `equal` supported only by one.
                let underpowered = match direction {
                    Direction::Equal => hd >= *margin,
                    Direction::Different => *margin <= 0.0 || hd >= *margin,
                    Direction::Greater | Direction::Less => false,
                };
                let insufficient = [&ma, &mb].iter().any(|m| m.conditional && m.estimate.n < MIN_CONDITIONAL);
                let raw = gate(compare_verdict(d, *direction, *margin), underpowered, insufficient);
                Outcome { text, raw, p_support: p_support.min(1.0), p_contra: p_contra.min(1.0), trend: None }
            }
            ClaimTest::CloserToHalf { a, b } => {
                let (sa, sb) = (self.rung(ladder, a)?, self.rung(ladder, b)?);
                let (ma, mb) = (self.measure(a, sa), self.measure(b, sb));
                let gap = (mb.interval().estimate - 0.5).abs() - (ma.interval().estimate - 0.5).abs();
                let z = gap / (ma.se().powi(2) + mb.se().powi(2)).sqrt();
                let insufficient = [&ma, &mb].iter().any(|m| m.conditional && m.estimate.n < MIN_CONDITIONAL);
                let raw = gate(closer_verdict(ma.interval(), mb.interval()), false, insufficient);
                Outcome {
                    text: format!("{}; {}", ma.text, mb.text),
                    raw,
                    p_support: above(z),
                    p_contra: normal_cdf(z),
                    trend: None,
                }
            }
            ClaimTest::Trend { measure, direction, margin, toward_half } => {
                let Some((b, text)) = self.slope(measure, ladder, *toward_half) else {
                    let text = "no slope: the ladder has fewer than two rated rungs (its rungs did not play each other)";
                    return Some(Outcome {
                        text: text.to_string(),
                        raw: Verdict::Inconclusive,
                        p_support: 1.0,
                        p_contra: 1.0,
                        trend: None,
                    });
                };
                let se = (b.high - b.estimate) / Z95;
                let z = b.estimate / se.max(1e-12);
                let flat = if *margin > 0.0 { within(b.estimate, se, -margin, *margin) } else { 1.0 };
                let (p_support, p_contra) = match direction {
                    TrendDirection::Falls => (normal_cdf(z), above(z).min(flat)),
                    TrendDirection::Rises => (above(z), normal_cdf(z).min(flat)),
                };
                let underpowered = *margin <= 0.0 || b.high - b.estimate >= *margin;
                let raw = gate(trend_verdict(b, *direction, *margin), underpowered, false);
                Outcome { text, raw, p_support, p_contra, trend: None }
            }
            ClaimTest::Solver { .. } => return None,
        })
    }

    /// The measure's slope (points per 100 Elo) against the ratings of the ladder's rungs, with its
    /// interval and a line of text.
    fn slope(&self, measure: &Measure, ladder: &Ladder, toward_half: bool) -> Option<(Interval, String)> {
        let ratings = self.ratings?;
        let points: Vec<(f64, f64, f64)> = ladder
            .rungs
            .iter()
            .map(|&s| {
                let m = self.measure(measure, s);
                let value =
                    if toward_half { (m.interval().estimate - 0.5).abs() } else { m.interval().estimate };
                (ratings[s].elo / 100.0, 100.0 * value, 100.0 * m.se())
            })
            .collect();
        let (b, low, high) = slope(&points)?;
        let what = if toward_half { "distance from 50%" } else { "value" };
        let text = format!(
            "{what} {} over the ladder's ratings: {b:+.2} points per 100 Elo [{low:+.2}, {high:+.2}] ({} rungs)",
            points.iter().map(|p| format!("{:.1}", p.1)).collect::<Vec<_>>().join(" → "),
            points.len()
        );
        Some((Interval { estimate: b, low, high }, text))
    }

    /// The trend line of a test's measure, where the ladder is rated.
    fn trend(&self, measure: &Measure, ladder: &Ladder) -> Option<String> {
        if ladder.rungs.len() < 2 || measure.skill.is_some() {
            return None;
        }
        self.slope(measure, ladder, false).map(|(_, text)| text)
    }

    /// The exact reading of a proof test, from the tablebase or the MCTS-solver.
    fn exact(&self, exact: &ExactTest) -> Reading {
        let (measurement, raw) = match self.solver.iter().find(|r| r.variant == exact.variant) {
            None => ("no exact value: the solver did not run".to_string(), Verdict::Inconclusive),
            Some(r) => {
                let text = r.describe();
                // A proven draw has no length limit to meet (a table's draw records none).
                let raw = match (&r.proven, r.plies) {
                    (Some(p), plies)
                        if p.is(&exact.winner)
                            && exact.max_plies.is_none_or(|m| plies.is_some_and(|n| n <= m)) =>
                    {
                        Verdict::Supported
                    }
                    (Some(_), _) => Verdict::Contradicted,
                    (None, _) => Verdict::Inconclusive,
                };
                (text, raw)
            }
        };
        Reading {
            kind: EvidenceKind::Exact,
            measurement,
            raw,
            p_value: None,
            adjusted: raw,
            trend: None,
            weak: None,
        }
    }
}

/// A data verdict needs the planned games to reach every verdict, and conditional statistics their
/// qualifying games. Where the planned games could not have reached every verdict, a verdict the data
/// did reach stands (a significant result is one, whatever the power against the other side), and an
/// undecided one reads "underpowered" rather than "inconclusive".
fn gate(verdict: Verdict, underpowered: bool, insufficient: bool) -> Verdict {
    if insufficient {
        Verdict::InsufficientData
    } else if underpowered && !verdict.decisive() {
        Verdict::Underpowered
    } else {
        verdict
    }
}

/// Judges every claim of the study, with Holm's correction across the claims read on each kind of
/// evidence.
pub fn judge_all(evidence: &Evidence) -> Vec<ClaimResult> {
    let mut results: Vec<ClaimResult> =
        evidence.study.study.claims.iter().map(|c| judge(evidence, c)).collect();
    for kind in [EvidenceKind::Rollout, EvidenceKind::Network, EvidenceKind::Exact] {
        let tested: Vec<(usize, usize, f64)> = results
            .iter()
            .enumerate()
            .flat_map(|(c, r)| r.readings.iter().enumerate().map(move |(i, reading)| (c, i, reading)))
            .filter(|(_, _, reading)| reading.kind == kind)
            .filter_map(|(c, i, reading)| reading.p_value.map(|p| (c, i, p)))
            .collect();
        let adjusted = holm(&tested.iter().map(|t| t.2).collect::<Vec<_>>());
        for ((c, i, _), p) in tested.into_iter().zip(adjusted) {
            let reading = &mut results[c].readings[i];
            reading.adjusted =
                if reading.raw.decisive() && p >= ALPHA { Verdict::Inconclusive } else { reading.raw };
        }
    }
    for result in &mut results {
        headline(result);
    }
    results
}

/// Judges one claim on every kind of evidence (the verdict is set by [`judge_all`]).
fn judge(evidence: &Evidence, claim: &Claim) -> ClaimResult {
    let study = evidence.study;
    let (test, rule, detectable) = describe(study, &claim.test);
    let mut readings = Vec::new();
    if let ClaimTest::Solver { variant, winner, max_plies } = &claim.test {
        readings.push(evidence.exact(&ExactTest {
            variant: variant.clone(),
            winner: winner.clone(),
            max_plies: *max_plies,
        }));
    }
    if let Some(exact) = &claim.exact {
        readings.push(evidence.exact(exact));
    }
    for ladder in study.ladders.iter().rev() {
        let Some(outcome) = evidence.outcome(&claim.test, ladder) else { continue };
        let top = *ladder.rungs.last().expect("a ladder has a rung");
        // The p value of the way the reading leans: its verdict's, or the smaller of the two.
        let p_value = 2.0
            * match outcome.raw {
                Verdict::Supported => outcome.p_support,
                Verdict::Contradicted => outcome.p_contra,
                _ => outcome.p_support.min(outcome.p_contra),
            };
        readings.push(Reading {
            kind: ladder.kind,
            measurement: outcome.text,
            raw: outcome.raw,
            p_value: Some(p_value.min(1.0)),
            adjusted: outcome.raw,
            trend: outcome.trend,
            weak: evidence.weakness(top, &claim.test),
        });
    }
    readings.sort_by_key(|r| std::cmp::Reverse(r.kind));
    ClaimResult {
        id: claim.id.clone(),
        who: claim.who.clone(),
        quote: claim.quote.clone(),
        definition: claim.definition.clone(),
        test,
        rule,
        detectable,
        readings,
        verdict: Verdict::Inconclusive,
        evidence: None,
        note: None,
    }
}

/// The claim's verdict from its strongest reading that is not weak, and a note where readings
/// disagree or only weak evidence answered.
fn headline(result: &mut ClaimResult) {
    // An exact reading without a proof (no table, the solver's budget spent) is no evidence at all.
    let strongest = result
        .readings
        .iter()
        .find(|r| r.weak.is_none() && (r.kind != EvidenceKind::Exact || r.raw.decisive()));
    match strongest {
        Some(best) => {
            result.verdict = best.adjusted;
            result.evidence = Some(best.kind);
            let disagreeing: Vec<String> = result
                .readings
                .iter()
                .filter(|r| r.kind != best.kind && r.adjusted.decisive() && r.adjusted != best.adjusted)
                .map(|r| format!("the {} says {}", r.kind.as_str(), r.adjusted.as_str()))
                .collect();
            if !disagreeing.is_empty() {
                let word = if best.adjusted.decisive() { "disagrees" } else { "decides otherwise" };
                result.note = Some(format!("other evidence {word}: {}", disagreeing.join("; ")));
            }
        }
        None => {
            result.verdict = Verdict::Inconclusive;
            result.evidence = None;
            if result.readings.iter().any(|r| r.weak.is_some()) {
                result.note =
                    Some("only evidence from agents shown wrong by stronger evidence answered".to_string());
            }
        }
    }
}

/// The test in words, its decision rule, and the smallest effect the planned games detect.
fn describe(study: &LoadedStudy, test: &ClaimTest) -> (String, String, String) {
    let games = |m: &Measure| {
        let top =
            study.ladders.iter().filter_map(|l| l.rung(m.skill.as_deref(), &study.labels)).max().unwrap_or(0);
        study.study.skills[top].games as f64
    };
    let pct = |x: f64| format!("{:.1} points", 100.0 * x);
    match test {
        ClaimTest::Threshold { measure, op, value, every_skill } => {
            let word = if *op == Op::AtLeast { "≥" } else { "≤" };
            let scope = if *every_skill { " at every rung" } else { "" };
            let mut words = measure_words(measure);
            if *every_skill {
                words = words.trim_end_matches(" at top").to_string();
            }
            let rule = format!("supported if the whole 95% interval is {word} {value}{scope}; contradicted if it lies wholly on the other side{}", if *every_skill { " at any rung" } else { "" });
            (format!("{words} {word} {value}{scope}"), rule, pct(detectable_effect(*value, games(measure))))
        }
        ClaimTest::Near { measure, target, margin } => (
            format!("{} within {target} ± {margin}", measure_words(measure)),
            format!("supported if the whole 95% interval lies within {target} ± {margin}; contradicted if it lies wholly outside"),
            pct(detectable_effect(*target, games(measure))),
        ),
        ClaimTest::Compare { a, b, direction, margin } => {
            let margin_words = if *margin > 0.0 { format!(" (margin ± {margin})") } else { String::new() };
            let rule = match direction {
                Direction::Equal => format!("supported if the difference's 95% interval lies within ± {margin}; contradicted if it lies wholly outside"),
                _ => format!("supported if the difference's 95% interval lies wholly {} 0; contradicted if it lies wholly on the other side{}", if *direction == Direction::Less { "below" } else { "above" }, if *margin > 0.0 { format!(" or within ± {margin}") } else { String::new() }),
            };
            let n = games(a).min(games(b));
            (
                format!("{} {} {}{margin_words}", measure_words(a), direction_word(*direction), measure_words(b)),
                rule,
                format!("{} (difference of two scores at 50%)", pct(detectable_effect(0.5, n) * 2f64.sqrt())),
            )
        }
        ClaimTest::CloserToHalf { a, b } => (
            format!("{} closer to 50% than {}", measure_words(a), measure_words(b)),
            "supported if every value of the first interval is closer to 50% than every value of the second; contradicted the other way round".to_string(),
            pct(detectable_effect(0.5, games(a).min(games(b))) * 2f64.sqrt()),
        ),
        ClaimTest::Trend { measure, direction, margin, toward_half } => {
            let what = if *toward_half { format!("distance from 50% of the {}", measure_words(measure)) } else { measure_words(measure) };
            let way = if *direction == TrendDirection::Falls { "falls" } else { "rises" };
            (
                format!("{what} {way} with measured skill"),
                format!("supported if the slope's 95% interval against the rungs' ratings lies wholly on the side where it {way}; contradicted if it lies wholly on the other side or within ± {margin} points per 100 Elo"),
                format!("a slope of about 2.8 standard errors of the measured one (see the reading); the test asks to tell ± {margin} points per 100 Elo from 0"),
            )
        }
        ClaimTest::Solver { variant, winner, max_plies } => {
            let limit = max_plies.map_or(String::new(), |p| format!(" within {p} plies"));
            (
                format!("the start of `{variant}` is a forced {winner} win{limit}"),
                "a proof: the tablebase where one covers the rules, else the MCTS-solver".to_string(),
                "(a proof)".to_string(),
            )
        }
    }
}

fn filter_words(f: Option<&super::study::Filter>) -> String {
    f.map_or(String::new(), |f| toml::to_string(f).unwrap_or_default().trim().replace('\n', ", "))
}

fn measure_words(m: &Measure) -> String {
    let skill = m.skill.as_deref().unwrap_or("top");
    let given =
        m.given.as_ref().map_or(String::new(), |g| format!(" among games with {}", filter_words(Some(g))));
    if let Some(side) = &m.side {
        format!("score of {side}{given} in {} at {skill}", m.variant)
    } else if let Some(name) = &m.metric {
        format!("mean {name}{given} in {} at {skill}", m.variant)
    } else {
        format!("share of games with {}{given} in {} at {skill}", filter_words(m.event.as_ref()), m.variant)
    }
}

#[cfg(test)]
mod tests;
