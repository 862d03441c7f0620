//! One multiplicity family for the findings table. A study corrects its own claims' p values (Holm,
//! within each kind of evidence); the README shows every study's findings together, so there the
//! family is every reading of the table that shares a kind of evidence. [`table_rows`] is the one
//! choice of which study's claim a row shows; [`one_family`] corrects across those rows and reads
//! each claim's verdict again.

use super::claims::{ClaimResult, Verdict, reread_verdict};
use super::runner::StudyResults;
use super::stats::{ALPHA, holm, holm_factor_for_new};
use super::study::EvidenceKind;

/// The findings table's rows as (study, claim) indices, in the table's order: CLAIMS.md's claims
/// first (C1 < C2 < … < C16, letters after their number), then the lab's own; a claim several
/// studies read (the quick study's preliminary C1–C3) from the study that plays the most games a rung.
pub fn table_rows(studies: &[(String, StudyResults)]) -> Vec<(usize, usize)> {
    let most = |r: &StudyResults| r.skills.iter().map(|s| s.games).max().unwrap_or(0);
    let mut rows: Vec<(usize, usize, &str, u32)> = studies
        .iter()
        .enumerate()
        .flat_map(|(s, (_, r))| {
            r.claims.iter().enumerate().map(move |(c, claim)| (s, c, claim.id.as_str(), most(r)))
        })
        .collect();
    rows.sort_by(|a, b| claim_order(a.2).cmp(&claim_order(b.2)).then(b.3.cmp(&a.3)));
    rows.dedup_by(|later, kept| later.2 == kept.2);
    rows.into_iter().map(|(s, c, _, _)| (s, c)).collect()
}

/// C1 < C2 < … < C16 with letters after their number (C6 < C6-4 < C8 < C8b), then the lab's own
/// (V1, …) in the same way.
fn claim_order(id: &str) -> (bool, u32, String) {
    let digits: String = id.chars().skip(1).take_while(|c| c.is_ascii_digit()).collect();
    (!id.starts_with('C'), digits.parse().unwrap_or(u32::MAX), id.to_string())
}

/// Holm's correction across every reading of the table's rows on each kind of evidence
/// ([`correct_across`]). Claims the table does not show keep their study's family.
pub fn one_family(studies: &mut [(String, StudyResults)]) {
    let rows = table_rows(studies);
    let mut claims: Vec<&mut ClaimResult> = studies
        .iter_mut()
        .enumerate()
        .flat_map(|(s, (_, r))| r.claims.iter_mut().enumerate().map(move |(c, claim)| ((s, c), claim)))
        .filter(|(at, _)| rows.contains(at))
        .map(|(_, claim)| claim)
        .collect();
    correct_across(&mut claims);
}

/// Holm's correction across every reading of `claims` on each kind of evidence: sets each reading's
/// `p_table` and its adjusted verdict, and each claim's verdict again.
pub fn correct_across(claims: &mut [&mut ClaimResult]) {
    for kind in [EvidenceKind::Rollout, EvidenceKind::Network, EvidenceKind::Search, EvidenceKind::Exact] {
        let tested: Vec<(usize, usize, f64)> = claims
            .iter()
            .enumerate()
            .flat_map(|(c, claim)| claim.readings.iter().enumerate().map(move |(i, reading)| (c, i, reading)))
            .filter(|(_, _, reading)| reading.kind == kind)
            .filter_map(|(c, i, reading)| reading.p_value.map(|p| (c, i, p)))
            .collect();
        let ps: Vec<f64> = tested.iter().map(|t| t.2).collect();
        let (adjusted, factor) = (holm(&ps), holm_factor_for_new(&ps));
        for ((c, i, _), p) in tested.into_iter().zip(adjusted) {
            let reading = &mut claims[c].readings[i];
            reading.p_table = Some(p);
            reading.holm_new = Some(factor);
            reading.adjusted =
                if reading.raw.decisive() && p > ALPHA { Verdict::Inconclusive } else { reading.raw };
        }
    }
    for claim in claims.iter_mut() {
        reread_verdict(claim);
    }
}
