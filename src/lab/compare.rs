//! Variant comparisons: at each skill level, the difference of side 0's score between every pair of
//! variants that share side names, with Newcombe's interval; significant when it leaves out 0.

use serde::{Deserialize, Serialize};

use super::aggregate::CellSummary;
use super::stats::{Interval, difference};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub skill: String,
    pub a: String,
    pub b: String,
    /// The side whose scores are compared (side 0: General, Russians, White).
    pub side: String,
    /// Score in a minus score in b.
    pub difference: Interval,
    pub significant: bool,
}

pub fn compare_variants(cells: &[CellSummary]) -> Vec<Comparison> {
    let mut out = Vec::new();
    for (i, a) in cells.iter().enumerate() {
        for b in &cells[i + 1..] {
            if a.skill != b.skill || a.variant == b.variant || a.sides != b.sides {
                continue;
            }
            let d = difference(a.score[0], b.score[0]);
            out.push(Comparison {
                skill: a.skill.clone(),
                a: a.variant.clone(),
                b: b.variant.clone(),
                side: a.sides[0].clone(),
                difference: d,
                significant: d.excludes(0.0),
            });
        }
    }
    out
}
