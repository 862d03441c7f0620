//! What the claims read: a study's games by cell, the rungs' cross-play and ratings, its exact values,
//! and which rungs stronger evidence shows wrong. The readings of each kind are `impl` blocks of
//! [`Evidence`] beside their rules ([`super::read`], [`super::trend`], [`super::exact`]).

use std::collections::BTreeMap;

use super::super::analysis::GameStats;
use super::super::ratings::Ratings;
use super::super::schedule::cell_id;
use super::super::store::{SolverResult, TableFigure};
use super::super::study::{ClaimTest, Ladder, LoadedStudy, Measure};

/// One cross-play cell's games: rung `a` (agent A, side `i % 2` in game `i`) against rung `b`.
pub struct PairGames<'a> {
    pub a: usize,
    pub b: usize,
    pub stats: &'a [GameStats],
}

/// What the claims read.
pub struct Evidence<'a> {
    pub study: &'a LoadedStudy,
    /// Every rung's own cell by id ([`cell_id`]): its games in the order played.
    pub cells: BTreeMap<String, &'a [GameStats]>,
    /// The rungs' cross-play.
    pub pairs: Vec<PairGames<'a>>,
    /// Exact values: the tablebase's or the MCTS-solver's, one per variant at most.
    pub solver: &'a [SolverResult],
    /// Claims' measures read from the tables over positions.
    pub figures: &'a [TableFigure],
    /// Each rung's measured rating, where the rungs played each other.
    pub ratings: Option<&'a Ratings>,
    /// For each rung, why stronger evidence shows it wrong, if it does: everywhere (`weak`: a rung of a
    /// stronger kind beats it), or on the variants a tablebase covers (`table_weak`, `covered`).
    pub weak: &'a [Option<String>],
    pub table_weak: &'a [Option<String>],
    pub covered: &'a [bool],
}

impl<'a> Evidence<'a> {
    /// The games of rung `skill`'s own cell on `variant`.
    pub fn games(&self, variant: usize, skill: usize) -> Option<&'a [GameStats]> {
        let id = cell_id(&self.study.study.variants[variant].name, &self.study.labels[skill]);
        self.cells.get(&id).copied()
    }

    /// Why the readings of rung `skill` on `test` are weak, if they are.
    pub(super) fn weakness(&self, skill: usize, test: &ClaimTest) -> Option<String> {
        let on_covered = test_variants(test)
            .iter()
            .any(|v| self.study.variant_index(v).is_some_and(|i| self.covered.get(i) == Some(&true)));
        let table = self.table_weak.get(skill).cloned().flatten().filter(|_| on_covered);
        self.weak.get(skill).cloned().flatten().or(table)
    }

    /// The games planned for rung `skill`'s cells.
    pub(super) fn planned(&self, skill: usize) -> f64 {
        self.study.study.skills[skill].games as f64
    }

    /// The rung a measure names on `ladder`: `top` its strongest, a label of its own, or `bottom`:
    /// the study's weakest rated rung (on whichever ladder; its ladder's first without ratings).
    pub(super) fn rung(&self, ladder: &Ladder, m: &Measure) -> Option<usize> {
        match (m.skill.as_deref(), self.ratings) {
            (Some("bottom"), Some(ratings)) => {
                let bottom = (0..ratings.len()).min_by(|&a, &b| ratings[a].elo.total_cmp(&ratings[b].elo))?;
                ladder.rungs.contains(&bottom).then_some(bottom)
            }
            (skill, _) => ladder.rung(skill, &self.study.labels),
        }
    }
}

/// The variants a claim's test reads.
fn test_variants(test: &ClaimTest) -> Vec<&str> {
    match test {
        ClaimTest::Threshold { measure, .. }
        | ClaimTest::Near { measure, .. }
        | ClaimTest::Trend { measure, .. } => {
            vec![measure.variant.as_str()]
        }
        ClaimTest::Compare { a, b, .. } | ClaimTest::CloserToHalf { a, b } => {
            vec![a.variant.as_str(), b.variant.as_str()]
        }
        ClaimTest::Solver { variant, .. } => vec![variant.as_str()],
        ClaimTest::WinsGained { a, b, .. } => vec![a.as_str(), b.as_str()],
    }
}
