//! SVG charts: each side's score against the skill ladder with its 95% Wilson band, one line per
//! variant; the distribution of game lengths at the top skill level, one line per variant; and, for a
//! claim whose verdict depends on skill, its measures against the rungs' ratings.

use std::path::Path;

use plotters::prelude::*;

use super::claims::{ClaimResult, CurvePoint, Verdict};
use super::runner::Finished;

const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

type Drawn = Result<(), Box<dyn std::error::Error>>;

/// Draws the charts into `out`; returns their file names.
pub fn write(out: &Path, finished: &Finished) -> anyhow::Result<Vec<String>> {
    let mut names = Vec::new();
    for side in 0..2 {
        let name = format!("score-side{side}.svg");
        score_chart(&out.join(&name), finished, side).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        names.push(name);
    }
    let name = "length.svg".to_string();
    length_chart(&out.join(&name), finished).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    names.push(name);
    for claim in &finished.results.claims {
        let deciding = claim.readings.iter().find(|r| Some(r.kind) == claim.evidence);
        let Some(reading) = deciding.filter(|_| claim.verdict == Verdict::DependsOnSkill) else { continue };
        let name = format!("curve-{}.svg", claim.id);
        curve_chart(&out.join(&name), claim, &reading.curve).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        names.push(name);
    }
    Ok(names)
}

/// A claim's measures at each rung of its skill curve against the rungs' ratings, with their 95%
/// intervals as bars (and the rating's as a horizontal bar).
fn curve_chart(path: &Path, claim: &ClaimResult, curve: &[CurvePoint]) -> Drawn {
    let root = SVGBackend::new(path, (900, 540)).into_drawing_area();
    root.fill(&WHITE)?;
    let lowest = curve.iter().map(|p| p.rating.low).fold(f64::INFINITY, f64::min);
    let highest = curve.iter().map(|p| p.rating.high).fold(f64::NEG_INFINITY, f64::max);
    let pad = ((highest - lowest) * 0.05).max(10.0);
    let bottom = curve.iter().flat_map(|p| p.measures.iter().map(|m| m.1)).fold(0.0f64, f64::min);
    let top = curve.iter().flat_map(|p| p.measures.iter().map(|m| m.2)).fold(1.0f64, f64::max);
    let title = format!("{}: its measures by measured skill (95% intervals)", claim.id);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d((lowest - pad)..(highest + pad), bottom..top)?;
    chart.configure_mesh().x_desc("rating (Elo, the study's scale)").y_desc("the claim's measures").draw()?;
    let series = curve.first().map_or(0, |p| p.measures.len());
    for m in 0..series {
        let colour = COLOURS[m % COLOURS.len()];
        let line: Vec<(f64, f64)> = curve.iter().map(|p| (p.rating.elo, p.measures[m].0)).collect();
        let label = if series == 1 { "the measure".to_string() } else { format!("measure {}", m + 1) };
        chart
            .draw_series(LineSeries::new(line.clone(), colour.stroke_width(2)))?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
        for p in curve {
            let (estimate, low, high) = p.measures[m];
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(p.rating.elo, low), (p.rating.elo, high)],
                colour.stroke_width(1),
            )))?;
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(p.rating.low, estimate), (p.rating.high, estimate)],
                colour.mix(0.4),
            )))?;
        }
        chart.draw_series(line.into_iter().map(|p| Circle::new(p, 3, colour.filled())))?;
    }
    for p in curve {
        chart.draw_series(std::iter::once(Text::new(
            p.rung.clone(),
            (p.rating.elo, top - (top - bottom) * 0.04),
            ("sans-serif", 13),
        )))?;
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.85)).border_style(BLACK).draw()?;
    root.present()?;
    Ok(())
}

/// The label of the whole-numbered tick `x` (the `x`-th of `labels`), else nothing: a categorical axis
/// drawn on a continuous one.
pub(super) fn label_at_tick(x: f64, labels: &[String]) -> String {
    let i = x.round();
    if (x - i).abs() < 1e-6 && i >= 0.0 {
        labels.get(i as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

fn side_title(finished: &Finished, side: usize) -> String {
    let mut names: Vec<&str> = finished.results.variants.iter().map(|v| v.sides[side].as_str()).collect();
    names.dedup();
    names.join(" / ")
}

fn score_chart(path: &Path, finished: &Finished, side: usize) -> Drawn {
    let r = &finished.results;
    let skills = r.skills.len();
    let root = SVGBackend::new(path, (900, 540)).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!("{}: score of {} by skill (95% Wilson bands)", r.name, side_title(finished, side));
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.3f64..(skills as f64 - 0.7), 0f64..1f64)?;
    let labels: Vec<String> = r.skills.iter().map(|s| s.label.clone()).collect();
    chart
        .configure_mesh()
        .x_labels(skills)
        .x_label_formatter(&|x| label_at_tick(*x, &labels))
        .y_desc("score")
        .x_desc("skill")
        .draw()?;
    for (v, variant) in r.variants.iter().enumerate() {
        let colour = COLOURS[v % COLOURS.len()];
        let cells: Vec<_> = r.cells.iter().filter(|c| c.variant == variant.name).collect();
        let mut band: Vec<(f64, f64)> =
            cells.iter().enumerate().map(|(k, c)| (k as f64, c.score[side].high)).collect();
        band.extend(cells.iter().enumerate().rev().map(|(k, c)| (k as f64, c.score[side].low)));
        chart.draw_series(std::iter::once(Polygon::new(band, colour.mix(0.15))))?;
        let line: Vec<(f64, f64)> =
            cells.iter().enumerate().map(|(k, c)| (k as f64, c.score[side].estimate)).collect();
        chart
            .draw_series(LineSeries::new(line.clone(), colour.stroke_width(2)))?
            .label(variant.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
        chart.draw_series(line.into_iter().map(|p| Circle::new(p, 3, colour.filled())))?;
    }
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(-0.3, 0.5), (skills as f64 - 0.7, 0.5)],
        BLACK.mix(0.3),
    )))?;
    chart.configure_series_labels().background_style(WHITE.mix(0.85)).border_style(BLACK).draw()?;
    root.present()?;
    Ok(())
}

fn length_chart(path: &Path, finished: &Finished) -> Drawn {
    let r = &finished.results;
    let top = r.skills.len() - 1;
    let lengths: Vec<Vec<u32>> = r
        .variants
        .iter()
        .enumerate()
        .map(|(v, _)| finished.cells[v * r.skills.len() + top].stats.iter().map(|s| s.plies).collect())
        .collect();
    let max = lengths.iter().flatten().copied().max().unwrap_or(1).max(1);
    let bins = 30u32;
    let width = max.div_ceil(bins).max(1);
    let root = SVGBackend::new(path, (900, 540)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut shares: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut peak = 0.0f64;
    for games in &lengths {
        let mut counts = vec![0u32; (max / width + 1) as usize];
        for &p in games {
            counts[(p / width) as usize] += 1;
        }
        let n = games.len().max(1) as f64;
        let line: Vec<(f64, f64)> = counts
            .iter()
            .enumerate()
            .map(|(b, &c)| ((b as f64 + 0.5) * width as f64, c as f64 / n))
            .collect();
        peak = line.iter().map(|p| p.1).fold(peak, f64::max);
        shares.push(line);
    }
    let title = format!(
        "{}: game length at skill {} (share of games per {width}-ply bin)",
        r.name, r.skills[top].label
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..(max + width) as f64, 0f64..(peak * 1.1).max(0.01))?;
    chart.configure_mesh().x_desc("plies").y_desc("share of games").draw()?;
    for (v, line) in shares.into_iter().enumerate() {
        let colour = COLOURS[v % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(line, colour.stroke_width(2)))?
            .label(r.variants[v].name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2)));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.85)).border_style(BLACK).draw()?;
    root.present()?;
    Ok(())
}
