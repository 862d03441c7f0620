//! The claims table: each claim's test read off the cells (or the solver), with a verdict —
//! supported, contradicted or inconclusive — and the numbers behind it. A verdict from data needs
//! every variant the test reads to have at least `min_games` games at the top skill level; a solver
//! test needs a proof.

use serde::{Deserialize, Serialize};

use super::aggregate::{matches, metric, rate};
use super::analysis::GameStats;
use super::stats::{Interval, difference, mean, mean_difference};
use super::store::SolverResult;
use super::study::{Claim, ClaimTest, Direction, LoadedStudy, Measure, Op};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Supported,
    Contradicted,
    Inconclusive,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Supported => "supported",
            Verdict::Contradicted => "contradicted",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimResult {
    pub id: String,
    pub who: String,
    pub quote: String,
    pub definition: String,
    /// The test in words.
    pub test: String,
    /// The numbers it read.
    pub measurement: String,
    pub verdict: Verdict,
}

/// What the claims read: the games of each cell, by variant and skill index.
pub struct Evidence<'a> {
    pub study: &'a LoadedStudy,
    /// `stats[variant][skill]`.
    pub stats: Vec<Vec<&'a [GameStats]>>,
    pub solver: &'a [SolverResult],
}

/// A measured number.
struct Measured {
    interval: Interval,
    proportion: bool,
    text: String,
}

impl Evidence<'_> {
    fn measure(&self, m: &Measure, skill: Option<usize>) -> Measured {
        let study = self.study;
        let v = study.variant_index(&m.variant).expect("checked");
        let s = skill.unwrap_or_else(|| study.skill_index(m.skill.as_deref()).expect("checked"));
        let sides = study.side_names(v);
        let games = self.stats[v][s];
        let at = format!("{}@{}", m.variant, study.labels[s]);
        if let Some(side) = &m.side {
            let i = study.side_index(v, side).expect("checked");
            let wins = games.iter().filter(|g| g.winner == Some(i)).count() as u32;
            let draws = games.iter().filter(|g| g.winner.is_none()).count() as u32;
            let interval = super::stats::score(wins, draws, games.len() as u32);
            let text = format!("{side} score {at} {} (n={})", show(interval), games.len());
            Measured { interval, proportion: true, text }
        } else if let Some(name) = &m.metric {
            let values: Vec<f64> = games.iter().filter_map(|g| metric(g, name, sides)).collect();
            let (interval, _) = mean(&values);
            let text = format!("mean {name} {at} {} (n={})", show_mean(interval), values.len());
            Measured { interval, proportion: false, text }
        } else {
            let event = m.event.as_ref().expect("checked: one of side, metric, event");
            let (interval, n) = rate(games, event, m.given.as_ref(), sides);
            let hits = games
                .iter()
                .filter(|g| m.given.as_ref().is_none_or(|f| matches(g, f, sides)) && matches(g, event, sides))
                .count();
            let text = format!("rate {at} {hits}/{n} = {}", show(interval));
            Measured { interval, proportion: true, text }
        }
    }

    /// Variants whose top-skill cell has fewer than `min_games` games.
    fn too_few(&self, measures: &[&Measure]) -> Option<String> {
        let top = self.study.labels.len() - 1;
        let short: Vec<String> = measures
            .iter()
            .map(|m| self.study.variant_index(&m.variant).expect("checked"))
            .filter(|&v| (self.stats[v][top].len() as u32) < self.study.study.min_games)
            .map(|v| {
                format!(
                    "{}@{} has {} games",
                    self.study.study.variants[v].name,
                    self.study.top_label(),
                    self.stats[v][top].len()
                )
            })
            .collect();
        (!short.is_empty())
            .then(|| format!("{} (< min_games {})", short.join(", "), self.study.study.min_games))
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

fn decide(holds: bool, fails: bool) -> Verdict {
    if holds {
        Verdict::Supported
    } else if fails {
        Verdict::Contradicted
    } else {
        Verdict::Inconclusive
    }
}

fn direction_word(d: Direction) -> &'static str {
    match d {
        Direction::Greater => "greater than",
        Direction::Less => "less than",
        Direction::Different => "different from",
        Direction::Equal => "equal to",
    }
}

/// Judges one claim.
pub fn judge(evidence: &Evidence, claim: &Claim) -> ClaimResult {
    let (test, measurement, verdict) = match &claim.test {
        ClaimTest::Threshold { measure, op, value, every_skill } => {
            let word = if *op == Op::AtLeast { "≥" } else { "≤" };
            let skills: Vec<Option<usize>> =
                if *every_skill { (0..evidence.study.labels.len()).map(Some).collect() } else { vec![None] };
            let mut texts = Vec::new();
            let mut verdicts = Vec::new();
            for s in skills {
                let m = evidence.measure(measure, s);
                texts.push(m.text);
                verdicts.push(threshold_verdict(m.interval, *op, *value));
            }
            let verdict = if verdicts.iter().all(|v| *v == Verdict::Supported) {
                Verdict::Supported
            } else if verdicts.contains(&Verdict::Contradicted) {
                Verdict::Contradicted
            } else {
                Verdict::Inconclusive
            };
            let scope = if *every_skill { " at every skill" } else { "" };
            let mut words = measure_words(measure);
            if *every_skill {
                words = words.trim_end_matches(" at top").to_string();
            }
            let test = format!("{words} {word} {value}{scope} (whole 95% interval)");
            (test, texts.join("; "), gate(evidence, &[measure], verdict))
        }
        ClaimTest::Near { measure, target, margin } => {
            let m = evidence.measure(measure, None);
            let test = format!("{} within {target} ± {margin} (whole 95% interval)", measure_words(measure));
            (test, m.text, gate(evidence, &[measure], near_verdict(m.interval, *target, *margin)))
        }
        ClaimTest::Compare { a, b, direction, margin } => {
            let (ma, mb) = (evidence.measure(a, None), evidence.measure(b, None));
            let d = if ma.proportion {
                difference(ma.interval, mb.interval)
            } else {
                mean_difference(ma.interval, mb.interval)
            };
            let scale = if ma.proportion { 100.0 } else { 1.0 };
            let text = format!(
                "{}; {}; difference {:+.2} [{:+.2}, {:+.2}]",
                ma.text,
                mb.text,
                scale * d.estimate,
                scale * d.low,
                scale * d.high
            );
            let margin_words = if *margin > 0.0 { format!(" (margin ± {margin})") } else { String::new() };
            let test = format!(
                "{} {} {}{margin_words}",
                measure_words(a),
                direction_word(*direction),
                measure_words(b)
            );
            (test, text, gate(evidence, &[a, b], compare_verdict(d, *direction, *margin)))
        }
        ClaimTest::CloserToHalf { a, b } => {
            let (ma, mb) = (evidence.measure(a, None), evidence.measure(b, None));
            let test =
                format!("{} closer to 50% than {} (whole intervals)", measure_words(a), measure_words(b));
            (
                test,
                format!("{}; {}", ma.text, mb.text),
                gate(evidence, &[a, b], closer_verdict(ma.interval, mb.interval)),
            )
        }
        ClaimTest::Solver { variant, winner, max_plies } => {
            let limit = max_plies.map_or(String::new(), |p| format!(" within {p} plies"));
            let test = format!("the solver proves `{variant}` a {winner} win from the start{limit}");
            match evidence.solver.iter().find(|r| r.variant == *variant) {
                None => (test, "no solver run".to_string(), Verdict::Inconclusive),
                Some(r) => {
                    let measurement = match (&r.proven, r.plies) {
                        (Some(w), Some(p)) => {
                            format!("proven: {w} in at most {p} plies ({} simulations)", r.simulations)
                        }
                        _ => format!("not proven within {} simulations", r.budget),
                    };
                    let verdict = match (&r.proven, r.plies) {
                        (Some(w), Some(p)) if w == winner && max_plies.is_none_or(|m| p <= m) => {
                            Verdict::Supported
                        }
                        (Some(_), Some(_)) => Verdict::Contradicted,
                        _ => Verdict::Inconclusive,
                    };
                    (test, measurement, verdict)
                }
            }
        }
    };
    ClaimResult {
        id: claim.id.clone(),
        who: claim.who.clone(),
        quote: claim.quote.clone(),
        definition: claim.definition.clone(),
        test,
        measurement,
        verdict,
    }
}

/// A data verdict stands only with enough games at the top skill level.
fn gate(evidence: &Evidence, measures: &[&Measure], verdict: Verdict) -> Verdict {
    match evidence.too_few(measures) {
        Some(_) => Verdict::Inconclusive,
        None => verdict,
    }
}

/// Why a data claim is inconclusive for lack of games, for the report.
pub fn shortfall(evidence: &Evidence, claim: &Claim) -> Option<String> {
    match &claim.test {
        ClaimTest::Threshold { measure, .. } | ClaimTest::Near { measure, .. } => {
            evidence.too_few(&[measure])
        }
        ClaimTest::Compare { a, b, .. } | ClaimTest::CloserToHalf { a, b } => evidence.too_few(&[a, b]),
        ClaimTest::Solver { .. } => None,
    }
}

fn measure_words(m: &Measure) -> String {
    let skill = m.skill.as_deref().unwrap_or("top");
    if let Some(side) = &m.side {
        format!("score of {side} in {} at {skill}", m.variant)
    } else if let Some(name) = &m.metric {
        format!("mean {name} in {} at {skill}", m.variant)
    } else {
        let f = |f: &super::study::Filter| toml::to_string(f).unwrap_or_default().trim().replace('\n', ", ");
        let given = m.given.as_ref().map_or(String::new(), |g| format!(" among games with {}", f(g)));
        format!(
            "share of games with {}{given} in {} at {skill}",
            f(m.event.as_ref().expect("checked")),
            m.variant
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::stats::{Z95, score, wilson};

    fn i(estimate: f64, low: f64, high: f64) -> Interval {
        Interval { estimate, low, high }
    }

    #[test]
    fn thresholds_need_the_whole_interval() {
        // 300 Rebel wins of 400: 75%, Wilson [70.5, 79.0].
        let rebels = score(300, 0, 400);
        assert!((rebels.low - 0.7053).abs() < 1e-3 && (rebels.high - 0.7900).abs() < 1e-3);
        assert_eq!(threshold_verdict(rebels, Op::AtLeast, 0.7), Verdict::Supported);
        assert_eq!(threshold_verdict(rebels, Op::AtLeast, 0.75), Verdict::Inconclusive);
        assert_eq!(threshold_verdict(rebels, Op::AtLeast, 0.8), Verdict::Contradicted);
        assert_eq!(threshold_verdict(rebels, Op::AtMost, 0.8), Verdict::Supported);
        assert_eq!(threshold_verdict(rebels, Op::AtMost, 0.7), Verdict::Contradicted);
    }

    #[test]
    fn comparisons_read_the_difference_interval() {
        // 240/400 vs 200/400: 60% − 50% = +10 points, Newcombe [+3.1, +16.8]: significant.
        let d = difference(score(240, 0, 400), score(200, 0, 400));
        assert!((d.low - 0.0311).abs() < 1e-3 && (d.high - 0.1676).abs() < 1e-3, "{d:?}");
        assert_eq!(compare_verdict(d, Direction::Greater, 0.0), Verdict::Supported);
        assert_eq!(compare_verdict(d, Direction::Less, 0.0), Verdict::Contradicted);
        assert_eq!(compare_verdict(d, Direction::Different, 0.0), Verdict::Supported);
        assert_eq!(compare_verdict(d, Direction::Equal, 0.05), Verdict::Inconclusive);
        assert_eq!(compare_verdict(d, Direction::Equal, 0.2), Verdict::Supported);
        assert_eq!(compare_verdict(i(0.0, -0.01, 0.02), Direction::Greater, 0.05), Verdict::Contradicted);
        assert_eq!(compare_verdict(i(0.3, 0.1, 0.4), Direction::Equal, 0.05), Verdict::Contradicted);
    }

    #[test]
    fn near_and_closer_to_half() {
        assert_eq!(near_verdict(i(0.5, 0.46, 0.54), 0.5, 0.05), Verdict::Supported);
        assert_eq!(near_verdict(i(0.5, 0.44, 0.56), 0.5, 0.05), Verdict::Inconclusive);
        assert_eq!(near_verdict(i(0.7, 0.6, 0.8), 0.5, 0.05), Verdict::Contradicted);
        // a at 55% [50, 60] is within 10 points of ½; b at 80% [75, 85] is at least 25 away.
        assert_eq!(closer_verdict(i(0.55, 0.5, 0.6), i(0.8, 0.75, 0.85)), Verdict::Supported);
        assert_eq!(closer_verdict(i(0.8, 0.75, 0.85), i(0.55, 0.5, 0.6)), Verdict::Contradicted);
        assert_eq!(closer_verdict(i(0.6, 0.5, 0.7), i(0.3, 0.2, 0.4)), Verdict::Inconclusive);
        assert_eq!(closer_verdict(wilson(0.0, 0.0, Z95), i(0.9, 0.8, 1.0)), Verdict::Inconclusive);
    }
}
