//! The study's output files: `report.md`, `results.json`, `games.jsonl` (every game, tagged with its
//! cell) and the SVG charts.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use anyhow::Context;

use super::charts;
use super::claims::{ClaimResult, show};
use super::runner::{Finished, StudyResults};
use super::stats::{Z95, wilson};
use super::study::{EvidenceKind, OpeningPolicy};
use crate::files::write_atomic;
use crate::game::GameRecord;

/// Writes every output file into `out`.
pub fn write_all(out: &Path, finished: &Finished) -> anyhow::Result<()> {
    let results = &finished.results;
    write_atomic(&out.join("results.json"), (serde_json::to_string_pretty(results)? + "\n").as_bytes())?;
    let mut games = Vec::new();
    for cell in &finished.cells {
        for record in &cell.records {
            let record = GameRecord { cell: Some(cell.cell.id.clone()), ..record.clone() };
            serde_json::to_writer(&mut games, &record)?;
            games.write_all(b"\n")?;
        }
    }
    write_atomic(&out.join("games.jsonl"), &games)?;
    let charts = charts::write(out, finished).context("drawing the charts")?;
    write_atomic(&out.join("report.md"), markdown(results, &charts).as_bytes())?;
    Ok(())
}

/// The report as Markdown: each section is written by a function of its own.
pub fn markdown(r: &StudyResults, charts: &[String]) -> String {
    let mut md = String::new();
    let sections: [fn(&mut String, &StudyResults); 9] = [
        header,
        reproduce,
        ladder,
        variants,
        exact_values,
        cell_results,
        wins_by_reason,
        comparisons,
        claims,
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
                "the first {} plies of every game (unless its variant says otherwise, below) {}, so that \
                 agents deterministic given the position play distinct games",
                r.opening,
                match r.opening_policy {
                    OpeningPolicy::Visits => {
                        "sampled in proportion to the moving agent's visit counts (its `open=`)"
                    }
                    OpeningPolicy::Uniform => "drawn uniformly among the moves that do not end it",
                }
            ),
        ),
        ("binary", format!("rebel-zero {} built from git `{}` by {}", r.version, r.commit, r.rustc)),
        ("RULES.md", format!("SHA-256 `{}`", r.rules_sha256)),
        ("threads", format!("{} (the games do not depend on it)", r.threads)),
        (
            "time",
            format!(
                "{:.1} s of compute over all cells and solver runs; this invocation {:.1} s wall-clock",
                r.compute_seconds, r.run_seconds
            ),
        ),
        (
            "verdicts",
            format!(
                "from the strongest evidence (exact > network ladder > rollout ladder); a verdict from data needs ≥ {} games at the ladder's top rung",
                r.min_games
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

fn ladder(w: &mut String, r: &StudyResults) {
    let _ = writeln!(
        w,
        "## Skill ladder\n\nEach rung plays itself, seats alternating. *Rating*: Bradley–Terry Elo from the rungs' \
         cross-play (the weakest rung at 0), 95% interval. *Tablebase*: the rung's games on the variants a \
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
        let agent = match &s.weights {
            Some((file, sha)) => format!("`{}` (`{file}`, SHA-256 `{sha}`)", s.agent),
            None => format!("`{}`", s.agent),
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
    cross_play(w, r);
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
        "### Cross-play\n\nOn `{}`, seats alternating; the score is the first rung's (95% Wilson interval).\n\n\
         | rung a | rung b | games | a's score |\n| --- | --- | ---: | --- |",
        first.spec
    );
    for p in &r.pairs {
        let score = wilson(p.points_a, p.games as f64, Z95);
        let _ = writeln!(
            w,
            "| {} | {} | {} | {:.1}% [{:.1}, {:.1}] |",
            p.a,
            p.b,
            p.games,
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
}

fn cell_results(w: &mut String, r: &StudyResults) {
    let _ = writeln!(
        w,
        "\n## Results per variant and skill\n\nScore: win 1, draw ½, with its 95% Wilson interval on the games' effective \
         number (games that repeat or share their opening count once: *independent*). Draws are split into \
         repetition, cap and other (chess: stalemate, fifty moves, material). *first* is the side that moves first. \
         Lost: pieces each side lost per game.\n"
    );
    let _ = writeln!(
        w,
        "| variant | skill | games | distinct | independent | wins side 0 / 1 | draws rep / cap / other | side 0 score | side 1 score | first mover score | plies mean ± sd | lost per game 0 / 1 |"
    );
    let _ = writeln!(w, "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | ---: | ---: |");
    for c in &r.cells {
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} | {:.0} | {} {} / {} {} | {} / {} / {} | {} {} | {} {} | {} {} | {:.1} ± {:.1} | {:.2} / {:.2} |",
            c.variant,
            c.skill,
            c.games,
            c.distinct,
            c.effective_n,
            c.sides[0],
            c.wins[0],
            c.sides[1],
            c.wins[1],
            c.draws_repetition,
            c.draws_cap,
            c.draws_other,
            c.sides[0],
            show(c.score[0]),
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
        "\n## Claims\n\nThe verdict comes from the strongest evidence that answered (exact > network ladder > \
         rollout ladder) and is given after Holm's correction across the claims read on that evidence; the \
         columns give every kind's verdict, raw and after the correction.\n"
    );
    let _ = writeln!(
        w,
        "| id | claim | verdict | from | exact | network ladder | rollout ladder |\n| --- | --- | --- | --- | --- | --- | --- |"
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
        let _ = writeln!(
            w,
            "| {} | {} | **{}** | {from} | {} | {} | {} |",
            c.id,
            cell_text(&c.quote),
            c.verdict.as_str(),
            column(EvidenceKind::Exact),
            column(EvidenceKind::Network),
            column(EvidenceKind::Rollout)
        );
    }
    for c in &r.claims {
        claim_detail(w, c);
    }
}

fn claim_detail(w: &mut String, c: &ClaimResult) {
    let who = if c.who.trim().is_empty() { String::new() } else { format!(" — {}", cell_text(&c.who)) };
    let _ = writeln!(w, "\n### {}{who}\n\n> {}\n", c.id, c.quote.trim());
    if !c.definition.is_empty() {
        let _ = writeln!(w, "- reading, fixed before the data: {}", c.definition.trim());
    }
    let _ = writeln!(
        w,
        "- test: {}\n- decision rule: {}\n- smallest effect the planned games detect (power 0.8, α 0.05): {}",
        c.test, c.rule, c.detectable
    );
    for x in &c.readings {
        let p = x.p_value.map_or(String::new(), |p| format!(", p = {p:.3}"));
        let _ = writeln!(
            w,
            "- **{}**: {} — {} (after Holm: {}{p})",
            x.kind.as_str(),
            x.measurement,
            x.raw.as_str(),
            x.adjusted.as_str()
        );
        if let Some(trend) = &x.trend {
            let _ = writeln!(w, "  - trend: {trend}");
        }
        if let Some(weak) = &x.weak {
            let _ = writeln!(w, "  - weak evidence: {weak}");
        }
    }
    let _ = writeln!(
        w,
        "- **verdict: {}**{}",
        c.verdict.as_str(),
        c.note.as_ref().map_or(String::new(), |n| format!(" ({n})"))
    );
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
