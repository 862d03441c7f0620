//! The perfect agent: plays a hunt game the tables solve by its tablebase
//! ([`crate::tablebase::ranked_moves`] ranks the moves): the shortest forced win, else a draw, else the
//! longest loss, counting the game's own draws. Equal moves are drawn by lot.

use std::path::PathBuf;
use std::sync::Arc;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::{Agent, AgentError};
use crate::family::Family;
use crate::game::Playthrough;
use crate::tablebase::{TableFileError, Tablebase, check_supported, default_table_path, shared_table};

pub struct PerfectAgent {
    table: Arc<Tablebase>,
    rng: Pcg64Mcg,
}

impl PerfectAgent {
    /// The agent over `table`, for games of the rules it was built for.
    pub fn new(table: Arc<Tablebase>, seed: u64) -> PerfectAgent {
        PerfectAgent { table, rng: Pcg64Mcg::seed_from_u64(seed) }
    }

    /// The perfect agent for `game`, which must be a hunt game the tables solve. `table` names the file,
    /// by default the one `rebel-zero solve` writes for the game's rules.
    pub fn build<G: Family>(
        game: &G,
        table: Option<&str>,
        seed: u64,
    ) -> Result<Box<dyn Agent<G>>, AgentError> {
        let refuse = |problem: String| AgentError::Table { problem };
        let Some(hunt) = game.as_hunt() else {
            return Err(refuse(format!(
                "`{}` has no tablebase: only sixteen-rebels, juroku-musashi and rules files like them are solved",
                game.spec()
            )));
        };
        check_supported(hunt).map_err(|e| refuse(e.to_string()))?;
        let path = table.map_or_else(|| default_table_path(hunt), PathBuf::from);
        let table = shared_table(hunt, &path).map_err(|e| match e {
            TableFileError::OtherRules { .. } => {
                refuse(format!("{e}; name the table of these rules with perfect:table=FILE"))
            }
            _ => refuse(e.to_string()),
        })?;
        Ok(Box::new(PerfectAgent::new(table, seed)))
    }
}

impl<G: Family> Agent<G> for PerfectAgent {
    fn choose(&mut self, line: &Playthrough<G>) -> G::Move {
        // `build` made this agent for a hunt game only, the one family whose best play is Some.
        let ranked =
            line.game().table_ranking(&self.table, line).expect("the perfect agent plays a hunt game");
        let choices = crate::tablebase::best_moves(&ranked);
        choices[self.rng.random_range(0..choices.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::hunt::{GENERAL, HuntGame, HuntState, REBELS};
    use crate::tablebase::Verdict;
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
