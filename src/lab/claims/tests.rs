//! The verdict rules, and every claim test driven to each of its verdicts by synthetic games.

use super::*;
use crate::lab::stats::{Z95, score, wilson};
use crate::lab::study::Study;

fn i(estimate: f64, low: f64, high: f64) -> Interval {
    Interval { estimate, low, high }
}

#[test]
fn thresholds_need_the_whole_interval() {
    // 300 Rebel wins of 400: 75%, Wilson [70.5, 79.0].
    let rebels = score(300, 0, 400);
    assert!((rebels.low - 0.7053).abs() < 1e-3 && (rebels.high - 0.7900).abs() < 1e-3);
    assert_eq!(threshold_verdict(rebels, Op::AtLeast, 0.7), Verdict::Supported);
    assert_eq!(threshold_verdict(rebels, Op::AtLeast, 0.75), Verdict::Inconclusive);
    assert_eq!(threshold_verdict(rebels, Op::AtLeast, 0.8), Verdict::Contradicted);
    assert_eq!(threshold_verdict(rebels, Op::AtMost, 0.8), Verdict::Supported);
    assert_eq!(threshold_verdict(rebels, Op::AtMost, 0.7), Verdict::Contradicted);
}

#[test]
fn comparisons_read_the_difference_interval() {
    // 240/400 vs 200/400: 60% − 50% = +10 points, Newcombe [+3.1, +16.8]: significant.
    let d = difference(score(240, 0, 400), score(200, 0, 400));
    assert!((d.low - 0.0311).abs() < 1e-3 && (d.high - 0.1676).abs() < 1e-3, "{d:?}");
    assert_eq!(compare_verdict(d, Direction::Greater, 0.0), Verdict::Supported);
    assert_eq!(compare_verdict(d, Direction::Less, 0.0), Verdict::Contradicted);
    assert_eq!(compare_verdict(d, Direction::Different, 0.0), Verdict::Supported);
    assert_eq!(compare_verdict(d, Direction::Equal, 0.05), Verdict::Inconclusive);
    assert_eq!(compare_verdict(d, Direction::Equal, 0.2), Verdict::Supported);
    assert_eq!(compare_verdict(i(0.0, -0.01, 0.02), Direction::Greater, 0.05), Verdict::Contradicted);
    assert_eq!(compare_verdict(i(0.3, 0.1, 0.4), Direction::Equal, 0.05), Verdict::Contradicted);
}

#[test]
fn near_closer_to_half_and_trends() {
    assert_eq!(near_verdict(i(0.5, 0.46, 0.54), 0.5, 0.05), Verdict::Supported);
    assert_eq!(near_verdict(i(0.5, 0.44, 0.56), 0.5, 0.05), Verdict::Inconclusive);
    assert_eq!(near_verdict(i(0.7, 0.6, 0.8), 0.5, 0.05), Verdict::Contradicted);
    // a at 55% [50, 60] is within 10 points of ½; b at 80% [75, 85] is at least 25 away.
    assert_eq!(closer_verdict(i(0.55, 0.5, 0.6), i(0.8, 0.75, 0.85)), Verdict::Supported);
    assert_eq!(closer_verdict(i(0.8, 0.75, 0.85), i(0.55, 0.5, 0.6)), Verdict::Contradicted);
    assert_eq!(closer_verdict(i(0.6, 0.5, 0.7), i(0.3, 0.2, 0.4)), Verdict::Inconclusive);
    assert_eq!(closer_verdict(wilson(0.0, 0.0, Z95), i(0.9, 0.8, 1.0)), Verdict::Inconclusive);
    assert_eq!(trend_verdict(i(-2.0, -3.0, -1.0), TrendDirection::Falls, 0.5), Verdict::Supported);
    assert_eq!(trend_verdict(i(2.0, 1.0, 3.0), TrendDirection::Falls, 0.5), Verdict::Contradicted);
    assert_eq!(trend_verdict(i(0.0, -0.3, 0.3), TrendDirection::Falls, 0.5), Verdict::Contradicted);
    assert_eq!(trend_verdict(i(-0.5, -1.5, 0.5), TrendDirection::Falls, 0.5), Verdict::Inconclusive);
}

/// A synthetic game: the winner's side index (or a draw), the plies, the pieces each side lost.
fn game(n: usize, winner: Option<usize>, plies: u32, lost: [u32; 2]) -> GameStats {
    GameStats {
        winner,
        reason: if winner.is_some() { "captures" } else { "cap" }.to_string(),
        plies,
        first: 0,
        lost,
        early_lost: [0, 0],
        left: [1 - lost[0].min(1), 16 - lost[1]],
        features: Default::default(),
        game_key: n as u64,
        cluster: n as u64,
    }
}

/// `count` games with `wins[0]` General wins, `wins[1]` Rebel wins and the rest draws.
fn games(count: usize, wins: [usize; 2], plies: u32, lost: [u32; 2]) -> Vec<GameStats> {
    (0..count)
        .map(|n| {
            let winner = if n < wins[0] {
                Some(0)
            } else if n < wins[0] + wins[1] {
                Some(1)
            } else {
                None
            };
            game(n, winner, plies, lost)
        })
        .collect()
}

/// A study on sixteen-rebels variants with the given ladder and claims.
fn study(variants: &[&str], skills: &[(&str, u32)], claims: &str) -> LoadedStudy {
    let mut text = String::from("name = \"t\"\nseed = 1\nmin_games = 1\n");
    for v in variants {
        text += &format!("[[variants]]\nname = \"{v}\"\nspec = \"sixteen-rebels\"\n");
    }
    for (n, (agent, games)) in skills.iter().enumerate() {
        text += &format!("[[skills]]\nagent = \"{agent}\"\ngames = {games}\nlabel = \"r{n}\"\n");
    }
    text += claims;
    Study::from_text(&text).unwrap_or_else(|e| panic!("{e:#}"))
}

/// Judges the study's claims on `stats[variant][skill]`.
fn judged(
    study: &LoadedStudy,
    stats: &[Vec<Vec<GameStats>>],
    ratings: Option<&[Rating]>,
    weak: &[Option<String>],
) -> Vec<ClaimResult> {
    let stats = stats.iter().map(|v| v.iter().map(|s| s.as_slice()).collect()).collect();
    judge_all(&Evidence { study, stats, solver: &[], ratings, weak, table_weak: &[], covered: &[] })
}

fn verdict(study: &LoadedStudy, stats: &[Vec<Vec<GameStats>>]) -> Verdict {
    let weak = vec![None; study.labels.len()];
    judged(study, stats, None, &weak)[0].readings[0].raw
}

/// C6: the Rebels' score in games where they lost two or more is at least ½.
#[test]
fn c6_reaches_every_verdict() {
    let claim = "[[claims]]\nid = \"C6\"\nquote = \"q\"\ntest = { kind = \"threshold\", measure = { variant = \"a\", side = \"rebels\", given = { side = \"rebels\", lost_at_least = 2 } }, op = \"at_least\", value = 0.5 }\n";
    let s = study(&["a"], &[("mcts:sims=8", 400)], claim);
    let lost = [0, 4];
    assert_eq!(verdict(&s, &[vec![games(400, [100, 300], 40, lost)]]), Verdict::Supported);
    assert_eq!(verdict(&s, &[vec![games(400, [300, 100], 40, lost)]]), Verdict::Contradicted);
    assert_eq!(verdict(&s, &[vec![games(400, [200, 200], 40, lost)]]), Verdict::Inconclusive);
    // Only 20 games in which the Rebels lost two: too few to say.
    let mut few = games(380, [100, 280], 40, [0, 0]);
    few.extend(games(20, [0, 20], 40, lost).into_iter().map(|mut g| {
        g.cluster += 1000;
        g
    }));
    assert_eq!(verdict(&s, &[vec![few]]), Verdict::InsufficientData);
}

/// C8b: General wins are shorter with the apex (mean plies of General wins, a less than b).
#[test]
fn c8_reaches_every_verdict() {
    let claim = "[[claims]]\nid = \"C8b\"\nquote = \"q\"\ntest = { kind = \"compare\", a = { variant = \"a\", metric = \"plies\", given = { winner = \"general\" } }, b = { variant = \"b\", metric = \"plies\", given = { winner = \"general\" } }, direction = \"less\" }\n";
    let s = study(&["a", "b"], &[("mcts:sims=8", 400)], claim);
    let with_plies = |wins: usize, plies: &dyn Fn(usize) -> u32| {
        let mut g = games(400, [wins, 0], 0, [0, 0]);
        for (n, x) in g.iter_mut().enumerate() {
            x.plies = plies(n);
        }
        g
    };
    let short = with_plies(200, &|n| 20 + (n % 7) as u32);
    let long = with_plies(200, &|n| 60 + (n % 7) as u32);
    assert_eq!(verdict(&s, &[vec![short.clone()], vec![long.clone()]]), Verdict::Supported);
    assert_eq!(verdict(&s, &[vec![long.clone()], vec![short.clone()]]), Verdict::Contradicted);
    assert_eq!(verdict(&s, &[vec![short.clone()], vec![short.clone()]]), Verdict::Inconclusive);
    let rare = with_plies(12, &|n| 20 + (n % 7) as u32);
    assert_eq!(verdict(&s, &[vec![rare], vec![long]]), Verdict::InsufficientData);
}

/// C16: the first mover's score is equal in two variants within ±5 points; 400 games cannot show it.
#[test]
fn c16_reaches_every_verdict_with_enough_games_and_says_underpowered_without() {
    let claim = "[[claims]]\nid = \"C16\"\nquote = \"q\"\ntest = { kind = \"compare\", a = { variant = \"a\", side = \"general\" }, b = { variant = \"b\", side = \"general\" }, direction = \"equal\", margin = 0.05 }\n";
    let big = study(&["a", "b"], &[("mcts:sims=8", 1000)], claim);
    let cell = |wins: usize| vec![games(1000, [wins, 1000 - wins - 300], 40, [0, 0])];
    assert_eq!(verdict(&big, &[cell(350), cell(350)]), Verdict::Supported);
    assert_eq!(verdict(&big, &[cell(450), cell(300)]), Verdict::Contradicted);
    assert_eq!(verdict(&big, &[cell(390), cell(350)]), Verdict::Inconclusive);
    let small = study(&["a", "b"], &[("mcts:sims=8", 400)], claim);
    let cell = |wins: usize| vec![games(400, [wins, 400 - wins - 120], 40, [0, 0])];
    assert_eq!(verdict(&small, &[cell(140), cell(140)]), Verdict::Underpowered);
}

/// C12: the Russians' score falls toward ½ as measured skill rises.
#[test]
fn c12_reaches_every_verdict() {
    let claim = "[[claims]]\nid = \"C12\"\nquote = \"q\"\ntest = { kind = \"trend\", measure = { variant = \"a\", side = \"general\" }, direction = \"falls\", toward_half = true, margin = 1.0 }\n";
    let ladder = [("mcts:sims=8", 1000), ("mcts:sims=16", 1000), ("mcts:sims=32", 1000)];
    let s = study(&["a"], &ladder, claim);
    let ratings = [0.0, 300.0, 600.0].map(|elo| Rating { elo, low: elo - 20.0, high: elo + 20.0 });
    let weak = vec![None; 3];
    let run = |s: &LoadedStudy, shares: [usize; 3], n: usize| {
        let rungs = vec![shares.iter().map(|&w| games(n, [w, n - w], 40, [0, 0])).collect::<Vec<_>>()];
        judged(s, &rungs, Some(&ratings), &weak)[0].readings[0].raw
    };
    assert_eq!(run(&s, [800, 650, 520], 1000), Verdict::Supported, "70% → 65% → 52%");
    assert_eq!(run(&s, [520, 650, 800], 1000), Verdict::Contradicted, "away from ½");
    assert_eq!(run(&s, [600, 600, 600], 1000), Verdict::Contradicted, "flat within the margin");
    assert_eq!(run(&s, [620, 600, 590], 1000), Verdict::Inconclusive, "a slight fall, not told from flat");
    let few = study(&["a"], &[("mcts:sims=8", 40), ("mcts:sims=16", 40), ("mcts:sims=32", 40)], claim);
    assert_eq!(run(&few, [24, 23, 22], 40), Verdict::Underpowered, "40 games cannot tell flat from falling");
    assert_eq!(run(&few, [32, 26, 21], 40), Verdict::Supported, "a fall the data did show stands");
}

/// Two claims that hold at p ≈ 0.027 and 0.036 each hold alone, neither after Holm's correction.
#[test]
fn holm_corrects_across_claims() {
    let claim = |id: &str, variant: &str| {
        format!(
            "[[claims]]\nid = \"{id}\"\nquote = \"q\"\ntest = {{ kind = \"threshold\", measure = {{ variant = \"{variant}\", side = \"general\" }}, op = \"at_least\", value = 0.5 }}\n"
        )
    };
    let s = study(&["a", "b"], &[("mcts:sims=8", 400)], &(claim("X", "a") + &claim("Y", "b")));
    let weak = vec![None];
    let results = judged(
        &s,
        &[vec![games(400, [221, 179], 40, [0, 0])], vec![games(400, [222, 178], 40, [0, 0])]],
        None,
        &weak,
    );
    for r in &results {
        let reading = &r.readings[0];
        assert_eq!(reading.raw, Verdict::Supported, "{reading:?}");
        assert!(reading.p_value.unwrap() < 0.05, "{reading:?}");
        assert_eq!(reading.adjusted, Verdict::Inconclusive, "{reading:?}");
        assert_eq!(r.verdict, Verdict::Inconclusive);
    }
}

/// The network ladder's reading gives the verdict over the rollout ladder's; a rung shown wrong never
/// does, and weaker evidence that disagrees is noted.
#[test]
fn the_strongest_evidence_that_is_not_weak_gives_the_verdict() {
    let claim = "[[claims]]\nid = \"C1\"\nquote = \"q\"\ntest = { kind = \"threshold\", measure = { variant = \"a\", side = \"rebels\" }, op = \"at_least\", value = 0.5 }\n";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/checkpoints/sixteen-rebels");
    let s = study(&["a"], &[("mcts:sims=8", 400), (&format!("net:path={path},sims=8"), 400)], claim);
    let rebels_lose = games(400, [320, 80], 40, [0, 0]);
    let rebels_win = games(400, [80, 320], 40, [0, 0]);
    let stats = [vec![rebels_lose, rebels_win]];
    let result = &judged(&s, &stats, None, &[None, None])[0];
    assert_eq!((result.verdict, result.evidence), (Verdict::Supported, Some(EvidenceKind::Network)));
    assert!(
        result.note.as_deref().is_some_and(|n| n.contains("rollout ladder says contradicted")),
        "{:?}",
        result.note
    );
    let shown_wrong = [None, Some("the tablebase says so".to_string())];
    let result = &judged(&s, &stats, None, &shown_wrong)[0];
    assert_eq!((result.verdict, result.evidence), (Verdict::Contradicted, Some(EvidenceKind::Rollout)));
    let all_wrong = [Some("x".to_string()), Some("y".to_string())];
    assert_eq!(judged(&s, &stats, None, &all_wrong)[0].verdict, Verdict::Inconclusive);
}

/// The tablebase's judgement of a rung weakens its readings only on the variants a table covers.
#[test]
fn a_rung_the_tablebase_shows_wrong_is_weak_only_on_the_tables_variants() {
    let claim = "[[claims]]\nid = \"C1\"\nquote = \"q\"\ntest = { kind = \"threshold\", measure = { variant = \"a\", side = \"rebels\" }, op = \"at_least\", value = 0.5 }\n";
    let s = study(&["a"], &[("mcts:sims=8", 400)], claim);
    let stats = [vec![games(400, [80, 320], 40, [0, 0])]];
    let stats: Vec<Vec<&[GameStats]>> =
        stats.iter().map(|v| v.iter().map(|s| s.as_slice()).collect()).collect();
    let table_weak = [Some("the tablebase finds a forced result given up".to_string())];
    let judge = |covered: &[bool]| {
        let evidence = Evidence {
            study: &s,
            stats: stats.clone(),
            solver: &[],
            ratings: None,
            weak: &[None],
            table_weak: &table_weak,
            covered,
        };
        judge_all(&evidence).remove(0)
    };
    let on_the_table = judge(&[true]);
    assert!(on_the_table.readings[0].weak.is_some());
    assert_eq!(on_the_table.evidence, None, "no verdict from a rung shown wrong");
    let elsewhere = judge(&[false]);
    assert_eq!((elsewhere.verdict, elsewhere.evidence), (Verdict::Supported, Some(EvidenceKind::Rollout)));
}

/// A proof outranks every sample of games.
#[test]
fn an_exact_value_outranks_the_ladders() {
    let claim = "[solver]\nsimulations = 10\n[[claims]]\nid = \"C1\"\nquote = \"q\"\ntest = { kind = \"threshold\", measure = { variant = \"a\", side = \"rebels\" }, op = \"at_least\", value = 0.5 }\nexact = { variant = \"a\", winner = \"rebels\" }\n";
    let s = study(&["a"], &[("mcts:sims=8", 400)], claim);
    let proof = SolverResult {
        variant: "a".into(),
        spec: "sixteen-rebels".into(),
        method: "tablebase t.rztb".into(),
        budget: 0,
        simulations: 0,
        proven: Some(crate::lab::store::Proven::Win("rebels".into())),
        plies: Some(40),
        seconds: 0.0,
    };
    let stats = [vec![games(400, [320, 80], 40, [0, 0])]];
    let stats: Vec<Vec<&[GameStats]>> =
        stats.iter().map(|v| v.iter().map(|s| s.as_slice()).collect()).collect();
    let results = judge_all(&Evidence {
        study: &s,
        stats: stats.clone(),
        solver: std::slice::from_ref(&proof),
        ratings: None,
        weak: &[None],
        table_weak: &[],
        covered: &[],
    });
    let result = &results[0];
    assert_eq!((result.verdict, result.evidence), (Verdict::Supported, Some(EvidenceKind::Exact)));
    assert!(
        result.readings[0].measurement.contains("forced rebels win in 40 plies"),
        "{:?}",
        result.readings[0]
    );
    assert_eq!(result.readings[1].raw, Verdict::Contradicted, "the rollout ladder is kept beside it");
    assert!(result.note.as_deref().is_some_and(|n| n.contains("rollout ladder says contradicted")));

    // No proof within the solver's budget is no evidence: the ladder gives the verdict.
    let unproven = SolverResult { method: "mcts-solver".into(), proven: None, plies: None, ..proof };
    let results = judge_all(&Evidence {
        study: &s,
        stats,
        solver: std::slice::from_ref(&unproven),
        ratings: None,
        weak: &[None],
        table_weak: &[],
        covered: &[],
    });
    assert_eq!(
        (results[0].verdict, results[0].evidence),
        (Verdict::Contradicted, Some(EvidenceKind::Rollout))
    );
    assert_eq!(results[0].readings[0].raw, Verdict::Inconclusive);
}
