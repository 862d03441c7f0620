//! Teacher games: rollout MCTS plays the first generations of a run in place of the network, and its
//! root visit distributions become the policy targets. This is expert iteration's first step (Anthony,
//! Tian and Barber 2017, whose first expert was rollout MCTS too): a network that starts from nothing
//! learns a policy and a value worth searching with from games that are already played with some sense,
//! instead of from its own random play, where one side may win nearly every game and teach nothing.

use std::sync::atomic::{AtomicUsize, Ordering};

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::config::SelfPlayConfig;
use super::selfplay::{FinishedGame, GameJob, GameSamples, action_shares};
use crate::agents::MctsSettings;
use crate::game::Playthrough;
use crate::nn::{Encoder, NetGame};
use crate::search::{Mcts, RolloutEvaluator, move_temperature};
use crate::seed::derive_seed;

/// Plays teacher games on one thread until `jobs` runs out (workers share it through `next`). As in
/// self-play, the first `temperature_plies` moves are drawn in proportion to visits so that the games
/// differ, and a move becomes a sample with probability `full_search_share` (when playout-cap
/// randomisation is on): the teacher searches every move alike, but samples spread over more games are
/// less alike than whole games, and the learner's steps per game stay those of self-play.
pub fn play_teacher_games<G: NetGame>(
    games: &[G],
    teacher: &MctsSettings,
    config: &SelfPlayConfig,
    jobs: &[GameJob],
    next: &AtomicUsize,
    on_finished: &mut dyn FnMut(FinishedGame),
) {
    let encoder = G::Encoder::for_game(&games[0]);
    while let Some(&job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
        let game = &games[job.spec_index];
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
                samples.record(game, &encoder, &line, action_shares(game, line.state(), &output.policy));
            }
            line.play(output.mv);
        }
        on_finished(samples.finish(job, &line));
    }
}
