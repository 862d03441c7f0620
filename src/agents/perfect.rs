//! The perfect agent: plays sixteen-rebels by its tablebase. It takes the shortest forced win, else a
//! draw, else the longest loss, counting the game's own draws: a move beyond the plies the cap leaves,
//! or one that makes a position's third occurrence, is a draw whatever the table says. Equal moves are
//! drawn by lot.
//!
//! The table knows nothing of repetition, and needs not: a side that wins by the table never repeats a
//! position (each of its moves shortens the distance), so only the losing side can reach for one.
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
use crate::tablebase::{TableFileError, Tablebase, Verdict, default_table_path};

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
            return Err(refuse(format!(
                "`{}` has no tablebase: only sixteen-rebels and juroku-musashi are solved",
                game.spec()
            )));
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
pub(crate) fn shared_table(game: &HuntGame, path: &Path) -> Result<Arc<Tablebase>, AgentError> {
    static TABLES: LazyLock<Mutex<HashMap<PathBuf, Arc<Tablebase>>>> = LazyLock::new(Default::default);
    let mut tables = TABLES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // One file named two ways (`./t.rztb`, `t.rztb`) is still read once.
    let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if let Some(table) = tables.get(&key).filter(|t| t.fits(game)) {
        return Ok(table.clone());
    }
    if !path.exists() {
        return Err(AgentError::Table {
            problem: format!(
                "no tablebase at {}; build it with `rebel-zero solve {}`",
                path.display(),
                game.spec()
            ),
        });
    }
    let table = Tablebase::load(game, path).map_err(|e| AgentError::Table {
        problem: match e {
            TableFileError::OtherRules { .. } => {
                format!("{e}; name the table of these rules with perfect:table=FILE")
            }
            _ => e.to_string(),
        },
    })?;
    let table = Arc::new(table);
    tables.insert(key, table.clone());
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

/// The result a preference stands for: 1 a win, 0 a draw, −1 a loss.
pub(crate) fn outcome_of(preference: i64) -> i64 {
    (preference - 1_000).signum()
}

/// Each legal move of `line`'s position with its [`preference`] for the side to move, the game's own
/// draws counted: a move beyond the plies the cap leaves, or one that makes a position's third
/// occurrence, is a draw whatever the table says.
pub(crate) fn ranked_moves(table: &Tablebase, line: &Playthrough<HuntGame>) -> Vec<(i64, HuntMove)> {
    let s = line.state();
    let game = line.game();
    let plies_left = game.max_plies().saturating_sub(line.plies());
    // Positions before a capture never recur (the Rebels are fewer after it), so counting the
    // whole game equals counting since the last irreversible move, as the rule does.
    let history: Vec<u64> = line.states().iter().map(|p| game.position_hash(p)).collect();
    let occurrences = |m: HuntMove| {
        let mut next = *s;
        game.apply(&mut next, m);
        let hash = game.position_hash(&next);
        history.iter().filter(|&&h| h == hash).count()
    };
    table
        .move_verdicts(s)
        .into_iter()
        // A game-ending position never occurred before (the game would have ended there), so a
        // move that ends the game is never taken for a repetition.
        .map(|(m, v)| (preference(if occurrences(m) >= 2 { Some(Verdict::Draw) } else { v }, plies_left), m))
        .collect()
}

/// The moves of `ranked` that best play chooses among.
pub(crate) fn best_moves(ranked: &[(i64, HuntMove)]) -> Vec<HuntMove> {
    let best = ranked.iter().map(|&(p, _)| p).max().expect("a legal move");
    ranked.iter().filter(|&&(p, _)| p == best).map(|&(_, m)| m).collect()
}

impl Agent<HuntGame> for PerfectAgent {
    fn choose(&mut self, line: &Playthrough<HuntGame>) -> HuntMove {
        let choices = best_moves(&ranked_moves(&self.table, line));
        choices[self.rng.random_range(0..choices.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::hunt::{GENERAL, HuntState, REBELS};
    use crate::tablebase::testing::{
        longest_loss, position_with_a_choice, six_rebels, slots_of_six, verdict_of,
    };

    #[test]
    fn the_perfect_agent_wins_fastest_and_loses_slowest() {
        let table = six_rebels();
        for side in [GENERAL, REBELS] {
            let winning = position_with_a_choice(&table, side);
            let Some(Verdict::Win { plies }) = table.probe(&winning) else { unreachable!() };
            for seed in 0..4 {
                let line = Playthrough::from_position(table.game().clone(), winning);
                let m = PerfectAgent::new(table.clone(), seed).choose(&line);
                assert_eq!(
                    verdict_of(&table, &winning, m),
                    Some(Verdict::Win { plies }),
                    "{side:?} seed {seed}"
                );
            }
            // After its winning move the opponent is lost; it plays the longest loss there is.
            let mut line = Playthrough::from_position(table.game().clone(), winning);
            line.play(PerfectAgent::new(table.clone(), 0).choose(&line));
            if line.is_over() {
                continue;
            }
            let longest = longest_loss(&table, line.state()).unwrap();
            let m = PerfectAgent::new(table.clone(), 1).choose(&line);
            assert_eq!(verdict_of(&table, line.state(), m), Some(Verdict::Loss { plies: longest }));
        }
    }

    /// A playthrough round a loop of four quiet moves and three more, where the Rebels to move are
    /// lost and their step back would make the loop's first position occur a third time.
    fn lost_after_a_loop(table: &Tablebase) -> Option<Playthrough<HuntGame>> {
        let game = table.game();
        // The quiet move of `line` that leads to a state `wanted` accepts.
        let step = |line: &Playthrough<HuntGame>, wanted: &dyn Fn(&HuntState) -> bool| {
            line.legal_moves().iter().copied().find(|&m| {
                let mut next = *line.state();
                game.apply(&mut next, m);
                m.captured == 0 && next.result.is_none() && wanted(&next)
            })
        };
        for start in slots_of_six(GENERAL).filter(|s| table.probe(s).is_some()) {
            let mut line = Playthrough::from_position(game.clone(), start);
            let Some(out) = step(&line, &|_| true) else { continue };
            line.play(out);
            let Some(rebel_out) = step(&line, &|_| true) else { continue };
            line.play(rebel_out);
            let Some(back) = step(&line, &|n| n.general == start.general) else { continue };
            line.play(back);
            if !matches!(table.probe(line.state()), Some(Verdict::Loss { plies }) if plies > 3) {
                continue;
            }
            let Some(rebel_back) = step(&line, &|n| *n == start) else { continue };
            // Stepping back must not be a longest loss too, or taking it would prove nothing.
            let longest = longest_loss(table, line.state()).map(|plies| Verdict::Loss { plies });
            if verdict_of(table, line.state(), rebel_back) == longest {
                continue;
            }
            for m in [rebel_back, out, rebel_out, back] {
                line.play(m);
            }
            return Some(line);
        }
        None
    }

    #[test]
    fn a_lost_side_takes_a_draw_by_repetition() {
        let table = six_rebels();
        let line = lost_after_a_loop(&table).expect("a lost position on a quiet loop exists");
        // From the position alone, with no history, every move loses.
        let fresh = Playthrough::from_position(table.game().clone(), *line.state());
        let m = PerfectAgent::new(table.clone(), 0).choose(&fresh);
        let verdict = verdict_of(&table, fresh.state(), m);
        assert!(matches!(verdict, Some(Verdict::Loss { .. })), "{verdict:?}");
        // Three plies earlier, on the first pass, the Rebels' step back would make only a second
        // occurrence: still a loss, so not preferred to a longer one.
        let mut first_pass = line.clone();
        (0..4).for_each(|_| assert!(first_pass.undo()));
        let longest = longest_loss(&table, first_pass.state()).unwrap();
        let back = table.move_verdicts(first_pass.state()).into_iter().find(|(m, _)| {
            let mut next = *first_pass.state();
            table.game().apply(&mut next, *m);
            next == first_pass.states()[0]
        });
        assert_ne!(
            back.unwrap().1,
            Some(Verdict::Loss { plies: longest }),
            "the test needs a shorter step back"
        );
        for seed in 0..4 {
            let m = PerfectAgent::new(table.clone(), seed).choose(&first_pass);
            assert_eq!(
                verdict_of(&table, first_pass.state(), m),
                Some(Verdict::Loss { plies: longest }),
                "seed {seed}"
            );
        }
        // After the loop twice, a third occurrence is there to take.
        for seed in 0..4 {
            let mut next = line.clone();
            next.play(PerfectAgent::new(table.clone(), seed).choose(&line));
            assert_eq!(
                next.outcome().map(|o| o.reason),
                Some(crate::game::Reason::Repetition),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn only_solved_rulesets_get_a_perfect_agent() {
        let game = crate::game::AnyGame::from_spec("imperial-contest").unwrap();
        crate::with_game!(&game, |g| {
            let err = PerfectAgent::build(g, None, 1).err().unwrap().to_string();
            assert!(err.contains("imperial-contest") && err.contains("only sixteen-rebels"), "{err}");
        });
        let hunt = crate::tablebase::testing::hunt;
        let err = PerfectAgent::build(&hunt("sixteen-rebels"), Some("/nowhere/x.rztb"), 1).err().unwrap();
        assert!(err.to_string().contains("no tablebase at /nowhere/x.rztb"), "{err}");
        assert!(err.to_string().contains("rebel-zero solve sixteen-rebels"), "{err}");
        let err = PerfectAgent::build(&hunt("murray-rebels"), None, 1).err().unwrap();
        assert!(err.to_string().contains("custodial"), "{err}");
    }
}
