//! The perfect agent: plays sixteen-rebels by its tablebase. It takes the shortest forced win, else a
//! draw, else the longest loss, counting the draw cap; among equal moves it prefers one leading to a
//! position not yet seen in the game (so a lost side does not offer the repetition that would let a
//! winning one off the hook), then draws by lot.
//!
//! Tables are ~1 GB, so each file is read once per process and shared by every game of a match.

use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::{Agent, AgentError};
use crate::game::hunt::{HuntGame, HuntMove};
use crate::game::{Game, Playthrough};
use crate::tablebase::{Tablebase, Verdict, default_table_path};

pub struct PerfectAgent {
    table: Arc<Tablebase>,
    rng: Pcg64Mcg,
}

impl PerfectAgent {
    pub fn new(table: Arc<Tablebase>, seed: u64) -> PerfectAgent {
        PerfectAgent { table, rng: Pcg64Mcg::seed_from_u64(seed) }
    }

    /// The perfect agent for `game`, which must be a hunt game the tables solve. `table` names the file,
    /// by default the one `rebel-zero solve` writes for the game's rules.
    pub fn build<G: Game>(game: &G, table: Option<&str>, seed: u64) -> Result<Box<dyn Agent<G>>, AgentError> {
        let refuse = |problem: String| AgentError::Table { problem };
        let Some(hunt) = (game as &dyn Any).downcast_ref::<HuntGame>() else {
            return Err(refuse(format!("`{}` has no tablebase: only sixteen-rebels is solved", game.spec())));
        };
        Tablebase::check_supported(hunt).map_err(|e| refuse(e.to_string()))?;
        let path = table.map_or_else(|| default_table_path(hunt), PathBuf::from);
        let agent: Box<dyn Agent<HuntGame>> = Box::new(PerfectAgent::new(shared_table(hunt, &path)?, seed));
        // `G` is `HuntGame` here (the downcast above succeeded), so this downcast cannot fail.
        let agent: Box<dyn Any> = Box::new(agent);
        Ok(*agent.downcast::<Box<dyn Agent<G>>>().expect("G is HuntGame"))
    }
}

/// The table in `path`, read once per process.
fn shared_table(game: &HuntGame, path: &Path) -> Result<Arc<Tablebase>, AgentError> {
    static TABLES: LazyLock<Mutex<HashMap<PathBuf, Arc<Tablebase>>>> = LazyLock::new(Default::default);
    let mut tables = TABLES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(table) = tables.get(path).filter(|t| t.fits(game)) {
        return Ok(table.clone());
    }
    if !path.exists() {
        return Err(AgentError::Table {
            problem: format!(
                "no tablebase at {}; build it with `rebel-zero solve {}` (about 3 minutes, 1 GB)",
                path.display(),
                game.spec()
            ),
        });
    }
    let table =
        Arc::new(Tablebase::load(game, path).map_err(|e| AgentError::Table { problem: e.to_string() })?);
    tables.insert(path.to_path_buf(), table.clone());
    Ok(table)
}

/// How much a verdict is worth to the side that plays into it: wins first, the sooner the better;
/// then draws; then losses, the later the better.
fn preference(verdict: Option<Verdict>, plies_left: u32) -> i64 {
    match verdict.map(|v| v.within(plies_left)) {
        Some(Verdict::Win { plies }) => 2_000 - i64::from(plies),
        Some(Verdict::Draw) | None => 1_000,
        Some(Verdict::Loss { plies }) => i64::from(plies),
    }
}

impl Agent<HuntGame> for PerfectAgent {
    fn choose(&mut self, line: &Playthrough<HuntGame>) -> HuntMove {
        let s = line.state();
        let game = line.game();
        let plies_left = game.max_plies().saturating_sub(line.plies());
        let seen = |m: HuntMove| {
            let mut next = *s;
            game.apply(&mut next, m);
            let hash = game.position_hash(&next);
            line.states().iter().filter(|p| game.position_hash(p) == hash).count()
        };
        let scored: Vec<(i64, usize, HuntMove)> = self
            .table
            .move_verdicts(s)
            .into_iter()
            .map(|(m, v)| (preference(v, plies_left), seen(m), m))
            .collect();
        let best = scored.iter().map(|&(p, n, _)| (p, std::cmp::Reverse(n))).max().expect("a legal move");
        let choices: Vec<HuntMove> = scored
            .iter()
            .filter(|&&(p, n, _)| (p, std::cmp::Reverse(n)) == best)
            .map(|&(_, _, m)| m)
            .collect();
        choices[self.rng.random_range(0..choices.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::hunt::{GENERAL, REBELS};
    use crate::tablebase::testing::{hunt, position_with_a_choice};

    #[test]
    fn the_perfect_agent_wins_fastest_and_loses_slowest() {
        let table = std::sync::Arc::new(Tablebase::build_up_to(&hunt("sixteen-rebels"), 6, |_| {}).unwrap());
        for side in [GENERAL, REBELS] {
            let winning = position_with_a_choice(&table, side);
            let Some(Verdict::Win { plies }) = table.probe(&winning) else { unreachable!() };
            for seed in 0..4 {
                let line = Playthrough::from_position(table.game().clone(), winning);
                let m = PerfectAgent::new(table.clone(), seed).choose(&line);
                let verdict = table.move_verdicts(&winning).into_iter().find(|(x, _)| *x == m).unwrap().1;
                assert_eq!(verdict, Some(Verdict::Win { plies }), "{side:?} seed {seed}");
            }
            // After its winning move the opponent is lost; it plays the longest loss there is.
            let mut line = Playthrough::from_position(table.game().clone(), winning);
            line.play(PerfectAgent::new(table.clone(), 0).choose(&line));
            if line.is_over() {
                continue;
            }
            let longest = table
                .move_verdicts(line.state())
                .into_iter()
                .filter_map(|(_, v)| match v {
                    Some(Verdict::Loss { plies }) => Some(plies),
                    _ => None,
                })
                .max()
                .unwrap();
            let m = PerfectAgent::new(table.clone(), 1).choose(&line);
            let verdict = table.move_verdicts(line.state()).into_iter().find(|(x, _)| *x == m).unwrap().1;
            assert_eq!(verdict, Some(Verdict::Loss { plies: longest }));
        }
    }

    #[test]
    fn only_solved_rulesets_get_a_perfect_agent() {
        let game = crate::game::AnyGame::from_spec("imperial-contest").unwrap();
        crate::with_game!(&game, |g| {
            let err = PerfectAgent::build(g, None, 1).err().unwrap().to_string();
            assert!(err.contains("imperial-contest") && err.contains("only sixteen-rebels"), "{err}");
        });
        let err = PerfectAgent::build(&hunt("sixteen-rebels"), Some("/nowhere/x.rztb"), 1).err().unwrap();
        assert!(err.to_string().contains("no tablebase at /nowhere/x.rztb"), "{err}");
        assert!(err.to_string().contains("rebel-zero solve sixteen-rebels"), "{err}");
        let err = PerfectAgent::build(&hunt("murray-rebels"), None, 1).err().unwrap();
        assert!(err.to_string().contains("custodial"), "{err}");
    }
}
