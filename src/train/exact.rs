//! Exact value targets (`replay.exact_values`): a sample whose position a tablebase solves learns that
//! position's value under best play in place of its game's result, as Lc0 rescores its training games
//! with endgame tables.
//!
//! Why: in a game whose self-play ends drawn nearly every time (Juroku Musashi's first run drew 95–100%
//! of its games), the game results teach the value head that everything is a draw, while the table
//! knows that the open triangle's start is a forced Rebel win. The policy targets stay the searches'
//! visit shares: only the value head is told the truth.
//!
//! A table's value ignores repetition, which changes nothing under best play (the winning side never
//! repeats: each of its moves shortens the distance); the draw cap is counted: a result farther than
//! the plies the cap leaves is a draw.
//!
//! `replay.exact_discount` (γ < 1) also teaches the distance: a win in `d` plies is labelled a win with
//! weight ½ + ½·γ^d and a draw with the rest (a loss alike), so the value of a won position rises as
//! its win comes nearer. Why: with every won position worth the same, a search in a won position has
//! nothing to prefer one move by, and Juroku's first exact-values run shuffled its forced wins into
//! repetitions (Lc0 adds a moves-left head for the same reason). The weight never falls below ½ so
//! that a long loss stays far from a draw: with γ^d alone a loss in 80 plies was worth −0.2, and the
//! network's General, who is lost from the start, gave away the draws the Rebels let go for it.
//! ½·γ^d·ln(1/γ), the value a ply gains, is largest at d = 1/ln(1/γ): 0.98 suits wins of about 50
//! plies, Juroku's start.

use anyhow::bail;

use super::replay::{Position, SavedGame};
use super::tables::SpecTables;
use crate::family::Family;
use crate::game::{Game, Playthrough};
use crate::tablebase::Verdict;

/// The tables of a run's specs and the discount of their distances.
pub struct ExactValues {
    tables: SpecTables,
    /// γ of `replay.exact_discount`: a result `d` plies away weighs ½ + ½·γ^d, the rest a draw.
    discount: f32,
}

/// What a relabelling did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Relabelled {
    /// Samples whose position a table solves.
    pub solved: usize,
    /// Of those, samples whose game result differed from the exact value.
    pub changed: usize,
}

impl std::ops::AddAssign for Relabelled {
    fn add_assign(&mut self, other: Relabelled) {
        self.solved += other.solved;
        self.changed += other.changed;
    }
}

impl ExactValues {
    /// Opens the table of every spec the tables solve ([`SpecTables::open`]); specs they do not solve
    /// keep their games' results. An error when no spec has a table: the key would do nothing.
    pub fn open<G: Family>(games: &[G], discount: f32) -> anyhow::Result<ExactValues> {
        let tables = SpecTables::open(games, "replay.exact_values")?;
        if let Some(reasons) = tables.none_solved() {
            bail!(
                "replay.exact_values: no spec of the run is solved by a tablebase ({reasons}); remove the key"
            );
        }
        Ok(ExactValues { tables, discount })
    }

    /// The `[win, draw, loss]` target of a verdict for its mover.
    fn target(&self, verdict: Verdict) -> [f32; 3] {
        let weight = |plies: u32| 0.5 + 0.5 * self.discount.powi(plies.min(i32::MAX as u32) as i32);
        match verdict {
            Verdict::Win { plies } => [weight(plies), 1.0 - weight(plies), 0.0],
            Verdict::Loss { plies } => [0.0, 1.0 - weight(plies), weight(plies)],
            Verdict::Draw => [0.0, 1.0, 0.0],
        }
    }

    /// Sets the value target of each of `saved`'s samples (`positions`, one per target, in order) whose
    /// position its spec's table solves.
    pub fn relabel<G: Family>(
        &self,
        game: &G,
        saved: &SavedGame,
        positions: &mut [Position],
    ) -> Result<Relabelled, String> {
        let Some(table) = self.tables.get(saved.spec_index) else { return Ok(Relabelled::default()) };
        let hunt = game.as_hunt().expect("only hunt games have tables");
        let mut line = Playthrough::new(hunt.clone());
        let mut done = Relabelled::default();
        let mut samples = saved.targets.iter().zip(positions.iter_mut()).peekable();
        for (ply, text) in saved.moves.iter().enumerate() {
            while let Some((_, position)) = samples.next_if(|(target, _)| target.ply as usize == ply) {
                let Some(verdict) = table.probe(line.state()) else { continue };
                let plies_left = hunt.max_plies().saturating_sub(line.plies());
                let wdl = self.target(verdict.within(plies_left));
                done.solved += 1;
                done.changed += usize::from(position.wdl != wdl);
                position.wdl = wdl;
            }
            line.play_text(text).map_err(|e| format!("move {} ({text}): {e}", ply + 1))?;
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    use super::*;
    use crate::game::AnyGame;
    use crate::game::hunt::HuntGame;
    use crate::game::hunt::HuntState;
    use crate::tablebase::testing::{hunt, six_rebels};
    use crate::train::replay::{Target, encode_saved};

    #[test]
    fn runs_without_a_solved_spec_are_refused() {
        let AnyGame::Chess(chess) = AnyGame::from_spec("chess").unwrap() else { unreachable!() };
        let err = ExactValues::open(&[chess], 1.0).err().expect("no table solves chess").to_string();
        assert!(err.contains("no spec of the run is solved"), "{err}");
        assert!(err.contains("no tablebase for `chess`: only sixteen-rebels, juroku-musashi"), "{err}");
        assert!(ExactValues::open(&[hunt("twenty-six-rebels")], 1.0).is_err());
    }

    /// A random game of sixteen-rebels, every ply recorded, labelled with its own result.
    fn random_game(game: &HuntGame, seed: u64) -> (SavedGame, Vec<Position>, Vec<HuntState>) {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut line = Playthrough::new(game.clone());
        while !line.is_over() {
            let moves = line.legal_moves();
            line.play(moves[rng.random_range(0..moves.len())]);
        }
        let saved = SavedGame {
            spec_index: 0,
            moves: line.move_texts(),
            targets: (0..line.plies()).map(|ply| Target { ply, policy: Vec::new() }).collect(),
            winner: line.outcome().unwrap().winner.map(|s| s.index() as u8),
            reason: line.outcome().unwrap().reason.as_str().to_string(),
        };
        let positions = encode_saved(game, &saved).unwrap();
        (saved, positions, line.states()[..line.plies() as usize].to_vec())
    }

    #[test]
    fn solved_positions_learn_their_exact_value_and_the_rest_keep_the_result() {
        // The shared test table holds sixteen-rebels' levels up to six Rebels: random games reach them.
        let table = six_rebels();
        let game = table.game().clone();
        let exact = ExactValues { tables: SpecTables::of(vec![Some(table.clone())]), discount: 1.0 };
        let mut total = Relabelled::default();
        for seed in 0..40 {
            let (saved, mut positions, states) = random_game(&game, seed);
            let before = positions.clone();
            let done = exact.relabel(&game, &saved, &mut positions).unwrap();
            total += done;
            let mut solved = 0;
            for (ply, ((state, old), new)) in states.iter().zip(&before).zip(&positions).enumerate() {
                let mover = game.to_move(state);
                let plies_left = game.max_plies() - ply as u32;
                match table.probe(state) {
                    None => assert_eq!(old.wdl, new.wdl, "an unsolved position keeps its result"),
                    Some(verdict) => {
                        solved += 1;
                        let for_mover = match verdict.within(plies_left) {
                            Verdict::Win { .. } => [1.0, 0.0, 0.0],
                            Verdict::Draw => [0.0, 1.0, 0.0],
                            Verdict::Loss { .. } => [0.0, 0.0, 1.0],
                        };
                        assert_eq!(new.wdl, for_mover, "seed {seed}: {state:?} ({mover:?} to move)");
                    }
                }
            }
            assert_eq!(done.solved, solved);
        }
        assert!(total.solved > 100, "random games reach six Rebels: {total:?}");
        assert!(total.changed > 0 && total.changed < total.solved, "{total:?}");
    }

    #[test]
    fn a_discount_weighs_each_result_by_its_distance() {
        let table = six_rebels();
        let game = table.game().clone();
        let exact = ExactValues { tables: SpecTables::of(vec![Some(table.clone())]), discount: 0.9 };
        let (mut nearest_win, mut farthest_win) = (f32::MAX, f32::MIN);
        let mut seen = [false; 3];
        for seed in 0..40 {
            let (saved, mut positions, states) = random_game(&game, seed);
            exact.relabel(&game, &saved, &mut positions).unwrap();
            for (ply, (state, position)) in states.iter().zip(&positions).enumerate() {
                let Some(verdict) = table.probe(state) else { continue };
                let [win, draw, loss] = position.wdl;
                assert!((win + draw + loss - 1.0).abs() < 1e-6, "{:?}", position.wdl);
                match verdict.within(game.max_plies() - ply as u32) {
                    Verdict::Win { plies } => {
                        assert!((win - 0.5 - 0.5 * 0.9f32.powi(plies as i32)).abs() < 1e-6, "{verdict}");
                        assert_eq!(loss, 0.0);
                        nearest_win = nearest_win.min(plies as f32);
                        farthest_win = farthest_win.max(plies as f32);
                        seen[0] = true;
                    }
                    Verdict::Loss { plies } => {
                        assert!((loss - 0.5 - 0.5 * 0.9f32.powi(plies as i32)).abs() < 1e-6, "{verdict}");
                        assert_eq!(win, 0.0);
                        seen[2] = true;
                    }
                    Verdict::Draw => {
                        assert_eq!(position.wdl, [0.0, 1.0, 0.0]);
                        seen[1] = true;
                    }
                }
            }
        }
        assert!(seen[0] && seen[2], "random games reach won and lost positions: {seen:?}");
        assert!(nearest_win < farthest_win, "wins at several distances: {nearest_win}..{farthest_win}");
    }
}
