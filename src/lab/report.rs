//! The study's output files: `report.md`, `results.json`, `games.jsonl` (every game, tagged with its
//! cell) and the SVG charts.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use anyhow::Context;
use serde::Serialize;

use super::charts;
use super::claims::show;
use super::runner::{Finished, StudyResults};
use super::store::write_atomic;
use crate::agents::GameRecord;

/// One line of the study's games.jsonl: the match record and the cell it belongs to.
#[derive(Serialize)]
struct StudyGame<'a> {
    cell: &'a str,
    #[serde(flatten)]
    record: &'a GameRecord,
}

/// Writes every output file into `out`.
pub fn write_all(out: &Path, finished: &Finished) -> anyhow::Result<()> {
    let results = &finished.results;
    write_atomic(&out.join("results.json"), (serde_json::to_string_pretty(results)? + "\n").as_bytes())?;
    let mut games = Vec::new();
    for cell in &finished.cells {
        for record in &cell.records {
            serde_json::to_writer(&mut games, &StudyGame { cell: &cell.cell.id, record })?;
            games.write_all(b"\n")?;
        }
    }
    write_atomic(&out.join("games.jsonl"), &games)?;
    let charts = charts::write(out, finished).context("drawing the charts")?;
    write_atomic(&out.join("report.md"), markdown(results, &charts).as_bytes())?;
    Ok(())
}

/// The report as Markdown.
pub fn markdown(r: &StudyResults, charts: &[String]) -> String {
    let mut md = String::new();
    let w = &mut md;
    let _ = writeln!(w, "# Balance study `{}`\n", r.name);
    if !r.description.is_empty() {
        let _ = writeln!(w, "{}\n", r.description.trim());
    }
    let _ = writeln!(w, "## Reproduce\n");
    let _ = writeln!(w, "```sh\n{}\n```\n", r.command);
    let _ = writeln!(w, "| | |\n| --- | --- |");
    let _ = writeln!(w, "| study file | `{}` (SHA-256 `{}`) |", r.file, r.study_sha256);
    let _ = writeln!(
        w,
        "| study seed | {} (each cell's seed derives from it and the cell's name; listed below) |",
        r.seed
    );
    let _ = writeln!(w, "| rebel-zero | {} (git `{}`) |", r.version, r.commit);
    let _ = writeln!(w, "| RULES.md | SHA-256 `{}` |", r.rules_sha256);
    let _ = writeln!(w, "| threads | {} (the games do not depend on it) |", r.threads);
    let _ = writeln!(
        w,
        "| time | {:.1} s of compute over all cells and solver runs; this invocation {:.1} s wall-clock |",
        r.compute_seconds, r.run_seconds
    );
    let _ = writeln!(
        w,
        "| verdicts | need ≥ {} games per variant at the top skill level, or a solver proof |\n",
        r.min_games
    );

    let _ = writeln!(w, "## Skill ladder\n\nEach agent plays itself; seats alternate game by game.\n");
    let _ = writeln!(w, "| skill | agent | games per variant |\n| --- | --- | ---: |");
    for s in &r.skills {
        let _ = writeln!(w, "| {} | `{}` | {} |", s.label, s.agent, s.games);
    }
    let _ = writeln!(w, "\n## Variants\n\n| variant | spec | sides |\n| --- | --- | --- |");
    for v in &r.variants {
        let _ = writeln!(w, "| {} | `{}` | {} / {} |", v.name, v.spec, v.sides[0], v.sides[1]);
    }

    let _ = writeln!(
        w,
        "\n## Results per variant and skill\n\nScore: win 1, draw ½, with its 95% Wilson interval. Draws are split \
         into repetition, cap and other (chess: stalemate, fifty moves, material). *first* is the side that moves \
         first. Lost: pieces each side lost per game.\n"
    );
    let _ = writeln!(
        w,
        "| variant | skill | games | wins side 0 / 1 | draws rep / cap / other | side 0 score | side 1 score | first mover score | plies mean ± sd | lost per game 0 / 1 |"
    );
    let _ = writeln!(w, "| --- | --- | ---: | ---: | ---: | --- | --- | --- | ---: | ---: |");
    for c in &r.cells {
        let _ = writeln!(
            w,
            "| {} | {} | {} | {} {} / {} {} | {} / {} / {} | {} {} | {} {} | {} {} | {:.1} ± {:.1} | {:.2} / {:.2} |",
            c.variant,
            c.skill,
            c.games,
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

    let _ = writeln!(
        w,
        "\n## How the games were won\n\nEach side's wins by the reason the game ended (RULES.md's outcomes).\n\n\
         | variant | skill | side 0 wins | side 1 wins |\n| --- | --- | --- | --- |"
    );
    for c in &r.cells {
        let reasons = |i: usize| {
            let list: Vec<String> =
                c.win_reasons[i].iter().map(|(reason, n)| format!("{reason} {n}")).collect();
            format!(
                "{} {}{}",
                c.sides[i],
                c.wins[i],
                if list.is_empty() { String::new() } else { format!(" ({})", list.join(", ")) }
            )
        };
        let _ = writeln!(w, "| {} | {} | {} | {} |", c.variant, c.skill, reasons(0), reasons(1));
    }

    if !r.comparisons.is_empty() {
        let _ = writeln!(
            w,
            "\n## Variant comparisons\n\nDifference of side 0's score (a − b) with Newcombe's hybrid score interval; \
             **significant** when the interval leaves out 0.\n"
        );
        let _ = writeln!(
            w,
            "| skill | a | b | side | difference | significant |\n| --- | --- | --- | --- | --- | --- |"
        );
        for c in &r.comparisons {
            let d = c.difference;
            let _ = writeln!(
                w,
                "| {} | {} | {} | {} | {:+.1} [{:+.1}, {:+.1}] points | {} |",
                c.skill,
                c.a,
                c.b,
                c.side,
                100.0 * d.estimate,
                100.0 * d.low,
                100.0 * d.high,
                if c.significant { "**yes**" } else { "no" }
            );
        }
    }

    if !r.solver.is_empty() {
        let _ = writeln!(
            w,
            "\n## Solver results\n\nThe MCTS-solver (decisive rollouts) on each variant's start position, with a \
             bounded budget. A proof's length bounds the game from above under the winner's strategy.\n"
        );
        let _ = writeln!(
            w,
            "| variant | spec | result | simulations | seconds |\n| --- | --- | --- | ---: | ---: |"
        );
        for s in &r.solver {
            let result = match (&s.proven, s.plies) {
                (Some(wn), Some(p)) if wn == "draw" => format!("**proven draw** (depth {p} plies)"),
                (Some(wn), Some(p)) => format!("**proven {wn} win** in at most {p} plies"),
                _ => format!("not proven within {} simulations", s.budget),
            };
            let _ = writeln!(
                w,
                "| {} | `{}` | {} | {} | {:.1} |",
                s.variant, s.spec, result, s.simulations, s.seconds
            );
        }
    }

    if !r.claims.is_empty() {
        let _ = writeln!(w, "\n## Claims\n");
        let _ = writeln!(w, "| id | who | claim | test (defined before the data) | measurement | verdict |");
        let _ = writeln!(w, "| --- | --- | --- | --- | --- | --- |");
        for c in &r.claims {
            let definition =
                if c.definition.is_empty() { String::new() } else { format!("{} — ", c.definition.trim()) };
            let _ = writeln!(
                w,
                "| {} | {} | {} | {definition}{} | {} | **{}** |",
                c.id,
                cell_text(&c.who),
                cell_text(&c.quote),
                cell_text(&c.test),
                cell_text(&c.measurement),
                c.verdict.as_str()
            );
        }
    }

    if !charts.is_empty() {
        let _ = writeln!(w, "\n## Charts\n");
        for chart in charts {
            let _ = writeln!(w, "![{chart}]({chart})\n");
        }
    }

    let _ = writeln!(
        w,
        "\n## Cells\n\n| cell | spec | agent | seed | seconds |\n| --- | --- | --- | ---: | ---: |"
    );
    for c in &r.cells {
        let _ = writeln!(w, "| {} | `{}` | `{}` | {} | {:.1} |", c.id, c.spec, c.agent, c.seed, c.seconds);
    }
    let _ = writeln!(
        w,
        "\nEvery game is in `games.jsonl` (one JSON object per game, with its cell); all numbers are in `results.json`."
    );
    md
}

fn cell_text(text: &str) -> String {
    text.trim().replace('|', "\\|").replace('\n', " ")
}
