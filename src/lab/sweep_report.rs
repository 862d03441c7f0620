//! A sweep's report ([`super::sweep`]): report.md (the command, each setting's exact figures, where
//! the balance turns, the figures over positions, the tables), SVG charts (the frontier; plies, the
//! share of positions won and the margin along best play against the swept key) and sweep.json.

use std::path::Path;

use anyhow::Context;
use plotters::prelude::*;
use serde::Serialize;

use super::charts::label_at_tick;
use super::sweep::{SettingResult, SweepPlan};

/// What a report is made from.
#[derive(Serialize)]
pub struct SweepRecord<'a> {
    pub command: &'a str,
    pub version: &'a str,
    pub plan: &'a SweepPlan,
    /// Wall seconds of the run that finished the sweep (settings kept from earlier runs cost none).
    pub seconds: f64,
    pub results: &'a [SettingResult],
}

const GENERAL: RGBColor = RGBColor(214, 39, 40);
const REBELS: RGBColor = RGBColor(31, 119, 180);
const DRAW: RGBColor = RGBColor(127, 127, 127);
const SERIES: [RGBColor; 4] = [RGBColor(44, 160, 44), RGBColor(148, 103, 189), RGBColor(255, 127, 14), BLACK];

type Drawn = Result<(), Box<dyn std::error::Error>>;

/// A chart's file name and what draws it.
type Chart = (&'static str, fn(&Path, &Grid) -> Drawn);

/// Writes report.md, sweep.json and the charts into `out`.
pub fn write_report(out: &Path, record: &SweepRecord) -> anyhow::Result<()> {
    let json = serde_json::to_vec_pretty(record)?;
    crate::files::write_atomic(&out.join("sweep.json"), &json).context("cannot write sweep.json")?;
    let grid = Grid::of(record);
    let charts: [Chart; 4] = [
        ("frontier.svg", frontier_chart),
        ("plies.svg", plies_chart),
        ("won.svg", won_chart),
        ("margin.svg", margin_chart),
    ];
    for (name, draw) in charts {
        draw(&out.join(name), &grid).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    }
    crate::files::write_atomic(&out.join("report.md"), markdown(record, &grid).as_bytes())
        .context("cannot write report.md")?;
    Ok(())
}

/// The settings laid out by their keys: rows are the first key's values, columns the second's.
struct Grid<'a> {
    row_key: &'a str,
    rows: &'a [String],
    column_key: Option<&'a str>,
    columns: Vec<String>,
    results: &'a [SettingResult],
    title: String,
}

impl<'a> Grid<'a> {
    fn of(record: &'a SweepRecord) -> Grid<'a> {
        let keys = &record.plan.keys;
        let columns = keys.get(1).map_or_else(|| vec![String::new()], |k| k.values.clone());
        let names: Vec<&str> = keys.iter().map(|k| k.name.as_str()).collect();
        Grid {
            row_key: &keys[0].name,
            rows: &keys[0].values,
            column_key: keys.get(1).map(|k| k.name.as_str()),
            columns,
            results: record.results,
            title: format!("{} over {}", record.plan.spec, names.join(" × ")),
        }
    }

    fn at(&self, row: usize, column: usize) -> &SettingResult {
        &self.results[row * self.columns.len() + column]
    }

    fn series_label(&self, column: usize) -> String {
        match self.column_key {
            Some(key) => format!("{key}={}", self.columns[column]),
            None => "value".to_string(),
        }
    }
}

/// A setting's result in a few words: `rebels in 37`, `draw`.
fn result_words(r: &SettingResult) -> String {
    match (&r.value.winner, r.value.plies) {
        (Some(w), Some(p)) => format!("{w} in {p}"),
        _ => "draw".to_string(),
    }
}

fn colour_of(r: &SettingResult) -> RGBColor {
    match r.value.winner.as_deref() {
        Some("general") => GENERAL,
        Some(_) => REBELS,
        None => DRAW,
    }
}

/// The shares of a setting's positions (every level, both sides to move) won by the General, by the
/// Rebels, and drawn.
fn shares(r: &SettingResult) -> [f64; 3] {
    let total: u64 = r.levels.iter().map(|l| l.positions).sum();
    let sum = |f: fn(&super::sweep::LevelFigures) -> f64| {
        r.levels.iter().map(|l| f(l) * l.positions as f64).sum::<f64>() / total.max(1) as f64
    };
    [sum(|l| l.general_wins), sum(|l| l.rebels_win), sum(|l| l.drawn)]
}

fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn markdown(record: &SweepRecord, grid: &Grid) -> String {
    let plan = record.plan;
    let mut md = format!("# Sweep: {}\n\n", grid.title);
    let mut built: Vec<(&str, f64)> = Vec::new();
    for r in record.results.iter().filter(|r| r.table_built) {
        if !built.iter().any(|(key, _)| *key == r.table) {
            built.push((&r.table, r.table_seconds));
        }
    }
    let tables = record.results.iter().map(|r| &r.table).collect::<std::collections::BTreeSet<_>>().len();
    md += &format!(
        "Command: `{}`  \nrebel-zero {}; seed {}; {} positions drawn per Rebel count and side for the margins over positions.  \n\
         {} settings answered by {tables} tables, {} of them built by the sweep in {:.0} s in all (the others read from the cache \
         folder); the run that finished it took {:.0} s of wall time (settings found by earlier runs are kept, not measured again).\n\n",
        record.command,
        record.version,
        plan.seed,
        plan.samples,
        record.results.len(),
        built.len(),
        built.iter().map(|(_, s)| s).sum::<f64>(),
        record.seconds
    );
    md += "Every figure is exact, read from the tablebase of each setting's rules (built where missing, or read \
           from the cache), except the margins over positions, which are means over a seeded sample. A setting's \
           **margin for error** is the share of the mover's legal moves that keep what it can force: the winner's \
           along best play from the start (the winner's quickest win against the loser's longest defence; for a \
           draw, both sides' moves that keep it), and over the positions of each Rebel count that the side to move \
           wins. The game's ply cap and repetition rule are left out of the margins and counted in the result \
           \"with the cap\".\n\n";
    if plan.keys.iter().any(|k| k.name == "rebels") {
        let order = if plan.remove_order.is_empty() {
            "from the lowest rank up, each rank from file a (the farthest from the privy first)".to_string()
        } else {
            plan.remove_order.join(", ")
        };
        md += &format!("The key `rebels` takes the start's Rebels off in this order: {order}.\n\n");
    }
    md += "## The start's value\n\n";
    let keys: Vec<&str> = plan.keys.iter().map(|k| k.name.as_str()).collect();
    md += &format!(
        "| {} | Rebels at the start | moves first | value | plies | with the cap | winner's margin along best play: mean (least, moves) | positions won: General / Rebels / drawn | table |\n",
        keys.join(" | ")
    );
    md += &format!("|{}\n", " --- |".repeat(keys.len() + 8));
    for r in record.results {
        let values: Vec<&str> = r.values.iter().map(|(_, v)| v.as_str()).collect();
        let m = &r.along_best_play;
        let [g, rb, d] = shares(r);
        md += &format!(
            "| {} | {} | {} | {} | {} | {} ({}) | {:.3} ({:.3}, {}) | {} / {} / {} | {} |\n",
            values.join(" | "),
            r.rebels,
            r.first,
            r.value.winner.as_deref().map_or("draw".to_string(), |w| format!("{w} win")),
            r.value.plies.map_or("–".to_string(), |p| p.to_string()),
            r.value.within_cap,
            r.value.max_plies,
            m.mean,
            m.least,
            m.positions,
            percent(g),
            percent(rb),
            percent(d),
            if r.table_built { format!("built, {:.0} s", r.table_seconds) } else { "cached".to_string() }
        );
    }
    md += "\n## Where the balance turns\n\n";
    md += &frontier_text(grid);
    md += "\n![the frontier](frontier.svg)\n\n![plies to the result](plies.svg)\n\n![positions won](won.svg)\n\n![margin along best play](margin.svg)\n\n";
    md += &levels_text(record);
    md
}

/// The grid of results, and each column's turning points along the first key.
fn frontier_text(grid: &Grid) -> String {
    let mut md = String::new();
    let head: Vec<String> = (0..grid.columns.len()).map(|c| grid.series_label(c)).collect();
    md += &format!("| {} | {} |\n|{}\n", grid.row_key, head.join(" | "), " --- |".repeat(head.len() + 1));
    for (row, value) in grid.rows.iter().enumerate() {
        let cells: Vec<String> = (0..grid.columns.len()).map(|c| result_words(grid.at(row, c))).collect();
        md += &format!("| {value} | {} |\n", cells.join(" | "));
    }
    md += "\n";
    for column in 0..grid.columns.len() {
        let label = grid.series_label(column);
        let turns: Vec<String> = (1..grid.rows.len())
            .filter(|&row| grid.at(row - 1, column).value.winner != grid.at(row, column).value.winner)
            .map(|row| {
                format!(
                    "between {key}={} ({}) and {key}={} ({})",
                    grid.rows[row - 1],
                    result_words(grid.at(row - 1, column)),
                    grid.rows[row],
                    result_words(grid.at(row, column)),
                    key = grid.row_key
                )
            })
            .collect();
        let prefix = if grid.column_key.is_some() { format!("With {label}, the") } else { "The".to_string() };
        md += &match turns.as_slice() {
            [] => format!("- {prefix} winner is the same at every {}.\n", grid.row_key),
            _ => format!("- {prefix} winner changes {}.\n", turns.join("; ")),
        };
    }
    md
}

/// The figures over positions, once per table (settings that share a table share them).
fn levels_text(record: &SweepRecord) -> String {
    let mut md = "## Over positions, by Rebel count\n\n".to_string();
    md += "Shares of each level's positions (both sides to move) that each side wins, and each side's margin over \
           the positions it wins with the move: a mean over a seeded sample of them, or over every one where the level is \
           small (under four times the sample in slots) (\"–\" where it wins none).\n\n";
    let mut seen: Vec<&str> = Vec::new();
    for r in record.results {
        if seen.contains(&r.table.as_str()) {
            continue;
        }
        seen.push(&r.table);
        let settings: Vec<String> = record
            .results
            .iter()
            .filter(|o| o.table == r.table)
            .map(|o| o.values.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(","))
            .collect();
        md += &format!("### `{}`\n\nSettings: {}.\n\n", r.table, settings.join("; "));
        md += "| Rebels | positions | General wins | Rebels win | drawn | General's margin (positions) | Rebels' margin (positions) |\n";
        md += "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
        for l in &r.levels {
            let margin = |m: &crate::tablebase::Margin| match m.positions {
                0 => "–".to_string(),
                n => format!("{:.3} ({n})", m.mean),
            };
            md += &format!(
                "| {} | {} | {} | {} | {} | {} | {} |\n",
                l.rebels,
                l.positions,
                percent(l.general_wins),
                percent(l.rebels_win),
                percent(l.drawn),
                margin(&l.margins[0]),
                margin(&l.margins[1])
            );
        }
        md += "\n";
    }
    md
}

/// A chart over the first key's values, one line per column, a point coloured by the setting's winner.
fn line_chart(
    path: &Path,
    grid: &Grid,
    title: &str,
    y_desc: &str,
    y: impl Fn(&SettingResult) -> f64,
) -> Drawn {
    let rows = grid.rows.len();
    let points: Vec<Vec<(f64, f64, RGBColor)>> = (0..grid.columns.len())
        .map(|c| (0..rows).map(|r| (r as f64, y(grid.at(r, c)), colour_of(grid.at(r, c)))).collect())
        .collect();
    let top = points.iter().flatten().map(|p| p.1).fold(0.0, f64::max);
    let root = SVGBackend::new(path, (900, 540)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{}: {title}", grid.title), ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..(rows as f64 - 0.5), 0f64..(top * 1.1).max(1e-9))?;
    let labels = grid.rows;
    chart
        .configure_mesh()
        .x_labels(rows.min(30))
        .x_label_formatter(&|x| label_at_tick(*x, labels))
        .x_desc(grid.row_key)
        .y_desc(y_desc)
        .draw()?;
    for (c, line) in points.iter().enumerate() {
        let colour = SERIES[c % SERIES.len()];
        chart
            .draw_series(LineSeries::new(line.iter().map(|p| (p.0, p.1)), colour.stroke_width(2)))?
            .label(grid.series_label(c))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
        chart.draw_series(line.iter().map(|&(x, y, winner)| Circle::new((x, y), 6, winner.filled())))?;
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.85)).border_style(BLACK).draw()?;
    root.present()?;
    Ok(())
}

fn plies_chart(path: &Path, grid: &Grid) -> Drawn {
    let title = "plies to the result (points: red the General wins, blue the Rebels, grey a draw at 0)";
    line_chart(path, grid, title, "plies", |r| r.value.plies.unwrap_or(0) as f64)
}

fn won_chart(path: &Path, grid: &Grid) -> Drawn {
    line_chart(path, grid, "share of all positions the General wins", "share", |r| shares(r)[0])
}

fn margin_chart(path: &Path, grid: &Grid) -> Drawn {
    let title = "winner's margin for error along best play (mean share of moves that keep the result)";
    line_chart(path, grid, title, "share of moves", |r| r.along_best_play.mean)
}

/// The frontier: one cell per setting, coloured by the winner, with the plies to the result.
fn frontier_chart(path: &Path, grid: &Grid) -> Drawn {
    let (rows, columns) = (grid.rows.len(), grid.columns.len());
    let root = SVGBackend::new(path, (900, 540)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("{}: who wins (red the General, blue the Rebels, grey a draw)", grid.title),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(110)
        .build_cartesian_2d(0f64..rows as f64, 0f64..columns as f64)?;
    let (row_labels, column_labels) = (grid.rows, &grid.columns);
    let column_names: Vec<String> = (0..columns).map(|c| grid.series_label(c)).collect();
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(rows * 2 + 1)
        .y_labels(columns * 2 + 1)
        .x_label_formatter(&|x| label_at(*x, row_labels))
        .y_label_formatter(&|y| {
            if column_labels.len() > 1 { label_at(*y, &column_names) } else { String::new() }
        })
        .x_desc(grid.row_key)
        .draw()?;
    for row in 0..rows {
        for column in 0..columns {
            let r = grid.at(row, column);
            let (x, y) = (row as f64, column as f64);
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x + 0.04, y + 0.04), (x + 0.96, y + 0.96)],
                colour_of(r).mix(0.75).filled(),
            )))?;
            let text = r.value.plies.map_or("draw".to_string(), |p| format!("{p}"));
            chart.draw_series(std::iter::once(Text::new(
                text,
                (x + 0.4, y + 0.55),
                ("sans-serif", 16).into_font(),
            )))?;
        }
    }
    root.present()?;
    Ok(())
}

/// The label of the cell whose middle `x` is, else nothing.
fn label_at(x: f64, labels: &[String]) -> String {
    label_at_tick(x - 0.5, labels)
}
