//! Exact evidence: a proof of a variant's start (the tablebase, or the MCTS-solver), and best play read
//! off the tables wherever a claim's measure has an exact counterpart:
//!
//! - a side's score: best play's result from the start (1, ½ or 0);
//! - a side's score in games where side X has lost at least k pieces: the value of the first position
//!   on the best-play line where X has lost k (the General's first capture, his second, …);
//! - the share of games side W wins among those where side X (the Rebels) is down to at most k pieces:
//!   the share of the table's positions with at most k of them that W wins (both sides to move);
//! - the mean length of the games side W wins: best play's length, where best play is W's win.
//!
//! Where every measure of a test has one, the test is read on these exact values with its own rule;
//! so is a measure the tables give over positions (every one, or those the games reach:
//! [`super::super::positions`]), before best play's.

use super::super::decide::Spread;
use super::super::store::{LevelShare, Proven, SolverResult, TableFigure};
use super::super::study::{
    ClaimTest, EvidenceKind, ExactTest, GameFilter, Measure, Metric, Quantity, Winner,
};
use super::evidence::Evidence;
use super::read::{Measured, Unit};
use super::rules::Plan;
use super::{Reading, Verdict, level_measures, level_test};

impl Evidence<'_> {
    /// The exact readings of a claim: its proof test, and its own test read on best play.
    pub(super) fn exact_readings(&self, claim: &super::Claim) -> Vec<Reading> {
        let mut readings = Vec::new();
        if let ClaimTest::Solver { variant, winner, max_plies } = &claim.test {
            let test = ExactTest {
                variant: variant.clone(),
                winner: winner.clone(),
                max_plies: *max_plies,
                only_contradicts: false,
            };
            readings.push(self.proof(&test));
        }
        if let Some(exact) = &claim.exact {
            readings.push(self.proof(exact));
        }
        let figures: Vec<&TableFigure> = self.figures.iter().filter(|f| f.claim == claim.id).collect();
        readings.extend(figures.iter().filter_map(|f| self.figure_reading(&claim.test, f)));
        if figures.is_empty() {
            readings.extend(self.no_figure(&claim.test));
        }
        readings.extend(self.best_play_reading(&claim.test));
        readings
    }

    /// The claim's own test read on a measure the tables give over positions ([`TableFigure`]); not
    /// informative where the rules fix the direction it finds, inconclusive where the figure has no
    /// value (a mean over no position).
    fn figure_reading(&self, test: &ClaimTest, figure: &TableFigure) -> Option<Reading> {
        if figure.values.is_empty() {
            let text = format!("{}; not defined: the set holds no position it is measured over", figure.text);
            return Some(exact_reading(figure.over.clone(), text, Verdict::Inconclusive));
        }
        let units: Vec<Unit> = match test {
            ClaimTest::WinsGained { .. } => vec![Unit::Points],
            _ => level_measures(test).iter().map(|m| unit_of(&m.resolved().quantity)).collect(),
        };
        if units.len() != figure.values.len() {
            return None;
        }
        let ms: Vec<Measured> = units
            .into_iter()
            .zip(&figure.values)
            .map(|(unit, &value)| Measured {
                spread: Spread::Exact(value),
                text: figure.text.clone(),
                games: 0.0,
                qualifying: 0,
                repeats: 0,
                conditional: false,
                unit,
            })
            .collect();
        let t = level_test(test, &ms, &Plan { games: 1.0 });
        let raw = rule_verdict(&t);
        let measurement = t.text.clone();
        match &figure.fixed {
            Some(why) if raw == Verdict::Supported => Some(exact_reading(
                figure.over.clone(),
                format!("{measurement}; not informative: {why}"),
                Verdict::NotInformative,
            )),
            _ => Some(exact_reading(figure.over.clone(), measurement, raw)),
        }
    }

    /// Where only the tables measure a claim and the record holds no figure of it: which tables would,
    /// and what building them costs (the same words on every machine, tables or none).
    fn no_figure(&self, test: &ClaimTest) -> Option<Reading> {
        let measures = level_measures(test);
        if !measures.iter().any(|m| m.resolved().quantity.only_from_tables()) {
            return None;
        }
        let tables: Vec<String> = measures
            .iter()
            .map(|m| {
                let variant = m.resolved().variant;
                let (game, spec) = (&self.study.games[variant], &self.study.study.variants[variant].spec);
                match crate::family::hunt_of(game) {
                    Some(hunt) => {
                        format!("`rebel-zero solve {spec}`: {}", crate::tablebase::build_cost(hunt))
                    }
                    None => format!("`{spec}` (no table solves it)"),
                }
            })
            .collect();
        let text = format!(
            "no figure in this record: only the tablebases measure it; build them ({}) and read the study again \
             (`rebel-zero balance --reread`)",
            tables.join("; ")
        );
        Some(exact_reading("the tables".to_string(), text, Verdict::Inconclusive))
    }

    /// The exact reading of a proof test, from the tablebase or the MCTS-solver.
    fn proof(&self, exact: &ExactTest) -> Reading {
        let (measurement, raw) = match self.solved(&exact.variant) {
            None => ("no exact value: the solver did not run".to_string(), Verdict::Inconclusive),
            Some(r) => {
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
                (r.describe(), raw)
            }
        };
        if exact.only_contradicts && raw == Verdict::Supported {
            let why = "a forced win says who wins, not how easily: only a proof against it could decide";
            return exact_reading(
                "the start".to_string(),
                format!("{measurement}; not informative: {why}"),
                Verdict::NotInformative,
            );
        }
        exact_reading("the start".to_string(), measurement, raw)
    }

    fn solved(&self, variant: &str) -> Option<&SolverResult> {
        self.solver.iter().find(|r| r.variant == variant)
    }

    /// The claim's own test read on best play, where every measure has an exact value.
    fn best_play_reading(&self, test: &ClaimTest) -> Option<Reading> {
        let measures = level_measures(test);
        if measures.is_empty() || matches!(test, ClaimTest::Threshold { every_skill: true, .. }) {
            return None;
        }
        let ms: Vec<Measured> = measures.iter().map(|m| self.exact_measure(m)).collect::<Option<_>>()?;
        let t = level_test(test, &ms, &Plan { games: 1.0 });
        if let Some(why) = fixed_by_the_values(test, &ms) {
            let text = format!("{}; not informative: {why}", t.text);
            return Some(exact_reading("best play".to_string(), text, Verdict::NotInformative));
        }
        Some(exact_reading("best play".to_string(), t.text.clone(), rule_verdict(&t)))
    }

    /// A measure's value under best play, where the variant's exact value answers it.
    fn exact_measure(&self, m: &Measure) -> Option<Measured> {
        let r = m.resolved();
        let solved = self.solved(&m.variant)?;
        let names = self.study.side_names(r.variant);
        let proven = solved.proven.as_ref()?;
        let start_winner = match proven {
            Proven::Draw => None,
            Proven::Win(name) => Some(names.iter().position(|n| n == name)?),
        };
        let given = r.given.as_ref();
        let (value, text) = match (&r.quantity, given) {
            (Quantity::Score(side), None) => {
                let value = score_of(start_winner, *side);
                (
                    value,
                    format!(
                        "best play from the start: {}, so {} score {:.0}%",
                        solved.describe(),
                        names[*side],
                        100.0 * value
                    ),
                )
            }
            (Quantity::Score(side), Some(g)) if only_lost(g) => line_score(solved, g, *side, names)?,
            (Quantity::Rate(event), Some(g)) if only_left(g) && only_winner(event) => {
                let (x, k, w) = (g.side?, g.left_at_most?, event.winner?);
                level_share(&solved.levels, x, k, w, names)?
            }
            (Quantity::Mean(Metric::Plies), Some(g))
                if only_winner(g) && solved.method.starts_with("tablebase") =>
            {
                let Winner::Side(w) = g.winner? else { return None };
                if start_winner != Some(w) {
                    return None;
                }
                let plies = f64::from(solved.plies?);
                (plies, format!("best play: {} win in {plies} plies", names[w]))
            }
            _ => return None,
        };
        let unit = unit_of(&r.quantity);
        Some(Measured {
            spread: Spread::Exact(value),
            text,
            games: 0.0,
            qualifying: 0,
            repeats: 0,
            conditional: false,
            unit,
        })
    }
}

/// Why a test read on exact values could not come out the other way, if it could not: a comparison
/// of two values that best play fixes alike. An exact score is 0, ½ or 1, so two equal ones say only
/// that the rule did not change who wins with best play; the difference between them is 0 by
/// construction, whatever the rule does to the balance between players who err, and "equal",
/// "different" or "closer to 50%" read on it would hold or fail whatever the claim means.
pub(super) fn fixed_by_the_values(test: &ClaimTest, ms: &[Measured]) -> Option<String> {
    if !matches!(test, ClaimTest::Compare { .. } | ClaimTest::CloserToHalf { .. }) || ms.len() != 2 {
        return None;
    }
    let (Spread::Exact(a), Spread::Exact(b)) = (&ms[0].spread, &ms[1].spread) else { return None };
    (a == b).then(|| {
        format!(
            "both values are certain and equal ({}), so their difference is 0 by construction: the comparison \
             only says best play's result is the same under both rules, not how much the rule moves the balance",
            ms[0].unit.show(*a)
        )
    })
}

/// A test's verdict on exact values: its rule at any width (the values carry none).
fn rule_verdict(t: &super::rules::Test) -> Verdict {
    let holds = |side| (t.rule)(side, 1.96);
    if holds(super::Side::Support) {
        Verdict::Supported
    } else if holds(super::Side::Contradict) {
        Verdict::Contradicted
    } else {
        Verdict::Inconclusive
    }
}

/// The unit a measure's exact value is shown in.
fn unit_of(quantity: &Quantity) -> Unit {
    match quantity {
        Quantity::Mean(Metric::Margin(_)) => Unit::Points,
        Quantity::Mean(_) => Unit::Of("plies".to_string()),
        _ => Unit::Points,
    }
}

/// What a side scores when `winner` wins (`None`: a draw).
fn score_of(winner: Option<usize>, side: usize) -> f64 {
    match winner {
        None => 0.5,
        Some(w) => f64::from(u8::from(w == side)),
    }
}

/// `side`'s score on the best-play line once the filter's side has lost at least its count: the
/// result best play still forces there.
fn line_score(solved: &SolverResult, g: &GameFilter, side: usize, names: [&str; 2]) -> Option<(f64, String)> {
    let (x, k) = (g.side?, g.lost_at_least?);
    let mark = solved.line.iter().find(|mark| mark.lost[x] >= k)?;
    let value = score_of(mark.winner, side);
    let then = mark.winner.map_or("a draw".to_string(), |w| {
        format!("a forced {} win in {} plies", names[w], mark.plies.unwrap_or(0))
    });
    let text = format!(
        "on the best-play line the {} have lost {} after ply {} ({}): still {then}, so {} score {:.0}%",
        names[x],
        mark.lost[x],
        mark.ply,
        mark.position,
        names[side],
        100.0 * value
    );
    Some((value, text))
}

fn only_lost(f: &GameFilter) -> bool {
    f.lost_at_least.is_some()
        && f.lost_in_play_at_least.is_none()
        && f.side.is_some()
        && f.winner.is_none()
        && f.left_at_most.is_none()
        && f.reason.is_none()
        && f.plies_at_most.is_none()
}

fn only_left(f: &GameFilter) -> bool {
    f.left_at_most.is_some()
        && f.side == Some(1)
        && f.winner.is_none()
        && f.lost_at_least.is_none()
        && f.lost_in_play_at_least.is_none()
        && f.reason.is_none()
        && f.plies_at_most.is_none()
}

fn only_winner(f: &GameFilter) -> bool {
    f.winner.is_some() && f.side.is_none() && f.reason.is_none() && f.plies_at_most.is_none()
}

/// The share of the table's positions with at most `k` of side `x`'s pieces that `winner` wins.
fn level_share(
    levels: &[LevelShare],
    x: usize,
    k: u32,
    winner: Winner,
    names: [&str; 2],
) -> Option<(f64, String)> {
    let chosen: Vec<&LevelShare> = levels.iter().filter(|l| x == 1 && l.pieces <= k).collect();
    if chosen.is_empty() {
        return None;
    }
    let count = |ls: &[&LevelShare]| {
        let hits: u64 = ls
            .iter()
            .map(|l| match winner {
                Winner::Side(w) => l.wins[w],
                Winner::Draw => l.draws,
            })
            .sum();
        let all: u64 = ls.iter().map(|l| l.wins[0] + l.wins[1] + l.draws).sum();
        (hits, all)
    };
    let (hits, all) = count(&chosen);
    let who = match winner {
        Winner::Side(w) => format!("{} win", names[w]),
        Winner::Draw => "drawn".to_string(),
    };
    let per_mover: Vec<String> = [0, 1]
        .iter()
        .map(|&m| {
            let of: Vec<&LevelShare> = chosen.iter().copied().filter(|l| l.to_move == m).collect();
            let (h, a) = count(&of);
            format!("{} to move {:.1}% ({h} of {a})", names[m], 100.0 * h as f64 / a.max(1) as f64)
        })
        .collect();
    let share = hits as f64 / all.max(1) as f64;
    let text = format!(
        "of the table's {all} positions with at most {k} {}, {who} with best play {:.2}% ({})",
        names[x],
        100.0 * share,
        per_mover.join("; ")
    );
    Some((share, text))
}

fn exact_reading(rungs: String, measurement: String, raw: Verdict) -> Reading {
    Reading::new(EvidenceKind::Exact, rungs, measurement, raw)
}
