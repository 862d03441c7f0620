//! The claims table. Each claim's test is read off every kind of evidence the study has — exact values
//! (proofs, and best play from the tables wherever a measure has one), the network ladder, the rollout
//! ladder — and the claim's verdict comes from the strongest of them that stronger evidence does not
//! show wrong (exact > network > rollout), with the weaker kept beside it and a line where they
//! disagree.
//!
//! How a reading becomes a verdict is decided in one place for every test ([`super::decide`]): each
//! test kind ([`rules`]) states the condition each verdict puts on the 95% intervals; the p value is
//! the test the rule inverts (doubled once); the games a verdict would need at the measured effect
//! follow from the same rule. The gates are applied once, after: *insufficient data* where a
//! conditional statistic rests on fewer than [`MIN_CONDITIONAL`] games, *underpowered* where the
//! planned games could not have reached every verdict the test names; then Holm's correction across
//! the study's claims on each kind of evidence; then *not yet stable* where a decisive verdict of the
//! top rung is not the verdict of the rung below it. A claim with a sequential design is read at its
//! looks ([`super::sequential`]) and stops at its first decisive one.

mod evidence;
mod exact;
mod read;
mod rules;
mod trend;

pub use evidence::{Evidence, PairGames};
pub use read::{Unit, filter_words, measure_words, show, show_mean};
pub use rules::MIN_CONDITIONAL;
pub use trend::pair_units;

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::decide::{Side, Strength, games_to_decide, power_quantile};
use super::ratings::Rating;
use super::schedule::cell_id;
use super::sequential::{Design, ONE_SIDED, follow};
use super::stats::{ALPHA, holm, holm_factor_for_new, normal_quantile};
use super::study::{Amendment, Claim, ClaimTest, EvidenceKind, Ladder, Measure, Replication};
use crate::seed::fnv1a;
use read::Measured;
use rules::{Plan, Test};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Supported,
    Contradicted,
    Inconclusive,
    Underpowered,
    InsufficientData,
    /// The top rung's decisive verdict is not the rung below's.
    NotYetStable,
    /// The verdict moves with skill: over three or more rungs, each separated in rating from the next,
    /// the claim's statistic moves one way as the rating rises, and the top rung's decisive verdict is
    /// not the one below's. A finding in its own right, shown with its curve ([`CurvePoint`]).
    DependsOnSkill,
    /// The rules or the values fix the reading's outcome whatever the data (both sides certain, a
    /// difference that is 0 by construction): it can not come out the other way, so it decides
    /// nothing and the next evidence decides.
    NotInformative,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Supported => "supported",
            Verdict::Contradicted => "contradicted",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Underpowered => "underpowered",
            Verdict::InsufficientData => "insufficient data",
            Verdict::NotYetStable => "not yet stable",
            Verdict::DependsOnSkill => "depends on skill",
            Verdict::NotInformative => "not informative",
        }
    }

    pub fn decisive(self) -> bool {
        matches!(self, Verdict::Supported | Verdict::Contradicted)
    }

    fn of(side: Side) -> Verdict {
        match side {
            Side::Support => Verdict::Supported,
            Side::Contradict => Verdict::Contradicted,
        }
    }
}

/// One kind of evidence's answer to a claim.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    pub kind: EvidenceKind,
    /// The rungs read (labels), or what the exact value is.
    #[serde(default)]
    pub rungs: String,
    /// The numbers it read.
    pub measurement: String,
    pub raw: Verdict,
    /// The p value (twice the one-sided level of the rule's test; stagewise for a sequential design);
    /// none for a proof.
    pub p_value: Option<f64>,
    /// The verdict after Holm's correction across the claims read on this kind of evidence.
    pub adjusted: Verdict,
    /// The p value Holm's correction gives this reading (none for a proof).
    #[serde(default)]
    pub p_holm: Option<f64>,
    /// How the measure moves over the measured ratings.
    pub trend: Option<String>,
    /// Why this evidence is weak, where stronger evidence shows its agents wrong.
    pub weak: Option<String>,
    /// Games per cell read; the games per cell a fixed design would need to reach the verdict the data
    /// lean to with power 0.8 at the measured effect; the smallest effect the games read detect.
    #[serde(default)]
    pub games: Option<f64>,
    #[serde(default)]
    pub to_decide: Option<f64>,
    /// Where a replication's games repeat the games it replicates (its cells played past their
    /// book), so that more of them add nothing: the independent games per cell, from openings none of
    /// them played, that would decide it, as `to_decide` would.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fresh_to_decide: Option<f64>,
    #[serde(default)]
    pub detectable: Option<String>,
    /// Where a sequential reading stopped.
    #[serde(default)]
    pub look: Option<String>,
    /// The same test on the rung below the top (the next one down that is separated from it in
    /// rating, where the rungs are rated).
    #[serde(default)]
    pub below: Option<Below>,
    /// The test at each rung of a chain down the ladder from the top, each rung separated in rating
    /// from the one above it (weakest first; empty where the rungs are not rated).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub curve: Vec<CurvePoint>,
    /// The largest share of games stopped at the ply cap in the cells it read (they are left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unfinished: Option<f64>,
    /// The measured rating of the rung read (the top one), where the rungs are rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<Rating>,
    /// The p value Holm's correction gives this reading across every reading of the findings table
    /// on the same kind of evidence (set where the studies are read together: `balance --reread`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_table: Option<f64>,
    /// Cells a sequential reading needs grown for its next look (cell id, games). Kept in results.json:
    /// what an open claim would take is read from it there (`settle`), as in the report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next: Vec<(String, u32)>,
    /// The cells whose games it read (a ladder's own cells; none for a proof), which price more of
    /// them ([`crate::lab::settle`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<String>,
    /// The top rung and the one below it, where the cross-play does not tell them apart in rating.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unseparated: Option<Gap>,
    /// The factor Holm's correction would give one more reading of this one's family, at the level it
    /// must pass ([`crate::lab::stats::holm_factor_for_new`]): the table's family where the studies are
    /// read together, else the study's. A replication is sized for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holm_new: Option<f64>,
    /// The fresh games per cell a replication filed for this reading's claim reads at its first look
    /// and at its last, while the first are still to play (the reading is then the one it replaces:
    /// the design's, or the replication before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replication: Option<[u32; 2]>,
}

impl Reading {
    /// A reading of `kind` that says `raw` of `measurement`, with no p value, power, rating, look or
    /// comparison yet: each kind of reading fills in what it has.
    pub fn new(kind: EvidenceKind, rungs: String, measurement: String, raw: Verdict) -> Reading {
        Reading {
            kind,
            rungs,
            measurement,
            raw,
            p_value: None,
            adjusted: raw,
            p_holm: None,
            trend: None,
            weak: None,
            games: None,
            to_decide: None,
            fresh_to_decide: None,
            detectable: None,
            look: None,
            below: None,
            curve: Vec::new(),
            rating: None,
            unfinished: None,
            p_table: None,
            next: Vec::new(),
            cells: Vec::new(),
            unseparated: None,
            holm_new: None,
            replication: None,
        }
    }
}

/// Two rungs whose ratings the cross-play does not tell apart: the lower and the upper, their
/// difference (upper − lower) with its 95% interval, in Elo.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gap {
    pub lower: String,
    pub upper: String,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// One rung of a skill curve: its rating, the claim's measures there (each with its 95% interval) at
/// its planned games, the statistic the rule reads, and the verdict the rule gives there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub rung: String,
    pub rating: Rating,
    /// `(estimate, low, high)` of each measure the test reads, in the test's order.
    pub measures: Vec<(f64, f64, f64)>,
    /// Whether the measures are shares (scores and rates, shown as percentages) rather than means
    /// (plies, pieces, pawns).
    #[serde(default)]
    pub shares: bool,
    /// The statistic the rule reads: the measure, or the first less the second (a comparison), or how
    /// much closer to half the first is (`closer_to_half`).
    pub statistic: f64,
    pub raw: Verdict,
}

/// A reading of the rung below the top: a decisive verdict must hold there too to be stable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Below {
    pub rung: String,
    pub measurement: String,
    pub raw: Verdict,
    /// Why this rung is the one compared: the rung below, or the next one down that the ratings
    /// separate from the top.
    #[serde(default)]
    pub why: String,
    /// Where its sequential reading stopped (a claim with a design reads the compared rung at the
    /// same looks as the top, so that the two verdicts rest on alike games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<String>,
    /// Its cells to grow for its next look, once the top has decided (kept in results.json, as above).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next: Vec<(String, u32)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClaimResult {
    pub id: String,
    pub who: String,
    pub quote: String,
    pub definition: String,
    /// The test in words, and the decision rule the code applies.
    pub test: String,
    pub rule: String,
    /// Set where the reading is the lab's own, not the source's: why.
    #[serde(default)]
    pub lab_reading: Option<String>,
    /// Looks of a sequential design (multiples of the planned games) and their boundary quantiles.
    #[serde(default)]
    pub sequential: Option<String>,
    /// Every reading, strongest evidence first.
    pub readings: Vec<Reading>,
    /// The claim's verdict: the strongest reading's (after Holm), or inconclusive when only weak
    /// evidence answered.
    pub verdict: Verdict,
    pub evidence: Option<EvidenceKind>,
    /// Where the evidence disagrees, or why the verdict stands as it does.
    pub note: Option<String>,
    /// A fingerprint of the claim's reading, rule and evidence ([`super::amendments`]).
    #[serde(default)]
    pub print: String,
    /// Changes after the study had games, with the verdict before each.
    #[serde(default)]
    pub amendments: Vec<Amendment>,
}

impl ClaimResult {
    /// Cells the verdict-giving reading needs grown (sequential designs only): the top rung's until it
    /// decides, then the compared rung's until that one decides too or reaches the last look.
    pub fn growth(&self) -> Vec<(String, u32)> {
        let from = self.evidence;
        self.readings
            .iter()
            .filter(|r| Some(r.kind) == from && r.weak.is_none())
            .flat_map(|r| {
                let below = r.below.as_ref().filter(|_| r.raw.decisive()).map(|b| b.next.clone());
                r.next.iter().cloned().chain(below.into_iter().flatten())
            })
            .collect()
    }
}

/// The measures of a level test (every kind but trends and proofs).
pub fn level_measures(test: &ClaimTest) -> Vec<&Measure> {
    match test {
        ClaimTest::Threshold { measure, .. } | ClaimTest::Near { measure, .. } => vec![measure],
        ClaimTest::Compare { a, b, .. } | ClaimTest::CloserToHalf { a, b } => vec![a, b],
        ClaimTest::Trend { .. } | ClaimTest::Solver { .. } | ClaimTest::WinsGained { .. } => Vec::new(),
    }
}

/// A level test on measured numbers (one per measure; a threshold at every rung takes several).
fn level_test<'m>(test: &ClaimTest, ms: &'m [Measured], plan: &Plan) -> Test<'m> {
    match test {
        ClaimTest::Threshold { op, value, .. } => rules::threshold(ms, *op, *value, plan),
        ClaimTest::Near { target, margin, .. } => rules::near(&ms[0], *target, *margin, plan),
        ClaimTest::Compare { direction, margin, .. } => {
            rules::compare(&ms[0], &ms[1], *direction, *margin, plan)
        }
        ClaimTest::CloserToHalf { .. } => rules::closer(&ms[0], &ms[1]),
        ClaimTest::WinsGained { op, value, .. } => rules::threshold(ms, *op, *value, plan),
        ClaimTest::Trend { .. } | ClaimTest::Solver { .. } => unreachable!("not a level test"),
    }
}

/// The outcome of a test at one look: its verdict before the gates, strength and p value.
struct Decided {
    raw: Verdict,
    p_value: f64,
    strength: Strength,
}

/// Reads a test at boundary quantile `c` with no sequential design.
fn decide_fixed(test: &Test) -> Decided {
    let strength = Strength::of(&|side: Side, z: f64| (test.rule)(side, z));
    let (side, z) = strength.leaning();
    let tests = if side == Side::Contradict { test.contradict_tests } else { 1.0 };
    let p_value = (tests * super::decide::p_value(z)).min(1.0);
    let raw = if p_value <= ALPHA { Verdict::of(side) } else { Verdict::Inconclusive };
    Decided { raw, p_value, strength }
}

/// The gates, once for every test: insufficient data, then underpowered for an undecided reading that
/// the planned games could not have decided every way.
fn gate(raw: Verdict, test: &Test) -> Verdict {
    if test.insufficient {
        Verdict::InsufficientData
    } else if !test.reachable && !raw.decisive() {
        Verdict::Underpowered
    } else {
        raw
    }
}

/// The power statements of a statistic with standard error `se` read on `games` games per cell with
/// leaning strength `z`, `independent` the share of them that are independent, `repeats` whether
/// some are a replication's repeats of the games it replicates.
struct Power {
    /// The games per cell a fixed design would need for that verdict (power 0.8, each of `tests`
    /// one-sided tests at 2.5% / `tests`), where more of the same games add information.
    to_decide: Option<f64>,
    /// For a replication that played past its book: the independent games per cell that would.
    fresh_to_decide: Option<f64>,
    /// The smallest effect these games detect.
    detectable: Option<String>,
}

fn power(games: f64, independent: f64, repeats: bool, se: f64, unit: &Unit, z: f64, tests: f64) -> Power {
    let needed_z =
        normal_quantile(1.0 - 0.025 / tests.max(1.0)) + (power_quantile() - normal_quantile(0.975));
    let scale = |g: f64| (g * (needed_z / power_quantile()).powi(2)).ceil();
    let (to_decide, fresh_to_decide) = if repeats {
        // A replication's games past its book repeat the games it replicates: more of them add
        // nothing, and games from new openings, each independent, are what the information asks.
        (None, games_to_decide(games * independent, z).map(scale))
    } else {
        // Where most games repeat one another (no opening, deterministic agents) more of them add
        // nothing.
        (games_to_decide(games, z).filter(|_| independent >= 0.5).map(scale), None)
    };
    let detectable = (se.is_finite() && se > 0.0).then(|| unit.show(needed_z * se));
    Power { to_decide, fresh_to_decide, detectable }
}

/// Judges every claim of the study, with Holm's correction across the claims read on each kind of
/// evidence.
pub fn judge_all(evidence: &Evidence) -> Vec<ClaimResult> {
    let mut results: Vec<ClaimResult> =
        evidence.study.study.claims.iter().map(|c| judge(evidence, c)).collect();
    for kind in [EvidenceKind::Rollout, EvidenceKind::Network, EvidenceKind::Search, EvidenceKind::Exact] {
        let tested: Vec<(usize, usize, f64)> = results
            .iter()
            .enumerate()
            .flat_map(|(c, r)| r.readings.iter().enumerate().map(move |(i, reading)| (c, i, reading)))
            .filter(|(_, _, reading)| reading.kind == kind)
            .filter_map(|(c, i, reading)| reading.p_value.map(|p| (c, i, p)))
            .collect();
        let ps: Vec<f64> = tested.iter().map(|t| t.2).collect();
        let (adjusted, factor) = (holm(&ps), holm_factor_for_new(&ps));
        for ((c, i, _), p) in tested.into_iter().zip(adjusted) {
            let reading = &mut results[c].readings[i];
            reading.p_holm = Some(p);
            reading.holm_new = Some(factor);
            reading.adjusted =
                if reading.raw.decisive() && p > ALPHA { Verdict::Inconclusive } else { reading.raw };
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
    let design = claim.sequential.as_deref().map(|looks| Design::cached(looks, ONE_SIDED));
    let mut readings = evidence.exact_readings(claim);
    match &claim.test {
        ClaimTest::Trend { .. } => readings.extend(trend_reading(evidence, claim, design.as_deref())),
        ClaimTest::Solver { .. } | ClaimTest::WinsGained { .. } => {}
        test => {
            for ladder in study.ladders.iter().rev() {
                let reading = ladder_reading(evidence, ladder, design.as_deref(), test, 0.0);
                let replications = claim.replication.iter().filter(|r| r.ladder == ladder.kind);
                readings.extend(replicated_readings(evidence, ladder, replications, test, reading));
            }
        }
    }
    readings.sort_by_key(|r| std::cmp::Reverse(r.kind));
    let (test, rule) = describe(&claim.test);
    ClaimResult {
        id: claim.id.clone(),
        who: claim.who.clone(),
        quote: claim.quote.clone(),
        definition: claim.definition.clone(),
        test,
        rule,
        lab_reading: claim.lab_reading.clone(),
        sequential: design.as_deref().map(describe_design),
        readings,
        verdict: Verdict::Inconclusive,
        evidence: None,
        note: None,
        print: claim.print(),
        amendments: Vec::new(),
    }
}

/// `looks at 1×, 2×, 4× the planned games; boundaries z = 4.3, 2.9, 2.0`.
fn describe_design(design: &Design) -> String {
    let looks: Vec<String> = design.looks.iter().map(|l| format!("{l}×")).collect();
    let bounds: Vec<String> = design.boundaries.iter().map(|c| format!("{c:.2}")).collect();
    format!(
        "group-sequential, looks at {} the planned games, O'Brien–Fleming-type alpha spending (Lan–DeMets), boundaries z = {}",
        looks.join(", "),
        bounds.join(", ")
    )
}

/// A claim's readings on `ladder` under its replications, newest first: each replication whose first
/// look is played reads its fresh games, which decide, beside the readings it replaces; the first one
/// not yet played is filed on the reading that decides until then (the `replaced` design's, or the
/// replication before), which grows its cells for that look once it has read its own last look
/// undecided. All stay in Holm's family: each replication is one more test of the claim, and the
/// family's correction counts it.
fn replicated_readings<'r>(
    evidence: &Evidence,
    ladder: &Ladder,
    replications: impl Iterator<Item = &'r Replication>,
    test: &ClaimTest,
    replaced: Option<Reading>,
) -> Vec<Reading> {
    let mut readings: Vec<Reading> = replaced.into_iter().collect();
    let mut filed = false;
    for replication in replications {
        let design = Design::cached(&replication.looks, replication.alpha);
        let test = replication.test(test);
        match ladder_reading(evidence, ladder, Some(&design), test, replication.after) {
            Some(mut reading) => {
                reading.rungs =
                    format!("{}, replication{} on fresh games", reading.rungs, replication.variants_words());
                reading.look = reading
                    .look
                    .map(|look| format!("replication at one-sided {}, {look}", replication.alpha));
                readings.insert(0, reading);
            }
            None if !filed => {
                filed = true;
                // A reading still growing to its next look, or decided, is not replicated yet.
                let deciding = readings.first_mut().filter(|r| r.next.is_empty() && !r.raw.decisive());
                if let Some(deciding) = deciding {
                    file_replication(evidence, ladder, replication, test, deciding);
                }
            }
            None => {}
        }
    }
    readings
}

/// A replication not yet played, filed on the reading that decides until its first look: the cells it
/// plays grow to that look, and the reading says so.
fn file_replication(
    evidence: &Evidence,
    ladder: &Ladder,
    replication: &Replication,
    test: &ClaimTest,
    reading: &mut Reading,
) {
    let measures = level_measures(test);
    let Some(rungs) = measures.iter().map(|m| evidence.rung(ladder, m)).collect::<Option<Vec<usize>>>()
    else {
        return;
    };
    let Some(&top) = rungs.iter().max_by_key(|&&r| ladder.rungs.iter().position(|&x| x == r)) else { return };
    let games_at = |rung: usize, look: f64| games_of(evidence.planned(rung), replication.after, look);
    let first = games_at(top, replication.looks[0]);
    reading.next = measures
        .iter()
        .zip(rungs)
        .map(|(m, r)| {
            (cell_id(&m.variant, &evidence.study.labels[r]), games_at(r, replication.looks[0]).end as u32)
        })
        .collect();
    let filed = format!(
        "a replication{} is filed: its first look reads games {}–{} of each cell, {} fresh games, still to play",
        replication.variants_words(),
        first.start + 1,
        first.end,
        first.len()
    );
    reading.look = Some(match reading.look.take() {
        Some(look) => format!("{look}; {filed}"),
        None => filed,
    });
    let last = games_at(top, *replication.looks.last().expect("a look"));
    reading.replication = Some([first.len() as u32, last.len() as u32]);
}

/// A level test read on one ladder: at its rung (the top unless the measure names one; every rung for
/// a threshold at every skill), at the claim's looks where it has a sequential design, over the games
/// each cell plays after the first `skip` × its planned games (0 but for a replication).
fn ladder_reading(
    evidence: &Evidence,
    ladder: &Ladder,
    design: Option<&Design>,
    test: &ClaimTest,
    skip: f64,
) -> Option<Reading> {
    let measures = level_measures(test);
    let every = matches!(test, ClaimTest::Threshold { every_skill: true, .. });
    let rungs: Vec<Vec<usize>> = if every {
        vec![ladder.rungs.clone()]
    } else {
        vec![measures.iter().map(|m| evidence.rung(ladder, m)).collect::<Option<Vec<_>>>()?]
    };
    let rungs = &rungs[0];
    let pairs: Vec<(&Measure, usize)> = if every {
        rungs.iter().map(|&r| (measures[0], r)).collect()
    } else {
        measures.iter().copied().zip(rungs.iter().copied()).collect()
    };
    let read = |multiple: f64, whole: bool| measured_at(evidence, &pairs, skip, multiple, whole);
    let top = *rungs.iter().max_by_key(|&&r| ladder.rungs.iter().position(|&x| x == r))?;
    let planned_last = design.map_or(1.0, |d| *d.looks.last().expect("a look"));
    let plan = Plan { games: evidence.planned(top) * planned_last };
    let mut labels: Vec<&str> = rungs.iter().map(|&r| evidence.study.labels[r].as_str()).collect();
    labels.dedup();
    let labels = labels.join(", ");
    let at_top = measures.iter().all(|m| matches!(m.skill.as_deref(), None | Some("top")));
    let (mut reading, multiple) = match design {
        None => {
            let ms = read(1.0, false)?;
            (fixed_reading(ladder.kind, labels, &level_test(test, &ms, &plan)), 1.0)
        }
        Some(design) => sequential_reading(ladder.kind, labels, design, &|k| {
            read(design.looks[k], true).map(|ms| {
                let cells: Vec<(String, u32)> = grow_cells(evidence, &measures, rungs, design, k, skip);
                (level_test(test, &ms, &plan).into_owned_parts(), cells)
            })
        })?,
    };
    reading.weak = if at_top { evidence.weakness(top, test) } else { None };
    reading.rating = evidence.ratings.map(|r| r[top]);
    let unfinished = measures
        .iter()
        .zip(rungs.iter().cycle())
        .map(|(m, &r)| evidence.unfinished_share(m, r, games_of(evidence.planned(r), skip, multiple)))
        .fold(0.0, f64::max);
    reading.unfinished = (unfinished > 0.0).then_some(unfinished);
    reading.cells = measures
        .iter()
        .zip(rungs.iter().cycle())
        .map(|(m, &r)| cell_id(&m.variant, &evidence.study.labels[r]))
        .collect();
    if at_top && !every {
        // The rung compared with is read from its first game at the same looks, a replication's
        // too: a check that can only withhold a verdict needs no games of its own.
        reading.below = below_reading(evidence, ladder, test, &measures, design);
        reading.curve = skill_curve(evidence, ladder, test, &measures);
        reading.unseparated = unseparated_top(evidence, ladder);
    }
    Some(reading)
}

/// Each measure at its rung over the first `multiple` × planned games of the cell; `None` where a
/// measure has no reading, or, when `whole`, where the cell does not yet hold all of those games.
fn measured_at(
    evidence: &Evidence,
    pairs: &[(&Measure, usize)],
    skip: f64,
    multiple: f64,
    whole: bool,
) -> Option<Vec<Measured>> {
    pairs
        .iter()
        .map(|&(m, r)| {
            let games = games_of(evidence.planned(r), skip, multiple);
            let wanted = games.len();
            let measured = evidence.measure(m, r, games)?;
            (!whole || measured.games as usize >= wanted).then_some(measured)
        })
        .collect()
}

/// The games a look reads of a cell with `planned` games: `multiple` × those, after the first `skip`
/// × those.
fn games_of(planned: f64, skip: f64, multiple: f64) -> Range<usize> {
    let from = (planned * skip).round() as usize;
    from..(planned * (skip + multiple)).round() as usize
}

/// The test down `ladder` from its top rung, through each next rung down that the ratings separate
/// from the last one taken, at each rung's planned games, as far as each measure has an interval;
/// returned weakest first.
fn skill_curve(
    evidence: &Evidence,
    ladder: &Ladder,
    test: &ClaimTest,
    measures: &[&Measure],
) -> Vec<CurvePoint> {
    let Some(ratings) = evidence.ratings else { return Vec::new() };
    let mut chain: Vec<usize> = Vec::new();
    for &rung in ladder.rungs.iter().rev() {
        if chain.last().is_none_or(|&last| ratings.separated(rung, last)) {
            chain.push(rung);
        }
    }
    let mut curve: Vec<CurvePoint> = chain
        .into_iter()
        .map_while(|rung| {
            let games = evidence.planned(rung) as usize;
            let ms: Vec<Measured> =
                measures.iter().map(|m| evidence.measure(m, rung, 0..games)).collect::<Option<_>>()?;
            let t = level_test(test, &ms, &Plan { games: evidence.planned(rung) });
            let raw = gate(decide_fixed(&t).raw, &t);
            let values: Vec<(f64, f64, f64)> = ms
                .iter()
                .map(|m| {
                    let interval = m.spread.interval();
                    (m.spread.estimate(), interval.low, interval.high)
                })
                .collect();
            // A measure with no interval (too few games) ends the curve: it cannot be drawn or read.
            if values
                .iter()
                .any(|&(estimate, low, high)| !(estimate.is_finite() && low.is_finite() && high.is_finite()))
            {
                return None;
            }
            let statistic = match (test, values.as_slice()) {
                (ClaimTest::CloserToHalf { .. }, [a, b]) => (b.0 - 0.5).abs() - (a.0 - 0.5).abs(),
                (_, [a, b]) => a.0 - b.0,
                (_, [a]) => a.0,
                _ => return None,
            };
            Some(CurvePoint {
                rung: evidence.study.labels[rung].clone(),
                rating: ratings[rung],
                measures: values,
                shares: ms.iter().all(|m| matches!(m.unit, Unit::Points)),
                statistic,
                raw,
            })
        })
        .collect();
    curve.reverse();
    curve
}

/// Whether a verdict that is not stable depends on skill: three or more rungs, each separated in
/// rating from the next, along which the statistic moves one way (strictly) as the rating rises.
pub fn moves_with_skill(curve: &[CurvePoint]) -> bool {
    let steps: Vec<f64> = curve.windows(2).map(|w| w[1].statistic - w[0].statistic).collect();
    curve.len() >= 3 && (steps.iter().all(|&d| d > 0.0) || steps.iter().all(|&d| d < 0.0))
}

/// The cells a level test reads at look `k + 1`, with the games that look needs.
fn grow_cells(
    evidence: &Evidence,
    measures: &[&Measure],
    rungs: &[usize],
    design: &Design,
    k: usize,
    skip: f64,
) -> Vec<(String, u32)> {
    let Some(&next) = design.looks.get(k + 1) else { return Vec::new() };
    measures
        .iter()
        .zip(rungs.iter().cycle())
        .map(|(m, &r)| {
            let id = cell_id(&m.variant, &evidence.study.labels[r]);
            (id, games_of(evidence.planned(r), skip, next).end as u32)
        })
        .collect()
}

/// The top rung of `ladder` and the one below it, where their ratings are not told apart.
fn unseparated_top(evidence: &Evidence, ladder: &Ladder) -> Option<Gap> {
    let ratings = evidence.ratings?;
    let [.., below, top] = ladder.rungs[..] else { return None };
    let (elo, low, high) = ratings.difference(below, top);
    let labels = &evidence.study.labels;
    (!ratings.separated(below, top)).then(|| Gap {
        lower: labels[below].clone(),
        upper: labels[top].clone(),
        elo,
        low,
        high,
    })
}

/// The rung a decisive verdict of `ladder`'s top rung is compared with, and why: the rung below, or,
/// where the ratings do not separate the two (their difference's interval holds 0), the next rung down
/// that they separate. A ladder with no such rung shows no step of skill to be stable across (`false`).
fn compared_rung(evidence: &Evidence, ladder: &Ladder) -> Option<(usize, String, bool)> {
    let mut rungs = ladder.rungs.iter().rev();
    let top = *rungs.next()?;
    let below = *rungs.clone().next()?;
    let labels = &evidence.study.labels;
    let Some(ratings) = evidence.ratings else {
        return Some((below, "the rung below (the rungs are not rated)".to_string(), true));
    };
    let gap = |r: usize| ratings.difference(r, top);
    let separated = |r: &usize| ratings.separated(*r, top);
    let (d, low, high) = gap(below);
    if separated(&below) {
        return Some((
            below,
            format!("the rung below, {d:+.0} Elo [{low:+.0}, {high:+.0}] under the top"),
            true,
        ));
    }
    let unseparated = format!(
        "{} is not separated from {} in rating ({d:+.0} Elo [{low:+.0}, {high:+.0}])",
        labels[below], labels[top]
    );
    match rungs.copied().find(separated) {
        Some(r) => {
            let (d, low, high) = gap(r);
            Some((
                r,
                format!("{unseparated}, so the next rung down that is: {d:+.0} Elo [{low:+.0}, {high:+.0}]"),
                true,
            ))
        }
        None => Some((
            below,
            format!("{unseparated}, and no rung below it is: the ladder shows no step of skill"),
            false,
        )),
    }
}

/// The test on the rung a decisive top-rung verdict of `ladder` is compared with ([`compared_rung`]),
/// at its planned games, or, under a sequential design, at the design's looks as the top is read.
fn below_reading(
    evidence: &Evidence,
    ladder: &Ladder,
    test: &ClaimTest,
    measures: &[&Measure],
    design: Option<&Design>,
) -> Option<Below> {
    let (below, why, step) = compared_rung(evidence, ladder)?;
    let label = evidence.study.labels[below].clone();
    let pairs: Vec<(&Measure, usize)> = measures.iter().map(|&m| (m, below)).collect();
    let read = |multiple: f64, whole: bool| measured_at(evidence, &pairs, 0.0, multiple, whole);
    let (measurement, raw, look, next) = match design {
        None => {
            let ms = read(1.0, false)?;
            let t = level_test(test, &ms, &Plan { games: evidence.planned(below) });
            (t.text.clone(), gate(decide_fixed(&t).raw, &t), None, Vec::new())
        }
        Some(design) => {
            let last = *design.looks.last().expect("a look");
            let plan = Plan { games: evidence.planned(below) * last };
            let rungs = vec![below; measures.len()];
            let reading = sequential_reading(ladder.kind, label.clone(), design, &|k| {
                read(design.looks[k], true).map(|ms| {
                    let cells = grow_cells(evidence, measures, &rungs, design, k, 0.0);
                    (level_test(test, &ms, &plan).into_owned_parts(), cells)
                })
            });
            match reading {
                Some((reading, _)) => (reading.measurement, reading.raw, reading.look, reading.next),
                // A replication's first look may reach past the games this rung holds: until they are
                // played it withholds a verdict the top decides, and grows its cells once the top has.
                None => {
                    let games = games_of(evidence.planned(below), 0.0, design.looks[0]).end as u32;
                    let next: Vec<(String, u32)> =
                        measures.iter().map(|m| (cell_id(&m.variant, &label), games)).collect();
                    let measurement = format!("its first look ({games} games a cell) is still to play");
                    (measurement, Verdict::NotYetStable, None, next)
                }
            }
        }
    };
    // No rung separated from the top: the verdict cannot be shown stable, whatever that rung reads.
    let raw = if step { raw } else { Verdict::NotYetStable };
    Some(Below { rung: label, measurement, raw, why, look, next })
}

/// A reading's p value, none where its games are too few to test (insufficient data): a test not
/// made is no member of Holm's family, and prints no p.
fn tested(raw: Verdict, p: f64) -> Option<f64> {
    (raw != Verdict::InsufficientData).then_some(p)
}

/// A reading with a single look.
fn fixed_reading(kind: EvidenceKind, rungs: String, test: &Test) -> Reading {
    let decided = decide_fixed(test);
    let (side, z) = decided.strength.leaning();
    let tests = if side == Side::Contradict { test.contradict_tests } else { 1.0 };
    let Power { to_decide, fresh_to_decide, detectable } =
        power(test.games, test.independent, test.repeats, test.se, &test.unit, z, tests);
    let raw = gate(decided.raw, test);
    Reading {
        p_value: tested(raw, decided.p_value),
        games: Some(test.games),
        to_decide,
        fresh_to_decide,
        detectable,
        ..Reading::new(kind, rungs, test.text.clone(), raw)
    }
}

/// A test's numbers at one look, without the borrow of its measures.
pub struct Owned {
    text: String,
    strength: Strength,
    games: f64,
    independent: f64,
    repeats: bool,
    se: f64,
    unit: Unit,
    reachable: bool,
    insufficient: bool,
}

impl Test<'_> {
    fn into_owned_parts(self) -> Owned {
        Owned {
            strength: Strength::of(&|side: Side, z: f64| (self.rule)(side, z)),
            text: self.text,
            games: self.games,
            independent: self.independent,
            repeats: self.repeats,
            se: self.se,
            unit: self.unit,
            reachable: self.reachable,
            insufficient: self.insufficient,
        }
    }
}

/// A test at one look, and the cells the next look needs grown (id, games).
type Look = (Owned, Vec<(String, u32)>);

/// A reading at a sequential design's looks: `at(k)` is the test at look `k` and the cells look `k + 1`
/// would need (`None` where look `k`'s games are not all played yet). Returned with the multiple of
/// the planned games read at the look it stopped at.
fn sequential_reading(
    kind: EvidenceKind,
    rungs: String,
    design: &Design,
    at: &dyn Fn(usize) -> Option<Look>,
) -> Option<(Reading, f64)> {
    let looks: Vec<Option<Look>> = (0..design.looks.len()).map(at).collect();
    let stop = follow(design, |k| looks[k].as_ref().map(|(o, _)| o.strength.leaning().1))?;
    let (owned, next) = looks[stop.look].as_ref().expect("the look it stopped at was read");
    let (side, _) = owned.strength.leaning();
    let last = stop.look + 1 == design.looks.len();
    let decided = if stop.crossed { Verdict::of(side) } else { Verdict::Inconclusive };
    let gated = if owned.insufficient {
        Verdict::InsufficientData
    } else if !owned.reachable && !decided.decisive() {
        Verdict::Underpowered
    } else {
        decided
    };
    let Power { to_decide, fresh_to_decide, detectable } =
        power(owned.games, owned.independent, owned.repeats, owned.se, &owned.unit, stop.z, 1.0);
    let state = match (stop.crossed, last) {
        (true, _) => "decided",
        (false, true) => "the last look, undecided",
        (false, false) => "undecided; the next look is still to play",
    };
    let reading = Reading {
        p_value: tested(gated, (2.0 * stop.p_one_sided).min(1.0)),
        games: Some(owned.games),
        to_decide,
        fresh_to_decide,
        detectable,
        look: Some(format!(
            "look {} of {} ({}× the planned games, boundary z = {:.2}, statistic z = {:.2}): {state}",
            stop.look + 1,
            design.looks.len(),
            design.looks[stop.look],
            design.boundaries[stop.look],
            stop.z
        )),
        next: if stop.crossed || last { Vec::new() } else { next.clone() },
        ..Reading::new(kind, rungs, owned.text.clone(), gated)
    };
    Some((reading, design.looks[stop.look]))
}

/// A trend claim over every rated rung of the study, on one scale.
fn trend_reading(evidence: &Evidence, claim: &Claim, design: Option<&Design>) -> Option<Reading> {
    let ClaimTest::Trend { measure, direction, margin, toward_half } = &claim.test else { return None };
    let rungs = evidence.trend_rungs();
    let kind = rungs
        .iter()
        .map(|&r| EvidenceKind::of(&evidence.study.agents[r]))
        .max()
        .unwrap_or(EvidenceKind::Rollout);
    let labels = format!(
        "every rated rung ({})",
        rungs.iter().map(|&r| evidence.study.labels[r].as_str()).collect::<Vec<_>>().join(", ")
    );
    let seed = evidence.study.study.seed ^ fnv1a(&claim.id);
    let variant = measure.resolved().variant;
    let variant_name = &evidence.study.study.variants[variant].name;
    let cells: Vec<String> =
        rungs.iter().map(|&r| cell_id(variant_name, &evidence.study.labels[r])).collect();
    let at = |multiple: f64| {
        let games = |r: usize| (evidence.planned(r) * multiple).round() as usize;
        if rungs
            .iter()
            .any(|&r| evidence.games(measure.resolved().variant, r).is_none_or(|g| g.len() < games(r)))
        {
            return None;
        }
        evidence.slope(measure, *toward_half, &games, seed)
    };
    let Some(design) = design else {
        let Some(slope) = at(1.0) else {
            return Some(no_slope(kind, labels));
        };
        let test = rules::trend(&slope.spread, slope.text.clone(), *direction, *margin, slope.games);
        return Some(Reading { cells, ..fixed_reading(kind, labels, &test) });
    };
    let reading = sequential_reading(kind, labels.clone(), design, &|k| {
        let slope = at(design.looks[k])?;
        let test = rules::trend(&slope.spread, slope.text.clone(), *direction, *margin, slope.games);
        let next = design.looks.get(k + 1).map_or(Vec::new(), |next| {
            let own = rungs.iter().map(|&r| {
                (
                    cell_id(variant_name, &evidence.study.labels[r]),
                    (evidence.planned(r) * next).round() as u32,
                )
            });
            let cross = evidence.study.study.ratings.iter().flat_map(|settings| {
                evidence.pairs.iter().map(move |p| {
                    let id =
                        format!("ratings@{}-vs-{}", evidence.study.labels[p.a], evidence.study.labels[p.b]);
                    (id, (settings.games as f64 * next).round() as u32)
                })
            });
            own.chain(cross).collect()
        });
        Some((test.into_owned_parts(), next))
    });
    reading.map(|(r, _)| Reading { cells, ..r })
}

fn no_slope(kind: EvidenceKind, rungs: String) -> Reading {
    let measurement = "no slope: fewer than two rated rungs (the rungs did not play each other)";
    Reading::new(kind, rungs, measurement.to_string(), Verdict::Inconclusive)
}

/// The claim's verdict and note read again from its readings, after their adjusted verdicts changed
/// (a wider multiplicity family, [`super::family`]).
pub fn reread_verdict(result: &mut ClaimResult) {
    headline(result);
}

/// The claim's verdict from its strongest reading that is not weak, and a note where readings
/// disagree, where only weak evidence answered, or where the top two rungs differ.
fn headline(result: &mut ClaimResult) {
    result.note = None;
    // An exact reading without a proof (no table, the solver's budget spent) is no evidence at all.
    let strongest = result
        .readings
        .iter()
        .find(|r| r.weak.is_none() && (r.kind != EvidenceKind::Exact || r.raw.decisive()));
    let Some(best) = strongest else {
        result.verdict = Verdict::Inconclusive;
        result.evidence = None;
        if result.readings.iter().any(|r| r.weak.is_some()) {
            result.note =
                Some("only evidence from agents shown wrong by stronger evidence answered".to_string());
        }
        return;
    };
    result.verdict = best.adjusted;
    result.evidence = Some(best.kind);
    let mut notes = Vec::new();
    if let Some(exact) = result.readings.iter().find(|r| r.raw == Verdict::NotInformative) {
        notes.push(format!(
            "the exact reading ({}) is not informative, so the {} decides",
            exact.rungs,
            best.kind.as_str()
        ));
    }
    if let Some(below) = best.below.as_ref().filter(|b| best.adjusted.decisive() && b.raw != best.raw) {
        let compared = format!(
            "the top rung ({}) says {}, {} ({}) {}: {}",
            best.rungs,
            best.adjusted.as_str(),
            below.rung,
            below.why,
            below.raw.as_str(),
            below.measurement
        );
        if moves_with_skill(&best.curve) {
            result.verdict = Verdict::DependsOnSkill;
            let points: Vec<String> = best
                .curve
                .iter()
                .map(|p| format!("{} ({:.0} Elo) {}", p.rung, p.rating.elo, p.raw.as_str()))
                .collect();
            notes.push(format!(
                "depends on skill (rule: over {} rungs, each separated in rating from the next, the statistic moves one way as the rating rises, and the top rung's verdict is not the next one down's): {}; {compared}",
                best.curve.len(),
                points.join(" → ")
            ));
        } else {
            result.verdict = Verdict::NotYetStable;
            notes.push(format!(
                "not yet stable (rule: the rung compared with the top reads otherwise): {compared}"
            ));
        }
    }
    if let Some(share) = best.unfinished.filter(|&share| share > UNFINISHED_NOTED) {
        notes.push(format!(
            "{:.0}% of the games of a cell it reads were stopped at the ply cap and left out: the verdict holds for the games that finished",
            100.0 * share
        ));
    }
    if let Some(other) =
        best.adjusted.decisive().then(|| other_ladder_against(&result.readings, best)).flatten()
    {
        result.verdict = Verdict::NotYetStable;
        notes.push(other);
    }
    let disagreeing: Vec<String> = result
        .readings
        .iter()
        .filter(|r| r.kind != best.kind && r.adjusted.decisive() && r.adjusted != best.adjusted)
        .map(|r| format!("the {} says {}", r.kind.as_str(), r.adjusted.as_str()))
        .collect();
    if !disagreeing.is_empty() {
        let word = if best.adjusted.decisive() { "disagrees" } else { "decides otherwise" };
        notes.push(format!("other evidence {word}: {}", disagreeing.join("; ")));
    }
    result.note = (!notes.is_empty()).then(|| notes.join("; "));
}

/// A deciding reading whose cells hold more unfinished games than this says so in the claim's note.
const UNFINISHED_NOTED: f64 = 0.05;

/// The stability rule across ladders: the top rung of another ladder, rated within the deciding
/// rung's interval or above it, whose reading is decisive the other way (none where the rungs are not
/// rated, or that ladder is shown wrong by stronger evidence).
fn other_ladder_against(readings: &[Reading], best: &Reading) -> Option<String> {
    let rating = best.rating?;
    readings
        .iter()
        .filter(|r| r.kind != best.kind && r.kind != EvidenceKind::Exact && r.weak.is_none())
        .filter(|r| r.raw.decisive() && r.raw != best.raw)
        .find_map(|r| {
            let theirs = r.rating.filter(|theirs| theirs.elo >= rating.low)?;
            Some(format!(
                "not yet stable (rule: another ladder's top rung, rated within the deciding rung's interval or above it, reads otherwise): {} ({:.0} Elo [{:.0}, {:.0}]) says {}, {} ({:.0} Elo [{:.0}, {:.0}]) says {}: {}",
                best.rungs,
                rating.elo,
                rating.low,
                rating.high,
                best.adjusted.as_str(),
                r.rungs,
                theirs.elo,
                theirs.low,
                theirs.high,
                r.raw.as_str(),
                r.measurement
            ))
        })
}

/// The test in words and its decision rule, from the same code that applies it ([`rules`]).
fn describe(test: &ClaimTest) -> (String, String) {
    match test {
        ClaimTest::Threshold { measure, op, value, every_skill } => {
            let word = if *op == super::study::Op::AtLeast { "≥" } else { "≤" };
            let mut words = measure_words(measure);
            if *every_skill {
                words = format!("{} at every rung", words.trim_end_matches(" at top"));
            }
            (format!("{words} {word} {value}"), rules::threshold_words(*op, *value, *every_skill))
        }
        ClaimTest::Near { measure, target, margin } => (
            format!("{} within {target} ± {margin}", measure_words(measure)),
            rules::near_words(*target, *margin),
        ),
        ClaimTest::Compare { a, b, direction, margin } => {
            let margin_words = if *margin > 0.0 { format!(" (margin ± {margin})") } else { String::new() };
            let word = match direction {
                super::study::Direction::Greater => "greater than",
                super::study::Direction::Less => "less than",
                super::study::Direction::Different => "different from",
                super::study::Direction::Equal => "equal to",
            };
            (
                format!("{} {word} {}{margin_words}", measure_words(a), measure_words(b)),
                rules::compare_words(*direction, *margin),
            )
        }
        ClaimTest::CloserToHalf { a, b } => {
            (format!("{} closer to 50% than {}", measure_words(a), measure_words(b)), rules::closer_words())
        }
        ClaimTest::Trend { measure, direction, toward_half, margin } => {
            let what = if *toward_half {
                format!("distance from 50% of the {}", measure_words(measure))
            } else {
                measure_words(measure)
            };
            let way = if *direction == super::study::TrendDirection::Falls { "falls" } else { "rises" };
            (format!("{what} {way} with measured skill"), rules::trend_words(*direction, *margin))
        }
        ClaimTest::WinsGained { a, b, side, op, value } => (
            format!(
                "the share of the wins of the {side} under `{a}` that are not wins under `{b}` (the tables: every position both hold, and the positions the games reach)"
            ),
            format!(
                "exact: supported if the share is {} {value}, contradicted otherwise; over every position first, the games' positions beside it",
                if *op == super::study::Op::AtLeast { "≥" } else { "≤" }
            ),
        ),
        ClaimTest::Solver { variant, winner, max_plies } => {
            let limit = max_plies.map_or(String::new(), |p| format!(" within {p} plies"));
            (
                format!("the start of `{variant}` is a forced {winner} win{limit}"),
                "a proof: the tablebase where one covers the rules, else the MCTS-solver".to_string(),
            )
        }
    }
}

#[cfg(test)]
mod tests;
