//! Amendments on the record. A claim's reading, rule and evidence are fixed before its games; once a
//! study has games, changing any of them is an amendment: the study file lists it (`[[amendments]]`:
//! the claim, the date, why), the run fills in the verdict the claim had in the report it replaces,
//! and every later report carries the list. A claim that changed with no amendment is refused, by the
//! run that would replace the report and by `balance --check` on a committed study.
//!
//! What a claim reads and how it decides is fingerprinted ([`super::study::Claim::print`]): its
//! definition, test, proof, sequential looks and lab-reading note; its quote and attribution are not
//! part of it.

use super::claims::ClaimResult;
use super::study::{Amendment, LoadedStudy};

fn same(a: &Amendment, b: &Amendment) -> bool {
    a.claim == b.claim && a.date == b.date && a.reason.trim() == b.reason.trim()
}

/// A claim changed since the report it would replace, with no amendment for it.
#[derive(Debug, thiserror::Error)]
#[error(
    "claim {claim} reads differently from the report in {report} (its reading, rule or evidence changed) and the study file records no amendment for it: add [[amendments]] claim = \"{claim}\", date = \"YYYY-MM-DD\", reason = \"…\" (the report will carry the verdict before it)"
)]
pub struct Unamended {
    pub claim: String,
    pub report: String,
}

/// Refuses a run that would replace a report in which a claim read otherwise (`previous`: that
/// report's claims), unless the study file files an amendment for it that the report does not yet
/// carry (checked before any game is played).
pub fn refuse_unamended(
    study: &LoadedStudy,
    previous: Option<&[ClaimResult]>,
    report: &str,
) -> Result<(), Unamended> {
    let Some(previous) = previous else { return Ok(()) };
    for claim in &study.study.claims {
        let Some(before) = previous.iter().find(|c| c.id == claim.id) else { continue };
        let changed = !before.print.is_empty() && before.print != claim.print();
        let amended = study
            .study
            .amendments
            .iter()
            .any(|a| a.claim == claim.id && !before.amendments.iter().any(|r| same(r, a)));
        if changed && !amended {
            return Err(Unamended { claim: claim.id.clone(), report: report.to_string() });
        }
    }
    Ok(())
}

/// Puts each claim's amendments on its result: those the previous report (`previous`: the claims of
/// the one this run replaces) recorded and the study file still files, and those the study file adds,
/// each new one with the verdict the claim had in the previous report.
pub fn record(study: &LoadedStudy, previous: Option<&[ClaimResult]>, claims: &mut [ClaimResult]) {
    for result in claims.iter_mut() {
        let before = previous.and_then(|p| p.iter().find(|c| c.id == result.id));
        let recorded: &[Amendment] = before.map_or(&[], |b| b.amendments.as_slice());
        let filed: Vec<&Amendment> = study.study.amendments.iter().filter(|a| a.claim == result.id).collect();
        let mut list: Vec<Amendment> = Vec::new();
        for amendment in filed {
            let mut amendment = recorded.iter().find(|r| same(r, amendment)).unwrap_or(amendment).clone();
            if amendment.before.is_none() {
                amendment.before = before.map(|b| b.verdict.as_str().to_string());
            }
            list.push(amendment);
        }
        list.sort_by(|a, b| a.date.cmp(&b.date));
        result.amendments = list;
    }
}

/// What `balance --check` finds wrong with a committed report's claims (`reported`) against its study
/// file: a claim that reads differently with no amendment, an amendment not yet applied, one taken off
/// the record.
pub fn check(study: &LoadedStudy, reported: &[ClaimResult]) -> Vec<String> {
    let mut problems = Vec::new();
    for claim in &study.study.claims {
        let print = claim.print();
        let Some(reported) = reported.iter().find(|c| c.id == claim.id) else {
            problems.push(format!(
                "claim {} is in the study file but not in the report: play the study again",
                claim.id
            ));
            continue;
        };
        let filed: Vec<&Amendment> = study.study.amendments.iter().filter(|a| a.claim == claim.id).collect();
        let pending: Vec<&&Amendment> =
            filed.iter().filter(|a| !reported.amendments.iter().any(|r| same(r, a))).collect();
        if reported.print != print {
            problems.push(if pending.is_empty() {
                format!(
                    "claim {} reads differently from its report (its reading, rule or evidence changed) with no amendment in the study file",
                    claim.id
                )
            } else {
                format!(
                    "claim {} was amended ({}) after its report: read it again (`rebel-zero balance --reread` on its folder) or play the study again",
                    claim.id, pending[0].date
                )
            });
        } else if let Some(a) = pending.first() {
            problems.push(format!(
                "claim {}: the amendment of {} is in the study file but not in the report: read it again (`rebel-zero balance --reread` on its folder) or play the study again",
                claim.id, a.date
            ));
        }
        for r in &reported.amendments {
            if !filed.iter().any(|a| same(a, r)) {
                problems.push(format!(
                    "claim {}: the amendment of {} on the report's record is missing from the study file",
                    claim.id, r.date
                ));
            }
        }
    }
    problems
}
