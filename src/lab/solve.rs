//! Exact values: a variant's start read from its tablebase where the table file is present (with the
//! best-play line from it and, where a claim asks, how the table's positions divide by Rebel count),
//! else the MCTS-solver (rollout evaluation, decisive playouts) searching it with a bounded number of
//! simulations, which reports a proven result with its length, or that none was proven within the
//! budget; and the rungs' games judged move by move against the tablebase.

use std::time::Instant;

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::store::{CellResult, LevelShare, LineMark, Proven, SolverResult};
use super::study::LoadedStudy;
use crate::family::hunt_of;
use crate::game::hunt::HuntGame;
use crate::game::playout::RolloutPolicy;
use crate::game::{AnyGame, Game, Playthrough};
use crate::search::{Mcts, RolloutEvaluator, SearchConfig};
use crate::seed::derive_seed;
use crate::tablebase::{CachedTable, Tablebase, Verdict, cached_table};
use crate::tablebase::{best_moves, ranked_moves, shared_table};
use crate::with_game;

/// Searches the start of `game` for at most `budget` simulations.
pub fn solve_start(variant: &str, game: &AnyGame, budget: u32, seed: u64) -> SolverResult {
    let clock = Instant::now();
    with_game!(game, |g| {
        let config = SearchConfig { simulations: budget, reuse_tree: false, ..SearchConfig::default() };
        let mut search = Mcts::new(g.clone(), config);
        search.set_position(&g.start(), &[]);
        let mut evaluator = RolloutEvaluator::new(RolloutPolicy::Decisive, derive_seed(seed, 1));
        let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(seed, 2));
        let report = search.run(&mut evaluator, &mut rng);
        let (proven, plies) = SolverResult::proof_text(report.proof, g.side_names());
        SolverResult {
            variant: variant.to_string(),
            spec: g.spec().to_string(),
            method: super::store::MCTS_SOLVER.to_string(),
            budget,
            simulations: report.simulations,
            proven,
            plies,
            seconds: clock.elapsed().as_secs_f64(),
            line: Vec::new(),
            levels: Vec::new(),
        }
    })
}

/// The table of `game`, when the tables solve its rules and the table `rebel-zero solve` writes is
/// present whole (`None` otherwise: the lab then falls back to the MCTS-solver and says so).
pub(super) fn table_of(game: &AnyGame) -> Option<(&HuntGame, std::path::PathBuf)> {
    let hunt = hunt_of(game)?;
    match cached_table(hunt) {
        CachedTable::Built(path) => Some((hunt, path)),
        CachedTable::Unsolvable(_) | CachedTable::Missing(_) => None,
    }
}

/// Whether the tables solve `game`'s rules, built here or not: a rung whose games a table judged
/// wrong is weak on such a variant wherever the study is read again (a machine without the table
/// reads the record's judgement, not none).
pub fn covered(game: &AnyGame) -> bool {
    hunt_of(game).is_some_and(|hunt| !matches!(cached_table(hunt), CachedTable::Unsolvable(_)))
}

/// The start value of `variant` by its tablebase, counting the draw cap, with the best-play line and
/// (with `levels`) how the positions divide; `None` when no table covers it.
pub fn table_value(variant: &str, game: &AnyGame, levels: bool) -> Option<anyhow::Result<SolverResult>> {
    let (hunt, path) = table_of(game)?;
    let clock = Instant::now();
    Some((|| {
        let table = shared_table(hunt, &path)?;
        let start = hunt.start();
        let verdict = table
            .probe(&start)
            .ok_or_else(|| anyhow::anyhow!("the start of {} is not in its table", hunt.spec()))?;
        let names = hunt.side_names();
        let mover = hunt.to_move(&start);
        let (proven, plies) = match verdict.within(hunt.max_plies()) {
            Verdict::Win { plies } => (Proven::Win(names[mover.index()].to_string()), Some(plies)),
            Verdict::Loss { plies } => {
                (Proven::Win(names[mover.opponent().index()].to_string()), Some(plies))
            }
            Verdict::Draw => (Proven::Draw, None),
        };
        Ok(SolverResult {
            variant: variant.to_string(),
            spec: hunt.spec().to_string(),
            // The file's name, not its path: reports do not carry the cache folder of one machine.
            method: format!(
                "tablebase {}",
                path.file_name().map_or(path.as_os_str(), |n| n).to_string_lossy()
            ),
            budget: 0,
            simulations: 0,
            proven: Some(proven),
            plies,
            line: best_line(hunt, &table),
            levels: if levels { level_shares(&table) } else { Vec::new() },
            seconds: clock.elapsed().as_secs_f64(),
        })
    })())
}

/// The best-play line from the start: both sides play best, and among equal moves the one taking the
/// most pieces (the loser's revenge as early as best play allows), then the first; a mark after each
/// move that took pieces.
pub fn best_line(game: &HuntGame, table: &Tablebase) -> Vec<LineMark> {
    let mut line = Playthrough::new(game.clone());
    let initial = game.material(line.state()).unwrap_or([0, 0]);
    let mut marks = Vec::new();
    while !line.is_over() {
        let best = best_moves(&ranked_moves(table, &line));
        let mv = *best.iter().rev().max_by_key(|m| m.captured.count_ones()).expect("a best move");
        line.play(mv);
        if mv.captured == 0 || line.is_over() {
            continue;
        }
        let state = line.state();
        let now = game.material(state).unwrap_or(initial);
        let plies_left = game.max_plies().saturating_sub(line.plies());
        let mover = game.to_move(state);
        let (winner, plies) = match table.probe(state).map(|v| v.within(plies_left)) {
            Some(Verdict::Win { plies }) => (Some(mover.index()), Some(plies)),
            Some(Verdict::Loss { plies }) => (Some(mover.opponent().index()), Some(plies)),
            _ => (None, None),
        };
        marks.push(LineMark {
            ply: line.plies(),
            lost: [0, 1].map(|s| initial[s].saturating_sub(now[s])),
            winner,
            plies,
            position: game.format_position(state),
        });
    }
    marks
}

/// How the table's positions divide, per count of side 1's pieces and side to move.
fn level_shares(table: &Tablebase) -> Vec<LevelShare> {
    table
        .level_tallies()
        .into_iter()
        .flat_map(|(pieces, tallies)| {
            // A tally counts wins and losses for the side to move.
            tallies.into_iter().enumerate().map(move |(to_move, t)| {
                let mut wins = [0, 0];
                wins[to_move] = t.wins;
                wins[1 - to_move] = t.losses;
                LevelShare { pieces, to_move, wins, draws: t.draws }
            })
        })
        .collect()
}

/// Per rung (skill index): its games on the variants a table covers, and those in which some move
/// after the random opening gave up a forced result.
pub fn judge_rungs(study: &LoadedStudy, cells: &[CellResult]) -> Vec<(u32, u32)> {
    let mut judged = vec![(0u32, 0u32); study.labels.len()];
    for cell in cells.iter().filter(|c| c.cell.opponent.is_none()) {
        let Some((hunt, path)) = table_of(&study.games[cell.cell.variant]) else { continue };
        let Ok(table) = shared_table(hunt, &path) else { continue };
        for record in &cell.records {
            let Ok(line) = record.replay(hunt) else { continue };
            let mistake = table.judge_game(&line).iter().any(|m| m.ply > record.opening && m.is_mistake());
            let tally = &mut judged[cell.cell.skill];
            tally.0 += 1;
            tally.1 += u32::from(mistake);
        }
    }
    judged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn murray_rebels_is_proven_a_rebel_win_or_left_unproven() {
        let game = AnyGame::from_spec("murray-rebels").unwrap();
        let r = solve_start("murray", &game, 2000, 1);
        assert_eq!(r.budget, 2000);
        assert!(r.simulations <= 2000);
        match (&r.proven, r.plies) {
            (Some(w), Some(p)) => assert!(w.is("rebels") && p > 0, "{r:?}"),
            (None, None) => {}
            other => panic!("{other:?}"),
        }
    }
}
