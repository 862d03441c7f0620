//! The study's output files: `report.md`, `results.json`, `games.jsonl` and its gzipped copy (every game, tagged with its
//! cell) and the SVG charts.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use anyhow::Context;

use super::charts;
use super::claims::{ClaimResult, show};
use super::runner::{Finished, StudyResults};
use super::stats::{Z95, wilson};
use super::study::EvidenceKind;
use crate::files::write_atomic;
use crate::game::GameRecord;

/// Writes every output file into `out`.
pub fn write_all(out: &Path, finished: &Finished) -> anyhow::Result<()> {
    let results = &finished.results;
    write_atomic(&out.join("results.json"), (serde_json::to_string_pretty(results)? + "\n").as_bytes())?;
    let mut games = Vec::new();
    for cell in finished.cells.iter() {
        for record in &cell.records {
            let record = GameRecord { cell: Some(cell.cell.id.clone()), ..record.clone() };
            serde_json::to_writer(&mut games, &record)?;
            games.write_all(b"\n")?;
        }
    }
    write_atomic(&out.join("games.jsonl"), &games)?;
    // The copy a committed study keeps (the plain file is too large): written here with the report, so
    // the two can never come from different runs. An existing copy that holds the same games is kept
    // as it is: another build's deflate may compress the same bytes differently.
    let zipped = out.join("games.jsonl.gz");
    if !holds(&zipped, &games) {
        let mut gzipped = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gzipped.write_all(&games)?;
        write_atomic(&zipped, &gzipped.finish()?)?;
    }
    let charts = charts::write(out, finished).context("drawing the charts")?;
    write_atomic(&out.join("report.md"), markdown(results, &charts).as_bytes())?;
    Ok(())
}

/// Whether the gzipped file at `path` holds exactly `bytes`.
fn holds(path: &Path, bytes: &[u8]) -> bool {
    use std::io::Read as _;
    let Ok(file) = std::fs::File::open(path) else { return false };
    let mut held = Vec::with_capacity(bytes.len());
    flate2::read::GzDecoder::new(file).read_to_end(&mut held).is_ok() && held == bytes
}

/// The report as Markdown: each section is written by a function of its own.
pub fn markdown(r: &StudyResults, charts: &[String]) -> String {
    let mut md = String::new();
    let sections: [fn(&mut String, &StudyResults); 14] = [
        header,
        reproduce,
        ladder,
        variants,
        openings,
        exact_values,
        cell_results,
        wins_by_reason,
        comparisons,
        claims,
        open_claims,
        time_per_rung,
        time_per_look,
        amendments,
    ];
    for section in sections {
        section(&mut md, r);
    }
    if !charts.is_empty() {
        let _ = writeln!(md, "\n## Charts\n");
        for chart in charts {
            let _ = writeln!(md, "![{chart}]({chart})\n");
        }
    }
    cells(&mut md, r);
    md
}

fn header(w: &mut String, r: &StudyResults) {
    let _ = writeln!(w, "# Balance study `{}`\n", r.name);
    if !r.description.is_empty() {
        let _ = writeln!(w, "{}\n", r.description.trim());
    }
}

fn reproduce(w: &mut String, r: &StudyResults) {
    let _ = writeln!(w, "## Reproduce\n\n```sh\n{}\n```\n\n| | |\n| --- | --- |", r.command);
    let rows = [
        ("study file", format!("`{}` (SHA-256 `{}`)", r.file, r.study_sha256)),
        (
            "study seed",
            format!("{} (each cell's seed derives from it and the cell's name; listed below)", r.seed),
        ),
        (
            "openings",
            format!(
                "the first {} plies of every game (unless its variant says otherwise, below) from the variant's \
                 book: drawn uniformly among the moves that do not end the game, admitted only if they keep the \
                 start's value (see Openings); in a rung's own cell each game has its own opening, in the \
                 cross-play each opening is played twice, each rung in each seat",
                r.opening
            ),
        ),
        (
            "games stopped at the cap",
            r.adjudication.clone().unwrap_or_else(|| {
                "unfinished: no judge decides them (the study names no [adjudication]), so no claim reads them"
                    .to_string()
            }),
        ),
        ("binary", format!("rebel-zero {} built from git `{}` by {}", r.version, r.commit, r.rustc)),
        (
            "read again",
            r.read_again.as_ref().map_or("no: the claims were read by the run that played the games".to_string(), |a| {
                format!(
                    "the claims were read again from these games, playing nothing, by `{}` (git `{}`, {})",
                    a.command, a.commit, a.rustc
                )
            }),
        ),
        ("rules reference", format!("docs/RULES.md, SHA-256 `{}`", r.rules_sha256)),
        (
            "machine",
            if r.machine.is_empty() { "not recorded (reports before 2026-11-28)".to_string() } else { r.machine.clone() },
        ),
        ("threads", format!("{} (the games do not depend on it)", r.threads)),
        (
            "time",
            format!(
                "{:.1} s of compute over all cells and solver runs{}; this invocation {:.1} s wall-clock, \
                 playing {} of {} cells (the others read from earlier runs)",
                r.compute_seconds,
                unlisted_seconds(r),
                r.run_seconds,
                r.played.len(),
                r.cells.len() + r.pairs.len()
            ),
        ),
        (
            "verdicts",
            format!(
                "from the strongest evidence (exact > network ladder > rollout ladder) not shown wrong by stronger \
                 evidence; p values corrected by Holm's method within each kind of evidence, the family being {}",
                if r.claims.iter().any(|c| c.readings.iter().any(|x| x.p_table.is_some())) {
                    "every reading of the findings table (docs/studies/README.md) on that kind; this study's own \
                     family is shown beside it"
                } else if r.claims.iter().all(|c| c.readings.iter().all(|x| x.p_value.is_none())) {
                    "none: no reading of this study carries a p value"
                } else {
                    "this study's claims read on that kind"
                }
            ),
        ),
    ];
    for (key, value) in rows {
        let _ = writeln!(w, "| {key} | {value} |");
    }
    // Variants described in files: which file, as it was when the games were played.
    for v in &r.variants {
        if let Some(sha) = &v.rules_file_sha256 {
            let _ = writeln!(w, "| rules of `{}` | `{}` (SHA-256 `{sha}`) |", v.name, v.spec);
        }
    }
    let _ = writeln!(w);
}

/// The part of the compute that no cell or solver run below lists, in words ("" where none): cells
/// restored from a record that kept their times in its total only (before 2026-11-28).
fn unlisted_seconds(r: &StudyResults) -> String {
    let listed: f64 = r.cells.iter().map(|c| c.seconds).sum::<f64>()
        + r.pairs.iter().map(|p| p.seconds).sum::<f64>()
        + r.solver.iter().map(|s| s.seconds).sum::<f64>();
    let unlisted = r.compute_seconds - listed;
    if unlisted < 0.05 {
        return String::new();
    }
    format!(
        " ({unlisted:.1} s of it in cells whose own time the record kept only in this total: those shown – under Cells)"
    )
}

fn ladder(w: &mut String, r: &StudyResults) {
    let _ = writeln!(
        w,
        "## Skill ladder\n\nEach rung plays itself, seats alternating. *Rating*: Bradley–Terry Elo from the rungs' \
         cross-play (the first rung listed at 0, each pair given one virtual draw, BayesElo's prior, so that a rung that won every game still rates finite), 95% interval. *Tablebase*: the rung's games on the variants a \
         table covers in which some move after the opening gave up a forced result. A rung shown wrong by \
         stronger evidence gives no verdict.\n"
    );
    let _ =
        writeln!(w, "| rung | evidence | agent | games per variant | rating | tablebase | shown wrong by |");
    let _ = writeln!(w, "| --- | --- | --- | ---: | --- | --- | --- |");
    for (i, (s, rung)) in r.skills.iter().zip(&r.rungs).enumerate() {
        let rating = rung.rating.map_or("–".to_string(), |x| {
            let below = (i > 0).then(|| r.rungs[i - 1].rating).flatten().filter(|b| b.elo >= x.elo);
            format!(
                "{:.0} [{:.0}, {:.0}]{}",
                x.elo,
                x.low,
                x.high,
                if below.is_some() { " (not stronger than the rung below)" } else { "" }
            )
        });
        let judged = if rung.judged > 0 {
            format!("{} of {} games", rung.erred, rung.judged)
        } else {
            "–".to_string()
        };
        let files: Vec<String> =
            s.weights.iter().map(|(file, sha)| format!("`{file}`, SHA-256 `{sha}`")).collect();
        let agent = if files.is_empty() {
            format!("`{}`", s.agent)
        } else {
            format!("`{}` ({})", s.agent, files.join("; "))
        };
        let _ = writeln!(
            w,
            "| {} | {} | {agent} | {} | {rating} | {judged} | {} |",
            s.label,
            rung.kind.as_str(),
            s.games,
            shown_wrong(rung)
        );
    }
    let _ = writeln!(w);
    outside_scale(w, r);
    cross_play(w, r);
}

/// The ratings on an outside scale, where rungs were anchored there.
fn outside_scale(w: &mut String, r: &StudyResults) {
    let Some(o) = &r.offset else { return };
    let _ = writeln!(
        w,
        "### On {}
",
        o.scale
    );
    let anchors: Vec<String> = o
        .anchors
        .iter()
        .zip(&o.each)
        .map(|(a, each)| {
            format!(
                "{} at {:.0} [{:.0}, {:.0}] in {} games (offset {each:+.0}; `{}`)",
                a.rung, a.elo, a.low, a.high, a.games, a.command
            )
        })
        .collect();
    let agreement = o.agreement.map_or(String::new(), |(q, p)| {
        let verdict = if p < 0.05 {
            "they disagree: the scale does not map onto the study's by one offset, so read each rung from its own anchor"
        } else {
            "they agree within their errors"
        };
        format!(" Cochran's Q = {q:.1} on {} degrees of freedom, p = {p:.3}: {verdict}.", o.anchors.len() - 1)
    });
    let _ = writeln!(
        w,
        "Anchored: {}. The study's ratings plus {:+.0} [{:+.0}, {:+.0}] (the anchors' offsets weighted by their precision) \
         put the rungs that were not anchored on that scale; an anchored rung keeps its own measurement.{agreement}\n",
        anchors.join("; "),
        o.elo,
        o.low,
        o.high
    );
    let _ = writeln!(w, "| rung | study rating | on that scale | from |");
    let _ = writeln!(w, "| --- | ---: | ---: | --- |");
    for (s, rung) in r.skills.iter().zip(&r.rungs) {
        let Some(x) = rung.rating else { continue };
        let (at, low, high, from) = match o.anchors.iter().find(|a| a.rung == s.label) {
            Some(a) => (a.elo, a.low, a.high, "its own anchor"),
            None => {
                // The rating's error and the offset's add in quadrature (the offset also carries the
                // first rung's, which every rating shares: a slight overstatement of the width).
                let half = (x.high - x.low).hypot(o.high - o.low) / 2.0;
                let at = x.elo + o.elo;
                (at, at - half, at + half, "the offset")
            }
        };
        let _ = writeln!(w, "| {} | {:.0} | {at:.0} [{low:.0}, {high:.0}] | {from} |", s.label, x.elo);
    }
    let _ = writeln!(w);
}

/// What shows a rung wrong: a stronger rung (for every variant), the tablebase (for its variants).
fn shown_wrong(rung: &super::runner::RungInfo) -> String {
    match (&rung.weak, &rung.table_weak) {
        (None, None) => "–".to_string(),
        (Some(beaten), None) => beaten.clone(),
        (None, Some(table)) => format!("{table} (on the variants it covers)"),
        (Some(beaten), Some(table)) => format!("{beaten}; {table} (on the variants it covers)"),
    }
}

/// The games the ratings come from: every pair of rungs, seats alternating.
fn cross_play(w: &mut String, r: &StudyResults) {
    let Some(first) = r.pairs.first() else { return };
    let _ = writeln!(
        w,
        "### Cross-play\n\nOn `{}`, every pair of rungs plays the same openings, the book's first {}, each twice, \
         each rung in each seat; the score is the first rung's, its 95% Wilson interval on the games' worth of \
         evidence the pairs give (*effective*: the pair is the unit).\n\n| rung a | rung b | games | effective | a's \
         score |\n| --- | --- | ---: | ---: | --- |",
        first.spec,
        first.games.div_ceil(2)
    );
    for p in &r.pairs {
        let n = if p.effective > 0.0 { p.effective } else { p.games as f64 };
        let score = wilson(p.points_a / p.games.max(1) as f64 * n, n, Z95);
        let _ = writeln!(
            w,
            "| {} | {} | {} | {:.0} | {:.1}% [{:.1}, {:.1}] |",
            p.a,
            p.b,
            p.games,
            n,
            100.0 * score.estimate,
            100.0 * score.low,
            100.0 * score.high
        );
    }
    let _ = writeln!(w);
}

fn variants(w: &mut String, r: &StudyResults) {
    let _ =
        writeln!(w, "## Variants\n\n| variant | spec | sides | opening plies |\n| --- | --- | --- | ---: |");
    for v in &r.variants {
        let _ =
            writeln!(w, "| {} | `{}` | {} / {} | {} |", v.name, v.spec, v.sides[0], v.sides[1], v.opening);
    }
}

fn openings(w: &mut String, r: &StudyResults) {
    if r.books.is_empty() {
        return;
    }
    let _ = writeln!(
        w,
        "\n## Openings\n\nEach variant's book: openings drawn uniformly among the moves that do not end the game, \
         admitted only if they keep the start's value, and left out if they reach a position an earlier one \
         reached. Every game of a cell opens from the book (one opening per game in a rung's own cell, one per \
         pair of games in the cross-play).\n\n| variant | plies | admitted by | start | openings | candidates drawn | left out |\n\
         | --- | ---: | --- | --- | ---: | ---: | ---: |"
    );
    for b in &r.books {
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | {} | {} |",
            b.variant, b.plies, b.method, b.start, b.openings, b.tried, b.rejected
        );
    }
}

fn exact_values(w: &mut String, r: &StudyResults) {
    if r.solver.is_empty() {
        return;
    }
    let _ = writeln!(
        w,
        "\n## Exact values\n\nEach listed variant's start: read from its tablebase where the table file is \
         present, else searched by the MCTS-solver (decisive rollouts, a bounded budget; a proof's length \
         bounds the game from above), beside the scores the ladders' top rungs measured.\n"
    );
    let _ = writeln!(
        w,
        "| variant | spec | value of the start | top rungs' scores (side 0) | seconds |\n| --- | --- | --- | --- | ---: |"
    );
    for s in &r.solver {
        let tops: Vec<String> = r
            .cells
            .iter()
            .filter(|c| c.variant == s.variant && r.rungs.iter().any(|g| g.label == c.skill))
            .map(|c| format!("{} {}", c.skill, show(c.score[0])))
            .collect();
        let _ = writeln!(
            w,
            "| {} | `{}` | **{}** | {} | {:.1} |",
            s.variant,
            s.spec,
            s.describe(),
            tops.join("; "),
            s.seconds
        );
    }
    for s in r.solver.iter().filter(|s| !s.line.is_empty()) {
        let sides = r.variants.iter().find(|v| v.name == s.variant).map(|v| v.sides.clone());
        let name = |i: usize| sides.as_ref().map_or(i.to_string(), |n| n[i].clone());
        let marks: Vec<String> = s
            .line
            .iter()
            .map(|m| {
                let value = m
                    .winner
                    .map_or("a draw".to_string(), |w| format!("{} win in {}", name(w), m.plies.unwrap_or(0)));
                format!(
                    "ply {} ({} lost {}, {} lost {}): {value}",
                    m.ply,
                    name(0),
                    m.lost[0],
                    name(1),
                    m.lost[1]
                )
            })
            .collect();
        let _ = writeln!(
            w,
            "\nBest play on `{}` (each side's best move, the one taking the most pieces among equal ones), after each capture: {}.",
            s.variant,
            marks.join("; ")
        );
    }
}

fn cell_results(w: &mut String, r: &StudyResults) {
    let _ = writeln!(
        w,
        "\n## Results per variant and skill\n\nScore: win 1, draw ½, with its 95% Wilson interval on the games' effective \
         number (games that repeat or share their opening count once: *independent*). *openings*: distinct openings \
         (a game without one is its own); *by opening*: side 0's score with each opening counted once. Draws are \
         split into repetition and other (chess: stalemate, fifty moves, material). *unfinished*: games stopped at \
         the ply cap that no judge decided, with their share of the cell; this table scores them as draws, but no \
         claim reads them (each claim is read on the games that ended by the rules, and says how many it left \
         out). Where the study adjudicates capped games (see the header), the ones its judge decided count as \
         the judge's win or draw, and the column says how many. *first* is the side \
         that moves first. Lost: pieces each side lost per game. A cell may hold more games than planned where a \
         sequential claim grew it; each claim reads the games its design allows (see Claims).\n"
    );
    let _ = writeln!(
        w,
        "| variant | skill | games | distinct | openings | independent | wins side 0 / 1 | draws rep / other | unfinished | side 0 score | side 0 by opening | side 1 score | first mover score | plies mean ± sd | lost per game 0 / 1 |"
    );
    let _ = writeln!(
        w,
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- | --- | ---: | ---: |"
    );
    for c in &r.cells {
        let share = 100.0 * f64::from(c.draws_cap) / f64::from(c.games.max(1));
        let unfinished = match c.adjudicated {
            0 => format!("{} ({share:.1}%)", c.draws_cap),
            n => format!("{} ({share:.1}%); {n} adjudicated", c.draws_cap),
        };
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} | {:.0} | {} {} / {} {} | {} / {} | {} | {} {} | {:.1}% | {} {} | {} {} | {:.1} ± {:.1} | {:.2} / {:.2} |",
            c.variant,
            c.skill,
            c.games,
            c.distinct,
            c.openings,
            c.effective_n,
            c.sides[0],
            c.wins[0],
            c.sides[1],
            c.wins[1],
            c.draws_repetition,
            c.draws_other,
            unfinished,
            c.sides[0],
            show(c.score[0]),
            100.0 * c.by_opening[0],
            c.sides[1],
            show(c.score[1]),
            c.sides[c.first],
            show(c.first_score),
            c.plies_mean,
            c.plies_sd,
            c.lost_mean[0],
            c.lost_mean[1]
        );
    }
}

fn wins_by_reason(w: &mut String, r: &StudyResults) {
    let _ = writeln!(
        w,
        "\n## How the games were won\n\nEach side's wins by the reason the game ended (RULES.md's outcomes).\n\n\
         | variant | skill | side 0 wins | side 1 wins |\n| --- | --- | --- | --- |"
    );
    for c in &r.cells {
        let reasons = |i: usize| {
            let list: Vec<String> =
                c.win_reasons[i].iter().map(|(reason, n)| format!("{reason} {n}")).collect();
            let detail = if list.is_empty() { String::new() } else { format!(" ({})", list.join(", ")) };
            format!("{} {}{detail}", c.sides[i], c.wins[i])
        };
        let _ = writeln!(w, "| {} | {} | {} | {} |", c.variant, c.skill, reasons(0), reasons(1));
    }
}

fn comparisons(w: &mut String, r: &StudyResults) {
    if r.comparisons.is_empty() {
        return;
    }
    let _ = writeln!(
        w,
        "\n## Variant comparisons\n\nDifference of side 0's score (a − b) with Newcombe's hybrid score interval; \
         **significant** when the interval leaves out 0 (each comparison on its own, no correction for their number).\n"
    );
    let _ = writeln!(
        w,
        "| skill | a | b | side | difference | significant |\n| --- | --- | --- | --- | --- | --- |"
    );
    for c in &r.comparisons {
        let d = c.difference;
        let significant = if c.significant { "**yes**" } else { "no" };
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {:+.1} [{:+.1}, {:+.1}] points | {significant} |",
            c.skill,
            c.a,
            c.b,
            c.side,
            100.0 * d.estimate,
            100.0 * d.low,
            100.0 * d.high
        );
    }
}

fn claims(w: &mut String, r: &StudyResults) {
    if r.claims.is_empty() {
        return;
    }
    let _ = writeln!(
        w,
        "\n## Claims\n\nThe verdict comes from the strongest evidence that answered and is not shown wrong by \
         stronger evidence (exact > network ladder > rollout ladder), after Holm's correction across the claims read on that kind of evidence (the family: this study's claims, \
         or, where the studies were read together, every reading of the findings table). A reading whose outcome the \
         rules or the values fix whatever the data is *not informative* and decides nothing. A decisive verdict is \
         *not yet stable* where the rung it is compared with reads otherwise (the rung below the top, or, where the \
         ratings do not separate the two, the next rung down that they separate; under a sequential design it is \
         read at the same looks, and grows with them once the top has decided), or where another ladder's top \
         rung, rated within the deciding rung's interval or above it, reads otherwise. It *depends on skill* where, \
         instead, three or more rungs, each separated in rating from the next, show the claim's statistic moving one \
         way as the rating rises (its curve is charted). Games stopped at the ply cap \
         are unfinished: no claim reads them. A p value is twice the one-sided level of the rule's own test \
         (the test its 95% interval inverts; stagewise for a sequential design), so p < 0.05 exactly when the rule \
         holds. *Games to decide*: the games per cell a fixed design would need for the verdict the data lean to, \
         with power 0.8 at the measured effect, computed from the rule that decides. † marks a reading that is the \
         lab's own rather than the source's.\n"
    );
    // A column per kind of evidence the study has, strongest first.
    let mut kinds: Vec<EvidenceKind> =
        r.claims.iter().flat_map(|c| c.readings.iter().map(|x| x.kind)).collect();
    kinds.extend(r.rungs.iter().map(|g| g.kind));
    kinds.sort_by_key(|k| std::cmp::Reverse(*k));
    kinds.dedup();
    let names: Vec<&str> = kinds.iter().map(|k| k.as_str()).collect();
    let _ = writeln!(
        w,
        "| id | claim | verdict | from | {} |\n| --- | --- | --- | --- |{}",
        names.join(" | "),
        " --- |".repeat(kinds.len())
    );
    for c in &r.claims {
        let column = |kind: EvidenceKind| {
            c.readings.iter().find(|x| x.kind == kind).map_or("–".to_string(), |x| {
                let weak = if x.weak.is_some() { " (weak)" } else { "" };
                if x.raw == x.adjusted {
                    format!("{}{weak}", x.raw.as_str())
                } else {
                    format!("{} (raw: {}){weak}", x.adjusted.as_str(), x.raw.as_str())
                }
            })
        };
        let from = c.evidence.map_or("–", |k| k.as_str());
        let own = if c.lab_reading.is_some() { " †" } else { "" };
        let columns: Vec<String> = kinds.iter().map(|&k| column(k)).collect();
        let _ = writeln!(
            w,
            "| {}{own} | {} | **{}** | {from} | {} |",
            c.id,
            cell_text(&c.quote),
            c.verdict.as_str(),
            columns.join(" | ")
        );
    }
    let open = super::settle::open_claims(r);
    for c in &r.claims {
        claim_detail(w, c, open.iter().find(|o| o.claim == c.id).map(|o| (o, r)));
    }
}

/// Each claim this record leaves open, with what would settle it and its price against the budget.
fn open_claims(w: &mut String, r: &StudyResults) {
    let open = super::settle::open_claims(r);
    if open.is_empty() {
        return;
    }
    let budget = r
        .budget
        .map_or("no budget is stated (the study file's `budget = { cpu_hours = N }`)".to_string(), |b| {
            format!("the study file's budget is {:.1} CPU hours", b.cpu_hours)
        });
    let _ = writeln!(
        w,
        "\n## What the open claims would take\n\nEach claim whose verdict decides nothing, with what would decide \
         it, priced at the CPU time this study's own cells took per game (wall time × threads; a cell whose time was \
         not recorded leaves its price open). This record has spent {:.1} CPU hours; {budget}.\n\n\
         | claim | verdict | what would decide it | CPU hours | budget |\n| --- | --- | --- | ---: | --- |",
        super::settle::spent_cpu_hours(r)
    );
    for o in &open {
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {} |",
            o.claim,
            o.verdict.as_str(),
            cell_text(&o.needs),
            o.cpu_hours.map_or("–".to_string(), |h| format!("{h:.1}")),
            super::settle::against_budget(r, o.cpu_hours)
        );
    }
}

/// The CPU time of each rung's own cells and of the cross-play.
fn time_per_rung(w: &mut String, r: &StudyResults) {
    let rows = super::settle::rung_times(r);
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(
        w,
        "\n## Time per rung\n\nCPU hours (wall time × {} threads) of each rung's own cells, and of the cross-play; \
         – where a cell's time was not recorded (cells restored from a committed record before 2026-11-28 kept \
         none).\n\n| rung | games | CPU hours | CPU seconds a game |\n| --- | ---: | ---: | ---: |",
        r.threads
    );
    for (rung, games, hours) in rows {
        let per_game = hours
            .filter(|_| games > 0)
            .map_or("–".to_string(), |h| format!("{:.2}", h * 3600.0 / games as f64));
        let hours = hours.map_or("–".to_string(), |h| format!("{h:.2}"));
        let _ = writeln!(w, "| {rung} | {games} | {hours} | {per_game} |");
    }
}

/// The games and CPU time of each look of the study's sequential designs.
fn time_per_look(w: &mut String, r: &StudyResults) {
    let looks = super::settle::look_times(r);
    let design = if r.looks.is_empty() {
        "No claim of this study has a sequential design, so it has one look: every cell at its planned games."
            .to_string()
    } else {
        let multiples: Vec<String> = r.looks.iter().map(|m| format!("{m}×")).collect();
        format!(
            "The claims' sequential designs look at {} the planned games; each look adds to every cell and \
             cross-play pair the games up to its multiple of the cell's planned games (a cell not grown plays \
             look 1 alone).",
            multiples.join(", ")
        )
    };
    let _ = writeln!(
        w,
        "\n## Time per look\n\n{design} CPU hours are wall time × {} threads, each look's games priced at their \
         cell's mean CPU seconds a game (a cell records one total); games whose cell recorded no time are counted \
         apart.\n\n| look | games a cell | games | CPU hours | games without a recorded time |\n| ---: | ---: | ---: \
         | ---: | ---: |",
        r.threads
    );
    for (k, look) in looks.iter().enumerate() {
        let hours = look.hours.map_or("–".to_string(), |h| format!("{h:.2}"));
        let _ = writeln!(
            w,
            "| {} | {}× the planned | {} | {hours} | {} |",
            k + 1,
            look.multiple,
            look.games,
            look.untimed
        );
    }
}

fn claim_detail(w: &mut String, c: &ClaimResult, open: Option<(&super::settle::Open, &StudyResults)>) {
    let who = if c.who.trim().is_empty() { String::new() } else { format!(" — {}", cell_text(&c.who)) };
    let _ = writeln!(w, "\n### {}{who}\n\n> {}\n", c.id, c.quote.trim());
    if !c.definition.is_empty() {
        let fixed = if c.amendments.is_empty() { "fixed before the data" } else { "as amended (below)" };
        let _ = writeln!(w, "- reading, {fixed}: {}", c.definition.trim());
    }
    if let Some(own) = &c.lab_reading {
        let _ = writeln!(w, "- † the lab's own reading, not the source's: {}", own.trim());
    }
    let _ = writeln!(w, "- test: {}\n- decision rule: {}", c.test, c.rule);
    if let Some(design) = &c.sequential {
        let _ = writeln!(w, "- design: {design}");
    }
    for x in &c.readings {
        reading_detail(w, x);
    }
    for a in &c.amendments {
        let _ = writeln!(
            w,
            "- amended {}: {} (verdict before: {})",
            a.date,
            a.reason.trim(),
            a.before.as_deref().unwrap_or("not recorded")
        );
    }
    let _ = writeln!(
        w,
        "- **verdict: {}**{}",
        c.verdict.as_str(),
        c.note.as_ref().map_or(String::new(), |n| format!(" ({n})"))
    );
    if let Some((o, r)) = open {
        let price = o.cpu_hours.map_or(String::new(), |h| format!(", about {h:.1} CPU hours"));
        let budget = super::settle::against_budget(r, o.cpu_hours);
        let _ = writeln!(w, "- what would decide it: {}{price} ({budget})", o.needs);
    }
}

fn reading_detail(w: &mut String, x: &super::claims::Reading) {
    let p = x.p_value.map_or(String::new(), |p| format!(", p = {p:.3}"));
    let holm = match (x.p_holm, x.p_table) {
        (Some(study), Some(table)) => {
            let within =
                if x.raw.decisive() && study > super::stats::ALPHA { "inconclusive" } else { x.raw.as_str() };
            format!(
                "after Holm within this study: {within}, p = {study:.3}; across the findings table: {}, p = {table:.3}",
                x.adjusted.as_str()
            )
        }
        (Some(study), None) => format!("after Holm: {}, p = {study:.3}", x.adjusted.as_str()),
        _ => format!("after Holm: {}", x.adjusted.as_str()),
    };
    let _ = writeln!(
        w,
        "- **{}** ({}): {} — {}{p} ({holm})",
        x.kind.as_str(),
        x.rungs,
        x.measurement,
        x.raw.as_str()
    );
    if let Some(look) = &x.look {
        let _ = writeln!(w, "  - sequential: {look}");
    }
    let games = x.games.map(|g| match x.fresh_to_decide {
        Some(_) => {
            format!("{g:.0} games per cell played (those that repeat the games it replicates left out)")
        }
        None => format!("{g:.0} games per cell read"),
    });
    let decide = match (x.to_decide, x.fresh_to_decide, x.raw) {
        (Some(g), _, _) => Some(format!("{g:.0} games per cell would decide it at the measured effect (power 0.8)")),
        (None, Some(g), v) if !v.decisive() => Some(format!(
            "more of these games would not decide it (they repeat the games it replicates); {g:.0} independent games \
             per cell, from openings none of them played, would at the measured effect (power 0.8)"
        )),
        (None, _, v) if !v.decisive() && x.games.is_some() => {
            Some("more games would not decide it (they repeat one another, or the estimate sits on the rule's bound)".to_string())
        }
        _ => None,
    };
    let detect = x.detectable.as_ref().map(|d| format!("the smallest effect these games detect: {d}"));
    let power: Vec<String> = [games, decide, detect].into_iter().flatten().collect();
    if !power.is_empty() {
        let _ = writeln!(w, "  - power: {}", power.join("; "));
    }
    if let Some(rating) = &x.rating {
        let _ = writeln!(w, "  - rated {:.0} Elo [{:.0}, {:.0}]", rating.elo, rating.low, rating.high);
    }
    if let Some(below) = &x.below {
        let look = below.look.as_deref().map_or(String::new(), |look| format!(" ({look})"));
        let _ = writeln!(
            w,
            "  - compared with {} ({}): {} — {}{look}",
            below.rung,
            below.why,
            below.measurement,
            below.raw.as_str()
        );
    }
    if x.curve.len() >= 2 {
        let points: Vec<String> = x.curve.iter().map(curve_point).collect();
        let _ = writeln!(
            w,
            "  - down the ladder (each rung separated in rating from the next; planned games): {}",
            points.join(" → ")
        );
    }
    if let Some(trend) = &x.trend {
        let _ = writeln!(w, "  - trend: {trend}");
    }
    if let Some(weak) = &x.weak {
        let _ = writeln!(w, "  - weak evidence: {weak}");
    }
}

/// Every amendment of the study's claims, with the verdict before it.
fn amendments(w: &mut String, r: &StudyResults) {
    let all: Vec<(&str, &super::study::Amendment)> =
        r.claims.iter().flat_map(|c| c.amendments.iter().map(move |a| (c.id.as_str(), a))).collect();
    if all.is_empty() {
        return;
    }
    let _ = writeln!(
        w,
        "\n## Amendments\n\nChanges to a claim's reading, rule or evidence after the study had games, each with the \
         verdict before it (`rebel-zero balance --check` fails on a claim changed without one).\n\n\
         | date | claim | why | verdict before |\n| --- | --- | --- | --- |"
    );
    for (id, a) in all {
        let _ = writeln!(
            w,
            "| {} | {id} | {} | {} |",
            a.date,
            cell_text(&a.reason),
            a.before.as_deref().unwrap_or("not recorded")
        );
    }
}

fn cells(w: &mut String, r: &StudyResults) {
    let _ = writeln!(
        w,
        "\n## Cells\n\n| cell | spec | agent | seed | seconds |\n| --- | --- | --- | ---: | ---: |"
    );
    for c in &r.cells {
        let _ = writeln!(w, "| {} | `{}` | `{}` | {} | {:.1} |", c.id, c.spec, c.agent, c.seed, c.seconds);
    }
    for p in &r.pairs {
        let agents = p.agents.join("` against `");
        let _ = writeln!(w, "| {} | `{}` | `{agents}` | {} | – |", p.id, p.spec, p.seed);
    }
    let _ = writeln!(
        w,
        "\nEvery game is in `games.jsonl` (one JSON object per game, with its cell); all numbers are in `results.json`."
    );
}

fn cell_text(text: &str) -> String {
    text.trim().replace('|', "\\|").replace('\n', " ")
}

/// The findings of several studies as two Markdown tables: a short one (claim, verdict, the evidence
/// it came from, the study) for README's first screen, and the full one with the deciding reading's
/// numbers and the other kinds' verdicts. `studies` holds each study's folder name and results.
pub fn findings(studies: &[(String, StudyResults)]) -> (String, String) {
    let mut short = String::from(
        "| claim | the source says | verdict | from | study |\n| --- | --- | --- | --- | --- |\n",
    );
    let mut full = String::from(
        "| claim | the source says | verdict | from | the deciding reading | every reading (after Holm) |\n\
         | --- | --- | --- | --- | --- | --- |\n",
    );
    let rows: Vec<(&str, &ClaimResult)> = super::family::table_rows(studies)
        .into_iter()
        .map(|(s, c)| (studies[s].0.as_str(), &studies[s].1.claims[c]))
        .collect();
    for (dir, c) in rows {
        let own = if c.lab_reading.is_some() { " †" } else { "" };
        let from = c.evidence.map_or("–", |k| k.as_str());
        let quote = cell_text(&c.quote);
        let _ = writeln!(
            short,
            "| {}{own} | {quote} | **{}** | {from} | [{dir}](docs/studies/{dir}/report.md#{}) |",
            c.id,
            c.verdict.as_str(),
            anchor(c)
        );
        let deciding = c
            .readings
            .iter()
            .find(|x| Some(x.kind) == c.evidence && x.weak.is_none())
            .map_or("–".to_string(), |x| cell_text(&x.measurement));
        let every: Vec<String> = c
            .readings
            .iter()
            .map(|x| {
                let weak = if x.weak.is_some() { ", weak" } else { "" };
                format!("{} ({}): {}{weak}", x.kind.as_str(), cell_text(&x.rungs), x.adjusted.as_str())
            })
            .collect();
        let _ = writeln!(
            full,
            "| [{}{own}]({dir}/report.md#{}) | {quote} | **{}** | {from} | {deciding} | {} |",
            c.id,
            anchor(c),
            c.verdict.as_str(),
            every.join("; ")
        );
    }
    (short, full)
}

/// The studies under one folder as a Markdown table, every figure read from their reports: the study
/// file, the variants, the rungs with their planned games, the games played, the playing time (the
/// report's compute time: the wall-clock time of every cell and solver run, summed; a study resumed
/// over several runs has no one wall-clock time of its own) and the commit that played the last of it.
pub fn studies_table(studies: &[(String, StudyResults)]) -> String {
    let mut table = String::from(
        "| study | study file | variants | rungs (games planned per cell) | games | playing time | played by |\n\
         | --- | --- | --- | --- | ---: | ---: | --- |\n",
    );
    for (dir, r) in studies {
        let variants: Vec<&str> = r.variants.iter().map(|v| v.name.as_str()).collect();
        let rungs: Vec<String> = r.skills.iter().map(|s| format!("{} ({})", s.label, s.games)).collect();
        let games: u32 = r.cells.iter().map(|c| c.games).chain(r.pairs.iter().map(|p| p.games)).sum();
        let _ = writeln!(
            table,
            "| [{dir}]({dir}/report.md) | `{}` | {} | {} | {} | {} | `{}` |",
            r.file,
            variants.join(", "),
            rungs.join(", "),
            thousands(u64::from(games)),
            duration(r.compute_seconds),
            r.commit.chars().take(10).collect::<String>()
        );
    }
    table
}

/// What playing every study of `studies` again costs, from their records: the CPU hours of their cells
/// and solver runs (wall time × threads), on two cores, and on a cluster whose drivers play the cells
/// side by side, where no run is shorter than its longest cell.
pub fn rerun_cost(studies: &[(String, StudyResults)]) -> String {
    let cpu_hours: f64 = studies.iter().map(|(_, r)| super::settle::spent_cpu_hours(r)).sum();
    let games: u32 = studies
        .iter()
        .flat_map(|(_, r)| r.cells.iter().map(|c| c.games).chain(r.pairs.iter().map(|p| p.games)))
        .sum();
    let longest = studies
        .iter()
        .flat_map(|(dir, r)| {
            let cells = r.cells.iter().map(|c| (c.id.as_str(), c.seconds));
            cells
                .chain(r.pairs.iter().map(|p| (p.id.as_str(), p.seconds)))
                .map(move |(id, s)| (dir, id, s, r.threads))
        })
        .max_by(|a, b| a.2.total_cmp(&b.2));
    let bound = longest.map_or(String::new(), |(dir, id, seconds, threads)| {
        format!(
            ", and never less than its longest cell ({dir}'s `{id}`: {} on {threads} threads)",
            duration(seconds)
        )
    });
    format!(
        "**What a full re-run costs.** Playing every study of [docs/studies/](docs/studies/README.md) again ({} games) takes about {cpu_hours:.0} CPU \
         hours as their records measure them (each cell's and solver run's wall time × its threads): about {:.0} \
         hours on two cores. On a Ray cluster the drivers play the same cells side by side \
         ([docs/SCALE.md](docs/SCALE.md)): about {cpu_hours:.0}/n hours on n cores{bound}. The tablebases the \
         studies read are built apart (`rebel-zero solve`; each report says what its tables cost).",
        thousands(u64::from(games)),
        cpu_hours / 2.0
    )
}

/// 12,345
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// "1 h 30 min", "23 min 50 s", "42 s"
fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

/// The report's heading anchor of a claim's section (`### C12 — Sunday Times (1850s)`).
fn anchor(c: &ClaimResult) -> String {
    let heading =
        if c.who.trim().is_empty() { c.id.clone() } else { format!("{} — {}", c.id, c.who.trim()) };
    heading
        .to_lowercase()
        .chars()
        .filter_map(|ch| match ch {
            'a'..='z' | '0'..='9' | '-' | '_' => Some(ch),
            ' ' => Some('-'),
            _ if ch.is_alphanumeric() => Some(ch),
            _ => None,
        })
        .collect()
}

/// A rung of a skill curve in words: `net-32 (312 Elo) 69.6% [64.8, 74.0]: inconclusive`.
fn curve_point(p: &super::claims::CurvePoint) -> String {
    let values: Vec<String> = p
        .measures
        .iter()
        .map(|&(estimate, low, high)| {
            if p.shares {
                format!("{:.1}% [{:.1}, {:.1}]", 100.0 * estimate, 100.0 * low, 100.0 * high)
            } else {
                format!("{estimate:.2} [{low:.2}, {high:.2}]")
            }
        })
        .collect();
    format!("{} ({:.0} Elo) {}: {}", p.rung, p.rating.elo, values.join(" vs "), p.raw.as_str())
}
