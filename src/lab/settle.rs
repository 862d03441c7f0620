//! What the open claims of a study would take to settle, in games and CPU hours, against the budget
//! its file states. A claim decides nothing while its verdict is inconclusive, underpowered, short of
//! data or not yet stable; its report then says why this record cannot decide it: the games per cell
//! its rule needs at the measured effect, or the cross-play games that would tell its top rungs apart
//! in rating, or the rung above the top that would show whether the verdict holds, each priced at the
//! CPU time the study's own cells took per game.
//!
//! The prices are estimates from this record: a cell's CPU time is its wall time times the threads
//! that played it, over its games (cells resumed on another machine or thread count blur this), and a
//! rung not yet played is priced from the top rung by the ladder's last step.

use super::claims::{ClaimResult, Reading, Verdict};
use super::decide::power_quantile;
use super::runner::StudyResults;
use super::stats::{Z95, normal_quantile};
use super::study::EvidenceKind;

/// An open claim: what would settle it, and at what price.
#[derive(Clone, Debug, PartialEq)]
pub struct Open {
    pub claim: String,
    pub verdict: Verdict,
    /// What deciding it would take, in games or rungs.
    pub needs: String,
    /// The CPU hours that would take at the study's measured cost, where the record prices it.
    pub cpu_hours: Option<f64>,
}

/// Every claim of `results` whose verdict decides nothing, with what would settle it. A verdict that
/// depends on skill is a finding (its curve), not an open claim.
pub fn open_claims(results: &StudyResults) -> Vec<Open> {
    results
        .claims
        .iter()
        .filter(|c| !c.verdict.decisive() && c.verdict != Verdict::DependsOnSkill)
        .map(|c| settle(results, c))
        .collect()
}

/// The CPU hours `results` spent: every cell's and solver run's time, times the threads.
pub fn spent_cpu_hours(results: &StudyResults) -> f64 {
    results.compute_seconds * results.threads.max(1) as f64 / 3600.0
}

/// Whether `hours` more fit in the budget of `results`, and the words that say so.
pub fn against_budget(results: &StudyResults, hours: Option<f64>) -> String {
    let (Some(budget), Some(hours)) = (results.budget, hours) else {
        return if results.budget.is_none() {
            "no budget stated".to_string()
        } else {
            "not priced".to_string()
        };
    };
    let left = budget.cpu_hours - spent_cpu_hours(results);
    if hours <= left {
        format!("within the budget ({left:.1} h left)")
    } else {
        format!("beyond the budget ({left:.1} h left of {:.1})", budget.cpu_hours)
    }
}

fn settle(results: &StudyResults, claim: &ClaimResult) -> Open {
    let reading = claim
        .readings
        .iter()
        .find(|r| Some(r.kind) == claim.evidence && r.weak.is_none())
        .or_else(|| claim.readings.iter().find(|r| r.games.is_some()));
    let (needs, cpu_hours) = match reading {
        // An exact reading that could not be made says what it lacks (a table not built, a solver
        // not run).
        None => match claim
            .readings
            .iter()
            .filter(|r| r.kind == EvidenceKind::Exact && r.raw == Verdict::Inconclusive)
            .max_by_key(|r| r.rungs == "the tables")
        {
            Some(exact) => (exact.measurement.clone(), None),
            None => {
                ("no evidence of this study reads it: a ladder or a table that measures it".to_string(), None)
            }
        },
        Some(r) if r.weak.is_some() => (
            format!(
                "the only games that read it are played by agents stronger evidence shows wrong ({}): a rung it \
                 does not show wrong, or a reading the tables answer",
                r.weak.as_deref().unwrap_or_default()
            ),
            None,
        ),
        Some(r) if claim.verdict == Verdict::NotYetStable => stability(results, r),
        Some(r) if claim.verdict == Verdict::InsufficientData => (
            format!(
                "the games it measures (almost) never occur at this rung ({}), so more games here would not \
                 decide it: a rung at which they occur, or another reading",
                r.measurement
            ),
            None,
        ),
        Some(r) => more_games(results, r),
    };
    Open { claim: claim.id.clone(), verdict: claim.verdict, needs, cpu_hours }
}

/// The games per cell the reading's rule needs at the measured effect, and their price.
fn more_games(results: &StudyResults, reading: &Reading) -> (String, Option<f64>) {
    let next_look = reading.look.as_deref().is_some_and(|l| l.contains("still to play"));
    let design = if next_look { "; its sequential design plays the next look on the next run" } else { "" };
    // A reading its own test decides that Holm's correction across the family does not.
    let corrected = match (reading.raw.decisive() && !reading.adjusted.decisive(), reading.p_value) {
        (true, Some(p)) => {
            let after =
                reading.p_table.or(reading.p_holm).map_or(String::new(), |q| format!(", p = {q:.3} after"));
            format!(
                "its own test says {} (p = {p:.3}) but Holm's correction does not{after}; ",
                reading.raw.as_str()
            )
        }
        _ => String::new(),
    };
    let cells = cells_words(&reading.cells);
    // A replication filed and not yet played: the next run plays its first look.
    if let Some([first, last]) = reading.replication {
        let most = if last > first { format!(", of at most {last} at its last look") } else { String::new() };
        // The cells it plays (a replication on variants of its own plays theirs), to its last look.
        let cells: Vec<String> = reading.next.iter().map(|(id, _)| id.clone()).collect();
        let spent = spent_books(results, &cells);
        let most = if spent.is_empty() {
            most
        } else {
            format!(
                "{most}; but the book has run out ({}), so those games would repeat games it replicates",
                spent.join("; ")
            )
        };
        return (
            format!(
                "{corrected}its replication, filed as an amendment, plays its first look on the next run (`rebel-zero \
                 balance` on the study resumes it): {first} fresh games{}{most}",
                cells_words(&cells)
            ),
            growth_price(results, &reading.next),
        );
    }
    match (reading.games, reading.to_decide) {
        (Some(read), Some(needed)) if needed > read && next_look => {
            let extra = needed - read;
            (
                format!(
                    "{corrected}{needed:.0} games per cell at the measured effect (power 0.8), {read:.0} read: {extra:.0} more{cells}{design}"
                ),
                price(results, &reading.cells, extra),
            )
        }
        // A design whose last look is read (a fixed design's only one) allows no more games: reading the
        // same games again at a new look would spend its level twice. More evidence is a replication
        // of fresh games, read alone, sized for the level Holm's correction leaves it.
        (Some(read), Some(needed)) if needed > read => {
            let (fresh, text) = replication(results, reading, needed, false);
            (
                format!(
                    "{corrected}{} has read its last look undecided ({read:.0} games per cell), and those games cannot \
                     be read again at a new look without spending its level twice: {text}",
                    design_of(reading)
                ),
                price(results, &reading.cells, fresh),
            )
        }
        // Games that repeat one another: more of them add nothing, whatever the design allows.
        (Some(read), None) if reading.fresh_to_decide.is_some() => {
            let needed = reading.fresh_to_decide.unwrap_or_default();
            let (fresh, text) = replication(results, reading, needed, true);
            (
                format!(
                    "{corrected}{} has played {read:.0} games per cell, and they repeat the games it replicates, so that more of them \
                     add nothing: {text}",
                    design_of(reading)
                ),
                price(results, &reading.cells, fresh),
            )
        }
        (Some(read), _) if !corrected.is_empty() => (
            format!(
                "{corrected}the games it read ({read:.0} per cell) already reach power 0.8 at the measured effect for its \
                 own test, so it is the other readings of the family that hold it back{design}"
            ),
            None,
        ),
        (Some(read), _) => {
            let detect =
                reading.detectable.as_deref().map_or(String::new(), |d| format!(" (these detect {d})"));
            (
                format!(
                    "no number of games at this rung: the estimate sits on the rule's bound after {read:.0} games per \
                     cell{detect}, so only a stronger rung or another reading could move it{design}"
                ),
                None,
            )
        }
        (None, _) => (format!("no games read it: {}", reading.measurement), None),
    }
}

/// The cells a reading's games come from, in words (" in each of its 2 cells (…)").
fn cells_words(cells: &[String]) -> String {
    match cells {
        [] => String::new(),
        [one] => format!(" in its cell ({one})"),
        many => format!(" in each of its {} cells ({})", many.len(), many.join(", ")),
    }
}

/// The design a reading was read under, in words.
fn design_of(reading: &Reading) -> &'static str {
    match reading.look.as_deref() {
        Some(look) if look.starts_with("replication") => "its replication",
        Some(_) => "its sequential design",
        None => "its fixed design",
    }
}

/// The replication that would decide `reading` where `needed` fresh (independent) games per cell would
/// at one-sided 2.5%: its games per cell, and the words for it. It joins the reading's family as one
/// more member, so it must pass the level Holm's factor leaves it (none recorded: the fixed design's).
/// `repeats`: the games read repeat one another, so the replication's must open as none of them did.
fn replication(results: &StudyResults, reading: &Reading, needed: f64, repeats: bool) -> (f64, String) {
    let multiplier = reading.holm_new.unwrap_or(1.0);
    let fresh = replication_games(needed, multiplier);
    let level = if multiplier > 1.0 {
        format!(
            ", at one-sided {:.5}: 2.5% over {multiplier:.0}, the factor Holm's correction would give it as one more \
             reading of its family",
            0.025 / multiplier
        )
    } else {
        String::new()
    };
    let trend = if reading.rungs.starts_with("every rated rung") {
        " and a fresh cross-play to rate them (the price counts the rungs' cells alone; the runner replicates level \
         tests, not yet trends)"
    } else {
        ""
    };
    let cells = cells_words(&reading.cells);
    let spent = spent_books(results, &reading.cells);
    let openings = match (spent.is_empty(), repeats) {
        (true, false) => String::new(),
        (true, true) => " from openings none of its games played".to_string(),
        (false, _) => format!(
            " on variants of its rules that open with more plies (a variant's own `opening`, filed with it), since its \
             games have played every opening of the book ({}) and \
             more of them would repeat games already read",
            spent.join("; ")
        ),
    };
    let kind = if repeats { "independent" } else { "fresh" };
    (
        fresh,
        format!(
            "a replication, filed as an amendment, of {fresh:.0} {kind} games{cells}{openings}{trend} (power 0.8 at the \
             measured effect{level})"
        ),
    )
}

/// The books of `cells`' variants that have run out, each as "VARIANT: N openings": a book settles for
/// fewer openings than a cell of its variant asked for (a cell's own games take one opening each)
/// when its candidates run out, and games past it repeat its openings. (A book holds only what its
/// cells have asked so far: one that has not run out grows with them.)
fn spent_books(results: &StudyResults, cells: &[String]) -> Vec<String> {
    cells
        .iter()
        .filter_map(|id| {
            let variant = &results.cells.iter().find(|c| &c.id == id)?.variant;
            let book = results.books.iter().find(|b| &b.variant == variant && b.openings > 0)?;
            let asked = results.cells.iter().filter(|c| &c.variant == variant).map(|c| c.games).max()?;
            (asked as usize > book.openings).then(|| format!("{variant}: {} openings", book.openings))
        })
        .collect()
}

/// The CPU hours of growing each cell of `next` to its games, at the cell's own CPU seconds a game;
/// `None` where a cell is not there or kept no time.
fn growth_price(results: &StudyResults, next: &[(String, u32)]) -> Option<f64> {
    if next.is_empty() {
        return None;
    }
    let seconds: Option<f64> = next
        .iter()
        .map(|(id, games)| {
            let cell = results.cells.iter().find(|c| &c.id == id)?;
            let extra = games.saturating_sub(cell.games) as f64;
            cpu_per_game(cell.seconds, cell.games, results.threads).map(|s| s * extra)
        })
        .sum();
    seconds.map(|s| s / 3600.0)
}

/// The fresh games a replication needs per cell for power 0.8 at the effect that `needed` games would
/// detect at one-sided 2.5%, where the test must instead reach 2.5% / `multiplier`.
fn replication_games(needed: f64, multiplier: f64) -> f64 {
    let z = normal_quantile(1.0 - 0.025 / multiplier.max(1.0)) + (power_quantile() - Z95);
    (needed * (z / power_quantile()).powi(2)).ceil()
}

/// What would show a verdict that moves between rungs stable or a curve: the cross-play that would
/// tell the top rungs apart, or a rung above the top.
fn stability(results: &StudyResults, reading: &Reading) -> (String, Option<f64>) {
    // A compared rung read at a design's looks, short of its last: the next run plays its next look.
    if let Some(below) = reading.below.as_ref().filter(|b| !b.next.is_empty()) {
        let cells: Vec<String> = below.next.iter().map(|(id, _)| id.clone()).collect();
        let games = below.next.first().map_or(0, |(_, games)| *games);
        return (
            format!(
                "the compared rung's next look ({}): its cells ({}) grown to {games} games, which the sequential \
                 design plays on the next run",
                below.rung,
                cells.join(", ")
            ),
            growth_price(results, &below.next),
        );
    }
    if let Some(gap) = &reading.unseparated {
        let pair = results
            .pairs
            .iter()
            .find(|p| (p.a == gap.lower && p.b == gap.upper) || (p.a == gap.upper && p.b == gap.lower));
        let have = pair.map_or(0.0, |p| p.games as f64);
        // The other way: a rung above the top, which the cross-play must then tell apart from it.
        let (above, above_hours) = rung_above(results, &gap.upper, Some(&gap.lower));
        let hours =
            |h: Option<f64>| h.map_or("not priced".to_string(), |h| format!("about {h:.1} CPU hours"));
        let Some(needed) = games_to_separate(have, gap.elo, gap.low, gap.high) else {
            return (
                format!(
                    "{} and {} are not separated in rating ({:+.0} Elo [{:+.0}, {:+.0}]) and no number of cross-play \
                     games would separate them at that difference: {above} ({}, its own cells alone, before the \
                     cross-play that rates it)",
                    gap.lower,
                    gap.upper,
                    gap.elo,
                    gap.low,
                    gap.high,
                    hours(above_hours)
                ),
                above_hours,
            );
        };
        // The ratings' intervals narrow as every pair plays more: each pair grows alike.
        let extra = (needed - have).max(0.0);
        let seconds: Option<f64> = results
            .pairs
            .iter()
            .map(|p| {
                cpu_per_game(p.seconds, p.games, results.threads)
                    .or_else(|| mean_cost(results, &[p.a.as_str(), p.b.as_str()]))
                    .map(|s| s * extra)
            })
            .sum();
        let cross_play = seconds.map(|s| s / 3600.0);
        return (
            format!(
                "separating {} from {} in rating ({:+.0} Elo [{:+.0}, {:+.0}] after {have:.0} cross-play games a \
                 pair): about {needed:.0} games a pair at the measured difference (power 0.8), {extra:.0} more for \
                 each of the {} pairs ({}); or {above} ({}, its own cells alone, before the cross-play that rates \
                 it)",
                gap.lower,
                gap.upper,
                gap.elo,
                gap.low,
                gap.high,
                results.pairs.len(),
                hours(cross_play),
                hours(above_hours),
            ),
            cheaper(cross_play, above_hours),
        );
    }
    // Separated rungs that read differently: a rung above the top says which way the claim goes.
    rung_above(results, &reading.rungs, reading.below.as_ref().map(|b| b.rung.as_str()))
}

/// A rung above `top`, priced from the ladder's last step (`below` to `top`): its cells at the top's
/// games, each game costing the top's CPU per game times the step's ratio.
fn rung_above(results: &StudyResults, top: &str, below: Option<&str>) -> (String, Option<f64>) {
    let top_cells: Vec<&super::aggregate::CellSummary> =
        results.cells.iter().filter(|c| c.skill == top).collect();
    let step = below.and_then(|b| Some(mean_cost(results, &[top])? / mean_cost(results, &[b])?));
    let price = step.and_then(|step| {
        top_cells
            .iter()
            .map(|c| cpu_per_game(c.seconds, c.games, results.threads).map(|s| s * step * c.games as f64))
            .sum::<Option<f64>>()
            .map(|s| s / 3600.0)
    });
    let step_text = match (below, step) {
        (Some(below), Some(s)) => {
            format!(", at the ladder's last step ({below} to {top}: {s:.1}× the CPU per game)")
        }
        _ => String::new(),
    };
    (
        format!(
            "a rung above {top}, separated from it in rating: the verdict is stable if it reads as {top} does, and \
             depends on skill if the measure keeps moving; its {} cells at {top}'s games{step_text}",
            top_cells.len()
        ),
        price,
    )
}

/// The cheaper of two prices, either of which may be unknown.
fn cheaper(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Games per pair that would separate two rungs whose rating difference reads `elo` [`low`, `high`]
/// (95%) after `games`, with power 0.8 at the measured difference; `None` where the difference is 0
/// or the record holds no games of the pair.
pub fn games_to_separate(games: f64, elo: f64, low: f64, high: f64) -> Option<f64> {
    let se = (high - low) / (2.0 * Z95);
    (elo.abs() > 0.0 && se > 0.0 && games > 0.0).then(|| games * (power_quantile() * se / elo.abs()).powi(2))
}

/// CPU seconds per game of a cell that took `seconds` of wall time on `threads` for `games`; `None`
/// where its time was not recorded.
fn cpu_per_game(seconds: f64, games: u32, threads: usize) -> Option<f64> {
    (seconds > 0.0 && games > 0).then(|| seconds * threads.max(1) as f64 / games as f64)
}

/// The mean CPU seconds per game of the rungs' own cells (their self-play), where recorded.
fn mean_cost(results: &StudyResults, rungs: &[&str]) -> Option<f64> {
    let costs: Vec<f64> = results
        .cells
        .iter()
        .filter(|c| rungs.contains(&c.skill.as_str()))
        .filter_map(|c| cpu_per_game(c.seconds, c.games, results.threads))
        .collect();
    (!costs.is_empty()).then(|| costs.iter().sum::<f64>() / costs.len() as f64)
}

/// The CPU hours of `extra` more games in each of `cells`; `None` where a cell's time is unknown.
fn price(results: &StudyResults, cells: &[String], extra: f64) -> Option<f64> {
    if cells.is_empty() {
        return None;
    }
    let seconds: Option<f64> = cells
        .iter()
        .map(|id| {
            let cell = results.cells.iter().find(|c| &c.id == id)?;
            cpu_per_game(cell.seconds, cell.games, results.threads).map(|s| s * extra)
        })
        .sum();
    seconds.map(|s| s / 3600.0)
}

/// Each rung's games and CPU hours over its own cells, and the cross-play's; the hours are `None`
/// where a cell's time was not recorded.
pub fn rung_times(results: &StudyResults) -> Vec<(String, u32, Option<f64>)> {
    let mut rows: Vec<(String, u32, Option<f64>)> = Vec::new();
    for skill in &results.skills {
        let cells: Vec<_> = results.cells.iter().filter(|c| c.skill == skill.label).collect();
        let games = cells.iter().map(|c| c.games).sum();
        let hours = cells.iter().map(|c| recorded_hours(c.seconds, results.threads)).sum::<Option<f64>>();
        rows.push((skill.label.clone(), games, hours));
    }
    if !results.pairs.is_empty() {
        let games = results.pairs.iter().map(|p| p.games).sum();
        let hours =
            results.pairs.iter().map(|p| recorded_hours(p.seconds, results.threads)).sum::<Option<f64>>();
        rows.push(("cross-play".to_string(), games, hours));
    }
    rows
}

/// One look of a study's sequential designs: the games it added and what they cost.
#[derive(Clone, Debug, PartialEq)]
pub struct LookTime {
    /// The look's multiple of each cell's planned games.
    pub multiple: f64,
    /// The games this look added to every cell and cross-play pair.
    pub games: u32,
    /// Their CPU hours, where some cell of the look recorded its time, and the games whose cell
    /// recorded none.
    pub hours: Option<f64>,
    pub untimed: u32,
}

/// Each look's games and CPU hours. Look k adds to every cell (a rung playing itself, or a pair of
/// the cross-play) the games between the previous look's multiple of its planned games and this
/// look's: a cell at twice its planned games has played looks 1 and 2. A cell records its time as
/// one total, so each look's games are priced at their cell's mean CPU seconds a game. A study with
/// no design has one look; games past the last look's multiple count in the last.
pub fn look_times(results: &StudyResults) -> Vec<LookTime> {
    let multiples = if results.looks.is_empty() { vec![1.0] } else { results.looks.clone() };
    let mut looks: Vec<LookTime> =
        multiples.iter().map(|&multiple| LookTime { multiple, games: 0, hours: None, untimed: 0 }).collect();
    let planned_of = |skill: &str| results.skills.iter().find(|s| s.label == skill).map(|s| s.games);
    let cells = results.cells.iter().map(|c| (c.games, c.seconds, planned_of(&c.skill)));
    let pairs = results.pairs.iter().map(|p| (p.games, p.seconds, results.pair_games_planned));
    for (games, seconds, planned) in cells.chain(pairs) {
        let per_game = cpu_per_game(seconds, games, results.threads);
        let mut before = 0;
        for (k, look) in looks.iter_mut().enumerate() {
            let last = k + 1 == multiples.len();
            let upto = match planned {
                Some(planned) if !last => ((planned as f64 * look.multiple).round() as u32).min(games),
                // A cell whose planned games are not recorded counts whole in the first look.
                None if k > 0 => before,
                _ => games,
            };
            let added = upto.saturating_sub(before);
            look.games += added;
            match per_game {
                Some(s) => *look.hours.get_or_insert(0.0) += s * added as f64 / 3600.0,
                None => look.untimed += added,
            }
            before = upto.max(before);
        }
    }
    looks
}

fn recorded_hours(seconds: f64, threads: usize) -> Option<f64> {
    (seconds > 0.0).then(|| seconds * threads.max(1) as f64 / 3600.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_to_separate_scale_with_the_interval_squared() {
        // +32 Elo [-43, +108] after 80 games: se = 38.5, so (2.80 × 38.5 / 32)² × 80 ≈ 910.
        let needed = games_to_separate(80.0, 32.0, -43.0, 108.0).unwrap();
        assert!((needed - 910.0).abs() < 1.0, "{needed}");
        // Twice the difference needs a quarter of the games.
        let half = games_to_separate(80.0, 64.0, -11.0, 140.0).unwrap();
        assert!((half - needed / 4.0).abs() < 1.0, "{half}");
        // A pair just separated at 95% is found only half the time (power 0.5): power 0.8 needs a
        // few more games; one far apart needs fewer than were played.
        let just = games_to_separate(80.0, 104.0, 30.0, 178.0).unwrap();
        assert!((80.0..90.0).contains(&just), "{just}");
        assert!(games_to_separate(80.0, 200.0, 126.0, 274.0).unwrap() < 30.0);
        // No difference, or no games: no number of games separates them.
        assert_eq!(games_to_separate(80.0, 0.0, -40.0, 40.0), None);
        assert_eq!(games_to_separate(0.0, 30.0, -40.0, 100.0), None);
    }

    /// A design played to its last look says that more games need a replication of fresh games, sized
    /// for the level Holm leaves it, and a filed one that it plays next; one short of its last look says
    /// that its next look plays; a reading Holm demotes says so, with both p values.
    #[test]
    fn more_games_say_where_the_design_stands_and_what_holm_did() {
        use crate::lab::claims::Reading;
        use crate::lab::study::EvidenceKind;
        let record = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/studies/quick/results.json");
        let results: StudyResults = serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
        let mut reading =
            Reading::new(EvidenceKind::Network, "net".into(), "m".into(), Verdict::Contradicted);
        reading.adjusted = Verdict::Inconclusive;
        (reading.p_value, reading.p_table) = (Some(0.013), Some(0.051));
        (reading.games, reading.to_decide) = (Some(3200.0), Some(3857.0));
        reading.holm_new = Some(14.0);
        reading.look = Some("look 4 of 4 (8× the planned games): decided".into());
        let (text, _) = more_games(&results, &reading);
        assert!(text.contains("says contradicted (p = 0.013)") && text.contains("p = 0.051 after"), "{text}");
        // 3857 games at one-sided 2.5% are 6931 fresh ones at 2.5% / 14: (Φ⁻¹(1 − 0.025 / 14) +
        // Φ⁻¹(0.8))² / 2.8016² × 3857 (Python's statistics.NormalDist).
        assert!(text.contains("read its last look undecided (3200 games per cell)"), "{text}");
        assert!(text.contains("replication, filed as an amendment, of 6931 fresh games"), "{text}");
        assert!(text.contains("at one-sided 0.00179: 2.5% over 14"), "{text}");
        // A cell played past its book (which settled for fewer openings) needs longer openings.
        reading.cells = vec!["general-first@net-16".into()];
        assert!(!more_games(&results, &reading).0.contains("more plies"));
        let mut short = results.clone();
        short.books[0].openings = 100;
        let (text, _) = more_games(&short, &reading);
        assert!(
            text.contains("open with more plies") && text.contains("the book (general-first: 100 openings)"),
            "{text}"
        );
        // A replication whose games repeat the games it replicates prices independent games.
        let mut repeated = reading.clone();
        (repeated.to_decide, repeated.fresh_to_decide) = (None, Some(3857.0));
        repeated.look =
            Some("replication at one-sided 0.00178, look 4 of 4: the last look, undecided".into());
        let (text, hours) = more_games(&results, &repeated);
        assert!(text.contains("its replication has played 3200 games per cell, and they repeat"), "{text}");
        assert!(text.contains("of 6931 independent games"), "{text}");
        assert!(hours.is_some());
        // Filed and not yet played, the replication is what the next run plays.
        reading.replication = Some([1750, 7000]);
        let cell = results.cells.iter().find(|c| c.id == "general-first@net-16").unwrap();
        reading.next = vec![(cell.id.clone(), cell.games + 1750)];
        let (text, hours) = more_games(&results, &reading);
        assert!(text.contains("plays its first look on the next run"), "{text}");
        assert!(
            text.contains("1750 fresh games in its cell (general-first@net-16)")
                && text.contains("of at most 7000 at its last look"),
            "{text}"
        );
        // Priced at the cell's own CPU time a game, for the games it still has to play.
        let expected = cell.seconds * results.threads as f64 / cell.games as f64 * 1750.0 / 3600.0;
        assert!(hours.is_some_and(|h| (h - expected).abs() < 1e-9), "{hours:?} against {expected}");
        reading.next.clear();
        reading.replication = None;
        reading.look =
            Some("look 2 of 4 (2× the planned games): undecided; the next look is still to play".into());
        (reading.raw, reading.adjusted) = (Verdict::Inconclusive, Verdict::Inconclusive);
        let (text, _) = more_games(&results, &reading);
        assert!(
            !text.contains("last look") && !text.contains("Holm") && text.contains("next look"),
            "{text}"
        );
    }

    /// Top rungs the ratings do not tell apart are settled by more cross-play or by a rung above the
    /// top: both are priced (the rung from the ladder's last step), and the claim costs the cheaper.
    #[test]
    fn unseparated_top_rungs_price_the_cross_play_and_a_rung_above() {
        use crate::lab::claims::{Gap, Reading};
        use crate::lab::study::EvidenceKind;
        let record = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/studies/quick/results.json");
        let mut results: StudyResults =
            serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
        results.threads = 1;
        // net-64 costs 1 CPU second a game and net-256 4: the ladder's last step is 4×.
        for cell in &mut results.cells {
            cell.seconds = match cell.skill.as_str() {
                "net-64" => cell.games as f64,
                "net-256" => 4.0 * cell.games as f64,
                _ => 0.5 * cell.games as f64,
            };
        }
        let top_games: f64 =
            results.cells.iter().filter(|c| c.skill == "net-256").map(|c| c.games as f64).sum();
        let rung_hours = top_games * 16.0 / 3600.0;
        let mut reading =
            Reading::new(EvidenceKind::Network, "net-256".into(), "m".into(), Verdict::Supported);
        reading.unseparated =
            Some(Gap { lower: "net-64".into(), upper: "net-256".into(), elo: 30.0, low: -40.0, high: 100.0 });
        let pair_games = results.pairs[0].games;
        // Cheap cross-play: each pair's games cost a hundredth of a second.
        for pair in &mut results.pairs {
            pair.seconds = 0.01 * pair.games as f64;
        }
        let (text, hours) = stability(&results, &reading);
        assert!(text.starts_with("separating net-64 from net-256 in rating"), "{text}");
        assert!(text.contains("a rung above net-256") && text.contains("net-64 to net-256: 4.0×"), "{text}");
        assert!(text.contains(&format!("about {rung_hours:.1} CPU hours, its own cells alone")), "{text}");
        let needed = games_to_separate(pair_games as f64, 30.0, -40.0, 100.0).unwrap();
        let cross_hours = results.pairs.len() as f64 * 0.01 * (needed - pair_games as f64) / 3600.0;
        assert!((hours.unwrap() - cross_hours).abs() < 1e-9, "{hours:?} against {cross_hours}");
        // Dear cross-play: the rung above is the cheaper way.
        for pair in &mut results.pairs {
            pair.seconds = 100.0 * pair.games as f64;
        }
        let (_, hours) = stability(&results, &reading);
        assert!((hours.unwrap() - rung_hours).abs() < 1e-9, "{hours:?} against {rung_hours}");
        // No difference to detect: only the rung above is priced.
        reading.unseparated.as_mut().unwrap().elo = 0.0;
        let (text, hours) = stability(&results, &reading);
        assert!(
            text.contains("no number of cross-play games") && text.contains("a rung above net-256"),
            "{text}"
        );
        assert!((hours.unwrap() - rung_hours).abs() < 1e-9);
    }

    /// Each look adds the games between the previous look's multiple of a cell's planned games and
    /// its own, priced at the cell's mean; a cell not grown plays look 1 alone, and an untimed one is
    /// counted apart.
    #[test]
    fn each_look_counts_the_games_it_added_and_their_time() {
        let record = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/studies/quick/results.json");
        let mut results: StudyResults =
            serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
        (results.threads, results.looks, results.pair_games_planned) = (1, vec![1.0, 2.0, 4.0], None);
        results.pairs.clear();
        let planned = results.skills[0].games;
        results.cells.truncate(2);
        results.cells[1].skill = results.skills[0].label.clone();
        // The first cell grew to its third look at 1 CPU second a game; the second kept no time.
        (results.cells[0].games, results.cells[0].seconds) = (4 * planned, 4.0 * planned as f64);
        (results.cells[1].games, results.cells[1].seconds) = (planned, 0.0);
        let looks = look_times(&results);
        let games: Vec<u32> = looks.iter().map(|l| l.games).collect();
        assert_eq!(games, [2 * planned, planned, 2 * planned]);
        let seconds: Vec<f64> = looks.iter().map(|l| l.hours.unwrap() * 3600.0).collect();
        let expected = [planned as f64, planned as f64, 2.0 * planned as f64];
        assert!(seconds.iter().zip(expected).all(|(a, b)| (a - b).abs() < 1e-6), "{seconds:?}");
        assert_eq!(looks.iter().map(|l| l.untimed).collect::<Vec<_>>(), [planned, 0, 0]);
        // Without a design, one look holds every game.
        results.looks.clear();
        let one = look_times(&results);
        assert_eq!((one.len(), one[0].games, one[0].untimed), (1, 5 * planned, planned));
    }

    #[test]
    fn a_cell_without_recorded_time_is_not_priced() {
        assert_eq!(cpu_per_game(0.0, 400, 2), None);
        assert_eq!(cpu_per_game(100.0, 0, 2), None);
        assert_eq!(cpu_per_game(100.0, 400, 2), Some(0.5));
    }

    /// A claim no ladder reads and whose exact reading could not be made says what that reading
    /// lacks (here, a table not built), not that nothing measures it.
    #[test]
    fn an_exact_reading_not_made_says_what_it_lacks() {
        use crate::lab::claims::Reading;
        use crate::lab::study::EvidenceKind;
        let record = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/studies/quick/results.json");
        let results: StudyResults = serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
        let mut claim = results.claims[0].clone();
        claim.verdict = Verdict::Inconclusive;
        claim.evidence = None;
        let lacking = "no figure in this record: only the tablebases measure it; build them";
        claim.readings = vec![Reading::new(
            EvidenceKind::Exact,
            "the tables".into(),
            lacking.into(),
            Verdict::Inconclusive,
        )];
        assert_eq!(settle(&results, &claim).needs, lacking);
        claim.readings.clear();
        assert!(settle(&results, &claim).needs.starts_with("no evidence of this study reads it"));
    }
}
