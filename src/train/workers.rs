//! A generation's self-play games, split across the worker threads: the network plays them, or the
//! teacher while the run is in its bootstrap generations.

use std::sync::Mutex;

use super::config::SelfPlayConfig;
use super::config::TrainConfig;
use super::progress::progress;
use super::selfplay::{self, FinishedGame, GameJob};
use super::teacher::{self, Teacher};
use crate::family::Family;
use crate::nn::InferenceNet;
use crate::seed::derive_seed;

/// One generation's games: the run's games numbered on from `games_before`, each seeded from the
/// run's seed and its number, the specs taken in turn.
pub(super) fn generation_jobs(config: &TrainConfig, specs: usize, games_before: u64) -> Vec<GameJob> {
    (0..config.selfplay.games_per_generation)
        .map(|i| {
            let number = games_before + i as u64;
            GameJob {
                index: i,
                spec_index: number as usize % specs,
                seed: derive_seed(config.run.seed, number),
            }
        })
        .collect()
}

/// Plays `jobs`, split across the worker threads; returned in game order. The network plays them, or
/// the teacher when there is one.
pub(super) fn self_play<G: Family>(
    config: &TrainConfig,
    games: &[G],
    net: &InferenceNet,
    teacher: Option<&Teacher>,
    jobs: Vec<GameJob>,
    show_progress: bool,
) -> Vec<FinishedGame> {
    let count = jobs.len();
    if count == 0 {
        return Vec::new();
    }
    let workers = config.selfplay.workers.min(count);
    // A worker fills its slots from the shared queue at once, so with fewer games than
    // workers × concurrent_games the first worker would take most of them and the others sit idle
    // when their few are done (48 imperial games split 32/16 kept self-play near 160% CPU). No worker
    // holds more than its fair share of the generation at once.
    let worker_config = SelfPlayConfig {
        concurrent_games: config.selfplay.concurrent_games.min(count.div_ceil(workers)),
        ..config.selfplay.clone()
    };
    let worker_config = &worker_config;
    let bar = progress(show_progress, count as u64, "self-play");
    let finished: Mutex<Vec<FinishedGame>> = Mutex::new(Vec::with_capacity(count));
    // Each worker runs inside a rayon pool of its own single thread, so burn's parallel kernels run
    // inline on the worker instead of queueing on the global pool, where the workers and the learner
    // would wait on each other's small operations (that waiting left a fifth of the CPU idle).
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (bar, finished, jobs, next) = (&bar, &finished, &jobs, &next);
            scope.spawn(move || {
                let mut on_finished = |game| {
                    bar.inc(1);
                    finished.lock().expect("no self-play worker panics holding the lock").push(game);
                };
                let play = || match teacher {
                    Some(teacher) => teacher::play_teacher_games(
                        games,
                        teacher,
                        worker_config,
                        jobs,
                        next,
                        &mut on_finished,
                    ),
                    None => selfplay::play_games(games, net, worker_config, jobs, next, &mut on_finished),
                };
                crate::nn::inference::on_one_kernel_thread(play)
            });
        }
    });
    bar.finish_and_clear();
    let mut finished = finished.into_inner().expect("no self-play worker panicked");
    finished.sort_by_key(|g| g.index);
    finished
}
