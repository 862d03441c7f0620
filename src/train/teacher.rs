//! Teacher games: an expert plays the first generations of a run in place of the network, and its
//! choices become the policy targets. This is expert iteration's first step (Anthony, Tian and Barber
//! 2017, whose first expert was rollout MCTS too): a network that starts from nothing learns a policy
//! and a value worth searching with from games that are already played with some sense, instead of
//! from its own random play, where one side may win nearly every game and teach nothing.
//!
//! Two experts: rollout MCTS (its root visit shares are the targets), and best play by a tablebase
//! (`perfect`: the moves best play chooses among share the target). The second is for boards whose
//! self-play never finds the way to a forced win: Juroku's network drew 93–99% of its self-play games
//! from a start the table proves won, so it never saw a conversion to learn from.

use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::bail;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::config::{BootstrapConfig, SelfPlayConfig, TeacherSpec};
use super::selfplay::{FinishedGame, GameJob, GameSamples, action_shares};
use super::tables::SpecTables;
use crate::agents::MctsSettings;
use crate::family::Family;
use crate::game::Playthrough;
use crate::nn::Encoder;
use crate::search::{Mcts, RolloutEvaluator, move_temperature};
use crate::seed::derive_seed;
use crate::tablebase::Tablebase;
use crate::tablebase::{best_moves, outcome_of};

/// The expert that plays a run's teacher games.
pub enum Teacher {
    /// Rollout MCTS with these settings.
    Rollouts(MctsSettings),
    /// Best play by the table of each spec.
    Perfect(SpecTables),
}

impl Teacher {
    /// The teacher `bootstrap.teacher` names for `games` when the run, `generations` played so far, is
    /// still in its bootstrap generations (`None` after them); `perfect` needs a built table for every spec.
    pub fn open<G: Family>(
        bootstrap: &BootstrapConfig,
        generations: u64,
        games: &[G],
    ) -> anyhow::Result<Option<Teacher>> {
        if generations >= bootstrap.generations {
            return Ok(None);
        }
        let teacher = match bootstrap.teacher_spec().map_err(anyhow::Error::msg)? {
            TeacherSpec::Rollouts(settings) => Teacher::Rollouts(settings),
            TeacherSpec::Perfect => {
                let tables = SpecTables::open(games, "bootstrap.teacher = \"perfect\"")?;
                if let Some(why) = tables.first_unsolved() {
                    bail!("bootstrap.teacher = \"perfect\": {why}");
                }
                Teacher::Perfect(tables)
            }
        };
        Ok(Some(teacher))
    }
}

/// Plays teacher games on one thread until `jobs` runs out (workers share it through `next`). As in
/// self-play, the first `temperature_plies` moves vary so that the games differ, and a move becomes a
/// sample with probability `full_search_share` (when playout-cap randomisation is on): the teacher
/// chooses every move alike, but samples spread over more games are less alike than whole games, and
/// the learner's steps per game stay those of self-play.
pub fn play_teacher_games<G: Family>(
    games: &[G],
    teacher: &Teacher,
    config: &SelfPlayConfig,
    jobs: &[GameJob],
    next: &AtomicUsize,
    on_finished: &mut dyn FnMut(FinishedGame),
) {
    let encoder = G::Encoder::for_game(&games[0]);
    while let Some(&job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
        let game = &games[job.spec_index];
        let finished = match teacher {
            Teacher::Rollouts(settings) => rollout_game(game, &encoder, settings, config, job),
            Teacher::Perfect(tables) => {
                let table = tables.get(job.spec_index).expect("Teacher::open checked every spec's table");
                perfect_game(Playthrough::new(game.clone()), &encoder, table, config, job)
            }
        };
        on_finished(finished);
    }
}

/// A game of rollout MCTS against itself: the first `temperature_plies` moves drawn in proportion to
/// visits, and the visit shares as the targets.
fn rollout_game<G: Family>(
    game: &G,
    encoder: &G::Encoder,
    teacher: &MctsSettings,
    config: &SelfPlayConfig,
    job: GameJob,
) -> FinishedGame {
    let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(job.seed, 0));
    let mut evaluator = RolloutEvaluator::new(teacher.rollout, derive_seed(job.seed, 1));
    let mut search = Mcts::new(game.clone(), teacher.search.config());
    let mut line = Playthrough::new(game.clone());
    let mut samples = GameSamples::default();
    while !line.is_over() {
        search.set_position(line.start(), line.moves());
        search.run(&mut evaluator, &mut rng);
        let temperature =
            move_temperature(line.plies(), config.temperature_plies, teacher.search.temperature);
        let output = search.output(temperature, &mut rng).expect("a game not over has a move");
        if config.draw_full_search(&mut rng) {
            samples.record(game, encoder, &line, action_shares(game, line.state(), &output.policy));
        }
        line.play(output.mv);
    }
    samples.finish(job, &line)
}

/// A game of best play against itself. The target of each position shares its weight among the moves
/// best play chooses among (the shortest win, else a draw, else the longest loss). For the first
/// `temperature_plies` moves the teacher strays, so that the games, and the defences its winning side
/// learns to beat, differ: in half the games it plays any move that keeps its result (any win, not
/// only the shortest; when lost, any move), in the other half ([`GameJob::explores`]) any move at
/// all, so that the games also reach the positions a mistake leaves (a draw the Rebels let go, which the General must
/// then hold: the first teacher kept every result, and its network's General lost such draws to
/// rollout Rebels). Then the moves best play chooses among, drawn by lot.
fn perfect_game<G: Family>(
    mut line: Playthrough<G>,
    encoder: &G::Encoder,
    table: &Tablebase,
    config: &SelfPlayConfig,
    job: GameJob,
) -> FinishedGame {
    let game = &line.game().clone();
    let mut rng = Pcg64Mcg::seed_from_u64(derive_seed(job.seed, 0));
    let mut samples = GameSamples::default();
    while !line.is_over() {
        let ranked = game.table_ranking(table, &line).expect("Teacher::open found a table for these rules");
        let best = best_moves(&ranked);
        if config.draw_full_search(&mut rng) {
            let share = 1.0 / best.len() as f32;
            let policy: Vec<_> = best.iter().map(|&m| (m, share)).collect();
            samples.record(game, encoder, &line, action_shares(game, line.state(), &policy));
        }
        let choices = match line.plies() < config.temperature_plies {
            true if job.explores() => ranked.iter().map(|&(_, m)| m).collect(),
            true => {
                let outcome = ranked.iter().map(|&(p, _)| outcome_of(p)).max().expect("a legal move");
                ranked.iter().filter(|&&(p, _)| outcome_of(p) == outcome).map(|&(_, m)| m).collect()
            }
            false => best,
        };
        line.play(choices[rng.random_range(0..choices.len())]);
    }
    samples.finish(job, &line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::hunt::{GENERAL, HuntGame, REBELS};
    use crate::tablebase::Verdict;
    use crate::tablebase::ranked_moves;
    use crate::tablebase::testing::{six_rebels, slots_of_six};

    #[test]
    fn the_perfect_teacher_needs_a_table_for_every_spec() {
        let games = [crate::tablebase::testing::hunt("twenty-six-rebels")];
        let bootstrap = BootstrapConfig { teacher: "perfect".to_string(), generations: 1 };
        let err = Teacher::open(&bootstrap, 0, &games).err().expect("no table solves it").to_string();
        assert!(
            err.contains("no tablebase for `twenty-six-rebels`: only the General's intervention capture"),
            "{err}"
        );
    }

    #[test]
    fn perfect_teacher_games_end_as_the_table_says_and_teach_best_plays_moves() {
        let table = six_rebels();
        let game = table.game().clone();
        let encoder = <HuntGame as crate::nn::NetGame>::Encoder::for_game(&game);
        // Every move a sample; the first six stray.
        let config =
            SelfPlayConfig { fast_simulations: 0, temperature_plies: 6, ..SelfPlayConfig::default() };
        let (mut varied, mut strayed_results) = (0, 0);
        for side in [GENERAL, REBELS] {
            let won = slots_of_six(side)
                .filter(|s| matches!(table.probe(s), Some(Verdict::Win { plies }) if plies > 7));
            for (i, start) in won.take(12).enumerate() {
                let job = GameJob { index: i, spec_index: 0, seed: i as u64 };
                let line = Playthrough::from_position(game.clone(), start);
                let finished = perfect_game(line.clone(), &encoder, &table, &config, job);
                if !job.explores() {
                    // Varied moves that keep the result, then best play converts it.
                    assert_eq!(finished.saved.winner, Some(side.index() as u8), "{start:?}");
                } else {
                    // Any moves, then best play: the result is the table's where the straying ends.
                    let mut opening = line.clone();
                    for text in finished.saved.moves.iter().take(config.temperature_plies as usize) {
                        opening.play_text(text).unwrap();
                    }
                    let winner = match opening.outcome() {
                        Some(outcome) => outcome.winner,
                        None => {
                            let mover = game.to_move(opening.state());
                            match table.probe(opening.state()).expect("a position of the table") {
                                Verdict::Win { .. } => Some(mover),
                                Verdict::Loss { .. } => Some(mover.opponent()),
                                Verdict::Draw => None,
                            }
                        }
                    };
                    let winner = winner.map(|s| s.index() as u8);
                    assert_eq!(finished.saved.winner, winner, "{start:?} after {:?}", opening.move_texts());
                    strayed_results += usize::from(winner != Some(side.index() as u8));
                }
                assert_eq!(finished.saved.targets.len(), finished.saved.moves.len(), "every move a sample");
                let mut replay = line;
                for (target, text) in finished.saved.targets.iter().zip(&finished.saved.moves) {
                    let best = best_moves(&ranked_moves(&table, &replay));
                    let mut wanted: Vec<_> = best
                        .iter()
                        .map(|&m| (game.action_index(replay.state(), m), 1.0 / best.len() as f32))
                        .collect();
                    let mut taught = target.policy.clone();
                    wanted.sort_by_key(|&(action, _)| action);
                    taught.sort_by_key(|&(action, _)| action);
                    assert_eq!(taught, wanted, "ply {} of {start:?}", target.ply);
                    let played = replay.play_text(text).expect("a legal move");
                    varied += usize::from(!best.contains(&played));
                }
            }
        }
        assert!(varied > 0, "the first plies stray from best play's choices");
        assert!(strayed_results > 0, "any moves sometimes give the result away");
    }
}
