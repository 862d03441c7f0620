//! Self-play: many games at once on one thread, their search leaves evaluated together in one network
//! batch per step (inference is far cheaper per position in large batches), with KataGo's playout-cap
//! randomisation: a share of moves gets a full search and becomes a training sample, the rest a fast
//! search that only moves the game on.

use std::sync::atomic::{AtomicUsize, Ordering};

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::config::SelfPlayConfig;
use super::replay::{Position, SavedGame, Target, wdl_target};
use crate::family::Family;
use crate::game::{ActionIndex, Playthrough, Side};
use crate::nn::evaluator::{encode_leaves, write_evaluations};
use crate::nn::{Encoder, Inference, InferenceNet};
use crate::search::{DirichletNoise, Evaluations, Mcts, RootPolicy, SearchConfig, move_temperature};
use crate::seed::derive_seed;

/// One game to play: its index in the generation, its spec (an index into the run's specs) and its seed.
#[derive(Clone, Copy, Debug)]
pub struct GameJob {
    pub index: usize,
    pub spec_index: usize,
    pub seed: u64,
}

impl GameJob {
    /// Whether this game is one of the half that explore (the perfect teacher's any-move openings, the
    /// straying side's whole-game temperature). Drawn from the game's seed, not its index: the specs are
    /// taken in turn, so with an even number of them the index's parity would pick the same specs in
    /// every generation (and never the others).
    pub fn explores(&self) -> bool {
        derive_seed(self.seed, 0x0e7b) & 1 == 1
    }
}

/// A finished self-play game.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    pub index: usize,
    pub saved: SavedGame,
    pub positions: Vec<Position>,
    pub plies: u32,
}

/// A game in progress with its search.
struct Slot<G: Family> {
    job: GameJob,
    line: Playthrough<G>,
    search: Mcts<G>,
    rng: Pcg64Mcg,
    /// Simulations wanted for the current move, and done so far.
    wanted: u32,
    done: u32,
    full: bool,
    /// The side that draws every move in proportion to visits in this game (`selfplay.stray_side`).
    stray: Option<Side>,
    /// Where this slot's leaves sit in the shared batch.
    leaves: std::ops::Range<usize>,
    samples: GameSamples,
}

/// The training samples of a game in progress.
#[derive(Default)]
pub(super) struct GameSamples {
    targets: Vec<Target>,
    positions: Vec<Position>,
    /// The player to move at each recorded position, to label it with the result at the end.
    movers: Vec<Side>,
}

impl GameSamples {
    /// Records the position `line` stands at with the search's move distribution `policy`.
    pub(super) fn record<G: Family>(
        &mut self,
        game: &G,
        encoder: &G::Encoder,
        line: &Playthrough<G>,
        policy: Vec<(ActionIndex, f32)>,
    ) {
        self.targets.push(Target { ply: line.plies(), policy: policy.clone() });
        // The value target waits for the result (`finish`).
        self.positions.push(Position::encode(encoder, game, line, policy, [0.0; 3]));
        self.movers.push(game.to_move(line.state()));
    }

    /// The finished game's record, its samples labelled with the result.
    pub(super) fn finish<G: Family>(mut self, job: GameJob, line: &Playthrough<G>) -> FinishedGame {
        let outcome = line.outcome().expect("a finished game");
        for (position, &mover) in self.positions.iter_mut().zip(&self.movers) {
            position.wdl = wdl_target(outcome.winner, mover);
        }
        let saved = SavedGame {
            spec_index: job.spec_index,
            moves: line.move_texts(),
            targets: self.targets,
            winner: outcome.winner.map(|s| s.index() as u8),
            reason: outcome.reason.as_str().to_string(),
        };
        FinishedGame { index: job.index, saved, positions: self.positions, plies: line.plies() }
    }
}

/// Plays games on one thread, `config.concurrent_games` at a time, calling `on_finished` as each game
/// ends. Workers share `jobs` through `next` (the index of the next job to take), so none runs out of
/// games while another still has a queue. `games[spec]` is the game of each spec.
pub fn play_games<G: Family>(
    games: &[G],
    net: &InferenceNet,
    config: &SelfPlayConfig,
    jobs: &[GameJob],
    next: &AtomicUsize,
    on_finished: &mut dyn FnMut(FinishedGame),
) {
    let encoder = G::Encoder::for_game(&games[0]);
    let actions = games[0].facts().action_count;
    let mut queue = std::iter::from_fn(|| jobs.get(next.fetch_add(1, Ordering::Relaxed)).copied());
    let mut slots: Vec<Slot<G>> = Vec::with_capacity(config.concurrent_games);
    let mut input: Vec<f32> = Vec::new();
    let mut inference = Inference::default();
    let mut evaluations = Evaluations::default();
    loop {
        while slots.len() < config.concurrent_games {
            let Some(job) = queue.next() else { break };
            slots.push(new_slot(&games[job.spec_index], config, job));
        }
        if slots.is_empty() {
            return;
        }
        // Gather leaves from every game and encode them, each with its own ruleset's planes, into one
        // input batch.
        input.clear();
        let mut rows = 0;
        for slot in &mut slots {
            let wanted = (slot.wanted - slot.done).min(config.leaves_per_game as u32);
            let (finished, _) = slot.search.gather_leaves(wanted);
            slot.done += finished;
            let leaves = slot.search.leaves();
            encode_leaves(&encoder, &games[slot.job.spec_index], leaves, &mut input);
            slot.leaves = rows..rows + leaves.len();
            rows += leaves.len();
        }
        net.infer(&input, rows, &mut inference);
        // Hand each game its answers, then move the games whose search is done.
        let mut index = 0;
        while index < slots.len() {
            let slot = &mut slots[index];
            let game = &games[slot.job.spec_index];
            let gathered = slot.leaves.len();
            if gathered > 0 {
                let leaves = slot.search.leaves();
                evaluations.prepare(leaves);
                let policy = &inference.policy[slot.leaves.start * actions..slot.leaves.end * actions];
                let wdl = &inference.wdl[slot.leaves.start * 3..slot.leaves.end * 3];
                write_evaluations(game, leaves, policy, wdl, actions, &mut evaluations);
                slot.done += slot.search.absorb_evaluations(&evaluations, &mut slot.rng);
            }
            let stalled = gathered == 0 && slot.done < slot.wanted && !slot.search.root_proof().is_proven();
            let searched = slot.done >= slot.wanted || slot.search.root_proof().is_proven();
            if searched || (stalled && slot.done > 0) {
                finish_move(game, &encoder, config, slot);
                if slot.line.is_over() {
                    let slot = slots.swap_remove(index);
                    on_finished(slot.samples.finish(slot.job, &slot.line));
                    continue;
                }
                start_move(config, slot);
            }
            index += 1;
        }
    }
}

fn new_slot<G: Family>(game: &G, config: &SelfPlayConfig, job: GameJob) -> Slot<G> {
    let search_config = SearchConfig {
        simulations: config.simulations,
        c_puct: config.c_puct,
        batch: config.leaves_per_game,
        root: match config.gumbel_actions {
            0 => RootPolicy::Puct {
                noise: Some(DirichletNoise {
                    alpha: config.dirichlet_alpha,
                    epsilon: config.dirichlet_share,
                }),
            },
            considered => RootPolicy::Gumbel { considered },
        },
        reuse_tree: true,
        ..SearchConfig::default()
    };
    let mut slot = Slot {
        job,
        line: Playthrough::new(game.clone()),
        search: Mcts::new(game.clone(), search_config),
        rng: Pcg64Mcg::seed_from_u64(derive_seed(job.seed, 0)),
        wanted: 0,
        done: 0,
        full: true,
        stray: stray_side(game, config).filter(|_| job.explores()),
        leaves: 0..0,
        samples: GameSamples::default(),
    };
    start_move(config, &mut slot);
    slot
}

/// Sets up the search of the slot's next move: full or fast.
fn start_move<G: Family>(config: &SelfPlayConfig, slot: &mut Slot<G>) {
    slot.full = config.draw_full_search(&mut slot.rng);
    slot.wanted = if slot.full { config.simulations } else { config.fast_simulations };
    slot.done = 0;
    slot.search.set_budget(slot.wanted, slot.full);
    slot.search.set_position(slot.line.start(), slot.line.moves());
}

/// Picks and plays the searched move, recording a training sample after a full search.
fn finish_move<G: Family>(game: &G, encoder: &G::Encoder, config: &SelfPlayConfig, slot: &mut Slot<G>) {
    let mover = game.to_move(slot.line.state());
    let temperature = self_play_temperature(config, slot.stray, mover, slot.line.plies());
    let output = slot.search.output(temperature, &mut slot.rng).expect("a game not over has a move");
    if slot.full {
        slot.samples.record(
            game,
            encoder,
            &slot.line,
            action_shares(game, slot.line.state(), &output.policy),
        );
    }
    slot.line.play(output.mv);
}

/// The temperature `mover`'s move at `plies` is drawn with: 1 (in proportion to visits) for the
/// first `temperature_plies` and for the straying side throughout, else 0 (the most visited).
fn self_play_temperature(config: &SelfPlayConfig, stray: Option<Side>, mover: Side, plies: u32) -> f32 {
    match stray == Some(mover) {
        true => 1.0,
        false => move_temperature(plies, config.temperature_plies, 0.0),
    }
}

/// The side `selfplay.stray_side` names in `game` (`None` when the key is empty or names no side:
/// [`check_stray_side`] refuses the latter before a run starts).
fn stray_side<G: Family>(game: &G, config: &SelfPlayConfig) -> Option<Side> {
    game.side_names().iter().position(|&name| name == config.stray_side).map(Side::from_index)
}

/// Refuses a `selfplay.stray_side` that is not empty and names no side of one of `games`, or that
/// comes with the Gumbel root, whose moves take no temperature.
pub fn check_stray_side<G: Family>(games: &[G], config: &SelfPlayConfig) -> anyhow::Result<()> {
    if config.stray_side.is_empty() {
        return Ok(());
    }
    if config.gumbel_actions > 0 {
        anyhow::bail!(
            "selfplay.stray_side works through the move temperature, which the Gumbel root \
             (selfplay.gumbel_actions > 0) does not use: set one of the two"
        );
    }
    match games.iter().find(|game| stray_side(*game, config).is_none()) {
        Some(game) => anyhow::bail!(
            "selfplay.stray_side = \"{}\": the sides of `{}` are {}",
            config.stray_side,
            game.spec(),
            game.side_names().join(" and ")
        ),
        None => Ok(()),
    }
}

/// A search's policy target as shares of the game's action indices.
pub(super) fn action_shares<G: Family>(
    game: &G,
    state: &G::State,
    policy: &[(G::Move, f32)],
) -> Vec<(ActionIndex, f32)> {
    policy.iter().map(|&(mv, share)| (game.action_index(state, mv), share)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::hunt::{GENERAL, REBELS};

    #[test]
    fn half_the_games_explore_whatever_their_spec() {
        // Six specs taken in turn, 96 games a generation (Juroku's run): every spec gets games of
        // both kinds, about half of each.
        let specs = 6;
        let mut explored = vec![0usize; specs];
        let games = 96 * 20;
        for number in 0..games {
            let job = GameJob {
                index: number % 96,
                spec_index: number % specs,
                seed: derive_seed(1, number as u64),
            };
            explored[job.spec_index] += usize::from(job.explores());
        }
        let per_spec = games / specs;
        for (spec, &count) in explored.iter().enumerate() {
            assert!(
                (per_spec * 2 / 5..=per_spec * 3 / 5).contains(&count),
                "spec {spec}: {count} of {per_spec}"
            );
        }
    }

    #[test]
    fn the_straying_side_draws_every_move_and_the_other_only_its_first() {
        let config = SelfPlayConfig { temperature_plies: 4, ..SelfPlayConfig::default() };
        for plies in [0, 3] {
            assert_eq!(self_play_temperature(&config, None, GENERAL, plies), 1.0);
            assert_eq!(self_play_temperature(&config, Some(REBELS), GENERAL, plies), 1.0);
        }
        for plies in [4, 50, 299] {
            assert_eq!(self_play_temperature(&config, None, REBELS, plies), 0.0);
            assert_eq!(self_play_temperature(&config, Some(REBELS), GENERAL, plies), 0.0);
            assert_eq!(self_play_temperature(&config, Some(REBELS), REBELS, plies), 1.0);
        }
    }

    #[test]
    fn a_stray_side_must_name_a_side_of_every_spec() {
        let games = [crate::tablebase::testing::hunt("twenty-six-rebels")];
        let config =
            |side: &str| SelfPlayConfig { stray_side: side.to_string(), ..SelfPlayConfig::default() };
        assert!(check_stray_side(&games, &config("")).is_ok());
        assert!(check_stray_side(&games, &config("rebels")).is_ok());
        let err = check_stray_side(&games, &config("black")).unwrap_err().to_string();
        assert_eq!(
            err,
            "selfplay.stray_side = \"black\": the sides of `twenty-six-rebels` are general and rebels"
        );
        assert_eq!(stray_side(&games[0], &config("rebels")), Some(REBELS));
        let gumbel = SelfPlayConfig { gumbel_actions: 8, ..config("rebels") };
        let err = check_stray_side(&games, &gumbel).unwrap_err().to_string();
        assert!(err.contains("gumbel_actions"), "{err}");
    }
}
