//! Each kind of claim test: the condition each verdict puts on the intervals, beside the words the report
//! prints for it, so the printed rule is the rule applied. A test also says whether the planned games
//! could reach every verdict it names (else an undecided reading is *underpowered*), and which
//! statistic a power statement is about.

use super::super::decide::{Side, Spread, beyond, inside, outside};
use super::super::stats::{Interval, Z95};
use super::super::study::{Direction, Op, TrendDirection};
use super::read::{Measured, Unit};

/// Qualifying games a conditional statistic needs.
pub const MIN_CONDITIONAL: u32 = 30;

/// A claim's test read on one set of cells.
pub struct Test<'a> {
    pub text: String,
    /// Whether a verdict's condition holds with every interval taken at normal quantile `z`.
    pub rule: Box<dyn Fn(Side, f64) -> bool + 'a>,
    /// How many one-sided tests the contradicted verdict stands for (any of K rungs: Bonferroni).
    pub contradict_tests: f64,
    /// The statistic a power statement is about: its standard error at the games read, and its unit.
    pub se: f64,
    pub unit: Unit,
    /// Games per cell behind the reading, and the share of them that are independent (games that
    /// repeat, from no opening, count once): more games of a cell that repeats add nothing.
    pub games: f64,
    pub independent: f64,
    /// Whether some of the games are a replication's repeats of the games it replicates (left out):
    /// more games of its book would repeat more of them.
    pub repeats: bool,
    /// Whether the planned games could reach every verdict the rule names.
    pub reachable: bool,
    /// A conditional statistic with fewer than [`MIN_CONDITIONAL`] qualifying games.
    pub insufficient: bool,
}

/// What each test kind needs besides its measures: the planned games per cell.
pub struct Plan {
    pub games: f64,
}

impl Plan {
    /// The standard error `m` would have at the planned games with its estimate at `at` (for
    /// proportions; other statistics scale their own).
    fn se(&self, m: &Measured, at: f64) -> f64 {
        let scale = if m.conditional || m.games <= 0.0 { 1.0 } else { m.games / self.games };
        match m.spread {
            Spread::Proportion { n, .. } => (at * (1.0 - at) / (n / scale).max(1.0)).sqrt(),
            Spread::Exact(_) => 0.0,
            _ => m.spread.se() * scale.sqrt(),
        }
    }
}

fn base<'a>(text: String, rule: Box<dyn Fn(Side, f64) -> bool + 'a>, measures: &[&Measured]) -> Test<'a> {
    Test {
        text,
        rule,
        contradict_tests: 1.0,
        se: 0.0,
        unit: measures[0].unit.clone(),
        games: measures.iter().map(|m| m.games).fold(f64::INFINITY, f64::min),
        independent: measures.iter().map(|m| m.independent()).fold(1.0, f64::min),
        repeats: measures.iter().any(|m| m.repeats > 0),
        reachable: true,
        insufficient: measures.iter().any(|m| m.conditional && m.qualifying < MIN_CONDITIONAL),
    }
}

/// `at_least` / `at_most` a value: at one rung, or at every rung given (`every`).
pub fn threshold<'a>(ms: &'a [Measured], op: Op, value: f64, plan: &Plan) -> Test<'a> {
    let at_least = op == Op::AtLeast;
    let rule = move |side: Side, z: f64| match side {
        Side::Support => ms.iter().all(|m| beyond(&m.spread, z, at_least, value)),
        Side::Contradict => ms.iter().any(|m| beyond_strictly(&m.spread, z, !at_least, value)),
    };
    let text = ms.iter().map(|m| m.text.clone()).collect::<Vec<_>>().join("; ");
    let mut test = base(text, Box::new(rule), &ms.iter().collect::<Vec<_>>());
    test.contradict_tests = ms.len() as f64;
    test.se = ms.iter().map(|m| m.spread.se()).fold(0.0, f64::max);
    test.reachable = ms.iter().all(|m| {
        let h = Z95 * plan.se(m, value);
        m.unit != Unit::Points || (value + h <= 1.0 && value - h >= 0.0)
    });
    test
}

/// The words of a threshold's rule.
pub fn threshold_words(op: Op, value: f64, every: bool) -> String {
    let (word, other) = if op == Op::AtLeast { ("≥", "below") } else { ("≤", "above") };
    if every {
        format!(
            "supported if the whole 95% interval is {word} {value} at every rung; contradicted if it lies wholly {other} {value} at any rung (Bonferroni over the rungs)"
        )
    } else {
        format!(
            "supported if the whole 95% interval is {word} {value}; contradicted if it lies wholly {other} it"
        )
    }
}

/// The interval lies wholly above (`above`) or below `value`, not touching it.
fn beyond_strictly(spread: &Spread, z: f64, above: bool, value: f64) -> bool {
    let i = spread.at(z);
    if above { i.low > value } else { i.high < value }
}

/// Within `target ± margin`.
pub fn near<'a>(m: &'a Measured, target: f64, margin: f64, plan: &Plan) -> Test<'a> {
    let (low, high) = (target - margin, target + margin);
    let rule = move |side: Side, z: f64| match side {
        Side::Support => inside(&m.spread, z, low, high),
        Side::Contradict => outside(&m.spread, z, low, high),
    };
    let mut test = base(m.text.clone(), Box::new(rule), &[m]);
    test.se = m.spread.se();
    let h = Z95 * plan.se(m, target);
    test.reachable = h < margin && (m.unit != Unit::Points || low - h > 0.0 || high + h < 1.0);
    test
}

pub fn near_words(target: f64, margin: f64) -> String {
    format!(
        "supported if the whole 95% interval lies within {target} ± {margin}; contradicted if it lies wholly below {} or wholly above {}",
        target - margin,
        target + margin
    )
}

/// The difference `a − b` of two measures.
/// The two measures' texts, said once where they are one text (two values of one table figure).
fn pair_text(a: &Measured, b: &Measured) -> String {
    if a.text == b.text { a.text.clone() } else { format!("{}; {}", a.text, b.text) }
}

pub fn compare<'a>(
    a: &'a Measured,
    b: &'a Measured,
    direction: Direction,
    margin: f64,
    plan: &Plan,
) -> Test<'a> {
    let difference = difference(&a.spread, &b.spread);
    let d = difference.interval();
    let scale = if a.unit == Unit::Points { 100.0 } else { 1.0 };
    let empty = |m: &Measured| m.qualifying == 0 && !m.spread.is_exact();
    let both = pair_text(a, b);
    let text = if empty(a) || empty(b) {
        format!("{both}; difference not measured (a side has no games)")
    } else if !(d.low.is_finite() && d.high.is_finite()) {
        format!("{both}; difference {:+.2} [no interval]", scale * d.estimate)
    } else if d.low == d.high {
        format!("{both}; difference {:+.2} (exact)", scale * d.estimate)
    } else {
        format!(
            "{both}; difference {:+.2} [{:+.2}, {:+.2}]",
            scale * d.estimate,
            scale * d.low,
            scale * d.high
        )
    };
    let within = move |z: f64| margin > 0.0 && inside(&difference, z, -margin, margin);
    let rule = move |side: Side, z: f64| {
        let i = difference.at(z);
        match (direction, side) {
            (Direction::Greater, Side::Support) => i.low > 0.0,
            (Direction::Greater, Side::Contradict) => i.high < 0.0 || within(z),
            (Direction::Less, Side::Support) => i.high < 0.0,
            (Direction::Less, Side::Contradict) => i.low > 0.0 || within(z),
            (Direction::Different, Side::Support) => i.low > 0.0 || i.high < 0.0,
            (Direction::Different, Side::Contradict) => within(z),
            (Direction::Equal, Side::Support) => within(z),
            (Direction::Equal, Side::Contradict) => outside(&difference, z, -margin, margin),
        }
    };
    let mut test = base(text, Box::new(rule), &[a, b]);
    test.se = difference.se();
    let hd = Z95 * (plan.se(a, 0.5).powi(2) + plan.se(b, 0.5).powi(2)).sqrt();
    test.reachable = match direction {
        Direction::Equal | Direction::Different => margin > 0.0 && hd < margin,
        Direction::Greater | Direction::Less => true,
    };
    test
}

pub fn compare_words(direction: Direction, margin: f64) -> String {
    let leaves_zero = "supported if the difference's 95% interval";
    match direction {
        Direction::Greater | Direction::Less => {
            let (way, other) =
                if direction == Direction::Greater { ("above", "below") } else { ("below", "above") };
            let practically =
                if margin > 0.0 { format!(" or lies wholly within ± {margin}") } else { String::new() };
            format!(
                "{leaves_zero} lies wholly {way} 0; contradicted if it lies wholly {other} 0{practically}"
            )
        }
        Direction::Different if margin > 0.0 => {
            format!("{leaves_zero} leaves out 0; contradicted if it lies wholly within ± {margin}")
        }
        Direction::Different => format!("{leaves_zero} leaves out 0; never contradicted (no margin given)"),
        Direction::Equal => {
            format!("{leaves_zero} lies wholly within ± {margin}; contradicted if it lies wholly outside it")
        }
    }
}

/// The difference of two statistics as one: Newcombe's for two proportions, Welch's t for two means
/// (Welch–Satterthwaite degrees of freedom), a point for two exact values.
pub fn difference(a: &Spread, b: &Spread) -> Spread {
    match (*a, *b) {
        (Spread::Proportion { successes: sa, n: na }, Spread::Proportion { successes: sb, n: nb }) => {
            Spread::Difference { a: (sa, na), b: (sb, nb) }
        }
        (Spread::Exact(x), Spread::Exact(y)) => Spread::Exact(x - y),
        _ => {
            let (sa, sb) = (a.se(), b.se());
            let df = |s: &Spread| match s {
                Spread::Mean { df, .. } => *df,
                _ => f64::INFINITY,
            };
            let (va, vb) = (sa * sa, sb * sb);
            let welch = (va + vb).powi(2) / (va * va / df(a) + vb * vb / df(b));
            let df = if welch.is_finite() && welch > 0.0 { welch } else { df(a).min(df(b)).max(1.0) };
            Spread::Mean { mean: a.estimate() - b.estimate(), se: (va + vb).sqrt(), df }
        }
    }
}

/// a's score closer to ½ than b's.
pub fn closer<'a>(a: &'a Measured, b: &'a Measured) -> Test<'a> {
    let far = |i: Interval| (i.low - 0.5).abs().max((i.high - 0.5).abs());
    let near = |i: Interval| {
        if i.low <= 0.5 && i.high >= 0.5 { 0.0 } else { (i.low - 0.5).abs().min((i.high - 0.5).abs()) }
    };
    let rule = move |side: Side, z: f64| {
        let (ia, ib) = (a.spread.at(z), b.spread.at(z));
        match side {
            Side::Support => far(ia) < near(ib),
            Side::Contradict => far(ib) < near(ia),
        }
    };
    let mut test = base(pair_text(a, b), Box::new(rule), &[a, b]);
    test.se = (a.spread.se().powi(2) + b.spread.se().powi(2)).sqrt();
    test
}

pub fn closer_words() -> String {
    "supported if every value of the first 95% interval is closer to 50% than every value of the second; contradicted the other way round".to_string()
}

/// A slope (points per 100 Elo) going `direction`, contradicted the other way or within ± margin.
pub fn trend<'a>(
    slope: &'a Spread,
    text: String,
    direction: TrendDirection,
    margin: f64,
    games: f64,
) -> Test<'a> {
    // The definition's own margin: "falls" is a slope below −margin, so the interval must lie wholly
    // below it to support and wholly above it to contradict (likewise above +margin for "rises").
    let rule = move |side: Side, z: f64| {
        let i = slope.at(z);
        match (direction, side) {
            (TrendDirection::Falls, Side::Support) => i.high < -margin,
            (TrendDirection::Falls, Side::Contradict) => i.low > -margin,
            (TrendDirection::Rises, Side::Support) => i.low > margin,
            (TrendDirection::Rises, Side::Contradict) => i.high < margin,
        }
    };
    let se = slope.se();
    Test {
        text,
        rule: Box::new(rule),
        contradict_tests: 1.0,
        se,
        unit: Unit::Of("points per 100 Elo".to_string()),
        games,
        independent: 1.0,
        repeats: false,
        // One bound splits the verdicts, so a precise enough slope reaches either side of it.
        reachable: true,
        insufficient: false,
    }
}

pub fn trend_words(direction: TrendDirection, margin: f64) -> String {
    let (way, other, bound) = if direction == TrendDirection::Falls {
        ("below", "above", -margin)
    } else {
        ("above", "below", margin)
    };
    format!(
        "supported if the slope's 95% interval against the rungs' ratings (a random effect per rung, widened by the lack of fit) lies wholly {way} {bound:+} points per 100 Elo, the definition's margin; contradicted if it lies wholly {other} it"
    )
}
